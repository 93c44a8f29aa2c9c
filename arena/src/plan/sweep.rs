//! Sweeps: an experiment's grid of game options and agent options, crossed with its matches.
//!
//! ```toml
//! game = "ikabegama:side=9"
//! [grid]
//! distance = [1, 2, 3]               # a game option: added to `game` in each cell
//! iters = [100, 1000]                # used as {iters} in agent specs: an agent option
//! [[match]]
//! agents = ["mcts:iters={iters}", "random"]
//! ```
//!
//! - **Axes.** A key written as `{key}` in some agent spec is an *agent axis*: its value
//!   replaces the placeholder. The key `game` replaces the experiment's game spec (the other
//!   game options of the grid are added to it). Any other key is a *game option*, added to
//!   the game spec as `key=value`. A value is a TOML string, integer, float or boolean.
//! - **Cells.** The grid is crossed in the order its keys are written, the last key varying
//!   fastest: `distance=1,iters=100`, `distance=1,iters=1000`, `distance=2,iters=100`, …
//!   Each cell is a complete run of every match, colour-swapped, in its own folder
//!   `cells/<label>/games.csv` (with its settings sidecar), so a cell resumes, verifies and
//!   summarises like any run.
//! - **Seeds.** A cell's seed is drawn from the experiment's seed and the cell's label
//!   ([`cell_seed`]), not its position: adding a value to an axis leaves every other cell's
//!   games, and its finished file, as they were.
//! - **Checks.** Every cell's game and agents are checked before any game is played: an
//!   unknown option, an empty list, a value out of range or an unused placeholder is one line
//!   naming the cell.

use ringside_engine::zobrist::splitmix64;

use crate::error::{Error, ErrorKind, Result};
use crate::plan::RunPlan;

/// What a grid key changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AxisKind {
    /// The key `game`: the whole game spec.
    Game,
    /// A game option, added to the game spec.
    GameOption,
    /// A `{key}` placeholder in agent specs.
    Agent,
}

/// One key of the grid and its values, as text.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The key as written.
    pub key: String,
    /// Its values in the order written.
    pub values: Vec<String>,
    /// What it changes.
    pub kind: AxisKind,
}

impl Axis {
    /// Whether every value is a number: such an axis can be a plot's horizontal axis.
    #[must_use]
    pub fn is_numeric(&self) -> bool {
        self.values.iter().all(|v| v.parse::<f64>().is_ok())
    }
}

/// One cell of a sweep: one value of each axis, and the run it makes.
#[derive(Debug, Clone, PartialEq)]
pub struct GridCell {
    /// The value of each axis, in axis order.
    pub values: Vec<String>,
    /// `key=value` pairs joined by commas: the cell's name in summaries.
    pub label: String,
    /// The folder under the experiment's results: the label with characters other than
    /// letters, digits and `.=,-` replaced by `_`.
    pub folder: String,
    /// The cell's run.
    pub plan: RunPlan,
}

/// A checked sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// The grid's keys.
    pub axes: Vec<Axis>,
    /// Each match's name as written, placeholders and all (`mcts:iters={iters} vs random`),
    /// by pairing index: the same in every cell.
    pub match_names: Vec<String>,
    /// Every cell, the last axis varying fastest.
    pub cells: Vec<GridCell>,
}

/// A grid's keys and values as read, before cells are built.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// The axes in the order written.
    pub axes: Vec<Axis>,
}

/// The seed of the cell labelled `label` in an experiment seeded `seed`: the run's seed
/// mixed with a 64-bit FNV-1a hash of the label.
#[must_use]
pub fn cell_seed(seed: u64, label: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in label.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    splitmix64(seed ^ splitmix64(h))
}

fn grid_error(message: String) -> Error {
    Error::new(ErrorKind::Experiment, message)
}

impl Grid {
    /// Reads a `[grid]` table; `agents` are the experiment's agent specs as written, to tell
    /// agent axes (used as `{key}`) from game options.
    pub fn from_table(table: &toml::Table, agents: &[String]) -> Result<Grid> {
        if table.is_empty() {
            return Err(grid_error("[grid] names no keys".into()));
        }
        let mut axes = Vec::with_capacity(table.len());
        for (key, value) in table {
            if key.is_empty()
                || !key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            {
                return Err(grid_error(format!(
                    "grid key '{key}' must be letters, digits, '_' and '.'"
                )));
            }
            let toml::Value::Array(list) = value else {
                return Err(grid_error(format!(
                    "grid key '{key}' must be a list of values, such as {key} = [1, 2, 3]"
                )));
            };
            if list.is_empty() {
                return Err(grid_error(format!("grid key '{key}' has no values")));
            }
            let placeholder = format!("{{{key}}}");
            let kind = if key == "game" {
                AxisKind::Game
            } else if agents.iter().any(|a| a.contains(&placeholder)) {
                AxisKind::Agent
            } else {
                AxisKind::GameOption
            };
            let mut values: Vec<String> = Vec::with_capacity(list.len());
            for v in list {
                let text = match v {
                    toml::Value::String(s) => s.trim().to_string(),
                    toml::Value::Integer(i) => i.to_string(),
                    toml::Value::Float(f) => f.to_string(),
                    toml::Value::Boolean(b) => b.to_string(),
                    other => {
                        return Err(grid_error(format!(
                            "grid key '{key}': {other} is not a string, number or boolean"
                        )));
                    }
                };
                if text.is_empty() {
                    return Err(grid_error(format!("grid key '{key}' has an empty value")));
                }
                if kind != AxisKind::Game && text.contains([',', ':', '=', '{', '}']) {
                    return Err(grid_error(format!(
                        "grid key '{key}': value '{text}' may not contain , : = {{ }}"
                    )));
                }
                if values.contains(&text) {
                    return Err(grid_error(format!("grid key '{key}' lists '{text}' twice")));
                }
                values.push(text);
            }
            axes.push(Axis {
                key: key.clone(),
                values,
                kind,
            });
        }
        Ok(Grid { axes })
    }

    /// The cells' values, the last axis varying fastest.
    #[must_use]
    pub fn combinations(&self) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = vec![Vec::new()];
        for axis in &self.axes {
            out = out
                .into_iter()
                .flat_map(|prefix| {
                    axis.values.iter().map(move |v| {
                        let mut next = prefix.clone();
                        next.push(v.clone());
                        next
                    })
                })
                .collect();
        }
        out
    }

    /// The game spec and agent specs of the cell with `values`.
    #[must_use]
    pub fn substitute(
        &self,
        values: &[String],
        game: &str,
        agents: &[String],
    ) -> (String, Vec<String>) {
        let mut game = game.to_string();
        for (axis, value) in self.axes.iter().zip(values) {
            if axis.kind == AxisKind::Game {
                game.clone_from(value);
            }
        }
        for (axis, value) in self.axes.iter().zip(values) {
            if axis.kind == AxisKind::GameOption {
                game.push(if game.contains(':') { ',' } else { ':' });
                game.push_str(&format!("{}={value}", axis.key));
            }
        }
        let agents = agents
            .iter()
            .map(|a| {
                let mut a = a.clone();
                for (axis, value) in self.axes.iter().zip(values) {
                    if axis.kind == AxisKind::Agent {
                        a = a.replace(&format!("{{{}}}", axis.key), value);
                    }
                }
                a
            })
            .collect();
        (game, agents)
    }

    /// Builds every cell with `build(game, agents, seed)`, which makes the cell's plan from
    /// its substituted specs; errors name the cell.
    pub fn cells(
        &self,
        seed: u64,
        game: &str,
        agents: &[String],
        build: impl Fn(&str, &[String], u64) -> Result<RunPlan>,
    ) -> Result<Vec<GridCell>> {
        let mut cells: Vec<GridCell> = Vec::new();
        for values in self.combinations() {
            let label = self
                .axes
                .iter()
                .zip(&values)
                .map(|(a, v)| format!("{}={v}", a.key))
                .collect::<Vec<_>>()
                .join(",");
            let (cell_game, cell_agents) = self.substitute(&values, game, agents);
            if let Some(a) = cell_agents.iter().find(|a| a.contains(['{', '}'])) {
                return Err(grid_error(format!(
                    "grid cell {label}: agent '{a}' has a placeholder the grid does not name"
                )));
            }
            let plan = build(&cell_game, &cell_agents, cell_seed(seed, &label))
                .map_err(|e| grid_error(format!("grid cell {label}: {}", e.message)))?;
            let folder: String = label
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || ".=,-".contains(c) {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            if let Some(other) = cells.iter().find(|c| c.folder == folder) {
                return Err(grid_error(format!(
                    "grid cells {} and {label} would share the folder {folder}",
                    other.label
                )));
            }
            cells.push(GridCell {
                values,
                label,
                folder,
                plan,
            });
        }
        Ok(cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(text: &str, agents: &[&str]) -> Result<Grid> {
        let table: toml::Table = toml::from_str(text).unwrap();
        let agents: Vec<String> = agents.iter().map(|s| (*s).to_string()).collect();
        Grid::from_table(&table, &agents)
    }

    #[test]
    fn keys_keep_the_written_order_and_the_last_varies_fastest() {
        let g = grid("side = [9, 7]\ndistance = [1, 2, 3]", &[]).unwrap();
        let combos = g.combinations();
        assert_eq!(combos.len(), 6);
        assert_eq!(combos[0], ["9", "1"]);
        assert_eq!(combos[1], ["9", "2"]);
        assert_eq!(combos[3], ["7", "1"]);
    }

    #[test]
    fn placeholders_make_agent_axes_and_other_keys_game_options() {
        let g = grid(
            "iters = [10]\ndistance = [2]\ngame = [\"ikabegama:side=9\"]",
            &["mcts:iters={iters}"],
        )
        .unwrap();
        let kinds: Vec<AxisKind> = g.axes.iter().map(|a| a.kind).collect();
        assert_eq!(
            kinds,
            [AxisKind::Agent, AxisKind::GameOption, AxisKind::Game]
        );
        let (game, agents) = g.substitute(
            &["10".into(), "2".into(), "ikabegama:side=9".into()],
            "rin",
            &["mcts:iters={iters}".into(), "random".into()],
        );
        assert_eq!(game, "ikabegama:side=9,distance=2");
        assert_eq!(agents, ["mcts:iters=10", "random"]);
    }

    #[test]
    fn cell_seeds_depend_on_the_label_not_the_position() {
        assert_eq!(cell_seed(5, "distance=3"), cell_seed(5, "distance=3"));
        assert_ne!(cell_seed(5, "distance=3"), cell_seed(5, "distance=4"));
        assert_ne!(cell_seed(5, "distance=3"), cell_seed(6, "distance=3"));
    }

    #[test]
    fn empty_lists_tables_and_repeated_values_are_refused() {
        for (text, says) in [
            ("distance = []", "has no values"),
            ("distance = 3", "must be a list"),
            ("distance = [1, 1]", "twice"),
            ("distance = [[1]]", "not a string, number"),
            ("distance = [\"1,side=3\"]", "may not contain"),
        ] {
            let err = grid(text, &[]).unwrap_err();
            assert_eq!(err.kind, ErrorKind::Experiment);
            assert!(err.message.contains(says), "{text}: {err}");
        }
    }
}
