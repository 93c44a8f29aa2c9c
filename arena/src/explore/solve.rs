//! The exact value of a position, by the agents crate's solver, with what it cost.

use ringside_agents::solve::{Budget, Value, solve as solve_position};
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game};

use crate::error::{Error, Result};
use crate::explore::position::play_moves;

/// What a solve found, its moves in the game's notation.
#[derive(Debug, Clone, PartialEq)]
pub struct Solved {
    /// The value for the player to move; `None` when the budget ran out first.
    pub value: Option<Value>,
    /// Whether the value's distance in plies is exact.
    pub distance_known: bool,
    /// The moves that keep the value.
    pub best: Vec<String>,
    /// The mover's name.
    pub mover: String,
    /// Positions searched.
    pub nodes: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// Table entries in use and the table's capacity.
    pub table: (usize, usize),
    /// Bytes of the table.
    pub table_bytes: usize,
    /// The search that ran.
    pub method: &'static str,
}

impl Solved {
    /// One line, `key=value` fields: `value=win|draw|loss|unknown`, then `plies=` (the distance
    /// to the end under best play, when known), `best=` (comma-separated), `mover=`, `nodes=`,
    /// `time_ms=`, `nodes_per_s=`, `table=used/capacity`, `table_mib=`, `method=`.
    #[must_use]
    pub fn line(&self) -> String {
        let mut line = format!("value={}", self.value.map_or("unknown", Value::word));
        if let Some(plies) = self
            .value
            .and_then(Value::plies)
            .filter(|_| self.distance_known)
        {
            line.push_str(&format!(" plies={plies}"));
        }
        if self.value.is_some() {
            line.push_str(&format!(" best={}", self.best.join(",")));
        }
        line.push_str(&format!(
            " mover={} nodes={} time_ms={:.1} nodes_per_s={:.0} table={}/{} table_mib={:.1} method={}",
            self.mover,
            self.nodes,
            self.seconds * 1000.0,
            self.nodes as f64 / self.seconds.max(1e-9),
            self.table.0,
            self.table.1,
            self.table_bytes as f64 / f64::from(1 << 20),
            self.method
        ));
        line
    }
}

/// Solves the position after `moves` from the start of `game` within `budget`.
///
/// # Errors
/// A move that does not parse or is illegal, or a game over after the moves.
pub fn solve(game: &AnyGame, moves: &str, budget: &Budget) -> Result<Solved> {
    struct Solve<'a> {
        moves: &'a str,
        budget: &'a Budget,
    }
    impl GameVisitor for Solve<'_> {
        type Output = Result<Solved>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            let state = play_moves(start, self.moves)?;
            let Some(mover) = state.to_move() else {
                return Err(Error::setting(
                    "the game is over after these moves; nothing to solve",
                ));
            };
            let s = solve_position(&state, self.budget);
            Ok(Solved {
                value: s.value,
                distance_known: s.distance_known,
                best: s.best.iter().map(|&m| state.move_text(m)).collect(),
                mover: state.player_name(mover).to_string(),
                nodes: s.nodes,
                seconds: s.time.as_secs_f64(),
                table: s.table,
                table_bytes: s.table.1 * ringside_agents::solve::ENTRY_BYTES,
                method: s.method,
            })
        }
    }
    game.visit(Solve { moves, budget })
}
