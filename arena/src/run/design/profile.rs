//! The report's profile of play on its own board: length, draws and decisiveness under each
//! player of the first-player part (each against itself, its games on the report's board), with Ludii's metrics ([`crate::figures::metrics`]) and its state-evaluation
//! metrics Clarity and Decisiveness ([`crate::figures::clarity`]), each with a 95% interval.

use std::fmt::Write as _;
use std::path::Path;

use ringside_engine::registry::GameVisitor;
use ringside_engine::{Features, Game};

use crate::error::{Error, Result};
use crate::figures::clarity::{ClarityFacts, fit_scale, game_clarity, game_evaluations};
use crate::figures::cluster::{Ties, bootstrap_mean, clusters, halves};
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
    /// Ludii's metrics, folded from each game's replay, resampled by cluster of games
    /// ([`crate::figures::cluster`]).
    pub metrics: MetricFold,
    /// Clarity and Decisiveness, one entry a game, with the game's cluster.
    pub clarity: Vec<(usize, ClarityFacts)>,
    /// Clusters of games: the distinct games.
    pub clusters: usize,
}

/// The scale `K` of the values ([`fit_scale`]), fitted on held-out games: the games are split
/// in two halves by cluster ([`crate::figures::cluster::halves`]), so a game, its twin and its
/// repeats sit in one half, and each game is scored with the `K` of the half it is not in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    /// `K` fitted on each half; `None` where a half is empty or its evaluation zero throughout.
    pub halves: [Option<f64>; 2],
    /// `K` fitted on every game: used for all games only when a half has no fit (then no
    /// game is held out, and the report says so).
    pub all: Option<f64>,
}

impl Scale {
    /// Whether every game is scored with a `K` fitted without it.
    #[must_use]
    pub fn held_out(&self) -> bool {
        self.halves.iter().all(Option::is_some)
    }

    /// The `K` a game of half `half` is scored with.
    #[must_use]
    pub fn for_half(&self, half: usize) -> Option<f64> {
        if self.held_out() {
            self.halves[1 - half]
        } else {
            self.all
        }
    }
}

/// Reads the games files of `runs` (every row checked and replayed), groups each pairing's
/// games into clusters ([`clusters`]), fits the scale `K` of the values on held-out halves
/// ([`Scale`]), and measures each pairing's games: one list of profiles a run.
pub fn measure(runs: &[(&RunPlan, &Path)]) -> Result<(Scale, Vec<Vec<PlayerProfile>>)> {
    /// One game as the first pass saw it: its run, id and ties, and its points' range.
    struct Seen {
        run: usize,
        id: u64,
        ties: Ties,
        points: std::ops::Range<usize>,
    }
    struct Points<'a> {
        plan: &'a RunPlan,
        path: &'a Path,
        run: usize,
        out: &'a mut Vec<(f32, f32)>,
        seen: &'a mut Vec<Seen>,
    }
    impl GameVisitor for Points<'_> {
        type Output = Result<()>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            read_games_with(self.path, self.plan, &(), &mut |chunk| {
                for read in chunk {
                    let from = self.out.len();
                    game_evaluations(&start, &read.row, self.out)?;
                    self.seen.push(Seen {
                        run: self.run,
                        id: read.row.id,
                        ties: (read.row.slot.pairing, read.row.moves_key()),
                        points: from..self.out.len(),
                    });
                }
                Ok(())
            })?;
            Ok(())
        }
    }
    struct Visit<'a> {
        plan: &'a RunPlan,
        path: &'a Path,
        /// This run's games as the first pass saw them, in file order, with each game's
        /// cluster and `K`.
        games: &'a [(&'a Seen, usize, f64)],
    }
    impl GameVisitor for Visit<'_> {
        type Output = Result<Vec<PlayerProfile>>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            let pairings = self.plan.pairings.len();
            let mut profiles = vec![PlayerProfile::default(); pairings];
            let mut next = self.games.iter();
            // Folded in id order, not file order: a resumed run's rows sit in another order,
            // and the bootstrap numbers its clusters as they come.
            let mut games = Vec::new();
            read_games_with(self.path, self.plan, &MetricsSink, &mut |chunk| {
                for read in chunk {
                    let &(seen, cluster, k) = next
                        .next()
                        .filter(|(seen, ..)| seen.id == read.row.id)
                        .ok_or_else(|| Error::corrupt("the games file changed while read"))?;
                    let clarity = game_clarity(&start, &read.row, k)?;
                    games.push((
                        seen.id,
                        seen.ties.0,
                        cluster,
                        read.gathered.clone(),
                        clarity,
                    ));
                }
                Ok(())
            })?;
            games.sort_by_key(|g| g.0);
            for (_, pairing, cluster, facts, clarity) in games {
                let profile = &mut profiles[pairing];
                if let Some(mut facts) = facts {
                    // Resampled by distinct game: the fold keys its clusters by this pair.
                    facts.pair = (pairing, cluster as u64);
                    profile.metrics.add(&facts);
                }
                profile.clarity.push((cluster, clarity));
            }
            Ok(profiles)
        }
    }
    let (mut points, mut seen) = (Vec::new(), Vec::new());
    for (run, (plan, path)) in runs.iter().enumerate() {
        plan.game.visit(Points {
            plan,
            path,
            run,
            out: &mut points,
            seen: &mut seen,
        })?;
    }
    // Clusters within each run's pairing, numbered in the order of the games' ids, whatever
    // order the files hold them in.
    let mut order: Vec<usize> = (0..seen.len()).collect();
    order.sort_by_key(|&i| (seen[i].run, seen[i].id));
    let ties: Vec<(usize, Ties)> = order.iter().map(|&i| (seen[i].run, seen[i].ties)).collect();
    let mut cluster = vec![0; seen.len()];
    for (&i, c) in order.iter().zip(clusters(&ties)) {
        cluster[i] = c;
    }
    let half = halves(&cluster);
    let fit_half = |h: usize| {
        let pts: Vec<(f32, f32)> = seen
            .iter()
            .zip(&half)
            .filter(|(_, x)| **x == h)
            .flat_map(|(g, _)| points[g.points.clone()].iter().copied())
            .collect();
        fit_scale(&pts)
    };
    let scale = Scale {
        halves: [fit_half(0), fit_half(1)],
        all: fit_scale(&points),
    };
    let mut out = Vec::new();
    for (run, (plan, path)) in runs.iter().enumerate() {
        let games: Vec<(&Seen, usize, f64)> = seen
            .iter()
            .zip(cluster.iter().zip(&half))
            .filter(|(g, _)| g.run == run)
            .map(|(g, (&c, &h))| (g, c, scale.for_half(h).unwrap_or(0.0)))
            .collect();
        let mut profiles = plan.game.visit(Visit {
            plan,
            path,
            games: &games,
        })?;
        for (pairing, p) in profiles.iter_mut().enumerate() {
            let mut ids: Vec<usize> = games
                .iter()
                .filter(|(g, ..)| g.ties.0 == pairing)
                .map(|(_, c, _)| *c)
                .collect();
            ids.sort_unstable();
            ids.dedup();
            p.clusters = ids.len();
        }
        out.push(profiles);
    }
    Ok((scale, out))
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
pub fn markdown(dir: &Path, board: &str, scale: Scale, columns: &[Column]) -> Result<String> {
    let scale = match (scale.halves, scale.all) {
        ([Some(a), Some(b)], _) => format!("Values are on the win-probability scale `V = 2σ(K·E) − 1`, so they compare across games, with `K` fitted on held-out games (least squares of the results over the positions): the distinct games are split in two halves, `K = {a:.4}` fitted on the first and `K = {b:.4}` on the second, and each game is scored with the `K` of the half it is not in."),
        (_, Some(k)) => format!("Values are on the win-probability scale `V = 2σ(K·E) − 1`, with `K = {k:.4}` fitted to these games' results (least squares over their positions): too few distinct games to hold half of them out, so `K` is fitted on the games it scores."),
        (_, None) => "The evaluation is zero in every position of these games: every value is 0 before the end.".to_string(),
    };
    let mut md = format!(
        "## Length, draws and decisiveness\n\nThe games of `{board}` in the first-player part: each player against itself. Every interval is a 95% percentile bootstrap over distinct games: a game and every game that repeats it move for move are resampled together, so a deterministic player's repeated games count once (there is no random opening here, so the two games of a pair share nothing but a seed; Decisiveness over decided games only). {scale}\n\n| measure |"
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
        format!("{} ({})", c.summary.lengths.games(), c.profile.clusters)
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
            let values: Vec<(usize, f64)> = c
                .profile
                .clarity
                .iter()
                .filter_map(|(cluster, f)| pick(f).map(|v| (*cluster, v)))
                .collect();
            cell(bootstrap_mean(&values))
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
