//! A design report for one game (`arena report`): how it behaves under weak and strong play,
//! in one command, resumable like any run.
//!
//! Three parts, each a run of its own under the report's folder (so a killed report resumes
//! where it stopped, and its games replay like any others):
//! - `ladder/`: a round robin of random, alpha-beta at depths 1–3 with the default (`rich`)
//!   and the tuned evaluation, and MCTS at growing budgets; Bradley–Terry ratings with 95%
//!   intervals drawn as a ladder (`ladder.svg`), and for each step up the ladder the direct
//!   match between the two neighbours, its p-value and its Holm–Bonferroni adjustment over
//!   the steps: whether the step is a real one.
//! - `skilltrace/`: Ludii's SkillTrace (Browne, Stephenson, Piette, Soemers, "A practical
//!   introduction to the Ludii general game system", 2019; Ludii's `SkillTrace` metric): MCTS
//!   with 2k iterations against MCTS with k, for k doubling from a base; the stronger side's
//!   score against k with 95% intervals (`skilltrace.svg`), and where the curve levels off:
//!   the first step whose doubling no longer wins measurably (its interval holds ½).
//! - `first-player/<board>/`: the first colour's score across board sizes, with and without
//!   the swap rule, under a weak and a strong player each against itself ([`sides`]); the
//!   games on the report's own board also give the profile of length, draws, Ludii's metrics
//!   and Clarity and Decisiveness ([`profile`]).
//!
//! `report.md` in the folder ties them together and says what each part cost.

pub mod profile;
pub mod sides;

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use ringside_engine::registry::AnyGame;

use crate::error::{Error, Result};
use crate::figures::plot::{Bars, Bounds, Dot, Labels, dot_plot_svg, interval_plot_svg};
use crate::figures::stats::{Penta, Z95, holm, wilson};
use crate::figures::summary::{PairingSummary, Tally, ratings};
use crate::records::durable::write_atomically;
use crate::run::plan::{PlanBuilder, RunPlan};
use crate::run::runner::{Observer, run_to_csv};

/// How much a report plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// A few games with small searches: for tests and a first look (seconds).
    Tiny,
    /// The report as committed: enough games for intervals that separate the ladder's steps.
    Standard,
    /// The standard ladder's players with fewer games, a shorter SkillTrace and cheaper
    /// players for the first-player part: for games whose MCTS games run to hundreds of plies
    /// (Advance, the Life duel), where the standard budget costs hours on two cores.
    Light,
}

impl Budget {
    /// Reads `tiny` or `standard`.
    pub fn parse(text: &str) -> Result<Budget> {
        match text {
            "tiny" => Ok(Budget::Tiny),
            "standard" => Ok(Budget::Standard),
            "light" => Ok(Budget::Light),
            _ => Err(Error::setting(format!(
                "budget must be tiny, light or standard, not '{text}'"
            ))),
        }
    }

    /// Games a pairing of the ladder.
    #[must_use]
    pub fn ladder_games(self) -> u64 {
        match self {
            Budget::Tiny => 8,
            Budget::Light => 20,
            Budget::Standard => 40,
        }
    }

    /// Games a step of the SkillTrace.
    #[must_use]
    pub fn trace_games(self) -> u64 {
        match self {
            Budget::Tiny => 4,
            Budget::Light => 20,
            Budget::Standard => 100,
        }
    }

    /// The weak and the strong player of the first-player part and the profile.
    #[must_use]
    pub fn side_players(self) -> [&'static str; 2] {
        match self {
            Budget::Tiny => ["mcts:iters=10", "mcts:iters=40"],
            Budget::Light => ["mcts:iters=30", "mcts:iters=300"],
            Budget::Standard => ["mcts:iters=100", "mcts:iters=1000"],
        }
    }

    /// Board sizes of the first-player part.
    #[must_use]
    pub fn side_sizes(self) -> usize {
        match self {
            Budget::Tiny => 2,
            Budget::Light | Budget::Standard => 3,
        }
    }

    /// Games a player and board of the first-player part.
    #[must_use]
    pub fn side_games(self) -> u64 {
        match self {
            Budget::Tiny => 4,
            Budget::Light => 40,
            Budget::Standard => 100,
        }
    }

    /// The SkillTrace's first k and its number of doublings.
    #[must_use]
    pub fn trace_schedule(self) -> Vec<(u64, u64)> {
        match self {
            Budget::Tiny => skilltrace_schedule(4, 3),
            Budget::Light => skilltrace_schedule(16, 6),
            Budget::Standard => skilltrace_schedule(16, 8),
        }
    }
}

/// The plies after which a report's game is a draw (the Life duel can last for ever).
pub const PLY_CAP: u32 = 1000;

/// Random opening plies a pair: deterministic players would otherwise repeat one game.
pub const OPENING_PLIES: u32 = 2;

/// The folder of a game's report or board: its spec with `:` and `,` made `_`.
#[must_use]
pub fn folder_name(spec: &str) -> String {
    spec.replace([':', ','], "_")
}

/// SkillTrace's steps: `(2k, k)` for `k = base · 2^i`, `i < steps`.
#[must_use]
pub fn skilltrace_schedule(base: u64, steps: usize) -> Vec<(u64, u64)> {
    (0..steps)
        .map(|i| {
            let k = base << i;
            (2 * k, k)
        })
        .collect()
}

/// The ladder's agents, weakest first as designed: random, alpha-beta at depths 1–3 with the
/// shipped and the tuned evaluation, MCTS at growing budgets.
#[must_use]
pub fn ladder_agents(budget: Budget) -> Vec<String> {
    let mut agents = vec!["random".to_string()];
    let depths: &[u32] = match budget {
        Budget::Tiny => &[1, 3],
        Budget::Light | Budget::Standard => &[1, 2, 3],
    };
    for &d in depths {
        agents.push(format!("alphabeta:depth={d},eval=rich"));
        if budget != Budget::Tiny {
            agents.push(format!("alphabeta:depth={d},eval=tuned"));
        }
    }
    let budgets: &[u64] = match budget {
        Budget::Tiny => &[30],
        Budget::Light | Budget::Standard => &[100, 1000],
    };
    for &i in budgets {
        agents.push(format!("mcts:iters={i}"));
    }
    if budget != Budget::Tiny {
        agents.push("mcts:preset=strong".to_string());
    }
    agents
}

/// One rung of the ladder.
#[derive(Debug, Clone, PartialEq)]
pub struct Rung {
    /// The agent's label.
    pub agent: String,
    /// Its Bradley–Terry rating (Elo scale, mean 0) and the half-width of its 95% interval.
    pub rating: f64,
    /// The half-width of the rating's 95% interval.
    pub half_width: f64,
    /// The step from the rung below, if any: the direct match's Elo for this agent, its
    /// p-value and the Holm–Bonferroni adjustment over the steps.
    pub step: Option<Step>,
}

/// A step up the ladder, from the direct match of two neighbours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// The upper agent's Elo against the lower one, with its 95% interval.
    pub elo: (f64, f64, f64),
    /// The p-value of "the two are equal" ([`Penta::p_value`]).
    pub p: f64,
    /// `p` adjusted over every step of the ladder.
    pub holm: f64,
}

/// The ladder of a round robin, weakest first: ratings from every game, steps from the direct
/// matches of neighbours. `None` when the results do not connect every agent.
#[must_use]
pub fn ladder(plan: &RunPlan, tally: &Tally) -> Option<Vec<Rung>> {
    let pairings = tally.pairings();
    let groups = ratings(plan.agents.len(), pairings.iter().copied());
    let group = groups
        .into_iter()
        .find(|g| g.members.len() == plan.agents.len())?;
    let mut order: Vec<usize> = (0..group.members.len()).collect();
    order.sort_by(|&a, &b| group.ratings[a].total_cmp(&group.ratings[b]));
    let steps: Vec<Option<Penta>> = order
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            let below = group.members[*order.get(i.checked_sub(1)?)?];
            direct(&pairings, group.members[k], below)
        })
        .collect();
    let p: Vec<f64> = steps.iter().flatten().map(Penta::p_value).collect();
    let mut tested = p.iter().copied().zip(holm(&p));
    Some(
        order
            .iter()
            .zip(&steps)
            .map(|(&k, step)| Rung {
                agent: plan.agents[group.members[k]].label.clone(),
                rating: group.ratings[k],
                half_width: group.half_widths[k],
                step: step.map(|penta| {
                    let (p, holm) = tested.next().expect("one p a step");
                    // Adding zero turns the −0 of an even match into +0 for printing.
                    let (e, lo, hi) = penta.elo_interval();
                    Step {
                        elo: (e + 0.0, lo + 0.0, hi + 0.0),
                        p,
                        holm,
                    }
                }),
            })
            .collect(),
    )
}

/// The pairs of the direct match of `upper` and `lower`, from `upper`'s side.
fn direct(pairings: &[&PairingSummary], upper: usize, lower: usize) -> Option<Penta> {
    pairings.iter().find_map(|p| {
        if (p.a, p.b) == (upper, lower) {
            Some(p.penta)
        } else if (p.a, p.b) == (lower, upper) {
            let mut flipped = p.penta.0;
            flipped.reverse();
            Some(Penta(flipped))
        } else {
            None
        }
    })
}

/// One step of the SkillTrace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TracePoint {
    /// k: the weaker side's iterations.
    pub k: u64,
    /// The 2k side's score, with its 95% Wilson interval.
    pub score: (f64, f64, f64),
    /// Games played.
    pub games: u64,
}

/// The SkillTrace's points, in schedule order (pairing i is step i).
#[must_use]
pub fn trace(schedule: &[(u64, u64)], tally: &Tally) -> Vec<TracePoint> {
    let pairings = tally.pairings();
    schedule
        .iter()
        .zip(&pairings)
        .map(|(&(_, k), p)| {
            let n = p.all.n();
            let s = p.all.score();
            let (lo, hi) = wilson(s, n as f64, Z95);
            TracePoint {
                k,
                score: (s, lo, hi),
                games: n,
            }
        })
        .collect()
}

/// Where the SkillTrace levels off: the smallest k from which no doubling wins measurably
/// any more (every later step's interval holds ½), if the schedule reaches one.
#[must_use]
pub fn plateau(points: &[TracePoint]) -> Option<u64> {
    let flat = points.iter().rev().take_while(|t| t.score.1 <= 0.5).count();
    (flat > 0).then(|| points[points.len() - flat].k)
}

/// Plays (or resumes) the report of `game` into `dir` and writes `report.md` and its figures.
/// Returns the Markdown.
pub fn report(
    game: &AnyGame,
    budget: Budget,
    seed: u64,
    dir: &Path,
    threads: Option<usize>,
    observer: &mut dyn Observer,
) -> Result<String> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, &e))?;
    let spec = game.spec();

    let mut part = |name: &str, builder: PlanBuilder, games: u64, seed: u64| {
        play_part(
            &dir.join(name),
            builder,
            games,
            seed,
            threads,
            &mut *observer,
        )
    };
    let ladder_builder = PlanBuilder::new(&spec).tournament(&ladder_agents(budget), false);
    let (ladder_plan, ladder_tally, ladder_seconds) =
        part("ladder", ladder_builder, budget.ladder_games(), seed)?;
    let rungs = ladder(&ladder_plan, &ladder_tally);

    let schedule = budget.trace_schedule();
    let mut trace_builder = PlanBuilder::new(&spec);
    for &(strong, weak) in &schedule {
        trace_builder = trace_builder.pairing(
            &format!("mcts:iters={strong}"),
            &format!("mcts:iters={weak}"),
        );
    }
    let (_, trace_tally, trace_seconds) = part(
        "skilltrace",
        trace_builder,
        budget.trace_games(),
        seed ^ 0x5_C111,
    )?;
    let points = trace(&schedule, &trace_tally);

    let players = budget.side_players();
    let boards = sides::boards(game, budget.side_sizes());
    let (mut cells, mut own, mut sides_seconds) = (Vec::new(), None, 0.0);
    for board in &boards {
        let name = format!("first-player/{}", folder_name(&board.spec()));
        let builder = PlanBuilder::new(&board.spec())
            .pairing(players[0], players[0])
            .pairing(players[1], players[1]);
        let (plan, tally, seconds) = part(&name, builder, budget.side_games(), seed ^ 0xF1257)?;
        sides_seconds += seconds;
        cells.extend(sides::cells(board, &players, &tally));
        if board == game {
            own = Some((plan, tally, dir.join(&name).join("games.csv")));
        }
    }
    sides::adjust(&mut cells);
    // The replication: the cells that show an advantage, from a fresh seed.
    for board in &boards {
        let spec = board.spec();
        let shown: Vec<usize> = (cells.iter().enumerate())
            .filter(|(_, c)| c.game == spec && sides::shown(c.first, c.holm).is_some())
            .map(|(i, _)| i)
            .collect();
        if shown.is_empty() {
            continue;
        }
        let mut builder = PlanBuilder::new(&spec);
        for &i in &shown {
            builder = builder.pairing(&cells[i].player, &cells[i].player);
        }
        let name = format!("first-player-replication/{}", folder_name(&spec));
        let (_, tally, seconds) = part(&name, builder, budget.side_games(), seed ^ 0x2E_911C)?;
        sides_seconds += seconds;
        for (k, &i) in shown.iter().enumerate() {
            cells[i].replication = tally
                .pairing(k)
                .map(|p| sides::Replication::of(p.first_player));
        }
    }
    sides::adjust(&mut cells);

    let mut md = format!("# Design report: {spec}\n\n");
    let _ = writeln!(
        md,
        "Budget `{}`, seed {seed}; games in colour-swapped pairs with {OPENING_PLIES} random opening plies, a draw at {PLY_CAP} plies. This run took {ladder_seconds:.1} s for the ladder, {trace_seconds:.1} s for the SkillTrace and {sides_seconds:.1} s for the first-player part (games already played are resumed, not replayed).\n",
        match budget {
            Budget::Tiny => "tiny",
            Budget::Light => "light",
            Budget::Standard => "standard",
        }
    );
    md.push_str(&ladder_markdown(dir, rungs.as_deref(), budget)?);
    md.push_str(&trace_markdown(dir, &points)?);
    md.push_str(&sides::markdown(dir, &cells, budget.side_games())?);
    if let Some((plan, tally, path)) = own {
        let profiles = profile::measure(&plan, &path)?;
        md.push_str(&profile::markdown(dir, &spec, &players, &tally, &profiles)?);
    }
    write_atomically(&dir.join("report.md"), md.as_bytes())?;
    Ok(md)
}

/// Plays (or resumes) one part of a report into `dir/games.csv`: the pairings of `builder`
/// with `games` a pairing, `seed`, and the report's ply cap and openings. Returns the plan, the
/// tally of every game in the file, and the seconds this run took.
fn play_part(
    dir: &Path,
    builder: PlanBuilder,
    games: u64,
    seed: u64,
    threads: Option<usize>,
    observer: &mut dyn Observer,
) -> Result<(RunPlan, Tally, f64)> {
    let started = Instant::now();
    let plan = builder
        .games(games)
        .seed(seed)
        .ply_cap(Some(PLY_CAP))
        .opening_plies(OPENING_PLIES)
        .build()?;
    std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, &e))?;
    let run = run_to_csv(&plan, &dir.join("games.csv"), threads, observer)?;
    Ok((plan, run.tally, started.elapsed().as_secs_f64()))
}

fn ladder_markdown(dir: &Path, rungs: Option<&[Rung]>, budget: Budget) -> Result<String> {
    let mut md = format!(
        "## Skill ladder\n\nA round robin, {} games a pairing (`ladder/games.csv`). Bradley–Terry ratings (Elo scale, mean 0) with 95% intervals, weakest first; each step is the direct match of the two neighbours: the upper one's Elo, the p-value of \"equal\", and that p adjusted by Holm–Bonferroni over the steps. A step is *real* when its adjusted p is at most 0.05.\n\n",
        budget.ladder_games()
    );
    let Some(rungs) = rungs else {
        md.push_str("The results do not connect every agent; no ladder.\n\n");
        return Ok(md);
    };
    md.push_str("| rung | agent | rating | step up (direct match) | p | Holm p | real step |\n|---|---|---|---|---|---|---|\n");
    for (i, r) in rungs.iter().enumerate() {
        let step = match r.step {
            None => "– | – | – | –".to_string(),
            Some(s) => format!(
                "{:+.0} [{:+.0}, {:+.0}] | {:.4} | {:.4} | {}",
                s.elo.0,
                s.elo.1,
                s.elo.2,
                s.p,
                s.holm,
                if s.holm <= 0.05 { "yes" } else { "not shown" }
            ),
        };
        let _ = writeln!(
            md,
            "| {} | `{}` | {:+.0} ± {:.0} | {step} |",
            i + 1,
            r.agent,
            r.rating,
            r.half_width
        );
    }
    let dots: Vec<Dot> = rungs
        .iter()
        .rev()
        .map(|r| Dot {
            name: r.agent.clone(),
            value: r.rating,
            low: r.rating - r.half_width,
            high: r.rating + r.half_width,
        })
        .collect();
    let labels = Labels {
        title: "skill ladder",
        x: "Bradley–Terry rating (Elo scale, mean 0)",
        y: "",
    };
    write_atomically(
        &dir.join("ladder.svg"),
        dot_plot_svg(labels, &dots)?.as_bytes(),
    )?;
    md.push_str("\n![skill ladder](ladder.svg)\n\n");
    Ok(md)
}

fn trace_markdown(dir: &Path, points: &[TracePoint]) -> Result<String> {
    let mut md = String::from(
        "## SkillTrace\n\nMCTS with 2k iterations against MCTS with k (`skilltrace/games.csv`): the 2k side's score with its 95% Wilson interval. Where doubling stops paying, the game's skill ceiling for this player family is near.\n\n| k | 2k | games | 2k's score |\n|---|---|---|---|\n",
    );
    for t in points {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.3} [{:.3}, {:.3}] |",
            t.k,
            2 * t.k,
            t.games,
            t.score.0,
            t.score.1,
            t.score.2
        );
    }
    match plateau(points) {
        Some(k) => {
            let _ = writeln!(
                md,
                "\nLevels off at k = {k}: from there on no doubling of the iterations wins measurably (every interval holds ½)."
            );
        }
        None => md.push_str(
            "\nNo plateau within the schedule: its last doubling still wins measurably.\n",
        ),
    }
    let names: Vec<String> = points.iter().map(|t| t.k.to_string()).collect();
    let series = [Bars {
        name: "2k against k".to_string(),
        points: points
            .iter()
            .enumerate()
            .map(|(i, t)| (i as f64, t.score.0, t.score.1, t.score.2))
            .collect(),
        open_at: Vec::new(),
    }];
    let labels = Labels {
        title: "SkillTrace: MCTS with 2k iterations against k",
        x: "k (iterations of the weaker side)",
        y: "2k side's score",
    };
    write_atomically(
        &dir.join("skilltrace.svg"),
        interval_plot_svg(labels, &series, Some(&names), Bounds::SHARE)?.as_bytes(),
    )?;
    md.push_str("\n![SkillTrace](skilltrace.svg)\n\n");
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(k: u64, low: f64) -> TracePoint {
        TracePoint {
            k,
            score: (low + 0.1, low, low + 0.2),
            games: 100,
        }
    }

    #[test]
    fn skilltrace_doubles_k_from_its_base_and_pits_2k_against_k() {
        assert_eq!(
            skilltrace_schedule(16, 4),
            vec![(32, 16), (64, 32), (128, 64), (256, 128)]
        );
        let standard = Budget::Standard.trace_schedule();
        assert_eq!(standard.len(), 8);
        assert_eq!(standard.last(), Some(&(4096, 2048)));
    }

    #[test]
    fn the_trace_levels_off_where_no_later_doubling_wins_measurably() {
        // Wins measurably (low end above ½) at k = 16 and 32, then only noise.
        let points = [
            point(16, 0.6),
            point(32, 0.55),
            point(64, 0.45),
            point(128, 0.48),
        ];
        assert_eq!(plateau(&points), Some(64));
        // A lucky late step: the curve has not levelled off where the first flat step is.
        let points = [point(16, 0.45), point(32, 0.52), point(64, 0.44)];
        assert_eq!(plateau(&points), Some(64));
        assert_eq!(plateau(&[point(16, 0.6), point(32, 0.51)]), None);
        assert_eq!(plateau(&[]), None);
    }
}
