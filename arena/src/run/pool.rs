//! The worker pool below every run: a plan's games played on worker threads, each finished
//! game handed to the calling thread, which reports to an [`Observer`]. The runner (files,
//! resume, the SPRT) and the reproducer (games played again) both sit on it.
//!
//! Game `id`'s result depends only on the plan and `id`, never on the thread count or the
//! order games finish in (agents with a time budget excepted): workers take ids from one
//! shared list, and the calling thread takes rows as they come.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use ringside_agents::AgentSpec;
use ringside_engine::registry::GameVisitor;
use ringside_engine::{Features, Game};

use crate::error::{Error, Result};
use crate::figures::metrics::{FactsFold, GameFacts};
use crate::plan::RunPlan;
use crate::records::row::GameRow;
use crate::run::live::{Live, LiveFeed};
use crate::run::play::play_watched;

/// How often the calling thread collects finished games. Polling, rather than blocking on
/// the channel, spares the workers a wake-up syscall per game.
const POLL: Duration = Duration::from_millis(3);

/// Most finished games waiting for the calling thread: when it falls behind (a fast game
/// writes rows faster than one thread formats them), workers wait instead of queueing rows
/// without bound, so memory stays flat. Several polls' worth of the fastest games.
const QUEUE: usize = 16_384;

/// Hears about a run as it goes, on the calling thread.
pub trait Observer {
    /// The run starts: `resumed` games were already done, `pending` remain at most.
    fn started(&mut self, _resumed: u64, _pending: u64) {}
    /// A game finished (and, for a CSV run, its row was written).
    fn finished(&mut self, _row: &GameRow) {}
    /// Whether the run should stop (the user interrupted it): asked after each finished
    /// game; the games in play are finished and written, no new one starts.
    fn interrupted(&self) -> bool {
        false
    }
}

/// An observer that ignores everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Observer for Silent {}

/// The number of worker threads: `threads`, or one per core.
pub fn thread_count(threads: Option<usize>) -> Result<usize> {
    match threads {
        Some(0) => Err(Error::about(crate::Setting::Threads, "must be at least 1")),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// A finished game and, when asked for, its facts for the metrics.
type Finished = (GameRow, Option<GameFacts>);

/// Refuses agents that cannot take a seat in a run: a person (who plays only at `arena play`)
/// and a host agent nobody registered.
pub fn check_seats(plan: &RunPlan) -> Result<()> {
    for a in &plan.agents {
        no_person(&a.label, &a.spec)?;
    }
    for a in &plan.agents {
        if let AgentSpec::Host(name) = &a.spec
            && !ringside_agents::host::registered(name)
        {
            return Err(Error::setting(format!(
                "agent '{}': {}",
                a.label,
                ringside_agents::host::missing(name)
            )));
        }
    }
    Ok(())
}

/// Refuses a person (`human`) in a seat a program must take: a person plays only at
/// `arena play`.
pub fn no_person(label: &str, spec: &AgentSpec) -> Result<()> {
    if *spec == AgentSpec::Human {
        return Err(Error::setting(format!(
            "agent '{label}': a person plays only at `arena play`"
        )));
    }
    Ok(())
}

/// Plays the games `ids` yields on `threads` workers; `take` receives each finished row (with
/// its metrics' facts when `facts` is set, gathered on the worker) on the calling thread and
/// returns whether to stop. Returns how many rows `take` received. `live`, the games CSV of
/// a run into a file, lets `arena serve` follow its games in progress ([`crate::run::live`]).
pub fn play_ids(
    plan: &RunPlan,
    ids: impl Iterator<Item = u64> + Send,
    threads: Option<usize>,
    facts: bool,
    live: Option<&std::path::Path>,
    take: &mut dyn FnMut(GameRow, Option<GameFacts>) -> Result<bool>,
    flush: &mut dyn FnMut() -> Result<()>,
) -> Result<u64> {
    struct Play<'a, I> {
        plan: &'a RunPlan,
        ids: I,
        threads: usize,
        facts: bool,
        live: Option<&'a std::path::Path>,
        take: &'a mut dyn FnMut(GameRow, Option<GameFacts>) -> Result<bool>,
        flush: &'a mut dyn FnMut() -> Result<()>,
    }
    check_seats(plan)?;
    impl<I: Iterator<Item = u64> + Send> GameVisitor for Play<'_, I> {
        type Output = Result<u64>;
        fn visit<G: Game + Features>(self, start: G) -> Result<u64> {
            let ids = Mutex::new(self.ids);
            let stop = AtomicBool::new(false);
            let (tx, rx) = mpsc::sync_channel::<Finished>(QUEUE);
            let (plan, facts) = (self.plan, self.facts);
            let feed = self.live.map(LiveFeed::new);
            let (done, run_over) = mpsc::channel::<()>();
            std::thread::scope(|scope| {
                if let Some(feed) = &feed {
                    scope.spawn(move || feed.keep_fresh(&run_over));
                }
                for worker in 0..self.threads {
                    let (tx, ids, stop, start) = (tx.clone(), &ids, &stop, &start);
                    let mut slot = feed.as_ref().map(|f| f.slot(worker));
                    scope.spawn(move || {
                        while !stop.load(Ordering::Relaxed) {
                            let next = ids.lock().map(|mut it| it.next()).unwrap_or(None);
                            let Some(id) = next else { break };
                            // A played game's facts are gathered as it is played.
                            let (row, facts) = play_watched(start, plan, id, |_, first| {
                                Live::new(facts.then(|| FactsFold::new(first)), slot.as_mut(), id)
                            });
                            if tx.send((row, facts)).is_err() {
                                break;
                            }
                        }
                    });
                }
                drop(tx);
                let collected = collect(&rx, &stop, self.take, self.flush);
                drop(done);
                if collected.is_err() {
                    // A failed write stops the workers after the games in flight.
                    stop.store(true, Ordering::Relaxed);
                }
                collected
            })
        }
    }
    let threads = thread_count(threads)?;
    plan.game.visit(Play {
        plan,
        ids,
        threads,
        facts,
        live,
        take,
        flush,
    })
}

/// The calling thread's loop: every few milliseconds, hand over every finished row, then
/// flush once. A kill loses at most the games of the last few milliseconds and those in
/// flight.
fn collect(
    rx: &mpsc::Receiver<Finished>,
    stop: &AtomicBool,
    take: &mut dyn FnMut(GameRow, Option<GameFacts>) -> Result<bool>,
    flush: &mut dyn FnMut() -> Result<()>,
) -> Result<u64> {
    let mut received = 0;
    let mut open = true;
    while open {
        std::thread::sleep(POLL);
        let mut any = false;
        loop {
            let (row, facts) = match rx.try_recv() {
                Ok(finished) => finished,
                Err(mpsc::TryRecvError::Empty) => break,
                Err(mpsc::TryRecvError::Disconnected) => {
                    open = false;
                    break;
                }
            };
            any = true;
            received += 1;
            if take(row, facts)? {
                stop.store(true, Ordering::Relaxed);
            }
        }
        if any {
            flush()?;
        }
    }
    Ok(received)
}
