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
//! opening_through_decisions = false  # optional: true lets the opening play the swap's
//!                                    # decision too, as runs before it stopped there did
//! time_margin_ms = 5                 # optional: a move this far past its agent's time
//!                                    # budget loses on time
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
//!
//! A `[grid]` table makes the experiment a sweep: every cell of the grid is a run of every
//! match (see [`crate::plan::sweep`]). A sweep has no `[[published]]` tables.

use serde::Deserialize;

use crate::error::{Error, ErrorKind, Result};
use crate::plan::published::Published;
use crate::plan::sweep::{Grid, Sweep};
use crate::plan::{PlanBuilder, RunPlan};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchEntry {
    agents: Vec<String>,
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
    #[serde(default)]
    opening_through_decisions: bool,
    time_margin_ms: Option<u64>,
    agents: Option<Vec<String>>,
    gauntlet: Option<bool>,
    #[serde(rename = "match", default)]
    matches: Vec<MatchEntry>,
    #[serde(default)]
    published: Vec<Published>,
    grid: Option<toml::Table>,
}

/// A checked experiment.
#[derive(Debug, Clone)]
pub struct Experiment {
    /// Its name: the folder under `results/`.
    pub name: String,
    /// The run's plan; for a sweep, its first cell's.
    pub plan: RunPlan,
    /// The grid's cells, for a sweep.
    pub sweep: Option<Sweep>,
    /// Published figures to compare with.
    pub published: Vec<Published>,
}

/// Reads and checks an experiment file.
pub fn read(path: &std::path::Path) -> Result<Experiment> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io("read experiment", path, &e))?;
    parse(&text, path)
}

/// Checks the text of an experiment file read from `path`.
pub fn parse(text: &str, path: &std::path::Path) -> Result<Experiment> {
    let fail = |reason: String| {
        Error::new(
            ErrorKind::Experiment,
            format!("experiment {}: {reason}", path.display()),
        )
    };
    let file: File = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|span| text[..span.start.min(text.len())].lines().count().max(1));
        let place = line.map_or(String::new(), |l| format!("line {l}: "));
        fail(format!("malformed: {place}{}", e.message()))
    })?;
    let agents: Vec<String> = match (&file.agents, file.matches.is_empty()) {
        (Some(agents), true) if agents.len() >= 2 => agents.clone(),
        (None, false) => {
            if file.gauntlet.is_some() {
                return Err(fail(
                    "`gauntlet` applies to `agents = [...]`, not to [[match]] entries".into(),
                ));
            }
            let mut flat = Vec::with_capacity(2 * file.matches.len());
            for (i, m) in file.matches.iter().enumerate() {
                let [a, b] = m.agents.as_slice() else {
                    return Err(fail(format!(
                        "[[match]] {i} names {} agents; a match is two",
                        m.agents.len()
                    )));
                };
                flat.extend([a.clone(), b.clone()]);
            }
            flat
        }
        _ => {
            return Err(fail(
                "give either [[match]] entries or `agents` (two or more), not both".into(),
            ));
        }
    };
    let build = |game: &str, agents: &[String], seed: u64| -> Result<RunPlan> {
        let builder = PlanBuilder::new(game)
            .games(file.games)
            .seed(seed)
            .ply_cap(file.ply_cap)
            .opening_plies(file.opening_plies)
            .opening_through_decisions(file.opening_through_decisions)
            .time_margin_ms(file.time_margin_ms);
        let builder = if file.agents.is_some() {
            builder.tournament(agents, file.gauntlet.unwrap_or(false))
        } else {
            agents
                .chunks(2)
                .fold(builder, |b, pair| b.pairing(&pair[0], &pair[1]))
        };
        builder.build()
    };
    let (plan, sweep) = match &file.grid {
        None => (
            build(&file.game, &agents, file.seed).map_err(|e| fail(e.message))?,
            None,
        ),
        Some(table) => {
            if !file.published.is_empty() {
                return Err(fail(
                    "a sweep ([grid]) cannot have [[published]] tables".into(),
                ));
            }
            let grid = Grid::from_table(table, &agents).map_err(|e| fail(e.message))?;
            let cells = grid
                .cells(file.seed, &file.game, &agents, build)
                .map_err(|e| fail(e.message))?;
            let match_names = match file.agents {
                Some(_) => crate::plan::schedule(agents.len(), file.gauntlet.unwrap_or(false))
                    .into_iter()
                    .map(|(i, j)| format!("{} vs {}", agents[i], agents[j]))
                    .collect(),
                None => agents
                    .chunks(2)
                    .map(|p| {
                        if p[0] == p[1] {
                            format!("{} (self-play)", p[0])
                        } else {
                            format!("{} vs {}", p[0], p[1])
                        }
                    })
                    .collect(),
            };
            (
                cells[0].plan.clone(),
                Some(Sweep {
                    axes: grid.axes,
                    match_names,
                    cells,
                }),
            )
        }
    };
    for p in &file.published {
        if p.match_index >= plan.pairings.len() {
            return Err(fail(format!(
                "published match {} does not exist",
                p.match_index
            )));
        }
        if p.first_wins + p.second_wins + p.draws != p.games {
            return Err(fail(format!(
                "published match {}: {} + {} + {} is not {} games",
                p.match_index, p.first_wins, p.second_wins, p.draws, p.games
            )));
        }
    }
    let name = file.name.clone().unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "experiment".into())
    });
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(fail(format!("name '{name}' must be a plain folder name")));
    }
    Ok(Experiment {
        name,
        plan,
        sweep,
        published: file.published,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<Experiment> {
        parse(text, std::path::Path::new("x.toml"))
    }

    const HEAD: &str = "game = \"rin:size=6\"\nseed = 1\ngames = 2\n";

    #[test]
    fn a_match_of_three_agents_is_refused_not_cut_to_two() {
        let err = parse_text(&format!(
            "{HEAD}[[match]]\nagents = [\"random\", \"random\", \"mcts\"]\n"
        ))
        .unwrap_err();
        assert_eq!(err.kind, ErrorKind::Experiment);
        assert!(err.message.contains("names 3 agents"), "{err}");
    }

    #[test]
    fn gauntlet_beside_match_entries_is_refused() {
        let err = parse_text(&format!(
            "{HEAD}gauntlet = true\n[[match]]\nagents = [\"random\", \"mcts\"]\n"
        ))
        .unwrap_err();
        assert!(err.message.contains("`gauntlet` applies to"), "{err}");
    }

    #[test]
    fn malformed_files_name_the_line() {
        let err = parse_text("game = \"life\"\nseed = \"one\"\n").unwrap_err();
        assert!(err.message.contains("malformed: line 2"), "{err}");
    }
}
