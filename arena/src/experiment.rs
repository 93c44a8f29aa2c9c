//! Experiment files: one TOML file names a game, its agents and matches, the number of games,
//! the seed and the caps, and optionally the published figures to set the results beside.
//!
//! ```toml
//! name = "life-seed-tables"          # results go to results/<name>/ (default: the file name)
//! game = "life"
//! seed = 2026
//! games = 1068                       # a pairing; even
//! ply_cap = 2000                     # optional
//! opening_plies = 0                  # optional
//!
//! [[match]]                          # one pairing; or `agents = [...]` with
//! agents = ["random", "random"]      # `gauntlet = true|false` for a tournament
//!
//! [[published]]                      # optional: a table to reproduce
//! match = 0                          # which [[match]]
//! source = "seed 002, ZoG AutoPlay"
//! games = 100
//! first_wins = 54                    # wins of the match's first agent playing first
//! second_wins = 46
//! draws = 0
//! ```

use serde::Deserialize;

use crate::error::CliError;
use crate::record::Settings;

/// A published result to compare with: the first agent of a match, playing the first colour,
/// against the second agent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    /// The index of the `[[match]]`.
    #[serde(rename = "match")]
    pub match_index: usize,
    /// Where the figures come from.
    pub source: String,
    /// Games played.
    pub games: u64,
    /// Wins of the first agent, who moved first.
    pub first_wins: u64,
    /// Wins of the second agent.
    pub second_wins: u64,
    /// Draws.
    pub draws: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchEntry {
    agents: [String; 2],
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: Option<String>,
    game: String,
    seed: u64,
    games: u64,
    ply_cap: Option<u32>,
    #[serde(default)]
    opening_plies: u32,
    agents: Option<Vec<String>>,
    #[serde(default)]
    gauntlet: bool,
    #[serde(rename = "match", default)]
    matches: Vec<MatchEntry>,
    #[serde(default)]
    published: Vec<Published>,
}

/// A checked experiment.
#[derive(Debug, Clone)]
pub struct Experiment {
    /// Its name: the folder under `results/`.
    pub name: String,
    /// The run's settings.
    pub settings: Settings,
    /// Published figures to compare with.
    pub published: Vec<Published>,
}

/// Distinct full agent specs, and the pairings between them as pairs of indices.
pub type Lineup = (Vec<String>, Vec<(usize, usize)>);

/// Agent list and pairings from agent specs as given: equal specs are one agent.
pub fn agents_and_pairings(groups: &[[String; 2]]) -> Result<Lineup, CliError> {
    let mut agents: Vec<String> = Vec::new();
    let mut index = |spec: &str| -> Result<usize, CliError> {
        let full = ringside_agents::AgentSpec::parse(spec)
            .map_err(|e| CliError(format!("agent '{spec}': {e}")))?
            .to_string();
        Ok(agents.iter().position(|a| *a == full).unwrap_or_else(|| {
            agents.push(full);
            agents.len() - 1
        }))
    };
    let mut pairings = Vec::new();
    for [a, b] in groups {
        pairings.push((index(a)?, index(b)?));
    }
    Ok((agents, pairings))
}

/// Round robin (every pair once) or gauntlet (the first against each other) over `agents`.
#[must_use]
pub fn schedule(agents: &[String], gauntlet: bool) -> Vec<[String; 2]> {
    let mut out = Vec::new();
    for i in 0..agents.len() {
        for j in i + 1..agents.len() {
            if !gauntlet || i == 0 {
                out.push([agents[i].clone(), agents[j].clone()]);
            }
        }
    }
    out
}

/// Checks the number of games: positive and even.
pub fn check_games(games: u64) -> Result<(), CliError> {
    if games == 0 || games % 2 == 1 {
        return Err(CliError(format!(
            "the number of games must be even and at least 2 (games come in colour-swapped pairs), not {games}"
        )));
    }
    Ok(())
}

/// Reads and checks an experiment file.
pub fn read(path: &std::path::Path) -> Result<Experiment, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError(format!("cannot read experiment {}: {e}", path.display())))?;
    let file: File = toml::from_str(&text).map_err(|e| {
        let first_line = e.to_string().lines().next().unwrap_or("").to_string();
        let msg = e.message().to_string();
        CliError(
            format!(
                "malformed experiment {}: {} {}",
                path.display(),
                first_line,
                msg
            )
            .trim_end()
            .to_string(),
        )
    })?;
    check_games(file.games)?;
    let groups = match (&file.agents, file.matches.is_empty()) {
        (Some(agents), true) if agents.len() >= 2 => schedule(agents, file.gauntlet),
        (None, false) => file.matches.iter().map(|m| m.agents.clone()).collect(),
        _ => {
            return Err(CliError(format!(
                "experiment {}: give either [[match]] entries or `agents` (two or more), not both",
                path.display()
            )));
        }
    };
    let (agents, pairings) = agents_and_pairings(&groups)?;
    for p in &file.published {
        if p.match_index >= pairings.len() {
            return Err(CliError(format!(
                "experiment {}: published match {} does not exist",
                path.display(),
                p.match_index
            )));
        }
    }
    let name = file.name.clone().unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "experiment".into())
    });
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(CliError(format!(
            "experiment {}: name '{name}' must be a plain folder name",
            path.display()
        )));
    }
    ringside_engine::registry::GameSpec::parse(&file.game).map_err(|e| CliError(e.reason))?;
    Ok(Experiment {
        name,
        settings: Settings {
            game: file.game,
            agents,
            pairings,
            games_per_pairing: file.games,
            seed: file.seed,
            ply_cap: file.ply_cap,
            opening_plies: file.opening_plies,
            sprt: None,
            shard: None,
        },
        published: file.published,
    })
}
