//! Game-playing agents for Ringside, generic over the engine's [`Game`] trait.
//!
//! Agents are built from text specs ([`AgentSpec`]): `random`, `alphabeta:depth=3,eval=material`,
//! `mcts:iters=2000,c=1.4,score=moves`, … Every agent is seeded, `Send`, and cheap to build, so
//! the arena builds two per game and plays thousands of games in parallel. With a seed and a
//! budget that is not wall-clock time, an agent picks the same move every time.
//!
//! ```
//! use ringside_agents::{Agent, AgentSpec};
//! use ringside_engine::{Game, games::rin::Rin};
//!
//! let spec = AgentSpec::parse("mcts:iters=200").unwrap();
//! let rin = Rin::new(6).unwrap();
//! let mut agent = spec.build(&rin, 7).unwrap();
//! let decision = agent.choose(&rin);
//! assert!(rin.is_legal(decision.mv));
//! assert_eq!(decision.stats.iterations, 200);
//! ```
//!
//! # Who moves comes from the state
//! Rin plays B, W, W, B, B, …; other games pass. Alpha-beta negates a child's value only when
//! the side to move changed between parent and child, and MCTS credits each node's reward to
//! the player who moved into it. Nothing here reads ply parity.
//!
//! # Scoring: `score=win` and `score=moves`
//! The idea of seed 004: win in as few moves as possible, lose in as many as possible.
//!
//! **Alpha-beta.** With `WIN = 1 000 000` and `d` the plies from the root to the finished
//! position, a win is worth `WIN − d` and a loss `−(WIN − d)` under `score=moves`; under
//! `score=win` they are `WIN` and `−WIN`. A draw is 0. Evaluations are clamped to
//! `±WIN / 2`, strictly inside that band, so any forced result outranks any evaluation, and
//! among forced wins the fastest is best, among forced losses the slowest.
//!
//! **MCTS.** A playout from the root that ends after `L` plies with a win for player W gives W
//! the reward `r = +1` and the other player `−1` (a draw gives both 0). Under `score=moves` the
//! reward is corrected by the relative bonus of Pepels, Tak, Lanctot and Winands
//! ("Quality-based Rewards for Monte-Carlo Tree Search Simulations", ECAI 2014):
//!
//! ```text
//! λ = (L̄_W − L) / σ_W                   L̄_W, σ_W: mean and standard deviation of the
//!                                        lengths of W's earlier wins in this search
//! b = 2 / (1 + e^(−k·λ)) − 1             in (−1, 1); positive for a shorter win than usual
//! reward(W) = r + sgn(r)·a·b = 1 + a·b,  reward(other) = −(1 + a·b)
//! ```
//!
//! so a shorter win is worth more to the winner, and a longer loss is less bad to the loser.
//! `a` (default 0.25) and `k` (default 1.0) are the spec's `a=` and `k=`. The bonus applies once
//! W has won at least two playouts with lengths that differ (σ_W > 0).
//!
//! A playout cut after `playout=K` plies is scored by the evaluation `v` from W's side as
//! `tanh(v / 4)` for each player (no bonus).
//!
//! **MCTS-Solver.** A node whose result is proven carries its winner and its distance `D` in
//! plies to the end. A node whose mover has a child proven to win is proven won at distance
//! `1 + min D` over such children; a node whose children are all proven and none wins for its
//! mover is proven lost at `1 + max D` (or drawn, if a child is a proven draw). The root plays
//! the shortest proven win, else the most visited unproven child (with `final=wins`, the one
//! with the most won playouts), else the longest proven loss.

pub mod alphabeta;
pub mod clock;
pub mod conv;
pub mod eval;
pub mod fault;
pub mod faulty;
pub mod gtp;
pub mod host;
pub mod mcts;
pub mod movenet;
pub mod net;
pub mod perfect;
pub mod pvnet;
pub mod random;
pub mod solve;
pub mod spec;

use std::time::Duration;

use ringside_engine::{Features, Game, seeded_rng};

pub use alphabeta::AlphaBeta;
pub use eval::Evaluator;
pub use fault::{AgentFault, FaultKind};
pub use gtp::GtpAgent;
pub use mcts::Mcts;
pub use random::RandomAgent;
pub use spec::{
    AgentSpec, EvalKind, EvalSpec, LabelledSpec, NetRef, Parallelism, Scoring, SpecError,
    SpecErrorKind, WeightsError, read_weights,
};

/// What one decision cost.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SearchStats {
    /// Positions searched (alpha-beta) or tree nodes held (MCTS).
    pub nodes: u64,
    /// MCTS iterations.
    pub iterations: u64,
    /// The deepest completed alpha-beta iteration, or the deepest MCTS selection.
    pub depth: u32,
    /// Wall-clock time of the decision.
    pub time: Duration,
    /// The search's value of the position for the mover, if it has one (alpha-beta: in
    /// the scoring units of the crate docs; MCTS: mean reward of the chosen move).
    pub value: Option<f64>,
    /// Whether the move was chosen by an exact solve (the perfect player, when the position
    /// solved within its budget); false for every search that is not exact.
    pub exact: bool,
}

/// A move and what choosing it cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision<M> {
    /// The move to play.
    pub mv: M,
    /// Its cost.
    pub stats: SearchStats,
}

/// A player: picks a move in a position where the game goes on.
pub trait Agent<G: Game>: Send {
    /// Chooses a move for the player to move in `state`.
    ///
    /// # Panics
    /// When the game is over; the arena never asks then.
    fn choose(&mut self, state: &G) -> Decision<G::Move>;

    /// Chooses a move, or says why it cannot: agents outside the process (an engine over
    /// GTP) can crash, run out of time or answer nonsense, and lose the game for it. Agents
    /// in the process never fail here.
    fn try_choose(&mut self, state: &G) -> Result<Decision<G::Move>, AgentFault> {
        Ok(self.choose(state))
    }

    /// Hears of every move played in the game, its own included, with the position before
    /// it. Agents that keep their own copy of the game (an engine over GTP) need it; the
    /// others ignore it.
    fn observe(&mut self, _before: &G, _mv: G::Move) {}
}

/// Any agent, so the arena can hold either seat's player in one type without `dyn`.
#[derive(Debug)]
pub enum AnyAgent<G: Game> {
    /// The random player.
    Random(RandomAgent<G>),
    /// Alpha-beta.
    AlphaBeta(Box<AlphaBeta<G>>),
    /// The perfect player.
    Perfect(Box<perfect::PerfectAgent<G>>),
    /// MCTS.
    Mcts(Box<Mcts<G>>),
    /// The deliberately faulty player.
    Faulty(faulty::FaultyAgent<G>),
    /// An engine outside the process, over GTP.
    Gtp(Box<GtpAgent<G>>),
    /// An agent of the program embedding Ringside.
    Host(Box<host::HostSeat<G>>),
}

impl<G: Game> AnyAgent<G> {
    /// Whether [`Agent::observe`] does anything for this agent (an engine over GTP or the
    /// host's seat, which keep their own board): a play loop may skip telling the others.
    #[must_use]
    pub fn observes(&self) -> bool {
        matches!(self, AnyAgent::Gtp(_) | AnyAgent::Host(_))
    }
}

impl<G: Game + Features> Agent<G> for AnyAgent<G> {
    #[inline]
    fn choose(&mut self, state: &G) -> Decision<G::Move> {
        match self {
            AnyAgent::Random(a) => a.choose(state),
            AnyAgent::AlphaBeta(a) => a.choose(state),
            AnyAgent::Perfect(a) => a.choose(state),
            AnyAgent::Mcts(a) => a.choose(state),
            AnyAgent::Faulty(a) => a.choose(state),
            AnyAgent::Gtp(a) => a.choose(state),
            AnyAgent::Host(a) => a.choose(state),
        }
    }

    #[inline]
    fn try_choose(&mut self, state: &G) -> Result<Decision<G::Move>, AgentFault> {
        match self {
            // Its own arm, so the random player's draw inlines into a match's play loop.
            AnyAgent::Random(a) => Ok(a.choose(state)),
            AnyAgent::Gtp(a) => a.try_choose(state),
            AnyAgent::Host(a) => a.try_choose(state),
            other => Ok(other.choose(state)),
        }
    }

    /// The agents that listen are the ones [`AnyAgent::observes`] names.
    #[inline]
    fn observe(&mut self, before: &G, mv: G::Move) {
        match self {
            AnyAgent::Gtp(a) => a.observe(before, mv),
            AnyAgent::Host(a) => a.observe(before, mv),
            _ => {}
        }
    }
}

impl AgentSpec {
    /// Builds the agent for the game of `state` (whose features the evaluation weights),
    /// seeded with `seed`.
    pub fn build<G: Game + Features>(
        &self,
        state: &G,
        seed: u64,
    ) -> Result<AnyAgent<G>, SpecError> {
        let rng = seeded_rng(seed, 0xA6E27);
        Ok(match self {
            AgentSpec::Random => AnyAgent::Random(RandomAgent::new(rng)),
            // Never asked to move (the arena refuses a person in matches); were it asked,
            // it would fail at once, as a seat nobody fills.
            AgentSpec::Human => {
                AnyAgent::Faulty(faulty::FaultyAgent::new(rng, faulty::Fault::Panic, 1))
            }
            AgentSpec::Faulty { fault, at } => {
                AnyAgent::Faulty(faulty::FaultyAgent::new(rng, *fault, *at))
            }
            AgentSpec::AlphaBeta(s) => AnyAgent::AlphaBeta(Box::new(
                AlphaBeta::new(s.clone(), Evaluator::new(&s.eval, state)?).seeded(rng),
            )),
            AgentSpec::Mcts(s) => {
                let terms = state.knowledge_terms();
                let unknown = (s.know_terms.keys().map(|n| ("know", n)))
                    .chain(s.prob_terms.keys().map(|n| ("prob", n)))
                    .chain(s.roll_terms.keys().map(|n| ("roll", n)))
                    .find(|(_, n)| !terms.contains(&n.as_str()));
                if let Some((prefix, name)) = unknown {
                    return Err(SpecError {
                        kind: SpecErrorKind::BadValue,
                        reason: format!(
                            "mcts: {prefix}.{name}: {} has no knowledge term '{name}' (it has: {})",
                            state.name(),
                            if terms.is_empty() {
                                "none".to_string()
                            } else {
                                terms.join(", ")
                            }
                        ),
                    });
                }
                if let Some(shapes) = s.shapes.as_ref().filter(|f| f.weights.is_none()) {
                    return Err(SpecError {
                        kind: SpecErrorKind::Shapes,
                        reason: format!(
                            "mcts: shapes file {}: not here (the spec names it by content, shapes_id={:016x})",
                            shapes.file,
                            shapes.id.unwrap_or_default()
                        ),
                    });
                }
                if let Some(prior) = s.movenet.as_ref() {
                    let reason = if prior.net.is_none() {
                        Some(format!(
                            "mcts: movenet file {}: not here (the spec names it by content, movenet_id={:016x})",
                            prior.file,
                            prior.id.unwrap_or_default()
                        ))
                    } else {
                        state.grid_side().is_none().then(|| {
                            format!("mcts: movenet=FILE: {} has no grid to read", state.name())
                        })
                    };
                    if let Some(reason) = reason {
                        return Err(SpecError {
                            kind: SpecErrorKind::MoveNet,
                            reason,
                        });
                    }
                }
                if let Some(pv) = s.pv.as_ref() {
                    let reason = match pv.net.as_deref() {
                        None => Some(format!(
                            "mcts: pv file {}: not here (the spec names it by content, pv_id={:016x})",
                            pv.file,
                            pv.id.unwrap_or_default()
                        )),
                        Some(net) => net
                            .refuses(state)
                            .map(|why| format!("mcts: pv file {}: {why}", pv.file)),
                    };
                    if let Some(reason) = reason {
                        return Err(SpecError {
                            kind: SpecErrorKind::MoveNet,
                            reason,
                        });
                    }
                }
                load_named_terms(s, state);
                AnyAgent::Mcts(Box::new(Mcts::new(
                    s.clone(),
                    Evaluator::new(&s.eval, state)?,
                    rng,
                )))
            }
            AgentSpec::Solver(s) => {
                let fallback = spec::MctsSpec {
                    iterations: Some(s.fallback_iters),
                    ..spec::MctsSpec::default()
                };
                let eval = Evaluator::new(&fallback.eval, state)?;
                let mcts = Mcts::new(fallback, eval, seeded_rng(seed, 0x5017E));
                AnyAgent::Perfect(Box::new(perfect::PerfectAgent::new(s, rng, mcts)))
            }
            AgentSpec::Gtp(s) => {
                if !s.coords.fits(state) {
                    return Err(SpecError {
                        kind: SpecErrorKind::WrongGame,
                        reason: format!(
                            "gtp: coords={} is not a notation of {} (it knows: ringside{})",
                            s.coords.as_str(),
                            state.name(),
                            state
                                .notations()
                                .iter()
                                .map(|n| format!(", {n}"))
                                .collect::<String>()
                        ),
                    });
                }
                AnyAgent::Gtp(Box::new(GtpAgent::new(s.clone())))
            }
            AgentSpec::Host(name) => {
                let factory = host::factory(name).ok_or_else(|| SpecError {
                    kind: SpecErrorKind::UnknownAgent,
                    reason: host::missing(name),
                })?;
                AnyAgent::Host(Box::new(host::HostSeat::new(factory(seed))))
            }
        })
    }
}

/// Reads each knowledge term `spec` names once, on a legal move of `state`, so that a term
/// whose table loads on first use (Havannah's built-in shapes fits: 13 ms for `shape_wide2`)
/// loads it while the agent is built, not inside its first search's time budget. Nothing is
/// kept: a term's value is a pure function of the position, so the search is the same.
fn load_named_terms<G: Game + Features>(spec: &spec::MctsSpec, state: &G) {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let Some(&mv) = moves.first() else {
        return;
    };
    let names = state.knowledge_terms();
    let named = (spec.know_terms.keys())
        .chain(spec.prob_terms.keys())
        .chain(spec.roll_terms.keys());
    for name in named {
        if let Some(k) = names.iter().position(|n| n == name) {
            state.knowledge_term(mv, k);
        }
    }
}
