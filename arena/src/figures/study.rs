//! A sweep's study: the game-design metrics of every cell and match ([`crate::figures::metrics`]),
//! written beside the cells as `metrics.csv`, one SVG figure a metric (the metric against
//! the first swept key, one line a match and value of the other keys, with 95% interval
//! bars), one game-length histogram a match, and a `summary.md` that links them all.
//!
//! Files, in the experiment's results folder:
//! - `cells/<cell>/games.csv` (and its sidecar, `summary.md`, `summary.csv`): each cell's run;
//! - `metrics.csv`: `cell, <each key>, match, games, metric, value, low, high`;
//! - `metric-<Name>.svg`, `lengths-match<i>.svg`, `summary.md`.

use std::fmt::Write as _;
use std::path::Path;

use crate::error::Result;
use crate::figures::family::adjusted;
use crate::figures::metrics::{Estimate, Metric, number};
use crate::figures::plot::{
    Bars, Dot, Labels, dot_plot_svg, histogram_of_counts, histogram_panels_svg, interval_plot_svg,
};
use crate::figures::stats::Penta;
use crate::figures::summary::{Distinct, Lengths, Tally, ratings};
use crate::plan::RunPlan;
use crate::plan::sweep::Sweep;
use crate::records::durable::write_atomically;

/// The metrics of one cell and match.
#[derive(Debug, Clone, PartialEq)]
pub struct CellMetrics {
    /// Index into the sweep's cells.
    pub cell: usize,
    /// The pairing (the match).
    pub pairing: usize,
    /// Games of the match in the cell.
    pub games: usize,
    /// The metrics.
    pub estimates: Vec<Estimate>,
    /// The games' lengths in plies.
    pub lengths: Lengths,
    /// Distinct games among them (counted up to [`Distinct::CAP`]).
    pub distinct: u64,
    /// A's points in the complete colour-swapped pairs: the test of A against B.
    pub penta: Penta,
    /// Whether A and B are the same agent (a self-play match tests nothing of A against B).
    pub self_play: bool,
}

impl CellMetrics {
    /// Whether the games repeat ([`Distinct::repeats`]), so that the intervals, which count
    /// every game as independent, overstate what is known.
    #[must_use]
    pub fn repeats(&self) -> bool {
        Distinct::repeat(self.distinct, self.games as u64)
    }
}

impl CellMetrics {
    /// The estimate of `metric`, if defined.
    #[must_use]
    pub fn get(&self, metric: Metric) -> Option<&Estimate> {
        self.estimates.iter().find(|e| e.metric == metric)
    }
}

/// The metrics of each match of cell `cell`, from its tally.
#[must_use]
pub fn cell_metrics(cell: usize, tally: &Tally) -> Vec<CellMetrics> {
    tally
        .pairings()
        .into_iter()
        .filter(|p| !p.metrics.is_empty())
        .map(|p| CellMetrics {
            cell,
            pairing: p.pairing,
            games: p.lengths.games() as usize,
            estimates: p.metrics.estimates(),
            lengths: p.lengths.clone(),
            distinct: p.distinct.count(),
            penta: p.penta,
            self_play: p.a == p.b,
        })
        .collect()
}

/// The test of A against B in each cell and match: A's Elo from the pairs with its 95%
/// interval, the two-sided p-value of "A and B are equal" ([`Penta::p_value`]), and that
/// p-value adjusted by Holm–Bonferroni over every test of the study ([`crate::figures::stats::holm`]), so that
/// calling each test with adjusted p ≤ 0.05 significant keeps the chance of any false call
/// in the whole study at 5%.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Test {
    /// Index into the measured cells and matches.
    pub index: usize,
    /// A's Elo and its 95% interval.
    pub elo: (f64, f64, f64),
    /// The p-value of the one test.
    pub p: f64,
    /// The p-value adjusted for every test of the study.
    pub holm: f64,
}

/// The tests of a study, in the order of `measured`, self-play matches left out.
#[must_use]
pub fn tests(measured: &[CellMetrics]) -> Vec<Test> {
    let tested: Vec<usize> = (0..measured.len())
        .filter(|&i| !measured[i].self_play)
        .collect();
    let pentas: Vec<Penta> = tested.iter().map(|&i| measured[i].penta).collect();
    tested
        .iter()
        .zip(adjusted(&pentas))
        .map(|(&i, t)| Test {
            index: i,
            elo: t.elo,
            p: t.p,
            holm: t.holm,
        })
        .collect()
}

/// `tests.csv`: one row a cell and match, A's test against B.
#[must_use]
pub fn tests_csv(sweep: &Sweep, measured: &[CellMetrics]) -> String {
    let mut out = String::from("cell");
    for axis in &sweep.axes {
        let _ = write!(out, ",{}", axis.key);
    }
    out.push_str(",match,pairs,elo,elo_lo,elo_hi,p,holm_p\n");
    for t in tests(measured) {
        let m = &measured[t.index];
        let cell = &sweep.cells[m.cell];
        out.push_str(&csv_field(&cell.label));
        for value in &cell.values {
            let _ = write!(out, ",{}", csv_field(value));
        }
        let _ = writeln!(
            out,
            ",{},{},{:.3},{:.3},{:.3},{:.6},{:.6}",
            csv_field(&sweep.match_names[m.pairing]),
            m.penta.pairs(),
            t.elo.0,
            t.elo.1,
            t.elo.2,
            t.p,
            t.holm
        );
    }
    out
}

/// `s` as a CSV field, quoted when it holds a comma or a quote.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `metrics.csv`: one row a cell, match and metric.
#[must_use]
pub fn metrics_csv(sweep: &Sweep, measured: &[CellMetrics]) -> String {
    let mut out = String::from("cell");
    for axis in &sweep.axes {
        out.push(',');
        out.push_str(&axis.key);
    }
    out.push_str(",match,games,distinct_games,metric,value,low,high\n");
    for m in measured {
        let cell = &sweep.cells[m.cell];
        for e in &m.estimates {
            out.push_str(&csv_field(&cell.label));
            for v in &cell.values {
                out.push(',');
                out.push_str(&csv_field(v));
            }
            let _ = writeln!(
                out,
                ",{},{},{},{},{},{},{}",
                csv_field(&sweep.match_names[m.pairing]),
                m.games,
                m.distinct,
                e.metric.name(),
                e.value,
                e.low,
                e.high
            );
        }
    }
    out
}

/// The lines of a metric's figure: one a match and combination of the keys after the first,
/// each point `(x, value, low, high)` along the first key (its value if numeric, else its
/// index).
#[must_use]
pub fn metric_series(sweep: &Sweep, measured: &[CellMetrics], metric: Metric) -> Vec<Bars> {
    let first = &sweep.axes[0];
    let numeric = first.is_numeric();
    let mut series: Vec<(String, Bars)> = Vec::new();
    for m in measured {
        let Some(e) = m.get(metric) else { continue };
        let cell = &sweep.cells[m.cell];
        let x = if numeric {
            cell.values[0].parse::<f64>().unwrap_or(0.0)
        } else {
            first
                .values
                .iter()
                .position(|v| *v == cell.values[0])
                .unwrap_or(0) as f64
        };
        let rest: Vec<String> = sweep.axes[1..]
            .iter()
            .zip(&cell.values[1..])
            .map(|(a, v)| format!("{}={v}", a.key))
            .collect();
        let mut name = sweep.match_names[m.pairing].clone();
        if !rest.is_empty() {
            name.push_str(&format!(" ({})", rest.join(", ")));
        }
        let point = (x, e.value, e.low, e.high);
        let bars = match series.iter().position(|(n, _)| *n == name) {
            Some(i) => &mut series[i].1,
            None => {
                series.push((
                    name.clone(),
                    Bars {
                        name,
                        ..Bars::default()
                    },
                ));
                &mut series.last_mut().expect("just pushed").1
            }
        };
        bars.points.push(point);
        if m.repeats() {
            bars.open_at.push(x);
        }
    }
    series
        .into_iter()
        .map(|(_, mut b)| {
            b.points.sort_by(|p, q| p.0.total_cmp(&q.0));
            b
        })
        .collect()
}

/// Writes the study of a sweep whose cells are in `dir/cells/` from their metrics, measured
/// by the run that played or read the cells ([`cell_metrics`]): `metrics.csv`, the figures
/// and `summary.md` into `dir`. Returns the summary's text.
pub fn write(dir: &Path, name: &str, sweep: &Sweep, measured: &[CellMetrics]) -> Result<String> {
    write_atomically(
        &dir.join("metrics.csv"),
        metrics_csv(sweep, measured).as_bytes(),
    )?;
    write_atomically(
        &dir.join("tests.csv"),
        tests_csv(sweep, measured).as_bytes(),
    )?;
    let first = &sweep.axes[0];
    let x_names = (!first.is_numeric()).then(|| first.values.clone());
    let mut figures = Vec::new();
    for metric in Metric::ALL {
        let series = metric_series(sweep, measured, metric);
        if series.is_empty() {
            continue;
        }
        let title = format!("{name}: {} against {}", metric.name(), first.key);
        let labels = Labels {
            title: &title,
            x: &first.key,
            y: metric.unit(),
        };
        let file = format!("metric-{}.svg", metric.name());
        let svg = interval_plot_svg(labels, &series, x_names.as_deref(), metric.bounds())?;
        write_atomically(&dir.join(&file), svg.as_bytes())?;
        figures.push((metric.name().to_string(), file));
    }
    for (p, match_name) in sweep.match_names.iter().enumerate() {
        let of_match: Vec<&CellMetrics> = measured.iter().filter(|m| m.pairing == p).collect();
        if of_match.is_empty() {
            continue;
        }
        let named: Vec<(String, &Lengths)> = of_match
            .iter()
            .map(|m| (sweep.cells[m.cell].label.clone(), &m.lengths))
            .collect();
        let file = format!("lengths-match{p}.svg");
        write_lengths_svg(
            &dir.join(&file),
            &format!("{name}: game lengths, {match_name}"),
            &named,
        )?;
        figures.push((format!("game lengths, {match_name}"), file));
    }
    let md = summary_markdown(name, sweep, measured, &figures);
    write_atomically(&dir.join("summary.md"), md.as_bytes())?;
    Ok(md)
}

/// The summary's section on the tests of A against B.
fn tests_markdown(sweep: &Sweep, measured: &[CellMetrics]) -> String {
    let tests = tests(measured);
    if tests.is_empty() {
        return "\n## A against B\n\nNo tests: every match is a self-play.\n".to_string();
    }
    let significant = tests.iter().filter(|t| t.holm <= 0.05).count();
    let mut md = format!(
        "\n## A against B: {} tests\n\nA's Elo from the colour-swapped pairs (95% interval); *p*: the two-sided p-value of \"A and B are equal\" (normal test on the pairs); *Holm p*: adjusted by Holm–Bonferroni over all {} tests, so that calling every test with Holm p ≤ 0.05 significant keeps the chance of one or more false calls in this study at 5%. (`tests.csv`.) {significant} of {} tests are significant so. One run is not a verdict: a claim is supported only when a replication on a fresh seed, fixed before it is played, agrees.\n\n| cell | match | pairs | Elo of A | p | Holm p |\n|---|---|---|---|---|---|\n",
        tests.len(),
        tests.len(),
        tests.len()
    );
    for t in &tests {
        let m = &measured[t.index];
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:+.1} [{:+.1}, {:+.1}] | {} | {}{} |",
            sweep.cells[m.cell].label,
            m.pairing,
            m.penta.pairs(),
            t.elo.0,
            t.elo.1,
            t.elo.2,
            p_text(t.p),
            p_text(t.holm),
            if t.holm <= 0.05 {
                " **significant**"
            } else {
                ""
            }
        );
    }
    md
}

/// A p-value for a table: three significant digits, or "< 0.0001".
fn p_text(p: f64) -> String {
    if p < 1e-4 {
        "< 0.0001".to_string()
    } else {
        format!("{p:.4}")
    }
}

/// The metrics the summary's table shows; `metrics.csv` has them all.
const TABLE: [Metric; 8] = [
    Metric::FirstScore,
    Metric::Completion,
    Metric::Timeouts,
    Metric::DurationMoves,
    Metric::BranchingFactor,
    Metric::ScoreA,
    Metric::WonLengthA,
    Metric::WonLengthB,
];

fn summary_markdown(
    name: &str,
    sweep: &Sweep,
    measured: &[CellMetrics],
    figures: &[(String, String)],
) -> String {
    let plan = &sweep.cells[0].plan;
    let mut md = format!("# Study {name}\n\n");
    let _ = writeln!(
        md,
        "{} games a match in each cell, in colour-swapped pairs; ply cap {}; {} random opening plies.\n",
        plan.games_per_pairing,
        plan.ply_cap.map_or("none".to_string(), |c| c.to_string()),
        plan.opening_plies
    );
    md.push_str("Grid (the last key varies fastest):\n\n");
    for axis in &sweep.axes {
        let _ = writeln!(md, "- `{}` = {}", axis.key, axis.values.join(", "));
    }
    md.push_str("\nMatches (the first agent is A):\n\n");
    for (i, m) in sweep.match_names.iter().enumerate() {
        let _ = writeln!(md, "{i}. `{m}`");
    }
    md.push_str("\n## Metrics\n\nValue and 95% interval (bootstrap over colour-swapped pairs; formulas in `arena/src/figures/metrics.rs`). Every metric of every cell: `metrics.csv`. *Distinct* counts the different games of the cell (start, seating and moves).\n\n");
    let repeating = measured.iter().filter(|m| m.repeats()).count();
    if repeating > 0 {
        let _ = writeln!(
            md,
            "**{repeating} of {} cells repeat their games** (marked *repeats*: at most half as many distinct games as games; open markers in the figures), as deterministic agents without random openings do. Their intervals count every game as independent and so read as certainty; such a cell describes its few distinct games, not a sample.\n",
            measured.len()
        );
    }
    md.push_str("| cell | match | distinct |");
    for m in TABLE {
        let _ = write!(md, " {} |", m.name());
    }
    md.push_str("\n|---|---|---|");
    md.push_str(&"---|".repeat(TABLE.len()));
    md.push('\n');
    for m in measured {
        let cell = &sweep.cells[m.cell];
        let _ = write!(
            md,
            "| [{}](cells/{}/summary.md) | {} | {} of {}{} |",
            cell.label,
            cell.folder,
            m.pairing,
            m.distinct,
            m.games,
            if m.repeats() { " *repeats*" } else { "" }
        );
        for metric in TABLE {
            match m.get(metric) {
                Some(e) => {
                    let _ = write!(
                        md,
                        " {} [{}, {}] |",
                        number(e.value),
                        number(e.low),
                        number(e.high)
                    );
                }
                None => md.push_str(" – |"),
            }
        }
        md.push('\n');
    }
    md.push_str(&tests_markdown(sweep, measured));
    md.push_str("\n## Figures\n");
    for (title, file) in figures {
        let _ = write!(md, "\n### {title}\n\n![{title}]({file})\n");
    }
    md
}

/// Writes `path`: the game-length histograms of the `named` lengths as small multiples on one
/// x axis, from 0 to the longest game, each the share of games in 20 bins.
pub fn write_lengths_svg(path: &Path, title: &str, named: &[(String, &Lengths)]) -> Result<()> {
    let longest = f64::from(named.iter().map(|(_, l)| l.longest()).max().unwrap_or(0));
    let series: Vec<_> = named
        .iter()
        .map(|(name, lengths)| {
            let counts = lengths.counts().map(|(k, c)| (f64::from(k), c));
            histogram_of_counts(name, counts, 0.0, longest + 1.0, 20)
        })
        .collect();
    let labels = Labels {
        title,
        x: "game length (plies)",
        y: "share of games",
    };
    write_atomically(path, histogram_panels_svg(labels, &series)?.as_bytes())
}

/// The figures of one run (an experiment without a grid, or `arena summary --out-dir`):
/// `lengths.svg`, the game-length histogram of each pairing, and for three or more agents
/// `ratings.svg`, the rating table of the largest connected group as a dot plot with 95%
/// intervals. Returns the Markdown that links them.
pub fn run_figures(plan: &RunPlan, tally: &Tally, dir: &Path) -> Result<String> {
    let mut md = String::from("\n## Figures\n");
    let pairings = tally.pairings();
    if pairings.is_empty() {
        return Ok(String::new());
    }
    let named: Vec<(String, &Lengths)> = pairings
        .iter()
        .map(|p| {
            let name = format!("{} vs {}", plan.agents[p.a].label, plan.agents[p.b].label);
            (name, &p.lengths)
        })
        .collect();
    write_lengths_svg(
        &dir.join("lengths.svg"),
        &format!("Game lengths, {}", plan.game),
        &named,
    )?;
    md.push_str("\n![Game lengths](lengths.svg)\n");
    if plan.agents.len() >= 3 {
        let groups = ratings(plan.agents.len(), pairings.iter().copied());
        if let Some(group) = groups.iter().max_by_key(|g| g.members.len()) {
            let mut dots: Vec<Dot> = group
                .members
                .iter()
                .enumerate()
                .map(|(i, &m)| Dot {
                    name: plan.agents[m].label.clone(),
                    value: group.ratings[i],
                    low: group.ratings[i] - group.half_widths[i],
                    high: group.ratings[i] + group.half_widths[i],
                })
                .collect();
            dots.sort_by(|x, y| y.value.total_cmp(&x.value));
            let title = format!("Ratings, {}", plan.game);
            let labels = Labels {
                title: &title,
                x: "rating (Elo, mean 0)",
                y: "agent",
            };
            write_atomically(
                &dir.join("ratings.svg"),
                dot_plot_svg(labels, &dots)?.as_bytes(),
            )?;
            md.push_str("\n![Ratings](ratings.svg)\n");
        }
    }
    Ok(md)
}
