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

use rand::RngExt;
use rayon::prelude::*;
use ringside_engine::registry::{GameVisitor, with_game};
use ringside_engine::{Features, Game, MAX_FEATURES, Player, seeded_rng};

use crate::error::{Error, Result};
use crate::plan::RunPlan;
use crate::row::{GameRow, Reason, Winner};
use crate::validate::pair_start;

/// Resamples of the bootstrap.
pub const BOOTSTRAP_SAMPLES: usize = 2000;

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

/// Replays every row (in parallel) and gathers its facts, in the rows' order.
pub fn game_facts(plan: &RunPlan, rows: &[GameRow]) -> Result<Vec<GameFacts>> {
    struct Visit<'a> {
        rows: &'a [GameRow],
    }
    impl GameVisitor for Visit<'_> {
        type Output = Result<Vec<GameFacts>>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            self.rows
                .par_iter()
                .map(|row| {
                    facts_of(&start, row).map_err(|e| {
                        Error::corrupt(format!("game {} does not replay: {e}", row.id))
                    })
                })
                .collect()
        }
    }
    with_game(&plan.game, Visit { rows })?
}

/// The evaluation of `state` for `first` minus that for the other colour, by the game's
/// default feature weights.
fn evaluation<G: Features>(state: &G, first: Player, values: &mut [f64; MAX_FEATURES]) -> f64 {
    let set = state.feature_set();
    let mut diff = 0.0;
    state.features(first, values);
    for (f, v) in set.iter().zip(values.iter()) {
        diff += f.default_weight * v;
    }
    state.features(first.other(), values);
    for (f, v) in set.iter().zip(values.iter()) {
        diff -= f.default_weight * v;
    }
    diff
}

fn facts_of<G: Game + Features>(
    start: &G,
    row: &GameRow,
) -> std::result::Result<GameFacts, String> {
    let (mut state, _, first) = pair_start(start, row.seed);
    let mut legal = Vec::new();
    let mut values = [0.0; MAX_FEATURES];
    let (mut turns, mut last_mover) = (0u32, None);
    let (mut legal_sum, mut choices, mut positions) = (0u64, 0u64, 0u64);
    let mut leads: Vec<i8> = Vec::with_capacity(row.plies as usize);
    for text in row.moves.split_whitespace() {
        let mover = state.to_move();
        if mover != last_mover {
            turns += 1;
            last_mover = mover;
        }
        legal.clear();
        state.legal_moves(&mut legal);
        legal_sum += legal.len() as u64;
        choices += u64::from(legal.len() > 1);
        positions += 1;
        let diff = evaluation(&state, first, &mut values);
        leads.push(if diff > 0.0 {
            1
        } else if diff < 0.0 {
            -1
        } else {
            0
        });
        let mv = state.parse_move(text).map_err(|e| e.to_string())?;
        state.try_play(mv).map_err(|e| e.to_string())?;
    }
    let per_position = |x: u64| {
        if positions == 0 {
            0.0
        } else {
            x as f64 / positions as f64
        }
    };
    let changes = leads.windows(2).filter(|w| w[0] != w[1]).count() as u64;
    let winner_sign = match row.winner {
        Winner::First => Some(1),
        Winner::Second => Some(-1),
        Winner::Draw => None,
    };
    let drama = winner_sign.map(|s| {
        let behind = leads.iter().filter(|&&l| l == -s).count() as u64;
        per_position(behind)
    });
    let a_won = row.winner_agent().map(|_| row.pairing_first_points() > 0.5);
    Ok(GameFacts {
        pair: (row.slot.pairing, row.slot.pair),
        winner: row.winner,
        reason: row.reason,
        a_won,
        plies: row.plies,
        turns,
        branching: per_position(legal_sum),
        decisions: per_position(choices),
        lead_changes: per_position(changes),
        drama,
    })
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
        let share = |keep: &dyn Fn(&GameFacts) -> bool| {
            mean(games.iter().map(|g| f64::from(u8::from(keep(g)))))
        };
        let avg = |of: &dyn Fn(&GameFacts) -> f64| mean(games.iter().map(|g| of(g)));
        match self {
            Metric::AdvantageP1 => share(&|g| g.winner == Winner::First),
            Metric::FirstScore => avg(&GameFacts::first_points),
            Metric::Balance => {
                let first = share(&|g| g.winner == Winner::First)?;
                let second = share(&|g| g.winner == Winner::Second)?;
                Some(1.0 - (first - second).abs())
            }
            Metric::Completion => share(&|g| g.winner != Winner::Draw),
            Metric::Drawishness => {
                share(&|g| g.winner == Winner::Draw && g.reason != Reason::PlyCap)
            }
            Metric::Timeouts => share(&|g| g.reason == Reason::PlyCap),
            Metric::DurationMoves => avg(&|g| f64::from(g.plies)),
            Metric::DurationTurns => avg(&|g| f64::from(g.turns)),
            Metric::BranchingFactor => avg(&|g| g.branching),
            Metric::DecisionMoves => avg(&|g| g.decisions),
            Metric::LeadChange => avg(&|g| g.lead_changes),
            Metric::Drama => mean(games.iter().filter_map(|g| g.drama)),
            Metric::ScoreA => avg(&|g| match g.a_won {
                Some(true) => 1.0,
                Some(false) => 0.0,
                None => 0.5,
            }),
            Metric::WonLengthA => mean(
                games
                    .iter()
                    .filter(|g| g.a_won == Some(true))
                    .map(|g| f64::from(g.plies)),
            ),
            Metric::WonLengthB => mean(
                games
                    .iter()
                    .filter(|g| g.a_won == Some(false))
                    .map(|g| f64::from(g.plies)),
            ),
        }
    }
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0u64), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
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
    let mut pairs: Vec<Vec<&GameFacts>> = Vec::new();
    let mut keys: Vec<(usize, u64)> = Vec::new();
    for g in games {
        match keys.iter().position(|k| *k == g.pair) {
            Some(i) => pairs[i].push(g),
            None => {
                keys.push(g.pair);
                pairs.push(vec![g]);
            }
        }
    }
    let all: Vec<&GameFacts> = games.iter().collect();
    let mut rng = seeded_rng(0x6d65_7472_6963, 0);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(BOOTSTRAP_SAMPLES); Metric::ALL.len()];
    let mut resample: Vec<&GameFacts> = Vec::with_capacity(games.len() + 2);
    if !pairs.is_empty() {
        for _ in 0..BOOTSTRAP_SAMPLES {
            resample.clear();
            for _ in 0..pairs.len() {
                resample.extend(&pairs[rng.random_range(0..pairs.len())]);
            }
            for (m, out) in Metric::ALL.iter().zip(samples.iter_mut()) {
                if let Some(v) = m.value(&resample) {
                    out.push(v);
                }
            }
        }
    }
    Metric::ALL
        .iter()
        .zip(samples.iter_mut())
        .filter_map(|(&metric, sample)| {
            let value = metric.value(&all)?;
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

/// The metrics of every pairing of a run: `(pairing, estimates)` for pairings with games.
pub fn by_pairing(plan: &RunPlan, rows: &[GameRow]) -> Result<Vec<(usize, Vec<Estimate>)>> {
    let facts = game_facts(plan, rows)?;
    Ok((0..plan.pairings.len())
        .filter_map(|p| {
            let games: Vec<GameFacts> = facts.iter().filter(|f| f.pair.0 == p).cloned().collect();
            (!games.is_empty()).then(|| (p, estimates(&games)))
        })
        .collect())
}

/// The metrics of each pairing as a Markdown section: one table a pairing.
#[must_use]
pub fn markdown(plan: &RunPlan, metrics: &[(usize, Vec<Estimate>)]) -> String {
    let mut out = String::from(
        "\n## Game-design metrics\n\nLudii's names where the concept is the same; 95% intervals by a bootstrap over colour-swapped pairs. Formulas: `arena/src/metrics.rs`.\n",
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
