//! Criterion benchmarks live in `benches/`; this library only holds what they share.

use ringside_engine::{Game, GameRng, random_playout, seeded_rng};

/// Plays one uniformly random game from `start` with `rng` and returns its length in plies.
pub fn one_playout<G: Game>(start: &G, rng: &mut GameRng, scratch: &mut Vec<G::Move>) -> u32 {
    let mut state = start.clone();
    random_playout(&mut state, rng, scratch, u32::MAX);
    state.ply() - start.ply()
}

/// The generator the benchmarks use.
#[must_use]
pub fn bench_rng() -> GameRng {
    seeded_rng(2026, 0)
}
