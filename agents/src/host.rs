//! Agents the embedding program supplies: `host:name=NAME`.
//!
//! A program that links Ringside (the Python package's `ringside.match`, which lets a Python
//! policy play) registers a [`HostFactory`] under a name with [`register`]; a spec
//! `host:name=NAME` then builds that agent for each game, wherever the arena builds agents.
//! The agent sees the game with its type erased: the start position and the moves since,
//! as [`Game::move_index`] numbers (the Python package's action numbers), and it answers
//! with the number of a legal move. A number that names no legal move, or a
//! [`HostAgent::choose`] that fails, loses the game as an outside engine's fault does.
//!
//! Nothing is registered unless the embedding program does it, so the `arena` binary refuses
//! `host:` specs with a clear message. The registry is global to the process; names are
//! unique in it.

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use ringside_engine::Game;

use crate::{Agent, AgentFault, Decision, FaultKind, SearchStats};

/// An agent of the embedding program, for one game.
pub trait HostAgent: Send {
    /// The [`Game::move_index`] of the move to play. `start` is the game's position before
    /// its first move (after what chance drew) and `moves` the numbers of the moves played
    /// since, so `start` then `moves` is `state`; `start` and `state` are the game's own
    /// type behind [`Any`].
    ///
    /// # Errors
    /// When the agent cannot choose (its code failed): the game is lost for it.
    fn choose(
        &mut self,
        start: &dyn Any,
        moves: &[usize],
        state: &dyn Any,
    ) -> Result<usize, AgentFault>;
}

/// Builds the agent registered under a name, given its seed.
pub type HostFactory = Arc<dyn Fn(u64) -> Box<dyn HostAgent> + Send + Sync>;

static HOSTS: Mutex<BTreeMap<String, HostFactory>> = Mutex::new(BTreeMap::new());

/// Why a name could not be registered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegisterError {
    /// Not a plain word (letters, digits, `_`, `-`, `.`), so not writable in a spec.
    NotAName(String),
    /// Another agent has the name.
    Taken(String),
}

impl std::fmt::Display for RegisterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegisterError::NotAName(name) => write!(
                f,
                "host: '{name}' is not a name (letters, digits, _, - and . only)"
            ),
            RegisterError::Taken(name) => {
                write!(f, "host: an agent named '{name}' is registered already")
            }
        }
    }
}

impl std::error::Error for RegisterError {}

/// Registers `factory` under `name`, so that `host:name=NAME` builds its agents.
///
/// # Errors
/// When `name` is not a plain word or is registered already.
pub fn register(name: &str, factory: HostFactory) -> Result<(), RegisterError> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return Err(RegisterError::NotAName(name.to_string()));
    }
    let mut hosts = HOSTS.lock().unwrap_or_else(PoisonError::into_inner);
    if hosts.contains_key(name) {
        return Err(RegisterError::Taken(name.to_string()));
    }
    hosts.insert(name.to_string(), factory);
    Ok(())
}

/// Removes the agent registered under `name` (nothing when there is none).
pub fn unregister(name: &str) {
    HOSTS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(name);
}

/// What a spec naming an agent nobody registered is told.
#[must_use]
pub fn missing(name: &str) -> String {
    format!(
        "host: no agent named '{name}' is registered (host agents come from the program embedding Ringside, such as a Python policy in ringside.match)"
    )
}

/// Whether an agent is registered under `name`.
#[must_use]
pub fn registered(name: &str) -> bool {
    factory(name).is_some()
}

/// The factory registered under `name`.
pub(crate) fn factory(name: &str) -> Option<HostFactory> {
    HOSTS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(name)
        .cloned()
}

/// A host agent in a seat of game `G`: it keeps the start and the moves it hears of.
pub struct HostSeat<G: Game> {
    agent: Box<dyn HostAgent>,
    start: Option<G>,
    moves: Vec<usize>,
    scratch: Vec<G::Move>,
}

impl<G: Game> std::fmt::Debug for HostSeat<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostSeat")
            .field("moves", &self.moves)
            .finish_non_exhaustive()
    }
}

impl<G: Game> HostSeat<G> {
    /// A seat for `agent`, before the game's first move.
    #[must_use]
    pub fn new(agent: Box<dyn HostAgent>) -> HostSeat<G> {
        HostSeat {
            agent,
            start: None,
            moves: Vec::new(),
            scratch: Vec::new(),
        }
    }
}

impl<G: Game> Agent<G> for HostSeat<G> {
    fn choose(&mut self, state: &G) -> Decision<G::Move> {
        match self.try_choose(state) {
            Ok(decision) => decision,
            Err(fault) => panic!("host agent: {fault}"),
        }
    }

    fn try_choose(&mut self, state: &G) -> Result<Decision<G::Move>, AgentFault> {
        let start = self.start.get_or_insert_with(|| state.clone());
        let action = self.agent.choose(&*start, &self.moves, state)?;
        state.legal_moves(&mut self.scratch);
        let mv = self
            .scratch
            .iter()
            .copied()
            .find(|&m| state.move_index(m) == action)
            .ok_or_else(|| AgentFault {
                kind: FaultKind::IllegalMove,
                message: format!("host agent: action {action} is not a legal move here"),
            })?;
        Ok(Decision {
            mv,
            stats: SearchStats::default(),
        })
    }

    fn observe(&mut self, before: &G, mv: G::Move) {
        self.start.get_or_insert_with(|| before.clone());
        self.moves.push(before.move_index(mv));
    }
}
