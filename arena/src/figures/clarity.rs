//! Ludii's state-evaluation metrics that [`crate::figures::metrics`] lacks: Clarity (how clearly
//! the evaluation singles out good moves) and Decisiveness (how early the eventual winner is
//! clearly ahead). Sources: Ludii's `Evaluation/src/metrics/single/stateEvaluation/`
//! (`clarity/ClarityVariance.java`, `clarity/ClarityNarrowness.java`,
//! `decisiveness/DecisivenessThreshold.java`, `decisiveness/DecisivenessMoves.java`), after
//! Browne's aesthetic criteria (C. Browne, *Automatic Generation and Evaluation of
//! Recombination Games*, 2008).
//!
//! ## The value of a position
//! Ludii evaluates a position for a player with a short UCT search or its heuristics, in
//! \[−1, 1\]. Here the value of position `s` for player `p` is
//! `V(s, p) = 2σ(K·E) − 1 = tanh(K·E/2)`, `E` the game's evaluation (the features at their
//! default weights, `eval=rich`) of `p` minus that of the other colour, and `K` the scale that
//! turns it into the win probability the measured games themselves show: fitted by least
//! squares of `σ(K·E)` against the first colour's result (1, ½, 0) over every position of the
//! games it is fitted on ([`fit_scale`]), as Texel tuning fits its `K`; a design report fits it
//! on held-out games, a half of the games' clusters for the other half. So a value means the
//! same in every game (twice the expected score, less one), whatever the evaluation's units,
//! and Clarity and Decisiveness compare across games. A finished position is worth 1 to its
//! winner, −1 to its loser and 0 to both on a draw. (Before, `V` was `tanh(E/4)` on each
//! game's own units, which compared neither across games nor with Ludii.)
//!
//! ## Formulas (one game; a report gives the mean over games)
//! Positions are those before each ply of the game, the random opening included.
//! - **ClarityVariance**: over positions, the mean of the population variance of the values of
//!   the legal moves, each move's value being `V(after the move, mover)`.
//! - **ClarityNarrowness**: over positions, the mean share of legal moves whose value exceeds
//!   `mean + 0.75 (max − mean)` of the position's move values (a clear best move gives a small
//!   share; a position where every move is alike gives 0). Ludii divides two integers here,
//!   which truncates every share below 1 to 0; this divides reals.
//! - **DecisivenessThreshold** (decided games only): the highest value the loser had in ten
//!   positions spread evenly over the game (at 10%, 20%, …, 100% of its positions; every
//!   position of a game shorter than ten). Ludii takes the highest over every position, a
//!   maximum of more values the longer the game, so longer games had higher thresholds (in
//!   all four reports where the two players' games differed in length, the longer had the
//!   higher threshold); ten values a game, whatever its length, remove that bias.
//! - **DecisivenessMoves** (decided games only): the index of the first position where the
//!   winner's value exceeds the threshold, divided by the plies; 1 when it never does. Low
//!   means the winner was clearly ahead early (Ludii's Java divides integers here too, giving
//!   0 or 1; this divides reals).

use ringside_engine::{Features, Game, MAX_FEATURES, Outcome, Player};

use crate::error::{Error, Result};
use crate::figures::metrics::evaluation;
use crate::records::row::GameRow;
use crate::records::validate::pair_start;

/// The state-evaluation facts of one game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClarityFacts {
    /// The pairing and the pair of the game.
    pub pair: (usize, u64),
    /// Mean over positions of the variance of the legal moves' values.
    pub clarity_variance: f64,
    /// Mean over positions of the share of moves above the 75% line.
    pub clarity_narrowness: f64,
    /// For a decided game: the loser's highest value.
    pub decisiveness_threshold: Option<f64>,
    /// For a decided game: the share of plies before the winner passed that value.
    pub decisiveness_moves: Option<f64>,
}

/// `V(state, player)`: the value of a position for `player` on scale `k` (see the module
/// docs).
pub fn value<G: Game + Features>(
    state: &G,
    player: Player,
    k: f64,
    scratch: &mut [[f64; MAX_FEATURES]; 2],
) -> f64 {
    match state.outcome() {
        Some(Outcome::Win(p)) => {
            if p == player {
                1.0
            } else {
                -1.0
            }
        }
        Some(Outcome::Draw) => 0.0,
        None => (k * evaluation(state, player, scratch) / 2.0).tanh(),
    }
}

/// The error of a row whose moves do not replay.
fn unplayable(row: &GameRow, e: &dyn std::fmt::Display) -> Error {
    Error::corrupt(format!("game {} does not replay: {e}", row.id))
}

/// Adds to `out`, for each position of `row` before a ply, the first colour's evaluation and
/// the first colour's result (1, ½, 0): the points [`fit_scale`] fits.
pub fn game_evaluations<G: Game + Features>(
    start: &G,
    row: &GameRow,
    out: &mut Vec<(f32, f32)>,
) -> Result<()> {
    let (mut state, _, first) = pair_start(start, row.seed);
    let result = match row.winner.player(first) {
        Some(w) if w == first => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    let mut scratch = [[0.0; MAX_FEATURES]; 2];
    for text in row.moves.split_whitespace() {
        if state.outcome().is_none() {
            out.push((evaluation(&state, first, &mut scratch) as f32, result));
        }
        let mv = state.parse_move(text).map_err(|e| unplayable(row, &e))?;
        state.try_play(mv).map_err(|e| unplayable(row, &e))?;
    }
    Ok(())
}

/// The `K` for which `σ(K·E)` best predicts the results `r` of `points` `(E, r)`: least
/// squares, by golden-section search over `ln K` in [10⁻⁵, 10²]. `None` without points or
/// when the evaluation is zero throughout.
#[must_use]
pub fn fit_scale(points: &[(f32, f32)]) -> Option<f64> {
    if points.iter().all(|(e, _)| *e == 0.0) {
        return None;
    }
    let loss = |ln_k: f64| {
        let k = ln_k.exp();
        points
            .iter()
            .map(|&(e, r)| {
                let p = 1.0 / (1.0 + (-k * f64::from(e)).exp());
                (f64::from(r) - p).powi(2)
            })
            .sum::<f64>()
    };
    let (mut a, mut b) = (1e-5f64.ln(), 1e2f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (loss(c), loss(d));
    for _ in 0..80 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = loss(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = loss(d);
        }
    }
    Some(((a + b) / 2.0).exp())
}

/// The variance of `values` and the share of them above `mean + 0.75 (max − mean)`; `None`
/// for no values.
#[must_use]
pub fn clarity_of(values: &[f64]) -> Option<(f64, f64)> {
    if values.is_empty() {
        return None;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let variance = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    let line = mean + 0.75 * (max - mean);
    let above = values.iter().filter(|&&v| v > line).count() as f64;
    Some((variance, above / n))
}

/// DecisivenessThreshold and DecisivenessMoves from the winner's value in each position before a
/// ply (the loser's is its negation: the value is zero-sum). The threshold is the loser's
/// highest value in ten positions spread evenly over the game ([`THRESHOLD_POSITIONS`]).
#[must_use]
pub fn decisiveness_of(winner_values: &[f64]) -> Option<(f64, f64)> {
    let n = winner_values.len();
    if n == 0 {
        return None;
    }
    let spots = THRESHOLD_POSITIONS.min(n);
    // Positions at i/spots of the game, i = 1..=spots: the last is the last position.
    let threshold = (1..=spots)
        .map(|i| -winner_values[(i * n).div_ceil(spots) - 1])
        .fold(f64::NEG_INFINITY, f64::max);
    let first = winner_values
        .iter()
        .position(|&v| v > threshold)
        .unwrap_or(n);
    Some((threshold, first as f64 / n as f64))
}

/// How many evenly spread positions of a game DecisivenessThreshold looks at.
pub const THRESHOLD_POSITIONS: usize = 10;

/// Replays `row` (a row already checked against the rules) from `start` and measures it, its
/// values on scale `k` ([`fit_scale`]).
pub fn game_clarity<G: Game + Features>(start: &G, row: &GameRow, k: f64) -> Result<ClarityFacts> {
    let (mut state, _, first) = pair_start(start, row.seed);
    let winner = row.winner.player(first);
    let mut scratch = [[0.0; MAX_FEATURES]; 2];
    let mut legal = Vec::new();
    let mut move_values = Vec::new();
    let mut winner_values = Vec::new();
    let (mut variance, mut narrowness, mut positions) = (0.0, 0.0, 0u32);
    for text in row.moves.split_whitespace() {
        if let Some(mover) = state.to_move() {
            state.legal_moves(&mut legal);
            move_values.clear();
            for &mv in &legal {
                let mut child = state.clone();
                child.play(mv);
                move_values.push(value(&child, mover, k, &mut scratch));
            }
            if let Some((v, share)) = clarity_of(&move_values) {
                variance += v;
                narrowness += share;
                positions += 1;
            }
        }
        if let Some(w) = winner {
            winner_values.push(value(&state, w, k, &mut scratch));
        }
        let mv = state.parse_move(text).map_err(|e| unplayable(row, &e))?;
        state.try_play(mv).map_err(|e| unplayable(row, &e))?;
    }
    let per = |x: f64| {
        if positions == 0 {
            0.0
        } else {
            x / f64::from(positions)
        }
    };
    let decisive = decisiveness_of(&winner_values);
    Ok(ClarityFacts {
        pair: (row.slot.pairing, row.slot.pair),
        clarity_variance: per(variance),
        clarity_narrowness: per(narrowness),
        decisiveness_threshold: decisive.map(|d| d.0),
        decisiveness_moves: decisive.map(|d| d.1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clarity_is_the_variance_and_the_share_above_three_quarters_of_the_way_to_the_best() {
        // Values 0, 0, 0, 1: mean ¼, max 1, line ¼ + ¾·¾ = 13/16; one value above it.
        // Variance: (3·(¼)² + (¾)²) / 4 = (3/16 + 9/16) / 4 = 3/16.
        let (var, share) = clarity_of(&[0.0, 0.0, 0.0, 1.0]).unwrap();
        assert!((var - 3.0 / 16.0).abs() < 1e-12, "{var}");
        assert!((share - 0.25).abs() < 1e-12, "{share}");
        // Two good moves of five: 1, 1, 0, 0, 0: mean 0.4, line 0.4 + 0.75·0.6 = 0.85.
        let (_, share) = clarity_of(&[1.0, 0.0, 1.0, 0.0, 0.0]).unwrap();
        assert!((share - 0.4).abs() < 1e-12, "{share}");
        // 0, ½, 1: mean ½, line ½ + ¾·½ = ⅞; only 1 is above it (a line below the mean, ½ −
        // ¾·½, would let ½ in too).
        let (var, share) = clarity_of(&[0.0, 0.5, 1.0]).unwrap();
        assert!((var - 1.0 / 6.0).abs() < 1e-12, "{var}");
        assert!((share - 1.0 / 3.0).abs() < 1e-12, "{share}");
        // All alike: no variance and no move above the line (the line is the max).
        assert_eq!(clarity_of(&[0.3, 0.3, 0.3]), Some((0.0, 0.0)));
        assert_eq!(clarity_of(&[]), None);
    }

    #[test]
    fn the_scale_is_the_k_whose_logistic_fits_the_results() {
        // Results that are exactly σ(0.3·E): the fit finds 0.3.
        let points: Vec<(f32, f32)> = (-20..=20)
            .map(|e| {
                let e = e as f32;
                (e, 1.0 / (1.0 + (-0.3 * e).exp()))
            })
            .collect();
        let k = fit_scale(&points).unwrap();
        assert!((k - 0.3).abs() < 1e-4, "{k}");
        // Doubling the evaluation's units halves K: the value σ(K·E) is the same.
        let doubled: Vec<(f32, f32)> = points.iter().map(|&(e, r)| (2.0 * e, r)).collect();
        assert!((fit_scale(&doubled).unwrap() - 0.15).abs() < 1e-4);
        // Results the evaluation does not predict (all draws): K falls to the bottom.
        let draws: Vec<(f32, f32)> = (-5..=5).map(|e| (e as f32, 0.5)).collect();
        assert!(fit_scale(&draws).unwrap() < 1e-4);
        assert_eq!(fit_scale(&[(0.0, 1.0)]), None);
    }

    #[test]
    fn the_threshold_looks_at_ten_positions_whatever_the_length() {
        // 20 positions: the ten at 2, 4, …, 20 (indices 1, 3, …, 19). The loser's best at an
        // odd index counts; at an even one it does not.
        let mut v = vec![0.5; 20];
        v[4] = -0.9; // index 4: not one of the ten
        v[5] = -0.7; // index 5: one of them
        let (threshold, _) = decisiveness_of(&v).unwrap();
        assert!((threshold - 0.7).abs() < 1e-12, "{threshold}");
        // A longer game of the same kind does not raise it: 200 positions, the same dips.
        let mut long = vec![0.5; 200];
        long[40] = -0.9;
        long[59] = -0.7;
        let (t, _) = decisiveness_of(&long).unwrap();
        assert!((t - 0.7).abs() < 1e-12, "{t}");
    }

    #[test]
    fn decisiveness_is_where_the_winner_first_passes_the_losers_best() {
        // The winner's values: the loser's best is 0.4 (where the winner had −0.4); the winner
        // first exceeds 0.4 at position 3 of 5.
        let (threshold, moves) = decisiveness_of(&[0.0, -0.4, 0.2, 0.5, 0.9]).unwrap();
        assert!((threshold - 0.4).abs() < 1e-12);
        assert!((moves - 3.0 / 5.0).abs() < 1e-12, "{moves}");
        // A winner behind all game long never passes the threshold: 1.
        let (threshold, moves) = decisiveness_of(&[-0.1, -0.2, -0.3]).unwrap();
        assert!((threshold - 0.3).abs() < 1e-12);
        assert_eq!(moves, 1.0);
        assert_eq!(decisiveness_of(&[]), None);
    }
}
