//! SPSA, as fishtest runs it: perturb every parameter at once, play θ+ against θ−, step θ by
//! the result.
//!
//! Parameters are given in fishtest's format, `name,start,min,max,c_end[,r_end]` (`r_end`
//! 0.002 when left out). A name is any numeric option of the agent spec (`c`, `a`, `k`,
//! `playout`, `depth`, …; whole-number options are rounded when the agent is built, θ itself
//! stays real) or a feature weight `w.NAME`.
//!
//! The schedule counts **game pairs**, as fishtest does. With `N` pairs in all (iterations ×
//! pairs per iteration), `α = 0.602`, `γ = 0.101` and `A = 0.1 · N`, each parameter has
//! - `c = c_end · N^γ`, `a_end = r_end · c_end²`, `a = a_end · (A + N)^α`;
//! - at an iteration starting after `j` pairs, with `k = j + 1`:
//!   `c_k = c / k^γ`, `a_k = a / (A + k)^α` and `R_k = a_k / c_k²`.
//!
//! An iteration draws a flip `Δ = ±1` per parameter from `(seed, iteration)`, plays its pairs
//! between `θ+ = clamp(θ + c_k Δ)` and `θ− = clamp(θ − c_k Δ)` (colour-swapped, random openings
//! drawn from the iteration's seed), and with `result = wins − losses` of θ+ over the
//! iteration's games updates `θ ← clamp(θ + R_k · c_k · result · Δ)`, clamps to `[min, max]`.
//! So `c_end` is the final perturbation and `r_end` the final learning rate, the meaning
//! fishtest gives them.

use rand::RngExt;
use ringside_engine::seeded_rng;

use crate::error::{Error, Result, Setting};

/// fishtest's α.
pub const ALPHA: f64 = 0.602;
/// fishtest's γ.
pub const GAMMA: f64 = 0.101;
/// fishtest's default `r_end`.
pub const DEFAULT_R_END: f64 = 0.002;

/// One tuned parameter.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Param {
    /// The agent option or `w.FEATURE`.
    pub name: String,
    /// θ at the start.
    pub start: f64,
    /// Lowest θ.
    pub min: f64,
    /// Highest θ.
    pub max: f64,
    /// The perturbation at the last pair.
    pub c_end: f64,
    /// The learning rate at the last pair.
    pub r_end: f64,
}

impl Param {
    /// Parses `name,start,min,max,c_end[,r_end]`.
    pub fn parse(text: &str) -> Result<Param> {
        let bad = |why: String| Error::about(Setting::Param, format_args!("'{text}': {why}"));
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if !(5..=6).contains(&parts.len()) || parts[0].is_empty() {
            return Err(bad("expected name,start,min,max,c_end[,r_end]".into()));
        }
        let number = |i: usize, what: &str| -> Result<f64> {
            let v: f64 = parts[i]
                .parse()
                .map_err(|_| bad(format!("{what} '{}' is not a number", parts[i])))?;
            if v.is_finite() {
                Ok(v)
            } else {
                Err(bad(format!("{what} must be finite, not {v}")))
            }
        };
        let p = Param {
            name: parts[0].to_string(),
            start: number(1, "start")?,
            min: number(2, "min")?,
            max: number(3, "max")?,
            c_end: number(4, "c_end")?,
            r_end: if parts.len() == 6 {
                number(5, "r_end")?
            } else {
                DEFAULT_R_END
            },
        };
        if p.min >= p.max {
            return Err(bad(format!("min {} is not below max {}", p.min, p.max)));
        }
        if !(p.min..=p.max).contains(&p.start) {
            return Err(bad(format!(
                "start {} is outside [{}, {}]",
                p.start, p.min, p.max
            )));
        }
        if p.c_end <= 0.0 || p.r_end <= 0.0 {
            return Err(bad("c_end and r_end must be above 0".into()));
        }
        Ok(p)
    }

    fn clamp(&self, x: f64) -> f64 {
        x.clamp(self.min, self.max)
    }
}

/// The gains of one parameter at one iteration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gains {
    /// The perturbation `c_k`.
    pub c_k: f64,
    /// The step size `a_k`.
    pub a_k: f64,
}

impl Gains {
    /// `R_k = a_k / c_k²`.
    #[must_use]
    pub fn r_k(&self) -> f64 {
        self.a_k / (self.c_k * self.c_k)
    }
}

/// fishtest's schedule for `total_pairs` pairs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Schedule {
    /// Pairs in the whole run (`N`).
    pub total_pairs: u64,
}

impl Schedule {
    /// `A = 0.1 · N`.
    #[must_use]
    pub fn big_a(&self) -> f64 {
        0.1 * self.total_pairs as f64
    }

    /// The gains of `p` at the iteration that starts after `pairs_done` pairs.
    #[must_use]
    pub fn gains(&self, p: &Param, pairs_done: u64) -> Gains {
        let n = self.total_pairs as f64;
        let big_a = self.big_a();
        let c = p.c_end * n.powf(GAMMA);
        let a_end = p.r_end * p.c_end * p.c_end;
        let a = a_end * (big_a + n).powf(ALPHA);
        let k = (pairs_done + 1) as f64;
        Gains {
            c_k: c / k.powf(GAMMA),
            a_k: a / (big_a + k).powf(ALPHA),
        }
    }
}

/// One iteration's probe: the flips and the two points to play.
#[derive(Debug, Clone, PartialEq)]
pub struct Perturbation {
    /// `Δ`, +1 or −1 a parameter.
    pub flips: Vec<f64>,
    /// The gains a parameter.
    pub gains: Vec<Gains>,
    /// `θ+`.
    pub plus: Vec<f64>,
    /// `θ−`.
    pub minus: Vec<f64>,
}

/// The state of an SPSA run: the parameters, θ, and the pairs played.
#[derive(Debug, Clone, PartialEq)]
pub struct Spsa {
    /// The parameters.
    pub params: Vec<Param>,
    /// The schedule.
    pub schedule: Schedule,
    /// The run's seed (flips come from `(seed, iteration)`).
    pub seed: u64,
    /// θ now.
    pub theta: Vec<f64>,
    /// Iterations done.
    pub iteration: u64,
    /// Pairs played.
    pub pairs_done: u64,
}

impl Spsa {
    /// A run from the parameters' starts.
    #[must_use]
    pub fn new(params: Vec<Param>, total_pairs: u64, seed: u64) -> Spsa {
        let theta = params.iter().map(|p| p.start).collect();
        Spsa {
            params,
            schedule: Schedule { total_pairs },
            seed,
            theta,
            iteration: 0,
            pairs_done: 0,
        }
    }

    /// The probe of the next iteration (it depends only on the seed, the iteration and θ).
    #[must_use]
    pub fn probe(&self) -> Perturbation {
        let mut rng = seeded_rng(self.seed, self.iteration + 1);
        let flips: Vec<f64> = self
            .params
            .iter()
            .map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let gains: Vec<Gains> = self
            .params
            .iter()
            .map(|p| self.schedule.gains(p, self.pairs_done))
            .collect();
        let shifted = |sign: f64| {
            self.params
                .iter()
                .zip(&self.theta)
                .zip(flips.iter().zip(&gains))
                .map(|((p, t), (f, g))| p.clamp(t + sign * g.c_k * f))
                .collect()
        };
        Perturbation {
            plus: shifted(1.0),
            minus: shifted(-1.0),
            flips,
            gains,
        }
    }

    /// Applies the result (`wins − losses` of θ+) of `pairs` pairs played on `probe`.
    pub fn update(&mut self, probe: &Perturbation, result: f64, pairs: u64) {
        for (i, p) in self.params.iter().enumerate() {
            let g = probe.gains[i];
            self.theta[i] = p.clamp(self.theta[i] + g.r_k() * g.c_k * result * probe.flips[i]);
        }
        self.iteration += 1;
        self.pairs_done += pairs;
    }
}
