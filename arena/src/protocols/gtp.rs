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
use ringside_agents::{Agent, AgentSpec, AnyAgent};
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game, Outcome, Player};

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
    agent: &str,
    seed: u64,
    coords: Coords,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<()> {
    let spec = AgentSpec::parse(agent).map_err(|e| Error::agent(agent, e))?;
    checked(game, &spec)?;
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
            spec: &spec,
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
        type Output = std::result::Result<(), String>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            self.0
                .build(&start, 0)
                .map(|_| ())
                .map_err(|e| e.to_string())
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
        let mut line = String::new();
        loop {
            line.clear();
            let read = self
                .input
                .read_line(&mut line)
                .map_err(|e| Error::new(crate::ErrorKind::Io, format!("gtp: cannot read: {e}")))?;
            if read == 0 {
                return Ok(End::Quit);
            }
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
            let (mark, body) = match &answer {
                Ok(body) => ('=', body.as_str()),
                Err(reason) => ('?', reason.as_str()),
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

type Answer = std::result::Result<String, String>;

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
                _ => Err("syntax error: komi needs a number".into()),
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
            "" => Err("no command".into()),
            other => Err(format!("unknown command '{other}'")),
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
    fn colour(&self, text: Option<&&str>) -> std::result::Result<Player, String> {
        let text = text.ok_or("syntax error: a colour is missing")?;
        parse_gtp_colour(&self.start, text)
            .ok_or_else(|| format!("syntax error: '{text}' is not a colour"))
    }

    fn to_move_is(&self, colour: Player) -> std::result::Result<(), String> {
        match self.state.to_move() {
            None => Err("the game is over".into()),
            Some(p) if p == colour => Ok(()),
            Some(p) => Err(format!(
                "it is {}'s turn, not {}'s",
                self.state.player_name(p),
                self.state.player_name(colour)
            )),
        }
    }

    fn play(&mut self, args: &[&str]) -> Answer {
        let colour = self.colour(args.first())?;
        let text = args.get(1).ok_or("syntax error: a move is missing")?;
        self.to_move_is(colour)?;
        let ours = self.coords.convert(&self.state, text, false);
        let mv = self
            .state
            .parse_move(&ours)
            .map_err(|e| format!("illegal move '{text}': {e}"))?;
        let before = self.state.clone();
        self.state
            .try_play(mv)
            .map_err(|e| format!("illegal move '{text}': {e}"))?;
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
            Ok(Err(fault)) => return Err(format!("the agent failed: {fault}").replace('\n', " | ")),
            Err(_) => {
                // The agent's state after a panic is unknown: build it afresh.
                self.rebuild();
                return Err("the agent panicked".into());
            }
        };
        let text = self
            .coords
            .convert(&self.state, &self.state.move_text(decision.mv), true);
        let before = self.state.clone();
        self.state
            .try_play(decision.mv)
            .map_err(|e| format!("the agent chose an illegal move '{text}': {e}"))?;
        self.agent.observe(&before, decision.mv);
        self.history.push((before, decision.mv));
        Ok(text)
    }

    fn undo(&mut self) -> Answer {
        let Some((before, _)) = self.history.pop() else {
            return Err("cannot undo: no move has been played".into());
        };
        self.state = before;
        if matches!(self.spec, AgentSpec::Gtp(_)) {
            // An engine behind this one keeps its own board: start it again and retell it.
            self.rebuild();
        }
        Ok(String::new())
    }

    fn final_score(&self) -> Answer {
        let outcome = self.state.outcome().ok_or("the game is not over")?;
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
            return (
                Err("syntax error: boardsize needs a whole number".into()),
                None,
            );
        };
        // HexGui sends columns and rows: the boards here are square.
        if args.get(1).is_some_and(|rows| rows.parse::<u32>() != Ok(n)) {
            return (Err("unacceptable size".into()), None);
        }
        let Ok(next) = self.game.with_board_size(n as usize) else {
            return (Err("unacceptable size".into()), None);
        };
        if checked(&next, self.spec).is_err() {
            return (Err("unacceptable size".into()), None);
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
                Err("syntax error: ringside-game needs a game spec".into()),
                None,
            );
        };
        let next = match AnyGame::parse(spec) {
            Ok(next) => next,
            Err(e) => return (Err(e.reason), None),
        };
        match checked(&next, self.spec) {
            Ok(()) => (Ok(String::new()), Some(End::Switch(next))),
            Err(e) => (Err(e.message), None),
        }
    }
}
