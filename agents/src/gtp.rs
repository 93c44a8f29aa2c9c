//! An engine outside the process as an agent: a program that speaks the Go Text Protocol
//! (GTP v2), driven by Ringside as referee.
//!
//! # The spec
//! `gtp:cmd=PROGRAM ARGS,name=LABEL,coords=ringside|castro|hexgui,time_ms=N,margin_ms=N,setup=C1;C2`
//!
//! - `cmd` (required): the program and its arguments, split at spaces; a single-quoted part
//!   (`'a b'`) is one argument. A value holding a comma is written in double quotes, with
//!   `\"` and `\\` inside: `cmd="/opt/engine --list=a,b"`. This quoting works for every
//!   spec value.
//! - `name`: a label for messages (default: the program's file name).
//! - `coords`: the engine's move notation. `ringside` (default) is Ringside's own.
//!   `castro` is HavannahGui's, which Castro uses, for Havannah only: its letter is the row
//!   and its number the column, the transpose of Ringside's (and OpenSpiel's) letter = column,
//!   number = row. On a size-3 board, Ringside's cells and Castro's names of the same cells:
//!
//!   ```text
//!   Ringside (letter = column)        Castro (letter = row)
//!        a1 b1 c1                          a1 a2 a3
//!      a2 b2 c2 d2                       b1 b2 b3 b4
//!    a3 b3 c3 d3 e3                    c1 c2 c3 c4 c5
//!      b4 c4 d4 e4                       d2 d3 d4 d5
//!        c5 d5 e5                          e3 e4 e5
//!   ```
//!
//!   So Ringside's `e3` is Castro's `c5`, and `b4` is `d2`. `hexgui` is HexGui's (Benzene's,
//!   MoHex's), for Hex only: the same cell names (column letter, row number from the top) and
//!   `swap-pieces` for the swap.
//! - `time_ms` (default 10,000): the time the engine may take for a move. An answer later
//!   than `time_ms + margin_ms` (default 1,000) forfeits the game. If the engine lists
//!   `time_settings`, it is told `time_settings 0 S 1` (S = `time_ms` in whole seconds, at
//!   least 1); otherwise set its time with its own options or `setup`.
//! - `setup`: GTP commands, separated by `;`, sent after `clear_board` at each game's start
//!   (for Castro: `setup=time -m 0.25 -g 0 -f 0`).
//!
//! # What the referee sends
//! One process a game, started at the agent's first decision or the first move it is told
//! of: `list_commands`; `boardsize N` for games with a size or side; `clear_board`;
//! `ringside-game SPEC` if the engine lists it (another Ringside: the exact start, options
//! included); `time_settings` if listed; the `setup` commands; then `play C M` for every move
//! since the engine last spoke, and `genmove C`. At the end of the game (when the agent is
//! dropped) it sends `quit`, waits up to one second, then kills the process.
//! One process a game keeps games independent (a crash or a leaked state cannot reach the
//! next game) at the price of a start-up a game.
//!
//! # Colours
//! [`gtp_colour`]: a colour named `black` or `white` in the game is `b` or `w`; in games with
//! other names (light/dark, x/o) the first-listed colour is `b`. So Havannah's first player
//! is `w` (white), as Castro has it.
//!
//! # Faults
//! Every fault loses the game for the engine, with a [`FaultKind`]: a process that cannot
//! start, exits, or closes its pipes ([`FaultKind::EngineCrash`]); an answer later than the
//! limit ([`FaultKind::TimeForfeit`]); a move that does not parse or is not legal
//! ([`FaultKind::IllegalMove`]); a `?` answer or a line that is not an answer
//! ([`FaultKind::ProtocolError`]); `resign` ([`FaultKind::Resign`]). After a fault the
//! process is killed at once (no `quit`), and the fault's message ends with the last lines
//! the engine wrote to stderr.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ringside_engine::{Game, Player};

use crate::{Agent, AgentFault, Decision, FaultKind, SearchStats};

/// How long an engine may take to start and answer the set-up commands.
const START_TIME: Duration = Duration::from_secs(10);
/// How long an engine has to leave after `quit` before it is killed.
const GRACE: Duration = Duration::from_secs(1);
/// Lines of the engine's stderr kept for fault messages.
const STDERR_LINES: usize = 20;

/// The notation an engine writes moves in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coords {
    /// Ringside's own notation.
    Ringside,
    /// HavannahGui's (Castro's): Ringside's letter and number exchanged.
    Castro,
    /// HexGui's (Benzene's, MoHex's), for Hex: Ringside's cell names, `swap-pieces` for the
    /// swap.
    HexGui,
}

impl Coords {
    /// The spec's name of the notation.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Coords::Ringside => "ringside",
            Coords::Castro => "castro",
            Coords::HexGui => "hexgui",
        }
    }

    /// Every notation, Ringside's first.
    pub const ALL: [Coords; 3] = [Coords::Ringside, Coords::Castro, Coords::HexGui];

    /// The names of [`Coords::ALL`], as specs and flags write them.
    pub const NAMES: [&'static str; 3] = ["ringside", "castro", "hexgui"];

    /// The notation called `name` (one of [`Coords::NAMES`]).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Coords> {
        Coords::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// A move of `game` in Ringside's notation written in this one (`into`), or back; the
    /// game knows its other notations ([`Game::translate_move`]). Text the game cannot
    /// translate is left as it is.
    #[must_use]
    pub fn convert<G: Game>(self, game: &G, text: &str, into: bool) -> String {
        match self {
            Coords::Ringside => text.to_string(),
            other => game
                .translate_move(other.as_str(), text, into)
                .unwrap_or_else(|| text.to_string()),
        }
    }

    /// Whether `game` can be written in this notation.
    #[must_use]
    pub fn fits<G: Game>(self, game: &G) -> bool {
        self == Coords::Ringside || game.notations().contains(&self.as_str())
    }
}

/// The settings of an external engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GtpSpec {
    /// The command line as written in the spec.
    pub cmd: String,
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// A label, if the spec gives one.
    pub name: Option<String>,
    /// The engine's notation.
    pub coords: Coords,
    /// The time the engine may take for a move.
    pub time: Duration,
    /// What it may take beyond `time` before it forfeits.
    pub margin: Duration,
    /// Commands sent after `clear_board` at each game's start.
    pub setup: Vec<String>,
}

/// Splits a command line at spaces; single quotes group (`play 'a b'` is two words).
///
/// # Errors
/// When a single quote is left open, or the line holds no word.
pub fn split_command(cmd: &str) -> Result<Vec<String>, crate::SpecError> {
    let refused = |reason: String| crate::spec::error_of(crate::SpecErrorKind::BadValue, reason);
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    for c in cmd.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return Err(refused(format!(
            "gtp: cmd '{cmd}' has an unclosed single quote"
        )));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(refused("gtp: cmd is empty".into()));
    }
    Ok(words)
}

/// The GTP name of a colour: `b` for a colour named black, `w` for white; otherwise `b` for
/// the first-listed colour and `w` for the other.
#[must_use]
pub fn gtp_colour<G: Game>(state: &G, player: Player) -> &'static str {
    match state.stone(player) {
        Some(ringside_engine::Stone::Black) => "b",
        Some(ringside_engine::Stone::White) => "w",
        None if player == Player::ZERO => "b",
        None => "w",
    }
}

/// The colour a GTP colour argument names: `b`/`black`, `w`/`white` (as [`gtp_colour`]), or
/// the game's own name of a colour.
#[must_use]
pub fn parse_gtp_colour<G: Game>(state: &G, text: &str) -> Option<Player> {
    let text = text.to_ascii_lowercase();
    let short = match text.as_str() {
        "black" => "b",
        "white" => "w",
        other => other,
    };
    [Player::ZERO, Player::ONE].into_iter().find(|&p| {
        gtp_colour(state, p) == short || state.player_name(p).eq_ignore_ascii_case(&text)
    })
}

/// A running engine: its pipes, a thread reading its answers, one keeping its stderr's tail.
#[derive(Debug)]
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    commands: Vec<String>,
}

impl Engine {
    fn spawn(argv: &[String]) -> Result<Engine, AgentFault> {
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| AgentFault {
                kind: FaultKind::EngineCrash,
                message: format!("cannot start '{}': {e}", argv[0]),
            })?;
        let (tx, lines) = channel();
        let stdout = child.stdout.take().expect("stdout is piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        let err = child.stderr.take().expect("stderr is piped");
        let stderr_reader = std::thread::spawn(move || {
            for line in BufReader::new(err).lines() {
                let Ok(line) = line else { break };
                let Ok(mut tail) = tail.lock() else { break };
                if tail.len() == STDERR_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        });
        let stdin = child.stdin.take().expect("stdin is piped");
        Ok(Engine {
            child,
            stdin,
            lines,
            stderr,
            stderr_reader: Some(stderr_reader),
            commands: Vec::new(),
        })
    }

    /// A fault of `kind`, with the engine's stderr tail appended. The game is lost, so the
    /// process is killed at once, and its stderr read to the end (for at most 200 ms, in
    /// case a child of the engine keeps the pipe open).
    fn fault(&mut self, kind: FaultKind, what: String) -> AgentFault {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(reader) = self.stderr_reader.take() {
            let deadline = Instant::now() + Duration::from_millis(200);
            while !reader.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(2));
            }
            if reader.is_finished() {
                let _ = reader.join();
            }
        }
        let tail: Vec<String> = self
            .stderr
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default();
        let mut message = what;
        if !tail.is_empty() {
            message.push_str("\nstderr (last lines):\n");
            message.push_str(&tail.join("\n"));
        }
        AgentFault { kind, message }
    }

    /// Sends `command` and returns the answer's text (after `=`), or the fault.
    fn ask(&mut self, command: &str, limit: Duration) -> Result<String, AgentFault> {
        if writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .is_err()
        {
            return Err(self.crashed(command));
        }
        let deadline = Instant::now() + limit;
        let mut answer: Option<(bool, String)> = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    let what = format!("no answer to '{command}' within {} ms", limit.as_millis());
                    return Err(self.fault(FaultKind::TimeForfeit, what));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed(command)),
            };
            let line = line.trim_end_matches('\r');
            match &mut answer {
                None if line.trim().is_empty() => {}
                None => {
                    let ok = match line.as_bytes()[0] {
                        b'=' => true,
                        b'?' => false,
                        _ => {
                            let what = format!("answered '{line}' to '{command}', not '=' or '?'");
                            return Err(self.fault(FaultKind::ProtocolError, what));
                        }
                    };
                    let body = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                    answer = Some((ok, body.trim().to_string()));
                }
                Some((ok, body)) => {
                    if line.trim().is_empty() {
                        let (ok, body) = (*ok, std::mem::take(body));
                        if ok {
                            return Ok(body);
                        }
                        let what = format!("answered '? {body}' to '{command}'");
                        return Err(self.fault(FaultKind::ProtocolError, what));
                    }
                    body.push('\n');
                    body.push_str(line);
                }
            }
        }
    }

    fn crashed(&mut self, command: &str) -> AgentFault {
        let status = match self.child.try_wait() {
            Ok(Some(status)) => format!(" ({status})"),
            _ => String::new(),
        };
        let what = format!("the engine stopped before answering '{command}'{status}");
        self.fault(FaultKind::EngineCrash, what)
    }
}

impl Drop for Engine {
    /// `quit`, a grace period, then a kill; the process is always reaped.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An outside engine playing one game (see the module docs).
#[derive(Debug)]
pub struct GtpAgent<G: Game> {
    spec: GtpSpec,
    engine: Option<Engine>,
    /// The spec of the first position the agent saw (the game's start) and its board size.
    start: Option<(String, Option<usize>)>,
    /// `play` commands the engine has not been sent yet.
    pending: Vec<String>,
    /// The agent's own last move, which the arena will report back.
    own: Option<G::Move>,
    /// A fault already met: the engine is gone and every later decision fails alike.
    fault: Option<AgentFault>,
}

impl<G: Game> GtpAgent<G> {
    /// An agent that starts its engine when first needed.
    #[must_use]
    pub fn new(spec: GtpSpec) -> Self {
        GtpAgent {
            spec,
            engine: None,
            start: None,
            pending: Vec::new(),
            own: None,
            fault: None,
        }
    }

    fn seen(&mut self, state: &G) {
        if self.start.is_none() {
            self.start = Some((state.spec(), state.board_size().map(|b| b.value)));
        }
    }

    /// The running engine, started and set up for the game if it was not.
    fn engine(&mut self) -> Result<&mut Engine, AgentFault> {
        if self.engine.is_none() {
            let mut engine = Engine::spawn(&self.spec.argv)?;
            let listed = engine.ask("list_commands", START_TIME)?;
            engine.commands = listed.split_whitespace().map(str::to_string).collect();
            let (game, size) = self.start.clone().unwrap_or_default();
            let mut setup = Vec::new();
            if let Some(n) = size {
                setup.push(format!("boardsize {n}"));
            }
            setup.push("clear_board".to_string());
            if engine.commands.iter().any(|c| c == "ringside-game") {
                setup.push(format!("ringside-game {game}"));
            }
            if engine.commands.iter().any(|c| c == "time_settings") {
                let seconds = self.spec.time.as_secs().max(1);
                setup.push(format!("time_settings 0 {seconds} 1"));
            }
            setup.extend(self.spec.setup.iter().cloned());
            for command in &setup {
                engine.ask(command, START_TIME)?;
            }
            self.engine = Some(engine);
        }
        Ok(self.engine.as_mut().expect("started above"))
    }

    fn decide(&mut self, state: &G) -> Result<Decision<G::Move>, AgentFault> {
        self.seen(state);
        let Some(mover) = state.to_move() else {
            panic!("an agent is asked to move only while the game goes on");
        };
        let limit = self.spec.time + self.spec.margin;
        let coords = self.spec.coords;
        let pending = std::mem::take(&mut self.pending);
        let engine = self.engine()?;
        for command in &pending {
            engine.ask(command, START_TIME)?;
        }
        let clock = Instant::now();
        let answer = engine.ask(&format!("genmove {}", gtp_colour(state, mover)), limit)?;
        let time = clock.elapsed();
        let word = answer.split_whitespace().next().unwrap_or("");
        if word.eq_ignore_ascii_case("resign") {
            return Err(engine.fault(FaultKind::Resign, "resigned".into()));
        }
        let text = coords.convert(state, word, false);
        let parsed = state
            .parse_move(&text)
            .or_else(|_| state.parse_move(&text.to_ascii_lowercase()));
        let mv = match parsed {
            Ok(mv) if state.is_legal(mv) => mv,
            Ok(_) => {
                let what = format!("played '{word}', which is not legal here");
                return Err(engine.fault(FaultKind::IllegalMove, what));
            }
            Err(e) => {
                let what = format!("played '{word}', which is not a move: {e}");
                return Err(engine.fault(FaultKind::IllegalMove, what));
            }
        };
        self.own = Some(mv);
        Ok(Decision {
            mv,
            stats: SearchStats {
                time,
                ..SearchStats::default()
            },
        })
    }
}

impl<G: Game> Agent<G> for GtpAgent<G> {
    /// # Panics
    /// On a fault; the arena calls [`Agent::try_choose`] instead.
    fn choose(&mut self, state: &G) -> Decision<G::Move> {
        self.try_choose(state)
            .unwrap_or_else(|fault| panic!("gtp engine: {fault}"))
    }

    fn try_choose(&mut self, state: &G) -> Result<Decision<G::Move>, AgentFault> {
        if let Some(fault) = &self.fault {
            return Err(fault.clone());
        }
        let decided = self.decide(state);
        if let Err(fault) = &decided {
            self.fault = Some(fault.clone());
            self.engine = None;
        }
        decided
    }

    fn observe(&mut self, before: &G, mv: G::Move) {
        self.seen(before);
        if self.own.take() == Some(mv) {
            return;
        }
        if let Some(mover) = before.to_move() {
            let text = self
                .spec
                .coords
                .convert(before, &before.move_text(mv), true);
            self.pending
                .push(format!("play {} {text}", gtp_colour(before, mover)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ringside_engine::games::havannah::Havannah;
    use ringside_engine::games::hexxagon::Hexxagon;
    use ringside_engine::games::rin::Rin;

    #[test]
    fn every_notation_is_found_by_its_listed_name() {
        for (coords, name) in Coords::ALL.into_iter().zip(Coords::NAMES) {
            assert_eq!(coords.as_str(), name);
            assert_eq!(Coords::from_name(name), Some(coords));
        }
        assert_eq!(Coords::from_name("gnugo"), None);
    }

    #[test]
    fn castro_coordinates_are_the_transpose_and_their_own_inverse() {
        let board = Havannah::new(6, false).unwrap();
        let castro = |text: &str| Coords::Castro.convert(&board, text, true);
        assert_eq!(castro("e3"), "c5");
        assert_eq!(castro("c5"), "e3");
        assert_eq!(castro("b4"), "d2");
        assert_eq!(castro("k11"), "k11");
        assert_eq!(castro("a10"), "j1");
        assert_eq!(castro("swap"), "swap");
        assert_eq!(Coords::Ringside.convert(&board, "e3", true), "e3");
        assert!(Coords::Castro.fits(&board));
        assert!(!Coords::Castro.fits(&Rin::new(6).unwrap()));
        // Every cell of a size-6 board maps to a cell, and back.
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        for mv in moves {
            let text = board.move_text(mv);
            let theirs = castro(&text);
            assert!(board.parse_move(&theirs).is_ok(), "{text} -> {theirs}");
            assert_eq!(Coords::Castro.convert(&board, &theirs, false), text);
        }
    }

    #[test]
    fn colours_follow_black_and_white_names_else_the_listing() {
        let rin = Rin::new(6).unwrap();
        assert_eq!(gtp_colour(&rin, Player::ZERO), "b");
        let hav = Havannah::new(6, false).unwrap();
        assert_eq!(
            gtp_colour(&hav, Player::ZERO),
            "w",
            "Havannah's first is white"
        );
        assert_eq!(parse_gtp_colour(&hav, "W"), Some(Player::ZERO));
        assert_eq!(parse_gtp_colour(&hav, "black"), Some(Player::ONE));
        let hex = Hexxagon::new(5).unwrap();
        assert_eq!(gtp_colour(&hex, Player::ZERO), "b");
        assert_eq!(parse_gtp_colour(&hex, "dark"), Some(Player::ONE));
        assert_eq!(parse_gtp_colour(&hex, "green"), None);
    }

    #[test]
    fn commands_split_at_spaces_and_single_quotes_group() {
        assert_eq!(
            split_command("/bin/engine -t 1 'a b'").unwrap(),
            ["/bin/engine", "-t", "1", "a b"]
        );
        assert!(split_command("  ").is_err());
        assert!(split_command("x 'open").is_err());
    }

    #[test]
    fn a_program_that_does_not_exist_is_an_engine_crash() {
        let spec = GtpSpec {
            cmd: "/nonexistent/engine".into(),
            argv: vec!["/nonexistent/engine".into()],
            name: None,
            coords: Coords::Ringside,
            time: Duration::from_millis(100),
            margin: Duration::from_millis(100),
            setup: Vec::new(),
        };
        let rin = Rin::new(6).unwrap();
        let mut agent = GtpAgent::<Rin>::new(spec);
        let fault = agent.try_choose(&rin).unwrap_err();
        assert_eq!(fault.kind, FaultKind::EngineCrash);
        assert!(fault.message.contains("cannot start"));
        assert_eq!(agent.try_choose(&rin).unwrap_err(), fault, "a fault stays");
    }
}
