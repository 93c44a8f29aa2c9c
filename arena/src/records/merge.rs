//! Joining the shard files of one run into one games CSV. Every input is checked against its
//! own sidecar (rows replayed) and streamed into the output a chunk at a time, so a merge holds
//! a chunk of rows and the set of ids seen (as runs), never the games. Rows keep the inputs'
//! order (readers take rows in any order). The result is written by write-then-rename, its
//! sidecar written just before the rename, so a kill leaves no games file or the whole one. A
//! merge of some of the shards says which are missing and records it in the sidecar.
//!
//! A merge may replace an earlier merged file ([`Existing::Replace`]): the old file stays whole
//! until the new one is complete and renamed over it, so a re-merge that fails (a shard
//! refused, a kill) keeps the last good file. Two merges into one folder, a merge into a file
//! another run is writing, and a merge of a shard still being played are refused
//! ([`crate::records::lock`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::error::{Error, ErrorKind, Result};
use crate::records::durable::write_with;
use crate::records::games_csv::{read_games_with, write_header, write_rows};
use crate::records::idset::IdSet;
use crate::records::lock::{InputLock, OutputLock};
use crate::records::sidecar::{MergeRecord, Sidecar, read_sidecar, write_sidecar};

/// What a merge did.
#[derive(Debug, Clone, PartialEq)]
pub struct MergeReport {
    /// Games written.
    pub games: u64,
    /// Games the whole run plans.
    pub planned: u64,
    /// Shards of the run that no input held.
    pub missing_shards: Vec<u64>,
    /// Notes on inputs whose last line was repaired while reading.
    pub notes: Vec<String>,
}

/// What a merge does when its output exists already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Refuse: the merge writes a new file.
    Refuse,
    /// Replace it once the new file is complete (a re-merge after a missing shard is played).
    Replace,
}

/// Merges `inputs` into `out`; an existing `out` is refused or replaced as `existing` says.
pub fn merge(inputs: &[PathBuf], out: &Path, existing: Existing) -> Result<MergeReport> {
    merge_with(inputs, out, existing, &mut |_| Ok(()))
}

/// [`merge`], calling `after_row(k)` after the k-th row is written to the temporary file (a
/// test interrupts the writer through it).
pub fn merge_with(
    inputs: &[PathBuf],
    out: &Path,
    existing: Existing,
    after_row: &mut dyn FnMut(u64) -> std::io::Result<()>,
) -> Result<MergeReport> {
    let folder = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let _folder_lock = OutputLock::folder(folder)?;
    let out_lock = OutputLock::take_existing(out)?;
    if out_lock.is_some() && existing == Existing::Refuse {
        return Err(Error::setting(format!(
            "{} exists already; merge writes a new file (or replaces it when asked to)",
            out.display()
        )));
    }
    let _input_locks = inputs
        .iter()
        .map(|input| InputLock::take(input))
        .collect::<Result<Vec<_>>>()?;
    let mut plan = None;
    let mut input_plans = Vec::with_capacity(inputs.len());
    let mut shards = BTreeSet::new();
    let mut shard_counts = BTreeSet::new();
    let mut unsharded = false;
    for input in inputs {
        let (input_plan, _) = read_sidecar(input)?;
        let mut whole = input_plan.clone();
        whole.shard = None;
        match &plan {
            None => plan = Some(whole),
            Some(first) => {
                let differences = first.differences(&whole);
                if !differences.is_empty() {
                    return Err(Error::new(
                        ErrorKind::Merge,
                        format!(
                            "{} was made with other settings than {} ({})",
                            input.display(),
                            inputs[0].display(),
                            differences.join(", ")
                        ),
                    ));
                }
            }
        }
        match input_plan.shard {
            Some(s) => {
                if !shards.insert(s.index) || shard_counts.iter().any(|&c| c != s.count) {
                    return Err(Error::new(
                        ErrorKind::Merge,
                        format!(
                            "{} is shard {s}, which another input already gives or which splits the run differently",
                            input.display()
                        ),
                    ));
                }
                shard_counts.insert(s.count);
            }
            None => unsharded = true,
        }
        input_plans.push(input_plan);
    }
    let plan = plan.ok_or_else(|| Error::setting("merge needs at least one input"))?;
    let missing_shards: Vec<u64> = match (shard_counts.first(), unsharded) {
        (Some(&count), false) => (1..=count).filter(|i| !shards.contains(i)).collect(),
        _ => Vec::new(),
    };
    let mut sidecar = Sidecar::new(&plan);
    let mut ids = IdSet::new();
    let mut notes = Vec::new();
    // The library error behind a failed fill, which `write_with` sees only as an I/O error.
    let mut failure: Option<Error> = None;
    let written = write_with(out, |file| {
        let mut fail = |e: Error| {
            failure = Some(e);
            std::io::Error::other("merge stopped")
        };
        write_header(file)?;
        for (input, input_plan) in inputs.iter().zip(&input_plans) {
            let read = read_games_with(input, input_plan, &(), &mut |chunk| {
                for r in chunk {
                    if !ids.insert(r.row.id) {
                        return Err(Error::new(
                            ErrorKind::Merge,
                            format!(
                                "game {} appears in more than one input ({})",
                                r.row.id,
                                input.display()
                            ),
                        ));
                    }
                }
                write_rows(file, &plan, chunk.iter().map(|r| &r.row))
                    .and_then(|()| after_row(ids.len()))
                    .map_err(|e| Error::io("write", out, &e))
            });
            match read {
                Ok(report) => notes.extend(report.tail.describe(input)),
                Err(e) => return Err(fail(e)),
            }
        }
        sidecar.merged = Some(MergeRecord {
            shards: shards.iter().copied().collect(),
            missing_shards: missing_shards.clone(),
            games: ids.len(),
            planned: plan.total_games(),
        });
        write_sidecar(out, &sidecar).map_err(&mut fail)
    });
    if let Err(e) = written {
        return Err(failure.unwrap_or(e));
    }
    let rows_len = ids.len();
    Ok(MergeReport {
        games: rows_len,
        planned: plan.total_games(),
        missing_shards,
        notes,
    })
}
