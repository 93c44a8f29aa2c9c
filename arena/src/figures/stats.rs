//! The statistics of the summary. Every formula is a plain function with a test worked out
//! by hand (with a calculator) beside it.

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from one side's view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub w: u64,
    /// Draws.
    pub d: u64,
    /// Losses.
    pub l: u64,
}

impl Wdl {
    /// Games counted.
    #[must_use]
    pub fn n(&self) -> u64 {
        self.w + self.d + self.l
    }

    /// The score: (W + D/2) / N, or 0.5 with no games.
    #[must_use]
    pub fn score(&self) -> f64 {
        if self.n() == 0 {
            0.5
        } else {
            (self.w as f64 + self.d as f64 / 2.0) / self.n() as f64
        }
    }

    /// Adds one result: 1, 0.5 or 0 for this side.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.w += 1;
        } else if score < 0.25 {
            self.l += 1;
        } else {
            self.d += 1;
        }
    }
}

/// The Wilson score interval for a proportion `p` observed over `n` trials, at quantile `z`.
#[must_use]
pub fn wilson(p: f64, n: f64, z: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    // At p = 0 or 1 the formula gives the end itself, up to rounding: say it exactly.
    let lo = if p <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if p >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// The logistic Elo difference of an expected score: `−400 · log10(1/s − 1)` (±∞ at 1 and 0).
#[must_use]
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of an Elo difference.
#[must_use]
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference with its 95% interval from game results (trinomial: each game scores 1,
/// ½ or 0), by the normal approximation of the mean score mapped through [`elo`].
///
/// At a score of 0 or 1 the normal approximation has no width, so the interval is the Wilson
/// interval of the score mapped through [`elo`] instead: its inner bound is finite (the point
/// estimate and the outer bound are ±∞).
#[must_use]
pub fn elo_interval(r: &Wdl) -> (f64, f64, f64) {
    let n = r.n() as f64;
    let s = r.score();
    if n == 0.0 {
        return (0.0, f64::NEG_INFINITY, f64::INFINITY);
    }
    if s <= 0.0 || s >= 1.0 {
        let (lo, hi) = wilson(s, n, Z95);
        return (elo(s), elo(lo), elo(hi));
    }
    let var =
        (r.w as f64 * (1.0 - s).powi(2) + r.d as f64 * (0.5 - s).powi(2) + r.l as f64 * s * s) / n;
    let se = (var / n).sqrt();
    (elo(s), elo(s - Z95 * se), elo(s + Z95 * se))
}

/// The error function (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7).
#[must_use]
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

/// Likelihood of superiority: the chance that the side with `w` wins and `l` losses is the
/// stronger, `½ (1 + erf((W − L) / √(2 (W + L))))` (draws carry no information).
#[must_use]
pub fn los(w: u64, l: u64) -> f64 {
    if w + l == 0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((w as f64 - l as f64) / (2.0 * (w + l) as f64).sqrt()))
}

/// The per-game scores of a pair that scored 0, ½, 1, 1½ or 2 points.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Mean and variance of the per-game pair score under `weights` on [`PAIR_SCORES`] (counts
/// or probabilities; they are divided by their sum).
#[must_use]
pub fn pair_moments(weights: &[f64; 5]) -> (f64, f64) {
    let total: f64 = weights.iter().sum();
    let mean = weights
        .iter()
        .zip(PAIR_SCORES)
        .map(|(w, x)| w * x)
        .sum::<f64>()
        / total;
    let var = weights
        .iter()
        .zip(PAIR_SCORES)
        .map(|(w, x)| w * (x - mean).powi(2))
        .sum::<f64>()
        / total;
    (mean, var)
}

/// Pentanomial counts of colour-swapped pairs: how many pairs scored 0, ½, 1, 1½ and 2 points
/// for one side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    /// Adds a pair that scored `points` (0, 0.5, …, 2) for this side.
    pub fn add(&mut self, points: f64) {
        self.0[((points * 2.0).round() as usize).min(4)] += 1;
    }

    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean and variance of the per-game score of a pair (pair points / 2).
    #[must_use]
    pub fn mean_variance(&self) -> (f64, f64) {
        if self.pairs() == 0 {
            return (0.5, 0.0);
        }
        pair_moments(&self.0.map(|c| c as f64))
    }

    /// Elo with its 95% interval from the pairs: the variance of pair scores takes the
    /// correlation of the two games of a pair into account.
    #[must_use]
    pub fn elo_interval(&self) -> (f64, f64, f64) {
        let n = self.pairs() as f64;
        let (mean, var) = self.mean_variance();
        if n == 0.0 {
            return (0.0, f64::NEG_INFINITY, f64::INFINITY);
        }
        if mean <= 0.0 || mean >= 1.0 {
            // Every pair won (or lost) twice: the Wilson interval of the games' score.
            let (lo, hi) = wilson(mean, 2.0 * n, Z95);
            return (elo(mean), elo(lo), elo(hi));
        }
        let se = (var / n).sqrt();
        (elo(mean), elo(mean - Z95 * se), elo(mean + Z95 * se))
    }
}

impl Penta {
    /// Two-sided p-value of "this side's expected score is ½", from the pairs: the normal
    /// test `z = (m − ½) / √(v / n)` on the mean `m` and variance `v` of the per-game pair
    /// score over `n` pairs (the variance of the Elo interval above), `p = erfc(|z| / √2)`.
    /// When every pair scored alike (no variance) it is the sign test on the pairs:
    /// `min(1, 2 · ½ⁿ)` when they all lean one way, 1 when they are all even.
    #[must_use]
    pub fn p_value(&self) -> f64 {
        let n = self.pairs();
        let (mean, var) = self.mean_variance();
        if n == 0 || mean == 0.5 {
            return 1.0;
        }
        if var == 0.0 {
            return (2.0 * 0.5f64.powi(n.min(1100) as i32)).min(1.0);
        }
        let z = (mean - 0.5) / (var / n as f64).sqrt();
        (1.0 - erf(z.abs() / std::f64::consts::SQRT_2)).clamp(0.0, 1.0)
    }
}

/// Holm–Bonferroni adjusted p-values (Holm 1979, "A simple sequentially rejective multiple
/// test procedure"), in the order given: sort the `m` p-values ascending, multiply the
/// `i`-th smallest (from 1) by `m − i + 1`, carry the running maximum, cap at 1. Rejecting
/// every hypothesis whose adjusted p is at most α keeps the chance of one or more false
/// rejections among all `m` at most α, whatever their dependence.
#[must_use]
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (i, &k) in order.iter().enumerate() {
        running = running.max(((m - i) as f64 * p[k]).min(1.0));
        adjusted[k] = running;
    }
    adjusted
}

/// The exact two-sided sign test of "wins and losses are equally likely" (draws set aside):
/// `p = min(1, 2 · P(X ≤ min(w, l)))` for `X ~ Binomial(w + l, ½)`; 1 without decisive games.
/// Summed in logarithms, so thousands of games do not underflow.
#[must_use]
pub fn sign_test(w: u64, l: u64) -> f64 {
    let n = w + l;
    let k = w.min(l);
    if n == 0 {
        return 1.0;
    }
    // ln C(n, i) − n ln 2, from i = 0 up.
    let mut log_pmf = -(n as f64) * std::f64::consts::LN_2;
    let mut tail = 0.0;
    for i in 0..=k {
        if i > 0 {
            log_pmf += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += log_pmf.exp();
    }
    (2.0 * tail).min(1.0)
}

/// The power a verdict states: the smallest share of the decisive games that one side must
/// win for the exact two-sided [`sign_test`] on `n` decisive games, at `level` (Holm's first
/// threshold α/m for m tests), to find it with probability `power`. `None` when even a side
/// that wins every game would not be found (too few games for the level).
///
/// The test rejects when the winner's count reaches `k`, the smallest count above `n/2` whose
/// p-value is at most `level`; the share `q` is the smallest whose binomial tail
/// `P(X ≥ k)`, `X ~ Binomial(n, q)`, reaches `power` (bisection). Draws only lower the
/// number of decisive games: state the share of decisive games, or give `n` as the games
/// expected to be decisive.
#[must_use]
pub fn detectable_share(n: u64, level: f64, power: f64) -> Option<f64> {
    let k = (n / 2..=n).find(|&k| k * 2 > n && sign_test(k, n - k) <= level)?;
    let tail = |q: f64| -> f64 {
        if q >= 1.0 {
            return 1.0;
        }
        // ln of P(X = i) from i = k up, summed exactly.
        let (lq, lr) = (q.ln(), (1.0 - q).ln());
        let mut log_c = 0.0; // ln C(n, k), built below
        for i in 0..k {
            log_c += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
        }
        let mut sum = 0.0;
        for i in k..=n {
            if i > k {
                log_c += ((n - i + 1) as f64).ln() - (i as f64).ln();
            }
            sum += (log_c + i as f64 * lq + (n - i) as f64 * lr).exp();
        }
        sum
    };
    let (mut lo, mut hi) = (0.5, 1.0);
    for _ in 0..50 {
        let mid = (lo + hi) / 2.0;
        if tail(mid) >= power {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// Joins the two games of each colour-swapped pair as they arrive, in any order: the one
/// place rows become pentanomial pairs (the summary and the SPRT both use it).
#[derive(Debug, Clone, Default)]
pub struct PairFold {
    halves: std::collections::HashMap<(usize, u64), f64, PairHashing>,
}

/// The hashing of [`PairFold`]'s keys, which come from the run's plan, not from an adversary,
/// and are never iterated: a multiply and a rotate a word (as rustc's FxHash) in place of
/// SipHash, a measurable share of following a file of millions of rows.
type PairHashing = std::hash::BuildHasherDefault<PairHasher>;

/// See [`PairHashing`].
#[derive(Debug, Default)]
pub struct PairHasher(u64);

impl std::hash::Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

impl PairFold {
    /// Adds a game; once its pair is complete, returns the pair's points for the pairing's
    /// first agent (0, ½, …, 2).
    pub fn add(&mut self, row: &crate::records::row::GameRow) -> Option<f64> {
        let key = (row.slot.pairing, row.slot.pair);
        let points = row.pairing_first_points();
        match self.halves.remove(&key) {
            Some(other) => Some(points + other),
            None => {
                self.halves.insert(key, points);
                None
            }
        }
    }
}

/// One pairing's results for a Bradley–Terry fit: players `a` and `b`, `a`'s points and the
/// games played.
#[derive(Debug, Clone, Copy)]
pub struct PairingResult {
    /// One player.
    pub a: usize,
    /// The other.
    pub b: usize,
    /// `a`'s points (wins + draws / 2).
    pub a_points: f64,
    /// Games between them.
    pub games: f64,
}

/// Ratings by maximum likelihood under the Bradley–Terry model (draws as half a win each),
/// fitted by Hunter's MM iterations, in Elo with mean 0. Each pairing gets one virtual drawn
/// game (a weak prior, as BayesElo has), so a player who won or lost everything still has a
/// finite rating. The players should be connected by the results (see [`rate_groups`]).
#[must_use]
pub fn bradley_terry(players: usize, results: &[PairingResult]) -> Vec<f64> {
    let mut gamma = vec![1.0f64; players];
    let results = with_prior(results);
    for _ in 0..10_000 {
        let mut next = gamma.clone();
        let mut change: f64 = 0.0;
        for i in 0..players {
            let (mut points, mut denom) = (0.0, 0.0);
            for r in &results {
                let (me, other, mine) = if r.a == i {
                    (r.a, r.b, r.a_points)
                } else if r.b == i {
                    (r.b, r.a, r.games - r.a_points)
                } else {
                    continue;
                };
                points += mine;
                denom += r.games / (gamma[me] + gamma[other]);
            }
            if denom > 0.0 {
                next[i] = points / denom;
            }
        }
        let log_mean = next.iter().map(|g| g.ln()).sum::<f64>() / players as f64;
        for (i, g) in next.iter_mut().enumerate() {
            *g /= log_mean.exp();
            change = change.max((g.ln() - gamma[i].ln()).abs());
        }
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    gamma.iter().map(|g| 400.0 * g.log10()).collect()
}

/// The results with one virtual drawn game added to each pairing between two players.
fn with_prior(results: &[PairingResult]) -> Vec<PairingResult> {
    results
        .iter()
        .filter(|r| r.a != r.b && r.games > 0.0)
        .map(|r| PairingResult {
            a_points: r.a_points + 0.5,
            games: r.games + 1.0,
            ..*r
        })
        .collect()
}

/// Standard errors, in Elo, of Bradley–Terry `ratings` (mean 0) fitted to `results`: the
/// square roots of the diagonal of the inverse Fisher information under the mean-zero
/// constraint. With `θ = rating · ln 10 / 400` and `p = 1 / (1 + e^(θb − θa))` for each
/// pairing of `n` games (virtual draw included), the information is the Laplacian
/// `I = Σ n p (1 − p) (eₐ − e_b)(eₐ − e_b)ᵀ`; its pseudo-inverse is `(I + J/k)⁻¹ − J/k` (J all
/// ones, k players), the covariance of ratings that sum to zero (as BayesElo's Hessian does).
/// Treating a draw as half a win overstates a game's variance, so the errors are, if anything,
/// too wide.
#[must_use]
pub fn bradley_terry_errors(ratings: &[f64], results: &[PairingResult]) -> Vec<f64> {
    let k = ratings.len();
    let scale = std::f64::consts::LN_10 / 400.0;
    let mut info = vec![vec![1.0 / k as f64; k]; k];
    for r in with_prior(results) {
        let p = 1.0 / (1.0 + ((ratings[r.b] - ratings[r.a]) * scale).exp());
        let w = r.games * p * (1.0 - p);
        info[r.a][r.a] += w;
        info[r.b][r.b] += w;
        info[r.a][r.b] -= w;
        info[r.b][r.a] -= w;
    }
    let inverse = invert(info);
    (0..k)
        .map(|i| (inverse[i][i] - 1.0 / k as f64).max(0.0).sqrt() / scale)
        .collect()
}

/// The inverse of a small symmetric positive-definite matrix, by Gauss–Jordan elimination
/// with partial pivoting.
fn invert(mut m: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let k = m.len();
    let mut inv: Vec<Vec<f64>> = (0..k)
        .map(|i| (0..k).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..k {
        let pivot = (col..k)
            .max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))
            .unwrap_or(col);
        m.swap(col, pivot);
        inv.swap(col, pivot);
        let d = m[col][col];
        for j in 0..k {
            m[col][j] /= d;
            inv[col][j] /= d;
        }
        for row in 0..k {
            if row != col {
                let f = m[row][col];
                for j in 0..k {
                    m[row][j] -= f * m[col][j];
                    inv[row][j] -= f * inv[col][j];
                }
            }
        }
    }
    inv
}

/// Ratings of one group of players connected by games: ratings on one scale only make sense
/// within such a group.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingGroup {
    /// The players (indices of the caller's list), in the order of `ratings`.
    pub members: Vec<usize>,
    /// Bradley–Terry ratings with mean 0 within the group.
    pub ratings: Vec<f64>,
    /// Half-widths of their 95% intervals.
    pub half_widths: Vec<f64>,
}

/// Splits `players` into groups connected by results between two different players (players
/// without such games are in no group) and rates each group on its own scale.
#[must_use]
pub fn rate_groups(players: usize, results: &[PairingResult]) -> Vec<RatingGroup> {
    let mut parent: Vec<usize> = (0..players).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let played: Vec<&PairingResult> = results
        .iter()
        .filter(|r| r.a != r.b && r.games > 0.0)
        .collect();
    let mut active = vec![false; players];
    for r in &played {
        active[r.a] = true;
        active[r.b] = true;
        let (x, y) = (root(&mut parent, r.a), root(&mut parent, r.b));
        parent[x] = y;
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of_root = std::collections::HashMap::new();
    for p in (0..players).filter(|&p| active[p]) {
        let r = root(&mut parent, p);
        let g = *group_of_root.entry(r).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(p);
    }
    groups
        .into_iter()
        .map(|members| {
            let local = |p: usize| members.iter().position(|&m| m == p);
            let local_results: Vec<PairingResult> = played
                .iter()
                .filter_map(|r| {
                    Some(PairingResult {
                        a: local(r.a)?,
                        b: local(r.b)?,
                        ..**r
                    })
                })
                .collect();
            let ratings = bradley_terry(members.len(), &local_results);
            let half_widths = bradley_terry_errors(&ratings, &local_results)
                .into_iter()
                .map(|se| Z95 * se)
                .collect();
            RatingGroup {
                members,
                ratings,
                half_widths,
            }
        })
        .collect()
}

/// The value at quantile `q` (0..=1) of sorted values, by nearest rank.
#[must_use]
pub fn percentile(sorted: &[u32], q: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_power_statement_matches_the_binomial_worked_by_hand() {
        // 100 games, Holm over 12 cells: level 0.05/12. The sign test needs 65 wins of 100
        // (P(X ≥ 65 | ½) · 2 = 0.0035 ≤ 0.00417; 64 gives 0.0067). A true 0.60 reaches 65
        // with probability 0.1795 (the binomial tail summed exactly by hand in Python): the
        // review's "18%". 80% power needs a side that wins 0.684.
        assert!(sign_test(65, 35) <= 0.05 / 12.0 && sign_test(64, 36) > 0.05 / 12.0);
        let q = detectable_share(100, 0.05 / 12.0, 0.8).unwrap();
        assert!((q - 0.6840).abs() < 0.001, "{q}");
        let at_60 = detectable_share(100, 0.05 / 12.0, 0.1795).unwrap();
        assert!((at_60 - 0.60).abs() < 0.002, "{at_60}");
        // One test at 5%, 400 games: 221 wins needed, found with 80% at 0.5721.
        let q = detectable_share(400, 0.05, 0.8).unwrap();
        assert!((q - 0.5721).abs() < 0.001, "{q}");
        // Four games never reach p ≤ 0.05.
        assert_eq!(detectable_share(4, 0.05, 0.8), None);
    }

    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    // W 60, D 20, L 20: s = 0.7. Elo = −400·log10(1/0.7 − 1) = 147.19.
    // Per-game variance = (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16; se = 0.04;
    // s ± 1.96·0.04 = 0.6216 .. 0.7784 → Elo 86.23 .. 218.25.
    #[test]
    fn holm_adjusts_a_worked_example() {
        // Sorted: 0.005 × 4 = 0.02; 0.01 × 3 = 0.03; 0.03 × 2 = 0.06; 0.04 × 1 = 0.04,
        // raised to the running maximum 0.06. At α = 0.05 the first and the last are
        // rejected, where Bonferroni (× 4) would reject only the last.
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.005]);
        let expected = [0.03, 0.06, 0.06, 0.02];
        for (a, e) in adjusted.iter().zip(expected) {
            assert!((a - e).abs() < 1e-12, "{adjusted:?}");
        }
        assert_eq!(holm(&[0.5, 0.9]), vec![1.0, 1.0]);
        assert_eq!(holm(&[0.6, 0.2]), vec![0.6, 0.4]);
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn the_sign_test_is_twice_the_binomial_tail() {
        // 9 wins, 1 loss: P(X ≤ 1) = (1 + 10) / 1024, p = 22 / 1024.
        assert!((sign_test(9, 1) - 22.0 / 1024.0).abs() < 1e-15);
        assert!((sign_test(1, 9) - 22.0 / 1024.0).abs() < 1e-15);
        // 3 and 2: P(X ≤ 2) = (1 + 5 + 10) / 32 = ½, so p = 1.
        assert!((sign_test(3, 2) - 1.0).abs() < 1e-12);
        // 60 and 40 (R: binom.test(60, 100)$p.value = 0.05688793).
        assert!(
            (sign_test(60, 40) - 0.056_887_93).abs() < 1e-8,
            "{}",
            sign_test(60, 40)
        );
        // Thousands of games do not underflow: 1100 and 900 is far below 10⁻⁵.
        let p = sign_test(1100, 900);
        assert!(p > 0.0 && p < 1e-5, "{p}");
        assert_eq!(sign_test(0, 0), 1.0);
    }

    #[test]
    fn the_pair_p_value_follows_the_normal_test_and_the_sign_test() {
        // 100 pairs scoring 0, ½, 1, 1½, 2 points 0, 10, 60, 20, 10 times: mean 0.575,
        // variance 0.038125, z = 0.075 / √(0.038125 / 100) = 3.8411, p = erfc(z / √2).
        let p = Penta([0, 10, 60, 20, 10]).p_value();
        assert!((p - 1.224_81e-4).abs() < 1e-6, "{p}");
        // The same pairs the other way round: the same p.
        assert!((Penta([10, 20, 60, 10, 0]).p_value() - p).abs() < 1e-12);
        // Every pair split: nothing to see.
        assert_eq!(Penta([0, 0, 30, 0, 0]).p_value(), 1.0);
        // Every pair won twice: the sign test, 2 · ½⁵.
        assert!((Penta([0, 0, 0, 0, 5]).p_value() - 0.0625).abs() < 1e-12);
        assert_eq!(Penta::default().p_value(), 1.0);
    }

    #[test]
    fn elo_and_its_interval_from_wins_draws_losses() {
        let r = Wdl {
            w: 60,
            d: 20,
            l: 20,
        };
        assert_eq!(r.score(), 0.7);
        let (e, lo, hi) = elo_interval(&r);
        assert!(close(e, 147.1907, 1e-3), "{e}");
        assert!(close(lo, 86.2250, 1e-3), "{lo}");
        assert!(close(hi, 218.2518, 1e-3), "{hi}");
        assert_eq!(elo(0.5), 0.0);
        assert!(close(expected_score(147.1907), 0.7, 1e-6));
    }

    // p = 0.7, n = 100, z = 1.96: centre (0.7 + 0.019208)/1.038415 = 0.69260,
    // half 1.96·√(0.0021 + 0.0000960)/1.038415 = 0.08845 → 0.60415 .. 0.78105.
    #[test]
    fn wilson_interval_matches_the_hand_computation() {
        let (lo, hi) = wilson(0.7, 100.0, Z95);
        assert!(
            close(lo, 0.604151, 1e-5) && close(hi, 0.781051, 1e-5),
            "{lo} {hi}"
        );
        // The seed's 54 of 100: 0.4426 .. 0.6344.
        let (lo, hi) = wilson(0.54, 100.0, Z95);
        assert!(close(lo, 0.442649, 1e-5) && close(hi, 0.634392, 1e-5));
        assert_eq!(wilson(0.0, 0.0, Z95), (0.0, 1.0));
    }

    // LOS with 60 wins and 20 losses: ½(1 + erf(40/√160)) = ½(1 + erf(3.1623)) = 0.9999961.
    #[test]
    fn likelihood_of_superiority() {
        assert!(close(los(60, 20), 0.999_996_13, 1e-6));
        assert!(close(los(10, 10), 0.5, 1e-8));
        assert_eq!(los(0, 0), 0.5);
        // No losses is not no information: ½(1 + erf(3/√6)) = 0.9583677.
        assert!(close(los(3, 0), 0.958_367_74, 1e-6));
        assert!(close(los(0, 3), 1.0 - 0.958_367_74, 1e-6));
        assert!(close(erf(0.5), 0.520_499_88, 2e-7));
        assert!(close(erf(-1.3), -0.934_007_94, 2e-7));
    }

    // Pairs scoring 0, ½, 1, 1½, 2 points: 5, 10, 40, 30, 15 (100 pairs).
    // Mean per game = (10·0.25 + 40·0.5 + 30·0.75 + 15·1)/100 = 0.6; variance =
    // (5·0.36 + 10·0.1225 + 40·0.01 + 30·0.0225 + 15·0.16)/100 = 0.065.
    // Elo(0.6) = 70.44; se = √(0.065/100) = 0.025495 → 0.55003 .. 0.64997 → 34.88 .. 107.51.
    #[test]
    fn pentanomial_elo() {
        let p = Penta([5, 10, 40, 30, 15]);
        let (mean, var) = p.mean_variance();
        assert!(close(mean, 0.6, 1e-12) && close(var, 0.065, 1e-12));
        let (e, lo, hi) = p.elo_interval();
        assert!(close(e, 70.4365, 1e-3) && close(lo, 34.8815, 1e-3) && close(hi, 107.5148, 1e-3));
        let mut q = Penta::default();
        q.add(1.5);
        q.add(0.0);
        assert_eq!(q.0, [1, 0, 0, 1, 0]);
    }

    #[test]
    fn bradley_terry_recovers_known_strengths() {
        // Two players: with the virtual draw, 70 of 100 becomes 70.5 of 101.
        let r = bradley_terry(
            2,
            &[PairingResult {
                a: 0,
                b: 1,
                a_points: 70.0,
                games: 100.0,
            }],
        );
        assert!(close(r[0] - r[1], elo(70.5 / 101.0), 1e-6), "{r:?}");
        assert!(close(r[0] + r[1], 0.0, 1e-9));
        // Three players with strengths 4 : 2 : 1 (Elo steps of 120.41), 10,000 games a pairing
        // scored at exactly the expected rate: the prior's pull is below 0.1 Elo.
        let strengths = [4.0, 2.0, 1.0];
        let mut results = Vec::new();
        for (a, b) in [(0, 1), (1, 2), (0, 2)] {
            let p = strengths[a] / (strengths[a] + strengths[b]);
            results.push(PairingResult {
                a,
                b,
                a_points: p * 10_000.0,
                games: 10_000.0,
            });
        }
        let r = bradley_terry(3, &results);
        let step = 400.0 * 2f64.log10();
        assert!(
            close(r[0] - r[1], step, 0.1) && close(r[1] - r[2], step, 0.1),
            "{r:?}"
        );
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(percentile(&v, 0.5), 5);
        assert_eq!(percentile(&v, 0.9), 9);
        assert_eq!(percentile(&v, 1.0), 10);
        assert_eq!(percentile(&[], 0.5), 0);
    }

    #[test]
    fn rating_errors_of_two_players_match_the_binomial_formula() {
        // 70 of 100, plus the virtual draw: p = 70.5/101. Fisher information of θ₀ − θ₁ is
        // n p (1 − p) = 21.2896; each rating is ±(θ₀ − θ₁)/2, so its error is
        // 1/(2 √21.2896) = 0.10836 in θ, × 400/ln 10 = 18.825 Elo.
        let results = [PairingResult {
            a: 0,
            b: 1,
            a_points: 70.0,
            games: 100.0,
        }];
        let r = bradley_terry(2, &results);
        let e = bradley_terry_errors(&r, &results);
        assert!(
            close(e[0], 18.825, 1e-2) && close(e[1], 18.825, 1e-2),
            "{e:?}"
        );
    }

    #[test]
    fn players_who_never_met_are_rated_in_separate_groups() {
        let game = |a, b, a_points| PairingResult {
            a,
            b,
            a_points,
            games: 10.0,
        };
        // 0-1 met, 2-3 met, 4 played no one (its pairing with 3 has no games yet).
        let unplayed = PairingResult {
            games: 0.0,
            ..game(3, 4, 0.0)
        };
        let groups = rate_groups(5, &[game(0, 1, 7.0), game(2, 3, 2.0), unplayed]);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].members, vec![0, 1]);
        assert_eq!(groups[1].members, vec![2, 3]);
        assert!(
            groups
                .iter()
                .all(|g| close(g.ratings.iter().sum::<f64>(), 0.0, 1e-9))
        );
        assert!(groups[1].ratings[0] < groups[1].ratings[1]);
        assert!(
            groups
                .iter()
                .all(|g| g.half_widths.iter().all(|w| w.is_finite() && *w > 0.0))
        );
    }

    #[test]
    fn elo_bounds_stay_finite_at_zero_and_full_scores() {
        let all = Wdl { w: 10, d: 0, l: 0 };
        let (e, lo, _) = elo_interval(&all);
        // Wilson lower bound of 10/10: 1/(1 + 1.96²/10) = 0.72246 → Elo 166.5.
        assert!(e.is_infinite() && close(lo, elo(0.722_460), 0.1), "{lo}");
        let none = Wdl { w: 0, d: 0, l: 10 };
        let (_, _, hi) = elo_interval(&none);
        assert!(close(hi, -elo(0.722_460), 0.1), "{hi}");
        // Five pairs won twice are ten games won: the same Wilson bound.
        let (_, lo, hi) = Penta([0, 0, 0, 0, 5]).elo_interval();
        assert!(close(lo, elo(0.722_460), 0.1) && hi.is_infinite(), "{lo}");
    }

    /// A chain of three players: 0-1 and 1-2 each drawn even over 100 games (101 with the
    /// virtual draw), so ratings 0, p = 1/2 and weight w = 101/4 on each edge. The path
    /// Laplacian's pseudo-inverse is (1/w)[[5,-1,-4],[-1,2,-1],[-4,-1,5]]/9, so the errors in
    /// θ are √(5/9w) at the ends and √(2/9w) in the middle. Returns the results and those
    /// errors in Elo, worked by hand.
    fn even_chain_of_three() -> ([PairingResult; 2], [f64; 3]) {
        let results = [(0, 1), (1, 2)].map(|(a, b)| PairingResult {
            a,
            b,
            a_points: 50.0,
            games: 100.0,
        });
        let w: f64 = 101.0 / 4.0;
        let elo_per_theta = 400.0 / std::f64::consts::LN_10;
        let end = (5.0 / (9.0 * w)).sqrt() * elo_per_theta;
        let middle = (2.0 / (9.0 * w)).sqrt() * elo_per_theta;
        (results, [end, middle, end])
    }

    #[test]
    fn rating_errors_of_a_chain_of_three_are_the_path_laplacians_pseudo_inverse() {
        // 25.77 Elo at the ends, 16.30 in the middle. (With two players any sign error in the
        // elimination cancels on the diagonal; three expose it.)
        let (results, want) = even_chain_of_three();
        assert!(close(want[0], 25.77, 0.01) && close(want[1], 16.30, 0.01));
        let r = bradley_terry(3, &results);
        assert!(r.iter().all(|x| x.abs() < 1e-6), "{r:?}");
        let e = bradley_terry_errors(&r, &results);
        for (got, want) in e.iter().zip(want) {
            assert!(close(*got, want, 1e-9), "{e:?} vs {want}");
        }
    }

    #[test]
    fn invert_gives_the_inverse_of_a_symmetric_positive_definite_matrix() {
        let m = vec![
            vec![4.0, 1.0, -2.0, 0.5],
            vec![1.0, 3.0, 0.0, -1.0],
            vec![-2.0, 0.0, 5.0, 1.5],
            vec![0.5, -1.0, 1.5, 2.0],
        ];
        let inv = invert(m.clone());
        for i in 0..4 {
            for j in 0..4 {
                let product: f64 = (0..4).map(|k| m[i][k] * inv[k][j]).sum();
                let identity = f64::from(u8::from(i == j));
                assert!(close(product, identity, 1e-12), "({i},{j}): {product}");
            }
        }
    }

    #[test]
    fn a_group_half_width_is_z95_times_the_rating_error_and_an_unplayed_pairing_adds_nothing() {
        // The chain of three, with 0-2 listed but not yet played: a pairing of no games gets
        // no virtual draw (it would add weight 1/4 between the ends and shrink their errors),
        // so the errors stay the path's 25.77 and 16.30 Elo.
        let (chain, want) = even_chain_of_three();
        let unplayed = PairingResult {
            a: 0,
            b: 2,
            a_points: 0.0,
            games: 0.0,
        };
        let listed = [chain[0], chain[1], unplayed];
        let r = bradley_terry(3, &listed);
        assert_eq!(r, bradley_terry(3, &chain));
        let e = bradley_terry_errors(&r, &listed);
        for (got, want) in e.iter().zip(want) {
            assert!(close(*got, want, 1e-9), "{e:?} vs {want}");
        }
        // The summary's ± is the 95% half-width: 1.96 standard errors, 50.5 and 31.9 Elo.
        let groups = rate_groups(3, &listed);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].members, vec![0, 1, 2]);
        for (got, want) in groups[0].half_widths.iter().zip(want) {
            assert!(close(*got, Z95 * want, 1e-9), "{got} vs 1.96 × {want}");
        }
        assert!(close(groups[0].half_widths[1], 31.95, 0.01));
    }

    #[test]
    fn an_even_score_is_not_below_even_odds() {
        // The approximation's erf(0) is 1e-9, not 0: its sign must not flip at 0 (A&S 7.1.26
        // is odd by construction), or an even score's LOS falls below one half.
        assert!(erf(0.0) >= 0.0 && erf(0.0) < 1.5e-7, "{}", erf(0.0));
        for n in [0, 1, 10, 1000] {
            assert!(los(n, n) >= 0.5, "{n}: {}", los(n, n));
        }
        for x in [1e-9, 0.3, 2.0] {
            assert_eq!(erf(-x), -erf(x));
        }
    }

    #[test]
    fn a_player_without_games_keeps_a_finite_rating_and_leaves_the_others_apart() {
        // Outside rate_groups' contract (the players should be connected), but a player with
        // no results is skipped by the MM step rather than divided by nothing.
        let met = [PairingResult {
            a: 0,
            b: 1,
            a_points: 7.0,
            games: 10.0,
        }];
        let three = bradley_terry(3, &met);
        let two = bradley_terry(2, &met);
        assert!(three.iter().all(|r| r.is_finite()), "{three:?}");
        assert!(
            close(three[0] - three[1], two[0] - two[1], 1e-6),
            "{three:?} {two:?}"
        );
    }
}
