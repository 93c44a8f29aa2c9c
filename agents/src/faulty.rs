//! A deliberately faulty player, for testing harnesses: random moves, then at its N-th
//! decision a panic (`faulty:panic_at=N`) or an illegal move (`faulty:illegal_at=N`).

use ringside_engine::{Game, GameRng};

use crate::{Agent, Decision, RandomAgent, SearchStats};

/// What goes wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The decision panics.
    Panic,
    /// The decision returns a move that is not legal.
    Illegal,
}

/// The faulty agent.
#[derive(Debug, Clone)]
pub struct FaultyAgent<G: Game> {
    /// Plays every decision but the faulty one.
    random: RandomAgent<G>,
    fault: Fault,
    at: u32,
    decisions: u32,
    seen: Vec<G::Move>,
    scratch: Vec<G::Move>,
}

impl<G: Game> FaultyAgent<G> {
    /// Fails with `fault` at decision `at` (counted from 1).
    #[must_use]
    pub fn new(rng: GameRng, fault: Fault, at: u32) -> Self {
        FaultyAgent {
            random: RandomAgent::new(rng),
            fault,
            at,
            decisions: 0,
            seen: Vec::new(),
            scratch: Vec::new(),
        }
    }
}

impl<G: Game> Agent<G> for FaultyAgent<G> {
    /// # Panics
    /// At the chosen decision with `Fault::Panic`, or with `Fault::Illegal` when none of the
    /// moves it has seen is illegal by then.
    fn choose(&mut self, state: &G) -> Decision<G::Move> {
        self.decisions += 1;
        if self.decisions == self.at {
            match self.fault {
                Fault::Panic => panic!("faulty agent: planned panic at decision {}", self.at),
                Fault::Illegal => {
                    let mv = self
                        .seen
                        .iter()
                        .copied()
                        .find(|&m| !state.is_legal(m))
                        .expect("faulty agent: no illegal move among those seen so far");
                    return Decision {
                        mv,
                        stats: SearchStats::default(),
                    };
                }
            }
        }
        state.legal_moves(&mut self.scratch);
        self.seen.extend_from_slice(&self.scratch);
        self.random.choose(state)
    }
}
