//! The SPRT as fishtest computes it: the generalised log-likelihood ratio of the pentanomial
//! counts of colour-swapped pairs, with the maximum-likelihood distribution under each
//! hypothesis found exactly (fishtest's `LLR_logistic` and `LLR_normalized` in
//! `server/fishtest/stats/LLRcalc.py`).
//!
//! Pairs score 0, ½, 1, 1½ or 2 points; as a per-game score they are the values
//! `aᵢ = 0, ¼, ½, ¾, 1` with empirical frequencies `p̂ᵢ = nᵢ / N`. A count of zero is replaced
//! by `ε = 10⁻³` before anything else (fishtest's regularisation), so `N = Σ nᵢ` includes them.
//!
//! **Logistic Elo.** Under a hypothesis with expected score `s = 1 / (1 + 10^(−elo/400))`, the
//! distribution closest to the data (maximum likelihood among those with mean `s`) is
//! `pᵢ = p̂ᵢ / (1 + x (aᵢ − s))`, where `x` solves the secular equation
//! `Σ p̂ᵢ (aᵢ − s) / (1 + x (aᵢ − s)) = 0` on the interval where every denominator is positive
//! (Van den Bergh, "A note on the MLE of a multinomial with given expectation").
//!
//! **Normalized Elo.** A hypothesis fixes the t-value `t = (μ − ½) / σ` of the pair score
//! instead, with `t = √2 · nelo / (800 / ln 10)`. Its MLE is found by iterating the secular
//! equation with `aᵢ − ½ − t σ (1 + ((μ − aᵢ)/σ)²) / 2` in place of `aᵢ − s`, μ and σ taken from
//! the previous iterate, from the uniform distribution until the probabilities move by less
//! than 10⁻⁹ (at most 10 rounds, as fishtest).
//!
//! Either way, `LLR = N · Σ p̂ᵢ (ln p¹ᵢ − ln p⁰ᵢ)`. The run stops once
//! `LLR ≥ ln((1 − β)/α)` (H1 accepted) or `LLR ≤ ln(β/(1 − α))` (H0 accepted).

use crate::figures::stats::{PAIR_SCORES, PairFold, Penta, expected_score, pair_moments};
use crate::plan::{EloModel, SprtConfig};
use crate::records::row::GameRow;

/// fishtest's replacement for an empty pentanomial count.
pub const REGULARISATION: f64 = 1e-3;
/// Normalized Elo per unit of t-value: 800 / ln 10.
pub const NELO_PER_T: f64 = 347.435_585_522_601_46;

/// The SPRT's stopping bounds `(lower, upper)`: `(ln(β/(1−α)), ln((1−β)/α))`.
#[must_use]
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The regularised counts and their total.
fn regularised(p: &Penta) -> ([f64; 5], f64) {
    let counts = p.0.map(|c| if c == 0 { REGULARISATION } else { c as f64 });
    (counts, counts.iter().sum())
}

/// Solves `Σ pᵢ aᵢ / (1 + x aᵢ) = 0` for `x` where every `1 + x aᵢ > 0`; the `aᵢ` must take
/// both signs. The left side falls strictly in `x`, so Newton's method kept inside a
/// shrinking bracket converges.
fn secular(p: &[f64; 5], a: &[f64; 5]) -> f64 {
    let (min, max) = a
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    debug_assert!(
        min < 0.0 && max > 0.0,
        "the secular equation needs values of both signs"
    );
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    let f = |x: f64| -> (f64, f64) {
        let (mut value, mut slope) = (0.0, 0.0);
        for (pi, ai) in p.iter().zip(a) {
            let d = 1.0 + x * ai;
            value += pi * ai / d;
            slope -= pi * ai * ai / (d * d);
        }
        (value, slope)
    };
    let mut x = 0.0;
    for _ in 0..200 {
        let (value, slope) = f(x);
        if value == 0.0 {
            return x;
        }
        if value > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let newton = x - value / slope;
        let next = if newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if (next - x).abs() <= 1e-15 * (1.0 + x.abs()) {
            return next;
        }
        x = next;
    }
    x
}

/// The MLE of the pair-score distribution with mean `s` given frequencies `p̂`.
fn mle_expected(p_hat: &[f64; 5], s: f64) -> [f64; 5] {
    let a = PAIR_SCORES.map(|v| v - s);
    let x = secular(p_hat, &a);
    std::array::from_fn(|i| p_hat[i] / (1.0 + x * a[i]))
}

/// The MLE of the pair-score distribution with t-value `(μ − ½)/σ = t` given frequencies `p̂`.
fn mle_t_value(p_hat: &[f64; 5], t: f64) -> [f64; 5] {
    let mut p = [0.2; 5];
    for _ in 0..10 {
        let (mu, var) = pair_moments(&p);
        let sigma = var.sqrt();
        let a = PAIR_SCORES.map(|v| v - 0.5 - t * sigma * (1.0 + ((mu - v) / sigma).powi(2)) / 2.0);
        let x = secular(p_hat, &a);
        let next: [f64; 5] = std::array::from_fn(|i| p_hat[i] / (1.0 + x * a[i]));
        let moved = next
            .iter()
            .zip(&p)
            .map(|(n, o)| (n - o).abs())
            .fold(0.0, f64::max);
        p = next;
        if moved < 1e-9 {
            break;
        }
    }
    p
}

/// The log-likelihood ratio of H1 against H0 for the pentanomial counts `p`, in `model`.
#[must_use]
pub fn llr(p: &Penta, elo0: f64, elo1: f64, model: EloModel) -> f64 {
    let (counts, n) = regularised(p);
    let p_hat = counts.map(|c| c / n);
    let (p0, p1) = match model {
        EloModel::Logistic => (
            mle_expected(&p_hat, expected_score(elo0)),
            mle_expected(&p_hat, expected_score(elo1)),
        ),
        EloModel::Normalized => {
            let t = |nelo: f64| nelo / NELO_PER_T * std::f64::consts::SQRT_2;
            (mle_t_value(&p_hat, t(elo0)), mle_t_value(&p_hat, t(elo1)))
        }
    };
    n * (0..5)
        .map(|i| p_hat[i] * (p1[i].ln() - p0[i].ln()))
        .sum::<f64>()
}

/// What an SPRT decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// H0 accepted: the first agent is not `elo1` stronger.
    H0,
    /// H1 accepted: the first agent is at least `elo1` stronger.
    H1,
}

impl std::fmt::Display for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Decision::H0 => "H0 accepted",
            Decision::H1 => "H1 accepted",
        })
    }
}

/// A running SPRT, fed game by game (pairs complete in any order).
#[derive(Debug, Clone)]
pub struct Sprt {
    config: SprtConfig,
    fold: PairFold,
    penta: Penta,
}

impl Sprt {
    /// An SPRT with no games yet.
    #[must_use]
    pub fn new(config: SprtConfig) -> Sprt {
        Sprt {
            config,
            fold: PairFold::default(),
            penta: Penta::default(),
        }
    }

    /// Adds a game of the pairing (from its first agent's view).
    pub fn add(&mut self, row: &GameRow) {
        if let Some(points) = self.fold.add(row) {
            self.penta.add(points);
        }
    }

    /// The counts of complete pairs so far.
    #[must_use]
    pub fn penta(&self) -> Penta {
        self.penta
    }

    /// The log-likelihood ratio now.
    #[must_use]
    pub fn llr(&self) -> f64 {
        llr(
            &self.penta,
            self.config.elo0,
            self.config.elo1,
            self.config.model,
        )
    }

    /// The decision, once the LLR has crossed a bound.
    #[must_use]
    pub fn decision(&self) -> Option<Decision> {
        decide(self.llr(), bounds(self.config.alpha, self.config.beta))
    }
}

fn decide(llr: f64, (lower, upper): (f64, f64)) -> Option<Decision> {
    if llr >= upper {
        Some(Decision::H1)
    } else if llr <= lower {
        Some(Decision::H0)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    // The reference values come from fishtest's LLRcalc.py (LLR_logistic and LLR_normalized,
    // scipy's brentq for the secular equation) run on the same counts.
    #[test]
    fn llr_matches_fishtest_on_its_own_examples() {
        // fishtest's stat_util.py self-test: pentanomial [10789, 19328, 33806, 19402, 10543],
        // logistic [-3, 1].
        let p = Penta([10789, 19328, 33806, 19402, 10543]);
        assert!(close(
            llr(&p, -3.0, 1.0, EloModel::Logistic),
            REF_FISHTEST_LOGISTIC,
            1e-6
        ));
        let q = Penta([39, 2226, 31451, 2412, 40]);
        assert!(close(
            llr(&q, 0.2, 0.9, EloModel::Logistic),
            REF_SMALL_LOGISTIC,
            1e-6
        ));
        assert!(close(
            llr(&q, 0.764, 3.439, EloModel::Normalized),
            REF_SMALL_NORMALIZED,
            1e-6
        ));
        // Far from both hypotheses the exact LLR is much smaller than the old closed form.
        let far = Penta([0, 0, 2, 10, 20]);
        assert!(close(
            llr(&far, 0.0, 50.0, EloModel::Logistic),
            REF_FAR_LOGISTIC,
            1e-6
        ));
        // Two pairs won twice cannot decide [0, 50] (fishtest: 0.2674).
        let two = Penta([0, 0, 0, 0, 2]);
        assert!(close(
            llr(&two, 0.0, 50.0, EloModel::Logistic),
            0.267_429_514_384_373_4,
            1e-6
        ));
    }

    const REF_FISHTEST_LOGISTIC: f64 = 2.131_067_811_794_080_7;
    const REF_SMALL_LOGISTIC: f64 = 2.162_542_580_048_359_3;
    const REF_SMALL_NORMALIZED: f64 = 2.162_940_869_584_568;
    // The old closed form (LLR_alt2) gives 34.93 here.
    const REF_FAR_LOGISTIC: f64 = 4.274_849_363_821_426;

    #[test]
    fn a_run_of_split_pairs_is_decided_for_h0() {
        // Every pair split 1-1: the old closed form never stopped (zero variance).
        let mut sprt = Sprt::new(SprtConfig::parse("0,50,0.05,0.05").unwrap());
        let mut pairs = 0;
        while sprt.decision().is_none() {
            sprt.penta.add(1.0);
            pairs += 1;
            assert!(pairs < 1000, "no decision after 1000 split pairs");
        }
        assert_eq!(sprt.decision(), Some(Decision::H0));
    }

    #[test]
    fn secular_equation_gives_the_requested_mean() {
        let p_hat = [0.1, 0.2, 0.3, 0.25, 0.15];
        for s in [0.3, 0.5, 0.52, 0.8] {
            let p = mle_expected(&p_hat, s);
            let (mean, _) = pair_moments(&p);
            assert!(close(mean, s, 1e-12), "{s}: {mean}");
            assert!(close(p.iter().sum::<f64>(), 1.0, 1e-12));
        }
        let p = mle_t_value(&p_hat, 0.1);
        let (mu, var) = pair_moments(&p);
        assert!(close((mu - 0.5) / var.sqrt(), 0.1, 1e-6));
    }

    /// The pentanomial distribution of a pair of independent games whose first side scores
    /// `s` a game with draws at rate `draws`.
    fn pair_distribution(s: f64, draws: f64) -> [f64; 5] {
        let (w, d, l) = (s - draws / 2.0, draws, 1.0 - s - draws / 2.0);
        [l * l, 2.0 * l * d, 2.0 * l * w + d * d, 2.0 * w * d, w * w]
    }

    /// Runs SPRTs on simulated pairs until each decides; returns how many accepted H1.
    fn accept_h1(config: SprtConfig, elo: f64, runs: u64, seed: u64) -> u64 {
        let dist = pair_distribution(expected_score(elo), 0.4);
        let bounds = bounds(config.alpha, config.beta);
        let mut accepted = 0;
        for run in 0..runs {
            let mut rng = ringside_engine::seeded_rng(seed, run);
            let mut penta = Penta::default();
            let decision = loop {
                let u: f64 = rng.random();
                let mut acc = 0.0;
                let bin = dist
                    .iter()
                    .position(|p| {
                        acc += p;
                        u < acc
                    })
                    .unwrap_or(4);
                penta.0[bin] += 1;
                if let Some(d) = decide(llr(&penta, config.elo0, config.elo1, config.model), bounds)
                {
                    break d;
                }
            };
            accepted += u64::from(decision == Decision::H1);
        }
        accepted
    }

    /// The 95% Wilson interval's lower end for `k` of `n`: an error rate keeps its nominal
    /// value if this is at most the nominal rate.
    fn lower_bound(k: u64, n: u64) -> f64 {
        crate::figures::stats::wilson(k as f64 / n as f64, n as f64, crate::figures::stats::Z95).0
    }

    #[test]
    fn error_rates_stay_within_alpha_and_beta() {
        let runs = 1000;
        for (text, seed) in [("0,50,0.05,0.05", 1), ("0,5,0.05,0.05", 2)] {
            let config = SprtConfig::parse(text).unwrap();
            let false_h1 = accept_h1(config, config.elo0, runs, seed);
            let false_h0 = runs - accept_h1(config, config.elo1, runs, seed + 100);
            eprintln!("sprt [{text}]: H1 at elo0 {false_h1}/{runs}, H0 at elo1 {false_h0}/{runs}");
            assert!(
                lower_bound(false_h1, runs) <= config.alpha,
                "[{text}] alpha: {false_h1}/{runs}"
            );
            assert!(
                lower_bound(false_h0, runs) <= config.beta,
                "[{text}] beta: {false_h0}/{runs}"
            );
        }
    }

    #[test]
    fn a_running_sprt_counts_the_complete_pairs_of_the_games_it_is_fed() {
        use crate::figures::summary::Tally;
        use crate::plan::PlanBuilder;
        use crate::run::pool::Silent;
        use crate::run::runner::run_in_memory;
        let plan = PlanBuilder::new("rin:size=6")
            .pairing("random", "mcts:iters=5")
            .games(10)
            .seed(5)
            .build()
            .unwrap();
        let rows = run_in_memory(&plan, Some(1), &mut Silent).unwrap();
        let mut sprt = Sprt::new(SprtConfig::parse("0,50,0.05,0.05").unwrap());
        // The last pair's first game alone completes no pair.
        for row in &rows[..9] {
            sprt.add(row);
        }
        assert_eq!(sprt.penta().0.iter().sum::<u64>(), 4);
        sprt.add(&rows[9]);
        let penta = sprt.penta();
        assert_eq!(penta.0.iter().sum::<u64>(), 5);
        assert_eq!(penta, Tally::of_rows(&plan, &rows).pairings()[0].penta);
    }
}
