//! Uniformly random games, counted, in parallel: the raw speed of a game's rules, and its
//! first-player advantage under random play.

use rayon::prelude::*;
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Game, Outcome, random_playout, seeded_rng};

use crate::error::{Error, Result};

/// Counts of a batch of random games.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PlayoutCounts {
    /// Games played.
    pub games: u64,
    /// Wins of the player who moves first.
    pub first: u64,
    /// Wins of the other player.
    pub second: u64,
    /// Draws.
    pub draws: u64,
    /// Games stopped by the ply cap.
    pub capped: u64,
    /// Plies over all games.
    pub plies: u64,
}

impl PlayoutCounts {
    fn add(self, o: PlayoutCounts) -> PlayoutCounts {
        PlayoutCounts {
            games: self.games + o.games,
            first: self.first + o.first,
            second: self.second + o.second,
            draws: self.draws + o.draws,
            capped: self.capped + o.capped,
            plies: self.plies + o.plies,
        }
    }
}

/// Games a worker plays in one go: large enough to amortise scheduling, small enough to balance.
const CHUNK: u64 = 64;

struct Playouts {
    games: u64,
    seed: u64,
    cap: u32,
}

impl GameVisitor for Playouts {
    type Output = PlayoutCounts;

    fn visit<G: Game + ringside_engine::Features>(self, start: G) -> PlayoutCounts {
        let chunks = self.games.div_ceil(CHUNK);
        (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                let mut scratch = Vec::new();
                let mut tally = PlayoutCounts::default();
                for index in chunk * CHUNK..((chunk + 1) * CHUNK).min(self.games) {
                    let mut rng = seeded_rng(self.seed, index);
                    let mut state = start.clone();
                    state.randomize_start(&mut rng);
                    let first = state.to_move();
                    let outcome = random_playout(&mut state, &mut rng, &mut scratch, self.cap);
                    tally.games += 1;
                    tally.plies += u64::from(state.ply() - start.ply());
                    match outcome {
                        None => tally.capped += 1,
                        Some(Outcome::Draw) => tally.draws += 1,
                        Some(Outcome::Win(p)) if Some(p) == first => tally.first += 1,
                        Some(Outcome::Win(_)) => tally.second += 1,
                    }
                }
                tally
            })
            .reduce(PlayoutCounts::default, PlayoutCounts::add)
    }
}

/// Plays `games` random games of `game` seeded by `seed` on `threads` threads (one per core
/// if `None`), stopping each after `cap` plies. Game i draws from its own generator seeded by
/// (seed, i), so the counts are the same for any thread count.
pub fn tally(
    game: &AnyGame,
    games: u64,
    seed: u64,
    threads: Option<usize>,
    cap: Option<u32>,
) -> Result<PlayoutCounts> {
    if games == 0 {
        return Err(Error::about(crate::Setting::Games, "must be at least 1"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(crate::run::pool::thread_count(threads)?)
        .build()
        .map_err(|e| Error::setting(format!("cannot start worker threads: {e}")))?;
    let job = Playouts {
        games,
        seed,
        cap: cap.unwrap_or(u32::MAX),
    };
    Ok(pool.install(|| game.visit(job)))
}
