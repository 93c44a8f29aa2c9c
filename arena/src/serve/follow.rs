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
use crate::records::games_csv::{Layout, parse_record, parse_record_figures};
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
    counts: Counts,
    modified: Option<SystemTime>,
    error: Option<String>,
}

/// Why a line did not read: its line number and the reason.
type LineFault = (u64, String);

/// A group of lines read: its rows, each with its line's index in the group, and the first
/// line that did not read, if one did not (nothing after it is read).
type GroupRows = (Vec<(usize, GameRow)>, Option<LineFault>);

impl Followed {
    /// Starts following `csv`, whose settings sidecar must read; nothing of the games is read
    /// before [`Followed::refresh`].
    pub fn open(csv: &Path) -> crate::Result<Followed> {
        let (plan, _) = read_sidecar(csv)?;
        Ok(Followed {
            csv: csv.to_path_buf(),
            counts: Counts::new(&plan),
            plan,
            layout: None,
            offset: 0,
            line: 1,
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
        &self.counts.tally
    }

    /// The run's SPRT over the rows read, if it has one.
    #[must_use]
    pub fn sprt(&self) -> Option<&Sprt> {
        self.counts.sprt.as_ref()
    }

    /// Rows read.
    #[must_use]
    pub fn rows(&self) -> u64 {
        self.counts.rows
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

    /// Reads the complete lines between the offset and `len`, in blocks: while one block's
    /// lines are parsed (in parallel), the block before is folded and the block after read, so
    /// that the serial work overlaps the parsing.
    fn read_to(&mut self, len: u64) -> Result<(), String> {
        let path = self.csv.display().to_string();
        let io = |e: std::io::Error| format!("{path}: {e}");
        let at = |(line, why): LineFault| format!("{path}: line {line}: {why}");
        let mut file = File::open(&self.csv).map_err(io)?;
        file.seek(SeekFrom::Start(self.offset)).map_err(io)?;
        let mut file = file.take(len - self.offset);
        let (mut current, mut next) = (Vec::new(), Vec::new());
        let mut got = fill(&mut file, &mut current).map_err(io)?;
        // Where the next block starts in the file, and its first line's number.
        let (mut offset, mut line) = (self.offset, self.line);
        let mut pending: Option<Parsed> = None;
        loop {
            let Some(end) = memchr::memrchr(b'\n', &current).map(|i| i + 1) else {
                if current.len() > MAX_LINE {
                    return Err(format!("{path}: line {line}: longer than {MAX_LINE} bytes"));
                }
                if got == 0 {
                    break;
                }
                got = fill(&mut file, &mut current).map_err(io)?;
                continue;
            };
            let block_end = offset + end as u64;
            let mut block = &current[..end];
            if self.layout.is_none() {
                let header = memchr::memchr(b'\n', block).map_or(block.len(), |i| i + 1);
                let layout = Layout::of_header(&block[..header])
                    .ok_or_else(|| at((1, "not the header of a games CSV".to_string())))?;
                self.layout = Some(layout);
                (offset, line) = (offset + header as u64, 2);
                block = &block[header..];
            }
            let layout = self.layout.expect("read from the header");
            next.clear();
            next.extend_from_slice(&current[end..]);
            // Once every count of distinct games is full, no row's text is read again (the
            // counts as they stand before the block still being folded: they only fill up).
            let keep_text = self.counts.tally.reads_text();
            let (plan, counts) = (&self.plan, &mut self.counts);
            let (folded, parsed) = rayon::join(
                || {
                    let done = match pending.take() {
                        Some(p) => Some(counts.fold(p).map_err(at)?),
                        None => None,
                    };
                    let got = if got == 0 {
                        0
                    } else {
                        fill(&mut file, &mut next).map_err(io)?
                    };
                    Ok::<_, String>((done, got))
                },
                || Parsed::of(block, offset, line, plan, layout, keep_text),
            );
            let (done, read) = folded?;
            if let Some((o, l)) = done {
                (self.offset, self.line) = (o, l);
            }
            got = read;
            debug_assert_eq!(parsed.end(), block_end);
            (offset, line) = (block_end, parsed.first_line + parsed.lines() as u64);
            pending = Some(parsed);
            std::mem::swap(&mut current, &mut next);
        }
        if let Some(p) = pending.take() {
            (self.offset, self.line) = self.counts.fold(p).map_err(at)?;
        }
        Ok(())
    }

    /// Rows `from..from + count` of the file (fewer at its end), read back through the index.
    pub fn rows_at(&self, from: u64, count: u64) -> Result<Vec<GameRow>, String> {
        let (Some(layout), true) = (self.layout, from < self.counts.rows && count > 0) else {
            return Ok(Vec::new());
        };
        let count = count.min(self.counts.rows - from);
        let at = self.counts.index[(from / INDEX_EVERY) as usize];
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
        match parse_lines(&buf[begin..end], &self.plan, layout, 0, true) {
            (rows, None) => Ok(rows.into_iter().map(|(_, row)| row).collect()),
            (_, Some((_, why))) => Err(why),
        }
    }
}

/// What the follower counts of the rows read: the summary's figures, the SPRT, the ids seen
/// and the sparse index of row offsets.
#[derive(Debug)]
struct Counts {
    tally: Tally,
    sprt: Option<Sprt>,
    ids: IdSet,
    rows: u64,
    index: Vec<u64>,
}

impl Counts {
    fn new(plan: &RunPlan) -> Counts {
        Counts {
            tally: Tally::new(plan),
            sprt: plan.sprt.map(Sprt::new),
            ids: IdSet::new(),
            rows: 0,
            index: Vec::new(),
        }
    }

    /// Folds a parsed block's rows in file order; the file offset and line number after it.
    /// The rows before a bad one still count; nothing after it is read.
    fn fold(&mut self, p: Parsed) -> Result<(u64, u64), LineFault> {
        for (g, (rows, fault)) in p.rows.iter().enumerate() {
            let group = g * GROUP_ROWS;
            for (in_group, row) in rows {
                let k = group + in_group;
                let line = p.first_line + k as u64;
                if !self.ids.insert(row.id) {
                    return Err((line, format!("game {} appears twice", row.id)));
                }
                if self.rows.is_multiple_of(INDEX_EVERY) {
                    self.index.push(p.offset + p.starts[k] as u64);
                }
                self.tally.add(row, None);
                if let Some(s) = &mut self.sprt {
                    s.add(row);
                }
                self.rows += 1;
            }
            if let Some(fault) = fault {
                return Err(fault.clone());
            }
        }
        Ok((p.end(), p.first_line + p.lines() as u64))
    }
}

/// One block of complete lines, parsed and not yet folded.
struct Parsed {
    /// The file offset of the block's first line (after the header, in the first block).
    offset: u64,
    /// The first line's number.
    first_line: u64,
    /// Each line's start in the block, and the block's length last.
    starts: Vec<usize>,
    /// Each group of [`GROUP_ROWS`] lines' rows (with their line's index in the group) and
    /// its first bad line.
    rows: Vec<GroupRows>,
}

impl Parsed {
    /// Lines in the block.
    fn lines(&self) -> usize {
        self.starts.len() - 1
    }

    /// The file offset the block ends at.
    fn end(&self) -> u64 {
        self.offset + *self.starts.last().expect("the block's length") as u64
    }

    /// Parses `block`, complete lines from file offset `offset` to `end`, the first of them
    /// line `first_line`, [`GROUP_ROWS`] lines a task.
    fn of(
        block: &[u8],
        offset: u64,
        first_line: u64,
        plan: &RunPlan,
        layout: Layout,
        keep_text: bool,
    ) -> Parsed {
        let mut starts: Vec<usize> = Vec::with_capacity(block.len() / 128 + 1);
        starts.push(0);
        starts.extend(memchr::memchr_iter(b'\n', block).map(|i| i + 1));
        // `starts` ends with the block's length: every line is [starts[k], starts[k + 1]).
        let lines = starts.len() - 1;
        let groups: Vec<(usize, usize)> = (0..lines)
            .step_by(GROUP_ROWS)
            .map(|k| (k, (k + GROUP_ROWS).min(lines)))
            .collect();
        let rows = groups
            .par_iter()
            .map(|&(k, j)| {
                parse_lines_at(
                    &block[starts[k]..starts[j]],
                    &starts[k..=j],
                    plan,
                    layout,
                    first_line + k as u64,
                    keep_text,
                )
            })
            .collect();
        Parsed {
            offset,
            first_line,
            starts,
            rows,
        }
    }
}

/// Reads up to [`BLOCK`] more bytes of `r` onto the end of `buf`; the bytes read.
fn fill(r: &mut impl std::io::Read, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    r.take(BLOCK as u64).read_to_end(buf)
}

/// The rows of `bytes`, complete lines of a file in `layout` whose first is line `first`, each
/// with its line's index in `bytes`, up to the first line that does not read, and why that one
/// did not. A plain line (UTF-8, no quote inside a field, no carriage return) is split here at
/// its commas; any other line goes to the csv reader, so every line reads as the summary's
/// reader reads it, only faster.
fn parse_lines(
    bytes: &[u8],
    plan: &RunPlan,
    layout: Layout,
    first: u64,
    keep_text: bool,
) -> GroupRows {
    let mut starts = vec![0];
    starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1));
    parse_lines_at(bytes, &starts, plan, layout, first, keep_text)
}

/// [`parse_lines`] where the lines' starts are known: line `k` is
/// `bytes[starts[k] - starts[0]..starts[k + 1] - starts[0]]`, `starts` ending at the end of
/// `bytes`.
fn parse_lines_at(
    bytes: &[u8],
    starts: &[usize],
    plan: &RunPlan,
    layout: Layout,
    first: u64,
    keep_text: bool,
) -> GroupRows {
    let mut rows = Vec::with_capacity(GROUP_ROWS);
    let parse = |fields: &[&str]| {
        if keep_text {
            parse_record(fields, plan, layout)
        } else {
            parse_record_figures(fields, plan, layout)
        }
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return parse_csv_lines(bytes, plan, layout, first);
    };
    let columns = layout.columns().len();
    // A group without a quote or a carriage return (as runs write them) is split at its
    // commas without looking for them line by line.
    let plain = memchr::memchr2(b'"', b'\r', bytes).is_none();
    let mut fields: Vec<&str> = Vec::with_capacity(columns);
    let lines = starts
        .windows(2)
        .map(|w| &text[w[0] - starts[0]..w[1] - starts[0] - 1]);
    for (k, line) in lines.enumerate() {
        let at = first + k as u64;
        fields.clear();
        let split = if plain && !line.is_empty() {
            split_commas(line, columns, &mut fields);
            true
        } else {
            split_plain(line, columns, &mut fields)
        };
        if !split {
            let (read, fault) = parse_csv_lines(line.as_bytes(), plan, layout, at);
            rows.extend(read.into_iter().map(|(_, row)| (k, row)));
            match fault {
                Some(fault) => return (rows, Some(fault)),
                None => continue,
            }
        }
        match parse(fields.as_slice()) {
            Ok(row) => rows.push((k, row)),
            Err(f) => return (rows, Some((at, f.reason))),
        }
    }
    (rows, None)
}

/// Splits `line` at its commas into `fields` where the csv reader would split it the same way:
/// false (and `fields` unspecified) for an empty line, a quote that does not open and close a
/// whole field, a doubled quote, or a carriage return outside quotes. `columns` is how many
/// fields a row should have (any count splits right; that many splits fastest).
fn split_plain<'a>(line: &'a str, columns: usize, fields: &mut Vec<&'a str>) -> bool {
    fields.clear();
    let b = line.as_bytes();
    match memchr::memchr2(b'"', b'\r', b) {
        _ if b.is_empty() => return false,
        None => {
            split_commas(line, columns, fields);
            return true;
        }
        Some(i) if b[i] == b'\r' => return false,
        Some(_) => {}
    }
    let mut at = 0;
    loop {
        if b.get(at) == Some(&b'"') {
            let Some(close) = memchr::memchr(b'"', &b[at + 1..]).map(|i| at + 1 + i) else {
                return false;
            };
            fields.push(&line[at + 1..close]);
            match b.get(close + 1) {
                None => return true,
                Some(b',') => at = close + 2,
                Some(_) => return false,
            }
            continue;
        }
        match memchr::memchr3(b',', b'"', b'\r', &b[at..]) {
            None => {
                fields.push(&line[at..]);
                return true;
            }
            Some(i) if b[at + i] == b',' => {
                fields.push(&line[at..at + i]);
                at += i + 1;
            }
            Some(_) => return false,
        }
    }
}

/// Splits `line`, non-empty with no quote and no carriage return, at every comma into
/// `fields`. The short fields are cut eight bytes at a time; the last (a game's moves, the
/// long one) needs only a search for a comma that would make a column too many.
fn split_commas<'a>(line: &'a str, columns: usize, fields: &mut Vec<&'a str>) {
    let b = line.as_bytes();
    let (mut at, mut word) = (0, 0);
    // Where the search by memchr takes over: after the words, or after the comma
    // before the last column.
    let mut base = b.len() - b.len() % 8;
    'words: while word + 8 <= b.len() {
        let w = u64::from_le_bytes(b[word..word + 8].try_into().expect("eight bytes"));
        let mut commas = zero_bytes(w ^ u64::from_ne_bytes([b','; 8]));
        while commas != 0 {
            let i = word + (commas.trailing_zeros() / 8) as usize;
            fields.push(&line[at..i]);
            at = i + 1;
            if fields.len() + 1 == columns {
                base = at;
                break 'words;
            }
            commas &= commas - 1;
        }
        word += 8;
    }
    for i in memchr::memchr_iter(b',', &b[base..]).map(|i| base + i) {
        fields.push(&line[at..i]);
        at = i + 1;
    }
    fields.push(&line[at..]);
}

/// The high bit of each zero byte of `x`, and no other bit: exact, since no sum carries out of
/// its byte (a byte's low seven bits plus 0x7f is at most 0xfe).
fn zero_bytes(x: u64) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    !(((x & LOW) + LOW) | x | LOW)
}

/// [`parse_lines`] by the csv reader, a record a line.
fn parse_csv_lines(bytes: &[u8], plan: &RunPlan, layout: Layout, first: u64) -> GroupRows {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut record = csv::ByteRecord::new();
    let mut rows = Vec::new();
    loop {
        let k = rows.len();
        let line = first + k as u64;
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
            Ok(row) => rows.push((k, row)),
            Err(f) => return (rows, Some((line, f.reason))),
        }
        record = text.into_byte_record();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields split here, the same whatever count of columns is expected.
    fn split(line: &str) -> Option<Vec<&str>> {
        let mut answers = (1..=12).map(|columns| {
            let mut fields = Vec::new();
            split_plain(line, columns, &mut fields).then_some(fields)
        });
        let first = answers.next().unwrap();
        assert!(answers.all(|a| a == first), "{line:?}");
        first
    }

    /// What the csv reader makes of one line, for comparison.
    fn csv_fields(line: &str) -> Vec<String> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(line.as_bytes());
        reader
            .records()
            .next()
            .map(|r| r.unwrap().iter().map(str::to_string).collect())
            .unwrap_or_default()
    }

    #[test]
    fn plain_lines_split_as_the_csv_reader_splits_them() {
        for line in [
            "1,0,0,rin:size=6,42,0,random,,draw,a1 b2",
            "a,\"hex:size=5,swap=on\",b",
            "\"mcts:iters=10,c=1.4\",\"x\"",
            "a,,b,",
            ",",
            "\"\"",
            "one",
            ",,,,,,,,,,,,,,,,,,,,,,,,,x",
            "abcdefg,abcdefgh,abcdefghi,1234567,12345678,,",
            "1,0,0,rin:size=6,12676427538376583005,0,0,random,0,random,draw,,normal,36,18.0,18.0",
        ] {
            let ours = split(line).unwrap_or_else(|| panic!("{line:?} should split here"));
            assert_eq!(ours, csv_fields(line), "{line:?}");
        }
    }

    #[test]
    fn zero_bytes_marks_exactly_the_zero_bytes() {
        let mut x: u64 = 1;
        for _ in 0..10_000 {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            // Bytes drawn from a few values near zero, where a borrow or carry would show.
            let bytes = x
                .to_le_bytes()
                .map(|b| [0, 1, 0x80, 0x7f, 0xff, b][usize::from(b % 6)]);
            let want = bytes.iter().enumerate().fold(0u64, |m, (i, &b)| {
                m | if b == 0 { 0x80 << (8 * i) } else { 0 }
            });
            assert_eq!(zero_bytes(u64::from_le_bytes(bytes)), want, "{bytes:?}");
        }
    }

    #[test]
    fn lines_the_csv_reader_reads_differently_are_left_to_it() {
        for line in [
            "",
            "a\"b,c",
            "\"a\"\"b\",c",
            "\"a\"b,c",
            "a,b\r",
            "a\rb,c",
            "\"open,c",
        ] {
            assert!(split(line).is_none(), "{line:?} split here");
        }
    }
}
