//! Games in progress, written for `arena serve` only while someone serves.
//!
//! The handshake is two kinds of file beside a run's games CSV `games.csv`:
//!
//! - `games.csv.live-wanted`, the *marker*: the server touches it every few seconds while a
//!   page follows the run. The run reads its modification time every [`REFRESH`] and counts
//!   someone as serving while it is at most [`FRESH`] old, so a server that was killed stops
//!   the writing within seconds and leaves nothing that costs the run anything.
//! - `games.csv.live.K`, one a worker thread `K` (one writer each): the game that worker is
//!   playing, as text lines: the game's id, then one line a move (the opening's included, as
//!   the row's `moves` will hold them). Moves are appended as they are played, at most every
//!   [`WRITE_EVERY`] (a move within that time of the last write goes out with the next one);
//!   the file is emptied when the game ends and removed when the worker stops or nobody
//!   serves any more.
//!
//! Without a fresh marker nothing is written and a game costs one relaxed atomic load a move.
//! What a game plays never depends on any of this: the watch only reads the moves.

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use crate::records::row::GameRow;
use crate::records::sink::Watch;

/// How often a run reads the marker's time.
pub const REFRESH: Duration = Duration::from_millis(250);

/// How long a touch of the marker counts as someone serving.
pub const FRESH: Duration = Duration::from_secs(10);

/// The least time between two writes of a game's moves.
pub const WRITE_EVERY: Duration = Duration::from_millis(20);

/// `games.csv` → `games.csv` with `suffix` appended to its name.
fn beside(csv: &Path, suffix: &str) -> PathBuf {
    let mut name = csv.as_os_str().to_owned();
    name.push(suffix);
    name.into()
}

/// The marker a server touches while it serves the run writing `csv`.
#[must_use]
pub fn marker_path(csv: &Path) -> PathBuf {
    beside(csv, ".live-wanted")
}

/// The file of the game worker `worker` of the run writing `csv` is playing.
#[must_use]
pub fn game_path(csv: &Path, worker: usize) -> PathBuf {
    beside(csv, &format!(".live.{worker}"))
}

/// Whether someone serves the run writing `csv`: its marker was touched within [`FRESH`].
#[must_use]
pub fn someone_serves(csv: &Path) -> bool {
    std::fs::metadata(marker_path(csv))
        .and_then(|m| m.modified())
        .is_ok_and(|t| {
            SystemTime::now()
                .duration_since(t)
                .is_ok_and(|age| age <= FRESH)
        })
}

/// Touches the marker of `csv`'s run (creating it): the server says it is serving.
pub fn touch_marker(csv: &Path) -> std::io::Result<()> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(marker_path(csv))?;
    file.set_modified(SystemTime::now())
}

/// One game in progress, as read from its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameInProgress {
    /// The worker playing it.
    pub worker: usize,
    /// The game's id in the run.
    pub id: u64,
    /// Its moves so far, from the start.
    pub moves: Vec<String>,
}

/// The games in progress of the run writing `csv` (none when nobody asked for them): every
/// worker file with a complete id line, its complete move lines read (a line being written is
/// left for the next read). Files larger than `max_bytes` are skipped.
#[must_use]
pub fn games_in_progress(csv: &Path, max_bytes: u64) -> Vec<GameInProgress> {
    let (Some(dir), Some(name)) = (csv.parent(), csv.file_name()) else {
        return Vec::new();
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!("{}.live.", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut games: Vec<GameInProgress> = entries
        .flatten()
        .filter_map(|e| {
            let file_name = e.file_name();
            let worker: usize = file_name.to_str()?.strip_prefix(&prefix)?.parse().ok()?;
            if e.metadata().ok()?.len() > max_bytes {
                return None;
            }
            let text = std::fs::read(e.path()).ok()?;
            parse_game(worker, &text)
        })
        .collect();
    games.sort_by_key(|g| g.worker);
    games
}

/// A worker file's text as a game: its id line and complete move lines.
fn parse_game(worker: usize, text: &[u8]) -> Option<GameInProgress> {
    let complete = &text[..text.iter().rposition(|&b| b == b'\n')? + 1];
    let text = std::str::from_utf8(complete).ok()?;
    let mut lines = text.lines();
    let id = lines.next()?.parse().ok()?;
    Some(GameInProgress {
        worker,
        id,
        moves: lines.map(str::to_string).collect(),
    })
}

/// A run's side of the handshake: whether someone serves, kept fresh by one thread.
#[derive(Debug)]
pub struct LiveFeed {
    csv: PathBuf,
    wanted: AtomicBool,
}

impl LiveFeed {
    /// The feed of the run writing `csv`, with the marker read once.
    #[must_use]
    pub fn new(csv: &Path) -> LiveFeed {
        LiveFeed {
            csv: csv.to_path_buf(),
            wanted: AtomicBool::new(someone_serves(csv)),
        }
    }

    /// Whether someone serves, as last read.
    #[inline]
    #[must_use]
    pub fn wanted(&self) -> bool {
        self.wanted.load(Ordering::Relaxed)
    }

    /// Reads the marker every [`REFRESH`] until `done` says the run is over (a message or a
    /// hang-up).
    pub fn keep_fresh(&self, done: &mpsc::Receiver<()>) {
        while let Err(mpsc::RecvTimeoutError::Timeout) = done.recv_timeout(REFRESH) {
            self.wanted
                .store(someone_serves(&self.csv), Ordering::Relaxed);
        }
    }

    /// Worker `worker`'s file, not yet opened.
    #[must_use]
    pub fn slot(&self, worker: usize) -> LiveSlot<'_> {
        LiveSlot {
            feed: self,
            path: game_path(&self.csv, worker),
            file: None,
            game: None,
            written: 0,
            last_write: None,
        }
    }
}

/// One worker's game file: written by that worker alone, removed when it is dropped.
#[derive(Debug)]
pub struct LiveSlot<'f> {
    feed: &'f LiveFeed,
    path: PathBuf,
    file: Option<File>,
    /// The game being written, if any.
    game: Option<u64>,
    /// Bytes of the game's `moves` text already written.
    written: usize,
    last_write: Option<Instant>,
}

impl LiveSlot<'_> {
    /// Game `id`'s moves so far are `moves`: write what is new, starting the game's file if
    /// someone serves, stopping if nobody does any more. Write errors stop the writing
    /// quietly: watching must never cost a game.
    fn moved(&mut self, id: u64, moves: &str) {
        let wanted = self.feed.wanted();
        if self.game != Some(id) {
            if !wanted || self.begin(id).is_err() {
                return;
            }
        } else if !wanted {
            self.stop();
            return;
        }
        if self.last_write.is_some_and(|t| t.elapsed() < WRITE_EVERY) {
            return;
        }
        let mut lines = String::with_capacity(moves.len() - self.written + 8);
        for mv in moves[self.written..].split_whitespace() {
            lines.push_str(mv);
            lines.push('\n');
        }
        self.written = moves.len();
        self.last_write = Some(Instant::now());
        if let Some(f) = &mut self.file
            && f.write_all(lines.as_bytes()).is_err()
        {
            self.stop();
        }
    }

    /// Empties the file and writes game `id`'s line.
    fn begin(&mut self, id: u64) -> std::io::Result<()> {
        let file = match &mut self.file {
            Some(f) => f,
            None => self.file.insert(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.path)?,
            ),
        };
        file.set_len(0)?;
        file.write_all(format!("{id}\n").as_bytes())?;
        self.game = Some(id);
        self.written = 0;
        self.last_write = None;
        Ok(())
    }

    /// The game ended: its file is emptied (its row follows in the CSV).
    fn ended(&mut self) {
        if self.game.take().is_some()
            && let Some(f) = &self.file
        {
            let _ = f.set_len(0);
        }
    }

    /// Nobody serves: the file goes.
    fn stop(&mut self) {
        self.game = None;
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl Drop for LiveSlot<'_> {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A game's watch with its worker's slot beside it: the inner watch sees everything, the slot
/// the moves (no slot: a run into memory, or a reproduction).
#[derive(Debug)]
pub struct Live<'s, 'f, W> {
    inner: W,
    slot: Option<&'s mut LiveSlot<'f>>,
    id: u64,
}

impl<'s, 'f, W> Live<'s, 'f, W> {
    /// Game `id`'s watch `inner`, its moves written to `slot` while someone serves.
    pub fn new(inner: W, slot: Option<&'s mut LiveSlot<'f>>, id: u64) -> Self {
        Live { inner, slot, id }
    }
}

impl<G, W: Watch<G>> Watch<G> for Live<'_, '_, W> {
    type Gathered = W::Gathered;

    #[inline]
    fn before_move(&mut self, state: &G, ply: u32) {
        self.inner.before_move(state, ply);
    }

    #[inline]
    fn moved(&mut self, moves: &str) {
        if let Some(slot) = self.slot.as_deref_mut() {
            slot.moved(self.id, moves);
        }
        self.inner.moved(moves);
    }

    fn finish(self, end: &G, row: &GameRow) -> W::Gathered {
        if let Some(slot) = self.slot {
            slot.ended();
        }
        self.inner.finish(end, row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_file_reads_as_its_id_and_complete_moves_only() {
        let g = parse_game(3, b"17\na1\nb2\nc").unwrap();
        assert_eq!((g.worker, g.id), (3, 17));
        assert_eq!(g.moves, ["a1", "b2"]);
        assert_eq!(parse_game(0, b"").map(|g| g.id), None);
        assert_eq!(
            parse_game(0, b"1").map(|g| g.id),
            None,
            "an id being written"
        );
        assert_eq!(parse_game(0, b"x\n").map(|g| g.id), None);
    }
}
