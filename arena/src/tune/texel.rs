//! Texel tuning: fit an evaluation's weights so that `σ(K · eval)` predicts games' results.
//!
//! As in Ethereal's tuner and GediminasMasaitis/texel-tuner, every kept position `i` of a
//! finished game carries its label `yᵢ` (1 if the first-listed colour, `Player::ZERO`, won the
//! game, ½ for a draw, 0 for a loss) and the differences of the game's features,
//! `dᵢⱼ = fⱼ(ZERO) − fⱼ(ONE)`; the evaluation is `sᵢ = Σⱼ wⱼ dᵢⱼ` in material units and the
//! prediction `pᵢ = σ(K sᵢ)` with the logistic `σ(x) = 1 / (1 + e^(−x))`.
//!
//! 1. **K** minimises the mean squared error `E(K) = (1/n) Σ (pᵢ − yᵢ)²` with the starting
//!    weights (golden-section search after bracketing), so the weights keep their material
//!    scale: a stone stays worth about 1.
//! 2. **The weights** then minimise `E(w) + λ ‖w‖²` by Levenberg–Marquardt (Gauss–Newton with
//!    Marquardt's damping): with `rᵢ = pᵢ − yᵢ` and `gᵢ = K pᵢ (1 − pᵢ) dᵢ`, the gradient is
//!    `(2/n) Σ rᵢ gᵢ + 2λw` and the Gauss–Newton matrix `H = (2/n) Σ gᵢ gᵢᵀ + 2λI`; a step
//!    solves `(H + μ diag(H)) δ = −∇`. A step is kept only if the objective falls, else `μ` grows
//!    fourfold and the step is solved again; a kept step divides `μ` by three. So the training
//!    objective never increases from one iteration to the next (the property the tests check).
//!
//! As engine authors use it (Ethereal, Andrew Grant's "Evaluation & Tuning in Chess Engines",
//! 2020; the Chess Programming Wiki's "Texel's Tuning Method"):
//!
//! - **Quiet positions.** With a leaf search ([`LeafSearch`], `--leaf-depth D`), each kept
//!   position is replaced by the leaf of a depth-D alpha-beta search's principal variation
//!   with the starting evaluation, the role quiescence search plays in chess: a static
//!   evaluation judges the leaf, where a position with a capture, a growth or a winning
//!   threat pending would mislead it. It works for every game through the `Game` trait.
//! - **Fixed weights.** Weights marked fixed ([`FitOptions::fixed`]; `material` by default)
//!   keep their starting value exactly: their rows of the system are replaced by the identity
//!   with a zero right-hand side, and their step is set to zero. With `material` fixed, K
//!   carries the scale and the other weights stay in material units.
//! - **L2 toward the start, per-feature scaling.** The penalty is
//!   `λ Σⱼ (K sⱼ)² (wⱼ − w⁰ⱼ)²`, toward the starting weights `w⁰`, where `sⱼ` is the standard
//!   deviation of feature difference `j` over the training positions (1 without scaling): a
//!   weight's move is measured by what it changes in the prediction's logit `K s`, so one λ
//!   fits every game and features whose ranges differ by orders of magnitude
//!   (Levenberg–Marquardt's steps, damped by `diag(H)`, are already invariant to a feature's
//!   scale).
//! - **Blended label.** With `λ_label < 1` ([`blend_labels`]) the label is
//!   `yᵢ = λ_label · rᵢ + (1 − λ_label) · σ(K vᵢ)`, `rᵢ` the game's result and `vᵢ` the leaf
//!   search's value of the position (for `Player::ZERO`, material units), with the K fitted to
//!   the results: the search's own judgement smooths the noisy result of one game.
//!
//! A game has at most [`MAX_FEATURES`] features, so each iteration is one pass over the
//! positions (in parallel, in fixed chunks so that sums do not depend on the thread count) and
//! a solve of a small system. Positions are extracted once into memory; games are never
//! replayed during the fit.

use std::path::{Path, PathBuf};

use rand::RngExt;
use rayon::prelude::*;
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game, MAX_FEATURES, Player, seeded_rng};

use crate::error::{Error, Result, Setting};
use crate::plan::RunPlan;
use crate::records::games_csv::read_games_with;
use crate::records::row::GameRow;
use crate::records::sidecar::read_sidecar;
use crate::records::validate::pair_start;
use crate::tune::probe::{LeafSearch, Probe, Selection};
use ringside_agents::net::NetShape;

/// Positions per chunk of the parallel sums (fixed, so results do not depend on threads).
const CHUNK: usize = 16_384;

/// Which positions of each game are kept.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PositionFilter {
    /// Skip the positions before this ply (0 keeps the start).
    pub skip_plies: u32,
    /// Keep at most this many positions a game, drawn from the game's seed (all if `None`).
    pub per_game: Option<u32>,
    /// Drop the positions within this many plies of the game's end (already decided).
    pub drop_decided: u32,
    /// The share of games (not positions) held out for validation, from 0 to below 1.
    pub validation_share: f64,
    /// The seed of the sampling and of the split.
    pub seed: u64,
    /// How games are assigned to the held-out sets.
    pub split: Split,
    /// The share of games held out for the test, beside validation (0: none).
    pub test_share: f64,
}

/// How a game is assigned to training, validation or the test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Split {
    /// By the game's id: each game on its own (what every tuning before issue 102 did). A
    /// game replayed move for move (a deterministic player's self-play twin) can land on
    /// both sides.
    #[default]
    Id,
    /// By the game's moves: every copy of a distinct game on the same side, so held-out
    /// games are games training never saw.
    Distinct,
}

impl PositionFilter {
    /// The filter in words, for a summary: "plies from 8, at most 10 a game, 0 dropped
    /// before each game's end; 20% of games held out for validation (seed 1)".
    #[must_use]
    pub fn describe(&self) -> String {
        let held = match self.split {
            Split::Id => "games",
            Split::Distinct => "distinct games (every copy of a game on one side)",
        };
        let test = if self.test_share > 0.0 {
            format!(" and {:.0}% for the test", 100.0 * self.test_share)
        } else {
            String::new()
        };
        format!(
            "plies from {}, {}, {} dropped before each game's end; {:.0}% of {held} held out for validation{test} (seed {})",
            self.skip_plies,
            self.per_game
                .map_or("every position".to_string(), |n| format!(
                    "at most {n} a game"
                )),
            self.drop_decided,
            100.0 * self.validation_share,
            self.seed
        )
    }
}

impl Default for PositionFilter {
    fn default() -> Self {
        PositionFilter {
            skip_plies: 0,
            per_game: None,
            drop_decided: 0,
            validation_share: 0.2,
            seed: 1,
            split: Split::Id,
            test_share: 0.0,
        }
    }
}

/// Labelled positions: feature differences and results, in flat arrays.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Positions {
    /// Features a position.
    pub width: usize,
    /// `width` feature differences a position, position after position.
    pub diffs: Vec<f32>,
    /// The label for `Player::ZERO`: the result (1, 0.5 or 0), or a blend with the search.
    pub labels: Vec<f32>,
    /// The leaf search's value for `Player::ZERO` of each position, in material units (empty
    /// without a leaf search).
    pub scores: Vec<f32>,
    /// Each position's network inputs, when extracted for a net (empty otherwise).
    pub inputs: Inputs,
}

/// The network inputs of positions, packed: position `i`'s active inputs
/// ([`NetShape::active_inputs`]) are `active[ends[i-1]..ends[i]]`, and `movers[i]` is the
/// index of its player to move (2 for a finished position). Two bytes an active input and
/// five a position.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Inputs {
    /// The active inputs, position after position.
    pub active: Vec<u16>,
    /// Where each position's inputs end in `active`.
    pub ends: Vec<u32>,
    /// The player to move in each position.
    pub movers: Vec<u8>,
}

impl Inputs {
    /// The active inputs of position `i`.
    #[must_use]
    pub fn of(&self, i: usize) -> &[u16] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.active[start..self.ends[i] as usize]
    }

    /// The bytes they take.
    #[must_use]
    pub fn bytes(&self) -> usize {
        2 * self.active.len() + 4 * self.ends.len() + self.movers.len()
    }
}

impl Positions {
    /// Empty positions of `width` features.
    #[must_use]
    pub fn new(width: usize) -> Positions {
        Positions {
            width,
            ..Positions::default()
        }
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Adds one position, with the search's value when there was a leaf search.
    pub fn push(&mut self, diffs: &[f64], label: f64, score: Option<f64>) {
        debug_assert_eq!(diffs.len(), self.width);
        self.diffs.extend(diffs.iter().map(|&d| d as f32));
        self.labels.push(label as f32);
        if let Some(s) = score {
            self.scores.push(s as f32);
        }
    }

    /// The standard deviation of each feature difference (1 where it is 0 or there are no
    /// positions): the per-feature scale of the penalty.
    #[must_use]
    pub fn scales(&self) -> Vec<f64> {
        let (m, n) = (self.width, self.len() as f64);
        let (mut sum, mut squares) = (vec![0.0; m], vec![0.0; m]);
        for d in self.diffs.chunks_exact(m.max(1)) {
            for j in 0..m {
                let x = f64::from(d[j]);
                sum[j] += x;
                squares[j] += x * x;
            }
        }
        (0..m)
            .map(|j| {
                let mean = sum[j] / n;
                let sd = (squares[j] / n - mean * mean).max(0.0).sqrt();
                if sd > 0.0 && sd.is_finite() { sd } else { 1.0 }
            })
            .collect()
    }

    fn chunks(&self) -> impl IndexedParallelIterator<Item = (&[f32], &[f32])> {
        self.diffs
            .par_chunks(CHUNK * self.width.max(1))
            .zip(self.labels.par_chunks(CHUNK))
    }
}

/// Replaces each label `rᵢ` (the result) by `λ · rᵢ + (1 − λ) · σ(K vᵢ)`, `vᵢ` the leaf
/// search's value of the position: `λ = 1` keeps the results, `λ = 0` fits the search.
/// Refused without search values.
pub fn blend_labels(positions: &mut Positions, k: f64, lambda: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&lambda) {
        return Err(Error::setting(format!(
            "the label's blend λ must be from 0 to 1, not {lambda}"
        )));
    }
    if lambda == 1.0 {
        return Ok(());
    }
    if positions.scores.len() != positions.labels.len() {
        return Err(Error::about(
            Setting::LeafDepth,
            ": a label blended with the search (λ below 1) needs the search's values: give a depth of 1 or more",
        ));
    }
    for (y, &v) in positions.labels.iter_mut().zip(&positions.scores) {
        *y = (lambda * f64::from(*y) + (1.0 - lambda) * sigmoid(k * f64::from(v))) as f32;
    }
    Ok(())
}

/// The positions of some games CSVs, split for training and validation.
#[derive(Debug, Clone)]
pub struct Extracted {
    /// The game's registry name (all files are of this game).
    pub game: &'static str,
    /// The game of the first file, to build evaluations from.
    pub game_start: AnyGame,
    /// The feature names, in the game's order.
    pub names: Vec<&'static str>,
    /// Games read, and games used (faulted games are left out).
    pub games: (usize, usize),
    /// Positions of the training games.
    pub train: Positions,
    /// Positions of the validation games.
    pub validation: Positions,
    /// Positions of the test games (none without a test share).
    pub test: Positions,
}

/// Reads the games CSVs (each checked against its sidecar, every game replayed) and keeps the
/// positions `filter` selects. Games an agent lost by a fault are left out; games stopped by
/// the ply cap count as the draws the arena scores them as. All files must be of one game.
///
/// With `leaf`, each kept position is replaced by the leaf of that search from it, and its
/// value kept for a blended label. With `net`, each position's inputs for a network of that
/// shape are kept too ([`Positions::inputs`]).
pub fn extract(
    files: &[PathBuf],
    filter: &PositionFilter,
    leaf: Option<&LeafSearch>,
    net: Option<&NetShape>,
) -> Result<Extracted> {
    if !(0.0..1.0).contains(&filter.validation_share) {
        return Err(Error::setting(format!(
            "the validation share must be from 0 to below 1, not {}",
            filter.validation_share
        )));
    }
    if !(0.0..1.0).contains(&filter.test_share)
        || filter.validation_share + filter.test_share >= 1.0
    {
        return Err(Error::setting(format!(
            "the test share must be from 0 and leave games to train on beside validation's {}, not {}",
            filter.validation_share, filter.test_share
        )));
    }
    if files.is_empty() {
        return Err(Error::setting("give at least one games CSV"));
    }
    let plans = files
        .iter()
        .map(|file| read_sidecar(file).map(|(plan, _)| plan))
        .collect::<Result<Vec<RunPlan>>>()?;
    struct Empty(AnyGame);
    impl GameVisitor for Empty {
        type Output = Extracted;
        fn visit<G: Game + Features>(self, start: G) -> Extracted {
            Extracted {
                game: start.name(),
                game_start: self.0,
                names: start.feature_names().collect(),
                games: (0, 0),
                train: Positions::new(start.feature_set().len()),
                validation: Positions::new(start.feature_set().len()),
                test: Positions::new(start.feature_set().len()),
            }
        }
    }
    /// One file's positions, from the read's one replay of each game (the features at the
    /// plies the filter keeps), appended in file order.
    struct File<'a> {
        file: &'a Path,
        plan: &'a RunPlan,
        filter: &'a PositionFilter,
        leaf: Option<&'a LeafSearch>,
        net: Option<&'a NetShape>,
        out: &'a mut Extracted,
    }
    impl GameVisitor for File<'_> {
        type Output = Result<()>;
        fn visit<G: Game + Features>(self, start: G) -> Result<()> {
            let (out, filter) = (self.out, self.filter);
            let width = start.feature_set().len();
            let select = |row: &GameRow| {
                if row.reason.is_fault() {
                    Selection::default()
                } else {
                    selection(row, filter)
                }
            };
            let probe = Probe {
                select: &select,
                leaf: self.leaf,
                cells: self.net.is_some(),
            };
            let mut active = Vec::new();
            read_games_with(self.file, self.plan, &probe, &mut |chunk| {
                for r in chunk {
                    out.games.0 += 1;
                    if r.row.reason.is_fault() {
                        continue;
                    }
                    out.games.1 += 1;
                    let label = zero_points(&start, &r.row);
                    let into = if r.gathered.test {
                        &mut out.test
                    } else if r.gathered.validation {
                        &mut out.validation
                    } else {
                        &mut out.train
                    };
                    for (i, diffs) in r.gathered.features.chunks(width).enumerate() {
                        into.push(diffs, label, r.gathered.scores.get(i).copied());
                    }
                    if let Some(shape) = self.net {
                        for cells in r.gathered.cells.chunks_exact(shape.cells + 1) {
                            shape.active_inputs(&cells[..shape.cells], &mut active);
                            let inputs = &mut into.inputs;
                            inputs.active.extend_from_slice(&active);
                            inputs.ends.push(inputs.active.len() as u32);
                            inputs.movers.push(cells[shape.cells]);
                        }
                    }
                }
                Ok(())
            })?;
            Ok(())
        }
    }
    let mut out = plans[0].game.visit(Empty(plans[0].game.clone()));
    for (file, plan) in files.iter().zip(&plans) {
        if plan.game.name() != out.game {
            return Err(Error::setting(format!(
                "{}: a run of {}, not {}",
                file.display(),
                plan.game.name(),
                out.game
            )));
        }
        plan.game.visit(File {
            file,
            plan,
            filter,
            leaf,
            net,
            out: &mut out,
        })?;
    }
    if out.train.is_empty() {
        return Err(Error::setting(format!(
            "no training positions in {} game(s): check the position filter (plies skipped at the start, plies dropped at the end, the validation share)",
            out.games.1
        )));
    }
    Ok(out)
}

/// Whether game `row` goes to validation, and the plies whose positions it keeps, drawn from
/// the filter's seed and the game's id.
pub(crate) fn selection(row: &GameRow, filter: &PositionFilter) -> Selection {
    let mut rng = seeded_rng(filter.seed, row.id);
    // The id's draw always comes first, so the plies drawn after it are what they were.
    let by_id: f64 = rng.random();
    let draw = match filter.split {
        Split::Id => by_id,
        Split::Distinct => seeded_rng(filter.seed, row.moves_key()).random(),
    };
    let validation = draw < filter.validation_share;
    let test = !validation && draw < filter.validation_share + filter.test_share;
    let last = row.plies.saturating_sub(filter.drop_decided);
    let candidates: Vec<u32> = (filter.skip_plies..last).collect();
    let keep: Vec<u32> = match filter.per_game {
        Some(n) if (n as usize) < candidates.len() => {
            let mut chosen = candidates;
            // A partial Fisher–Yates shuffle: the first n of a uniform permutation.
            for i in 0..n as usize {
                let j = rng.random_range(i..chosen.len());
                chosen.swap(i, j);
            }
            chosen.truncate(n as usize);
            chosen.sort_unstable();
            chosen
        }
        _ => candidates,
    };
    Selection {
        validation,
        test,
        plies: keep,
    }
}

/// The label of game `row`'s positions: the points of `Player::ZERO` (1, ½ or 0).
fn zero_points<G: Game>(start: &G, row: &GameRow) -> f64 {
    let (_, _, first) = pair_start(start, row.seed);
    match row.winner.player(first) {
        None => 0.5,
        Some(p) if p == Player::ZERO => 1.0,
        Some(_) => 0.0,
    }
}

/// The logistic function.
#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean squared error of `σ(K · w·d)` against the labels.
#[must_use]
pub fn loss(positions: &Positions, weights: &[f64], k: f64) -> f64 {
    if positions.is_empty() {
        return f64::NAN;
    }
    let sums: Vec<f64> = positions
        .chunks()
        .map(|(diffs, labels)| {
            let mut sum = 0.0;
            for (d, &y) in diffs.chunks_exact(positions.width).zip(labels) {
                let s: f64 = d.iter().zip(weights).map(|(&d, w)| f64::from(d) * w).sum();
                let r = sigmoid(k * s) - f64::from(y);
                sum += r * r;
            }
            sum
        })
        .collect();
    sums.iter().sum::<f64>() / positions.len() as f64
}

/// The K that minimises the mean squared error with `weights` (bracketed by doubling from 1,
/// then golden-section search to a relative width of 1e-6).
pub fn fit_k(positions: &Positions, weights: &[f64]) -> Result<f64> {
    if loss(positions, weights, 1.0) == loss(positions, weights, 2.0) {
        return Err(Error::setting(
            "the starting evaluation is zero on every position: K cannot be fitted (start from eval=material or a weights file)",
        ));
    }
    let mut hi = 1.0;
    while hi < 1e6 && loss(positions, weights, 2.0 * hi) < loss(positions, weights, hi) {
        hi *= 2.0;
    }
    let (mut a, mut b) = (0.0, 2.0 * hi);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - phi * (b - a), a + phi * (b - a));
    let (mut fc, mut fd) = (loss(positions, weights, c), loss(positions, weights, d));
    while b - a > 1e-6 * b.max(1e-9) {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = loss(positions, weights, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = loss(positions, weights, d);
        }
    }
    Ok((a + b) / 2.0)
}

/// Settings of the weight fit.
#[derive(Debug, Clone, PartialEq)]
pub struct FitOptions {
    /// Most Levenberg–Marquardt iterations.
    pub iterations: u32,
    /// The L2 penalty λ on the weights' moves from the start (0: none).
    pub l2: f64,
    /// Whether the penalty measures each weight's move in units of its feature's standard
    /// deviation ([`Positions::scales`]), or plainly.
    pub scale: bool,
    /// The weights held at their starting value, by feature index (missing: free).
    pub fixed: Vec<bool>,
    /// Refit K (with the weights as they stand) whenever the weights stop improving, and go
    /// on while that lowers the loss: with `material` fixed, K carries the evaluation's scale.
    pub refit_k: bool,
    /// Stop when an iteration lowers the objective by less than this share of it.
    pub tolerance: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            iterations: 100,
            l2: 0.0,
            scale: true,
            fixed: Vec::new(),
            refit_k: false,
            tolerance: 1e-10,
        }
    }
}

impl FitOptions {
    fn is_fixed(&self, j: usize) -> bool {
        self.fixed.get(j).copied().unwrap_or(false)
    }
}

/// One iteration of the fit, as `tune.csv` records it.
#[derive(Debug, Clone, PartialEq)]
pub struct FitStep {
    /// 0 for the starting weights, then each kept step.
    pub iteration: u32,
    /// Mean squared error on the training positions.
    pub train_loss: f64,
    /// Mean squared error on the validation positions (NaN if there are none).
    pub validation_loss: f64,
    /// Marquardt's damping μ after the step.
    pub damping: f64,
    /// The K of the step (it changes only when K is refitted).
    pub k: f64,
    /// The weights after the step.
    pub weights: Vec<f64>,
}

/// Gradient and Gauss–Newton matrix of the mean squared error (without the penalty).
fn gradient_and_matrix(positions: &Positions, weights: &[f64], k: f64) -> (Vec<f64>, Vec<f64>) {
    let m = positions.width;
    let parts: Vec<(Vec<f64>, Vec<f64>)> = positions
        .chunks()
        .map(|(diffs, labels)| {
            let (mut g, mut h) = (vec![0.0; m], vec![0.0; m * m]);
            let mut d64 = [0.0; MAX_FEATURES];
            for (d, &y) in diffs.chunks_exact(m).zip(labels) {
                for (x, &v) in d64.iter_mut().zip(d) {
                    *x = f64::from(v);
                }
                let s: f64 = d64[..m].iter().zip(weights).map(|(d, w)| d * w).sum();
                let p = sigmoid(k * s);
                let r = p - f64::from(y);
                let slope = k * p * (1.0 - p);
                for a in 0..m {
                    let ga = slope * d64[a];
                    g[a] += r * ga;
                    for b in a..m {
                        h[a * m + b] += ga * slope * d64[b];
                    }
                }
            }
            (g, h)
        })
        .collect();
    let n = positions.len() as f64;
    let (mut g, mut h) = (vec![0.0; m], vec![0.0; m * m]);
    for (pg, ph) in parts {
        for (a, b) in g.iter_mut().zip(pg) {
            *a += b;
        }
        for (a, b) in h.iter_mut().zip(ph) {
            *a += b;
        }
    }
    for a in 0..m {
        g[a] *= 2.0 / n;
        for b in a..m {
            h[a * m + b] *= 2.0 / n;
            h[b * m + a] = h[a * m + b];
        }
    }
    (g, h)
}

/// Solves `a x = b` for a small dense system (Gaussian elimination with partial pivoting);
/// `None` if it is singular.
fn solve(mut a: Vec<f64>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let m = b.len();
    for col in 0..m {
        let pivot =
            (col..m).max_by(|&i, &j| a[i * m + col].abs().total_cmp(&a[j * m + col].abs()))?;
        if a[pivot * m + col].abs() < 1e-300 {
            return None;
        }
        for k in 0..m {
            a.swap(col * m + k, pivot * m + k);
        }
        b.swap(col, pivot);
        for row in col + 1..m {
            let f = a[row * m + col] / a[col * m + col];
            for k in col..m {
                a[row * m + k] -= f * a[col * m + k];
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; m];
    for row in (0..m).rev() {
        let s: f64 = (row + 1..m).map(|k| a[row * m + k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row * m + row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// Fits the weights from `start` with K fixed; returns every kept step, the start first. The
/// training objective (`loss + λ Σ (K sⱼ)² (wⱼ − startⱼ)²`) never increases from one step to the
/// next, and fixed weights keep their starting value exactly.
#[must_use]
pub fn fit(
    train: &Positions,
    validation: &Positions,
    start: &[f64],
    k: f64,
    options: &FitOptions,
    mut on_step: impl FnMut(&FitStep),
) -> Vec<FitStep> {
    let scales = if options.scale {
        train.scales()
    } else {
        vec![1.0; start.len()]
    };
    let stiffness: Vec<f64> = scales
        .iter()
        .map(|s| options.l2 * (k * s).powi(2))
        .collect();
    let penalty = |w: &[f64]| {
        w.iter()
            .zip(start)
            .zip(&stiffness)
            .map(|((w, w0), c)| c * (w - w0) * (w - w0))
            .sum::<f64>()
    };
    let mut weights = start.to_vec();
    let mut k = k;
    let mut train_loss = loss(train, &weights, k);
    let mut current = train_loss + penalty(&weights);
    let mut damping = 1e-3;
    // The training loss is passed in: it was computed when the step was tried.
    let step = |iteration, weights: &[f64], train_loss, damping, k| FitStep {
        iteration,
        train_loss,
        validation_loss: loss(validation, weights, k),
        damping,
        k,
        weights: weights.to_vec(),
    };
    let first = step(0, &weights, train_loss, damping, k);
    on_step(&first);
    let mut steps = vec![first];
    for iteration in 1..=options.iterations {
        let (mut g, mut h) = gradient_and_matrix(train, &weights, k);
        let m = weights.len();
        for a in 0..m {
            g[a] += 2.0 * stiffness[a] * (weights[a] - start[a]);
            h[a * m + a] += 2.0 * stiffness[a];
        }
        for a in (0..m).filter(|&a| options.is_fixed(a)) {
            g[a] = 0.0;
            for b in 0..m {
                h[a * m + b] = 0.0;
                h[b * m + a] = 0.0;
            }
            h[a * m + a] = 1.0;
        }
        let mut improved = None;
        for _ in 0..40 {
            let mut damped = h.clone();
            for a in 0..m {
                damped[a * m + a] += damping * (h[a * m + a] + 1e-12);
            }
            let rhs: Vec<f64> = g.iter().map(|x| -x).collect();
            if let Some(mut delta) = solve(damped, rhs) {
                for (a, d) in delta.iter_mut().enumerate() {
                    if options.is_fixed(a) {
                        *d = 0.0;
                    }
                }
                let trial: Vec<f64> = weights.iter().zip(&delta).map(|(w, d)| w + d).collect();
                let trial_loss = loss(train, &trial, k);
                let value = trial_loss + penalty(&trial);
                if value < current {
                    improved = Some((trial, trial_loss, value));
                    damping = (damping / 3.0).max(1e-12);
                    break;
                }
            }
            damping *= 4.0;
        }
        let kept = improved.is_some();
        let converged = match improved {
            None => true,
            Some((trial, trial_loss, value)) => {
                let gain = current - value;
                weights = trial;
                train_loss = trial_loss;
                current = value;
                gain < options.tolerance * current
            }
        };
        if converged {
            // K again with these weights: kept only if it lowers the loss (the penalty's
            // scale stays that of the first K, so the objective falls with the loss).
            let refit = options
                .refit_k
                .then(|| fit_k(train, &weights).ok())
                .flatten()
                .filter(|&new| (new - k).abs() > 1e-6 * k)
                .map(|new| (new, loss(train, &weights, new)))
                .filter(|&(_, l)| l < train_loss * (1.0 - 1e-12));
            let Some((new, l)) = refit else {
                // Done: the last kept step (if this iteration kept one) is recorded first.
                if kept {
                    let s = step(iteration, &weights, train_loss, damping, k);
                    on_step(&s);
                    steps.push(s);
                }
                break;
            };
            k = new;
            train_loss = l;
            current = train_loss + penalty(&weights);
        }
        let s = step(iteration, &weights, train_loss, damping, k);
        on_step(&s);
        steps.push(s);
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Seat, Slot};
    use crate::records::row::{Reason, Winner};

    /// A row of game `id` whose moves are `moves`.
    fn row_of(id: u64, moves: &str) -> GameRow {
        GameRow {
            id,
            slot: Slot {
                pairing: 0,
                pair: id / 2,
                seat: Seat::AFirst,
            },
            game: "rin".to_string(),
            seed: 1,
            opening_plies: 0,
            first_agent: 0,
            second_agent: 1,
            winner: Winner::Draw,
            reason: Reason::Normal,
            plies: moves.split_whitespace().count() as u32,
            first_score: None,
            second_score: None,
            first_time_ms: 0.0,
            second_time_ms: 0.0,
            first_nodes: 0,
            second_nodes: 0,
            first_iterations: 0,
            second_iterations: 0,
            first_clock: None,
            second_clock: None,
            moves: moves.to_string(),
            fault: None,
        }
    }

    #[test]
    fn a_split_by_distinct_game_keeps_every_copy_of_a_game_on_one_side_and_by_id_is_unchanged() {
        let filter = |split, test_share| PositionFilter {
            validation_share: 0.3,
            test_share,
            split,
            ..PositionFilter::default()
        };
        let games = ["a1 b2 c3", "a1 b2 c4", "b1 a2", "c3 c4 c5 c6"];
        // Each game ten times under different ids: by its moves, every copy on one side.
        let distinct = filter(Split::Distinct, 0.2);
        for (k, moves) in games.iter().enumerate() {
            let side = |id| {
                let s = selection(&row_of(id, moves), &distinct);
                assert!(!(s.validation && s.test));
                (s.validation, s.test)
            };
            let first = side(k as u64);
            for copy in 1..10u64 {
                assert_eq!(side(100 * copy + k as u64), first, "{moves}");
            }
        }
        // By id, copies of one game fall on both sides (300 copies at 30%).
        let by_id = filter(Split::Id, 0.0);
        let held = (0..300u64)
            .filter(|&id| selection(&row_of(id, games[0]), &by_id).validation)
            .count();
        assert!((60..120).contains(&held), "{held}");
        // And by id with no test, the draw is the one every tuning before made.
        for id in 0..50u64 {
            let old = seeded_rng(1, id).random::<f64>() < 0.3;
            let s = selection(&row_of(id, games[1]), &by_id);
            assert_eq!((s.validation, s.test), (old, false));
        }
        // The shares over many distinct games: about 30% validation, 20% test.
        let (mut v, mut t) = (0, 0);
        for g in 0..2000u64 {
            let s = selection(&row_of(g, &format!("a{g} b{g}")), &distinct);
            v += usize::from(s.validation);
            t += usize::from(s.test);
        }
        assert!(
            (520..680).contains(&v) && (330..470).contains(&t),
            "{v} {t}"
        );
    }
}
