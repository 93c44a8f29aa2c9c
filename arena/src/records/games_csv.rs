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
use crate::records::fault::RowFault;
use crate::records::idset::IdSet;
use crate::records::row::{GameRow, MoveClock, Reason, Winner};
use crate::records::sink::Sink;
use crate::records::validate::replay_row;

/// The columns, in order.
pub const COLUMNS: [&str; 29] = [
    "id",
    "pairing",
    "pair",
    "game",
    "seed",
    "opening_plies",
    "first_agent",
    "first_spec",
    "second_agent",
    "second_spec",
    "winner",
    "winner_agent",
    "reason",
    "plies",
    "first_score",
    "second_score",
    "first_time_ms",
    "second_time_ms",
    "first_nodes",
    "second_nodes",
    "first_iterations",
    "second_iterations",
    "first_moves",
    "second_moves",
    "first_max_ms",
    "second_max_ms",
    "first_overruns",
    "second_overruns",
    "moves",
];

/// The clock columns, which files written before them lack ([`Layout::Legacy`]).
pub const CLOCK_COLUMNS: [&str; 6] = [
    "first_moves",
    "second_moves",
    "first_max_ms",
    "second_max_ms",
    "first_overruns",
    "second_overruns",
];

/// [`COLUMNS`] without the clock columns: a games file's columns before they existed.
static LEGACY_COLUMNS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    COLUMNS
        .into_iter()
        .filter(|c| !CLOCK_COLUMNS.contains(c))
        .collect()
});

/// Which columns a games file has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// [`COLUMNS`], with the clocks.
    Current,
    /// Without them.
    Legacy,
}

impl Layout {
    /// The layout whose header line (with its newline) is `line`.
    #[must_use]
    pub fn of_header(line: &[u8]) -> Option<Layout> {
        [Layout::Current, Layout::Legacy]
            .into_iter()
            .find(|l| l.header_line().as_bytes() == line)
    }

    /// The layout's columns, in order.
    pub(crate) fn columns(self) -> &'static [&'static str] {
        match self {
            Layout::Current => &COLUMNS,
            Layout::Legacy => LEGACY_COLUMNS.as_slice(),
        }
    }

    /// The header line, with its newline.
    fn header_line(self) -> String {
        self.columns().join(",") + "\n"
    }
}

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

/// The fields of one record, however it was split: what [`parse_record`] reads. The csv
/// reader's records are fields; so are the slices of a line a faster splitter cut (the
/// follower of a growing file, `arena serve`, splits plain lines itself).
pub trait Fields {
    /// How many fields the record has.
    fn count(&self) -> usize;
    /// Field `i`, for `i < count()`.
    fn field(&self, i: usize) -> &str;
}

impl Fields for csv::StringRecord {
    fn count(&self) -> usize {
        self.len()
    }
    fn field(&self, i: usize) -> &str {
        &self[i]
    }
}

impl Fields for [&str] {
    fn count(&self) -> usize {
        self.len()
    }
    fn field(&self, i: usize) -> &str {
        self[i]
    }
}

/// Reads one record of a file in `layout` into a row and checks its columns against the plan
/// (id, pairing, pair, seed, seats, specs, winner), without replaying its moves: what a
/// follower of a growing file (`arena serve`) checks of each new line. The error says which
/// column and why.
pub fn parse_record(
    record: &(impl Fields + ?Sized),
    plan: &RunPlan,
    layout: Layout,
) -> std::result::Result<GameRow, RowFault> {
    parse_fields(record, plan, layout, true)
}

/// [`parse_record`] with every check, but the row's `game` and `moves` left empty: the
/// figures of [`crate::figures::summary::Tally`] read them only to count distinct games, and
/// a follower whose counts of distinct games are all full (`Tally::reads_text` false) saves
/// copying them.
pub fn parse_record_figures(
    record: &(impl Fields + ?Sized),
    plan: &RunPlan,
    layout: Layout,
) -> std::result::Result<GameRow, RowFault> {
    parse_fields(record, plan, layout, false)
}

fn parse_fields(
    record: &(impl Fields + ?Sized),
    plan: &RunPlan,
    layout: Layout,
    text: bool,
) -> std::result::Result<GameRow, RowFault> {
    let columns = layout.columns();
    if record.count() != columns.len() {
        return Err(RowFault::column(format!(
            "{} columns, not {}",
            record.count(),
            columns.len()
        )));
    }
    let field = |i: usize| record.field(i);
    fn number<T: std::str::FromStr>(text: &str, column: &str) -> std::result::Result<T, RowFault> {
        text.parse().map_err(|_| {
            RowFault::column(format!(
                "{column} '{text}' is not a number of the right kind"
            ))
        })
    }
    // A count: plain digits read by a loop, anything else (a sign, a count too large for
    // its type) by `str::parse`, which accepts or refuses it as it always did.
    fn count<T: std::str::FromStr + TryFrom<u64>>(
        text: &str,
        column: &str,
    ) -> std::result::Result<T, RowFault> {
        let b = text.as_bytes();
        if !b.is_empty() && b.len() <= 20 {
            let n = b.iter().try_fold(0u64, |n, &c| {
                c.is_ascii_digit().then_some(())?;
                n.checked_mul(10)?.checked_add(u64::from(c - b'0'))
            });
            if let Some(Ok(n)) = n.map(T::try_from) {
                return Ok(n);
            }
        }
        number(text, column)
    }
    let finite = |i: usize| -> std::result::Result<f64, RowFault> {
        let x: f64 = match plain_decimal(field(i)) {
            Some(x) => x,
            None => number(field(i), COLUMNS[i])?,
        };
        if x.is_finite() {
            Ok(x)
        } else {
            Err(RowFault::column(format!(
                "{} '{}' is not finite",
                COLUMNS[i],
                field(i)
            )))
        }
    };
    let score = |i: usize| -> std::result::Result<Option<f64>, RowFault> {
        if field(i).is_empty() {
            Ok(None)
        } else {
            finite(i).map(Some)
        }
    };
    // Side `side`'s clock: its three columns, all empty (a row of a game played in `arena
    // play`, say) or all numbers; none in a legacy file.
    let clock = |side: usize| -> std::result::Result<Option<MoveClock>, RowFault> {
        if layout == Layout::Legacy {
            return Ok(None);
        }
        let [moves, max, overruns] = [22, 24, 26].map(|i| i + side);
        if [moves, max, overruns].iter().all(|&i| field(i).is_empty()) {
            return Ok(None);
        }
        let max_ms = finite(max)?;
        if max_ms < 0.0 {
            return Err(RowFault::column(format!(
                "{} '{}' is negative",
                COLUMNS[max],
                field(max)
            )));
        }
        Ok(Some(MoveClock {
            moves: count(field(moves), COLUMNS[moves])?,
            max_ms,
            overruns: count(field(overruns), COLUMNS[overruns])?,
        }))
    };
    let id: u64 = count(field(0), "id")?;
    let slot = plan.slot(id).ok_or_else(|| {
        RowFault::column(format!(
            "game id {id} is outside the run ({} games)",
            plan.total_games()
        ))
    })?;
    if !plan.in_shard(id) {
        let shard = plan.shard.map(|s| s.to_string()).unwrap_or_default();
        return Err(RowFault::column(format!(
            "game {id} does not belong to shard {shard}"
        )));
    }
    let pairing: usize = count(field(1), "pairing")?;
    let pair: u64 = count(field(2), "pair")?;
    if (pairing, pair) != (slot.pairing, slot.pair) {
        return Err(RowFault::column(format!(
            "game {id} is pairing {}, pair {} of the run, not pairing {pairing}, pair {pair}",
            slot.pairing, slot.pair
        )));
    }
    let seed: u64 = count(field(4), "seed")?;
    if seed != plan.pair_seed(slot) {
        return Err(RowFault::column(format!(
            "seed {seed} is not the seed of game {id}'s pair ({}): a row of another run?",
            plan.pair_seed(slot)
        )));
    }
    let opening_plies: u32 = count(field(5), "opening_plies")?;
    if opening_plies > plan.opening_plies {
        return Err(RowFault::column(format!(
            "{opening_plies} opening plies, more than the run's {}",
            plan.opening_plies
        )));
    }
    let (first, second) = plan.seated_agents(slot);
    let first_agent: usize = count(field(6), "first_agent")?;
    let second_agent: usize = count(field(8), "second_agent")?;
    if (first_agent, second_agent) != (first, second) {
        return Err(RowFault::column(format!(
            "game {id} seats agents {first} and {second}, not {first_agent} and {second_agent}"
        )));
    }
    for (column, agent) in [(7, first), (9, second)] {
        if field(column) != plan.agents[agent].full {
            return Err(RowFault::column(format!(
                "{} '{}' is not agent {agent}'s spec '{}'",
                COLUMNS[column],
                field(column),
                plan.agents[agent].full
            )));
        }
    }
    let winner: Winner = field(10).parse()?;
    let reason: Reason = field(12).parse()?;
    let row = GameRow {
        id,
        slot,
        game: if text {
            field(3).to_string()
        } else {
            String::new()
        },
        seed,
        opening_plies,
        first_agent,
        second_agent,
        winner,
        reason,
        plies: count(field(13), "plies")?,
        first_score: score(14)?,
        second_score: score(15)?,
        first_time_ms: finite(16)?,
        second_time_ms: finite(17)?,
        first_nodes: count(field(18), "first_nodes")?,
        second_nodes: count(field(19), "second_nodes")?,
        first_iterations: count(field(20), "first_iterations")?,
        second_iterations: count(field(21), "second_iterations")?,
        first_clock: clock(0)?,
        second_clock: clock(1)?,
        moves: if text {
            field(columns.len() - 1).to_string()
        } else {
            String::new()
        },
        fault: None,
    };
    let recorded_winner = if field(11).is_empty() {
        None
    } else {
        Some(count::<usize>(field(11), "winner_agent")?)
    };
    if recorded_winner != row.winner_agent() {
        return Err(RowFault::column(format!(
            "winner_agent '{}' does not match winner '{}'",
            field(11),
            row.winner
        )));
    }
    match (reason, winner) {
        (Reason::PlyCap, w) if w != Winner::Draw => {
            Err(RowFault::column("a game stopped by the ply cap is a draw"))
        }
        (r, Winner::Draw) if r != Reason::Normal && r != Reason::PlyCap => Err(RowFault::column(
            format!("a game ended by {r} has a winner"),
        )),
        _ => Ok(row),
    }
}

/// `text` as a number when it is a plain decimal (`123` or `12.345`, at most 15 digits),
/// which the rows' times and scores are: the digits as an integer divided by a power of ten,
/// both exact in a double, so the one rounded division gives what `str::parse` gives
/// (Clinger's fast path), without its general parser. `None` for any other text.
fn plain_decimal(text: &str) -> Option<f64> {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let b = text.as_bytes();
    if b.is_empty() || b.len() > 16 {
        return None;
    }
    let (mut m, mut digits, mut point) = (0u64, 0usize, None);
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                m = m * 10 + u64::from(c - b'0');
                digits += 1;
            }
            b'.' if point.is_none() && i > 0 && i + 1 < b.len() => point = Some(i),
            _ => return None,
        }
    }
    if digits > 15 {
        return None;
    }
    let scale = point.map_or(0, |p| b.len() - p - 1);
    Some(m as f64 / POW10[scale])
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

#[cfg(test)]
mod tests {
    use super::plain_decimal;

    #[test]
    fn plain_decimals_read_as_the_standard_parser_reads_them() {
        for text in [
            "0.0",
            "18.0",
            "0.5",
            "00.10",
            "7",
            "123.456",
            "999999999999999",
        ] {
            assert_eq!(plain_decimal(text), Some(text.parse().unwrap()), "{text}");
        }
        // Every digit count and point position, digits from a fixed generator.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for digits in 1..=15usize {
            for point in 0..digits {
                for _ in 0..200 {
                    let mut text = String::new();
                    for d in 0..digits {
                        if d == point && point > 0 {
                            text.push('.');
                        }
                        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        text.push(char::from(b'0' + (x >> 60) as u8 % 10));
                    }
                    let want: f64 = text.parse().unwrap();
                    assert_eq!(
                        plain_decimal(&text).map(f64::to_bits),
                        Some(want.to_bits()),
                        "{text}"
                    );
                }
            }
        }
    }

    #[test]
    fn other_numbers_are_left_to_the_standard_parser() {
        for text in [
            "",
            ".5",
            "5.",
            "1e3",
            "-1.0",
            "+1",
            "1.2.3",
            "inf",
            "NaN",
            "1 ",
            "1234567890123456",
        ] {
            assert_eq!(plain_decimal(text), None, "{text}");
        }
    }
}
