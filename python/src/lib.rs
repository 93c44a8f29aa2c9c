//! `ringside._core`: Ringside's games, agents and arena for Python. The `ringside` package
//! (python/py/ringside) wraps it: NumPy arrays, pandas frames and the OpenSpiel adapter live
//! there; everything that plays lives here, and runs with the interpreter's lock released.
//!
//! Errors from the library (a bad game spec, a bad agent spec, an illegal action, a file that
//! does not replay) become a Python `ValueError` carrying the arena's one-line message. Whole
//! numbers (actions, players, seeds, counts, caps) are read strictly ([`args`]): anything but
//! an `int` or a NumPy integer, a bool included, is a `TypeError`; one out of range a
//! `ValueError`.

mod args;
mod state;
mod vecenv;

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use ringside_agents::host::{HostAgent, HostFactory};
use ringside_agents::{AgentFault, AgentSpec, FaultKind};
use ringside_arena::figures::report;
use ringside_arena::figures::summary::Tally;
use ringside_arena::plan::PlanBuilder;
use ringside_arena::records::sidecar::read_sidecar;
use ringside_arena::run::pool::Observer;
use ringside_arena::run::runner::run_to_csv;
use ringside_engine::Player;
use ringside_engine::registry::{AnyGame, GAMES};

use crate::state::{DynAgent, DynState, start_of};

/// The ply cap of a game loaded without one: the arena's usual cap in the committed
/// experiments. Games that end sooner by their rules (Havannah, Rin) never reach it; the Life
/// duel and the moving games can run for ever, and stop here as a draw.
pub const DEFAULT_PLY_CAP: u32 = 1000;

fn value_error(message: impl ToString) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// A game of the registry with its options: OpenSpiel's `Game`.
#[pyclass(module = "ringside._core", frozen)]
struct Game {
    any: AnyGame,
    ply_cap: u32,
    start: Box<dyn DynState>,
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (spec, ply_cap = None))]
    fn new(spec: &str, ply_cap: Option<&Bound<'_, PyAny>>) -> PyResult<Game> {
        let ply_cap = args::ply_cap(ply_cap)?.unwrap_or(DEFAULT_PLY_CAP);
        let any = AnyGame::parse(spec).map_err(|e| value_error(e.reason))?;
        let start = start_of(&any, ply_cap);
        Ok(Game {
            any,
            ply_cap,
            start,
        })
    }

    /// The canonical spec (`havannah:size=6`).
    fn spec(&self) -> String {
        self.any.spec()
    }

    /// The registry name (`havannah`).
    fn name(&self) -> &'static str {
        self.any.name()
    }

    /// The state before the first move (a chance node when the rules draw something first).
    fn new_initial_state(&self) -> State {
        State {
            inner: self.start.clone_box(),
        }
    }

    /// Number of distinct action numbers.
    fn num_distinct_actions(&self) -> usize {
        self.start.num_distinct_actions()
    }

    /// (channels, rows, columns) of the observation tensor.
    fn observation_tensor_shape(&self) -> (usize, usize, usize) {
        let [c, r, k] = self.start.observation_shape();
        (c, r, k)
    }

    /// The ply cap: no game lasts longer (a capped game is a draw).
    fn max_game_length(&self) -> u32 {
        self.ply_cap
    }

    /// Number of chance outcomes at the start (1 when nothing is drawn).
    fn max_chance_outcomes(&self) -> usize {
        self.start.chance_outcomes().len().max(1)
    }

    /// The two players.
    fn num_players(&self) -> usize {
        2
    }

    /// The names of the colours of players 0 and 1, as the arena writes them.
    fn player_names(&self) -> [&'static str; 2] {
        self.start.player_names()
    }

    fn __repr__(&self) -> String {
        format!(
            "ringside.load_game('{}', ply_cap={})",
            self.any, self.ply_cap
        )
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let class = py.get_type::<Game>();
        (class, (self.any.spec(), self.ply_cap)).into_pyobject(py)
    }
}

/// A position of a game: OpenSpiel's `State`.
#[pyclass(module = "ringside._core")]
struct State {
    inner: Box<dyn DynState>,
}

#[pymethods]
impl State {
    /// The player to move: 0, 1, -1 (chance) or -4 (the game is over).
    fn current_player(&self) -> i64 {
        self.inner.current_player()
    }

    /// The legal actions, ascending.
    fn legal_actions(&mut self) -> Vec<usize> {
        let mut out = Vec::new();
        self.inner.legal_actions(&mut out);
        out
    }

    /// One byte an action, 1 where legal.
    fn legal_actions_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let mut out = Vec::new();
        self.inner.legal_actions(&mut out);
        let n = if self.inner.current_player() == state::CHANCE_PLAYER {
            self.inner.chance_outcomes().len()
        } else {
            self.inner.num_distinct_actions()
        };
        let mut mask = vec![0u8; n];
        for a in out {
            mask[a] = 1;
        }
        PyBytes::new(py, &mask)
    }

    /// Chance's outcomes and their probabilities (empty unless chance is to move).
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        self.inner.chance_outcomes()
    }

    /// Whether chance is to move.
    fn is_chance_node(&self) -> bool {
        self.inner.current_player() == state::CHANCE_PLAYER
    }

    /// Plays an action: an `int` or a NumPy integer (a bool or a float is a TypeError), a
    /// ValueError when it is not legal.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action = args::action(action)?;
        self.inner.apply(action).map_err(value_error)
    }

    /// Whether the game is over (by the rules, or at the ply cap as a draw).
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    /// Each player's return: 1 for a win, -1 for a loss, 0 for a draw or a game going on.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns().to_vec()
    }

    /// The observation as bytes (0 or 1), channels × rows × columns.
    fn observation_bytes<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let [c, r, k] = self.inner.observation_shape();
        let mut out = vec![0u8; c * r * k];
        self.inner.observation(&mut out);
        PyBytes::new(py, &out)
    }

    /// (channels, rows, columns) of the observation.
    fn observation_tensor_shape(&self) -> (usize, usize, usize) {
        let [c, r, k] = self.inner.observation_shape();
        (c, r, k)
    }

    /// An action in Ringside's notation; with `player` (0 or 1), as OpenSpiel's
    /// `ActionToString(player, action)` names it (Tic-tac-toe's `x(1,1)`, Connect Four's
    /// `o3`; the same as Ringside's in the other games). Chance (-1) gets Ringside's notation;
    /// any other player is a ValueError.
    #[pyo3(signature = (action, player = None))]
    fn action_to_string(
        &self,
        action: &Bound<'_, PyAny>,
        player: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let action = args::action(action)?;
        let player = args::player(player)?
            .filter(|p| (0..2).contains(p))
            .map(|p| Player::new(p as usize));
        self.inner
            .action_to_string(action, player)
            .map_err(value_error)
    }

    /// The action a move in Ringside's notation names (`player`, when given, must be 0, 1 or
    /// -1: the notation is the same for every player).
    #[pyo3(signature = (text, player = None))]
    fn string_to_action(&self, text: &str, player: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
        args::player(player)?;
        self.inner.string_to_action(text).map_err(value_error)
    }

    /// The actions played, chance's included.
    fn history(&self) -> Vec<usize> {
        self.inner.history().to_vec()
    }

    /// Moves played (chance's draw not counted).
    fn move_number(&self) -> u32 {
        self.inner.move_number()
    }

    /// The game's spec, with what chance drew named.
    fn spec(&self) -> String {
        self.inner.spec()
    }

    /// Number of distinct action numbers.
    fn num_distinct_actions(&self) -> usize {
        self.inner.num_distinct_actions()
    }

    /// The ply cap.
    fn max_game_length(&self) -> u32 {
        self.inner.max_game_length()
    }

    /// A copy.
    fn clone(&self) -> State {
        State {
            inner: self.inner.clone_box(),
        }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: Bound<'_, PyAny>) -> State {
        self.clone()
    }

    fn __str__(&self) -> String {
        self.inner.board()
    }

    fn __repr__(&self) -> String {
        format!(
            "<ringside state of {} after {} moves>",
            self.inner.spec(),
            self.inner.move_number()
        )
    }
}

/// An agent of any spec: `random`, `alphabeta:depth=3`, `mcts:preset=strong`, ….
#[pyclass(module = "ringside._core", frozen)]
struct Agent {
    label: String,
    spec: AgentSpec,
    seed: u64,
    /// The agent, built for the game of the first state it is asked about.
    built: Mutex<Option<(String, Box<dyn DynAgent>)>>,
}

#[pymethods]
impl Agent {
    #[new]
    #[pyo3(signature = (spec, seed))]
    fn new(spec: &str, seed: &Bound<'_, PyAny>) -> PyResult<Agent> {
        let seed = args::seed(seed)?;
        let parsed =
            AgentSpec::parse(spec).map_err(|e| value_error(format!("agent '{spec}': {e}")))?;
        Ok(Agent {
            label: spec.to_string(),
            spec: parsed,
            seed,
            built: Mutex::new(None),
        })
    }

    /// The action chosen for the player to move, with the lock released while it searches.
    fn choose(&self, py: Python<'_>, state: PyRef<'_, State>) -> PyResult<usize> {
        Ok(self.think(py, state)?.0)
    }

    /// The action chosen and what it cost: (action, iterations, nodes, depth, seconds, value).
    #[allow(clippy::type_complexity)]
    fn think(
        &self,
        py: Python<'_>,
        state: PyRef<'_, State>,
    ) -> PyResult<(usize, u64, u64, u32, f64, Option<f64>)> {
        let state: &State = &state;
        let result = py.detach(|| {
            let mut built = self
                .built
                .lock()
                .map_err(|_| "a search of this agent failed".to_string())?;
            let key = state.inner.game_key();
            if built.as_ref().is_none_or(|(k, _)| *k != key) {
                let agent = state
                    .inner
                    .build_agent(&self.spec, self.seed)
                    .map_err(|e| format!("agent '{}': {e}", self.label))?;
                *built = Some((key, agent));
            }
            let (_, agent) = built.as_mut().expect("built above");
            agent.choose(state.inner.as_ref())
        });
        let (action, stats) = result.map_err(value_error)?;
        Ok((
            action,
            stats.iterations,
            stats.nodes,
            stats.depth,
            stats.time.as_secs_f64(),
            stats.value,
        ))
    }

    fn __repr__(&self) -> String {
        format!("ringside.Agent('{}', seed={})", self.label, self.seed)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let class = py.get_type::<Agent>();
        (class, (self.label.clone(), self.seed)).into_pyobject(py)
    }
}

/// The first error a Python policy raised in a run, kept to raise once the run stopped.
type PolicyError = Arc<Mutex<Option<PyErr>>>;

/// A Python policy in a seat (`host:name=NAME`): called with a `_core.State` of the game so
/// far, it answers an action number. An answer that is not a whole number (a float, a bool, a
/// string) is an exception, which stops the run; a whole number that is no legal action (a
/// negative one included) loses the game as an illegal move.
struct PyPolicy {
    policy: Py<PyAny>,
    /// The game's start, from which each position the policy is shown is replayed.
    template: Arc<dyn DynState>,
    error: PolicyError,
}

impl HostAgent for PyPolicy {
    fn choose(
        &mut self,
        start: &dyn Any,
        moves: &[usize],
        _state: &dyn Any,
    ) -> Result<usize, AgentFault> {
        let fault = |message: String| AgentFault {
            kind: FaultKind::EngineCrash,
            message,
        };
        let inner = self.template.replayed(start, moves).map_err(fault)?;
        let action = Python::attach(|py| {
            let state = Py::new(py, State { inner })?;
            let answer = self.policy.call1(py, (state,))?;
            args::whole(answer.bind(py), "a Python policy's action")
        })
        .map_err(|e| {
            let message = format!("the Python policy raised {e}");
            let mut first = self.error.lock().unwrap_or_else(PoisonError::into_inner);
            first.get_or_insert(e);
            fault(message)
        })?;
        // No action number is negative or this large: the seat checks the move and loses it.
        usize::try_from(action).map_err(|_| AgentFault {
            kind: FaultKind::IllegalMove,
            message: format!("host agent: action {action} is not a legal move here"),
        })
    }
}

/// Registers Python policies as host agents for one run, and removes them when dropped.
struct Registered(Vec<String>);

impl Drop for Registered {
    fn drop(&mut self) {
        for name in &self.0 {
            ringside_agents::host::unregister(name);
        }
    }
}

/// Registers each `(name, policy)` for `game` (whose states it is given, capped at `ply_cap`).
fn register_policies(
    game: &AnyGame,
    ply_cap: Option<u32>,
    policies: Vec<(String, Py<PyAny>)>,
    error: &PolicyError,
) -> PyResult<Registered> {
    let mut registered = Registered(Vec::new());
    let template: Arc<dyn DynState> = Arc::from(start_of(game, ply_cap.unwrap_or(u32::MAX)));
    for (name, policy) in policies {
        let template = Arc::clone(&template);
        let error = Arc::clone(error);
        let factory: HostFactory = Arc::new(move |_seed| {
            Box::new(PyPolicy {
                policy: Python::attach(|py| policy.clone_ref(py)),
                template: Arc::clone(&template),
                error: Arc::clone(&error),
            }) as Box<dyn HostAgent>
        });
        ringside_agents::host::register(&name, factory).map_err(value_error)?;
        registered.0.push(name);
    }
    Ok(registered)
}

/// Hands Ctrl-C to a run: asks the interpreter for pending signals every 100 ms. A run with
/// Python policies also stops once one of them raised.
struct Signals {
    last: Cell<Instant>,
    error: RefCell<Option<PyErr>>,
    policy_error: PolicyError,
}

impl Observer for Signals {
    fn interrupted(&self) -> bool {
        if self.error.borrow().is_some() {
            return true;
        }
        if self
            .policy_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
        {
            return true;
        }
        if self.last.get().elapsed() < Duration::from_millis(100) {
            return false;
        }
        self.last.set(Instant::now());
        if let Err(e) = Python::attach(|py| py.check_signals()) {
            *self.error.borrow_mut() = Some(e);
            return true;
        }
        false
    }
}

/// Plays a match (two agents), a round robin (more) or a gauntlet into the games CSV `out`,
/// resuming it when it exists, exactly as `arena match` does. Returns (games already in the
/// file, games played now, seconds playing them); Ctrl-C stops the run and raises
/// `KeyboardInterrupt`. `policies` are (name, callable) pairs that the agents
/// `host:name=NAME` play: each callable is given a `_core.State` and answers an action. The
/// first exception one raises loses its game (the row says so), stops the run after the games
/// in play, and is raised here.
#[pyfunction]
#[pyo3(signature = (game, agents, out, games, seed, threads, ply_cap, opening_plies, gauntlet, policies))]
#[allow(clippy::too_many_arguments)]
fn run_match(
    py: Python<'_>,
    game: &str,
    agents: Vec<String>,
    out: PathBuf,
    games: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    ply_cap: Option<&Bound<'_, PyAny>>,
    opening_plies: &Bound<'_, PyAny>,
    gauntlet: bool,
    policies: Vec<(String, Py<PyAny>)>,
) -> PyResult<(u64, u64, f64)> {
    let games = args::bounded(games, "games", 0, u64::MAX)?;
    let seed = args::seed(seed)?;
    let threads = threads
        .map(|t| args::bounded(t, "threads", 1, usize::MAX))
        .transpose()?;
    let ply_cap = args::ply_cap(ply_cap)?;
    let opening_plies = args::bounded(opening_plies, "opening_plies", 0, u32::MAX)?;
    let policy_error: PolicyError = Arc::new(Mutex::new(None));
    let _registered = if policies.is_empty() {
        Registered(Vec::new())
    } else {
        let any = AnyGame::parse(game).map_err(|e| value_error(e.reason))?;
        register_policies(&any, ply_cap, policies, &policy_error)?
    };
    let builder = PlanBuilder::new(game);
    let builder = match agents.as_slice() {
        [a, b] if !gauntlet => builder.pairing(a, b),
        [_, _] => return Err(value_error("a gauntlet needs three or more agents")),
        many => builder.tournament(many, gauntlet),
    };
    let plan = builder
        .games(games)
        .seed(seed)
        .ply_cap(ply_cap)
        .opening_plies(opening_plies)
        .build()
        .map_err(value_error)?;
    let mut signals = Signals {
        last: Cell::new(Instant::now()),
        error: RefCell::new(None),
        policy_error: Arc::clone(&policy_error),
    };
    let report = py.detach(|| run_to_csv(&plan, &out, threads, &mut signals));
    if let Some(e) = signals.error.into_inner() {
        return Err(e);
    }
    if let Some(e) = policy_error
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    {
        return Err(e);
    }
    let report = report.map_err(value_error)?;
    Ok((report.resumed, report.played, report.seconds))
}

/// Checks a games CSV the way `arena summary` does (its settings file, every row replayed)
/// and returns the summary's table as CSV text (summary.csv's columns).
#[pyfunction]
fn summary_csv(py: Python<'_>, path: PathBuf) -> PyResult<String> {
    py.detach(|| {
        let (plan, sidecar) = read_sidecar(&path)?;
        let (tally, _) = Tally::read(&path, &plan)?;
        let missing = sidecar
            .merged
            .as_ref()
            .map_or(&[][..], |m| &m.missing_shards[..]);
        Ok::<_, ringside_arena::Error>(report::csv(&plan, &tally, missing))
    })
    .map_err(value_error)
}

/// The registry's games: (name, options, about).
#[pyfunction]
fn games() -> Vec<(&'static str, String, &'static str)> {
    GAMES
        .iter()
        .map(|g| (g.name, g.options_text(), g.about))
        .collect()
}

/// The options of registry game `name`, as data: one dict an option with `name`, `type`
/// (`int`, `choice` or `cell`), `default` (a string, or None), `min` and `max` (ints) or
/// `choices` (a list of strings), and `help`.
#[pyfunction]
fn game_options(py: Python<'_>, name: &str) -> PyResult<Vec<Py<pyo3::types::PyDict>>> {
    use ringside_engine::registry::OptionKind;
    let info = GAMES
        .iter()
        .find(|g| g.name == name)
        .ok_or_else(|| value_error(format!("unknown game '{name}'")))?;
    info.options
        .iter()
        .map(|o| {
            let d = pyo3::types::PyDict::new(py);
            d.set_item("name", o.name)?;
            d.set_item("default", o.default)?;
            d.set_item("help", o.help)?;
            match o.kind {
                OptionKind::Int { min, max } => {
                    d.set_item("type", "int")?;
                    d.set_item("min", min)?;
                    d.set_item("max", max)?;
                }
                OptionKind::Choice(words) => {
                    d.set_item("type", "choice")?;
                    d.set_item("choices", words.to_vec())?;
                }
                OptionKind::Cell => d.set_item("type", "cell")?,
            }
            Ok(d.unbind())
        })
        .collect()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<Agent>()?;
    m.add_class::<vecenv::VecEnv>()?;
    m.add_function(wrap_pyfunction!(run_match, m)?)?;
    m.add_function(wrap_pyfunction!(summary_csv, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(game_options, m)?)?;
    m.add("DEFAULT_PLY_CAP", DEFAULT_PLY_CAP)?;
    m.add("CHANNELS", state::CHANNELS)?;
    Ok(())
}
