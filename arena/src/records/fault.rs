//! Why a recorded row does not hold: what checking a row against its plan and replaying it
//! report (the reader adds the file and line), with a kind to match on.

use std::fmt;

/// What does not hold of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RowFaultKind {
    /// A column is missing or malformed, or disagrees with the plan or with another column
    /// (id, pairing, seed, agents, winner).
    Column,
    /// The game is not the one the pair's seed draws.
    Start,
    /// A move does not read or is illegal, or an opening move is not the one drawn from the
    /// pair's seed.
    Move,
    /// The recorded opening length, winner, reason or scores do not match the replay.
    Result,
    /// A sink cannot watch the row (say, an evaluation that cannot be built for the game).
    Watch,
}

/// A row that does not hold, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowFault {
    /// What kind of fault.
    pub kind: RowFaultKind,
    /// What is wrong, for people (the column or move and what was found).
    pub reason: String,
}

impl RowFault {
    /// A fault of `kind` saying `reason`.
    pub fn new(kind: RowFaultKind, reason: impl Into<String>) -> RowFault {
        RowFault {
            kind,
            reason: reason.into(),
        }
    }

    /// A column that is malformed or disagrees with the plan.
    pub fn column(reason: impl Into<String>) -> RowFault {
        RowFault::new(RowFaultKind::Column, reason)
    }
}

impl fmt::Display for RowFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for RowFault {}
