//! Named measures of a position, per player, for evaluation functions to weight.
//!
//! The engine only measures; weighting lives with the agents, so a tuner changes weights
//! without touching rules. Every game has the feature `material` first: its stones, tokens or
//! points, the count the seeds' "material balance" evaluation uses.

use crate::{Game, Player};

/// The most features a game may have.
pub const MAX_FEATURES: usize = 8;

/// Per-player measures of a position.
pub trait Features: Game {
    /// The names of the features, `material` first.
    fn feature_names(&self) -> &'static [&'static str];

    /// Writes each feature's value for `player` into `out[..feature_names().len()]`. Values are
    /// the player's own measure; evaluators weight the difference between the two players.
    fn features(&self, player: Player, out: &mut [f64; MAX_FEATURES]);
}
