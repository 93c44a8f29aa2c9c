//! A design report for one game (`arena report`): how it behaves under weak and strong play,
//! in one command, resumable like any run, with a plain-language verdict at the top.
//!
//! Its parts, each a run of its own under the report's folder (so a killed report resumes
//! where it stopped, and its games replay like any others):
//! - `ladder/`: a round robin of random, alpha-beta at depths 1–3 with the default (`rich`)
//!   and, where the game has a fit, the tuned evaluation, and MCTS at growing budgets;
//!   Bradley–Terry ratings drawn as a ladder (`ladder.svg`), and for each step up the direct
//!   match of the two neighbours, tested with Holm over the steps; each step shown is played
//!   again from a fresh seed (`ladder-replication/`) before it is called real ([`ladder`]).
//! - `skilltrace/`: MCTS with 2k iterations against k, k doubling; each doubling tested with
//!   Holm over the trace; the plateau and any losing doubling replicated
//!   (`skilltrace-replication/`) before the report says the curve levels off ([`trace`]).
//! - `first-player/<board>/…`: the first colour's score across board sizes, with and without
//!   the swap, at several rungs of the ladder up to its strongest two players ([`sides`]); the
//!   games on the report's own board also give the profile of length, draws, Ludii's metrics
//!   and Clarity and Decisiveness ([`profile`]).
//!
//! `report.md` in the folder opens with the verdict ([`verdict`]) and says what each part
//! cost. Every test states its power and is adjusted for the tests beside it.

pub mod favoured;
pub mod ladder;
pub mod profile;
pub mod sides;
pub mod trace;
pub mod verdict;

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use ringside_agents::AgentSpec;
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game};

use crate::error::{Error, Result};
use crate::figures::plot::{Bars, Bounds, Dot, Labels, dot_plot_svg, interval_plot_svg};
use crate::figures::stats::{Penta, Wdl, detectable_share, elo};
use crate::figures::summary::Tally;
use crate::plan::{PlanBuilder, RunPlan};
use crate::records::durable::write_atomically;
use crate::run::pool::Observer;
use crate::run::runner::run_to_csv;

pub use favoured::{BalanceBudget, BalancePart};
use ladder::Rung;
use sides::SidePlayer;
use trace::{TracePoint, TraceVerdict};

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

    /// The first-player part's players when the ladder does not connect every agent.
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
            Budget::Tiny => trace::schedule(4, 3),
            Budget::Light => trace::schedule(16, 6),
            Budget::Standard => trace::schedule(16, 8),
        }
    }

    /// Ludii's SkillTrace: its levels and games a level (Ludii's own: 8 levels of 30 trials).
    #[must_use]
    pub fn ludii_trace(self) -> (usize, u64) {
        match self {
            Budget::Tiny => (2, 4),
            Budget::Light => (5, 30),
            Budget::Standard => (8, 30),
        }
    }

    /// The balance instrument's families and budget ([`crate::run::balance`]): the
    /// calibration's at `standard` (MCTS 1,000/8,000/64,000 iterations, alpha-beta depths 2/4/6
    /// at most 50,000 positions a move, 600 games or 120 s a cell), cheaper players at
    /// `light`, a few games at `tiny`; with the perfect player wherever the solver solves the
    /// start within 10 million positions (100,000 at `tiny`).
    #[must_use]
    pub fn balance(self) -> BalanceBudget {
        match self {
            Budget::Tiny => BalanceBudget {
                iters: vec![10, 40],
                depths: vec![1, 2],
                nodes: 2_000,
                games: 8,
                cell_seconds: None,
                perfect: 100_000,
            },
            Budget::Light => BalanceBudget {
                iters: vec![300, 1000, 3000],
                depths: vec![1, 2, 3],
                nodes: 20_000,
                games: 200,
                cell_seconds: Some(120.0),
                perfect: 10_000_000,
            },
            Budget::Standard => BalanceBudget {
                iters: vec![1000, 8000, 64000],
                depths: vec![2, 4, 6],
                nodes: 50_000,
                games: 600,
                cell_seconds: Some(120.0),
                perfect: 10_000_000,
            },
        }
    }

    /// Its name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Budget::Tiny => "tiny",
            Budget::Light => "light",
            Budget::Standard => "standard",
        }
    }
}

/// The plies after which a report's game is a draw (the Life duel can last for ever).
pub const PLY_CAP: u32 = 1000;

/// Random opening plies a pair in the ladder and the SkillTrace: deterministic players would
/// otherwise repeat one game. They stop before the swap's decision.
pub const OPENING_PLIES: u32 = 2;

/// The seeds of the replications, each fixed before any game is played: the report's seed
/// with these bits flipped.
const LADDER_AGAIN: u64 = 0x1ADDE2;
const TRACE_AGAIN: u64 = 0x5_C112;
const SIDES_AGAIN: u64 = 0x2E_911C;
/// The seed of the balance part (the report's seed with these bits flipped).
/// The seed of Ludii's SkillTrace (the report's seed with these bits flipped).
const LUDII: u64 = 0x1D_0011;

/// The folder of a game's report or board: its spec with `:` and `,` made `_`.
#[must_use]
pub fn folder_name(spec: &str) -> String {
    spec.replace([':', ','], "_")
}

/// Whether the game ships a tuned fit (`eval=tuned` is then not `rich` again).
#[must_use]
pub fn has_tuned_fit(game: &AnyGame) -> bool {
    struct Fit;
    impl GameVisitor for Fit {
        type Output = bool;
        fn visit<G: Game + Features>(self, start: G) -> bool {
            start.tuned_fit().is_some()
        }
    }
    game.visit(Fit)
}

/// The ladder's agents, weakest first as designed: random, alpha-beta at depths 1–3 with the
/// shipped evaluation and (with `tuned`, where the game has a fit) the tuned one, MCTS at
/// growing budgets.
#[must_use]
pub fn ladder_agents(budget: Budget, tuned: bool) -> Vec<String> {
    let mut agents = vec!["random".to_string()];
    let depths: &[u32] = match budget {
        Budget::Tiny => &[1, 3],
        Budget::Light | Budget::Standard => &[1, 2, 3],
    };
    for &d in depths {
        agents.push(format!("alphabeta:depth={d},eval=rich"));
        if budget != Budget::Tiny && tuned {
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

/// The first-player part's players: rungs of the ladder (weakest first), never random, up to
/// its strongest two: the two at the top, the weakest other rung, and with six or more
/// others one from the middle.
#[must_use]
pub fn strength_players(rungs: &[Rung]) -> Vec<usize> {
    let others: Vec<usize> = (0..rungs.len())
        .filter(|&i| rungs[i].agent != "random")
        .collect();
    let n = others.len();
    let mut picked: Vec<usize> = match n {
        0 => Vec::new(),
        1 | 2 => others.clone(),
        3..=5 => vec![others[0], others[n - 2], others[n - 1]],
        _ => vec![others[0], others[(n - 2) / 2], others[n - 2], others[n - 1]],
    };
    picked.dedup();
    picked
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
    let mut seconds = Seconds::default();
    let mut part = |name: &str, builder: PlanBuilder, games: u64, seed: u64, plies: u32| {
        play_part(
            &dir.join(name),
            builder.games(games).seed(seed).opening_plies(plies),
            threads,
            &mut *observer,
        )
    };

    // The ladder, and its shown steps again.
    let agents = ladder_agents(budget, has_tuned_fit(game));
    let (ladder_plan, ladder_tally, s) = part(
        "ladder",
        PlanBuilder::for_game(game.clone()).tournament(&agents, false),
        budget.ladder_games(),
        seed,
        OPENING_PLIES,
    )?;
    seconds.ladder += s;
    let mut rungs = ladder::ladder(&ladder_plan, &ladder_tally);
    if let Some(rungs) = rungs.as_mut() {
        let shown = ladder::shown_steps(rungs);
        if !shown.is_empty() {
            let builder = shown
                .iter()
                .fold(PlanBuilder::for_game(game.clone()), |b, (_, up, down)| {
                    b.pairing(up, down)
                });
            let (_, tally, s) = part(
                "ladder-replication",
                builder,
                budget.ladder_games(),
                seed ^ LADDER_AGAIN,
                OPENING_PLIES,
            )?;
            seconds.ladder += s;
            let results: Vec<Penta> = (0..shown.len())
                .map(|k| tally.pairing(k).map_or(Penta::default(), |p| p.penta))
                .collect();
            ladder::set_replication(rungs, &shown, &results);
        }
    }
    let upsets = rungs
        .as_deref()
        .map(|r| ladder::upsets(&ladder_plan, &ladder_tally, r))
        .unwrap_or_default();

    // The SkillTrace, and the steps its claims rest on again.
    let schedule = budget.trace_schedule();
    let trace_builder = |steps: &[(u64, u64)]| {
        steps
            .iter()
            .fold(PlanBuilder::for_game(game.clone()), |b, &(strong, weak)| {
                b.pairing(
                    &format!("mcts:iters={strong}"),
                    &format!("mcts:iters={weak}"),
                )
            })
    };
    let (_, trace_tally, s) = part(
        "skilltrace",
        trace_builder(&schedule),
        budget.trace_games(),
        seed ^ 0x5_C111,
        OPENING_PLIES,
    )?;
    seconds.trace += s;
    let first = trace::points(&schedule, &trace_tally);
    let claimed = trace::to_replicate(&first);
    let mut again = Vec::new();
    if !claimed.is_empty() {
        let steps: Vec<(u64, u64)> = claimed.iter().map(|&i| schedule[i]).collect();
        let (_, tally, s) = part(
            "skilltrace-replication",
            trace_builder(&steps),
            budget.trace_games(),
            seed ^ TRACE_AGAIN,
            OPENING_PLIES,
        )?;
        seconds.trace += s;
        // Adjusted over the replicated steps only, by `points`.
        let points = trace::points(&steps, &tally);
        again = claimed.iter().copied().zip(points).collect();
    }
    let trace = TraceVerdict { first, again };

    // Ludii's own SkillTrace: its schedule, levels and single number.
    let (levels, ludii_games) = budget.ludii_trace();
    let ludii = trace::ludii_schedule(levels);
    let builder = ludii
        .iter()
        .fold(PlanBuilder::for_game(game.clone()), |b, (strong, weak)| {
            b.pairing(strong, weak)
        });
    let (_, ludii_tally, s) = part("ludii-skilltrace", builder, ludii_games, seed ^ LUDII, 0)?;
    seconds.trace += s;
    let ludii_levels: Vec<Wdl> = (0..levels)
        .filter_map(|i| ludii_tally.pairing(i).map(|p| p.all))
        .collect();

    // The first-player part, at strength.
    let players: Vec<SidePlayer> = match rungs.as_deref() {
        Some(r) => strength_players(r)
            .into_iter()
            .map(|i| {
                let label = self_play_spec(&r[i].agent);
                SidePlayer {
                    seeded: seeded(&label),
                    label,
                    rung: Some(i),
                }
            })
            .collect(),
        None => budget
            .side_players()
            .iter()
            .map(|p| SidePlayer {
                label: (*p).to_string(),
                rung: None,
                seeded: seeded(p),
            })
            .collect(),
    };
    // Each board's players in two runs: those random by themselves with no opening, the
    // deterministic ones from the fewest random plies that give distinct openings.
    let (free, fixed): (Vec<SidePlayer>, Vec<SidePlayer>) =
        players.into_iter().partition(|p| p.seeded);
    let boards: Vec<(AnyGame, Vec<SideRun>)> = sides::boards(game, budget.side_sizes())
        .into_iter()
        .map(|board| {
            let mut runs = Vec::new();
            if !free.is_empty() {
                runs.push((0, free.clone()));
            }
            if !fixed.is_empty() {
                let plies = sides::distinct_opening_plies(&board, budget.side_games() / 2);
                runs.push((plies, fixed.clone()));
            }
            (board, runs)
        })
        .collect();
    let (mut cells, mut own) = (Vec::new(), Vec::new());
    for (board, runs) in &boards {
        for (plies, group) in runs {
            let plies = *plies;
            let name = format!(
                "first-player/{}/openings-{plies}",
                folder_name(&board.spec())
            );
            let builder = group
                .iter()
                .fold(PlanBuilder::for_game(board.clone()), |b, p| {
                    b.pairing(&p.label, &p.label)
                });
            let (plan, tally, s) =
                part(&name, builder, budget.side_games(), seed ^ 0xF1257, plies)?;
            seconds.sides += s;
            cells.extend(sides::cells(board, group, plies, &tally));
            if board == game {
                own.push((plan, tally, dir.join(&name).join("games.csv"), group));
            }
        }
    }
    sides::adjust(&mut cells);
    // The replication: the cells that show an advantage, from a fresh seed.
    for (board, runs) in &boards {
        for &(plies, ref group) in runs {
            let bspec = board.spec();
            let shown: Vec<usize> = (cells.iter().enumerate())
                .filter(|(_, c)| {
                    c.game == bspec
                        && c.opening == plies
                        && group.iter().any(|p| p.label == c.player)
                        && !sides::unfinished(c)
                        && sides::shown(c.first, c.holm).is_some()
                })
                .map(|(i, _)| i)
                .collect();
            if shown.is_empty() {
                continue;
            }
            let builder = shown
                .iter()
                .fold(PlanBuilder::for_game(board.clone()), |b, &i| {
                    b.pairing(&cells[i].player, &cells[i].player)
                });
            let name = format!(
                "first-player-replication/{}/openings-{plies}",
                folder_name(&bspec)
            );
            let (_, tally, s) = part(
                &name,
                builder,
                budget.side_games(),
                seed ^ SIDES_AGAIN,
                plies,
            )?;
            seconds.sides += s;
            for (k, &i) in shown.iter().enumerate() {
                cells[i].replication = tally
                    .pairing(k)
                    .map(|p| sides::Replication::of(p.distinct.first()));
            }
        }
    }
    sides::adjust(&mut cells);

    // Who is favoured, asked of two families (and the perfect player where the solver solves
    // the start): on the report's board and, where the game has one, with the swap. A cell
    // whose time budget ran out is read as it stands, never extended by a later call, so the
    // report reads the same verdict every time it is rendered.
    let b = budget.balance();
    let (balances, balance_seconds) = favoured::play(game, dir, &b, seed, threads)?;
    seconds.balance += balance_seconds;

    let mut profiles = Vec::new();
    let runs: Vec<(&RunPlan, &Path)> = own
        .iter()
        .map(|(p, _, path, _)| (p, path.as_path()))
        .collect();
    let (scale, measured) = profile::measure(&runs)?;
    for ((_, tally, _, group), measured) in own.iter().zip(measured) {
        for (i, (p, m)) in group.iter().zip(measured).enumerate() {
            if let Some(summary) = tally.pairing(i) {
                profiles.push(profile::Column {
                    player: p.label.clone(),
                    rung: p.rung,
                    summary: summary.clone(),
                    profile: m,
                });
            }
        }
    }
    profiles.sort_by_key(|c| c.rung);

    let facts = verdict::Facts {
        game,
        rungs: rungs.as_deref(),
        trace: &trace,
        ludii: ludii_number(&ludii_levels, levels),
        cells: &cells,
        balances: &balances,
        profiles: &profiles,
        ladder_games: budget.ladder_games(),
    };
    let total = seconds.add_to(&dir.join(SECONDS_FILE))?;
    let mut md = format!("# Design report: {spec}\n\n");
    md.push_str(&verdict::markdown(&facts));
    let _ = writeln!(
        md,
        "Budget `{}`, seed {seed}; games in colour-swapped pairs, a draw at {PLY_CAP} plies; the ladder and the SkillTrace from {OPENING_PLIES} random opening plies. Playing took {:.1} s for the ladder, {:.1} s for the SkillTrace, {:.1} s for the first-player part and {:.1} s for the balance instrument, replications included, summed over the runs that played them (`{SECONDS_FILE}`; a run resumes the games already played, it does not replay them).\n",
        budget.name(),
        total.ladder,
        total.trace,
        total.sides,
        total.balance,
    );
    for part in &balances {
        md.push_str(&favoured::markdown(part, &b));
    }
    md.push_str(&ladder_markdown(dir, rungs.as_deref(), &upsets, budget)?);
    md.push_str(&trace_markdown(dir, &trace, budget.trace_games())?);
    md.push_str(&ludii_markdown(&ludii_levels, levels, ludii_games));
    md.push_str(&sides::markdown(dir, &cells, budget.side_games())?);
    if !profiles.is_empty() {
        md.push_str(&profile::markdown(dir, &spec, scale, &profiles)?);
    }
    write_atomically(&dir.join("report.md"), md.as_bytes())?;
    Ok(md)
}

/// The spec a ladder's agent plays the first-player part with: alpha-beta breaks its ties at
/// random (`ties=random`), so that it plays distinct games against itself without a random
/// opening, which would decide games whose answer under best play is known (a Tic-tac-toe
/// opening can lose by force). Other agents as they are.
#[must_use]
pub fn self_play_spec(agent: &str) -> String {
    if agent.starts_with("alphabeta:") && !agent.contains("ties=") {
        format!("{agent},ties=random")
    } else {
        agent.to_string()
    }
}

/// One run of a board in the first-player part: its random opening plies and its players.
type SideRun = (u32, Vec<SidePlayer>);

/// Whether an agent spec draws its choices from its seed.
fn seeded(label: &str) -> bool {
    AgentSpec::parse(label).is_ok_and(|s| s.varies_with_seed())
}

/// The report folder's file of the seconds its parts took, summed over the runs of the
/// report: a run that only resumes (or re-renders) adds its few seconds to the first run's.
pub const SECONDS_FILE: &str = "seconds.csv";

/// What each part of a report took, replications included.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Seconds {
    ladder: f64,
    trace: f64,
    sides: f64,
    balance: f64,
}

impl Seconds {
    /// Adds this run's seconds to those recorded in `path` (none when it is absent), writes
    /// the sums back (write-then-rename) and returns them.
    fn add_to(self, path: &Path) -> Result<Seconds> {
        let mut total = self;
        match std::fs::read_to_string(path) {
            Ok(text) => {
                for line in text.lines().skip(1) {
                    let bad = || Error::corrupt(format!("{}: bad line '{line}'", path.display()));
                    let (part, value) = line.split_once(',').ok_or_else(bad)?;
                    let value: f64 = value.trim().parse().map_err(|_| bad())?;
                    match part {
                        "ladder" => total.ladder += value,
                        "skilltrace" => total.trace += value,
                        "first-player" => total.sides += value,
                        "balance" => total.balance += value,
                        _ => return Err(bad()),
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io("read", path, &e)),
        }
        let text = format!(
            "part,seconds\nladder,{:.1}\nskilltrace,{:.1}\nfirst-player,{:.1}\nbalance,{:.1}\n",
            total.ladder, total.trace, total.sides, total.balance
        );
        write_atomically(path, text.as_bytes())?;
        Ok(total)
    }
}

/// Plays (or resumes) one part of a report into `dir/games.csv`: the pairings of `builder`
/// (games, seed and openings set), with the report's ply cap. Returns the plan, the tally of
/// every game in the file, and the seconds this run took playing (none when it had nothing to
/// play: reading a finished part again is not play).
fn play_part(
    dir: &Path,
    builder: PlanBuilder,
    threads: Option<usize>,
    observer: &mut dyn Observer,
) -> Result<(RunPlan, Tally, f64)> {
    let started = Instant::now();
    let plan = builder.ply_cap(Some(PLY_CAP)).build()?;
    std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, &e))?;
    let run = run_to_csv(&plan, &dir.join("games.csv"), threads, observer)?;
    let seconds = if run.played == 0 {
        0.0
    } else {
        started.elapsed().as_secs_f64()
    };
    Ok((plan, run.tally, seconds))
}

/// The smallest Elo a step must have to be found with 80% probability by a direct match of
/// `games` games at Holm's first threshold over `tests` steps (the sign test's power on
/// decisive games, [`detectable_share`], turned into Elo).
#[must_use]
pub fn detectable_elo(games: u64, tests: usize) -> Option<f64> {
    detectable_share(games, 0.05 / tests.max(1) as f64, 0.8).map(elo)
}

fn ladder_markdown(
    dir: &Path,
    rungs: Option<&[Rung]>,
    upsets: &[(String, String, f64, f64)],
    budget: Budget,
) -> Result<String> {
    let games = budget.ladder_games();
    let mut md = format!(
        "## Skill ladder\n\nA round robin, {games} games a pairing (`ladder/games.csv`). Bradley–Terry ratings (Elo scale, mean 0) with 95% intervals, weakest first. Each step is the direct match of the two neighbours: the upper one's Elo, the p-value of \"equal\" and that p adjusted by Holm–Bonferroni over the steps. A step shown (adjusted p at most 0.05, the upper rung ahead) is played again, {games} games from a fresh seed fixed before the run (`ladder-replication/games.csv`), with Holm over the replicated steps; it is *real* only when the replication shows it too. "
    );
    let Some(rungs) = rungs else {
        md.push_str("\n\nThe results do not connect every agent; no ladder.\n\n");
        return Ok(md);
    };
    let steps = rungs.iter().filter(|r| r.step.is_some()).count();
    match detectable_elo(games, steps) {
        Some(e) => {
            let _ = write!(
                md,
                "Power: with {games} games and Holm over {steps} steps, a step is found with 80% probability when it is worth about {e:+.0} Elo or more (the sign test on decisive games); smaller steps may be there unseen.\n\n"
            );
        }
        None => {
            let _ = write!(
                md,
                "Power: {games} games are too few to find any step at Holm's level over {steps} steps.\n\n"
            );
        }
    }
    md.push_str("| rung | agent | rating | step up (direct match) | Holm p | replication | its Holm p | step |\n|---|---|---|---|---|---|---|---|\n");
    for (i, r) in rungs.iter().enumerate() {
        let step = match r.step {
            None => "– | – | – | – | –".to_string(),
            Some(s) => format!(
                "{:+.0} [{:+.0}, {:+.0}] | {:.4} | {} | {} | {}",
                s.first.elo.0,
                s.first.elo.1,
                s.first.elo.2,
                s.first.holm,
                s.again.map_or("–".to_string(), |t| format!(
                    "{:+.0} [{:+.0}, {:+.0}]",
                    t.elo.0, t.elo.1, t.elo.2
                )),
                s.again
                    .map_or("–".to_string(), |t| format!("{:.4}", t.holm)),
                s.verdict()
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
    if upsets.is_empty() {
        md.push_str("\nNo pairing contradicts the ratings' order (no lower-rated agent beat a higher-rated one with p below 0.05).\n");
    } else {
        md.push_str("\n**Non-transitive results:** pairings where the lower-rated agent won with a nominal p below 0.05 (no correction: to look at, not a verdict).\n\n| winner | loser | winner's score | p |\n|---|---|---|---|\n");
        for (w, l, s, p) in upsets {
            let _ = writeln!(md, "| `{w}` | `{l}` | {s:.3} | {p:.4} |");
        }
    }
    let dots: Vec<Dot> = rungs
        .iter()
        .rev()
        .map(|r| Dot {
            name: format!(
                "{}{}",
                sides::short(&r.agent),
                if r.step.is_some_and(|s| s.real()) {
                    "  ↑ real step"
                } else {
                    ""
                }
            ),
            value: r.rating,
            low: r.rating - r.half_width,
            high: r.rating + r.half_width,
        })
        .collect();
    let labels = Labels {
        title: "skill ladder (↑: a real step up from the rung below, replicated)",
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

fn trace_markdown(dir: &Path, trace: &TraceVerdict, games: u64) -> Result<String> {
    let steps = trace.first.len();
    let mut md = format!(
        "## Skill curve (SkillTrace by doubling)\n\nRingside's skill curve, after Ludii's SkillTrace but not Ludii's (which follows): MCTS with 2k iterations a move against MCTS with k (`skilltrace/games.csv`), {games} games a step: the 2k side's score with its 95% Wilson interval, and the exact sign test on its wins and losses adjusted by Holm–Bonferroni over the {steps} steps. A doubling *wins* or *loses* when its adjusted p is at most 0.05; a loss is an artefact to explain. A plateau starts at the first k from which two consecutive doublings win nothing measurable and none after wins; the steps from there on, and any losing step, are played again from a fresh seed fixed before the run (`skilltrace-replication/games.csv`, Holm over the replicated steps). No single step failing its test makes a curve level, so the claim rests on one test over the whole tail: every doubling from the plateau on, first run and replication pooled, by the sign test at 5% (without a plateau, the last three doublings of the first run). The report says it *levels off* only when no replicated step wins, the pooled tail does not win and that test could have seen 2k win {power:.2} of the decisive games (80% power); *still climbing* when the pooled tail wins; otherwise *undecided*. ",
        power = trace::TAIL_POWER
    );
    match detectable_share(games, 0.05 / steps.max(1) as f64, 0.8) {
        Some(q) => {
            let _ = write!(
                md,
                "Power: a doubling is found with 80% probability when 2k wins {q:.3} of the decisive games or more.\n\n"
            );
        }
        None => md.push_str("Power: too few games to find any doubling at this level.\n\n"),
    }
    md.push_str("| k | 2k | games | 2k's W-D-L | 2k's score | Holm p | doubling | replication: score, Holm p | its doubling |\n|---|---|---|---|---|---|---|---|---|\n");
    for (i, t) in trace.first.iter().enumerate() {
        let again = trace.replication(i);
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {:.3} [{:.3}, {:.3}] | {:.4} | {} | {} | {} |",
            t.k,
            2 * t.k,
            t.games(),
            wdl(t.strong),
            t.score.0,
            t.score.1,
            t.score.2,
            t.holm,
            t.doubling().text(),
            again.map_or("–".to_string(), |a| format!(
                "{:.3} [{:.3}, {:.3}], {:.4}",
                a.score.0, a.score.1, a.score.2, a.holm
            )),
            again.map_or("–", |a| a.doubling().text()),
        );
    }
    let _ = writeln!(md, "\n{}", trace.sentence());
    let names: Vec<String> = trace.first.iter().map(|t| t.k.to_string()).collect();
    let series_of = |name: &str, points: Vec<(usize, &TracePoint)>, shift: f64| Bars {
        name: name.to_string(),
        points: points
            .into_iter()
            .map(|(i, t)| (i as f64 + shift, t.score.0, t.score.1, t.score.2))
            .collect(),
        ..Bars::default()
    };
    let mut series = vec![series_of(
        "first run",
        trace.first.iter().enumerate().collect(),
        0.0,
    )];
    if !trace.again.is_empty() {
        series[0] = series_of("first run", trace.first.iter().enumerate().collect(), -0.12);
        series.push(series_of(
            "replication (fresh seed)",
            trace.again.iter().map(|(i, t)| (*i, t)).collect(),
            0.12,
        ));
    }
    let labels = Labels {
        title: "skill curve: MCTS with 2k iterations against k (½: no gain)",
        x: "k (iterations of the weaker side)",
        y: "2k side's score",
    };
    write_atomically(
        &dir.join("skilltrace.svg"),
        interval_plot_svg(labels, &series, Some(&names), Bounds::SCORE)?.as_bytes(),
    )?;
    md.push_str("\n![SkillTrace](skilltrace.svg)\n\n");
    Ok(md)
}

/// Ludii's SkillTrace number from the levels played (`None` without any).
fn ludii_number(played: &[Wdl], levels: usize) -> Option<f64> {
    let results: Vec<f64> = played.iter().map(utility).collect();
    (!results.is_empty()).then(|| trace::ludii_skill_trace(&results, levels))
}

/// The strong side's mean utility: win 1, draw 0, loss −1.
fn utility(r: &Wdl) -> f64 {
    (r.w as f64 - r.l as f64) / r.n().max(1) as f64
}

fn ludii_markdown(played: &[Wdl], levels: usize, games: u64) -> String {
    let mut md = format!(
        "## Ludii's SkillTrace\n\nLudii's own metric (`metrics/designer/SkillTrace.java`), beside the curve above and not the same thing: plain UCT (`c` = √2, no solver) with 2k iterations *a legal move* against k, k = 2, 4, …, {} over {levels} levels, {games} games a level (`ludii-skilltrace/games.csv`, colour-swapped, no random opening); each level's result is the strong side's mean utility (win 1, draw 0, loss −1). A least-squares line through the levels predicts the result at level {}; the number is that prediction (clamped to [0, 1]) plus the rest of the way to 1 times the mean of the levels' positive results. Ludii stops at a 60 s limit; every level here is played in full.\n\n| level | k (a legal move) | 2k's W-D-L | 2k's mean utility |\n|---|---|---|---|\n",
        2u64 << levels.saturating_sub(1),
        levels + 1
    );
    for (i, r) in played.iter().enumerate() {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:+.3} |",
            i + 1,
            2u64 << i,
            wdl(*r),
            utility(r)
        );
    }
    match ludii_number(played, levels) {
        Some(n) => {
            let _ = writeln!(md, "\nLudii's SkillTrace: **{n:.3}**.\n");
        }
        None => md.push_str("\nNo level played.\n\n"),
    }
    md
}

/// `W-D-L`.
fn wdl(r: Wdl) -> String {
    format!("{}-{}-{}", r.w, r.d, r.l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reports_seconds_add_up_over_its_runs_and_survive_a_re_render() {
        let dir = std::env::temp_dir().join(format!("ringside-seconds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(SECONDS_FILE);
        let _ = std::fs::remove_file(&path);
        // A file written before the balance part had no line for it: it counts as none.
        std::fs::write(
            &path,
            "part,seconds\nladder,100.0\nskilltrace,20.5\nfirst-player,7.0\n",
        )
        .unwrap();
        let first = Seconds {
            ladder: 100.0,
            trace: 20.5,
            sides: 7.0,
            balance: 0.0,
        };
        assert_eq!(Seconds::default().add_to(&path).unwrap(), first);
        let resumed = Seconds {
            ladder: 0.5,
            trace: 0.0,
            sides: 1.0,
            balance: 30.25,
        };
        let total = resumed.add_to(&path).unwrap();
        assert_eq!(
            total,
            Seconds {
                ladder: 100.5,
                trace: 20.5,
                sides: 8.0,
                balance: 30.25,
            }
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "part,seconds\nladder,100.5\nskilltrace,20.5\nfirst-player,8.0\nbalance,30.2\n"
        );
        std::fs::write(&path, "part,seconds\nladder,ten\n").unwrap();
        let err = Seconds::default().add_to(&path).unwrap_err();
        assert!(err.to_string().contains("bad line 'ladder,ten'"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn rung(agent: &str) -> Rung {
        Rung {
            agent: agent.to_string(),
            rating: 0.0,
            half_width: 0.0,
            step: None,
        }
    }

    #[test]
    fn the_first_player_part_plays_rungs_up_to_the_strongest_two_never_random() {
        let names = |r: &[Rung]| -> Vec<String> {
            strength_players(r)
                .into_iter()
                .map(|i| r[i].agent.clone())
                .collect()
        };
        let ten: Vec<Rung> = ["random", "a", "b", "c", "d", "e", "f", "g", "h", "i"]
            .iter()
            .map(|a| rung(a))
            .collect();
        assert_eq!(names(&ten), ["a", "d", "h", "i"]);
        let four: Vec<Rung> = ["random", "a", "b", "c"].iter().map(|a| rung(a)).collect();
        assert_eq!(names(&four), ["a", "b", "c"]);
        // Random may sit anywhere (a game where it beats a weak player): it is left out.
        let odd: Vec<Rung> = ["a", "random", "b"].iter().map(|a| rung(a)).collect();
        assert_eq!(names(&odd), ["a", "b"]);
    }

    #[test]
    fn the_ladder_leaves_out_the_tuned_evaluation_where_there_is_no_fit() {
        let with = ladder_agents(Budget::Standard, true);
        let without = ladder_agents(Budget::Standard, false);
        assert_eq!(with.len(), 10);
        assert_eq!(without.len(), 7);
        assert!(without.iter().all(|a| !a.contains("tuned")));
        assert!(has_tuned_fit(&AnyGame::parse("havannah").unwrap()));
        assert!(!has_tuned_fit(&AnyGame::parse("tic_tac_toe").unwrap()));
    }

    #[test]
    fn the_ladders_power_is_the_sign_tests_turned_into_elo() {
        // 40 games, 9 steps: level 0.0056; the test needs 30 of 40 (p 0.0022; 29 gives
        // 0.0064), reached 80% of the time at a share of 0.791: +231 Elo (worked by hand with
        // exact binomial sums).
        let e = detectable_elo(40, 9).unwrap();
        assert!((e - 231.0).abs() < 1.0, "{e}");
        assert!(detectable_elo(400, 9).unwrap() < 100.0);
        assert_eq!(detectable_elo(4, 9), None);
    }
}
