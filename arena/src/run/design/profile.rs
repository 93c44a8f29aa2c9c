//! The report's profile of play on its own board: length, draws and decisiveness under each
//! player of the first-player part (each against itself, its games on the report's board), with Ludii's metrics ([`crate::figures::metrics`]) and its state-evaluation
//! metrics Clarity and Decisiveness ([`crate::figures::clarity`]), each with a 95% interval.

use std::fmt::Write as _;
use std::path::Path;

use ringside_engine::registry::GameVisitor;
use ringside_engine::{Features, Game};

use crate::error::Result;
use crate::figures::clarity::{
    ClarityFacts, fit_scale, game_clarity, game_evaluations, pair_mean_interval,
};
use crate::figures::metrics::{Estimate, Metric, MetricFold, MetricsSink, number};
use crate::figures::study::write_lengths_svg;
use crate::figures::summary::{Lengths, PairingSummary};
use crate::plan::RunPlan;
use crate::records::games_csv::read_games_with;

/// Ludii's metrics the profile shows, in its order.
const METRICS: [Metric; 8] = [
    Metric::DurationMoves,
    Metric::Completion,
    Metric::Drawishness,
    Metric::Timeouts,
    Metric::BranchingFactor,
    Metric::DecisionMoves,
    Metric::LeadChange,
    Metric::Drama,
];

/// What the profile measured of one pairing (a player against itself).
#[derive(Debug, Clone, Default)]
pub struct PlayerProfile {
    /// Ludii's metrics, folded from each game's replay.
    pub metrics: MetricFold,
    /// Clarity and Decisiveness, one entry a game.
    pub clarity: Vec<ClarityFacts>,
}

/// Reads the games files of `runs` (every row checked and replayed), fits the scale `K` of
/// the values over all their positions ([`fit_scale`]), and measures each pairing's games:
/// one list of profiles a run. `K` is `None` when the evaluation is zero throughout (the
/// values are then 0 but at the end).
pub fn measure(runs: &[(&RunPlan, &Path)]) -> Result<(Option<f64>, Vec<Vec<PlayerProfile>>)> {
    struct Points<'a> {
        plan: &'a RunPlan,
        path: &'a Path,
        out: &'a mut Vec<(f32, f32)>,
    }
    impl GameVisitor for Points<'_> {
        type Output = Result<()>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            read_games_with(self.path, self.plan, &(), &mut |chunk| {
                for read in chunk {
                    game_evaluations(&start, &read.row, self.out)?;
                }
                Ok(())
            })?;
            Ok(())
        }
    }
    struct Visit<'a> {
        plan: &'a RunPlan,
        path: &'a Path,
        k: f64,
    }
    impl GameVisitor for Visit<'_> {
        type Output = Result<Vec<PlayerProfile>>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            let pairings = self.plan.pairings.len();
            let mut profiles = vec![PlayerProfile::default(); pairings];
            read_games_with(self.path, self.plan, &MetricsSink, &mut |chunk| {
                for read in chunk {
                    let profile = &mut profiles[read.row.slot.pairing];
                    if let Some(facts) = &read.gathered {
                        profile.metrics.add(facts);
                    }
                    profile
                        .clarity
                        .push(game_clarity(&start, &read.row, self.k)?);
                }
                Ok(())
            })?;
            Ok(profiles)
        }
    }
    let mut points = Vec::new();
    for (plan, path) in runs {
        plan.game.visit(Points {
            plan,
            path,
            out: &mut points,
        })?;
    }
    let k = fit_scale(&points);
    let mut out = Vec::new();
    for (plan, path) in runs {
        out.push(plan.game.visit(Visit {
            plan,
            path,
            k: k.unwrap_or(0.0),
        })?);
    }
    Ok((k, out))
}

/// One column of the profile: a player against itself on the report's board.
#[derive(Debug, Clone)]
pub struct Column {
    /// The player's agent spec as typed.
    pub player: String,
    /// Its place on the ladder, weakest first.
    pub rung: Option<usize>,
    /// The summary of its games.
    pub summary: PairingSummary,
    /// What the profile measured of them.
    pub profile: PlayerProfile,
}

/// A cell of the table: a value and its interval.
fn cell(value: Option<(f64, f64, f64)>) -> String {
    match value {
        None => "–".to_string(),
        Some((v, lo, hi)) if (hi - lo).abs() < 1e-12 => number(v),
        Some((v, lo, hi)) => format!("{} [{}, {}]", number(v), number(lo), number(hi)),
    }
}

/// The profile's section of the report, and its figure `lengths.svg` in `dir`: one column a
/// player, weakest first.
pub fn markdown(dir: &Path, board: &str, k: Option<f64>, columns: &[Column]) -> Result<String> {
    let scale = match k {
        Some(k) => format!("Values are on the win-probability scale `V = 2σ(K·E) − 1`, with `K = {k:.4}` fitted to these games' results (least squares over their positions), so they compare across games."),
        None => "The evaluation is zero in every position of these games: every value is 0 before the end.".to_string(),
    };
    let mut md = format!(
        "## Length, draws and decisiveness\n\nThe games of `{board}` in the first-player part: each player against itself. Ludii's metrics have 95% bootstrap intervals over colour-swapped pairs; Clarity and Decisiveness have 95% normal intervals over the pairs' means (Decisiveness over decided games only). {scale}\n\n| measure |"
    );
    for c in columns {
        let _ = write!(md, " `{}` |", c.player);
    }
    md.push_str("\n|---|");
    md.push_str(&"---|".repeat(columns.len()));
    md.push('\n');
    let row = |md: &mut String, name: &str, f: &dyn Fn(&Column) -> String| {
        let _ = write!(md, "| {name} |");
        for c in columns {
            let _ = write!(md, " {} |", f(c));
        }
        md.push('\n');
    };
    row(&mut md, "games (distinct)", &|c| {
        format!(
            "{} ({})",
            c.summary.lengths.games(),
            c.summary.distinct.text()
        )
    });
    row(&mut md, "draws", &|c| {
        let all = c.summary.first_player;
        format!("{} of {}", all.d, all.n())
    });
    row(&mut md, "plies: median, 90th percentile, longest", &|c| {
        let l = &c.summary.lengths;
        format!(
            "{}, {}, {}",
            l.percentile(0.5),
            l.percentile(0.9),
            l.longest()
        )
    });
    for metric in METRICS {
        row(&mut md, metric.name(), &|c| {
            let estimates: Vec<Estimate> = c.profile.metrics.estimates();
            cell(
                estimates
                    .iter()
                    .find(|e| e.metric == metric)
                    .map(|e| (e.value, e.low, e.high)),
            )
        });
    }
    type Pick = fn(&ClarityFacts) -> Option<f64>;
    let clarity: [(&str, Pick); 4] = [
        ("ClarityVariance", |c| Some(c.clarity_variance)),
        ("ClarityNarrowness", |c| Some(c.clarity_narrowness)),
        ("DecisivenessThreshold", |c| c.decisiveness_threshold),
        ("DecisivenessMoves", |c| c.decisiveness_moves),
    ];
    for (name, pick) in clarity {
        row(&mut md, name, &|c| {
            let values: Vec<((usize, u64), f64)> = c
                .profile
                .clarity
                .iter()
                .filter_map(|f| pick(f).map(|v| (f.pair, v)))
                .collect();
            cell(pair_mean_interval(&values))
        });
    }
    md.push_str("\nFormulas: DurationMoves is the mean plies; Completion the share of games with a winner; Drawishness the share drawn by the rules; Timeouts the share stopped by the ply cap; BranchingFactor the mean legal moves where a move was played; DecisionMoves the share of those positions with a choice; LeadChange the changes of the evaluation's leader a ply; Drama the share of a decided game's positions where the winner was behind (all after Ludii's `Evaluation/src/metrics`; details in `arena/src/figures/metrics.rs`). With a position's value for a player `V = 2σ(K·E) − 1`, `E` the default evaluation's lead (±1 when won or lost): ClarityVariance is the mean over positions of the variance of the legal moves' values for the mover; ClarityNarrowness the mean share of moves whose value exceeds `mean + 0.75 (max − mean)`; DecisivenessThreshold the loser's highest value in ten positions spread evenly over the game (Ludii's highest over every position grows with the game's length); DecisivenessMoves the share of plies played before the winner's value first exceeds it (Ludii's `stateEvaluation/clarity` and `stateEvaluation/decisiveness`; details in `arena/src/figures/clarity.rs`).\n");

    let named: Vec<(String, &Lengths)> = columns
        .iter()
        .map(|c| (c.player.clone(), &c.summary.lengths))
        .collect();
    write_lengths_svg(
        &dir.join("lengths.svg"),
        &format!("{board}: game lengths in self-play"),
        &named,
    )?;
    md.push_str("\n![game lengths](lengths.svg)\n\n");
    Ok(md)
}
