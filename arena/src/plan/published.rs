//! Published figures an experiment sets its results beside (`[[published]]` in an experiment
//! file, [`crate::run::experiment`]).

use serde::Deserialize;

/// A published result to compare with: the first agent of a match, playing the first colour,
/// against the second agent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    /// The index of the `[[match]]`.
    #[serde(rename = "match")]
    pub match_index: usize,
    /// Where the figures come from.
    pub source: String,
    /// Games played.
    pub games: u64,
    /// Wins of the first agent, who moved first.
    pub first_wins: u64,
    /// Wins of the second agent.
    pub second_wins: u64,
    /// Draws.
    pub draws: u64,
}
