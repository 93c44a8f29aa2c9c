//! Game-playing agents for Ringside, generic over [`ringside_engine::Game`].
//!
//! For now only the uniform random player exists; alpha-beta and MCTS follow.

use rand::Rng;
use ringside_engine::Game;

/// The uniformly random player: any legal move, each with the same chance.
///
/// `scratch` is reused between calls so that choosing a move does not allocate.
pub fn random_move<G: Game, R: Rng + ?Sized>(
    state: &G,
    rng: &mut R,
    scratch: &mut Vec<G::Move>,
) -> Option<G::Move> {
    state.random_move(rng, scratch)
}
