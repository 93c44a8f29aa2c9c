//! Conducting an experiment (`arena run`): every games file opened in one pass (each row
//! checked and replayed once, the metrics' facts gathered by that replay; a finished run's
//! games played again with their agents to check that they reproduce), the missing games
//! played, then the summary, metrics and figures written beside the games. A front end (the
//! binary's progress bar, a notebook) hears of it through a [`Conductor`]; nothing here
//! prints.
//!
//! For a plain experiment: `results/<name>/games.csv`, `summary.md`, `summary.csv`,
//! `lengths.svg` (and `ratings.svg`). For a sweep: each cell's run in
//! `results/<name>/cells/<cell>/`, then the study ([`crate::figures::study`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::error::{Error, ErrorKind, Result};
use crate::figures::{metrics, report, study};
use crate::plan::RunPlan;
use crate::plan::sweep::Sweep;
use crate::records::durable::write_atomically;
use crate::run::experiment::Experiment;
use crate::run::pool::{Observer, thread_count};
use crate::run::runner::{Opened, Reading, RunReport, continue_run, is_finished, open_games_with};
use crate::run::verify::VerifyReport;

/// A stage of an experiment, for a front end's progress display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// Recorded games are played again to check them; `games` of `pairings` pairings.
    Verify {
        /// Games to play again.
        games: u64,
        /// Pairings of the run.
        pairings: usize,
    },
    /// Missing games are played: `games` in all (a sweep's every cell), of `pairings`
    /// pairings (a sweep's matches).
    Play {
        /// Games to play.
        games: u64,
        /// Pairings (matches).
        pairings: usize,
    },
    /// A sweep's cell starts its games.
    Cell {
        /// The cell's label.
        label: String,
    },
    /// The games are done; figures follow.
    Done,
}

/// What an experiment tells its front end: each game (as an [`Observer`]), the stages, and
/// lines for people.
pub trait Conductor: Observer {
    /// A stage begins.
    fn phase(&mut self, _phase: Phase) {}
    /// A line for people: what is being checked, what was repaired, what was found.
    fn note(&mut self, _line: &str) {}
}

/// How to conduct an experiment.
#[derive(Debug, Clone)]
pub struct Conduct {
    /// The folder results go under (`results/`); the experiment's own folder is made in it.
    pub results: PathBuf,
    /// Worker threads (one per core if `None`).
    pub threads: Option<usize>,
    /// Play a finished run's games again to check that they reproduce.
    pub verify: bool,
}

/// What an experiment did.
#[derive(Debug, Clone, PartialEq)]
pub struct Conducted {
    /// The summary as Markdown (also written to `summary.md`).
    pub markdown: String,
    /// Games played now.
    pub played: u64,
    /// Games already recorded.
    pub resumed: u64,
    /// Games played again and found as recorded.
    pub reproduced: u64,
}

/// Conducts `exp`: resumes or verifies its runs, plays what is missing, writes its summary,
/// metrics and figures. A game that does not reproduce is an error
/// ([`ErrorKind::NotReproduced`]).
pub fn conduct(
    exp: &Experiment,
    how: &Conduct,
    conductor: &mut dyn Conductor,
) -> Result<Conducted> {
    thread_count(how.threads)?;
    let dir = how.results.join(&exp.name);
    if let Some(sweep) = &exp.sweep {
        return conduct_sweep(&exp.name, sweep, &dir, how, conductor);
    }
    create_dir(&dir)?;
    let games = dir.join("games.csv");
    let (existing, reproduced) = open_checked(&exp.plan, &games, how, conductor)?;
    let verified = existing.verified.is_some();
    let report = continue_run(&exp.plan, &games, existing, how.threads, conductor)?;
    conductor.phase(Phase::Done);
    if !verified || report.played > 0 {
        conductor.note(&report.describe(&games));
    }
    let tally = &report.tally;
    let mut md = report::markdown(&exp.plan, tally, &format!("Experiment {}", exp.name), &[]);
    if !exp.published.is_empty() {
        md.push_str(&report::published_comparison(
            &exp.plan,
            tally,
            &exp.published,
        ));
    }
    md.push_str(&metrics::markdown(&exp.plan, &tally.metrics()));
    md.push_str(&study::run_figures(&exp.plan, tally, &dir)?);
    write_summary_files(&dir, &md, &report::csv(&exp.plan, tally, &[]))?;
    Ok(Conducted {
        markdown: md,
        played: report.played,
        resumed: report.resumed,
        reproduced,
    })
}

/// A sweep: every cell opened and checked first (finished cells verified in the same pass),
/// then the missing games of every cell as one stage, then the study.
fn conduct_sweep(
    name: &str,
    sweep: &Sweep,
    dir: &Path,
    how: &Conduct,
    conductor: &mut dyn Conductor,
) -> Result<Conducted> {
    let mut opened = Vec::with_capacity(sweep.cells.len());
    let mut reproduced = 0;
    for cell in &sweep.cells {
        let cell_dir = dir.join("cells").join(&cell.folder);
        create_dir(&cell_dir)?;
        let games = cell_dir.join("games.csv");
        let (existing, again) = open_checked(&cell.plan, &games, how, conductor)?;
        reproduced += again;
        opened.push((cell, cell_dir, games, existing));
    }
    let pending: u64 = opened
        .iter()
        .map(|(cell, _, _, existing)| {
            cell.plan
                .games_in_shard()
                .saturating_sub(existing.ids.len())
        })
        .sum();
    conductor.phase(Phase::Play {
        games: pending,
        pairings: sweep.match_names.len(),
    });
    let started = Instant::now();
    let (mut played, mut resumed) = (0, 0);
    let mut measured = Vec::with_capacity(opened.len());
    for (i, (cell, cell_dir, games, existing)) in opened.into_iter().enumerate() {
        if conductor.interrupted() {
            // The cells played so far are written; the study waits for a complete grid.
            conductor.phase(Phase::Done);
            return Ok(Conducted {
                markdown: format!(
                    "Experiment {name} interrupted after {played} new games; run it again to resume.\n"
                ),
                played,
                resumed,
                reproduced,
            });
        }
        conductor.phase(Phase::Cell {
            label: cell.label.clone(),
        });
        let report = continue_run(&cell.plan, &games, existing, how.threads, conductor)?;
        if let Some(note) = report.repaired.describe(&games) {
            conductor.note(&format!("repaired: {note}"));
        }
        played += report.played;
        resumed += report.resumed;
        let title = format!("Experiment {name}, cell {}", cell.label);
        let mut md = report::markdown(&cell.plan, &report.tally, &title, &[]);
        md.push_str(&study::run_figures(&cell.plan, &report.tally, &cell_dir)?);
        write_summary_files(&cell_dir, &md, &report::csv(&cell.plan, &report.tally, &[]))?;
        measured.extend(study::cell_metrics(i, &report.tally));
    }
    conductor.phase(Phase::Done);
    conductor.note(&format!(
        "{played} games played, {resumed} already recorded, in {} cells ({:.1} s)",
        sweep.cells.len(),
        started.elapsed().as_secs_f64()
    ));
    let md = study::write(dir, name, sweep, &measured)?;
    Ok(Conducted {
        markdown: md,
        played,
        resumed,
        reproduced,
    })
}

/// Opens a run's games file in one pass: every row checked and replayed once (the metrics'
/// facts gathered from that replay), and, on a finished run, every game played again with
/// its agents and compared with its row (unless verification is off). Returns the opened file
/// and how many games reproduced.
fn open_checked(
    plan: &RunPlan,
    games: &Path,
    how: &Conduct,
    conductor: &mut dyn Conductor,
) -> Result<(Opened, u64)> {
    let verify = how.verify && is_finished(plan, games)?;
    let timed = plan.uses_time();
    if verify && timed {
        conductor.note(
            "the run is finished; its agents decide by the clock, so its games cannot be re-played exactly",
        );
    } else if verify {
        conductor.note(&format!(
            "{} is finished: re-playing its {} games to check that each reproduces its row",
            games.display(),
            plan.games_in_shard()
        ));
        conductor.phase(Phase::Verify {
            games: plan.games_in_shard(),
            pairings: plan.pairings.len(),
        });
    }
    let started = Instant::now();
    let reading = Reading {
        facts: true,
        verify: (verify && !timed).then_some((how.threads, conductor as &mut dyn Observer)),
    };
    let opened = open_games_with(plan, games, reading)?;
    let mut reproduced = 0;
    if let Some(report) = &opened.verified {
        conductor.phase(Phase::Done);
        check_verified(report)?;
        reproduced = report.reproduced;
        conductor.note(&format!(
            "{} of {} games reproduced ({:.1} s)",
            report.reproduced,
            report.checked,
            started.elapsed().as_secs_f64()
        ));
    }
    Ok((opened, reproduced))
}

/// An error naming the first game that did not reproduce, if one did not.
fn check_verified(report: &VerifyReport) -> Result<()> {
    match &report.first_difference {
        None => Ok(()),
        Some((id, columns)) => Err(Error::new(
            ErrorKind::NotReproduced,
            format!(
                "{} of {} games reproduced; game {id} differs in {columns} (another build or platform?)",
                report.reproduced, report.checked
            ),
        )),
    }
}

fn create_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, &e))
}

/// Writes `summary.md` and `summary.csv` into `dir`, each by write-then-rename.
pub fn write_summary_files(dir: &Path, md: &str, csv: &str) -> Result<()> {
    for (name, text) in [("summary.md", md), ("summary.csv", csv)] {
        write_atomically(&dir.join(name), text.as_bytes())?;
    }
    Ok(())
}

impl RunReport {
    /// One line for people about a run into `out`: what was played, what was there, the
    /// SPRT's decision, an interruption.
    #[must_use]
    pub fn describe(&self, out: &Path) -> String {
        let mut line = format!(
            "{} games played, {} already in {} ({:.2} s, {:.0} games/s)",
            self.played,
            self.resumed,
            out.display(),
            self.seconds,
            self.played as f64 / self.seconds.max(1e-9)
        );
        if let Some(d) = self.sprt {
            line.push_str(&format!("; SPRT: {d}"));
        }
        if self.interrupted {
            line.push_str("; interrupted: run the same command to resume");
        }
        line
    }
}
