//! A games CSV followed as it grows: read once, then only the bytes added since, each new
//! complete line parsed and checked against the run's plan (its moves are not replayed:
//! `arena summary` does that) and folded into the summary's own [`Tally`] and [`Sprt`]. No
//! row is held: a run's memory is its tally and a sparse index of row offsets, by which a
//! page of games is read back from the file.
//!
//! Lines are split at newlines and parsed in parallel, [`GROUP_ROWS`] at a time, then folded
//! in file order, so the figures equal the summary's on the same rows. A quoted field holding
//! a line break (never written by a run) reads as a malformed row.

use std::fs::File;
use std::io::{Read as _, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use rayon::prelude::*;

use crate::figures::sprt::Sprt;
use crate::figures::summary::Tally;
use crate::plan::RunPlan;
use crate::records::games_csv::{Layout, parse_record};
use crate::records::idset::IdSet;
use crate::records::row::GameRow;
use crate::records::sidecar::read_sidecar;

/// Bytes read from the file at a time.
const BLOCK: usize = 8 << 20;

/// Lines parsed together by one thread.
pub const GROUP_ROWS: usize = 4096;

/// Every this many rows, the index keeps the row's byte offset.
pub const INDEX_EVERY: u64 = 1024;

/// The longest line read (a games row is a few hundred bytes plus its moves).
const MAX_LINE: usize = 16 << 20;

/// What the follower knows of one run's games file.
#[derive(Debug)]
pub struct Followed {
    csv: PathBuf,
    plan: RunPlan,
    layout: Option<Layout>,
    /// Bytes consumed: the end of the last complete line read.
    offset: u64,
    /// Line number of the next line (the header is line 1).
    line: u64,
    tally: Tally,
    sprt: Option<Sprt>,
    ids: IdSet,
    rows: u64,
    index: Vec<u64>,
    modified: Option<SystemTime>,
    error: Option<String>,
}

/// Why a line did not read: its line number and the reason.
type LineFault = (u64, String);

impl Followed {
    /// Starts following `csv`, whose settings sidecar must read; nothing of the games is read
    /// before [`Followed::refresh`].
    pub fn open(csv: &Path) -> crate::Result<Followed> {
        let (plan, _) = read_sidecar(csv)?;
        Ok(Followed {
            csv: csv.to_path_buf(),
            tally: Tally::new(&plan),
            sprt: plan.sprt.map(Sprt::new),
            plan,
            layout: None,
            offset: 0,
            line: 1,
            ids: IdSet::new(),
            rows: 0,
            index: Vec::new(),
            modified: None,
            error: None,
        })
    }

    /// The run's plan.
    #[must_use]
    pub fn plan(&self) -> &RunPlan {
        &self.plan
    }

    /// The figures of the rows read so far.
    #[must_use]
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// The run's SPRT over the rows read, if it has one.
    #[must_use]
    pub fn sprt(&self) -> Option<&Sprt> {
        self.sprt.as_ref()
    }

    /// Rows read.
    #[must_use]
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Bytes of the file read.
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// When the file last changed, as last seen.
    #[must_use]
    pub fn modified(&self) -> Option<SystemTime> {
        self.modified
    }

    /// Why the file stopped being followed (a malformed row, a read error), if it did.
    #[must_use]
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Reads what was appended since the last call. A file that shrank (replaced, or its torn
    /// end repaired by a resume) is read again from the start. After an error, nothing more
    /// is read until the file changes size.
    pub fn refresh(&mut self) {
        let meta = match std::fs::metadata(&self.csv) {
            Ok(m) => m,
            Err(e) => {
                self.error = Some(format!("{}: {e}", self.csv.display()));
                return;
            }
        };
        self.modified = meta.modified().ok();
        if meta.len() < self.offset {
            match Followed::open(&self.csv) {
                Ok(fresh) => *self = fresh,
                Err(e) => {
                    self.error = Some(e.to_string());
                    return;
                }
            }
        }
        if self.error.is_some() || meta.len() == self.offset {
            return;
        }
        if let Err(e) = self.read_to(meta.len()) {
            self.error = Some(e);
        }
    }

    /// Reads the complete lines between the offset and `len`.
    fn read_to(&mut self, len: u64) -> Result<(), String> {
        let path = self.csv.display().to_string();
        let io = |e: std::io::Error| format!("{path}: {e}");
        let mut file = File::open(&self.csv).map_err(io)?;
        file.seek(SeekFrom::Start(self.offset)).map_err(io)?;
        let mut file = file.take(len - self.offset);
        let mut buf: Vec<u8> = Vec::new();
        loop {
            let kept = buf.len();
            buf.resize(kept + BLOCK, 0);
            let got = read_full(&mut file, &mut buf[kept..]).map_err(io)?;
            buf.truncate(kept + got);
            let Some(end) = memchr::memrchr(b'\n', &buf).map(|i| i + 1) else {
                if buf.len() > MAX_LINE {
                    return Err(format!(
                        "{path}: line {}: longer than {MAX_LINE} bytes",
                        self.line
                    ));
                }
                if got == 0 {
                    return Ok(());
                }
                continue;
            };
            self.lines(&buf[..end])
                .map_err(|(line, why)| format!("{path}: line {line}: {why}"))?;
            self.offset += end as u64;
            buf.drain(..end);
            if got == 0 {
                return Ok(());
            }
        }
    }

    /// Folds `block`, complete lines starting at the offset.
    fn lines(&mut self, mut block: &[u8]) -> Result<(), LineFault> {
        let mut base = self.offset;
        let layout = match self.layout {
            Some(l) => l,
            None => {
                let end = memchr::memchr(b'\n', block).map_or(block.len(), |i| i + 1);
                let layout = Layout::of_header(&block[..end])
                    .ok_or((1, "not the header of a games CSV".to_string()))?;
                self.layout = Some(layout);
                self.line = 2;
                base += end as u64;
                block = &block[end..];
                layout
            }
        };
        let mut starts: Vec<usize> = Vec::with_capacity(block.len() / 128 + 1);
        starts.push(0);
        starts.extend(memchr::memchr_iter(b'\n', block).map(|i| i + 1));
        // `starts` ends with the block's length: every line is [starts[k], starts[k + 1]).
        let lines = starts.len() - 1;
        let groups: Vec<(usize, usize)> = (0..lines)
            .step_by(GROUP_ROWS)
            .map(|k| (k, (k + GROUP_ROWS).min(lines)))
            .collect();
        let (plan, first_line) = (&self.plan, self.line);
        let parsed: Vec<(Vec<GameRow>, Option<LineFault>)> = groups
            .par_iter()
            .map(|&(k, j)| {
                parse_lines(
                    &block[starts[k]..starts[j]],
                    plan,
                    layout,
                    first_line + k as u64,
                )
            })
            .collect();
        let mut k = 0;
        for (rows, fault) in parsed {
            for row in rows {
                let line = first_line + k as u64;
                if !self.ids.insert(row.id) {
                    return Err((line, format!("game {} appears twice", row.id)));
                }
                if self.rows.is_multiple_of(INDEX_EVERY) {
                    self.index.push(base + starts[k] as u64);
                }
                self.tally.add(&row, None);
                if let Some(s) = &mut self.sprt {
                    s.add(&row);
                }
                self.rows += 1;
                k += 1;
            }
            // The rows before a bad one still count; nothing after it is read.
            if let Some(fault) = fault {
                return Err(fault);
            }
        }
        self.line += lines as u64;
        Ok(())
    }

    /// Rows `from..from + count` of the file (fewer at its end), read back through the index.
    pub fn rows_at(&self, from: u64, count: u64) -> Result<Vec<GameRow>, String> {
        let (Some(layout), true) = (self.layout, from < self.rows && count > 0) else {
            return Ok(Vec::new());
        };
        let count = count.min(self.rows - from);
        let at = self.index[(from / INDEX_EVERY) as usize];
        let skip = (from % INDEX_EVERY) as usize;
        let path = self.csv.display().to_string();
        let io = |e: std::io::Error| format!("{path}: {e}");
        let mut file = File::open(&self.csv).map_err(io)?;
        file.seek(SeekFrom::Start(at)).map_err(io)?;
        let mut file = file.take(self.offset - at);
        let want = skip + count as usize;
        let mut buf = Vec::new();
        let mut chunk = vec![0u8; 1 << 16];
        while memchr::memchr_iter(b'\n', &buf).count() < want {
            let got = file.read(&mut chunk).map_err(io)?;
            if got == 0 {
                break;
            }
            buf.extend_from_slice(&chunk[..got]);
            if buf.len() > 64 * MAX_LINE {
                return Err(format!("{path}: rows too long to show"));
            }
        }
        let mut ends = memchr::memchr_iter(b'\n', &buf).map(|i| i + 1);
        let begin = if skip == 0 {
            0
        } else {
            ends.nth(skip - 1).unwrap_or(buf.len())
        };
        let end = ends.nth(count as usize - 1).unwrap_or(buf.len());
        match parse_lines(&buf[begin..end], &self.plan, layout, 0) {
            (rows, None) => Ok(rows),
            (_, Some((_, why))) => Err(why),
        }
    }
}

/// Fills `buf` from `r` as far as it goes; the bytes read.
fn read_full(r: &mut impl std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// The rows of `bytes`, complete lines of a file in `layout` whose first is line `first`, up
/// to the first line that does not read, and why that one did not.
fn parse_lines(
    bytes: &[u8],
    plan: &RunPlan,
    layout: Layout,
    first: u64,
) -> (Vec<GameRow>, Option<LineFault>) {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut record = csv::ByteRecord::new();
    let mut rows = Vec::with_capacity(GROUP_ROWS);
    loop {
        let line = first + rows.len() as u64;
        match reader.read_byte_record(&mut record) {
            Ok(false) => return (rows, None),
            Ok(true) => {}
            Err(e) => return (rows, Some((line, e.to_string()))),
        }
        let text = match csv::StringRecord::from_byte_record(std::mem::take(&mut record)) {
            Ok(text) => text,
            Err(_) => return (rows, Some((line, "not UTF-8 text".to_string()))),
        };
        match parse_record(&text, plan, layout) {
            Ok(row) => rows.push(row),
            Err(f) => return (rows, Some((line, f.reason))),
        }
        record = text.into_byte_record();
    }
}
