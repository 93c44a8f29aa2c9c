//! Many games stepped together: actions in; observations, legal masks, rewards, done flags and
//! players out, as flat byte buffers the Python side views as NumPy arrays. A game that ends is
//! started again at once (its reward and done flag say so, a truncated flag whether the ply cap
//! stopped it, and the final observation is kept), and what chance draws at a start comes from
//! the batch's seed, the game's index and how many games it has begun.
//!
//! With an opponent (any agent spec), each game is one seat against that agent: the opponent's
//! moves are searched here, in every game at once, after each of the learner's and at a start,
//! so the learner is always to move when a step returns. `random_steps` plays many random
//! steps in Rust (random play with no Python loop at all).
//!
//! An illegal action raises and plays nothing, unless the step is given an illegal reward:
//! then the game it was played in ends there, lost by its mover as PettingZoo's classic games
//! score it (`TerminateIllegalWrapper`: the illegal reward to the mover, 0 to the other), and
//! is started again; an illegal flag says which games ended so.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rand::RngExt;
use rayon::prelude::*;
use ringside_engine::{GameRng, seeded_rng};

use std::sync::{Mutex, PoisonError};

use ringside_agents::AgentSpec;

use crate::state::{CHANCE_PLAYER, DynAgent, DynState};
use crate::{Game, args};

/// Batches smaller than this are stepped on the calling thread.
const PARALLEL_FROM: usize = 64;

/// One game of the batch.
struct Env {
    state: Box<dyn DynState>,
    /// Games begun, for the draw at each start.
    episode: u64,
    index: u64,
    /// The legal actions of the current state.
    legal: Vec<usize>,
    /// Draws [`VecEnv::random_actions`] for this game.
    rng: GameRng,
    /// The agent that plays every seat but the learner's, when the batch has one (behind an
    /// uncontended lock: a batch is shared with Python's threads, an agent only sent).
    opponent: Option<Mutex<Box<dyn DynAgent>>>,
    /// The learner's seat (with an opponent).
    seat: i64,
    /// The opponent's first failure (a search that returned an error).
    fault: Option<String>,
}

/// What one game writes for one step.
struct Out<'a> {
    obs: &'a mut [u8],
    mask: &'a mut [u8],
    reward: &'a mut [f32],
    done: &'a mut u8,
    player: &'a mut i8,
    /// 1 when the game that ended was stopped by the ply cap with no winner.
    truncated: &'a mut u8,
    /// The observation of the game that ended (when observations are made).
    final_obs: &'a mut [u8],
    /// 1 when the game ended because its mover played an illegal action.
    illegal: &'a mut u8,
}

impl Out<'_> {
    /// No reward, not done, not truncated: a step's outputs before anything ends.
    fn clear(&mut self) {
        self.reward.fill(0.0);
        *self.done = 0;
        *self.truncated = 0;
        *self.illegal = 0;
    }
}

impl Env {
    /// Starts a new game, drawing what chance draws.
    fn begin(&mut self, seed: u64) {
        self.state.reset();
        let mut rng = seeded_rng(seed, self.index.wrapping_mul(1 << 32) ^ self.episode);
        self.episode += 1;
        while self.state.current_player() == CHANCE_PLAYER {
            let outcomes = self.state.chance_outcomes();
            let pick = outcomes[rng.random_range(0..outcomes.len())].0;
            self.state.apply(pick).expect("a chance outcome applies");
        }
        self.respond();
    }

    /// The opponent's moves, until the learner is to move or the game is over.
    fn respond(&mut self) {
        let Some(opponent) = self.opponent.as_mut() else {
            return;
        };
        let opponent = opponent.get_mut().unwrap_or_else(PoisonError::into_inner);
        while self.fault.is_none()
            && !self.state.is_terminal()
            && self.state.current_player() != self.seat
        {
            match opponent.choose(self.state.as_ref()) {
                Ok((action, _)) => {
                    if let Err(e) = self.state.apply(action) {
                        self.fault = Some(format!("the opponent's move: {e}"));
                    }
                }
                Err(e) => self.fault = Some(format!("the opponent: {e}")),
            }
        }
    }

    /// The opponent's answer to the learner's move just played; when that ends the game, its
    /// returns and whether the cap stopped it (the caller begins the next game).
    fn answer(&mut self) -> Option<([f64; 2], bool)> {
        self.respond();
        if !self.state.is_terminal() {
            return None;
        }
        let returns = self.state.returns();
        let capped =
            self.state.move_number() >= self.state.max_game_length() && returns == [0.0, 0.0];
        Some((returns, capped))
    }

    /// Writes the observation (when asked for), mask and player of the current state.
    fn show(&mut self, out: &mut Out<'_>) {
        if !out.obs.is_empty() {
            self.state.observation(out.obs);
        }
        self.state.legal_actions(&mut self.legal);
        out.mask.fill(0);
        for &a in &self.legal {
            out.mask[a] = 1;
        }
        *out.player = self.state.current_player() as i8;
    }

    /// Plays `action` (already checked against the mask), restarting a finished game.
    fn step(&mut self, action: usize, seed: u64, out: &mut Out<'_>) {
        out.clear();
        self.state.apply(action).expect("checked against the mask");
        if let Some((r, capped)) = self.answer() {
            out.reward[0] = r[0] as f32;
            out.reward[1] = r[1] as f32;
            *out.done = 1;
            *out.truncated = u8::from(capped);
            if !out.final_obs.is_empty() {
                self.state.observation(out.final_obs);
            }
            self.begin(seed);
        }
        self.show(out);
    }

    /// Ends the game at an illegal action of its mover, who is given `reward` (the other
    /// player 0), keeping its final observation, and starts the next game.
    fn forfeit(&mut self, reward: f32, seed: u64, out: &mut Out<'_>) {
        out.clear();
        if let Ok(mover @ 0..=1) = usize::try_from(self.state.current_player()) {
            out.reward[mover] = reward;
        }
        *out.done = 1;
        *out.illegal = 1;
        if !out.final_obs.is_empty() {
            self.state.observation(out.final_obs);
        }
        self.begin(seed);
        self.show(out);
    }

    /// Plays `k` uniformly random legal moves (each drawn from this game's stream by the
    /// game's own playout draw, no list of actions made), each answered by the opponent,
    /// restarting finished games; counts the games finished and adds up their returns.
    fn random_steps(&mut self, k: u64, seed: u64, episodes: &mut u32, returns: &mut [f32]) {
        for _ in 0..k {
            if self.fault.is_some() || !self.state.play_random(&mut self.rng) {
                return;
            }
            if let Some((r, _)) = self.answer() {
                *episodes += 1;
                returns[0] += r[0] as f32;
                returns[1] += r[1] as f32;
                self.begin(seed);
            }
        }
    }
}

/// A batch of `n` games of one game, stepped in Rust.
#[pyclass(module = "ringside._core")]
pub struct VecEnv {
    envs: Vec<Env>,
    seed: u64,
    /// Bytes of one observation (0: observations are not made).
    obs_len: usize,
    actions: usize,
    obs: Vec<u8>,
    mask: Vec<u8>,
    reward: Vec<f32>,
    done: Vec<u8>,
    player: Vec<i8>,
    truncated: Vec<u8>,
    final_obs: Vec<u8>,
    illegal: Vec<u8>,
}

impl VecEnv {
    /// Runs `each` on every game with its slice of the output buffers.
    fn for_each(&mut self, each: impl Fn(usize, &mut Env, &mut Out<'_>) + Sync) {
        let (ol, al) = (self.obs_len.max(1), self.actions);
        let parts = self
            .envs
            .par_iter_mut()
            .zip(self.obs.par_chunks_mut(ol))
            .zip(self.mask.par_chunks_mut(al))
            .zip(self.reward.par_chunks_mut(2))
            .zip(self.done.par_iter_mut())
            .zip(self.player.par_iter_mut())
            .zip(self.truncated.par_iter_mut())
            .zip(self.final_obs.par_chunks_mut(ol))
            .zip(self.illegal.par_iter_mut())
            .enumerate()
            .with_min_len(PARALLEL_FROM);
        let observe = self.obs_len > 0;
        parts.for_each(
            |(
                i,
                ((((((((env, obs), mask), reward), done), player), truncated), final_obs), illegal),
            )| {
                let mut out = Out {
                    obs: if observe { obs } else { &mut [] },
                    mask,
                    reward,
                    done,
                    player,
                    truncated,
                    final_obs: if observe { final_obs } else { &mut [] },
                    illegal,
                };
                each(i, env, &mut out);
            },
        );
    }

    /// The opponent's first failure in any game, as Python's `ValueError`.
    fn fault(&mut self) -> PyResult<()> {
        match self.envs.iter_mut().find_map(|e| e.fault.take()) {
            Some(e) => Err(PyValueError::new_err(e)),
            None => Ok(()),
        }
    }

    /// (observations, masks, rewards, dones, players, truncated flags, final observations:
    /// empty when no game ended, illegal flags).
    fn buffers<'py>(&self, py: Python<'py>) -> [Bound<'py, PyBytes>; 8] {
        let reward: Vec<u8> = self.reward.iter().flat_map(|r| r.to_le_bytes()).collect();
        let player: Vec<u8> = self.player.iter().map(|&p| p as u8).collect();
        let obs: &[u8] = if self.obs_len > 0 { &self.obs } else { &[] };
        // The final observations only when a game ended: most steps end none.
        let final_obs: &[u8] = if self.obs_len > 0 && self.done.contains(&1) {
            &self.final_obs
        } else {
            &[]
        };
        [
            PyBytes::new(py, obs),
            PyBytes::new(py, &self.mask),
            PyBytes::new(py, &reward),
            PyBytes::new(py, &self.done),
            PyBytes::new(py, &player),
            PyBytes::new(py, &self.truncated),
            PyBytes::new(py, final_obs),
            PyBytes::new(py, &self.illegal),
        ]
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (game, n, seed, observations, opponent, seat))]
    fn new(
        game: PyRef<'_, Game>,
        n: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        observations: bool,
        opponent: Option<&str>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<VecEnv> {
        let n = match args::whole(n, "n")? {
            n if n < 1 => return Err(PyValueError::new_err("a VecEnv needs at least one game")),
            n => usize::try_from(n)
                .map_err(|_| PyValueError::new_err(format!("n {n}: too many games")))?,
        };
        let seed = args::seed(seed)?;
        let seat = match args::whole(seat, "seat")? {
            seat @ 0..=1 => seat as i64,
            seat => {
                return Err(PyValueError::new_err(format!(
                    "seat {seat}: expected 0 or 1"
                )));
            }
        };
        let spec = opponent
            .map(|o| {
                AgentSpec::parse(o).map_err(|e| PyValueError::new_err(format!("agent '{o}': {e}")))
            })
            .transpose()?;
        let [c, r, k] = game.start.observation_shape();
        let obs_len = if observations { c * r * k } else { 0 };
        let actions = game.start.num_distinct_actions();
        let mut envs = Vec::with_capacity(n);
        for i in 0..n {
            // Each game's opponent is seeded from the batch's seed and the game's index.
            let opponent = match &spec {
                Some(spec) => Some(Mutex::new(
                    game.start
                        .build_agent(spec, seeded_rng(seed, (1 << 62) | i as u64).random())
                        .map_err(PyValueError::new_err)?,
                )),
                None => None,
            };
            envs.push(Env {
                state: game.start.clone_box(),
                episode: 0,
                index: i as u64,
                legal: Vec::new(),
                rng: seeded_rng(seed, (1 << 63) | i as u64),
                opponent,
                seat,
                fault: None,
            });
        }
        Ok(VecEnv {
            envs,
            seed,
            obs_len,
            actions,
            obs: vec![0; n * obs_len.max(1)],
            mask: vec![0; n * actions],
            reward: vec![0.0; 2 * n],
            done: vec![0; n],
            player: vec![0; n],
            truncated: vec![0; n],
            final_obs: vec![0; n * obs_len.max(1)],
            illegal: vec![0; n],
        })
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.envs.len()
    }

    /// Starts every game afresh (the opponent's opening moves played): (observations, masks,
    /// rewards, dones, players, truncated flags, final observations, illegal flags) as bytes.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<[Bound<'py, PyBytes>; 8]> {
        let seed = self.seed;
        py.detach(|| {
            self.for_each(|_, env, out| {
                env.begin(seed);
                out.clear();
                env.show(out);
            });
        });
        self.fault()?;
        Ok(self.buffers(py))
    }

    /// Plays one action in every game (each legal by the last mask), and the opponent's
    /// answer: (observations, masks, rewards, dones, players, truncated flags, final
    /// observations, illegal flags) as bytes. A game that ends reports its returns, done,
    /// whether the cap stopped it and its final observation, and the observation is of the
    /// game started in its place. `actions` are little-endian 64-bit integers, one a game (a
    /// NumPy int64 array's bytes). An action that is not legal raises a ValueError and nothing
    /// is played; with `illegal_reward`, it ends its game instead, lost by its mover, who is
    /// given that reward (the other player 0): done, not truncated, flagged illegal, its final
    /// observation the position it was played in, the game started again.
    #[pyo3(signature = (actions, illegal_reward = None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &[u8],
        illegal_reward: Option<f32>,
    ) -> PyResult<[Bound<'py, PyBytes>; 8]> {
        if actions.len() != 8 * self.envs.len() {
            return Err(PyValueError::new_err(format!(
                "step takes {} actions, one a game, not {}",
                self.envs.len(),
                actions.len() / 8
            )));
        }
        let actions: Vec<i64> = actions
            .chunks_exact(8)
            .map(|b| i64::from_le_bytes(b.try_into().expect("8 bytes")))
            .collect();
        let legal: Vec<bool> = actions
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                usize::try_from(a)
                    .is_ok_and(|a| a < self.actions && self.mask[i * self.actions + a] == 1)
            })
            .collect();
        if illegal_reward.is_none()
            && let Some(i) = legal.iter().position(|&ok| !ok)
        {
            return Err(PyValueError::new_err(format!(
                "game {i}: action {} is not legal there (see its mask); nothing was played",
                actions[i]
            )));
        }
        let seed = self.seed;
        let forfeit = illegal_reward.unwrap_or(0.0);
        py.detach(|| {
            self.for_each(|i, env, out| {
                if legal[i] {
                    env.step(actions[i] as usize, seed, out);
                } else {
                    env.forfeit(forfeit, seed, out);
                }
            });
        });
        self.fault()?;
        Ok(self.buffers(py))
    }

    /// Plays `k` random steps in every game in Rust (each a uniformly random legal move drawn
    /// from the game's own stream, then the opponent's answer), restarting finished games:
    /// the games each finished (little-endian u32s) and the sums of their returns (n × 2
    /// little-endian f32s). The masks, players and observations are then those of the games
    /// as they stand (read them with `reset`'s buffers through `current`).
    fn random_steps<'py>(
        &mut self,
        py: Python<'py>,
        k: &Bound<'_, PyAny>,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let k = args::bounded(k, "k", 0, u64::MAX)?;
        let seed = self.seed;
        let mut episodes = vec![0u32; self.envs.len()];
        let mut returns = vec![0f32; 2 * self.envs.len()];
        py.detach(|| {
            self.envs
                .par_iter_mut()
                .zip(episodes.par_iter_mut())
                .zip(returns.par_chunks_mut(2))
                .with_min_len(PARALLEL_FROM)
                .for_each(|((env, episodes), returns)| {
                    env.random_steps(k, seed, episodes, returns);
                });
            self.for_each(|_, env, out| {
                out.clear();
                env.show(out);
            });
        });
        self.fault()?;
        let episodes: Vec<u8> = episodes.iter().flat_map(|e| e.to_le_bytes()).collect();
        let returns: Vec<u8> = returns.iter().flat_map(|r| r.to_le_bytes()).collect();
        Ok((PyBytes::new(py, &episodes), PyBytes::new(py, &returns)))
    }

    /// The buffers as the games stand: (observations, masks, rewards, dones, players,
    /// truncated flags, final observations, illegal flags) as bytes.
    fn current<'py>(&self, py: Python<'py>) -> [Bound<'py, PyBytes>; 8] {
        self.buffers(py)
    }

    /// A uniformly random legal action in each game, drawn from the game's own stream of
    /// the batch's seed: random play without a Python loop.
    /// Little-endian 64-bit integers, one a game.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes: Vec<u8> = self
            .envs
            .iter_mut()
            .flat_map(|env| {
                let action = match env.legal.len() {
                    0 => -1,
                    n => env.legal[env.rng.random_range(0..n)] as i64,
                };
                action.to_le_bytes()
            })
            .collect();
        PyBytes::new(py, &bytes)
    }

    /// (channels, rows, columns) of one observation.
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [c, r, k] = self.envs[0].state.observation_shape();
        (c, r, k)
    }

    /// Number of distinct actions (the width of a mask).
    fn num_distinct_actions(&self) -> usize {
        self.actions
    }
}
