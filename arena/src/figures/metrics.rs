//! Game-design metrics of a match, after Ludii's `Evaluation/src/metrics`, each with a 95%
//! interval.
//!
//! Every game is replayed once ([`game_facts`]) to learn what the CSV does not hold: how
//! many legal moves each position had, whose turn it was, and who the game's evaluation
//! says is ahead. The metrics are then computed from those facts ([`Metric::value`]).
//!
//! ## Formulas
//! Over the `n` games of a match (faults included, as the results they are):
//! - **AdvantageP1** (Ludii): the share of games the first colour won.
//! - **FirstScore**: the first colour's mean points (win 1, draw ½, loss 0); ½ is fair.
//! - **Balance** (Ludii): 1 − |first colour's win share − second colour's win share|.
//! - **Completion** (Ludii): the share of games with a winner (no draw, no cap).
//! - **Drawishness** (Ludii): the share of games drawn by the rules (ply caps excluded).
//! - **Timeouts** (Ludii): the share of games stopped by the ply cap.
//! - **DurationMoves** (Ludii): mean plies (moves, random opening included).
//! - **DurationTurns** (Ludii): mean turns, a turn being a run of plies by one player (a Rin
//!   turn of two stones is one turn; in games that alternate, turns = plies).
//! - **BranchingFactor** (Ludii): the mean over games of the mean number of legal moves in
//!   the positions where a move was played.
//! - **DecisionMoves** (Ludii): the mean over games of the share of those positions with
//!   more than one legal move.
//! - **LeadChange** (Ludii): the mean over games of (changes of leader) / plies. The leader
//!   in a position is the colour the game's evaluation (its features at their default
//!   weights, the `eval=rich` evaluation) puts ahead, or nobody on a tie; a change is any
//!   difference from the position before. Unlike Ludii, the start does not count as a change.
//! - **Drama** (Ludii's "moves where the eventual winner was behind"): the mean over decided
//!   games of the share of positions (before each ply) where the winner's evaluation was
//!   below the loser's. Games without a winner are left out.
//! - **ScoreA**: the mean points of the match's first agent.
//! - **WonLengthA**, **WonLengthB**: the mean plies of the games each agent won (how fast it
//!   wins; the test of `score=moves`).
//!
//! ## Intervals
//! A percentile bootstrap over colour-swapped pairs: the two games of a pair share a seed
//! and an opening (in a self-play of deterministic agents they are the same game), so they
//! are resampled together. [`BOOTSTRAP_SAMPLES`] resamples from a fixed seed, so intervals
//! are reproducible; the interval is the 2.5% and 97.5% quantiles of the resampled metric.
//! With one pair the interval is the point.
//!
//! Every metric is a ratio of sums over games (`Σ x / Σ y`, Balance `1 − |Σ a − Σ b| / n`),
//! so a resample needs only each pair's sums ([`MetricFold`] keeps them as games arrive, never
//! the games). Up to [`BOOTSTRAP_CLUSTERS`] pairs, each pair is its own cluster and the
//! resampling is exactly the pair bootstrap. Beyond that, pair `k` joins cluster
//! `k mod BOOTSTRAP_CLUSTERS`, and the clusters are resampled: a cluster is the sum of pairs
//! that are independent and identically distributed (each pair's seed is its own), so the
//! resampled sums keep the variance `n · Var(pair)` of the pair bootstrap, and with thousands
//! of clusters the percentile interval is the same to within the bootstrap's own noise. The
//! cost is `O(BOOTSTRAP_SAMPLES × clusters)` however many games the file holds; memory is
//! one row of sums a cluster.

use std::collections::HashMap;

use rand::RngExt;
use rayon::prelude::*;
use ringside_engine::registry::GameVisitor;
use ringside_engine::{Features, Game, MAX_FEATURES, Player, seeded_rng};

use crate::error::{Error, Result};
use crate::figures::plot::Bounds;
use crate::plan::RunPlan;
use crate::records::fault::RowFault;
use crate::records::row::{GameRow, Reason, Winner};
use crate::records::sink::{Sink, Watch};
use crate::records::validate::replay_row;

/// Resamples of the bootstrap.
pub const BOOTSTRAP_SAMPLES: usize = 2000;

/// Most clusters of pairs the bootstrap resamples (see the module docs).
pub const BOOTSTRAP_CLUSTERS: u64 = 4096;

/// What one replayed game tells the metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct GameFacts {
    /// The pairing and the pair: games with the same key are resampled together.
    pub pair: (usize, u64),
    /// Who won, by colour.
    pub winner: Winner,
    /// Why it ended.
    pub reason: Reason,
    /// Whether the pairing's first agent won (`Some(false)`: the other won; `None`: draw).
    pub a_won: Option<bool>,
    /// Plies.
    pub plies: u32,
    /// Turns: runs of plies by one player.
    pub turns: u32,
    /// Mean legal moves in the positions where a move was played (0 for an empty game).
    pub branching: f64,
    /// Share of those positions with more than one legal move.
    pub decisions: f64,
    /// Changes of the evaluation's leader, divided by the plies.
    pub lead_changes: f64,
    /// For a decided game, the share of positions where the winner's evaluation was below
    /// the loser's.
    pub drama: Option<f64>,
}

impl GameFacts {
    fn first_points(&self) -> f64 {
        match self.winner {
            Winner::First => 1.0,
            Winner::Second => 0.0,
            Winner::Draw => 0.5,
        }
    }
}

/// Replays every row (in parallel, each checked as a read checks it) and gathers its facts,
/// in the rows' order.
pub fn game_facts(plan: &RunPlan, rows: &[GameRow]) -> Result<Vec<GameFacts>> {
    struct Visit<'a> {
        plan: &'a RunPlan,
        rows: &'a [GameRow],
    }
    impl GameVisitor for Visit<'_> {
        type Output = Result<Vec<GameFacts>>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            self.rows
                .par_iter()
                .map(|row| {
                    replay_row(&start, self.plan, row, &MetricsSink)
                        .map(|facts| facts.expect("the watch finished"))
                        .map_err(|e| {
                            Error::corrupt(format!("game {} does not replay: {e}", row.id))
                        })
                })
                .collect()
        }
    }
    plan.game.visit(Visit { plan, rows })
}

/// The evaluation of `state` for `first` minus that for the other colour, by the game's
/// default feature weights: the weighted sum of the feature differences, so that equal
/// features give exactly 0 (two weighted sums subtracted would leave rounding noise, which
/// the lead's sign would count as leads).
pub(crate) fn evaluation<G: Features>(
    state: &G,
    first: Player,
    values: &mut [[f64; MAX_FEATURES]; 2],
) -> f64 {
    let set = state.feature_set();
    state.features(first, &mut values[0]);
    state.features(first.other(), &mut values[1]);
    set.iter()
        .enumerate()
        .map(|(i, f)| f.default_weight * (values[0][i] - values[1][i]))
        .sum()
}

/// Differences of evaluation this close to 0 are no lead: what is left of rounding when the
/// features differ but their weighted differences cancel.
const NO_LEAD: f64 = 1e-9;

/// The metrics as a [`Sink`] of replays: each row's [`GameFacts`] (`Some` once its
/// replay is finished).
#[derive(Debug, Clone, Copy, Default)]
pub struct MetricsSink;

impl Sink for MetricsSink {
    type Gathered = Option<GameFacts>;
    type Watch<G: Game + Features> = FactsFold<G>;

    fn watch<G: Game + Features>(
        &self,
        _: &G,
        _: &GameRow,
        first: Player,
    ) -> std::result::Result<FactsFold<G>, RowFault> {
        Ok(FactsFold::new(first))
    }
}

/// A game's facts gathered ply by ply as it is replayed: counts only, nothing a ply.
#[derive(Debug)]
pub struct FactsFold<G: Game> {
    first: Player,
    legal: Vec<G::Move>,
    values: [[f64; MAX_FEATURES]; 2],
    turns: u32,
    last_mover: Option<Player>,
    legal_sum: u64,
    choices: u64,
    positions: u64,
    last_lead: Option<i8>,
    changes: u64,
    /// Positions where the first colour's evaluation was behind and ahead.
    behind: [u64; 2],
}

impl<G: Game + Features> FactsFold<G> {
    /// The fold of a game whose first mover is `first`.
    #[must_use]
    pub fn new(first: Player) -> FactsFold<G> {
        FactsFold {
            first,
            legal: Vec::new(),
            values: [[0.0; MAX_FEATURES]; 2],
            turns: 0,
            last_mover: None,
            legal_sum: 0,
            choices: 0,
            positions: 0,
            last_lead: None,
            changes: 0,
            behind: [0; 2],
        }
    }
}

impl<G: Game + Features> Watch<G> for FactsFold<G> {
    type Gathered = Option<GameFacts>;

    /// Counts the position `state`, where a move is about to be played.
    fn before_move(&mut self, state: &G, _: u32) {
        let mover = state.to_move();
        if mover != self.last_mover {
            self.turns += 1;
            self.last_mover = mover;
        }
        state.legal_moves(&mut self.legal);
        let count = self.legal.len() as u64;
        self.legal_sum += count;
        self.choices += u64::from(count > 1);
        self.positions += 1;
        let diff = evaluation(state, self.first, &mut self.values);
        let lead: i8 = if diff > NO_LEAD {
            1
        } else if diff < -NO_LEAD {
            -1
        } else {
            0
        };
        if self.last_lead.is_some_and(|l| l != lead) {
            self.changes += 1;
        }
        self.last_lead = Some(lead);
        match lead {
            -1 => self.behind[0] += 1,
            1 => self.behind[1] += 1,
            _ => {}
        }
    }

    /// The facts of the game `row` records, whose every move went through
    /// [`Watch::before_move`].
    fn finish(self, _: &G, row: &GameRow) -> Option<GameFacts> {
        let positions = self.positions;
        let per_position = |x: u64| {
            if positions == 0 {
                0.0
            } else {
                x as f64 / positions as f64
            }
        };
        // The winner was behind where the first colour led (a second-colour win) or trailed
        // (a first-colour win).
        let drama = match row.winner {
            Winner::First => Some(per_position(self.behind[0])),
            Winner::Second => Some(per_position(self.behind[1])),
            Winner::Draw => None,
        };
        let a_won = row.winner_agent().map(|_| row.pairing_first_points() > 0.5);
        Some(GameFacts {
            pair: (row.slot.pairing, row.slot.pair),
            winner: row.winner,
            reason: row.reason,
            a_won,
            plies: row.plies,
            turns: self.turns,
            branching: per_position(self.legal_sum),
            decisions: per_position(self.choices),
            lead_changes: per_position(self.changes),
            drama,
        })
    }
}

/// One metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Share of games the first colour won.
    AdvantageP1,
    /// The first colour's mean points.
    FirstScore,
    /// 1 − |first colour's win share − second's|.
    Balance,
    /// Share of games with a winner.
    Completion,
    /// Share of games drawn by the rules.
    Drawishness,
    /// Share of games stopped by the ply cap.
    Timeouts,
    /// Mean plies.
    DurationMoves,
    /// Mean turns.
    DurationTurns,
    /// Mean legal moves a position.
    BranchingFactor,
    /// Share of positions with a choice.
    DecisionMoves,
    /// Leader changes a ply.
    LeadChange,
    /// Share of positions where the eventual winner was behind.
    Drama,
    /// The match's first agent's mean points.
    ScoreA,
    /// Mean plies of the games the first agent won.
    WonLengthA,
    /// Mean plies of the games the second agent won.
    WonLengthB,
}

impl Metric {
    /// Every metric, in the order tables list them.
    pub const ALL: [Metric; 15] = [
        Metric::AdvantageP1,
        Metric::FirstScore,
        Metric::Balance,
        Metric::Completion,
        Metric::Drawishness,
        Metric::Timeouts,
        Metric::DurationMoves,
        Metric::DurationTurns,
        Metric::BranchingFactor,
        Metric::DecisionMoves,
        Metric::LeadChange,
        Metric::Drama,
        Metric::ScoreA,
        Metric::WonLengthA,
        Metric::WonLengthB,
    ];

    /// The name (Ludii's where the concept is the same).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Metric::AdvantageP1 => "AdvantageP1",
            Metric::FirstScore => "FirstScore",
            Metric::Balance => "Balance",
            Metric::Completion => "Completion",
            Metric::Drawishness => "Drawishness",
            Metric::Timeouts => "Timeouts",
            Metric::DurationMoves => "DurationMoves",
            Metric::DurationTurns => "DurationTurns",
            Metric::BranchingFactor => "BranchingFactor",
            Metric::DecisionMoves => "DecisionMoves",
            Metric::LeadChange => "LeadChange",
            Metric::Drama => "Drama",
            Metric::ScoreA => "ScoreA",
            Metric::WonLengthA => "WonLengthA",
            Metric::WonLengthB => "WonLengthB",
        }
    }

    /// The values the metric can take, for a plot's axis: shares, scores and rates lie in
    /// [0, 1]; lengths and move counts are never negative.
    #[must_use]
    pub fn bounds(self) -> Bounds {
        match self {
            Metric::DurationMoves
            | Metric::DurationTurns
            | Metric::BranchingFactor
            | Metric::WonLengthA
            | Metric::WonLengthB => Bounds::NON_NEGATIVE,
            Metric::AdvantageP1 | Metric::FirstScore | Metric::ScoreA => Bounds::SCORE,
            Metric::Balance
            | Metric::Completion
            | Metric::Drawishness
            | Metric::Timeouts
            | Metric::DecisionMoves
            | Metric::LeadChange
            | Metric::Drama => Bounds::SHARE,
        }
    }

    /// What the value measures, with its unit: a plot's axis label.
    #[must_use]
    pub fn unit(self) -> &'static str {
        match self {
            Metric::AdvantageP1 => "first colour's wins (share of games)",
            Metric::FirstScore => "first colour's score (points a game)",
            Metric::Balance => "balance (1 = equal win shares)",
            Metric::Completion => "games with a winner (share)",
            Metric::Drawishness => "draws by the rules (share)",
            Metric::Timeouts => "games stopped by the ply cap (share)",
            Metric::DurationMoves => "game length (plies)",
            Metric::DurationTurns => "game length (turns)",
            Metric::BranchingFactor => "legal moves a position",
            Metric::DecisionMoves => "positions with a choice (share)",
            Metric::LeadChange => "leader changes a ply",
            Metric::Drama => "positions with the winner behind (share)",
            Metric::ScoreA => "first agent's score (points a game)",
            Metric::WonLengthA => "first agent's won games (plies)",
            Metric::WonLengthB => "second agent's won games (plies)",
        }
    }

    /// The metric over `games`; `None` when it is undefined (no games, or no decided game
    /// for Drama, no win for the won lengths).
    #[must_use]
    pub fn value(self, games: &[&GameFacts]) -> Option<f64> {
        let mut sums = Sums::default();
        for g in games {
            sums.add_game(g);
        }
        self.of(&sums)
    }

    /// The metric of games whose facts add up to `sums`.
    #[must_use]
    pub fn of(self, sums: &Sums) -> Option<f64> {
        let x = &sums.0;
        let ratio = |num: usize, den: usize| (x[den] > 0.0).then(|| x[num] / x[den]);
        let share = |num: usize| ratio(num, Sums::GAMES);
        match self {
            Metric::AdvantageP1 => share(Sums::FIRST_WINS),
            Metric::FirstScore => share(Sums::FIRST_POINTS),
            Metric::Balance => {
                let first = share(Sums::FIRST_WINS)?;
                let second = share(Sums::SECOND_WINS)?;
                Some(1.0 - (first - second).abs())
            }
            Metric::Completion => (x[Sums::GAMES] > 0.0)
                .then(|| (x[Sums::FIRST_WINS] + x[Sums::SECOND_WINS]) / x[Sums::GAMES]),
            Metric::Drawishness => share(Sums::RULE_DRAWS),
            Metric::Timeouts => share(Sums::CAPPED),
            Metric::DurationMoves => share(Sums::PLIES),
            Metric::DurationTurns => share(Sums::TURNS),
            Metric::BranchingFactor => share(Sums::BRANCHING),
            Metric::DecisionMoves => share(Sums::DECISIONS),
            Metric::LeadChange => share(Sums::LEAD_CHANGES),
            Metric::Drama => ratio(Sums::DRAMA, Sums::DECIDED),
            Metric::ScoreA => share(Sums::A_POINTS),
            Metric::WonLengthA => ratio(Sums::A_WON_PLIES, Sums::A_WINS),
            Metric::WonLengthB => ratio(Sums::B_WON_PLIES, Sums::B_WINS),
        }
    }
}

/// What a set of games adds up to, for every metric: each metric is a ratio of two of these
/// sums ([`Metric::of`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Sums([f64; 18]);

impl Sums {
    const GAMES: usize = 0;
    const FIRST_WINS: usize = 1;
    const SECOND_WINS: usize = 2;
    const RULE_DRAWS: usize = 3;
    const CAPPED: usize = 4;
    const FIRST_POINTS: usize = 5;
    const PLIES: usize = 6;
    const TURNS: usize = 7;
    const BRANCHING: usize = 8;
    const DECISIONS: usize = 9;
    const LEAD_CHANGES: usize = 10;
    const DRAMA: usize = 11;
    const DECIDED: usize = 12;
    const A_POINTS: usize = 13;
    const A_WINS: usize = 14;
    const A_WON_PLIES: usize = 15;
    const B_WINS: usize = 16;
    const B_WON_PLIES: usize = 17;

    /// Adds one game.
    pub fn add_game(&mut self, g: &GameFacts) {
        let x = &mut self.0;
        let flag = |b: bool| f64::from(u8::from(b));
        let plies = f64::from(g.plies);
        x[Self::GAMES] += 1.0;
        x[Self::FIRST_WINS] += flag(g.winner == Winner::First);
        x[Self::SECOND_WINS] += flag(g.winner == Winner::Second);
        x[Self::RULE_DRAWS] += flag(g.winner == Winner::Draw && g.reason != Reason::PlyCap);
        x[Self::CAPPED] += flag(g.reason == Reason::PlyCap);
        x[Self::FIRST_POINTS] += g.first_points();
        x[Self::PLIES] += plies;
        x[Self::TURNS] += f64::from(g.turns);
        x[Self::BRANCHING] += g.branching;
        x[Self::DECISIONS] += g.decisions;
        x[Self::LEAD_CHANGES] += g.lead_changes;
        if let Some(d) = g.drama {
            x[Self::DRAMA] += d;
            x[Self::DECIDED] += 1.0;
        }
        x[Self::A_POINTS] += match g.a_won {
            Some(true) => 1.0,
            Some(false) => 0.0,
            None => 0.5,
        };
        match g.a_won {
            Some(true) => {
                x[Self::A_WINS] += 1.0;
                x[Self::A_WON_PLIES] += plies;
            }
            Some(false) => {
                x[Self::B_WINS] += 1.0;
                x[Self::B_WON_PLIES] += plies;
            }
            None => {}
        }
    }

    /// Adds another set's sums.
    pub fn add(&mut self, other: &Sums) {
        for (x, y) in self.0.iter_mut().zip(other.0) {
            *x += y;
        }
    }
}

/// The metrics' fold of one match: each cluster of pairs' [`Sums`] (see the module docs),
/// taken game by game in any order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MetricFold {
    clusters: Vec<Cluster>,
    index: HashMap<(usize, u64), usize>,
    /// Every game, summed in the order the games came.
    total: Sums,
}

/// A cluster's sums: its first game alone and the rest, so that a cluster of one pair adds
/// into a resample game by game, in the order the pair bootstrap of single games did (the
/// same floating-point sums, to the last bit).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Cluster {
    first: Sums,
    rest: Sums,
    games: u64,
}

impl MetricFold {
    /// Adds one game's facts.
    pub fn add(&mut self, g: &GameFacts) {
        let key = (g.pair.0, g.pair.1 % BOOTSTRAP_CLUSTERS);
        let next = self.clusters.len();
        let i = *self.index.entry(key).or_insert(next);
        if i == next {
            self.clusters.push(Cluster::default());
        }
        let c = &mut self.clusters[i];
        if c.games == 0 {
            c.first.add_game(g);
        } else {
            c.rest.add_game(g);
        }
        c.games += 1;
        self.total.add_game(g);
    }

    /// Whether no game was added.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.clusters.is_empty()
    }

    /// Every defined metric with its bootstrap interval over the clusters.
    #[must_use]
    pub fn estimates(&self) -> Vec<Estimate> {
        let all = self.total;
        let mut rng = seeded_rng(0x6d65_7472_6963, 0);
        let mut samples: Vec<Vec<f64>> =
            vec![Vec::with_capacity(BOOTSTRAP_SAMPLES); Metric::ALL.len()];
        let n = self.clusters.len();
        if n > 0 {
            for _ in 0..BOOTSTRAP_SAMPLES {
                let mut resample = Sums::default();
                for _ in 0..n {
                    let c = &self.clusters[rng.random_range(0..n)];
                    resample.add(&c.first);
                    if c.games > 1 {
                        resample.add(&c.rest);
                    }
                }
                for (m, out) in Metric::ALL.iter().zip(samples.iter_mut()) {
                    if let Some(v) = m.of(&resample) {
                        out.push(v);
                    }
                }
            }
        }
        Metric::ALL
            .iter()
            .zip(samples.iter_mut())
            .filter_map(|(&metric, sample)| {
                let value = metric.of(&all)?;
                sample.sort_by(f64::total_cmp);
                let (low, high) = if sample.is_empty() {
                    (value, value)
                } else {
                    (quantile(sample, 0.025), quantile(sample, 0.975))
                };
                Some(Estimate {
                    metric,
                    value,
                    low: low.min(value),
                    high: high.max(value),
                })
            })
            .collect()
    }
}

/// A metric's value and its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The metric.
    pub metric: Metric,
    /// Its value on the games.
    pub value: f64,
    /// The 2.5% bootstrap quantile.
    pub low: f64,
    /// The 97.5% bootstrap quantile.
    pub high: f64,
}

/// Every defined metric of `games` (one match) with its bootstrap interval over pairs.
#[must_use]
pub fn estimates(games: &[GameFacts]) -> Vec<Estimate> {
    let mut fold = MetricFold::default();
    for g in games {
        fold.add(g);
    }
    fold.estimates()
}

/// The `q` quantile of sorted values, by linear interpolation between order statistics.
#[must_use]
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let at = q * (sorted.len() - 1) as f64;
    let (i, frac) = (at.floor() as usize, at.fract());
    match sorted.get(i + 1) {
        Some(next) => sorted[i] + frac * (next - sorted[i]),
        None => sorted[i],
    }
}

/// The metrics of each pairing as a Markdown section: one table a pairing.
#[must_use]
pub fn markdown(plan: &RunPlan, metrics: &[(usize, Vec<Estimate>)]) -> String {
    let mut out = String::from(
        "\n## Game-design metrics\n\nLudii's names where the concept is the same; 95% intervals by a bootstrap over colour-swapped pairs. Formulas: `arena/src/figures/metrics.rs`.\n",
    );
    for (p, estimates) in metrics {
        let (a, b) = plan.pairings[*p];
        out.push_str(&format!(
            "\n### {} vs {}\n\n| metric | value | 95% interval |\n|---|---|---|\n",
            plan.agents[a].label, plan.agents[b].label
        ));
        for e in estimates {
            out.push_str(&format!(
                "| {} | {} | [{}, {}] |\n",
                e.metric.name(),
                number(e.value),
                number(e.low),
                number(e.high)
            ));
        }
    }
    out
}

/// A metric's value in tables: three decimals below 10, one above.
#[must_use]
pub fn number(x: f64) -> String {
    if x.abs() < 10.0 {
        format!("{x:.3}")
    } else {
        format!("{x:.1}")
    }
}
