//! Self-play for `arena tune zero` (issue 102): games of PUCT MCTS with a policy-value
//! network against itself ([`self_play_game`]), each position kept as a training sample (the
//! grid planes, the root's visit distribution and the game's result for the mover), and the
//! samples file the trainer (`python -m ringside.zero train`) reads.
//!
//! # The samples file
//! Little-endian: the 8 bytes `RSZSP\0\0\1` (format version 1); u32 planes, grid side `s`
//! and number of symmetries `k`; the `k` symmetries, each `s²` u32 (the cell every grid cell
//! goes to, [`Features::grid_symmetries`]); then one record a position to its end: u32 game
//! (its index in the generation), `planes·s²` bytes (each 0 or 1), `s² + 1` f32 (the visit
//! distribution over the grid cells and, last, the move that fills none) and one f32 (the
//! result for the player to move: 1 won, 0 drawn or stopped by the ply cap, −1 lost).

use rand::RngExt;
use ringside_agents::{Agent, AgentSpec, AnyAgent};
use ringside_engine::{Features, GRID_PLANES, Game, Outcome, Player, seeded_rng};

use crate::error::{Error, Result};

/// The first bytes of a samples file: the format's name and version.
pub const SAMPLES_MAGIC: [u8; 8] = *b"RSZSP\0\0\x01";

/// One position of a self-play game, as the trainer learns it.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The game's index in its generation.
    pub game: u32,
    /// The grid planes for the player to move, each 0 or 1.
    pub planes: Vec<u8>,
    /// The root's visits as shares: the grid cells, then the move that fills none.
    pub policy: Vec<f32>,
    /// The game's result for the player to move.
    pub value: f32,
}

/// A finished self-play game.
#[derive(Debug, Clone, PartialEq)]
pub struct SelfPlayGame {
    /// Its positions, in order.
    pub samples: Vec<Sample>,
    /// Its moves, space-separated.
    pub moves: String,
    /// How it ended; `None` when the ply cap stopped it.
    pub outcome: Option<Outcome>,
    /// Whether a player resigned, or (in a check game) would have.
    pub resigned: Resigned,
}

/// How a self-play game is played.
#[derive(Debug, Clone)]
pub struct SelfPlay {
    /// The player: MCTS with `pv=FILE` (and its noise), the same for both sides.
    pub agent: AgentSpec,
    /// Moves drawn in proportion to the root's visits for this many plies (temperature 1,
    /// OpenSpiel's `temperature_drop`), then the most visited.
    pub temperature_plies: u32,
    /// The most plies a game runs; past it the game is stopped and counts as drawn.
    pub ply_cap: u32,
    /// Resignation (AlphaGo Zero's): a player whose search values its chosen move below
    /// this (a mean reward in [−1, 1]) resigns; `None` plays every game out.
    pub resign: Option<f64>,
}

/// Where a game's resignation stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resigned {
    /// Nobody's search fell below the threshold.
    No,
    /// The player resigned and lost there.
    Resigned(Player),
    /// A check game, played out: the player would have resigned, and whether it then lost.
    Would(Player, bool),
}

/// Plays one game of `play` from `start`, game `game` of its generation, every choice drawn
/// from `seed`. A `check` game is played out even past a resignation, which it records as
/// [`Resigned::Would`]: how often such a player then did not lose is the false-resign rate.
pub fn self_play_game<G: Game + Features>(
    start: &G,
    play: &SelfPlay,
    seed: u64,
    game: u32,
    check: bool,
) -> Result<SelfPlayGame> {
    let side = start
        .grid_side()
        .ok_or_else(|| Error::setting(format!("{} has no grid for a network", start.name())))?;
    let cells = side * side;
    let agent = play
        .agent
        .build(start, seed)
        .map_err(|e| Error::setting(e.to_string()))?;
    let AnyAgent::Mcts(mut mcts) = agent else {
        return Err(Error::setting("self-play needs an mcts agent with pv=FILE"));
    };
    let mut rng = seeded_rng(seed, 0x5E1F);
    let mut state = start.clone();
    let mut samples: Vec<Sample> = Vec::new();
    let mut movers = Vec::new();
    let mut visits = Vec::new();
    let mut planes = vec![0.0f32; GRID_PLANES * cells];
    let mut moves = String::new();
    let mut resigned = Resigned::No;
    while state.outcome().is_none() && state.ply() < play.ply_cap {
        let mover = state.to_move().expect("a live game has a mover");
        let decision = mcts.choose(&state);
        let chosen = decision.mv;
        let hopeless = play
            .resign
            .zip(decision.stats.value)
            .is_some_and(|(threshold, v)| v < threshold);
        if hopeless && resigned == Resigned::No {
            if !check {
                resigned = Resigned::Resigned(mover);
                break;
            }
            resigned = Resigned::Would(mover, false);
        }
        mcts.root_visits(&mut visits);
        let total: u32 = visits.iter().map(|v| v.1).sum();
        let mut policy = vec![0.0f32; cells + 1];
        for &(mv, n) in &visits {
            let slot = state.grid_cell(mv).unwrap_or(cells);
            policy[slot] += n as f32 / total.max(1) as f32;
        }
        state.grid_planes(&mut planes);
        samples.push(Sample {
            game,
            planes: planes.iter().map(|&v| u8::from(v != 0.0)).collect(),
            policy,
            value: 0.0,
        });
        movers.push(mover);
        let mv = if state.ply() - start.ply() < play.temperature_plies && total > 0 {
            let mut pick = rng.random_range(0..total);
            visits
                .iter()
                .find(|v| {
                    let hit = pick < v.1;
                    pick = pick.saturating_sub(v.1);
                    hit
                })
                .map_or(chosen, |v| v.0)
        } else {
            chosen
        };
        if !moves.is_empty() {
            moves.push(' ');
        }
        state.write_move(mv, &mut moves);
        state.play(mv);
    }
    let outcome = match resigned {
        Resigned::Resigned(p) => Some(Outcome::Win(p.other())),
        _ => state.outcome(),
    };
    let winner = outcome.and_then(Outcome::winner);
    if let Resigned::Would(p, _) = resigned {
        resigned = Resigned::Would(p, winner == Some(p.other()));
    }
    for (sample, mover) in samples.iter_mut().zip(movers) {
        sample.value = match winner {
            Some(w) if w == mover => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
    }
    Ok(SelfPlayGame {
        samples,
        moves,
        outcome,
        resigned,
    })
}

/// The header of a samples file for games like `start`.
pub fn samples_header<G: Features>(start: &G) -> Vec<u8> {
    let side = start.grid_side().unwrap_or(0);
    let symmetries = start.grid_symmetries();
    let mut out = SAMPLES_MAGIC.to_vec();
    for v in [GRID_PLANES, side, symmetries.len()] {
        out.extend_from_slice(&(v as u32).to_le_bytes());
    }
    for perm in &symmetries {
        for &to in perm {
            out.extend_from_slice(&(to as u32).to_le_bytes());
        }
    }
    out
}

/// Appends `sample`'s record to `out`.
pub fn write_sample(sample: &Sample, out: &mut Vec<u8>) {
    out.extend_from_slice(&sample.game.to_le_bytes());
    out.extend_from_slice(&sample.planes);
    for p in &sample.policy {
        out.extend_from_slice(&p.to_le_bytes());
    }
    out.extend_from_slice(&sample.value.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use ringside_engine::games::connect_four::ConnectFour;

    const NET: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../agents/tests/data/pvnet-fixture-square.rspvn"
    );

    fn play(iters: u32, temperature_plies: u32) -> SelfPlay {
        SelfPlay {
            agent: AgentSpec::parse(&format!(
                "mcts:pv={NET},iters={iters},pv_noise=0.25,reuse=off"
            ))
            .unwrap(),
            temperature_plies,
            ply_cap: 1000,
            resign: None,
        }
    }

    #[test]
    fn a_self_play_game_keeps_every_position_with_its_visits_and_its_result() {
        let start = ConnectFour::new();
        let g = self_play_game(&start, &play(30, 6), 5, 3, false).unwrap();
        let plies = g.moves.split_whitespace().count();
        assert_eq!(g.samples.len(), plies);
        assert!(g.outcome.is_some());
        // Replaying the moves reaches the end the game reports; each sample is its position.
        let mut state = start;
        let mut planes = vec![0.0f32; GRID_PLANES * 49];
        let winner = g.outcome.and_then(Outcome::winner);
        for (sample, m) in g.samples.iter().zip(g.moves.split_whitespace()) {
            state.grid_planes(&mut planes);
            let want: Vec<u8> = planes.iter().map(|&v| u8::from(v != 0.0)).collect();
            assert_eq!(sample.planes, want);
            assert_eq!(sample.game, 3);
            let total: f32 = sample.policy.iter().sum();
            assert!((total - 1.0).abs() < 1e-5);
            // Shares of at most 30 visits (fewer where the solver proved the root), on the
            // cells legal moves fill.
            let visits = (1..=30)
                .find(|&n| {
                    sample.policy.iter().all(|&p| {
                        let k = p * n as f32;
                        (k - k.round()).abs() < 1e-3
                    })
                })
                .expect("shares of a whole number of visits");
            assert!(visits >= 1);
            for (cell, &p) in sample.policy.iter().enumerate() {
                if p > 0.0 {
                    let mut legal = Vec::new();
                    state.legal_moves(&mut legal);
                    assert!(legal.iter().any(|&mv| state.grid_cell(mv) == Some(cell)));
                }
            }
            let mover = state.to_move().unwrap();
            let want = match winner {
                Some(w) if w == mover => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            };
            assert_eq!(sample.value, want);
            let mv = state.parse_move(m).unwrap();
            state.play(mv);
        }
        assert_eq!(state.outcome(), g.outcome);
    }

    #[test]
    fn a_self_play_game_depends_only_on_its_seed_and_the_temperature_varies_it() {
        let start = ConnectFour::new();
        let a = self_play_game(&start, &play(20, 8), 9, 0, false).unwrap();
        assert_eq!(
            a,
            self_play_game(&start, &play(20, 8), 9, 0, false).unwrap()
        );
        let others: Vec<String> = (10..16)
            .map(|seed| {
                self_play_game(&start, &play(20, 8), seed, 0, false)
                    .unwrap()
                    .moves
            })
            .collect();
        assert!(others.iter().any(|m| *m != a.moves));
    }

    #[test]
    fn the_ply_cap_stops_a_game_and_its_positions_count_as_drawn() {
        let start = ConnectFour::new();
        let mut capped = play(10, 0);
        capped.ply_cap = 5;
        let g = self_play_game(&start, &capped, 1, 0, false).unwrap();
        assert_eq!((g.samples.len(), g.outcome), (5, None));
        assert!(g.samples.iter().all(|s| s.value == 0.0));
    }

    #[test]
    fn a_hopeless_player_resigns_and_a_check_game_plays_on_to_see_if_it_was_right() {
        // A threshold every search is below (mean rewards are at least −1 only if lost):
        // the first mover resigns at once.
        let start = ConnectFour::new();
        let mut eager = play(10, 0);
        eager.resign = Some(2.0);
        let g = self_play_game(&start, &eager, 4, 0, false).unwrap();
        assert_eq!(g.resigned, Resigned::Resigned(Player::ZERO));
        assert_eq!(g.outcome, Some(Outcome::Win(Player::ONE)));
        assert_eq!(g.samples.len(), 0, "resigned before its first move");
        // The same game as a check: played out, the would-be resigner's fate recorded.
        let checked = self_play_game(&start, &eager, 4, 0, true).unwrap();
        let Resigned::Would(p, lost) = checked.resigned else {
            panic!("{:?}", checked.resigned)
        };
        assert_eq!(p, Player::ZERO);
        assert_eq!(lost, checked.outcome == Some(Outcome::Win(Player::ONE)));
        assert!(checked.samples.len() >= 7);
        // A threshold nothing reaches changes nothing.
        let mut never = play(10, 0);
        never.resign = Some(-2.0);
        let a = self_play_game(&start, &never, 4, 0, false).unwrap();
        let b = self_play_game(&start, &play(10, 0), 4, 0, false).unwrap();
        assert_eq!((a.moves, a.resigned), (b.moves, Resigned::No));
    }

    #[test]
    fn the_samples_file_header_holds_the_boards_symmetries() {
        let start = ConnectFour::new();
        let header = samples_header(&start);
        let word = |i: usize| u32::from_le_bytes(header[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        assert_eq!(&header[..8], &SAMPLES_MAGIC);
        assert_eq!((word(0), word(1), word(2)), (7, 7, 1));
        assert_eq!(header.len(), 8 + 12 + 49 * 4);
        // The mirror: column 0 of the bottom row goes to column 6.
        assert_eq!(word(3), 6);
        let mut out = Vec::new();
        let g = self_play_game(&start, &play(10, 0), 2, 0, false).unwrap();
        write_sample(&g.samples[0], &mut out);
        assert_eq!(out.len(), 4 + 7 * 49 + 50 * 4 + 4);
    }
}
