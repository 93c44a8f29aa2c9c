//! The tournament subcommands: `match`, `run`, `summary`, `merge`.

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

use crate::cli::{MatchArgs, MergeArgs, RunArgs, SummaryArgs};
use crate::error::CliError;
use crate::experiment::{self, Experiment, Published};
use crate::record::{GameRow, RowWriter, Settings, read_rows, read_sidecar, write_sidecar};
use crate::stats::{Wdl, Z95, wilson};
use crate::summary;
use crate::tournament::{self, RunReport};

/// Runs `arena match`.
pub fn run_match(args: &MatchArgs) -> Result<(), CliError> {
    experiment::check_games(args.games)?;
    if args.sprt.is_some() && args.agents.len() != 2 {
        return Err(CliError("--sprt needs exactly two agents".into()));
    }
    ringside_engine::registry::GameSpec::parse(&args.game).map_err(|e| CliError(e.reason))?;
    let groups = experiment::schedule(&args.agents, args.gauntlet);
    let (agents, pairings) = experiment::agents_and_pairings(&groups)?;
    let settings = Settings {
        game: args.game.clone(),
        agents,
        pairings,
        games_per_pairing: args.games,
        seed: args.seed,
        ply_cap: args.ply_cap,
        opening_plies: args.opening_plies,
        sprt: args.sprt,
        shard: args.shard,
    };
    let report = tournament::run(&settings, &args.out, args.threads, !args.quiet)?;
    eprintln!("{}", report_line(&report, &args.out));
    let rows = read_rows(&args.out)?;
    print!(
        "{}",
        summary::markdown(
            &settings,
            &rows,
            &format!("Summary of {}", args.out.display())
        )
    );
    Ok(())
}

fn report_line(report: &RunReport, out: &Path) -> String {
    let mut line = format!(
        "{} games played, {} already in {} ({:.2} s, {:.0} games/s)",
        report.played,
        report.resumed,
        out.display(),
        report.seconds,
        report.played as f64 / report.seconds.max(1e-9)
    );
    if let Some(d) = report.sprt {
        let _ = write!(line, "; SPRT: {d}");
    }
    line
}

/// Runs `arena run`.
pub fn run_experiment(args: &RunArgs) -> Result<(), CliError> {
    let exp = experiment::read(&args.experiment)?;
    let dir = args.results.join(&exp.name);
    std::fs::create_dir_all(&dir)
        .map_err(|e| CliError(format!("cannot create {}: {e}", dir.display())))?;
    let games = dir.join("games.csv");
    let report = tournament::run(&exp.settings, &games, args.threads, !args.quiet)?;
    eprintln!("{}", report_line(&report, &games));
    let rows = read_rows(&games)?;
    let md = write_summaries(
        &exp.settings,
        &rows,
        &dir,
        &format!("Experiment {}", exp.name),
        Some(&exp),
    )?;
    println!("{md}");
    Ok(())
}

/// Writes summary.md and summary.csv into `dir`; returns the Markdown.
fn write_summaries(
    settings: &Settings,
    rows: &[GameRow],
    dir: &Path,
    title: &str,
    exp: Option<&Experiment>,
) -> Result<String, CliError> {
    let mut md = summary::markdown(settings, rows, title);
    if let Some(exp) = exp.filter(|e| !e.published.is_empty()) {
        md.push_str(&published_comparison(settings, rows, &exp.published));
    }
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))
    };
    write("summary.md", &md)?;
    write("summary.csv", &summary::csv(settings, rows))?;
    Ok(md)
}

/// A table setting each published result beside ours: the match's first agent playing the
/// first colour against its second agent, as the published table seats them.
fn published_comparison(settings: &Settings, rows: &[GameRow], published: &[Published]) -> String {
    let mut md = String::from("## Beside the published figures\n\n");
    md.push_str("Each line compares the first agent of the match, playing the first colour, against the second (as the published table seats them): wins of the first agent, with 95% Wilson intervals. In a self-pairing every game counts, from its first mover's side.\n\n");
    md.push_str("| match | source | published W-D-L | published first-agent wins | ours W-D-L (first agent moving first) | our first-agent wins | all our games of the pairing (first agent's view) |\n|---|---|---|---|---|---|---|\n");
    for p in published {
        let (a, b) = settings.pairings[p.match_index];
        let mut seated = Wdl::default();
        let mut all = Wdl::default();
        for row in rows.iter().filter(|r| r.pairing == p.match_index) {
            if a == b {
                // A self-pairing: the "first agent moving first" is every game's first mover.
                all.add(row.first_points());
                seated.add(row.first_points());
                continue;
            }
            let points = row.pairing_first_points();
            all.add(points);
            if row.id % 2 == 0 {
                seated.add(points);
            }
        }
        let rate = |w: u64, n: u64| {
            let (lo, hi) = wilson(w as f64 / n.max(1) as f64, n as f64, Z95);
            format!(
                "{:.1}% [{:.1}, {:.1}]",
                100.0 * w as f64 / n.max(1) as f64,
                100.0 * lo,
                100.0 * hi
            )
        };
        let _ = writeln!(
            md,
            "| {} `{}` vs `{}` | {} | {}-{}-{} | {} | {}-{}-{} | {} | {}-{}-{}, score {:.1}% |",
            p.match_index,
            settings.agents[a],
            settings.agents[b],
            p.source,
            p.first_wins,
            p.draws,
            p.second_wins,
            rate(p.first_wins, p.games),
            seated.w,
            seated.d,
            seated.l,
            rate(seated.w, seated.n()),
            all.w,
            all.d,
            all.l,
            100.0 * all.score()
        );
    }
    md.push('\n');
    md
}

/// Runs `arena summary`.
pub fn summary(args: &SummaryArgs) -> Result<(), CliError> {
    let sidecar = read_sidecar(&args.csv)?;
    let rows = read_rows(&args.csv)?;
    let title = format!("Summary of {}", args.csv.display());
    let md = match &args.out_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError(format!("cannot create {}: {e}", dir.display())))?;
            write_summaries(&sidecar.settings, &rows, dir, &title, None)?
        }
        None => summary::markdown(&sidecar.settings, &rows, &title),
    };
    print!("{md}");
    Ok(())
}

/// Runs `arena merge`.
pub fn merge(args: &MergeArgs) -> Result<(), CliError> {
    if args.out.exists() {
        return Err(CliError(format!(
            "{} exists already; merge writes a new file",
            args.out.display()
        )));
    }
    let mut settings: Option<Settings> = None;
    let mut rows: Vec<GameRow> = Vec::new();
    let mut ids = BTreeSet::new();
    for input in &args.inputs {
        let mut s = read_sidecar(input)?.settings;
        s.shard = None;
        match &settings {
            None => settings = Some(s),
            Some(first) if *first != s => {
                return Err(CliError(format!(
                    "{} was made with other settings than {}",
                    input.display(),
                    args.inputs[0].display()
                )));
            }
            Some(_) => {}
        }
        for row in read_rows(input)? {
            if !ids.insert(row.id) {
                return Err(CliError(format!(
                    "game {} appears in more than one input ({})",
                    row.id,
                    input.display()
                )));
            }
            rows.push(row);
        }
    }
    let settings = settings.expect("merge has at least one input");
    rows.sort_by_key(|r| r.id);
    write_sidecar(&args.out, &settings)?;
    let mut writer = RowWriter::open(&args.out)?;
    for row in &rows {
        writer.write(row)?;
    }
    writer.finish()?;
    eprintln!(
        "{} games from {} files into {}",
        rows.len(),
        args.inputs.len(),
        args.out.display()
    );
    Ok(())
}
