//! The games CSV: one row a game, in these columns (their meaning is in the guide, book/src/tournaments.md):
//!
//! ```text
//! id, pairing, pair, game, seed, opening_plies, first_agent, first_spec, second_agent,
//! second_spec, winner, winner_agent, reason, plies, first_score, second_score,
//! first_time_ms, second_time_ms, first_nodes, second_nodes, first_iterations,
//! second_iterations, first_moves, second_moves, first_max_ms, second_max_ms,
//! first_overruns, second_overruns, moves
//! ```
//!
//! A file written before the six clock columns (`first_moves` … `second_overruns`) existed
//! reads as it stands, its rows without clocks ([`Layout::Legacy`]), and rows appended to it
//! on resume keep its columns.
//!
//! Rows are appended as games finish and flushed every few milliseconds, so a kill leaves at
//! most one torn last line. Reading checks every row against the run's plan (id, pairing,
//! pair, seed, agents, winner) and replays its moves ([`crate::records::validate`]); a bad row is an
//! error naming the file, the line and the reason. The last line alone may be unfinished:
//! [`Tail`] says what was found there, and [`RowWriter::open`] repairs it before appending.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read as _, Seek, SeekFrom, Write};
use std::path::Path;

use rayon::prelude::*;
use ringside_engine::registry::GameVisitor;
use ringside_engine::{Features, Game};

use crate::error::{Error, Result};
use crate::plan::RunPlan;
pub use crate::records::columns::{CLOCK_COLUMNS, COLUMNS, Layout};
use crate::records::fault::RowFault;
pub use crate::records::fields::{Fields, parse_record, parse_record_figures};
use crate::records::idset::IdSet;
use crate::records::row::GameRow;
use crate::records::sink::Sink;
use crate::records::validate::replay_row;

/// What the end of a games file held after its last complete line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Tail {
    /// Nothing: the file ends with a newline (or is empty).
    #[default]
    Clean,
    /// A complete, valid last row without its final newline: kept.
    MissingNewline {
        /// Its line number.
        line: u64,
    },
    /// An unfinished last line (a kill mid-write, possibly inside a UTF-8 character): not a
    /// row, so its game is played again on resume.
    Torn {
        /// Its line number.
        line: u64,
        /// Its length in bytes.
        bytes: usize,
    },
}

impl Tail {
    /// A sentence for people, or `None` when there is nothing to say.
    #[must_use]
    pub fn describe(&self, path: &Path) -> Option<String> {
        match self {
            Tail::Clean => None,
            Tail::MissingNewline { line } => Some(format!(
                "{}: line {line}, the last row, lacked its final newline; the row is kept",
                path.display()
            )),
            Tail::Torn { line, bytes } => Some(format!(
                "{}: line {line} was cut short ({bytes} bytes, a run killed mid-write); it is not a game and is dropped",
                path.display()
            )),
        }
    }
}

/// The rows of a games file, checked against its plan.
#[derive(Debug, Clone)]
pub struct GamesFile {
    /// The rows in file order.
    pub rows: Vec<GameRow>,
    /// What followed the last complete line.
    pub tail: Tail,
}

/// Writes one row in the current layout ([`COLUMNS`]).
pub fn write_row<W: Write>(
    w: &mut csv::Writer<W>,
    plan: &RunPlan,
    row: &GameRow,
) -> csv::Result<()> {
    write_row_as(w, plan, row, Layout::Current)
}

/// Writes one row in `layout`, formatting each number into one reused buffer (no allocation
/// per field). A row without clocks has their fields empty.
fn write_row_as<W: Write>(
    w: &mut csv::Writer<W>,
    plan: &RunPlan,
    row: &GameRow,
    layout: Layout,
) -> csv::Result<()> {
    use std::fmt::Write as _;
    let mut buf = String::with_capacity(32);
    let mut number = |w: &mut csv::Writer<W>, x: &dyn std::fmt::Display| {
        buf.clear();
        let _ = write!(buf, "{x}");
        w.write_field(&buf)
    };
    // Floats as the shortest text that reads back exactly, always with a fraction or an
    // exponent ("39.0"), as serde and the csv crate write them.
    let float = |x: f64| Debug(x);
    number(w, &row.id)?;
    number(w, &row.slot.pairing)?;
    number(w, &row.slot.pair)?;
    w.write_field(&row.game)?;
    number(w, &row.seed)?;
    number(w, &row.opening_plies)?;
    number(w, &row.first_agent)?;
    w.write_field(&plan.agents[row.first_agent].full)?;
    number(w, &row.second_agent)?;
    w.write_field(&plan.agents[row.second_agent].full)?;
    w.write_field(row.winner.as_str())?;
    match row.winner_agent() {
        Some(a) => number(w, &a)?,
        None => w.write_field("")?,
    }
    w.write_field(row.reason.as_str())?;
    number(w, &row.plies)?;
    for score in [row.first_score, row.second_score] {
        match score {
            Some(x) => number(w, &float(x))?,
            None => w.write_field("")?,
        }
    }
    number(w, &float(row.first_time_ms))?;
    number(w, &float(row.second_time_ms))?;
    number(w, &row.first_nodes)?;
    number(w, &row.second_nodes)?;
    number(w, &row.first_iterations)?;
    number(w, &row.second_iterations)?;
    if layout == Layout::Current {
        let clocks = [row.first_clock, row.second_clock];
        for c in clocks {
            match c {
                Some(c) => number(w, &c.moves)?,
                None => w.write_field("")?,
            }
        }
        for c in clocks {
            match c {
                Some(c) => number(w, &float(c.max_ms))?,
                None => w.write_field("")?,
            }
        }
        for c in clocks {
            match c {
                Some(c) => number(w, &c.overruns)?,
                None => w.write_field("")?,
            }
        }
    }
    w.write_field(&row.moves)?;
    w.write_record(None::<&[u8]>)
}

/// A float shown by its `Debug` form: the shortest text that reads back exactly, with a
/// fraction or an exponent.
struct Debug(f64);

impl std::fmt::Display for Debug {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

/// Rows read (and replayed in parallel) at a time: the reader's memory.
pub const CHUNK_ROWS: usize = 4096;

/// One row as read: its line in the file, the row, and what a [`Sink`] gathered from its
/// replay (`()` when nothing was asked for).
#[derive(Debug, Clone)]
pub struct ReadRow<T = ()> {
    /// The row's line in the file (the header is line 1).
    pub line: u64,
    /// The row.
    pub row: GameRow,
    /// What the sink gathered from the row's replay.
    pub gathered: T,
}

impl<T: Default> ReadRow<T> {
    /// A row read at `line`, before its replay.
    fn new(line: u64, row: GameRow) -> ReadRow<T> {
        ReadRow {
            line,
            row,
            gathered: T::default(),
        }
    }
}

/// What a streaming read hands each chunk of rows to (with what the sink gathered from each);
/// an error stops the read.
pub type OnChunk<'a, T> = dyn FnMut(&[ReadRow<T>]) -> Result<()> + 'a;

/// What a streaming read found besides the rows it handed over.
#[derive(Debug, Clone, Default)]
pub struct ReadReport {
    /// The ids of the rows.
    pub ids: IdSet,
    /// What followed the last complete line.
    pub tail: Tail,
}

/// Reads a games file and checks every row against `plan` (moves replayed), holding every
/// row: for small files and single games. Long files go through [`read_games_with`].
pub fn read_games(path: &Path, plan: &RunPlan) -> Result<GamesFile> {
    let mut rows = Vec::new();
    let report = read_games_with(path, plan, &(), &mut |chunk| {
        rows.extend(chunk.iter().map(|r| r.row.clone()));
        Ok(())
    })?;
    Ok(GamesFile {
        rows,
        tail: report.tail,
    })
}

/// The row of game `id` in the games CSV at `path` (every row checked and replayed on the
/// way, as every reader does), or `None` when the file holds no such game.
pub fn find_row(path: &Path, plan: &RunPlan, id: u64) -> Result<Option<GameRow>> {
    let mut found = None;
    read_games_with(path, plan, &(), &mut |chunk| {
        if let Some(r) = chunk.iter().find(|r| r.row.id == id) {
            found = Some(r.row.clone());
        }
        Ok(())
    })?;
    Ok(found)
}

/// Reads a games file in one streaming pass: each row is parsed, checked against `plan` and
/// replayed once (in parallel, [`CHUNK_ROWS`] at a time), its every position shown to
/// `sink`, then handed to `on_chunk` in file order with what the sink gathered. Memory
/// follows the chunk, not the file. A bad row is an error naming the file, its line and the
/// reason; an unfinished last line is reported in [`ReadReport::tail`] (a complete, valid last
/// row without its newline is handed over too).
pub fn read_games_with<S: Sink>(
    path: &Path,
    plan: &RunPlan,
    sink: &S,
    on_chunk: &mut OnChunk<'_, S::Gathered>,
) -> Result<ReadReport> {
    struct Read<'a, S: Sink> {
        path: &'a Path,
        plan: &'a RunPlan,
        sink: &'a S,
        on_chunk: &'a mut OnChunk<'a, S::Gathered>,
    }
    impl<S: Sink> GameVisitor for Read<'_, S> {
        type Output = Result<ReadReport>;
        fn visit<G: Game + Features>(self, start: G) -> Result<ReadReport> {
            read_file(&start, self.path, self.plan, self.sink, self.on_chunk)
        }
    }
    plan.game.visit(Read {
        path,
        plan,
        sink,
        on_chunk,
    })
}

/// Where the last complete line of `file` (of `len` bytes) ends, and the bytes after it.
fn split_tail(file: &mut File, len: u64, path: &Path) -> Result<(u64, Vec<u8>)> {
    let err = |e: std::io::Error| Error::io("read", path, &e);
    let mut end = len;
    let mut block = vec![0u8; 64 * 1024];
    while end > 0 {
        let start = end.saturating_sub(block.len() as u64);
        let part = &mut block[..(end - start) as usize];
        file.seek(SeekFrom::Start(start)).map_err(err)?;
        file.read_exact(part).map_err(err)?;
        if let Some(i) = part.iter().rposition(|&b| b == b'\n') {
            let body_end = start + i as u64 + 1;
            let mut rest = Vec::with_capacity((len - body_end) as usize);
            file.seek(SeekFrom::Start(body_end)).map_err(err)?;
            file.read_to_end(&mut rest).map_err(err)?;
            return Ok((body_end, rest));
        }
        end = start;
    }
    let mut rest = Vec::new();
    file.seek(SeekFrom::Start(0)).map_err(err)?;
    file.read_to_end(&mut rest).map_err(err)?;
    Ok((0, rest))
}

fn read_file<G: Game + Features, S: Sink>(
    start: &G,
    path: &Path,
    plan: &RunPlan,
    sink: &S,
    on_chunk: &mut OnChunk<'_, S::Gathered>,
) -> Result<ReadReport> {
    let at = |line: u64, reason: &str| {
        Error::corrupt(format!("{}: line {line}: {reason}", path.display()))
    };
    let mut file = File::open(path).map_err(|e| Error::io("read", path, &e))?;
    let len = file
        .metadata()
        .map_err(|e| Error::io("read", path, &e))?
        .len();
    let (body_end, rest) = split_tail(&mut file, len, path)?;
    let mut report = ReadReport::default();
    if body_end == 0 {
        // No complete line: an empty file, or a header cut short.
        if !rest.is_empty() {
            if ![Layout::Current, Layout::Legacy]
                .iter()
                .any(|l| l.header_line().as_bytes().starts_with(&rest))
            {
                return Err(at(1, "not the header of a games CSV"));
            }
            report.tail = Tail::Torn {
                line: 1,
                bytes: rest.len(),
            };
        }
        return Ok(report);
    }
    file.seek(SeekFrom::Start(0))
        .map_err(|e| Error::io("read", path, &e))?;
    let mut body = BufReader::with_capacity(1 << 20, file.take(body_end));
    let mut first = Vec::new();
    body.read_until(b'\n', &mut first)
        .map_err(|e| Error::io("read", path, &e))?;
    let Some(layout) = Layout::of_header(&first) else {
        let found = std::str::from_utf8(&first).map_err(|_| at(1, "not UTF-8 text"))?;
        return Err(at(
            1,
            &format!(
                "the columns are '{}', not the {} columns of a games CSV ({}, …)",
                found.trim_end_matches('\n'),
                COLUMNS.len(),
                COLUMNS[..3].join(", ")
            ),
        ));
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(body);
    let mut chunk: Vec<ReadRow<S::Gathered>> = Vec::with_capacity(CHUNK_ROWS);
    let mut bytes = csv::ByteRecord::new();
    let mut last_line = 1;
    loop {
        match reader.read_byte_record(&mut bytes) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = e.position().map_or(0, csv::Position::line) + 1;
                return Err(at(line, &e.to_string()));
            }
        }
        let line = bytes.position().map_or(0, csv::Position::line) + 1;
        last_line = line;
        let record = csv::StringRecord::from_byte_record(std::mem::take(&mut bytes))
            .map_err(|_| at(line, "not UTF-8 text"))?;
        let row = parse_record(&record, plan, layout).map_err(|fault| at(line, &fault.reason))?;
        bytes = record.into_byte_record();
        if !report.ids.insert(row.id) {
            return Err(at(line, &format!("game {} appears twice", row.id)));
        }
        chunk.push(ReadRow::new(line, row));
        if chunk.len() == CHUNK_ROWS {
            replay_chunk(start, plan, sink, &mut chunk).map_err(|(l, r)| at(l, &r.reason))?;
            on_chunk(&chunk)?;
            chunk.clear();
        }
    }
    replay_chunk(start, plan, sink, &mut chunk).map_err(|(l, r)| at(l, &r.reason))?;
    let line = last_line + 1;
    if !rest.is_empty() {
        let last = last_row(&rest, plan, layout).filter(|row| !report.ids.contains(row.id));
        let replayed = last.and_then(|row| {
            let mut last = ReadRow::new(line, row);
            replay_one(start, plan, sink, &mut last).ok()?;
            Some(last)
        });
        report.tail = match replayed {
            Some(r) => {
                report.ids.insert(r.row.id);
                chunk.push(r);
                Tail::MissingNewline { line }
            }
            None => Tail::Torn {
                line,
                bytes: rest.len(),
            },
        };
    }
    if !chunk.is_empty() {
        on_chunk(&chunk)?;
    }
    Ok(report)
}

/// Replays the rows of `chunk` in parallel; the error is the first bad row's line and why.
fn replay_chunk<G: Game + Features, S: Sink>(
    start: &G,
    plan: &RunPlan,
    sink: &S,
    chunk: &mut [ReadRow<S::Gathered>],
) -> std::result::Result<(), (u64, RowFault)> {
    chunk
        .par_iter_mut()
        .filter_map(|r| replay_one(start, plan, sink, r).err().map(|e| (r.line, e)))
        .min_by_key(|(line, _)| *line)
        .map_or(Ok(()), Err)
}

/// Replays one row read, storing what `sink` gathered in it.
fn replay_one<G: Game + Features, S: Sink>(
    start: &G,
    plan: &RunPlan,
    sink: &S,
    r: &mut ReadRow<S::Gathered>,
) -> std::result::Result<(), RowFault> {
    r.gathered = replay_row(start, plan, &r.row, sink)?;
    Ok(())
}

/// The unterminated last line as a row, if it parses (its replay is the caller's).
fn last_row(rest: &[u8], plan: &RunPlan, layout: Layout) -> Option<GameRow> {
    let text = std::str::from_utf8(rest).ok()?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    let record = reader.records().next()?.ok()?;
    parse_record(&record, plan, layout).ok()
}

/// Appends rows to a games CSV.
pub struct RowWriter<'p> {
    writer: csv::Writer<File>,
    plan: &'p RunPlan,
    layout: Layout,
}

impl<'p> RowWriter<'p> {
    /// Opens `path` for appending after repairing what `tail` found at its end: a torn last
    /// line is cut off, a missing final newline is added. Writes the header if the file has
    /// none.
    pub fn open(path: &Path, plan: &'p RunPlan, tail: &Tail) -> Result<RowWriter<'p>> {
        let err = |e: std::io::Error| Error::io("write", path, &e);
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(err)?;
        let len = file.metadata().map_err(err)?.len();
        match tail {
            Tail::Clean => {}
            Tail::MissingNewline { .. } => file.write_all(b"\n").map_err(err)?,
            Tail::Torn { bytes, .. } => {
                file.set_len(len - *bytes as u64).map_err(err)?;
                file.seek(SeekFrom::End(0)).map_err(err)?;
            }
        }
        let len = file.metadata().map_err(err)?.len();
        let layout = if len == 0 {
            file.write_all(Layout::Current.header_line().as_bytes())
                .map_err(err)?;
            Layout::Current
        } else {
            // Rows appended keep the file's columns.
            let mut first = Vec::new();
            BufReader::new(File::open(path).map_err(err)?)
                .read_until(b'\n', &mut first)
                .map_err(err)?;
            Layout::of_header(&first).ok_or_else(|| {
                Error::corrupt(format!(
                    "{}: line 1: not the header of a games CSV",
                    path.display()
                ))
            })?
        };
        Ok(RowWriter {
            writer: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(file),
            plan,
            layout,
        })
    }

    /// `row` as the file keeps it: without its clocks in a file of the old layout, so that
    /// what a run counts is what a later read of the file counts.
    #[must_use]
    pub fn as_kept(&self, row: GameRow) -> GameRow {
        match self.layout {
            Layout::Current => row,
            Layout::Legacy => GameRow {
                first_clock: None,
                second_clock: None,
                ..row
            },
        }
    }

    /// Appends one row (buffered: call [`RowWriter::flush`]).
    pub fn write(&mut self, row: &GameRow) -> Result<()> {
        write_row_as(&mut self.writer, self.plan, row, self.layout)
            .map_err(|e| Error::new(crate::ErrorKind::Io, format!("cannot write a row: {e}")))
    }

    /// Writes the buffered rows to the file.
    pub fn flush(&mut self) -> Result<()> {
        self.writer
            .flush()
            .map_err(|e| Error::new(crate::ErrorKind::Io, format!("cannot write the CSV: {e}")))
    }
}

/// Writes the header line to a new games file.
pub fn write_header(file: &mut impl Write) -> std::io::Result<()> {
    file.write_all(Layout::Current.header_line().as_bytes())
}

/// Writes `rows` to `file` after whatever it holds.
pub fn write_rows<'r>(
    file: &mut impl Write,
    plan: &RunPlan,
    rows: impl IntoIterator<Item = &'r GameRow>,
) -> std::io::Result<()> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(std::io::BufWriter::new(file));
    for row in rows {
        write_row(&mut w, plan, row).map_err(std::io::Error::other)?;
    }
    w.flush()
}
