//! `arena serve`: a local, read-only web server that shows the runs under some folders as
//! they are written: standings with Elo and intervals, the SPRT against its bounds, W/D/L,
//! pentanomial counts, clocks against budgets, figures, a design report's verdict, the games
//! (each opened in the game viewer of [`crate::figures::picture`]) and the games being played,
//! move by move. Every view is also JSON under `/api/` (documented in `book/src/serve.md`).
//!
//! - [`site`]: the folders served and the one way a request names a file in them.
//! - [`follow`]: a games CSV read once, then only what was appended, into the summary's folds.
//! - [`api`]: the JSON of each view.
//! - [`pages`]: the HTML, script and style, plain text in the binary (no build step).
//! - `routes`: each page and view, and the headers every response carries.
//!
//! Every run is read once when the server starts (in the background, one at a time), then
//! followed by what is appended, when a page or the API asks.
//!
//! Safety: a key that leaves the served folders is a 404; a malformed or huge file is an
//! error shown for that run alone (each run is read on the blocking pool, under its own lock);
//! at most [`MAX_IN_FLIGHT`] requests are handled at once (the rest wait for a turn); every
//! response forbids inline script by its Content-Security-Policy, and the pages build the
//! document with `textContent`, so no text from a file is ever run or read as markup.
//!
//! The only file the server writes is a run's marker `games.csv.live-wanted`
//! ([`crate::run::live`]), touched while a page follows that run and removed when none has
//! for [`UNWATCHED`] or when the server stops.

pub mod api;
pub mod follow;
pub mod pages;
mod routes;
pub mod site;

pub use routes::{CSP, MAX_PAGE};

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::error::{Error, Result};
use crate::run::live;
use follow::Followed;
use routes::{followed, router};
use site::Site;

/// Requests handled at once; more wait for a turn.
pub const MAX_IN_FLIGHT: usize = 64;

/// A run's marker is removed once no page has asked for its games in progress for this long.
pub const UNWATCHED: Duration = Duration::from_secs(15);

/// Where and what to serve.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// The folders whose runs are shown.
    pub folders: Vec<PathBuf>,
    /// The address to listen on (port 0: any free port).
    pub addr: SocketAddr,
}

/// A board drawn of a game in progress: the game's id, its plies, the SVG (if it replayed).
type Drawn = (u64, usize, Option<String>);

/// What the handlers share.
struct Shared {
    site: Site,
    runs: Mutex<HashMap<PathBuf, Arc<Mutex<Followed>>>>,
    /// Runs whose games in progress a page follows: when a page last asked, when the
    /// marker was last touched.
    watched: Mutex<HashMap<PathBuf, (Instant, Option<Instant>)>>,
    /// The board last drawn of each worker's game in progress, by run and worker: the game's
    /// id, its plies then, the SVG. Fifty pages polling a run draw each position once.
    boards: Mutex<HashMap<(PathBuf, usize), Drawn>>,
    /// A design report's verdict as last read, by the report's path, with the report's time.
    reports: Mutex<HashMap<PathBuf, (Option<std::time::SystemTime>, Value)>>,
    /// The last answers of `/api/run`, by the run's key and `since`, with when each was made: pages
    /// polling one run within [`ANSWER_FRESH`] of each other share one answer, so fifty pages
    /// cost the server (and the run it shares the machine with) about what one does.
    answers: Mutex<HashMap<(String, u64), (Instant, axum::body::Bytes)>>,
}

/// How long an answer of `/api/run` is given again to another page: well inside the second
/// within which a page shows a new row.
pub(crate) const ANSWER_FRESH: std::time::Duration = std::time::Duration::from_millis(200);

/// A server running on its own thread, stopped when [`Running::stop`] is called.
#[derive(Debug)]
pub struct Running {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<Result<()>>>,
}

impl Running {
    /// The address it listens on.
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops it and waits for it to finish (its markers removed).
    pub fn stop(mut self) -> Result<()> {
        self.halt()
    }

    fn halt(&mut self) -> Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.thread.take().map(std::thread::JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(Error::new(
                crate::ErrorKind::Io,
                "the server thread panicked",
            )),
            None => Ok(()),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.halt();
    }
}

/// Binds `config.addr` and serves on a thread of its own until [`Running::stop`]. Refuses a
/// folder that does not exist and an address that cannot be bound, in one line each.
pub fn start(config: &ServeConfig) -> Result<Running> {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (listener, shared) = bind(config)?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::new(crate::ErrorKind::Io, format!("{}: {e}", config.addr)))?;
    let thread = std::thread::spawn(move || {
        run(listener, shared, async {
            let _ = stopped.await;
        })
    });
    Ok(Running {
        addr,
        stop: Some(stop),
        thread: Some(thread),
    })
}

/// Binds `config.addr`, calls `ready` with the address bound, and serves until Ctrl-C (or
/// SIGTERM).
pub fn serve(config: &ServeConfig, ready: impl FnOnce(SocketAddr)) -> Result<()> {
    let (listener, shared) = bind(config)?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::new(crate::ErrorKind::Io, format!("{}: {e}", config.addr)))?;
    ready(addr);
    run(listener, shared, stop_signal())
}

/// Ctrl-C, or (on Unix) SIGTERM: either stops the server cleanly, its markers removed.
async fn stop_signal() {
    let stop = Arc::new(tokio::sync::Notify::new());
    let on_interrupt = stop.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_interrupt.notify_one();
        }
    });
    #[cfg(unix)]
    if let Ok(mut term) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
    {
        let on_term = stop.clone();
        tokio::spawn(async move {
            if term.recv().await.is_some() {
                on_term.notify_one();
            }
        });
    }
    stop.notified().await;
}

fn bind(config: &ServeConfig) -> Result<(std::net::TcpListener, Arc<Shared>)> {
    let site = Site::new(&config.folders)?;
    let listener = std::net::TcpListener::bind(config.addr).map_err(|e| {
        Error::new(
            crate::ErrorKind::Io,
            format!("cannot listen on {}: {e}", config.addr),
        )
    })?;
    listener
        .set_nonblocking(true)
        .map_err(|e| Error::new(crate::ErrorKind::Io, format!("{}: {e}", config.addr)))?;
    let shared = Arc::new(Shared {
        site,
        runs: Mutex::new(HashMap::new()),
        watched: Mutex::new(HashMap::new()),
        boards: Mutex::new(HashMap::new()),
        reports: Mutex::new(HashMap::new()),
        answers: Mutex::new(HashMap::new()),
    });
    Ok((listener, shared))
}

/// Serves on `listener` until `until` completes, then removes the markers it touched.
fn run(
    listener: std::net::TcpListener,
    shared: Arc<Shared>,
    until: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<()> {
    let io = |e: std::io::Error| Error::new(crate::ErrorKind::Io, format!("server: {e}"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(io)?;
    let app = router(shared.clone());
    let result = runtime.block_on(async {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        tokio::spawn(forget_unwatched(shared.clone()));
        let warming = shared.clone();
        tokio::task::spawn_blocking(move || warm(&warming));
        axum::serve(listener, app)
            .with_graceful_shutdown(until)
            .await
    });
    let watched = std::mem::take(&mut *lock(&shared.watched));
    for path in watched.keys() {
        let _ = std::fs::remove_file(live::marker_path(path));
    }
    runtime.shutdown_timeout(Duration::from_secs(1));
    result.map_err(io)
}

/// Reads every run once, one after another and the most recently changed first (a run being
/// written is the one a page will ask for), so that a page opened later finds its figures
/// ready and only what was appended since is read then.
fn warm(shared: &Shared) {
    let mut runs = shared.site.runs();
    runs.sort_by_key(|r| std::cmp::Reverse(r.modified));
    for run in runs {
        let _ = followed(shared, Some(&run.key));
    }
}

/// Every few seconds, removes the markers of runs no page has followed for [`UNWATCHED`].
async fn forget_unwatched(shared: Arc<Shared>) {
    let mut every = tokio::time::interval(Duration::from_secs(3));
    loop {
        every.tick().await;
        let stale: Vec<PathBuf> = {
            let mut watched = lock(&shared.watched);
            let stale: Vec<PathBuf> = watched
                .iter()
                .filter(|(_, (asked, _))| asked.elapsed() > UNWATCHED)
                .map(|(p, _)| p.clone())
                .collect();
            for p in &stale {
                watched.remove(p);
            }
            stale
        };
        for p in stale {
            let _ = std::fs::remove_file(live::marker_path(&p));
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
