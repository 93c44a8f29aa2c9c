//! The settings sidecar `FILE.csv.settings.json`: the run's plan as plain data, the program
//! version and the commit it was built from, and for a merged file which shards it holds.
//! Written by write-then-rename; read back through [`RunPlan::from_recorded`], so a sidecar is
//! checked as flags are, but its agents are not built (reading games needs none of their files).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};
use crate::plan::{RawPlan, RunPlan};
use crate::records::durable::write_atomically;

/// The sidecar format this version writes and reads.
pub const FORMAT: u32 = 2;

/// What a merged file holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MergeRecord {
    /// Shards (1-based) among the inputs.
    pub shards: Vec<u64>,
    /// Shards of the run no input held: the file is partial.
    pub missing_shards: Vec<u64>,
    /// Games in the merged file.
    pub games: u64,
    /// Games the whole run plans.
    pub planned: u64,
}

/// The sidecar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sidecar {
    /// The format version ([`FORMAT`]).
    pub format: u32,
    /// The run's plan.
    pub settings: RawPlan,
    /// `arena` version.
    pub version: String,
    /// The commit `arena` was built from (`-dirty` when it had uncommitted changes).
    pub commit: String,
    /// Set on a file written by `merge`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<MergeRecord>,
}

impl Sidecar {
    /// A sidecar for `plan`, stamped with this build.
    #[must_use]
    pub fn new(plan: &RunPlan) -> Sidecar {
        Sidecar {
            format: FORMAT,
            settings: plan.to_raw(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            commit: env!("RINGSIDE_COMMIT").to_string(),
            merged: None,
        }
    }
}

/// The sidecar path of a games CSV.
#[must_use]
pub fn sidecar_path(csv: &Path) -> PathBuf {
    let mut name = csv.as_os_str().to_owned();
    name.push(".settings.json");
    PathBuf::from(name)
}

/// Reads and checks the sidecar of `csv`.
pub fn read_sidecar(csv: &Path) -> Result<(RunPlan, Sidecar)> {
    let path = sidecar_path(csv);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        Error::new(
            ErrorKind::Io,
            format!(
                "cannot read the settings of {}: {} ({e})",
                csv.display(),
                path.display()
            ),
        )
    })?;
    let corrupt =
        |reason: String| Error::corrupt(format!("settings file {}: {reason}", path.display()));
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| corrupt(e.to_string()))?;
    let format = value
        .get("format")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(1);
    if format != u64::from(FORMAT) {
        return Err(corrupt(format!(
            "format {format}, but this arena reads format {FORMAT}; rerun the experiment into a fresh file"
        )));
    }
    let sidecar: Sidecar = serde_json::from_value(value).map_err(|e| corrupt(e.to_string()))?;
    let plan = RunPlan::from_recorded(&sidecar.settings).map_err(|e| corrupt(e.message))?;
    Ok((plan, sidecar))
}

/// Writes `sidecar` beside `csv`, by write-then-rename.
pub fn write_sidecar(csv: &Path, sidecar: &Sidecar) -> Result<()> {
    let text = serde_json::to_string_pretty(sidecar).expect("settings serialise") + "\n";
    write_atomically(&sidecar_path(csv), text.as_bytes())
}
