//! One finished game, typed: who won, why, and what each side spent. Agents are named by their
//! index in the plan; their specs are written into the CSV from the plan.

use std::fmt;
use std::str::FromStr;

use ringside_engine::Game;

use crate::error::Error;
use crate::plan::{Seat, Slot};
use crate::records::fault::RowFault;

/// Who won, by colour: the player who moved first, the other one, or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Winner {
    /// The colour that moves first.
    First,
    /// The other colour.
    Second,
    /// A draw (including a game stopped by the ply cap).
    Draw,
}

impl Winner {
    /// The winning player, given the player who moved first; `None` for a draw.
    #[must_use]
    pub fn player(self, first: ringside_engine::Player) -> Option<ringside_engine::Player> {
        match self {
            Winner::First => Some(first),
            Winner::Second => Some(first.other()),
            Winner::Draw => None,
        }
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// By the rules.
    Normal,
    /// The ply cap stopped it; a draw.
    PlyCap,
    /// An agent panicked and lost.
    AgentPanic,
    /// An agent chose an illegal move (or an engine wrote one that does not parse) and lost.
    IllegalMove,
    /// An outside engine could not start, exited or closed its pipes, and lost.
    EngineCrash,
    /// An outside engine answered later than its time and margin, and lost.
    TimeForfeit,
    /// An outside engine answered `?` or something that is not GTP, and lost.
    ProtocolError,
    /// An outside engine resigned.
    Resign,
}

macro_rules! text_enum {
    ($ty:ident, $what:literal, $($variant:ident = $text:literal),+) => {
        impl $ty {
            /// The CSV text.
            #[must_use]
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $text),+
                }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $ty {
            type Err = RowFault;
            fn from_str(text: &str) -> Result<Self, RowFault> {
                match text {
                    $($text => Ok($ty::$variant),)+
                    _ => Err(RowFault::column(format!(
                        "{} '{text}' is not one of {}",
                        $what,
                        [$($text),+].join("|")
                    ))),
                }
            }
        }
    };
}

text_enum!(
    Winner,
    "winner",
    First = "first",
    Second = "second",
    Draw = "draw"
);
text_enum!(
    Reason,
    "reason",
    Normal = "normal",
    PlyCap = "ply_cap",
    AgentPanic = "agent_panic",
    IllegalMove = "illegal_move",
    EngineCrash = "engine_crash",
    TimeForfeit = "time_forfeit",
    ProtocolError = "protocol_error",
    Resign = "resign"
);

impl Reason {
    /// Whether an agent's fault ended the game.
    #[must_use]
    pub fn is_fault(self) -> bool {
        !matches!(self, Reason::Normal | Reason::PlyCap | Reason::Resign)
    }

    /// The reason an agent's fault gives.
    #[must_use]
    pub fn of_fault(kind: ringside_agents::FaultKind) -> Reason {
        use ringside_agents::FaultKind;
        match kind {
            FaultKind::EngineCrash => Reason::EngineCrash,
            FaultKind::TimeForfeit => Reason::TimeForfeit,
            FaultKind::IllegalMove => Reason::IllegalMove,
            FaultKind::ProtocolError => Reason::ProtocolError,
            FaultKind::Resign => Reason::Resign,
        }
    }
}

/// One agent's clock over a game: how many moves it chose, its longest, and how many took
/// longer than its time budget.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MoveClock {
    /// Moves the agent chose (the random opening's are not its).
    pub moves: u32,
    /// Milliseconds of its longest move (random agents are not timed: 0).
    pub max_ms: f64,
    /// Moves that took longer than the agent's time budget (0 for an agent without one).
    pub overruns: u32,
}

impl MoveClock {
    /// Counts a move that took `ms` milliseconds, against `budget_ms` if the agent has one.
    pub fn add(&mut self, ms: f64, budget_ms: Option<f64>) {
        self.moves += 1;
        self.max_ms = self.max_ms.max(ms);
        self.overruns += u32::from(budget_ms.is_some_and(|b| ms > b));
    }
}

/// One finished game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRow {
    /// The game's number in the run.
    pub id: u64,
    /// Where it sits: pairing, pair, seat.
    pub slot: Slot,
    /// The game spec as played (with any drawn start choice, such as `advance:first=o`).
    pub game: String,
    /// The pair's seed.
    pub seed: u64,
    /// Random opening moves at the start of `moves`.
    pub opening_plies: u32,
    /// The agent (index into the plan) playing the colour that moves first.
    pub first_agent: usize,
    /// The agent playing the other colour.
    pub second_agent: usize,
    /// Who won.
    pub winner: Winner,
    /// Why the game ended.
    pub reason: Reason,
    /// Plies played, opening included.
    pub plies: u32,
    /// The first colour's final score, for games that keep one.
    pub first_score: Option<f64>,
    /// The second colour's final score.
    pub second_score: Option<f64>,
    /// Milliseconds the first agent spent deciding (random agents are not timed: 0).
    pub first_time_ms: f64,
    /// Milliseconds the second agent spent deciding.
    pub second_time_ms: f64,
    /// Nodes the first agent searched (alpha-beta) or held (MCTS), summed over its moves.
    pub first_nodes: u64,
    /// Nodes of the second agent.
    pub second_nodes: u64,
    /// MCTS iterations of the first agent.
    pub first_iterations: u64,
    /// MCTS iterations of the second agent.
    pub second_iterations: u64,
    /// The first agent's moves, longest move and overruns; `None` in a file written before
    /// these columns were kept.
    pub first_clock: Option<MoveClock>,
    /// The second agent's.
    pub second_clock: Option<MoveClock>,
    /// Every move from the start, in the game's notation, separated by spaces.
    pub moves: String,
    /// What an outside engine's fault was, with its last stderr lines: not a CSV column, but
    /// appended to the log beside the CSV ([`crate::run::runner::fault_log_path`]).
    pub fault: Option<String>,
}

impl GameRow {
    /// A hash of the moves (SipHash with fixed keys: the same on every run and machine): two
    /// games with the same key are, but for a collision of 64 bits, the same game.
    #[must_use]
    pub fn moves_key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        self.moves.hash(&mut h);
        h.finish()
    }

    /// The points (1, ½ or 0) of the player who moved first.
    #[must_use]
    pub fn first_points(&self) -> f64 {
        match self.winner {
            Winner::First => 1.0,
            Winner::Second => 0.0,
            Winner::Draw => 0.5,
        }
    }

    /// The points of the pairing's first agent, read from the seat (so right in a
    /// self-pairing too, where both seats hold the same agent).
    #[must_use]
    pub fn pairing_first_points(&self) -> f64 {
        match self.slot.seat {
            Seat::AFirst => self.first_points(),
            Seat::BFirst => 1.0 - self.first_points(),
        }
    }

    /// The winning agent's index, if a side won.
    #[must_use]
    pub fn winner_agent(&self) -> Option<usize> {
        match self.winner {
            Winner::First => Some(self.first_agent),
            Winner::Second => Some(self.second_agent),
            Winner::Draw => None,
        }
    }

    /// The same row with its `moves` left empty, for holding many rows in memory when the
    /// moves are in a file.
    #[must_use]
    pub fn without_moves(self) -> GameRow {
        GameRow {
            moves: String::new(),
            ..self
        }
    }

    /// The columns in which two rows differ, every column but the decision times (which the
    /// clock decides); empty when they record the same game.
    #[must_use]
    pub fn differences(&self, other: &GameRow) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut check = |name: &'static str, same: bool| {
            if !same {
                out.push(name);
            }
        };
        check("id", (self.id, self.slot) == (other.id, other.slot));
        check("game", self.game == other.game);
        check("seed", self.seed == other.seed);
        check("opening_plies", self.opening_plies == other.opening_plies);
        check(
            "agents",
            (self.first_agent, self.second_agent) == (other.first_agent, other.second_agent),
        );
        check("winner", self.winner == other.winner);
        check("reason", self.reason == other.reason);
        check("plies", self.plies == other.plies);
        check(
            "scores",
            (self.first_score, self.second_score) == (other.first_score, other.second_score),
        );
        check(
            "nodes",
            (self.first_nodes, self.second_nodes) == (other.first_nodes, other.second_nodes),
        );
        check(
            "iterations",
            (self.first_iterations, self.second_iterations)
                == (other.first_iterations, other.second_iterations),
        );
        check("moves", self.moves == other.moves);
        out
    }
}

/// Plays move number `i` (0-based) of a list of `total` written in the game's notation; the error names its number from 1.
pub(crate) fn play_listed<G: Game>(
    mut state: G,
    text: &str,
    i: usize,
    total: usize,
) -> crate::error::Result<G> {
    let fail =
        |reason: String| Error::setting(format!("move {} of {total} ('{text}'): {reason}", i + 1));
    let mv = state.parse_move(text).map_err(|e| fail(e.to_string()))?;
    state.try_play(mv).map_err(|e| fail(e.to_string()))?;
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_back_from_their_csv_text_and_refuse_anything_else() {
        for w in [Winner::First, Winner::Second, Winner::Draw] {
            assert_eq!(w.as_str().parse::<Winner>(), Ok(w));
        }
        for r in [
            Reason::Normal,
            Reason::PlyCap,
            Reason::AgentPanic,
            Reason::IllegalMove,
            Reason::EngineCrash,
            Reason::TimeForfeit,
            Reason::ProtocolError,
            Reason::Resign,
        ] {
            assert_eq!(r.as_str().parse::<Reason>(), Ok(r));
        }
        assert_eq!(
            "bogus".parse::<Winner>(),
            Err(RowFault::column(
                "winner 'bogus' is not one of first|second|draw"
            ))
        );
        assert!("Normal".parse::<Reason>().is_err());
    }
}
