//! Anytime-valid confidence sequences for a mean in [0, 1]: the first colour's score of a
//! sequence of games (1 a win, ½ a draw, 0 a loss), looked at after every game.
//!
//! The sequence is Waudby-Smith and Ramdas's hedged capital process with predictable plug-in
//! bets ("Estimating means of bounded random variables by betting", JRSS-B 2024, Theorem 3
//! and their `confseq` package's defaults): for each candidate mean `m`, two gamblers bet
//! that the mean is above `m` and below it,
//!
//! `K⁺ₜ(m) = ∏ (1 + λ⁺ᵢ(m)(xᵢ − m))`, `K⁻ₜ(m) = ∏ (1 − λ⁻ᵢ(m)(xᵢ − m))`,
//!
//! with `λᵢ = √(2 log(2/α) / (σ̂²ᵢ₋₁ · i · log(1 + i)))` from the observations before the
//! i-th (`μ̂ₜ = (½ + Σxᵢ)/(t + 1)`, `σ̂²ₜ = (¼ + Σ(xᵢ − μ̂ᵢ)²)/(t + 1)`), truncated at
//! `½/m` and `½/(1 − m)`. A mean `m` is excluded once `max(½K⁺, ½K⁻) ≥ 1/α` at any time
//! (the running intersection), and the sequence covers the true mean at every time at once
//! with probability `1 − α` however the looking is done. `1/sup K` is an anytime-valid
//! p-value of `m`.
//!
//! Why this and not a GSPRT: a balance cell asks three questions at once (is the first colour
//! favoured, the second, or is the score within a margin of ½?), and one interval answers all
//! three at any look, and turns into p-values that Holm's adjustment takes. The bets adapt to
//! the variance, so a cell of many draws narrows fast.

/// Candidate means on a grid of `1/GRID` (½ among them).
const GRID: usize = 2000;

/// A confidence sequence, fed one observation at a time.
#[derive(Debug, Clone)]
pub struct ConfSeq {
    alpha: f64,
    t: u64,
    sum: f64,
    /// `Σ(xᵢ − μ̂ᵢ)²`.
    squares: f64,
    /// The bet of the next observation, before truncation.
    bet: f64,
    /// Each grid mean's log capital: betting above, and below.
    up: Vec<f64>,
    down: Vec<f64>,
    /// Each grid mean's largest hedged log capital so far.
    peak: Vec<f64>,
}

impl ConfSeq {
    /// A sequence of coverage `1 − alpha`, with no observation yet.
    ///
    /// # Panics
    /// When `alpha` is not inside (0, 1).
    #[must_use]
    pub fn new(alpha: f64) -> ConfSeq {
        assert!(alpha > 0.0 && alpha < 1.0, "alpha {alpha} is not in (0, 1)");
        let mut cs = ConfSeq {
            alpha,
            t: 0,
            sum: 0.0,
            squares: 0.0,
            bet: 0.0,
            up: vec![0.0; GRID + 1],
            down: vec![0.0; GRID + 1],
            peak: vec![f64::NEG_INFINITY; GRID + 1],
        };
        cs.bet = cs.next_bet(0.25);
        cs
    }

    /// The coverage's `alpha`.
    #[must_use]
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// Observations so far.
    #[must_use]
    pub fn n(&self) -> u64 {
        self.t
    }

    /// Their mean (½ before any).
    #[must_use]
    pub fn mean(&self) -> f64 {
        if self.t == 0 {
            0.5
        } else {
            self.sum / self.t as f64
        }
    }

    fn next_bet(&self, variance: f64) -> f64 {
        let i = (self.t + 1) as f64;
        (2.0 * (2.0 / self.alpha).ln() / (variance * i * (1.0 + i).ln())).sqrt()
    }

    /// Adds an observation.
    ///
    /// # Panics
    /// When `x` is not in [0, 1].
    pub fn push(&mut self, x: f64) {
        assert!((0.0..=1.0).contains(&x), "observation {x} is not in [0, 1]");
        let bet = self.bet;
        for (i, ((up, down), peak)) in self
            .up
            .iter_mut()
            .zip(self.down.iter_mut())
            .zip(self.peak.iter_mut())
            .enumerate()
        {
            let m = i as f64 / GRID as f64;
            let above = bet.min(0.5 / m);
            let below = bet.min(0.5 / (1.0 - m));
            *up += (1.0 + above * (x - m)).max(0.0).ln();
            *down += (1.0 - below * (x - m)).max(0.0).ln();
            let hedged = 0.5f64.ln() + up.max(*down);
            *peak = peak.max(hedged);
        }
        self.t += 1;
        self.sum += x;
        let t = self.t as f64;
        let mu = (0.5 + self.sum) / (t + 1.0);
        self.squares += (x - mu).powi(2);
        let variance = (0.25 + self.squares) / (t + 1.0);
        self.bet = self.next_bet(variance);
    }

    fn excluded(&self, i: usize) -> bool {
        self.peak[i] >= -self.alpha.ln()
    }

    /// The interval at this time (the running intersection): the smallest and largest grid
    /// mean not excluded. `None` when every mean is excluded (which the sequence allows with
    /// probability at most `alpha`).
    #[must_use]
    pub fn interval(&self) -> Option<(f64, f64)> {
        let lo = (0..=GRID).find(|&i| !self.excluded(i))?;
        let hi = (0..=GRID).rev().find(|&i| !self.excluded(i))?;
        Some((lo as f64 / GRID as f64, hi as f64 / GRID as f64))
    }

    /// The anytime-valid p-value of the mean `m` (rounded to the grid): `min(1, 1/sup K(m))`.
    #[must_use]
    pub fn p_value(&self, m: f64) -> f64 {
        let i = (m.clamp(0.0, 1.0) * GRID as f64).round() as usize;
        (-self.peak[i]).exp().min(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The observations of the reference check: a fixed sequence of wins, draws and losses.
    fn sequence() -> Vec<f64> {
        // Game k's result is a fixed pattern: win, win, draw, loss, win, loss, win, draw, ...
        (0..200)
            .map(|k: u32| match (k * 7 + k / 3) % 5 {
                0 | 1 | 4 => 1.0,
                2 => 0.5,
                _ => 0.0,
            })
            .collect()
    }

    #[test]
    fn the_interval_is_the_reference_implementations() {
        // Worked by `tools/confseq-reference.py` with the `confseq` package's own
        // `betting_cs` (Waudby-Smith and Ramdas; theta ½, trunc_scale ½, the predmix-EB bets,
        // breaks 2000, running intersection) on the same sequence, alpha 0.05.
        let xs = sequence();
        let mut cs = ConfSeq::new(0.05);
        let mut at = Vec::new();
        for (k, &x) in xs.iter().enumerate() {
            cs.push(x);
            if [9, 49, 199].contains(&k) {
                at.push(cs.interval().unwrap());
            }
        }
        let reference = [(0.3925, 1.0), (0.5430, 0.8705), (0.6135, 0.8055)];
        for ((lo, hi), (rlo, rhi)) in at.iter().zip(reference) {
            assert!(
                (lo - rlo).abs() <= 0.0006 && (hi - rhi).abs() <= 0.0006,
                "({lo}, {hi}) against the reference's ({rlo}, {rhi})"
            );
        }
    }

    #[test]
    fn it_covers_a_known_mean_at_every_look_in_most_sequences() {
        // 200 sequences of 300 games with mean 0.6 (60% wins, no draws): the share whose
        // interval ever leaves out 0.6 must stay near or below alpha.
        use rand::RngExt;
        let mut rng = ringside_engine::seeded_rng(5, 0);
        let mut missed = 0;
        for _ in 0..200 {
            let mut cs = ConfSeq::new(0.1);
            let mut ever = false;
            for _ in 0..300 {
                cs.push(if rng.random_bool(0.6) { 1.0 } else { 0.0 });
                let (lo, hi) = cs.interval().unwrap();
                ever |= !(lo..=hi).contains(&0.6);
            }
            missed += u32::from(ever);
        }
        assert!(
            missed <= 30,
            "{missed} of 200 sequences lost 0.6 (alpha 0.1)"
        );
    }

    #[test]
    fn draws_narrow_it_faster_than_wins_and_losses_of_the_same_mean() {
        let mut drawn = ConfSeq::new(0.05);
        let mut split = ConfSeq::new(0.05);
        for k in 0..100 {
            drawn.push(0.5);
            split.push(if k % 2 == 0 { 1.0 } else { 0.0 });
        }
        let width = |c: &ConfSeq| {
            let (lo, hi) = c.interval().unwrap();
            hi - lo
        };
        assert!(width(&drawn) < 0.5 * width(&split));
        assert!((drawn.mean() - 0.5).abs() < 1e-12);
        assert!(drawn.p_value(0.5) > 0.99 && split.p_value(0.5) > 0.5);
    }

    #[test]
    fn a_clear_advantage_excludes_one_half_and_its_p_value_is_small() {
        let mut cs = ConfSeq::new(0.05);
        for k in 0..100 {
            cs.push(if k % 5 == 0 { 0.0 } else { 1.0 });
        }
        let (lo, _) = cs.interval().unwrap();
        assert!(lo > 0.5, "{lo}");
        assert!(cs.p_value(0.5) < 0.05);
        assert!(cs.p_value(0.8) > 0.05);
    }
}
