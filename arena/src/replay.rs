//! `arena replay`: play moves from the start and show the final position.

use ringside_engine::registry::{GameVisitor, with_game};
use ringside_engine::{Game, Outcome};
use serde::Serialize;
use serde_json::{Value, json};

use crate::cli::ReplayArgs;
use crate::error::CliError;

/// Runs `arena replay`: from `--game`/`--moves`, or from a row of a games CSV.
pub fn run(args: &ReplayArgs) -> Result<(), CliError> {
    let (game, moves) = match (&args.from, args.id) {
        (Some(csv), Some(id)) => {
            let rows = crate::record::read_rows(csv)?;
            let row = rows
                .into_iter()
                .find(|r| r.id == id)
                .ok_or_else(|| CliError(format!("{} has no game with id {id}", csv.display())))?;
            (row.game, row.moves)
        }
        _ => (
            args.game
                .clone()
                .expect("clap requires --game without --from"),
            args.moves
                .clone()
                .expect("clap requires --moves without --from"),
        ),
    };
    let text = with_game(
        &game,
        Replay {
            moves: &moves,
            json: args.json,
            every: args.every,
        },
    )??;
    print!("{text}");
    Ok(())
}

struct Replay<'a> {
    moves: &'a str,
    json: bool,
    every: bool,
}

impl GameVisitor for Replay<'_> {
    type Output = Result<String, CliError>;

    fn visit<G: Game + ringside_engine::Features>(self, start: G) -> Self::Output {
        let show = |state: &G| {
            if self.json {
                format!("{}\n", position_json(state))
            } else {
                position_text(state)
            }
        };
        let mut out = String::new();
        let mut state = start;
        if self.every {
            out.push_str(&show(&state));
        }
        let total = self.moves.split_whitespace().count();
        for (i, text) in self.moves.split_whitespace().enumerate() {
            state = play_one(state, text, i, total)?;
            if self.every {
                if !self.json {
                    out.push('\n');
                }
                out.push_str(&show(&state));
            }
        }
        if !self.every {
            out = show(&state);
        }
        Ok(out)
    }
}

/// Plays move number `i` (0-based) of `total`; the error names its number from 1.
fn play_one<G: Game>(mut state: G, text: &str, i: usize, total: usize) -> Result<G, CliError> {
    let fail = |reason: String| CliError(format!("move {} of {total} ('{text}'): {reason}", i + 1));
    let mv = state.parse_move(text).map_err(|e| fail(e.to_string()))?;
    state.try_play(mv).map_err(|e| fail(e.to_string()))?;
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
fn position_text<G: Game>(state: &G) -> String {
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
        let (pa, pb) = (ringside_engine::Player::ZERO, ringside_engine::Player::ONE);
        out.push_str(&format!(
            "score: {} {} - {} {}\n",
            state.player_name(pa),
            number(a),
            number(b),
            state.player_name(pb)
        ));
    }
    out
}

/// Runs `arena think`.
pub fn think(args: &crate::cli::ThinkArgs) -> Result<(), CliError> {
    let spec = ringside_agents::AgentSpec::parse(&args.agent)
        .map_err(|e| CliError(format!("agent '{}': {e}", args.agent)))?;
    with_game(
        &args.game,
        Think {
            spec: &spec,
            moves: &args.moves,
            seed: args.seed,
        },
    )?
}

struct Think<'a> {
    spec: &'a ringside_agents::AgentSpec,
    moves: &'a str,
    seed: u64,
}

impl GameVisitor for Think<'_> {
    type Output = Result<(), CliError>;

    fn visit<G: Game + ringside_engine::Features>(self, start: G) -> Self::Output {
        use ringside_agents::Agent;
        let total = self.moves.split_whitespace().count();
        let mut state = start.clone();
        for (i, text) in self.moves.split_whitespace().enumerate() {
            state = play_one(state, text, i, total)?;
        }
        if state.outcome().is_some() {
            return Err(CliError(
                "the game is over after these moves; nothing to choose".into(),
            ));
        }
        let mut agent = self
            .spec
            .build(&start, self.seed)
            .map_err(|e| CliError(format!("agent '{}': {e}", self.spec)))?;
        let d = agent.choose(&state);
        let seconds = d.stats.time.as_secs_f64().max(1e-9);
        println!(
            "move={} iterations={} nodes={} depth={} time_ms={:.3} iterations_per_s={:.0} nodes_per_s={:.0}",
            state.move_text(d.mv),
            d.stats.iterations,
            d.stats.nodes,
            d.stats.depth,
            seconds * 1000.0,
            d.stats.iterations as f64 / seconds,
            d.stats.nodes as f64 / seconds
        );
        Ok(())
    }
}
