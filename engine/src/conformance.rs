//! The conformance suite every game's tests run: random games in which each step is checked
//! against the [`Game`] contracts and against a plain reference written in the game's tests.
//!
//! A failure panics with the game's seed and moves so far, so it can be replayed.

use std::collections::{HashMap, HashSet};

use rand::Rng;

use crate::{Game, Outcome, seeded_rng};

/// Draws `per_move` random moves for each legal move of `state` and checks that every draw
/// is listed and every listed move is drawn. A sampler that never reaches some move fails for
/// sure; a uniform one misses a given move with chance about e^-`per_move`.
///
/// # Panics
/// With the game's spec when a draw is not a listed move, or a listed move is never drawn.
pub fn check_random_moves_reach_every_move<G: Game, R: Rng + ?Sized>(
    state: &G,
    rng: &mut R,
    per_move: usize,
) {
    let (mut legal, mut scratch) = (Vec::new(), Vec::new());
    state.legal_moves(&mut legal);
    let mut seen = HashSet::with_capacity(legal.len());
    for _ in 0..per_move * legal.len() {
        let mv = state.random_move(rng, &mut scratch);
        match mv {
            Some(mv) if legal.contains(&mv) => seen.insert(mv),
            _ => panic!("{}: random move {mv:?} is not listed", state.spec()),
        };
    }
    let missed: Vec<&G::Move> = legal.iter().filter(|m| !seen.contains(*m)).collect();
    assert!(
        missed.is_empty(),
        "{}: never drawn {missed:?}",
        state.spec()
    );
}

/// What one run of [`check_random_games`] covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Coverage {
    /// Games played.
    pub games: u64,
    /// Plies checked over all games.
    pub plies: u64,
    /// Games that reached their end (not cut by the ply cap).
    pub finished: u64,
}

/// Plays `games` random games from `start` (at most `max_plies` plies each), checking at every
/// ply that:
/// - the state is over exactly when it has no legal move and nobody to move;
/// - every listed move is legal, listed once, and its notation (from `move_text` and
///   `write_move` alike) parses back to it;
/// - every listed move has its own [`Game::move_index`], below
///   [`Game::move_index_count`], a move keeps its number through the game, and no two moves
///   of a game share one;
/// - where [`Game::wins_at_once`] answers for the mover, playing the move wins exactly when it
///   says so;
/// - the random sampler returns a listed move;
/// - playing on a copy leaves the original untouched, and `try_play` agrees with
///   `play_unchecked`;
/// - the incremental hash equals the hash recomputed from scratch;
/// - [`Game::write_cells`] writes the cells of [`Game::board_cells`];
/// - `reference(before, move, after)` accepts the step: the game's own plain implementation
///   of its rules, written in its tests, returns `Err` with a description when the fast path
///   disagrees.
///
/// Finally each game is replayed from its move list and must reach the same state.
///
/// # Panics
/// On the first violation, with the seed, game index and moves so far.
pub fn check_random_games<G, F>(
    start: &G,
    games: u64,
    seed: u64,
    max_plies: u32,
    mut reference: F,
) -> Coverage
where
    G: Game + PartialEq,
    F: FnMut(&G, G::Move, &G) -> Result<(), String>,
{
    let mut coverage = Coverage {
        games,
        plies: 0,
        finished: 0,
    };
    let mut legal = Vec::new();
    let mut scratch = Vec::new();
    let mut cells = Vec::new();
    for index in 0..games {
        let mut rng = seeded_rng(seed, index);
        let mut state = start.clone();
        state.randomize_start(&mut rng);
        let first = state.clone();
        let mut history: Vec<G::Move> = Vec::new();
        let mut numbers: HashMap<G::Move, usize> = HashMap::new();
        let mut owners: HashMap<usize, G::Move> = HashMap::new();
        let fail = |history: &[G::Move], state: &G, what: String| -> ! {
            let moves: Vec<String> = history.iter().map(|m| state.move_text(*m)).collect();
            panic!(
                "{} conformance, seed {seed} game {index} after {} plies [{}]: {what}",
                start.spec(),
                history.len(),
                moves.join(" ")
            )
        };
        loop {
            state.legal_moves(&mut legal);
            state.write_cells(&mut cells);
            if cells != state.board_cells().concat().as_bytes() {
                fail(
                    &history,
                    &state,
                    "write_cells differs from board_cells".to_string(),
                );
            }
            let over = state.outcome().is_some();
            if over != legal.is_empty() || over != state.to_move().is_none() {
                fail(
                    &history,
                    &state,
                    format!(
                        "outcome {:?}, to_move {:?} and {} legal moves disagree",
                        state.outcome(),
                        state.to_move(),
                        legal.len()
                    ),
                );
            }
            if over {
                coverage.finished += 1;
                break;
            }
            if history.len() as u32 == max_plies {
                break;
            }
            let mut seen = HashSet::with_capacity(legal.len());
            let mover = state.to_move().expect("a live state has a mover");
            for &mv in &legal {
                if !seen.insert(mv) {
                    fail(&history, &state, format!("move {:?} listed twice", mv));
                }
                let index = state.move_index(mv);
                if index >= state.move_index_count()
                    || *numbers.entry(mv).or_insert(index) != index
                    || *owners.entry(index).or_insert(mv) != mv
                {
                    fail(
                        &history,
                        &state,
                        format!("move {mv:?} has a wrong, shared or changed index {index}"),
                    );
                }
                if let Some(wins) = state.wins_at_once(mover, mv) {
                    let mut after = state.clone();
                    after.play_unchecked(mv);
                    if wins != (after.outcome() == Some(Outcome::Win(mover))) {
                        fail(
                            &history,
                            &state,
                            format!("wins_at_once says {wins} for {}", state.move_text(mv)),
                        );
                    }
                }
                if !state.is_legal(mv) {
                    fail(
                        &history,
                        &state,
                        format!("listed move {} is not legal", state.move_text(mv)),
                    );
                }
                let text = state.move_text(mv);
                let mut written = String::new();
                state.write_move(mv, &mut written);
                if written != text {
                    fail(
                        &history,
                        &state,
                        format!("write_move gives '{written}', move_text '{text}'"),
                    );
                }
                if state.parse_move(&text) != Ok(mv) {
                    fail(
                        &history,
                        &state,
                        format!("notation '{text}' does not parse back to {mv:?}"),
                    );
                }
            }
            let mv = state
                .random_move(&mut rng, &mut scratch)
                .unwrap_or_else(|| fail(&history, &state, "no random move in a live state".into()));
            if !seen.contains(&mv) {
                fail(
                    &history,
                    &state,
                    format!("random move {mv:?} is not listed"),
                );
            }
            let before = state.clone();
            let mut checked = state.clone();
            state.play_unchecked(mv);
            if let Err(e) = checked.try_play(mv) {
                fail(
                    &history,
                    &before,
                    format!("try_play refused a legal move: {e}"),
                );
            }
            if checked != state {
                fail(
                    &history,
                    &before,
                    "try_play and play_unchecked disagree".into(),
                );
            }
            if before.ply() + 1 != state.ply() {
                fail(
                    &history,
                    &before,
                    "the ply count did not advance by one".into(),
                );
            }
            if state.hash() != state.hash_from_scratch() {
                fail(
                    &history,
                    &before,
                    format!(
                        "incremental hash {:#x} != from-scratch {:#x} after {}",
                        state.hash(),
                        state.hash_from_scratch(),
                        before.move_text(mv)
                    ),
                );
            }
            if let Err(e) = reference(&before, mv, &state) {
                fail(
                    &history,
                    &before,
                    format!("after {}: {e}", before.move_text(mv)),
                );
            }
            history.push(mv);
            coverage.plies += 1;
        }
        let mut replayed = first;
        for &mv in &history {
            replayed.play(mv);
        }
        if replayed != state {
            fail(
                &history,
                &state,
                "replaying the moves gave a different state".into(),
            );
        }
    }
    coverage
}

/// Checks [`crate::Features::grid_symmetries`] by playing: in `games` random games from
/// `start` (seeded by `seed`), at every position and under every symmetry, the image
/// position is made by playing from `start` the image of each move (the legal move that
/// fills the image of the cell it fills, or the one move that fills none), and its grid
/// planes must be the position's planes moved cell by cell, its outcome and its number of
/// legal moves the same. Returns the positions checked under a symmetry; panics on the first
/// that differs.
pub fn check_grid_symmetries<G: Game + crate::Features>(
    start: &G,
    seed: u64,
    games: usize,
) -> usize {
    check_grid_symmetries_with(start, &start.grid_symmetries(), seed, games)
}

/// [`check_grid_symmetries`] of the maps `symmetries` in place of the game's own.
pub fn check_grid_symmetries_with<G: Game + crate::Features>(
    start: &G,
    symmetries: &[Vec<usize>],
    seed: u64,
    games: usize,
) -> usize {
    use rand::RngExt;
    let Some(side) = start.grid_side() else {
        return 0;
    };
    let cells = side * side;
    let mut rng = seeded_rng(seed, 0);
    let mut checked = 0;
    let (mut moves, mut image_moves) = (Vec::new(), Vec::new());
    let (mut planes, mut image_planes) = (
        vec![0.0f32; crate::GRID_PLANES * cells],
        vec![0.0f32; crate::GRID_PLANES * cells],
    );
    for _ in 0..games {
        let mut state = start.clone();
        let mut history = Vec::new();
        loop {
            for perm in symmetries {
                assert_eq!(perm.len(), cells, "a symmetry maps every grid cell");
                assert!(
                    perm.iter().enumerate().any(|(c, &to)| c != to),
                    "the identity is not listed"
                );
                let mut image = start.clone();
                let mut at = start.clone();
                for &mv in &history {
                    let target = at.grid_cell(mv).map(|c| perm[c]);
                    image.legal_moves(&mut image_moves);
                    let found = image_moves
                        .iter()
                        .copied()
                        .find(|&m| image.grid_cell(m) == target)
                        .unwrap_or_else(|| {
                            panic!("no image of {} in the image position", at.move_text(mv))
                        });
                    image.play(found);
                    at.play(mv);
                }
                state.grid_planes(&mut planes);
                image.grid_planes(&mut image_planes);
                for p in 0..crate::GRID_PLANES {
                    for c in 0..cells {
                        assert_eq!(
                            planes[p * cells + c],
                            image_planes[p * cells + perm[c]],
                            "plane {p}, cell {c} after {} moves",
                            history.len()
                        );
                    }
                }
                assert_eq!(state.outcome(), image.outcome());
                state.legal_moves(&mut moves);
                image.legal_moves(&mut image_moves);
                assert_eq!(moves.len(), image_moves.len());
                checked += 1;
            }
            if state.outcome().is_some() {
                break;
            }
            state.legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            history.push(mv);
            state.play(mv);
        }
    }
    checked
}
