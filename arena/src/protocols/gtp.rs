//! Ringside as a GTP engine: the Go Text Protocol, version 2, on any reader and writer
//! (`arena gtp` uses stdin and stdout), so that GTP tools (GoGui's `gogui-twogtp`,
//! HavannahGui) can play Ringside's agents.
//!
//! A command is an optional numeric id, a name and arguments on one line (`#` starts a
//! comment); the answer is `=[id] result` or `?[id] reason`, then an empty line. Commands:
//!
//! | command | does |
//! |---|---|
//! | `protocol_version` | `2` |
//! | `name`, `version` | `Ringside`, the crate's version |
//! | `known_command C`, `list_commands` | `true`/`false`; every command, one a line |
//! | `boardsize N` | the same game with size (or side) N and its other options (`swap=on`, …) kept, cleared; `?` if it has no such size (`boardsize N N`, as HexGui sends it, is the same; two different numbers are refused) |
//! | `clear_board` | the start position; the agent is built afresh with its seed |
//! | `komi F` | accepted and ignored (no game here has komi) |
//! | `play C M` | plays move M for colour C; `?` if it is not C's turn or M is illegal |
//! | `genmove C` | the agent chooses and plays a move for C and answers it |
//! | `undo` | takes back the last move |
//! | `showboard` | the board, from a new line |
//! | `final_score` | `B+`/`W+` (with the score margin where the game keeps one) or `0`; `?` before the end |
//!
//! A `genmove` whose agent fails (a panic, or a fault of an engine behind it) answers `?` with
//! the reason; the session goes on.
//! | `ringside-game SPEC` | switches to another game spec (`rin:size=8`), cleared |
//! | `quit` | answers, then the session ends |
//!
//! Colours are named as the GTP client names them ([`ringside_agents::gtp::gtp_colour`]): a
//! colour called black or white in the game is `b`/`black` or `w`/`white` (Havannah's first
//! player is white, as in Castro); in the other games the first-listed colour is `b`. The
//! game's own names (`light`, `dark`, `x`, `o`, …) are accepted too. Moves are in Ringside's
//! notation, or in another the game knows (`arena gtp --coords hexgui` for Hex controllers
//! such as HexGui: `swap-pieces` for the swap; `--coords castro` for Havannah).
//! Games where a turn has two moves (Rin) take one `play` or `genmove` a move. Any error is a
//! `?` answer with a reason: the session never stops on bad input.

use std::io::{BufRead, Write};

use std::panic::{AssertUnwindSafe, catch_unwind};

use ringside_agents::gtp::{Coords, gtp_colour, parse_gtp_colour};
use ringside_agents::{Agent, AgentFault, AgentSpec, AnyAgent, LabelledSpec, SpecError};
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{
    Features, Game, GameSpecError, IllegalMove, Outcome, ParseMoveError, Player,
};

use crate::error::{Error, Result};

/// Every command the server knows, in `list_commands` order.
pub const COMMANDS: [&str; 15] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "ringside-game",
    "quit",
];

/// How a session on one game ended.
enum End {
    Quit,
    Switch(AnyGame),
}

/// Serves GTP on `input` and `output` with the agent `agent` (seeded `seed`) on `game` until
/// `quit` or the end of the input. Errors only for a bad starting game or agent, or a failed
/// write.
pub fn serve(
    game: &AnyGame,
    agent: &LabelledSpec,
    seed: u64,
    coords: Coords,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<()> {
    let spec = &agent.spec;
    crate::run::pool::no_person(&agent.label, spec)?;
    checked(game, spec)?;
    let mut game = game.clone();
    loop {
        if !game.visit(Fits(coords)) {
            return Err(Error::setting(format!(
                "{game} is not written in the {} notation",
                coords.as_str()
            )));
        }
        let session = Session {
            game: &game,
            spec,
            seed,
            coords,
            input: &mut *input,
            output: &mut *output,
        };
        match game.visit(session)? {
            End::Quit => return Ok(()),
            End::Switch(next) => game = next,
        }
    }
}

/// Whether the agent can play `game`.
fn checked(game: &AnyGame, spec: &AgentSpec) -> Result<()> {
    struct Build<'a>(&'a AgentSpec);
    impl GameVisitor for Build<'_> {
        type Output = std::result::Result<(), SpecError>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            self.0.build(&start, 0).map(|_| ())
        }
    }
    game.visit(Build(spec))
        .map_err(|e| Error::setting(format!("agent '{spec}' cannot play {game}: {e}")))
}

/// Whether a game is written in a notation.
struct Fits(Coords);
impl GameVisitor for Fits {
    type Output = bool;
    fn visit<G: Game + Features>(self, start: G) -> bool {
        self.0.fits(&start)
    }
}

struct Session<'a> {
    game: &'a AnyGame,
    spec: &'a AgentSpec,
    seed: u64,
    coords: Coords,
    input: &'a mut dyn BufRead,
    output: &'a mut dyn Write,
}

impl GameVisitor for Session<'_> {
    type Output = Result<End>;
    fn visit<G: Game + Features>(self, start: G) -> Result<End> {
        let mut table = Table {
            agent: self
                .spec
                .build(&start, self.seed)
                .map_err(|e| Error::agent(&self.spec.to_string(), e))?,
            state: start.clone(),
            history: Vec::new(),
            game: self.game,
            spec: self.spec,
            seed: self.seed,
            coords: self.coords,
            start,
        };
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            let read = self
                .input
                .read_until(b'\n', &mut bytes)
                .map_err(|e| Error::new(crate::ErrorKind::Io, format!("gtp: cannot read: {e}")))?;
            if read == 0 {
                return Ok(End::Quit);
            }
            // A line that is not UTF-8 is read as far as it goes: a comment stays a comment,
            // and a command with bytes it cannot read is refused as unknown, not the session's
            // end.
            let line = String::from_utf8_lossy(&bytes);
            let text = line.split('#').next().unwrap_or("").trim();
            if text.is_empty() {
                continue;
            }
            let mut words = text.split_whitespace();
            let first = words.next().unwrap_or("");
            let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
                (Some(first), words.next().unwrap_or(""))
            } else {
                (None, first)
            };
            let args: Vec<&str> = words.collect();
            let (answer, end) = table.command(name, &args);
            let (mark, body) = match answer {
                Ok(body) => ('=', body),
                Err(refusal) => ('?', refusal.to_string()),
            };
            let sep = if body.is_empty() || body.starts_with('\n') {
                ""
            } else {
                " "
            };
            write!(self.output, "{mark}{}{sep}{body}\n\n", id.unwrap_or(""))
                .and_then(|()| self.output.flush())
                .map_err(|e| Error::new(crate::ErrorKind::Io, format!("gtp: cannot write: {e}")))?;
            if let Some(end) = end {
                return Ok(end);
            }
        }
    }
}

/// One game at the table: the state, its moves, the agent.
struct Table<'a, G: Game + Features> {
    start: G,
    state: G,
    /// Every move played, with the position before it.
    history: Vec<(G, G::Move)>,
    agent: AnyAgent<G>,
    /// The game as the session was opened (`start`'s typed spec).
    game: &'a AnyGame,
    spec: &'a AgentSpec,
    seed: u64,
    /// The notation moves are read and answered in.
    coords: Coords,
}

/// A command's answer: its text after `=`, or why it is refused (after `?`).
type Answer = std::result::Result<String, Refusal>;

/// Why a command is refused: the session goes on, and the reason is the `?` answer's text.
#[derive(Debug)]
enum Refusal {
    /// An argument is missing or unreadable: what the command needs.
    Syntax(&'static str),
    /// A colour argument names no colour of the game.
    NotAColour(String),
    /// An empty command (an id alone).
    NoCommand,
    /// A command the server does not know.
    UnknownCommand(String),
    /// `play` or `genmove` after the end of the game.
    GameOver,
    /// `play` or `genmove` for the colour not to move.
    NotTheirTurn {
        /// The colour to move.
        to_move: &'static str,
        /// The colour named.
        named: &'static str,
    },
    /// `play`'s move is not written in the notation.
    UnreadableMove(String, ParseMoveError),
    /// `play`'s move breaks a rule.
    IllegalMove(String, IllegalMove),
    /// The agent failed to choose (an engine behind it failed).
    AgentFailed(AgentFault),
    /// The agent panicked while choosing.
    AgentPanicked,
    /// The agent chose a move the rules refuse.
    AgentIllegal(String, IllegalMove),
    /// `undo` at the start.
    NothingToUndo,
    /// `final_score` before the end.
    NotOver,
    /// `boardsize` with a size the game (or the agent) does not take.
    UnacceptableSize,
    /// `ringside-game` with a spec that does not read.
    BadGame(GameSpecError),
    /// `ringside-game` with a game the agent cannot play.
    CannotPlay(Error),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Syntax(needs) => write!(f, "syntax error: {needs}"),
            Refusal::NotAColour(text) => write!(f, "syntax error: '{text}' is not a colour"),
            Refusal::NoCommand => f.write_str("no command"),
            Refusal::UnknownCommand(name) => write!(f, "unknown command '{name}'"),
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::NotTheirTurn { to_move, named } => {
                write!(f, "it is {to_move}'s turn, not {named}'s")
            }
            Refusal::UnreadableMove(text, e) => write!(f, "illegal move '{text}': {e}"),
            Refusal::IllegalMove(text, e) => write!(f, "illegal move '{text}': {e}"),
            // One line: a GTP answer ends at an empty line.
            Refusal::AgentFailed(fault) => {
                f.write_str(&format!("the agent failed: {fault}").replace('\n', " | "))
            }
            Refusal::AgentPanicked => f.write_str("the agent panicked"),
            Refusal::AgentIllegal(text, e) => {
                write!(f, "the agent chose an illegal move '{text}': {e}")
            }
            Refusal::NothingToUndo => f.write_str("cannot undo: no move has been played"),
            Refusal::NotOver => f.write_str("the game is not over"),
            Refusal::UnacceptableSize => f.write_str("unacceptable size"),
            Refusal::BadGame(e) => f.write_str(&e.reason),
            Refusal::CannotPlay(e) => f.write_str(&e.message),
        }
    }
}

impl<G: Game + Features> Table<'_, G> {
    fn command(&mut self, name: &str, args: &[&str]) -> (Answer, Option<End>) {
        let answer = match name {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("Ringside".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS
                .contains(&args.first().copied().unwrap_or(""))
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => return (Ok(String::new()), Some(End::Quit)),
            "boardsize" => return self.boardsize(args),
            "ringside-game" => return self.switch(args),
            "clear_board" => {
                self.clear();
                Ok(String::new())
            }
            "komi" => match args.first().map(|a| a.parse::<f64>()) {
                Some(Ok(_)) => Ok(String::new()),
                _ => Err(Refusal::Syntax("komi needs a number")),
            },
            "play" => self.play(args),
            "genmove" => self.genmove(args),
            "undo" => self.undo(),
            "showboard" => {
                let mut board = String::from("\n");
                board.push_str(&self.state.board_rows().join("\n"));
                match self.state.to_move() {
                    Some(p) => board.push_str(&format!("\n{} to move", self.state.player_name(p))),
                    None => board.push_str("\ngame over"),
                }
                Ok(board)
            }
            "final_score" => self.final_score(),
            "" => Err(Refusal::NoCommand),
            other => Err(Refusal::UnknownCommand(other.to_string())),
        };
        (answer, None)
    }

    fn clear(&mut self) {
        self.state = self.start.clone();
        self.history.clear();
        self.rebuild();
    }

    /// The agent built afresh with its seed and told the moves so far.
    fn rebuild(&mut self) {
        self.agent = crate::run::play::agent_told(self.spec, &self.start, self.seed, &self.history)
            .expect("the agent was built for this game before");
    }

    /// The colour named by a GTP colour argument.
    fn colour(&self, text: Option<&&str>) -> std::result::Result<Player, Refusal> {
        let text = text.ok_or(Refusal::Syntax("a colour is missing"))?;
        parse_gtp_colour(&self.start, text).ok_or_else(|| Refusal::NotAColour(text.to_string()))
    }

    fn to_move_is(&self, colour: Player) -> std::result::Result<(), Refusal> {
        match self.state.to_move() {
            None => Err(Refusal::GameOver),
            Some(p) if p == colour => Ok(()),
            Some(p) => Err(Refusal::NotTheirTurn {
                to_move: self.state.player_name(p),
                named: self.state.player_name(colour),
            }),
        }
    }

    fn play(&mut self, args: &[&str]) -> Answer {
        let colour = self.colour(args.first())?;
        let text = args.get(1).ok_or(Refusal::Syntax("a move is missing"))?;
        self.to_move_is(colour)?;
        let ours = self.coords.convert(&self.state, text, false);
        let mv = self
            .state
            .parse_move(&ours)
            .map_err(|e| Refusal::UnreadableMove(text.to_string(), e))?;
        let before = self.state.clone();
        self.state
            .try_play(mv)
            .map_err(|e| Refusal::IllegalMove(text.to_string(), e))?;
        self.agent.observe(&before, mv);
        self.history.push((before, mv));
        Ok(String::new())
    }

    fn genmove(&mut self, args: &[&str]) -> Answer {
        let colour = self.colour(args.first())?;
        self.to_move_is(colour)?;
        let (agent, state) = (&mut self.agent, &self.state);
        let decision = match catch_unwind(AssertUnwindSafe(|| agent.try_choose(state))) {
            Ok(Ok(decision)) => decision,
            Ok(Err(fault)) => return Err(Refusal::AgentFailed(fault)),
            Err(_) => {
                // The agent's state after a panic is unknown: build it afresh.
                self.rebuild();
                return Err(Refusal::AgentPanicked);
            }
        };
        let text = self
            .coords
            .convert(&self.state, &self.state.move_text(decision.mv), true);
        let before = self.state.clone();
        self.state
            .try_play(decision.mv)
            .map_err(|e| Refusal::AgentIllegal(text.clone(), e))?;
        self.agent.observe(&before, decision.mv);
        self.history.push((before, decision.mv));
        Ok(text)
    }

    fn undo(&mut self) -> Answer {
        let Some((before, _)) = self.history.pop() else {
            return Err(Refusal::NothingToUndo);
        };
        self.state = before;
        if matches!(self.spec, AgentSpec::Gtp(_)) {
            // An engine behind this one keeps its own board: start it again and retell it.
            self.rebuild();
        }
        Ok(String::new())
    }

    fn final_score(&self) -> Answer {
        let outcome = self.state.outcome().ok_or(Refusal::NotOver)?;
        Ok(match outcome {
            Outcome::Draw => "0".into(),
            Outcome::Win(p) => {
                let margin = self.state.scores().map_or(String::new(), |s| {
                    format!("{}", (s[p.index()] - s[p.other().index()]).abs())
                });
                format!(
                    "{}+{margin}",
                    gtp_colour(&self.start, p).to_ascii_uppercase()
                )
            }
        })
    }

    fn boardsize(&mut self, args: &[&str]) -> (Answer, Option<End>) {
        let Some(n) = args.first().and_then(|a| a.parse::<u32>().ok()) else {
            return (Err(Refusal::Syntax("boardsize needs a whole number")), None);
        };
        // HexGui sends columns and rows: the boards here are square.
        if args.get(1).is_some_and(|rows| rows.parse::<u32>() != Ok(n)) {
            return (Err(Refusal::UnacceptableSize), None);
        }
        let Ok(next) = self.game.with_board_size(n as usize) else {
            return (Err(Refusal::UnacceptableSize), None);
        };
        if checked(&next, self.spec).is_err() {
            return (Err(Refusal::UnacceptableSize), None);
        }
        if next == *self.game {
            self.clear();
            return (Ok(String::new()), None);
        }
        (Ok(String::new()), Some(End::Switch(next)))
    }

    fn switch(&mut self, args: &[&str]) -> (Answer, Option<End>) {
        let Some(spec) = args.first() else {
            return (
                Err(Refusal::Syntax("ringside-game needs a game spec")),
                None,
            );
        };
        let next = match AnyGame::parse(spec) {
            Ok(next) => next,
            Err(e) => return (Err(Refusal::BadGame(e)), None),
        };
        if let Err(e) = checked(&next, self.spec) {
            return (Err(Refusal::CannotPlay(e)), None);
        }
        if !next.visit(Fits(self.coords)) {
            // Refused while the session goes on, rather than accepted and then ended.
            return (
                Err(Refusal::CannotPlay(Error::setting(format!(
                    "{next} is not written in the {} notation",
                    self.coords.as_str()
                )))),
                None,
            );
        }
        (Ok(String::new()), Some(End::Switch(next)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answers to `commands`, in order, at a fresh table of `game` with a random agent.
    fn answers(game: &str, commands: &[(&str, &[&str])]) -> Vec<Answer> {
        struct Commands<'a> {
            game: &'a AnyGame,
            spec: &'a AgentSpec,
            commands: &'a [(&'a str, &'a [&'a str])],
        }
        impl GameVisitor for Commands<'_> {
            type Output = Vec<Answer>;
            fn visit<G: Game + Features>(self, start: G) -> Vec<Answer> {
                let mut table = Table {
                    agent: self.spec.build(&start, 1).unwrap(),
                    state: start.clone(),
                    history: Vec::new(),
                    game: self.game,
                    spec: self.spec,
                    seed: 1,
                    coords: Coords::Ringside,
                    start,
                };
                self.commands
                    .iter()
                    .map(|(name, args)| table.command(name, args).0)
                    .collect()
            }
        }
        let game = AnyGame::parse(game).unwrap();
        game.visit(Commands {
            game: &game,
            spec: &AgentSpec::Random,
            commands,
        })
    }

    #[test]
    fn a_refused_command_keeps_the_kind_of_its_refusal_and_reads_as_before() {
        let got = answers(
            "tic_tac_toe",
            &[
                ("komi", &[]),
                ("play", &["b"]),
                ("play", &["purple", "a1"]),
                ("play", &["w", "a1"]),
                ("play", &["b", "z9"]),
                ("play", &["b", "a1"]),
                ("play", &["w", "a1"]),
                ("final_score", &[]),
                ("boardsize", &["4"]),
                ("ringside-game", &["chess"]),
                ("frobnicate", &[]),
                ("undo", &[]),
                ("undo", &[]),
            ],
        );
        let texts: Vec<String> = got
            .iter()
            .map(|a| match a {
                Ok(text) => format!("= {text}"),
                Err(r) => format!("? {r}"),
            })
            .collect();
        assert!(matches!(got[0], Err(Refusal::Syntax(_))), "{texts:?}");
        assert_eq!(texts[0], "? syntax error: komi needs a number");
        assert!(matches!(got[1], Err(Refusal::Syntax(_))));
        assert!(matches!(&got[2], Err(Refusal::NotAColour(c)) if c == "purple"));
        assert!(
            matches!(got[3], Err(Refusal::NotTheirTurn { .. })),
            "{texts:?}"
        );
        assert!(
            matches!(got[4], Err(Refusal::UnreadableMove(..))),
            "{texts:?}"
        );
        assert!(texts[4].starts_with("? illegal move 'z9': "), "{texts:?}");
        assert!(got[5].is_ok(), "{texts:?}");
        assert!(matches!(got[6], Err(Refusal::IllegalMove(..))), "{texts:?}");
        assert!(texts[6].starts_with("? illegal move 'a1': "), "{texts:?}");
        assert!(matches!(got[7], Err(Refusal::NotOver)));
        assert_eq!(texts[7], "? the game is not over");
        assert!(
            matches!(got[8], Err(Refusal::UnacceptableSize)),
            "{texts:?}"
        );
        assert!(matches!(got[9], Err(Refusal::BadGame(_))), "{texts:?}");
        assert!(texts[9].contains("unknown game 'chess'"), "{texts:?}");
        assert!(matches!(&got[10], Err(Refusal::UnknownCommand(n)) if n == "frobnicate"));
        assert!(got[11].is_ok(), "{texts:?}");
        assert!(matches!(got[12], Err(Refusal::NothingToUndo)));
    }
}
