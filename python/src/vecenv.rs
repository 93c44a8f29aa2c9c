//! Many games stepped together: actions in; observations, legal masks, rewards, done flags and
//! players out, as flat byte buffers the Python side views as NumPy arrays. A game that ends is
//! started again at once (its reward and done flag say so), and what chance draws at a start
//! comes from the batch's seed, the game's index and how many games it has begun.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rand::RngExt;
use rayon::prelude::*;
use ringside_engine::{GameRng, seeded_rng};

use crate::Game;
use crate::state::{CHANCE_PLAYER, DynState};

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
}

/// What one game writes for one step.
struct Out<'a> {
    obs: &'a mut [u8],
    mask: &'a mut [u8],
    reward: &'a mut [f32],
    done: &'a mut u8,
    player: &'a mut i8,
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
        self.state.apply(action).expect("checked against the mask");
        out.reward.fill(0.0);
        *out.done = 0;
        if self.state.is_terminal() {
            let r = self.state.returns();
            out.reward[0] = r[0] as f32;
            out.reward[1] = r[1] as f32;
            *out.done = 1;
            self.begin(seed);
        }
        self.show(out);
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
            .enumerate()
            .with_min_len(PARALLEL_FROM);
        let observe = self.obs_len > 0;
        parts.for_each(|(i, (((((env, obs), mask), reward), done), player))| {
            let mut out = Out {
                obs: if observe { obs } else { &mut [] },
                mask,
                reward,
                done,
                player,
            };
            each(i, env, &mut out);
        });
    }

    fn buffers<'py>(&self, py: Python<'py>) -> [Bound<'py, PyBytes>; 5] {
        let reward: Vec<u8> = self.reward.iter().flat_map(|r| r.to_le_bytes()).collect();
        let player: Vec<u8> = self.player.iter().map(|&p| p as u8).collect();
        let obs: &[u8] = if self.obs_len > 0 { &self.obs } else { &[] };
        [
            PyBytes::new(py, obs),
            PyBytes::new(py, &self.mask),
            PyBytes::new(py, &reward),
            PyBytes::new(py, &self.done),
            PyBytes::new(py, &player),
        ]
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (game, n, seed = 1, observations = true))]
    fn new(game: PyRef<'_, Game>, n: usize, seed: u64, observations: bool) -> PyResult<VecEnv> {
        if n == 0 {
            return Err(PyValueError::new_err("a VecEnv needs at least one game"));
        }
        let [c, r, k] = game.start.observation_shape();
        let obs_len = if observations { c * r * k } else { 0 };
        let actions = game.start.num_distinct_actions();
        let envs = (0..n)
            .map(|i| Env {
                state: game.start.clone_box(),
                episode: 0,
                index: i as u64,
                legal: Vec::new(),
                rng: seeded_rng(seed, (1 << 63) | i as u64),
            })
            .collect();
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
        })
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.envs.len()
    }

    /// Starts every game afresh: (observations, masks, rewards, dones, players) as bytes.
    fn reset<'py>(&mut self, py: Python<'py>) -> [Bound<'py, PyBytes>; 5] {
        let seed = self.seed;
        py.detach(|| {
            self.for_each(|_, env, out| {
                env.begin(seed);
                out.reward.fill(0.0);
                *out.done = 0;
                env.show(out);
            });
        });
        self.buffers(py)
    }

    /// Plays one action in every game (each legal by the last mask): (observations, masks,
    /// rewards, dones, players) as bytes. A game that ends reports its returns and done, and
    /// the observation is of the game started in its place.
    /// `actions` are little-endian 64-bit integers, one a game (a NumPy int64 array's
    /// bytes).
    fn step<'py>(&mut self, py: Python<'py>, actions: &[u8]) -> PyResult<[Bound<'py, PyBytes>; 5]> {
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
        for (i, &a) in actions.iter().enumerate() {
            let legal = usize::try_from(a)
                .ok()
                .filter(|&a| a < self.actions && self.mask[i * self.actions + a] == 1);
            if legal.is_none() {
                return Err(PyValueError::new_err(format!(
                    "game {i}: action {a} is not legal there (see its mask); nothing was played"
                )));
            }
        }
        let seed = self.seed;
        py.detach(|| {
            self.for_each(|i, env, out| env.step(actions[i] as usize, seed, out));
        });
        Ok(self.buffers(py))
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
