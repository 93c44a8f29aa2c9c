//! The subcommands: flags turned into library calls, results into text.

use std::path::Path;
use std::time::Instant;

use ringside_arena::Error;
use ringside_arena::explore::position::{ReplayStyle, replay as replay_moves};
use ringside_arena::explore::{features, playouts, think as thinking};
use ringside_arena::figures::summary::Tally;
use ringside_arena::figures::{family, metrics, report, study};
use ringside_arena::plan::{PlanBuilder, Shard};
use ringside_arena::records::games_csv::find_row;
use ringside_arena::records::merge as merging;
use ringside_arena::records::sidecar::read_sidecar;
use ringside_arena::run::conduct::{Conduct, conduct, write_summary_files};
use ringside_arena::run::runner::{RunReport, run_to_csv};
use ringside_arena::run::{experiment, slurm};
use ringside_engine::registry::AnyGame;

use crate::cli::{
    BalanceArgs, ErrorsArgs, FeaturesArgs, GtpArgs, MatchArgs, MergeArgs, PlayArgs, PlayoutsArgs,
    ReplayArgs, ReportArgs, RunArgs, ShardArg, SlurmShardArgs, SolveArgs, SummaryArgs, ThinkArgs,
    VerdictsArgs,
};
use crate::output::print;
use crate::progress::Progress;

type Result<T> = std::result::Result<T, Error>;

/// Resolves `--shard`: `auto` from a Slurm job array's variables.
fn shard(arg: Option<ShardArg>) -> Result<Option<Shard>> {
    match arg {
        None => Ok(None),
        Some(ShardArg::Auto) => slurm::shard_of_array(|name| std::env::var(name).ok()).map(Some),
        Some(ShardArg::Given(shard)) => Ok(Some(shard)),
    }
}

/// Runs `arena match`.
pub fn run_match(args: &MatchArgs) -> Result<()> {
    let builder = PlanBuilder::for_game(args.game.clone());
    let builder = match args.agents.as_slice() {
        [a, b] => {
            if args.gauntlet {
                return Err(Error::setting("--gauntlet needs three or more agents"));
            }
            builder.pairing(a, b)
        }
        agents => builder.tournament(agents, args.gauntlet),
    };
    for (typed, first) in builder.merged() {
        eprintln!(
            "note: `{typed}` reads as the same player as `{first}` (its options change nothing here): they play as one agent"
        );
    }
    let plan = builder
        .games(args.games)
        .seed(args.seed)
        .ply_cap(args.ply_cap)
        .opening_plies(args.opening_plies)
        .time_margin_ms(args.time_margin_ms)
        .sprt(args.sprt)
        .shard(shard(args.shard)?)
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
    let (tests, notes) = family::of_files(&args.csvs)?;
    for note in notes {
        eprintln!("note: {note}");
    }
    print(&family::markdown(&tests))
}

/// Runs `arena report`.
pub fn report(args: &ReportArgs) -> Result<()> {
    let game = &args.game;
    let budget = ringside_arena::run::design::Budget::parse(&args.budget)?;
    let out = args.out.clone().unwrap_or_else(|| {
        std::path::Path::new("results")
            .join("reports")
            .join(ringside_arena::run::design::folder_name(&game.spec()))
    });
    let mut progress = Progress::new(!args.quiet, 1);
    let md = ringside_arena::run::design::report(
        game,
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
            let row = find_row(csv, &plan, id)?.ok_or_else(|| {
                Error::setting(format!("{} has no game with id {id}", csv.display()))
            })?;
            // The row's own game: a game whose first player is drawn names it there.
            (AnyGame::parse(&row.game)?, row.moves)
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
    let shown = replay_moves(&game, &moves, style)?;
    if let Some(file) = &args.svg {
        let svg = ringside_arena::figures::picture::svg_of_game(&game, &moves, args.ply)?;
        ringside_arena::records::durable::write_atomically(file, svg.as_bytes())?;
    }
    if let Some(file) = &args.html {
        let title = match (&args.from, args.id) {
            (Some(csv), Some(id)) => format!("{}: game {id} of {}", game.spec(), csv.display()),
            _ => game.spec(),
        };
        let page = ringside_arena::figures::picture::html_of_game(&game, &moves, &title)?;
        ringside_arena::records::durable::write_atomically(file, page.as_bytes())?;
    }
    print(&shown)
}

/// Runs `arena playouts`.
pub fn playouts(args: &PlayoutsArgs) -> Result<()> {
    let started = Instant::now();
    let t = playouts::tally(
        &args.game,
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
    let t = thinking::think(&args.game, &args.agent, &args.moves, args.seed)?;
    let seconds = t.stats.time.as_secs_f64().max(1e-9);
    let mut line = format!(
        "move={} iterations={} nodes={} depth={} time_ms={:.3} iterations_per_s={:.0} nodes_per_s={:.0}",
        t.mv,
        t.stats.iterations,
        t.stats.nodes,
        t.stats.depth,
        seconds * 1000.0,
        t.stats.iterations as f64 / seconds,
        t.stats.nodes as f64 / seconds
    );
    if let Some(value) = t.stats.value {
        line.push_str(&format!(" value={value:.4}"));
    }
    if args.agent.spec.kind() == "solver" {
        // Whether the move came from an exact solve, or from the fallback when it gave up.
        line.push_str(&format!(" exact={}", t.stats.exact));
    }
    print(&format!("{line}\n"))
}

/// Runs `arena solve`.
pub fn solve(args: &SolveArgs) -> Result<()> {
    let budget = ringside_agents::solve::Budget {
        time: args.time.map(std::time::Duration::from_secs_f64),
        nodes: args.nodes,
        memory: usize::try_from(args.memory << 20).unwrap_or(usize::MAX),
        exact: !args.sign_only,
        method: crate::cli::solve_method(&args.method),
    };
    let solved = ringside_arena::explore::solve::solve(&args.game, &args.moves, &budget)?;
    print(&format!("{}\n", solved.line()))
}

/// Runs `arena errors`.
pub fn errors(args: &ErrorsArgs) -> Result<()> {
    use ringside_arena::explore::errors::{Measure, measure};
    let budget = ringside_agents::solve::Budget {
        time: args.solve_time.map(std::time::Duration::from_secs_f64),
        nodes: args.solve_nodes,
        memory: usize::try_from(args.memory << 20).unwrap_or(usize::MAX),
        exact: false,
        method: crate::cli::solve_method(&args.method),
    };
    let m = Measure {
        game: &args.game,
        agent: &args.agent,
        opponent: args.opponent.as_ref(),
        games: args.games,
        opening_plies: args.opening_plies,
        seed: args.seed,
        budget,
    };
    let mut csv = String::from("game,ply,before,after,error\n");
    let word = |v: Option<i32>| v.map_or(String::new(), |v| v.to_string());
    let tally = measure(&m, &mut |j| {
        csv.push_str(&format!(
            "{},{},{},{},{}\n",
            j.game,
            j.ply,
            word(j.before),
            word(j.after),
            if j.solved() {
                u8::from(j.is_error()).to_string()
            } else {
                String::new()
            }
        ));
    })?;
    if let Some(out) = &args.out {
        let tmp = out.with_extension("csv.tmp");
        std::fs::write(&tmp, &csv).map_err(|e| Error::io("write", &tmp, &e))?;
        std::fs::rename(&tmp, out).map_err(|e| Error::io("rename to", out, &e))?;
    }
    print(&format!("{}\n", tally.line()))
}

/// Runs `arena balance`.
pub fn balance(args: &BalanceArgs) -> Result<()> {
    use ringside_arena::run::balance::{Settings, describe_with_swaps, families, run};
    let depths: Vec<u32> = args
        .depths
        .0
        .iter()
        .map(|&d| u32::try_from(d).unwrap_or(u32::MAX))
        .collect();
    let settings = Settings {
        game: args.game.clone(),
        families: families(
            &args.mcts.0,
            &depths,
            (args.ab_nodes > 0).then_some(args.ab_nodes),
        ),
        games: args.games,
        alpha: args.alpha,
        margin: args.margin,
        seed: args.seed,
        threads: args.threads,
        dir: args.out.clone(),
        cell_seconds: args.cell_seconds,
        play: !args.read_only,
        extend: true,
        perfect: args.perfect,
    };
    let (cells, verdict) = run(&settings, &mut |c| eprintln!("{}", c.line()))?;
    print(&describe_with_swaps(&settings, &verdict, &cells))
}

/// Runs `arena play`.
pub fn play(args: &PlayArgs) -> Result<()> {
    let game = &args.game;
    let table = ringside_arena::protocols::people::Table {
        game,
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

/// Runs `arena gtp`.
pub fn gtp(args: &GtpArgs) -> Result<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    ringside_arena::protocols::gtp::serve(
        &args.game,
        &args.agent,
        args.seed,
        args.coords,
        &mut stdin.lock(),
        &mut stdout.lock(),
    )
}

/// Runs `arena features`.
pub fn features(args: &FeaturesArgs) -> Result<()> {
    print(&features::table(&args.game, args.moves.as_deref())?)
}

/// Runs `arena serve` until Ctrl-C; the first line out says where.
#[cfg(feature = "serve")]
pub fn serve(args: &crate::cli::ServeArgs) -> Result<()> {
    use std::io::Write as _;
    let config = ringside_arena::serve::ServeConfig {
        folders: args.folders.clone(),
        addr: std::net::SocketAddr::new(args.bind, args.port),
    };
    ringside_arena::serve::serve(&config, |addr| {
        println!("serving {} on http://{addr}/ (Ctrl-C stops)", {
            let names: Vec<String> = args
                .folders
                .iter()
                .map(|f| f.display().to_string())
                .collect();
            names.join(", ")
        });
        let _ = std::io::stdout().flush();
    })
}
