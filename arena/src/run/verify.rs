//! Reproducing a run: every recorded game played again from its plan and id, and compared
//! with its row (all columns but the decision times). Runs whose agents decide by the clock
//! cannot be reproduced and are not checked.
//!
//! A [`Reproducer`] checks rows a chunk at a time as a games file is read
//! ([`crate::run::runner::open_games_with`]), so a reproduction holds one chunk of rows, never the
//! file.

use std::collections::HashMap;

use crate::error::Result;
use crate::plan::RunPlan;
use crate::records::games_csv::ReadRow;
use crate::records::row::GameRow;
use crate::run::pool::{Observer, play_ids};

/// What a reproduction found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VerifyReport {
    /// Games played again.
    pub checked: u64,
    /// Games that came out exactly as recorded.
    pub reproduced: u64,
    /// The first game (by id) that differs, and what differs.
    pub first_difference: Option<(u64, String)>,
    /// True if the run's agents use time budgets, so nothing was checked.
    pub timed: bool,
}

/// Plays recorded games again, chunk by chunk, and keeps the count.
pub struct Reproducer<'a> {
    threads: Option<usize>,
    observer: &'a mut dyn Observer,
    report: VerifyReport,
}

impl<'a> Reproducer<'a> {
    /// A reproduction of `plan`'s games on `threads` threads, telling `observer` of each
    /// game played again; `pending` games are to come (for the observer's count).
    pub fn new(
        plan: &RunPlan,
        threads: Option<usize>,
        observer: &'a mut dyn Observer,
        pending: u64,
    ) -> Reproducer<'a> {
        let timed = plan.uses_time();
        if !timed {
            observer.started(0, pending);
        }
        Reproducer {
            threads,
            observer,
            report: VerifyReport {
                timed,
                ..VerifyReport::default()
            },
        }
    }

    /// Plays the games of `rows` again and compares each with its row.
    pub fn check<'r>(
        &mut self,
        plan: &RunPlan,
        rows: impl IntoIterator<Item = &'r GameRow>,
    ) -> Result<()> {
        if self.report.timed {
            return Ok(());
        }
        let by_id: HashMap<u64, &GameRow> = rows.into_iter().map(|r| (r.id, r)).collect();
        let mut ids: Vec<u64> = by_id.keys().copied().collect();
        ids.sort_unstable();
        let report = &mut self.report;
        let observer = &mut *self.observer;
        let mut take = |row: GameRow, _| -> Result<bool> {
            let recorded = by_id[&row.id];
            report.checked += 1;
            let differs = recorded.differences(&row);
            if differs.is_empty() {
                report.reproduced += 1;
            } else if report
                .first_difference
                .as_ref()
                .is_none_or(|(id, _)| row.id < *id)
            {
                report.first_difference = Some((row.id, differs.join(", ")));
            }
            observer.finished(&row);
            Ok(false)
        };
        play_ids(
            plan,
            ids.into_iter(),
            self.threads,
            false,
            None,
            &mut take,
            &mut || Ok(()),
        )?;
        Ok(())
    }

    /// [`Reproducer::check`] on rows as a read hands them over.
    pub fn check_read<T>(&mut self, plan: &RunPlan, rows: &[ReadRow<T>]) -> Result<()> {
        self.check(plan, rows.iter().map(|r| &r.row))
    }

    /// What the reproduction found.
    #[must_use]
    pub fn finish(self) -> VerifyReport {
        self.report
    }
}
