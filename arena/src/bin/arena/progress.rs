//! The progress bars: of `arena match`, `arena run` and `arena report` (games done, their
//! rate and the W-D-L so far, redrawn at most every 50 ms), and of the tuners' steps.

use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ringside_arena::records::row::GameRow;
use ringside_arena::run::conduct::{Conductor, Phase};
use ringside_arena::run::pool::Observer;

/// A bar on standard error (hidden when `quiet`) over `steps` steps, drawn by `template`
/// (indicatif's): the tuners' epochs and iterations.
pub fn steps_bar(quiet: bool, steps: u64, template: &str) -> ProgressBar {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(steps), ProgressDrawTarget::stderr())
    };
    bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
    bar
}

/// A progress bar over a run's games, with the W-D-L of each pairing's first agent summed
/// over all pairings (in a gauntlet: the gauntlet agent's).
pub struct Progress {
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
    /// A bar on standard error (hidden unless `visible`) for a run of `pairings` pairings.
    pub fn new(visible: bool, pairings: usize) -> Progress {
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
