//! The uniformly random player.

use ringside_engine::{Game, GameRng};

use crate::{Agent, Decision, SearchStats};

/// Plays a legal move drawn uniformly at random from its own seeded generator.
#[derive(Debug, Clone)]
pub struct RandomAgent<G: Game> {
    rng: GameRng,
    scratch: Vec<G::Move>,
}

impl<G: Game> RandomAgent<G> {
    /// A random player drawing from `rng`.
    #[must_use]
    pub fn new(rng: GameRng) -> Self {
        RandomAgent {
            rng,
            scratch: Vec::new(),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent<G> {
    #[inline]
    fn choose(&mut self, state: &G) -> Decision<G::Move> {
        let mv = state
            .random_move(&mut self.rng, &mut self.scratch)
            .expect("choose needs a game that is not over");
        Decision {
            mv,
            stats: SearchStats::default(),
        }
    }
}
