//! Running a plan: its games played in parallel, each finished game handed to the caller on
//! the calling thread (an [`Observer`]), into a resumable games CSV ([`run_to_csv`]) or into
//! memory ([`run_in_memory`]). A run with an SPRT stops once it decides.
//!
//! A CSV run keeps no rows: each finished game is written, folded into the run's [`Tally`]
//! and dropped, and the finished ids are an [`IdSet`] of runs. Memory stays flat however many
//! games the run plans or plays. Opening a file for a run ([`open_games_with`]) reads it in
//! one streaming pass that checks each row, replays it once (gathering the metrics' facts on
//! request), folds it, and on request plays it again with the agents to check that it
//! reproduces.
//!
//! Game `id`'s result depends only on the plan and `id`, never on the thread count or the
//! order games finish in (agents with a time budget excepted): workers take ids from one
//! shared list, and the calling thread writes rows as they come.

use crate::records::lock::OutputLock;
use std::path::Path;
use std::time::Instant;

use crate::error::{Error, Result};
use crate::figures::metrics::{GameFacts, MetricsSink};
use crate::figures::sprt::{Decision, Sprt};
use crate::figures::summary::Tally;
use crate::plan::RunPlan;
use crate::records::games_csv::{RowWriter, Tail, read_games_with};
use crate::records::idset::IdSet;
use crate::records::row::GameRow;
use crate::records::sidecar::{Sidecar, read_sidecar, sidecar_path, write_sidecar};
use crate::run::pool::{Observer, check_seats, play_ids, thread_count};
use crate::run::verify::{Reproducer, VerifyReport};

/// How a run ended.
#[derive(Debug, Clone)]
pub struct RunReport {
    /// Games already in the file when the run started.
    pub resumed: u64,
    /// Games played now.
    pub played: u64,
    /// The SPRT's decision, if it made one.
    pub sprt: Option<Decision>,
    /// Whether the observer stopped the run before its end ([`Observer::interrupted`]).
    pub interrupted: bool,
    /// Seconds spent playing and writing the new games.
    pub seconds: f64,
    /// What was repaired at the end of the file before appending.
    pub repaired: Tail,
    /// The figures of every game in the file after the run, folded (the rows are in the
    /// file, not in memory).
    pub tally: Tally,
}

/// The games of the plan's shard that are not in `done`, in id order, without listing them
/// up front.
fn pending<'a>(plan: &'a RunPlan, done: &'a IdSet) -> impl Iterator<Item = u64> + Send + 'a {
    let (first_pair, step) = plan.shard.map_or((0, 1), |s| (s.index - 1, s.count));
    let pairs = plan.total_games() / 2;
    (0..pairs.saturating_sub(first_pair).div_ceil(step))
        .map(move |k| first_pair + k * step)
        .flat_map(|pair| [2 * pair, 2 * pair + 1])
        .filter(move |&id| !done.contains(id))
}

/// Plays the games of `plan` that `path` lacks, appending their rows; creates `path` and its
/// settings sidecar if they do not exist. Refuses a file made with other settings; repairs a
/// torn last line or a missing final newline (see [`RunReport::repaired`]). The same as
/// [`open_games`] then [`continue_run`], without the metrics' facts.
pub fn run_to_csv(
    plan: &RunPlan,
    path: &Path,
    threads: Option<usize>,
    observer: &mut dyn Observer,
) -> Result<RunReport> {
    thread_count(threads)?;
    check_seats(plan)?;
    let existing = open_games(plan, path)?;
    continue_run(plan, path, existing, threads, observer)
}

/// A games file opened for a run: what it already holds, folded; nothing a row.
#[derive(Debug)]
pub struct Opened {
    /// The ids of its games.
    pub ids: IdSet,
    /// Its games' figures (with the metrics when they were asked for).
    pub tally: Tally,
    /// The SPRT fed with its games, if the plan has one.
    pub sprt: Option<Sprt>,
    /// What followed its last complete line.
    pub tail: Tail,
    /// Whether the metrics' facts were gathered (and so are gathered for new games too).
    pub facts: bool,
    /// The reproduction of its games, when asked for and the run was finished.
    pub verified: Option<VerifyReport>,
    /// The lock that makes this process the file's one writer, held until the run is done
    /// (see [`crate::records::lock`]).
    pub lock: OutputLock,
}

/// How to open a games file: what to gather from the one pass over it.
pub struct Reading<'a> {
    /// Gather the metrics' facts from each row's replay.
    pub facts: bool,
    /// Play each recorded game again on these threads and compare it with its row, telling
    /// the observer of each (agents that decide by the clock are not checked). The caller
    /// asks for it on a finished run ([`is_finished`]).
    pub verify: Option<(Option<usize>, &'a mut dyn Observer)>,
}

/// The games `path` already holds for `plan`, every row checked (moves replayed), folded; for a
/// new file, writes its settings sidecar. Refuses a folder, rows without a sidecar, and a file
/// made with other settings.
pub fn open_games(plan: &RunPlan, path: &Path) -> Result<Opened> {
    open_games_with(
        plan,
        path,
        Reading {
            facts: false,
            verify: None,
        },
    )
}

/// Whether `path` holds a finished run of `plan`, by counting its lines (cheap: no row is
/// parsed): when a caller asks [`Reading::verify`] to play its games again.
pub fn is_finished(plan: &RunPlan, path: &Path) -> Result<bool> {
    use std::io::Read;
    let Ok(mut file) = std::fs::File::open(path) else {
        return Ok(false);
    };
    let mut buffer = vec![0u8; 1 << 20];
    let (mut lines, mut last) = (0u64, b'\n');
    loop {
        let n = file
            .read(&mut buffer)
            .map_err(|e| Error::io("read", path, &e))?;
        if n == 0 {
            break;
        }
        lines += buffer[..n].iter().filter(|&&b| b == b'\n').count() as u64;
        last = buffer[n - 1];
    }
    // The header is a line; a last row without its newline may be a complete game.
    let rows = (lines + u64::from(last != b'\n')).saturating_sub(1);
    Ok(rows > 0 && rows >= plan.games_in_shard())
}

/// [`open_games`], gathering what `reading` asks for in the same pass.
pub fn open_games_with(plan: &RunPlan, path: &Path, reading: Reading<'_>) -> Result<Opened> {
    if path.is_dir() {
        return Err(Error::setting(format!(
            "{} is a folder; name a games file such as {}",
            path.display(),
            path.join("games.csv").display()
        )));
    }
    // Before anything is read: a second writer must not read what the first is appending to.
    let lock = OutputLock::take(path)?;
    let mut opened = Opened {
        ids: IdSet::new(),
        tally: Tally::new(plan),
        sprt: plan.sprt.map(Sprt::new),
        tail: Tail::Clean,
        facts: reading.facts,
        verified: None,
        lock,
    };
    let has_rows = std::fs::metadata(path)
        .map(|m| m.len() > 0)
        .unwrap_or(false);
    if !has_rows {
        write_sidecar(path, &Sidecar::new(plan))?;
        return Ok(opened);
    }
    if !sidecar_path(path).exists() {
        return Err(Error::corrupt(format!(
            "{} holds games but has no settings file {} beside it; use another games file",
            path.display(),
            sidecar_path(path).display()
        )));
    }
    let (previous, _) = read_sidecar(path)?;
    let differences = previous.differences(plan);
    if !differences.is_empty() {
        return Err(Error::new(
            crate::ErrorKind::OtherSettings,
            format!(
                "{} was made with other settings ({}); use another games file or the same settings",
                path.display(),
                differences.join(", ")
            ),
        ));
    }
    let mut reproducer = reading
        .verify
        .map(|(threads, observer)| Reproducer::new(plan, threads, observer, plan.games_in_shard()));
    let (tally, sprt) = (&mut opened.tally, &mut opened.sprt);
    let read = read_games_with(
        path,
        plan,
        &reading.facts.then_some(MetricsSink),
        &mut |chunk| {
            for r in chunk {
                tally.add(&r.row, r.gathered.as_ref());
                if let Some(s) = sprt.as_mut() {
                    s.add(&r.row);
                }
            }
            match reproducer.as_mut() {
                Some(rep) => rep.check_read(plan, chunk),
                None => Ok(()),
            }
        },
    )?;
    opened.ids = read.ids;
    opened.tail = read.tail;
    opened.verified = reproducer.map(Reproducer::finish);
    Ok(opened)
}

/// Plays the games of `plan` that `existing` (what [`open_games`] gave for `path`) lacks,
/// appending their rows to `path` after repairing its end.
pub fn continue_run(
    plan: &RunPlan,
    path: &Path,
    existing: Opened,
    threads: Option<usize>,
    observer: &mut dyn Observer,
) -> Result<RunReport> {
    let Opened {
        ids: done,
        mut tally,
        mut sprt,
        tail,
        facts,
        // Held to the end of the run.
        lock: _lock,
        ..
    } = existing;
    let resumed = done.len();
    let mut report = RunReport {
        resumed,
        played: 0,
        sprt: sprt.as_ref().and_then(Sprt::decision),
        interrupted: false,
        seconds: 0.0,
        repaired: tail.clone(),
        tally: Tally::default(),
    };
    let writer = RowWriter::open(path, plan, &tail)?;
    if report.sprt.is_some() {
        report.tally = tally;
        return Ok(report);
    }
    observer.started(resumed, plan.games_in_shard().saturating_sub(resumed));
    let started = Instant::now();
    let writer = std::cell::RefCell::new(writer);
    let mut decision = None;
    let mut interrupted = false;
    let mut take = |row: GameRow, row_facts: Option<GameFacts>| -> Result<bool> {
        let row = writer.borrow().as_kept(row);
        writer.borrow_mut().write(&row)?;
        if let Some(fault) = &row.fault {
            append_fault(path, row.id, fault)?;
        }
        observer.finished(&row);
        tally.add(&row, row_facts.as_ref());
        interrupted |= observer.interrupted();
        Ok(feed(&mut sprt, &mut decision, &row) || interrupted)
    };
    let mut flush = || writer.borrow_mut().flush();
    report.played = play_ids(
        plan,
        pending(plan, &done),
        threads,
        facts,
        Some(path),
        &mut take,
        &mut flush,
    )?;
    report.sprt = decision;
    report.interrupted = interrupted;
    report.seconds = started.elapsed().as_secs_f64();
    report.tally = tally;
    Ok(report)
}

/// The log beside a games CSV where outside engines' faults go, each with the engine's last
/// stderr lines: `games.csv` → `games.csv.faults.log`.
#[must_use]
pub fn fault_log_path(csv: &Path) -> std::path::PathBuf {
    let mut name = csv.as_os_str().to_owned();
    name.push(".faults.log");
    name.into()
}

/// Appends game `id`'s fault to the log beside `csv`, flushed before the call returns.
fn append_fault(csv: &Path, id: u64, fault: &str) -> Result<()> {
    use std::io::Write;
    let log = fault_log_path(csv);
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .and_then(|mut f| {
            writeln!(f, "game {id}: {fault}\n")?;
            f.sync_data()
        })
        .map_err(|e| {
            Error::new(
                crate::ErrorKind::Io,
                format!("{}: cannot write: {e}", log.display()),
            )
        })
}

/// Feeds an SPRT, if there is one; true once it has decided (the run should stop).
fn feed(sprt: &mut Option<Sprt>, decision: &mut Option<Decision>, row: &GameRow) -> bool {
    if let Some(s) = sprt.as_mut() {
        s.add(row);
        if decision.is_none() {
            *decision = s.decision();
        }
    }
    decision.is_some()
}

/// Plays the games of `plan`'s shard into memory, no file involved; rows come back in id
/// order. An SPRT in the plan stops the run as it would a CSV run.
pub fn run_in_memory(
    plan: &RunPlan,
    threads: Option<usize>,
    observer: &mut dyn Observer,
) -> Result<Vec<GameRow>> {
    let none = IdSet::new();
    let mut rows = Vec::new();
    let mut sprt = plan.sprt.map(Sprt::new);
    let mut decision = None;
    observer.started(0, plan.games_in_shard());
    let mut take = |row: GameRow, _| -> Result<bool> {
        observer.finished(&row);
        let stop = feed(&mut sprt, &mut decision, &row);
        rows.push(row);
        Ok(stop)
    };
    play_ids(
        plan,
        pending(plan, &none),
        threads,
        false,
        None,
        &mut take,
        &mut || Ok(()),
    )?;
    rows.sort_by_key(|r| r.id);
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{PlanBuilder, Shard};

    #[test]
    fn pending_walks_the_shard_by_pairs_and_skips_done_games() {
        let mut plan = PlanBuilder::new("rin:size=6")
            .pairing("random", "random")
            .games(10)
            .build()
            .unwrap();
        let mut done = IdSet::new();
        done.insert(1);
        done.insert(4);
        assert_eq!(
            pending(&plan, &done).collect::<Vec<_>>(),
            vec![0, 2, 3, 5, 6, 7, 8, 9]
        );
        plan.shard = Shard::new(2, 3);
        assert_eq!(
            pending(&plan, &IdSet::new()).collect::<Vec<_>>(),
            vec![2, 3, 8, 9]
        );
    }
}
