//! Positions for people and programs: moves replayed from the start, and the position shown
//! as text (the board, who moves or who won, the score) or as one JSON object.

use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game, Outcome, Player};
use serde::Serialize;
use serde_json::{Value, json};

use crate::error::Result;
use crate::records::row::play_listed;

/// How to show a replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayStyle {
    /// One JSON object a position instead of text.
    pub json: bool,
    /// Every position from the start, not only the last.
    pub every: bool,
}

/// Plays `moves` (the game's notation, separated by spaces) from the start of `game` and
/// shows the final position (or every one). An illegal or malformed move is an error naming
/// its number (from 1) and the reason.
pub fn replay(game: &AnyGame, moves: &str, style: ReplayStyle) -> Result<String> {
    struct Replay<'a> {
        moves: &'a str,
        style: ReplayStyle,
    }
    impl GameVisitor for Replay<'_> {
        type Output = Result<String>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            let show = |state: &G| {
                if self.style.json {
                    format!("{}\n", position_json(state))
                } else {
                    position_text(state)
                }
            };
            let mut out = String::new();
            let mut state = start;
            if self.style.every {
                out.push_str(&show(&state));
            }
            let total = self.moves.split_whitespace().count();
            for (i, text) in self.moves.split_whitespace().enumerate() {
                state = play_listed(state, text, i, total)?;
                if self.style.every {
                    if !self.style.json {
                        out.push('\n');
                    }
                    out.push_str(&show(&state));
                }
            }
            if !self.style.every {
                out = show(&state);
            }
            Ok(out)
        }
    }
    game.visit(Replay { moves, style })
}

/// Plays every move of `moves` from `state`.
pub fn play_moves<G: Game>(mut state: G, moves: &str) -> Result<G> {
    let total = moves.split_whitespace().count();
    for (i, text) in moves.split_whitespace().enumerate() {
        state = play_listed(state, text, i, total)?;
    }
    Ok(state)
}

/// The result as `"black"`, `"white"`, `"draw"` or null.
fn result_value<G: Game>(state: &G) -> Value {
    match state.outcome() {
        None => Value::Null,
        Some(Outcome::Draw) => json!("draw"),
        Some(Outcome::Win(p)) => json!(state.player_name(p)),
    }
}

/// A number as JSON: whole numbers without a fraction.
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

/// The object printed by `arena replay --json`; fields print in this order.
#[derive(Debug, Serialize)]
pub struct PositionJson {
    /// The game spec (`"rin"`, `"rin:size=8"`).
    pub game: String,
    /// Plies played.
    pub plies: u32,
    /// The colour to move, or null when the game is over.
    pub to_move: Option<&'static str>,
    /// The cells, one string a row, top row first.
    pub board: Vec<String>,
    /// The colour that won, `"draw"`, or null while the game goes on.
    pub result: Value,
    /// Each colour's score, first-listed colour first, or null for games without a score.
    pub score: Option<[Value; 2]>,
}

/// The position as the JSON object documented for `arena replay --json`.
pub fn position_json<G: Game>(state: &G) -> String {
    let object = PositionJson {
        game: state.spec(),
        plies: state.ply(),
        to_move: state.to_move().map(|p| state.player_name(p)),
        board: state.board_cells(),
        result: result_value(state),
        score: state.scores().map(|[a, b]| [number(a), number(b)]),
    };
    serde_json::to_string(&object).expect("a position always serialises")
}

/// The position for people: the board, then who moves or who won, and the score.
pub fn position_text<G: Game>(state: &G) -> String {
    let mut out = String::new();
    for row in state.board_rows() {
        out.push_str(&row);
        out.push('\n');
    }
    out.push_str(&format!("game: {}  plies: {}\n", state.spec(), state.ply()));
    match (state.outcome(), state.to_move()) {
        (Some(Outcome::Win(p)), _) => {
            out.push_str(&format!("result: {} wins\n", state.player_name(p)))
        }
        (Some(Outcome::Draw), _) => out.push_str("result: draw\n"),
        (None, Some(p)) => out.push_str(&format!("to move: {}\n", state.player_name(p))),
        (None, None) => {}
    }
    if let Some([a, b]) = state.scores() {
        out.push_str(&format!(
            "score: {} {} - {} {}\n",
            state.player_name(Player::ZERO),
            number(a),
            number(b),
            state.player_name(Player::ONE)
        ));
    }
    out
}
