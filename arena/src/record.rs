//! The games CSV (one row a game) and its settings sidecar.
//!
//! Columns, in order (see the README for their meaning): `id, pairing, pair, game, seed,
//! opening_plies, first_agent, first_spec, second_agent, second_spec, winner, winner_agent,
//! reason, plies, first_score, second_score, first_time_ms, second_time_ms, first_nodes,
//! second_nodes, first_iterations, second_iterations, moves`.
//!
//! The sidecar `FILE.csv.settings.json` holds the run's settings, the program version and the
//! commit it was built from. Rows are appended as games finish and flushed whenever no other
//! finished game is waiting, so a crash loses at most the games in flight.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::CliError;

/// One finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// The game's number in the run: `(pairing × pairs + pair) × 2 + seat`.
    pub id: u64,
    /// Which pairing of the run (index into the settings' pairings).
    pub pairing: usize,
    /// Which colour-swapped pair of that pairing.
    pub pair: u64,
    /// The game spec as played (with any drawn start choice, such as `advance:first=o`).
    pub game: String,
    /// The pair's seed: the start draw and the opening moves come from it.
    pub seed: u64,
    /// Random opening moves at the start of `moves`.
    pub opening_plies: u32,
    /// The agent (index into the settings' agents) playing the colour that moves first.
    pub first_agent: usize,
    /// Its full spec.
    pub first_spec: String,
    /// The agent playing the other colour.
    pub second_agent: usize,
    /// Its full spec.
    pub second_spec: String,
    /// `first`, `second` or `draw`.
    pub winner: String,
    /// The winning agent's index; empty for a draw.
    pub winner_agent: Option<usize>,
    /// `normal`, `ply_cap` (a draw), `agent_panic` or `illegal_move` (the faulty agent loses).
    pub reason: String,
    /// Plies played, opening included.
    pub plies: u32,
    /// The first colour's final score, for games that keep one.
    pub first_score: Option<f64>,
    /// The second colour's final score.
    pub second_score: Option<f64>,
    /// Milliseconds the first agent spent deciding (random agents are not timed: 0).
    pub first_time_ms: f64,
    /// Milliseconds the second agent spent deciding.
    pub second_time_ms: f64,
    /// Nodes the first agent searched (alpha-beta) or held (MCTS, summed over moves).
    pub first_nodes: u64,
    /// Nodes of the second agent.
    pub second_nodes: u64,
    /// MCTS iterations of the first agent.
    pub first_iterations: u64,
    /// MCTS iterations of the second agent.
    pub second_iterations: u64,
    /// Every move from the start, in the game's notation, separated by spaces.
    pub moves: String,
}

impl GameRow {
    /// The points (1, 0.5 or 0) of the pairing's first agent, which plays the first colour in
    /// the pair's even game and the second colour in the odd one. Read from the seat, so it is
    /// right in a self-pairing too, where both seats hold the same agent.
    #[must_use]
    pub fn pairing_first_points(&self) -> f64 {
        if self.id % 2 == 0 {
            self.first_points()
        } else {
            1.0 - self.first_points()
        }
    }

    /// The points of the agent in the first seat.
    #[must_use]
    pub fn first_points(&self) -> f64 {
        match self.winner.as_str() {
            "first" => 1.0,
            "second" => 0.0,
            _ => 0.5,
        }
    }
}

/// A run's settings: everything that decides its games. Resume and merge compare them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The game spec.
    pub game: String,
    /// The agents' full specs; rows refer to them by index.
    pub agents: Vec<String>,
    /// The pairings, as pairs of agent indices (the first plays the first colour in even games).
    pub pairings: Vec<(usize, usize)>,
    /// Games in each pairing (even: colour-swapped pairs).
    pub games_per_pairing: u64,
    /// The run's seed.
    pub seed: u64,
    /// Games stop as draws after this many plies.
    pub ply_cap: Option<u32>,
    /// Random opening moves of each pair.
    pub opening_plies: u32,
    /// SPRT settings `[elo0, elo1, alpha, beta]` for a two-agent match.
    pub sprt: Option<[f64; 4]>,
    /// Which shard (1-based) of how many this file holds, if sharded.
    pub shard: Option<(u64, u64)>,
}

/// The sidecar: settings plus where they came from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sidecar {
    /// The run's settings.
    pub settings: Settings,
    /// `arena` version.
    pub version: String,
    /// The commit `arena` was built from.
    pub commit: String,
}

/// The sidecar path of a games CSV.
#[must_use]
pub fn sidecar_path(csv: &Path) -> PathBuf {
    let mut name = csv.as_os_str().to_owned();
    name.push(".settings.json");
    PathBuf::from(name)
}

/// Reads a sidecar.
pub fn read_sidecar(csv: &Path) -> Result<Sidecar, CliError> {
    let path = sidecar_path(csv);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        CliError(format!(
            "cannot read the settings of {}: {} ({e})",
            csv.display(),
            path.display()
        ))
    })?;
    serde_json::from_str(&text)
        .map_err(|e| CliError(format!("corrupted settings file {}: {e}", path.display())))
}

/// Writes a sidecar for `settings`.
pub fn write_sidecar(csv: &Path, settings: &Settings) -> Result<(), CliError> {
    let sidecar = Sidecar {
        settings: settings.clone(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        commit: env!("RINGSIDE_COMMIT").to_string(),
    };
    let path = sidecar_path(csv);
    let text = serde_json::to_string_pretty(&sidecar).expect("settings serialise");
    std::fs::write(&path, text + "\n")
        .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))
}

/// Reads every row of a games CSV. A last line cut short (a run killed mid-write) is ignored:
/// that game is simply played again. Any other bad line is an error naming it.
pub fn read_rows(path: &Path) -> Result<Vec<GameRow>, CliError> {
    let mut text = String::new();
    File::open(path)
        .and_then(|mut f| f.read_to_string(&mut text))
        .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    parse_rows(complete, path)
}

fn parse_rows(text: &str, path: &Path) -> Result<Vec<GameRow>, CliError> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut rows = Vec::new();
    let mut ids = BTreeSet::new();
    for (i, row) in reader.deserialize::<GameRow>().enumerate() {
        let row = row.map_err(|e| {
            CliError(format!(
                "corrupted CSV {} at row {}: {e}",
                path.display(),
                i + 1
            ))
        })?;
        if !ids.insert(row.id) {
            return Err(CliError(format!(
                "corrupted CSV {}: game {} appears twice",
                path.display(),
                row.id
            )));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Appends rows to a games CSV, flushing each one.
pub struct RowWriter {
    writer: csv::Writer<File>,
}

impl RowWriter {
    /// Opens `path` for appending, first cutting off a partial last line; writes the header
    /// if the file is new or empty.
    pub fn open(path: &Path) -> Result<RowWriter, CliError> {
        let err = |e: std::io::Error| CliError(format!("cannot write {}: {e}", path.display()));
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(err)?;
        let mut text = Vec::new();
        file.read_to_end(&mut text).map_err(err)?;
        let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if keep < text.len() {
            file.set_len(keep as u64).map_err(err)?;
            file.seek(SeekFrom::End(0)).map_err(err)?;
        }
        let writer = csv::WriterBuilder::new()
            .has_headers(keep == 0)
            .from_writer(file);
        Ok(RowWriter { writer })
    }

    /// Appends one row (buffered: call [`RowWriter::flush`]).
    pub fn write(&mut self, row: &GameRow) -> Result<(), CliError> {
        self.writer
            .serialize(row)
            .map_err(|e| CliError(format!("cannot write a row: {e}")))
    }

    /// Writes the buffered rows to the file.
    pub fn flush(&mut self) -> Result<(), CliError> {
        self.writer
            .flush()
            .map_err(|e| CliError(format!("cannot flush the CSV: {e}")))
    }

    /// Flushes and closes.
    pub fn finish(mut self) -> Result<(), CliError> {
        self.writer
            .flush()
            .map_err(|e| CliError(format!("cannot flush the CSV: {e}")))?;
        let mut file = self
            .writer
            .into_inner()
            .map_err(|e| CliError(format!("cannot close the CSV: {e}")))?;
        file.flush()
            .map_err(|e| CliError(format!("cannot close the CSV: {e}")))
    }
}
