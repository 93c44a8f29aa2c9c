//! Joining the shard files of one run into one games CSV. Every input is checked against its
//! own sidecar (rows replayed); the result is written by write-then-rename, sidecar first, so
//! a kill leaves no games file or the whole one. A merge of some of the shards says which are
//! missing and records it in the sidecar.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use crate::error::{Error, ErrorKind, Result};
use crate::records::durable::write_with;
use crate::records::games_csv::{read_games, write_header, write_rows};
use crate::records::row::GameRow;
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

/// Merges `inputs` into `out`, which must not exist.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<MergeReport> {
    merge_with(inputs, out, &mut |_| Ok(()))
}

/// [`merge`], calling `after_row(k)` after the k-th row is written to the temporary file (a
/// test interrupts the writer through it).
pub fn merge_with(
    inputs: &[PathBuf],
    out: &Path,
    after_row: &mut dyn FnMut(u64) -> std::io::Result<()>,
) -> Result<MergeReport> {
    if out.exists() {
        return Err(Error::setting(format!(
            "{} exists already; merge writes a new file",
            out.display()
        )));
    }
    let mut plan = None;
    let mut rows: Vec<GameRow> = Vec::new();
    let mut ids = HashSet::new();
    let mut shards = BTreeSet::new();
    let mut shard_counts = BTreeSet::new();
    let mut unsharded = false;
    let mut notes = Vec::new();
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
        let file = read_games(input, &input_plan)?;
        notes.extend(file.tail.describe(input));
        for row in file.rows {
            if !ids.insert(row.id) {
                return Err(Error::new(
                    ErrorKind::Merge,
                    format!(
                        "game {} appears in more than one input ({})",
                        row.id,
                        input.display()
                    ),
                ));
            }
            rows.push(row);
        }
    }
    let plan = plan.ok_or_else(|| Error::setting("merge needs at least one input"))?;
    let missing_shards: Vec<u64> = match (shard_counts.first(), unsharded) {
        (Some(&count), false) => (1..=count).filter(|i| !shards.contains(i)).collect(),
        _ => Vec::new(),
    };
    rows.sort_by_key(|r| r.id);
    let mut sidecar = Sidecar::new(&plan);
    sidecar.merged = Some(MergeRecord {
        shards: shards.iter().copied().collect(),
        missing_shards: missing_shards.clone(),
        games: rows.len() as u64,
        planned: plan.total_games(),
    });
    write_sidecar(out, &sidecar)?;
    write_with(out, |file| {
        write_header(file)?;
        for (k, chunk) in rows.chunks(256).enumerate() {
            write_rows(file, &plan, chunk)?;
            after_row(((k + 1) * 256).min(rows.len()) as u64)?;
        }
        Ok(())
    })?;
    Ok(MergeReport {
        games: rows.len() as u64,
        planned: plan.total_games(),
        missing_shards,
        notes,
    })
}
