//! Exact values of positions: a solver generic over the [`Game`](ringside_engine::Game) trait, with a faster path for
//! Connect Four, and the budget after which it says it does not know.
//!
//! A value is for the player to move: a win, a draw or a loss, with the distance to the end in
//! plies under best play (the winner wins as fast as it can, the loser holds out as long as it
//! can). The search is alpha-beta over scores that carry that distance, with a transposition
//! table: `WIN − d` for a win `d` plies away, `−(WIN − d)` for a loss, 0 for a draw. It first
//! asks only win, draw or loss (a window of width two around the draw), then the distance, then
//! which moves keep the value. A child's score turns into its parent's by one more ply, and by
//! a change of sign only when the mover changes (Rin moves twice in a row).
//!
//! ```
//! use ringside_agents::solve::{Budget, Value, solve};
//! use ringside_engine::games::tic_tac_toe::TicTacToe;
//!
//! let s = solve(&TicTacToe::new(), &Budget::default());
//! assert_eq!(s.value, Some(Value::Draw));
//! assert_eq!(s.best.len(), 9); // every opening draws
//! ```

mod connect_four;
mod proof;
mod search;
mod table;

use std::fmt;
use std::time::Duration;

pub use search::{Solver, solve};
pub use table::ENTRY_BYTES;

/// A position's game-theoretic value for the player to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The mover wins, the game ending this many plies from now under best play.
    Win(u32),
    /// Neither side can force a win.
    Draw,
    /// The mover loses, the game ending this many plies from now under best play.
    Loss(u32),
}

impl Value {
    /// `win`, `draw` or `loss`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Draw => "draw",
            Value::Loss(_) => "loss",
        }
    }

    /// 1 for a win, 0 for a draw, −1 for a loss.
    #[must_use]
    pub fn sign(self) -> i32 {
        match self {
            Value::Win(_) => 1,
            Value::Draw => 0,
            Value::Loss(_) => -1,
        }
    }

    /// The plies to the end under best play, for a win or a loss.
    #[must_use]
    pub fn plies(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// When to stop and say "unknown": a time, a count of positions, and the transposition
/// table's memory (which bounds how much the search remembers, not whether it finishes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Wall-clock time; `None` for no limit.
    pub time: Option<Duration>,
    /// Positions searched; `None` for no limit.
    pub nodes: Option<u64>,
    /// Bytes of the transposition table (rounded down to a power of two entries).
    pub memory: usize,
    /// Whether to find the distance to the end and every move that keeps the value (else only
    /// win, draw or loss, and one move that keeps it).
    pub exact: bool,
    /// Which search.
    pub method: Method,
}

/// The deepest line a solve follows: deeper, it gives up (the value is unknown). A line this
/// long in a game without a ply cap is most likely a cycle (Hexxagon's jumps can repeat a
/// position), and following it further would overflow the stack.
pub const MAX_PLY: usize = 1_000;

/// Which search solves a position.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Connect Four's own search where it applies, else alpha-beta.
    #[default]
    Auto,
    /// Alpha-beta with distances, for every game.
    AlphaBeta,
    /// Proof-number search (df-pn): win, draw or loss and the moves that keep it, without
    /// distances; for wide games (Hex, m,n,k boards).
    ProofNumber,
}

impl Default for Budget {
    /// No limit on time or positions, a 64 MiB table, distances and every best move.
    fn default() -> Budget {
        Budget {
            time: None,
            nodes: None,
            memory: 64 << 20,
            exact: true,
            method: Method::Auto,
        }
    }
}

/// What a solve found.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution<M> {
    /// The value for the player to move; `None` when the budget ran out first (never a
    /// guess), or when the game is over (nobody is to move: read its outcome).
    pub value: Option<Value>,
    /// Whether [`Value`]'s distance is exact (with [`Budget::exact`]), else only its sign is.
    pub distance_known: bool,
    /// The moves that keep the value, in the game's move order (every one with
    /// [`Budget::exact`], else the first found); empty when the value is unknown or the game
    /// is over.
    pub best: Vec<M>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall-clock time.
    pub time: Duration,
    /// Entries of the transposition table in use at the end, and its capacity.
    pub table: (usize, usize),
    /// Which search ran: `alphabeta`, `connect_four` or `dfpn`.
    pub method: &'static str,
}

impl Budget {
    /// Whether a search that has visited `nodes` positions since `start` must stop: at once
    /// for the count of positions, and for time every `every` positions (a power of two), so
    /// that the clock is read seldom.
    #[inline]
    fn spent(&self, nodes: u64, start: std::time::Instant, every: u64) -> bool {
        self.nodes.is_some_and(|n| nodes >= n)
            || (nodes & (every - 1) == 0 && self.time.is_some_and(|t| start.elapsed() >= t))
    }
}

#[cfg(test)]
mod tests;
