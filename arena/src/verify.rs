//! Reproducing a run: every recorded game played again from its plan and id, and compared
//! with its row (all columns but the decision times). Runs whose agents decide by the clock
//! cannot be reproduced and are not checked.

use std::collections::HashMap;

use crate::error::Result;
use crate::plan::RunPlan;
use crate::row::GameRow;
use crate::runner::{Observer, play_ids};

/// What a reproduction found.
#[derive(Debug, Clone, PartialEq)]
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

/// Plays every game of `rows` again on `threads` threads and compares; `observer` hears of
/// each replayed game.
pub fn reproduce(
    plan: &RunPlan,
    rows: &[GameRow],
    threads: Option<usize>,
    observer: &mut dyn Observer,
) -> Result<VerifyReport> {
    let mut report = VerifyReport {
        checked: 0,
        reproduced: 0,
        first_difference: None,
        timed: plan.uses_time(),
    };
    if report.timed {
        return Ok(report);
    }
    let by_id: HashMap<u64, &GameRow> = rows.iter().map(|r| (r.id, r)).collect();
    let mut ids: Vec<u64> = by_id.keys().copied().collect();
    ids.sort_unstable();
    observer.started(0, ids.len() as u64);
    let mut take = |row: GameRow| -> Result<bool> {
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
    play_ids(plan, ids.into_iter(), threads, &mut take, &mut || Ok(()))?;
    Ok(report)
}
