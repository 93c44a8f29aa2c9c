//! The subcommands: flags turned into library calls, results into text.

use std::path::Path;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ringside_arena::Error;
use ringside_arena::explore::position::{ReplayStyle, replay as replay_moves};
use ringside_arena::explore::{playouts, think as thinking};
use ringside_arena::figures::summary::Tally;
use ringside_arena::figures::{family, metrics, report, study};
use ringside_arena::records::games_csv::read_games_with;
use ringside_arena::records::merge as merging;
use ringside_arena::records::row::GameRow;
use ringside_arena::records::sidecar::read_sidecar;
use ringside_arena::run::conduct::{Conduct, Conductor, Phase, conduct, write_summary_files};
use ringside_arena::run::plan::{PlanBuilder, Shard};
use ringside_arena::run::pool::{Observer, thread_count};
use ringside_arena::run::runner::{RunReport, run_to_csv};
use ringside_arena::run::{experiment, slurm};
use ringside_engine::registry::AnyGame;

use crate::cli::{
    FeaturesArgs, GtpArgs, MatchArgs, MergeArgs, NetArgs, PlayArgs, PlayoutsArgs, ReplayArgs,
    ReportArgs, RunArgs, SlurmShardArgs, SpsaArgs, SummaryArgs, TexelArgs, ThinkArgs, VerdictsArgs,
};
use crate::output::print;

type Result<T> = std::result::Result<T, Error>;

/// A progress bar over a run's games, with the W-D-L of each pairing's first agent summed
/// over all pairings (in a gauntlet: the gauntlet agent's).
struct Progress {
    bar: ProgressBar,
    wdl: [u64; 3],
    pairings: usize,
    /// Games finished since the bar was last redrawn, and when that was: the bar redraws at
    /// most every 50 ms, so a fast run spends nothing per game on it.
    unshown: u64,
    shown: Instant,
    /// A sweep's bar: its length is set once for every cell, and `cell` names the cell
    /// being played.
    fixed: bool,
    cell: String,
}

impl Progress {
    fn new(visible: bool, pairings: usize) -> Progress {
        let target = if visible {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(0), target);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, ETA {eta}  {msg}")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        Progress {
            bar,
            wdl: [0; 3],
            pairings,
            unshown: 0,
            shown: Instant::now(),
            fixed: false,
            cell: String::new(),
        }
    }
}

impl Conductor for Progress {
    fn phase(&mut self, phase: Phase) {
        match phase {
            Phase::Verify { games, pairings } | Phase::Play { games, pairings } => {
                self.bar.reset();
                self.bar.set_length(games);
                self.wdl = [0; 3];
                self.unshown = 0;
                self.pairings = pairings;
                self.cell.clear();
                // A sweep's play stage counts every cell's games on one bar.
                self.fixed = matches!(phase, Phase::Play { .. });
            }
            Phase::Cell { label } => self.cell = format!("{label} | "),
            Phase::Done => {
                self.show();
                self.bar.finish_and_clear();
                self.fixed = false;
            }
        }
    }

    fn note(&mut self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }
}

impl Observer for Progress {
    fn started(&mut self, _resumed: u64, pending: u64) {
        if !self.fixed {
            self.bar.set_length(pending);
        }
    }

    fn interrupted(&self) -> bool {
        crate::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn finished(&mut self, row: &GameRow) {
        self.wdl[(2.0 - 2.0 * row.pairing_first_points()) as usize] += 1;
        self.unshown += 1;
        if self.shown.elapsed() >= std::time::Duration::from_millis(50) {
            self.show();
        }
    }
}

impl Progress {
    fn show(&mut self) {
        let who = if self.pairings > 1 {
            "first agents' W-D-L"
        } else {
            "W-D-L"
        };
        let [w, d, l] = self.wdl;
        self.bar
            .set_message(format!("{}{who} {w}-{d}-{l}", self.cell));
        self.bar.inc(self.unshown);
        self.unshown = 0;
        self.shown = Instant::now();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// Resolves `--shard`: `i/n`, or `auto` from a Slurm job array's variables.
fn shard(arg: Option<&str>) -> Result<Option<Shard>> {
    match arg {
        None => Ok(None),
        Some("auto") => slurm::shard_of_array(|name| std::env::var(name).ok()).map(Some),
        Some(text) => Shard::parse(text).map(Some),
    }
}

/// Runs `arena match`.
pub fn run_match(args: &MatchArgs) -> Result<()> {
    let builder = PlanBuilder::new(&args.game);
    let builder = match args.agents.as_slice() {
        [a, b] => {
            if args.gauntlet {
                return Err(Error::setting("--gauntlet needs three or more agents"));
            }
            builder.pairing(a, b)
        }
        agents => builder.tournament(agents, args.gauntlet),
    };
    let plan = builder
        .games(args.games)
        .seed(args.seed)
        .ply_cap(args.ply_cap)
        .opening_plies(args.opening_plies)
        .sprt(args.sprt)
        .shard(shard(args.shard.as_deref())?)
        .build()?;
    let mut progress = Progress::new(!args.quiet, plan.pairings.len());
    let report = run_to_csv(&plan, &args.out, args.threads, &mut progress)?;
    drop(progress);
    say_report(&report, &args.out);
    let title = format!("Summary of {}", args.out.display());
    print(&report::markdown(&plan, &report.tally, &title, &[]))
}

/// The stderr lines after a run: what was repaired, then what was played.
fn say_report(report: &RunReport, out: &Path) {
    if let Some(note) = report.repaired.describe(out) {
        eprintln!("repaired: {note}");
    }
    eprintln!("{}", report.describe(out));
}

/// Runs `arena run`: the library conducts the experiment; the progress bar and the lines on
/// standard error are this program's.
pub fn run_experiment(args: &RunArgs) -> Result<()> {
    let exp = experiment::read(&args.experiment)?;
    let how = Conduct {
        results: args.results.clone(),
        threads: args.threads,
        verify: !args.no_verify,
    };
    let mut progress = Progress::new(!args.quiet, exp.plan.pairings.len());
    let done = conduct(&exp, &how, &mut progress)?;
    drop(progress);
    print(&format!("{}\n", done.markdown))
}

/// Runs `arena summary`: one streaming pass over the file (each row checked and replayed
/// once, folded into the figures and the metrics), then the figures.
pub fn summary(args: &SummaryArgs) -> Result<()> {
    let (plan, sidecar) = read_sidecar(&args.csv)?;
    let (tally, tail) = Tally::read(&args.csv, &plan)?;
    if let Some(note) = tail.describe(&args.csv) {
        eprintln!("note: {note}");
    }
    let mut notes = Vec::new();
    let missing = sidecar
        .merged
        .as_ref()
        .map_or(&[][..], |m| &m.missing_shards[..]);
    if let Some(m) = sidecar
        .merged
        .as_ref()
        .filter(|m| !m.missing_shards.is_empty())
    {
        notes.push(format!(
            "**Partial:** merged from shards {:?}; shards {:?} are missing ({} of {} planned games).",
            m.shards, m.missing_shards, m.games, m.planned
        ));
    }
    let title = format!("Summary of {}", args.csv.display());
    let tally = &tally;
    let mut md = report::markdown(&plan, tally, &title, &notes);
    md.push_str(&metrics::markdown(&plan, &tally.metrics()));
    if let Some(dir) = &args.out_dir {
        std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, &e))?;
        md.push_str(&study::run_figures(&plan, tally, dir)?);
        write_summary_files(dir, &md, &report::csv(&plan, tally, missing))?;
    }
    print(&md)
}

/// Runs `arena verdicts`: every pairing of every file, one family.
pub fn verdicts(args: &VerdictsArgs) -> Result<()> {
    let mut tests = Vec::new();
    for csv in &args.csvs {
        let (plan, _) = read_sidecar(csv)?;
        let (tally, tail) = Tally::read(csv, &plan)?;
        if let Some(note) = tail.describe(csv) {
            eprintln!("note: {note}");
        }
        let pairings = tally.pairings();
        let several = pairings.len() > 1;
        for p in pairings {
            let label = if several {
                format!("{} #{}", csv.display(), p.pairing)
            } else {
                csv.display().to_string()
            };
            let (a, b) = (&plan.agents[p.a].label, &plan.agents[p.b].label);
            tests.push((label, a.clone(), b.clone(), p.penta));
        }
    }
    print(&family::markdown(&family::family(tests)))
}

/// Runs `arena report`.
pub fn report(args: &ReportArgs) -> Result<()> {
    let game = AnyGame::parse(&args.game)?;
    let budget = ringside_arena::run::design::Budget::parse(&args.budget)?;
    let out = args.out.clone().unwrap_or_else(|| {
        std::path::Path::new("results")
            .join("reports")
            .join(ringside_arena::run::design::folder_name(&game.spec()))
    });
    let mut progress = Progress::new(!args.quiet, 1);
    let md = ringside_arena::run::design::report(
        &game,
        budget,
        args.seed,
        &out,
        args.threads,
        &mut progress,
    )?;
    drop(progress);
    eprintln!("report written to {}", out.join("report.md").display());
    print(&md)
}

/// Runs `arena merge`.
pub fn merge(args: &MergeArgs) -> Result<()> {
    let existing = if args.replace {
        merging::Existing::Replace
    } else {
        merging::Existing::Refuse
    };
    let report = merging::merge(&args.inputs, &args.out, existing)?;
    for note in &report.notes {
        eprintln!("note: {note}");
    }
    eprintln!(
        "{} games from {} files into {} ({} planned)",
        report.games,
        args.inputs.len(),
        args.out.display(),
        report.planned
    );
    if !report.missing_shards.is_empty() {
        let list: Vec<String> = report.missing_shards.iter().map(u64::to_string).collect();
        eprintln!(
            "warning: shard(s) {} missing: {} is partial (recorded in its settings file); merge again with them",
            list.join(", "),
            args.out.display()
        );
    }
    Ok(())
}

/// Runs `arena slurm-shard`.
pub fn slurm_shard(args: &SlurmShardArgs) -> Result<()> {
    let shard = slurm::shard_of_task(|name| std::env::var(name).ok(), &args.record)?;
    print(&format!("{shard}\n"))
}

/// Runs `arena replay`.
pub fn replay(args: &ReplayArgs) -> Result<()> {
    let (game, moves) = match (&args.from, args.id) {
        (Some(csv), Some(id)) => {
            let (plan, _) = read_sidecar(csv)?;
            let mut found = None;
            read_games_with(csv, &plan, &(), &mut |chunk| {
                if let Some(r) = chunk.iter().find(|r| r.row.id == id) {
                    found = Some(r.row.clone());
                }
                Ok(())
            })?;
            let row = found.ok_or_else(|| {
                Error::setting(format!("{} has no game with id {id}", csv.display()))
            })?;
            (row.game, row.moves)
        }
        _ => (
            args.game
                .clone()
                .expect("clap requires --game without --from"),
            args.moves
                .clone()
                .expect("clap requires --moves without --from"),
        ),
    };
    let style = ReplayStyle {
        json: args.json,
        every: args.every,
    };
    let typed = AnyGame::parse(&game)?;
    let shown = replay_moves(&typed, &moves, style)?;
    if let Some(file) = &args.svg {
        let svg = ringside_arena::figures::picture::svg_of_game(&typed, &moves, args.ply)?;
        ringside_arena::records::durable::write_atomically(file, svg.as_bytes())?;
    }
    if let Some(file) = &args.html {
        let title = match (&args.from, args.id) {
            (Some(csv), Some(id)) => format!("{game}: game {id} of {}", csv.display()),
            _ => game.clone(),
        };
        let page = ringside_arena::figures::picture::html_of_game(&typed, &moves, &title)?;
        ringside_arena::records::durable::write_atomically(file, page.as_bytes())?;
    }
    print(&shown)
}

/// Runs `arena playouts`.
pub fn playouts(args: &PlayoutsArgs) -> Result<()> {
    let started = Instant::now();
    let t = playouts::tally(
        &AnyGame::parse(&args.game)?,
        args.games,
        args.seed,
        args.threads,
        args.max_plies,
    )?;
    let seconds = started.elapsed().as_secs_f64();
    let mut line = format!(
        "games={} first={} second={} draws={} mean_plies={:.2} playouts_per_s={:.0}",
        t.games,
        t.first,
        t.second,
        t.draws,
        t.plies as f64 / t.games as f64,
        t.games as f64 / seconds
    );
    if args.max_plies.is_some() {
        line.push_str(&format!(" capped={}", t.capped));
    }
    print(&format!("{line}\n"))
}

/// Runs `arena think`.
pub fn think(args: &ThinkArgs) -> Result<()> {
    let t = thinking::think(
        &AnyGame::parse(&args.game)?,
        &args.agent,
        &args.moves,
        args.seed,
    )?;
    let seconds = t.stats.time.as_secs_f64().max(1e-9);
    print(&format!(
        "move={} iterations={} nodes={} depth={} time_ms={:.3} iterations_per_s={:.0} nodes_per_s={:.0}\n",
        t.mv,
        t.stats.iterations,
        t.stats.nodes,
        t.stats.depth,
        seconds * 1000.0,
        t.stats.iterations as f64 / seconds,
        t.stats.nodes as f64 / seconds
    ))
}

pub fn play(args: &PlayArgs) -> Result<()> {
    let table = ringside_arena::protocols::people::Table {
        game: &args.game,
        agent: &args.agent,
        person_first: !args.second,
        seed: args.seed,
        save: args.save.as_deref(),
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    ringside_arena::protocols::people::play(&table, &mut stdin.lock(), &mut stdout.lock())?;
    if let Some(file) = &args.save {
        eprintln!("saved to {}", file.display());
    }
    Ok(())
}

pub fn gtp(args: &GtpArgs) -> Result<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let coords = ringside_agents::gtp::Coords::from_name(&args.coords).ok_or_else(|| {
        Error::setting(format!(
            "--coords must be one of {}, not '{}'",
            ringside_agents::gtp::Coords::NAMES.join("|"),
            args.coords
        ))
    })?;
    ringside_arena::protocols::gtp::serve(
        &AnyGame::parse(&args.game)?,
        &args.agent,
        args.seed,
        coords,
        &mut stdin.lock(),
        &mut stdout.lock(),
    )
}

/// Runs `work` on a pool of `threads` workers (default: one per core).
fn on_threads<T: Send>(threads: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T> {
    let n = thread_count(threads)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| Error::setting(format!("cannot start {n} threads: {e}")))?;
    Ok(pool.install(work))
}

/// The weights `--fix` holds, `material` first unless `--free-material`.
fn texel_fixes(args: &TexelArgs) -> Result<Vec<(String, Option<f64>)>> {
    let mut fixes: Vec<(String, Option<f64>)> = Vec::new();
    for item in &args.fix {
        let (name, value) = match item.split_once('=') {
            None => (item.trim(), None),
            Some((name, v)) => match v.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => (name.trim(), Some(v)),
                _ => {
                    return Err(Error::setting(format!(
                        "--fix {item}: the value must be a finite number"
                    )));
                }
            },
        };
        if name.is_empty() || fixes.iter().any(|(n, _)| n == name) {
            return Err(Error::setting(format!(
                "--fix {item}: give each feature once, as NAME or NAME=VALUE"
            )));
        }
        fixes.push((name.to_string(), value));
    }
    if !args.free_material && !fixes.iter().any(|(n, _)| n == "material") {
        fixes.insert(0, ("material".to_string(), None));
    }
    Ok(fixes)
}

/// The positions a tuner keeps, from its flags and seed.
fn position_filter(
    p: &crate::cli::PositionArgs,
    seed: u64,
) -> ringside_arena::tune::texel::PositionFilter {
    ringside_arena::tune::texel::PositionFilter {
        skip_plies: p.skip_plies,
        per_game: p.per_game,
        drop_decided: p.drop_decided,
        validation_share: p.validation,
        seed,
    }
}

/// The linear evaluation `--eval` names.
fn linear_eval(name: &str) -> Result<ringside_agents::EvalKind> {
    use ringside_agents::EvalKind;
    match name {
        "material" => Ok(EvalKind::Material),
        "rich" => Ok(EvalKind::Rich),
        "tuned" => Ok(EvalKind::Tuned),
        other => Err(Error::setting(format!(
            "--eval must be material, rich or tuned, not '{other}'"
        ))),
    }
}

pub fn tune_texel(args: &TexelArgs) -> Result<()> {
    use ringside_agents::{EvalSpec, read_weights};
    use ringside_arena::tune::texel::FitOptions;
    use ringside_arena::tune::texel_run::{TexelRun, run_texel};
    let kind = linear_eval(&args.eval)?;
    let weights = match &args.weights {
        None => Default::default(),
        Some(path) => {
            read_weights(path).map_err(|e| Error::setting(format!("--weights {path}: {e}")))?
        }
    };
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(Error::setting(format!(
            "--l2 must be a finite number from 0 up, not {}",
            args.l2
        )));
    }
    let run = TexelRun {
        files: args.files.clone(),
        filter: position_filter(&args.positions, args.seed),
        eval: EvalSpec {
            kind,
            weights_file: args.weights.clone(),
            weights,
            overrides: Default::default(),
            net: None,
        },
        fit: FitOptions {
            iterations: args.iterations,
            l2: args.l2,
            scale: !args.no_scale,
            ..FitOptions::default()
        },
        leaf_depth: args.leaf_depth,
        lambda: args.lambda,
        fix: texel_fixes(args)?,
        out: args.out.clone(),
    };
    let outcome = on_threads(args.threads, || {
        run_texel(&run, |step| {
            eprintln!(
                "iteration {:>3}: training {:.6}, validation {:.6}",
                step.iteration, step.train_loss, step.validation_loss
            );
        })
    })??;
    let last = outcome.steps.last().expect("a fit has its start");
    let weights: Vec<String> = outcome
        .names
        .iter()
        .zip(&last.weights)
        .map(|(n, w)| format!("{n}={w:.4}"))
        .collect();
    print(&format!(
        "positions={} validation_positions={} k={:.4} train_loss={:.6} validation_loss={:.6} extract_s={:.2} fit_s={:.2} weights: {}\nwrote {}\n",
        outcome.positions.0,
        outcome.positions.1,
        outcome.k,
        last.train_loss,
        last.validation_loss,
        outcome.seconds.0,
        outcome.seconds.1,
        weights.join(" "),
        args.out.join("weights.json").display()
    ))
}

pub fn tune_net(args: &NetArgs) -> Result<()> {
    use ringside_agents::EvalSpec;
    use ringside_arena::tune::net::{Loss, TrainOptions};
    use ringside_arena::tune::net_run::{NET_FILE, NetRun, run_net};
    let kind = linear_eval(&args.eval)?;
    let run = NetRun {
        files: args.files.clone(),
        filter: position_filter(&args.positions, args.seed),
        eval: EvalSpec {
            kind,
            ..EvalSpec::default()
        },
        leaf_depth: args.leaf_depth,
        lambda: args.lambda,
        hidden: args.hidden,
        features: args.features,
        children: args.children,
        keep_searched: args.keep_searched,
        train: TrainOptions {
            loss: match args.loss.as_str() {
                "chance" => Loss::Chance,
                "logit" => Loss::Logit,
                other => {
                    return Err(Error::setting(format!(
                        "--loss must be chance or logit, not '{other}'"
                    )));
                }
            },
            epochs: args.epochs,
            batch: args.batch,
            rate: args.rate,
            patience: args.patience,
            seed: args.seed,
        },
        out: args.out.clone(),
    };
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(u64::from(args.epochs)), ProgressDrawTarget::stderr())
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} epochs eta {eta} {msg}")
            .expect("a valid template"),
    );
    bar.set_message("extracting positions");
    let outcome = on_threads(args.threads, || {
        run_net(&run, |epoch| {
            bar.set_position(u64::from(epoch.epoch));
            bar.set_message(format!(
                "training {:.6}, validation {:.6}",
                epoch.train_loss, epoch.validation_loss
            ));
        })
    })??;
    bar.finish_and_clear();
    let best = outcome
        .epochs
        .iter()
        .rfind(|e| e.best)
        .expect("the start counts as best");
    print(&format!(
        "positions={} validation_positions={} bytes_per_position={:.1} k={:.4} epochs={} best_epoch={} train_loss={:.6} validation_loss={:.6} start_validation_loss={:.6} net_texel_validation_loss={:.6} linear_validation_loss={:.6} extract_s={:.2} train_s={:.2}\nwrote {}\n",
        outcome.positions.0,
        outcome.positions.1,
        outcome.bytes_per_position,
        outcome.k,
        outcome.epochs.len() - 1,
        best.epoch,
        best.train_loss,
        best.validation_loss,
        outcome.epochs[0].validation_loss,
        outcome.net_loss.1,
        outcome.linear_loss.1,
        outcome.seconds.0,
        outcome.seconds.1,
        args.out.join(NET_FILE).display()
    ))
}

pub fn tune_spsa(args: &SpsaArgs) -> Result<()> {
    use ringside_agents::AgentSpec;
    use ringside_arena::tune::spsa::Param;
    use ringside_arena::tune::spsa_run::{SpsaSettings, run_spsa};
    let agent = AgentSpec::parse(&args.agent)
        .map_err(|e| Error::setting(format!("--agent '{}': {e}", args.agent)))?;
    let params = args
        .params
        .iter()
        .map(|p| Param::parse(p))
        .collect::<Result<Vec<_>>>()?;
    let settings = SpsaSettings {
        game: args.game.clone(),
        agent: agent.to_string(),
        agent_weights: agent.file_weights().cloned(),
        params,
        iterations: args.iterations,
        pairs_per_iteration: args.pairs,
        seed: args.seed,
        opening_plies: args.opening_plies,
        ply_cap: args.ply_cap,
        verify_games: args.verify_games,
    };
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(args.iterations), ProgressDrawTarget::stderr())
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} iterations {per_sec} eta {eta} θ: {msg}",
        )
        .expect("a valid template"),
    );
    let outcome = run_spsa(&settings, &args.out, args.threads, |record, s| {
        let theta: Vec<String> = s
            .params
            .iter()
            .zip(&record.theta)
            .map(|(p, t)| format!("{}={t:.4}", p.name))
            .collect();
        bar.set_position(record.iteration);
        bar.set_message(theta.join(" "));
    })?;
    bar.finish_and_clear();
    let (games, seconds) = outcome.games_played;
    let theta: Vec<String> = settings
        .params
        .iter()
        .zip(&outcome.theta)
        .map(|(p, t)| format!("{}={t:.4}", p.name))
        .collect();
    let mut text = format!(
        "iterations={} games={games} games_per_s={:.1} theta: {}\ntuned: {}\n",
        outcome.records.len(),
        games as f64 / seconds.max(1e-9),
        theta.join(" "),
        outcome.tuned
    );
    if let Some(v) = outcome.verification {
        let (w, d, l) = v.wdl;
        text.push_str(&format!(
            "verification: {} games, tuned W-D-L {w}-{d}-{l}, Elo {}\n",
            v.games,
            report::elo_text(v.elo)
        ));
    }
    text.push_str(&format!(
        "wrote {}\n",
        args.out.join("summary.md").display()
    ));
    print(&text)
}

pub fn features(args: &FeaturesArgs) -> Result<()> {
    use ringside_engine::registry::{GameVisitor, with_game};
    use ringside_engine::{Features, Game, MAX_FEATURES, Player};
    struct List<'a>(Option<&'a str>);
    impl GameVisitor for List<'_> {
        type Output = Result<String>;
        fn visit<G: Game + Features>(self, start: G) -> Result<String> {
            let mut text = "feature default_weight tuned_weight".to_string();
            let mut values = None;
            if let Some(moves) = self.0 {
                let state = ringside_arena::explore::position::play_moves(start.clone(), moves)?;
                let (mut a, mut b) = ([0.0; MAX_FEATURES], [0.0; MAX_FEATURES]);
                state.features(Player::ZERO, &mut a);
                state.features(Player::ONE, &mut b);
                text.push_str(&format!(
                    " {} {}",
                    state.player_name(Player::ZERO),
                    state.player_name(Player::ONE)
                ));
                values = Some((a, b));
            }
            text.push('\n');
            for (i, f) in start.feature_set().iter().enumerate() {
                let tuned = start.tuned_weight(i);
                text.push_str(&format!("{} {} {tuned:.4}", f.name, f.default_weight));
                if let Some((a, b)) = values {
                    text.push_str(&format!(" {} {}", a[i], b[i]));
                }
                text.push('\n');
            }
            if start.tuned_fit().is_none() {
                text.push_str(&format!(
                    "# {} has no tuned fit: eval=tuned plays the default (rich) weights\n",
                    start.name()
                ));
            }
            Ok(text)
        }
    }
    let text = with_game(&args.game, List(args.moves.as_deref()))??;
    print(&text)
}
