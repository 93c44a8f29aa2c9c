//! A game state with its game type erased, in OpenSpiel's terms: dense action numbers, a
//! current player that may be the chance player, returns, an observation tensor.
//!
//! [`Typed`] holds one registry game's state; [`DynState`] is what the Python classes see.
//! Everything generic is written once, over `G: Game + Features`, and reached through
//! [`start_of`], so no list of games lives here.

use std::any::Any;
use std::sync::Arc;

use ringside_agents::{Agent, AgentSpec, AnyAgent, SearchStats};
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game, GameRng, Outcome, Player, seeded_rng};

/// OpenSpiel's id of the chance player.
pub const CHANCE_PLAYER: i64 = -1;
/// OpenSpiel's id of the player to move in a finished game.
pub const TERMINAL_PLAYER: i64 = -4;

/// Channels of [`DynState::observation`]: player 0's stones, player 1's stones, player 0's
/// marks (lower-case letters: a nest, a ring's inside), player 1's marks, empty cells, and two
/// planes saying who is to move (all ones for the mover, zeros otherwise).
pub const CHANNELS: usize = 7;

/// The seeds tried to learn what a game leaves to chance before its first move.
const DRAWS: u64 = 64;

/// What every state of one game shares: the game's options and the facts Python asks for.
#[derive(Debug)]
pub struct Shared<G: Game> {
    /// The start positions chance chooses from before the first move (one when nothing is
    /// drawn), each equally likely.
    pub starts: Vec<G>,
    /// Plies after which a game stops as a draw (the arena's ply cap).
    pub ply_cap: u32,
    /// Rows of the observation (the board's rows).
    pub rows: usize,
    /// Columns of the observation (the widest row).
    pub columns: usize,
    /// Where each cell of [`Game::write_cells`] goes in an observation plane.
    pub layout: Vec<usize>,
    /// The plane of each cell letter, plus one (0: no plane).
    pub planes: [u8; 256],
}

/// One state of one game.
#[derive(Debug, Clone)]
pub struct Typed<G: Game> {
    shared: Arc<Shared<G>>,
    /// `None` while chance has not chosen the start.
    state: Option<G>,
    /// The actions played, chance's included.
    history: Vec<usize>,
    /// The moves played, to name past actions.
    played: Vec<G::Move>,
    /// A reusable list of moves.
    scratch: Vec<G::Move>,
    /// Whether `scratch` lists the legal moves of the current state.
    listed: bool,
    /// A reusable buffer for the cells.
    cells: Vec<u8>,
}

/// A game state whose game is known only at run time.
pub trait DynState: Send + Sync {
    /// A copy.
    fn clone_box(&self) -> Box<dyn DynState>;
    /// The concrete state, for agents built for its game.
    fn as_any(&self) -> &dyn Any;
    /// The canonical spec of the game (with a drawn start named, once drawn).
    fn spec(&self) -> String;
    /// Names the game and its options, whatever chance drew: states with the same key take
    /// the same agents.
    fn game_key(&self) -> String;
    /// The player to move: 0 or 1, [`CHANCE_PLAYER`] or [`TERMINAL_PLAYER`].
    fn current_player(&self) -> i64;
    /// The legal actions, ascending (chance outcomes at a chance node).
    fn legal_actions(&mut self, out: &mut Vec<usize>);
    /// The chance outcomes and their probabilities (empty unless at a chance node).
    fn chance_outcomes(&self) -> Vec<(usize, f64)>;
    /// Plays `action`, or says why it cannot be played.
    fn apply(&mut self, action: usize) -> Result<(), String>;
    /// Whether the game is over (by the rules or the ply cap).
    fn is_terminal(&self) -> bool;
    /// Each player's return: 1, 0 or -1 when the game is over, else zeros.
    fn returns(&self) -> [f64; 2];
    /// An action in the game's notation; with a player, as OpenSpiel's `ActionToString`
    /// names it ([`Game::action_string`]).
    fn action_to_string(&self, action: usize, player: Option<Player>) -> Result<String, String>;
    /// The action a move in the game's notation names.
    fn string_to_action(&self, text: &str) -> Result<usize, String>;
    /// Writes the observation (channels × rows × columns, row-major) as zeros and ones.
    fn observation(&mut self, out: &mut [u8]);
    /// (channels, rows, columns) of the observation.
    fn observation_shape(&self) -> [usize; 3];
    /// Number of distinct actions (the game's move numbers).
    fn num_distinct_actions(&self) -> usize;
    /// The ply cap.
    fn max_game_length(&self) -> u32;
    /// The names of the two colours, player 0's first (`white`, `black`).
    fn player_names(&self) -> [&'static str; 2];
    /// The board as text.
    fn board(&self) -> String;
    /// The actions played.
    fn history(&self) -> &[usize];
    /// Moves played (chance's draw not counted).
    fn move_number(&self) -> u32;
    /// Back to the start, chance not yet drawn.
    fn reset(&mut self);
    /// Plays a uniformly random legal move drawn by the game's own playout draw
    /// (`Game::random_move`, no list of actions made); false when no move can be played
    /// (chance to draw, or the game over).
    fn play_random(&mut self, rng: &mut GameRng) -> bool;
    /// Builds `spec`'s agent for this game, seeded with `seed`.
    fn build_agent(&self, spec: &AgentSpec, seed: u64) -> Result<Box<dyn DynAgent>, String>;
    /// A state of this game from a position of its type behind `start` (the position before
    /// the first move: one chance can draw) and the actions played since: what a host agent
    /// hears ([`ringside_agents::host`]), as a state with its full history.
    fn replayed(&self, start: &dyn Any, moves: &[usize]) -> Result<Box<dyn DynState>, String>;
}

/// An agent built for one game.
pub trait DynAgent: Send {
    /// The action the agent chooses in `state`, and what choosing it cost.
    fn choose(&mut self, state: &dyn DynState) -> Result<(usize, SearchStats), String>;
}

/// The start of `game` with `ply_cap`, as a state at its chance node (or its first move
/// when nothing is drawn).
pub fn start_of(game: &AnyGame, ply_cap: u32) -> Box<dyn DynState> {
    struct Start {
        ply_cap: u32,
    }
    impl GameVisitor for Start {
        type Output = Box<dyn DynState>;
        fn visit<G: Game + Features>(self, start: G) -> Box<dyn DynState> {
            Box::new(Typed::new(start, self.ply_cap))
        }
    }
    game.visit(Start { ply_cap })
}

impl<G: Game + Features> Typed<G> {
    fn new(start: G, ply_cap: u32) -> Typed<G> {
        // What the rules leave to chance (Advance's first player) is learnt by drawing it
        // with many seeds; every game of the registry draws uniformly from what it can draw.
        let mut starts: Vec<G> = Vec::new();
        for seed in 0..DRAWS {
            let mut drawn = start.clone();
            drawn.randomize_start(&mut seeded_rng(seed, 0));
            if !starts.iter().any(|s| s.spec() == drawn.spec()) {
                starts.push(drawn);
            }
        }
        starts.sort_by_key(Game::spec);
        let cells = start.board_cells();
        let rows = cells.len();
        let columns = cells.iter().map(|r| r.len()).max().unwrap_or(0);
        let layout = cells
            .iter()
            .enumerate()
            .flat_map(|(r, row)| (0..row.len()).map(move |c| r * columns + c))
            .collect();
        let shared = Arc::new(Shared {
            planes: planes(&start),
            starts,
            ply_cap,
            rows,
            columns,
            layout,
        });
        let mut typed = Typed {
            shared,
            state: None,
            history: Vec::new(),
            played: Vec::new(),
            scratch: Vec::new(),
            listed: false,
            cells: Vec::new(),
        };
        typed.reset();
        typed
    }

    /// The state once chance has drawn.
    pub fn state(&self) -> Option<&G> {
        self.state.as_ref()
    }

    fn capped(&self) -> bool {
        self.played.len() as u32 >= self.shared.ply_cap
    }

    /// The legal move with number `action`.
    fn move_of(&mut self, action: usize) -> Option<G::Move> {
        let state = self.state.as_ref()?;
        if self.capped() {
            return None;
        }
        if !self.listed {
            state.legal_moves(&mut self.scratch);
            self.listed = true;
        }
        self.scratch
            .iter()
            .copied()
            .find(|&m| state.move_index(m) == action)
    }
}

impl<G: Game + Features> DynState for Typed<G> {
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn spec(&self) -> String {
        match &self.state {
            Some(s) => s.spec(),
            None => self.shared.starts[0].spec(),
        }
    }

    fn game_key(&self) -> String {
        format!(
            "{}/{}",
            std::any::type_name::<G>(),
            self.shared.starts[0].spec()
        )
    }

    fn current_player(&self) -> i64 {
        match &self.state {
            None => CHANCE_PLAYER,
            Some(_) if self.capped() => TERMINAL_PLAYER,
            Some(s) => s.to_move().map_or(TERMINAL_PLAYER, |p| p.index() as i64),
        }
    }

    fn legal_actions(&mut self, out: &mut Vec<usize>) {
        out.clear();
        match &self.state {
            None => out.extend(0..self.shared.starts.len()),
            Some(_) if self.capped() => {}
            Some(s) => {
                s.legal_moves(&mut self.scratch);
                self.listed = true;
                out.extend(self.scratch.iter().map(|&m| s.move_index(m)));
                out.sort_unstable();
            }
        }
    }

    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        if self.state.is_some() {
            return Vec::new();
        }
        let n = self.shared.starts.len();
        (0..n).map(|i| (i, 1.0 / n as f64)).collect()
    }

    fn apply(&mut self, action: usize) -> Result<(), String> {
        if self.state.is_none() {
            let start = self.shared.starts.get(action).ok_or_else(|| {
                format!(
                    "chance outcome {action} does not exist (0..{})",
                    self.shared.starts.len()
                )
            })?;
            self.state = Some(start.clone());
            self.listed = false;
            self.history.push(action);
            return Ok(());
        }
        if self.is_terminal() {
            return Err(format!("action {action}: the game is over"));
        }
        let Some(mv) = self.move_of(action) else {
            return Err(format!(
                "action {action} is not a legal move here (legal: {} actions)",
                self.scratch.len()
            ));
        };
        self.state.as_mut().expect("drawn").play_unchecked(mv);
        self.listed = false;
        self.history.push(action);
        self.played.push(mv);
        Ok(())
    }

    fn is_terminal(&self) -> bool {
        self.current_player() == TERMINAL_PLAYER
    }

    fn returns(&self) -> [f64; 2] {
        match self.state.as_ref().and_then(Game::outcome) {
            Some(o @ Outcome::Win(_)) => [Player::ZERO, Player::ONE].map(|p| o.value_for(p).into()),
            _ => [0.0, 0.0],
        }
    }

    fn action_to_string(&self, action: usize, player: Option<Player>) -> Result<String, String> {
        let Some(state) = &self.state else {
            return self
                .shared
                .starts
                .get(action)
                .map(|s| format!("start {}", s.spec()))
                .ok_or_else(|| format!("chance outcome {action} does not exist"));
        };
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves
            .iter()
            .chain(&self.played)
            .find(|&&m| state.move_index(m) == action)
            .map(|&m| match player {
                Some(p) => state.action_string(p, m),
                None => state.move_text(m),
            })
            .ok_or_else(|| format!("action {action} is neither legal here nor played in this game"))
    }

    fn string_to_action(&self, text: &str) -> Result<usize, String> {
        let state = self.state.as_ref().unwrap_or(&self.shared.starts[0]);
        let mv = state
            .parse_move(text)
            .map_err(|e| format!("'{text}': {e}"))?;
        Ok(state.move_index(mv))
    }

    fn observation(&mut self, out: &mut [u8]) {
        let [channels, rows, columns] = self.observation_shape();
        assert_eq!(
            out.len(),
            channels * rows * columns,
            "observation buffer size"
        );
        out.fill(0);
        let plane = rows * columns;
        let state = self.state.as_ref().unwrap_or(&self.shared.starts[0]);
        state.write_cells(&mut self.cells);
        for (&at, &cell) in self.shared.layout.iter().zip(&self.cells) {
            let k = self.shared.planes[usize::from(cell)];
            if k > 0 {
                out[usize::from(k - 1) * plane + at] = 1;
            }
        }
        let mover = self.current_player();
        if mover == 0 || mover == 1 {
            let k = 5 + mover as usize;
            out[k * plane..(k + 1) * plane].fill(1);
        }
    }

    fn observation_shape(&self) -> [usize; 3] {
        [CHANNELS, self.shared.rows, self.shared.columns]
    }

    fn num_distinct_actions(&self) -> usize {
        self.shared.starts[0].move_index_count()
    }

    fn max_game_length(&self) -> u32 {
        self.shared.ply_cap
    }

    fn player_names(&self) -> [&'static str; 2] {
        [Player::ZERO, Player::ONE].map(|p| self.shared.starts[0].player_name(p))
    }

    fn board(&self) -> String {
        let state = self.state.as_ref().unwrap_or(&self.shared.starts[0]);
        let mut text = state.board_rows().join("\n");
        if self.state.is_none() {
            text.push_str("\n(chance draws the start)");
        }
        text
    }

    fn history(&self) -> &[usize] {
        &self.history
    }

    fn move_number(&self) -> u32 {
        self.played.len() as u32
    }

    fn play_random(&mut self, rng: &mut GameRng) -> bool {
        if self.capped() {
            return false;
        }
        let Some(state) = self.state.as_mut() else {
            return false;
        };
        let Some(mv) = state.random_move(rng, &mut self.scratch) else {
            return false;
        };
        self.history.push(state.move_index(mv));
        state.play_unchecked(mv);
        self.played.push(mv);
        self.listed = false;
        true
    }

    fn reset(&mut self) {
        self.listed = false;
        self.history.clear();
        self.played.clear();
        self.state = if self.shared.starts.len() == 1 {
            Some(self.shared.starts[0].clone())
        } else {
            None
        };
    }

    fn build_agent(&self, spec: &AgentSpec, seed: u64) -> Result<Box<dyn DynAgent>, String> {
        let agent = spec
            .build(&self.shared.starts[0], seed)
            .map_err(|e| e.to_string())?;
        Ok(Box::new(TypedAgent::<G> { agent }))
    }

    fn replayed(&self, start: &dyn Any, moves: &[usize]) -> Result<Box<dyn DynState>, String> {
        let start = start
            .downcast_ref::<G>()
            .ok_or("a position of another game")?;
        let mut typed = self.clone();
        typed.reset();
        if typed.state.is_none() {
            let spec = start.spec();
            let drawn = typed
                .shared
                .starts
                .iter()
                .position(|s| s.spec() == spec)
                .ok_or_else(|| format!("{spec} is not a start of this game"))?;
            typed.apply(drawn)?;
        }
        if typed.state.as_ref().map(Game::hash) != Some(start.hash()) {
            return Err(format!("{} is not a start of this game", start.spec()));
        }
        for &action in moves {
            typed.apply(action)?;
        }
        Ok(Box::new(typed))
    }
}

/// The plane of each cell letter of `game`'s board, plus one: a player's initial in upper
/// case is a stone (planes 0 and 1), in lower case a mark (2 and 3); `.` is empty (4).
fn planes<G: Game>(game: &G) -> [u8; 256] {
    let mut planes = [0u8; 256];
    planes[usize::from(b'.')] = 5;
    for p in [Player::ZERO, Player::ONE] {
        if let Some(initial) = game.player_name(p).bytes().next() {
            let k = p.index() as u8;
            planes[usize::from(initial.to_ascii_uppercase())] = 1 + k;
            planes[usize::from(initial.to_ascii_lowercase())] = 3 + k;
        }
    }
    planes
}

/// An agent for the game `G`.
struct TypedAgent<G: Game> {
    agent: AnyAgent<G>,
}

impl<G: Game + Features> DynAgent for TypedAgent<G> {
    fn choose(&mut self, state: &dyn DynState) -> Result<(usize, SearchStats), String> {
        let typed = state
            .as_any()
            .downcast_ref::<Typed<G>>()
            .ok_or("the agent was built for another game")?;
        let Some(position) = typed.state() else {
            return Err("chance is to move, not a player".into());
        };
        if state.is_terminal() {
            return Err("the game is over; nothing to choose".into());
        }
        let decision = self
            .agent
            .try_choose(position)
            .map_err(|f| f.message.clone())?;
        if !position.is_legal(decision.mv) {
            return Err(format!(
                "the agent chose an illegal move, {}",
                position.move_text(decision.mv)
            ));
        }
        Ok((position.move_index(decision.mv), decision.stats))
    }
}
