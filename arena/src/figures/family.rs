//! A family of match tests read together, as a verdict must be: each pairing's Elo from its
//! colour-swapped pairs, the p-value of "the two agents are equal" ([`Penta::p_value`]), that
//! p adjusted by Holm–Bonferroni over every test of the family ([`holm`]), and the test's
//! power: the smallest Elo difference it would have found with 80% probability at Holm's
//! first threshold (0.05 / m for m tests), so that "no difference shown" says how large a
//! difference could still hide. `arena verdicts` prints it for any set of games CSVs.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::error::Result;
use crate::figures::stats::{Penta, elo, erf, holm};
use crate::figures::summary::Tally;
use crate::records::sidecar::read_sidecar;

/// The family-wise error rate the verdicts keep.
pub const ALPHA: f64 = 0.05;

/// The power at which [`detectable_elo`] states the smallest difference found.
pub const POWER: f64 = 0.8;

/// The variance of a per-game pair score when every pair is a fair coin flip of two decisive
/// games (pair scores 0, ½, 1 with chances ¼, ½, ¼): used for the power when the observed
/// pairs are all alike and show no variance.
pub const COIN_PAIR_VARIANCE: f64 = 0.125;

/// The standard normal quantile: the `z` with `Φ(z) = p`, for `0 < p < 1` (bisection on
/// [`erf`]: as accurate as it, about 1e-6).
#[must_use]
pub fn normal_quantile(p: f64) -> f64 {
    let cdf = |z: f64| 0.5 * (1.0 + erf(z / std::f64::consts::SQRT_2));
    let (mut lo, mut hi) = (-40.0f64, 40.0f64);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The smallest Elo difference (either way) that the pairs' two-sided test at `level` finds
/// with probability `power`: a shift of the mean pair score by `(z₁₋ₗₑᵥₑₗ/₂ + z_power) · √(v/n)`
/// for `n` pairs of observed variance `v` ([`COIN_PAIR_VARIANCE`] when it is zero), turned
/// into Elo. `None` without pairs, or when even a side scoring every point would not be found.
#[must_use]
pub fn detectable_elo(penta: &Penta, level: f64, power: f64) -> Option<f64> {
    let n = penta.pairs();
    if n == 0 {
        return None;
    }
    let (_, var) = penta.mean_variance();
    let var = if var > 0.0 { var } else { COIN_PAIR_VARIANCE };
    let shift =
        (normal_quantile(1.0 - level / 2.0) + normal_quantile(power)) * (var / n as f64).sqrt();
    (shift < 0.5).then(|| elo(0.5 + shift))
}

/// What one test of the family shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// The first agent is stronger at family-wise [`ALPHA`].
    First,
    /// The second agent is stronger at family-wise [`ALPHA`].
    Second,
    /// No difference shown.
    Neither,
}

/// One pairing's test within its family.
#[derive(Debug, Clone, PartialEq)]
pub struct FamilyTest {
    /// What the test is called (the file and pairing it came from).
    pub label: String,
    /// The first agent.
    pub a: String,
    /// The second agent.
    pub b: String,
    /// The first agent's points in the complete colour-swapped pairs.
    pub penta: Penta,
    /// The first agent's Elo from the pairs, with its 95% interval.
    pub elo: (f64, f64, f64),
    /// The p-value of the one test.
    pub p: f64,
    /// The p-value adjusted by Holm over the family.
    pub holm: f64,
    /// The smallest difference the test would find with [`POWER`] at Holm's first threshold.
    pub detectable: Option<f64>,
}

impl FamilyTest {
    /// What the test shows at family-wise [`ALPHA`].
    #[must_use]
    pub fn call(&self) -> Call {
        let (mean, _) = self.penta.mean_variance();
        if self.holm > ALPHA {
            Call::Neither
        } else if mean > 0.5 {
            Call::First
        } else {
            Call::Second
        }
    }
}

/// One set of pairs tested within its family.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Adjusted {
    /// The first agent's Elo from the pairs, with its 95% interval.
    pub elo: (f64, f64, f64),
    /// The p-value of the one test ([`Penta::p_value`]).
    pub p: f64,
    /// That p adjusted by Holm over all the tests given.
    pub holm: f64,
}

/// Each of `pentas` tested, with Holm's adjustment over all of them (a study's tests and
/// `arena verdicts` both read their families so).
#[must_use]
pub fn adjusted(pentas: &[Penta]) -> Vec<Adjusted> {
    let p: Vec<f64> = pentas.iter().map(Penta::p_value).collect();
    pentas
        .iter()
        .zip(p.iter().zip(holm(&p)))
        .map(|(penta, (&p, holm))| {
            let (e, lo, hi) = penta.elo_interval();
            Adjusted {
                // Adding zero turns the −0 of an even score into +0 for printing.
                elo: (e + 0.0, lo + 0.0, hi + 0.0),
                p,
                holm,
            }
        })
        .collect()
}

/// The family of `tests` (label, first agent, second agent, pairs), each adjusted over all.
#[must_use]
pub fn family(tests: Vec<(String, String, String, Penta)>) -> Vec<FamilyTest> {
    let level = ALPHA / tests.len().max(1) as f64;
    let pentas: Vec<Penta> = tests.iter().map(|t| t.3).collect();
    tests
        .into_iter()
        .zip(adjusted(&pentas))
        .map(|((label, a, b, penta), t)| FamilyTest {
            label,
            a,
            b,
            penta,
            elo: t.elo,
            p: t.p,
            holm: t.holm,
            detectable: detectable_elo(&penta, level, POWER),
        })
        .collect()
}

/// Every pairing of every games CSV in `files`, in order, as one family: each test labelled
/// by its file (with `#PAIRING` where a file has several) and named by its agents' labels;
/// with the sentences on files whose last line is unfinished, for the reader.
pub fn of_files(files: &[PathBuf]) -> Result<(Vec<FamilyTest>, Vec<String>)> {
    let mut tests = Vec::new();
    let mut notes = Vec::new();
    for csv in files {
        let (plan, _) = read_sidecar(csv)?;
        let (tally, tail) = Tally::read(csv, &plan)?;
        notes.extend(tail.describe(csv));
        let pairings = tally.pairings();
        let several = pairings.len() > 1;
        for p in pairings {
            let label = if several {
                format!("{} #{}", csv.display(), p.pairing)
            } else {
                csv.display().to_string()
            };
            let (a, b) = (&plan.agents[p.a].label, &plan.agents[p.b].label);
            tests.push((label, a.clone(), b.clone(), p.penta));
        }
    }
    Ok((family(tests), notes))
}

/// A p-value in three figures; below 1e-15 (where the normal tail is all rounding) as a bound.
fn p_text(p: f64) -> String {
    if p < 1e-15 {
        "< 1e-15".into()
    } else {
        format!("{p:.2e}")
    }
}

fn signed(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.1}")
    } else if x > 0.0 {
        "+∞".into()
    } else {
        "−∞".into()
    }
}

/// The family as Markdown: a line on the method, then one row a test.
#[must_use]
pub fn markdown(tests: &[FamilyTest]) -> String {
    let m = tests.len();
    let mut md = format!(
        "{m} tests. Each: the first agent's Elo from its colour-swapped pairs (95% interval), the two-sided p-value of \"equal\" from the pairs, that p adjusted by Holm–Bonferroni over the {m} tests (a test is shown when the adjusted p is at most {ALPHA}: the chance of any false call in the family stays at {ALPHA}), and its power: the smallest difference, either way, the test would find {:.0}% of the time at Holm's first threshold ({ALPHA}/{m}), from the pairs' observed variance. A difference shown is a claim only when a replication on a fresh seed, fixed before it was played, shows it too.\n\n",
        POWER * 100.0
    );
    md.push_str("| test | first agent | second agent | pairs | Elo (95%) | p | Holm p | finds ±Elo | shows |\n|---|---|---|---|---|---|---|---|---|\n");
    for t in tests {
        let (e, lo, hi) = t.elo;
        let shows = match t.call() {
            Call::First => "first stronger",
            Call::Second => "second stronger",
            Call::Neither => "no difference shown",
        };
        let _ = writeln!(
            md,
            "| {} | `{}` | `{}` | {} | {} [{}, {}] | {} | {} | {} | {shows} |",
            t.label,
            t.a,
            t.b,
            t.penta.pairs(),
            signed(e),
            signed(lo),
            signed(hi),
            p_text(t.p),
            p_text(t.holm),
            t.detectable.map_or("—".into(), |d| format!("{d:.1}")),
        );
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::stats::Z95;

    #[test]
    fn the_normal_quantile_inverts_the_normal_distribution() {
        assert!((normal_quantile(0.975) - Z95).abs() < 1e-5);
        assert!((normal_quantile(0.8) - 0.841_621_233_572_914_3).abs() < 1e-5);
        assert!(normal_quantile(0.5).abs() < 1e-5);
        assert!((normal_quantile(0.025) + Z95).abs() < 1e-5);
    }

    #[test]
    fn the_power_statement_matches_a_hand_worked_pair_test() {
        // 200 pairs scoring 0, ½, 1, 1½, 2 points 25, 50, 50, 50, 25 times: per-game pair
        // score mean ½, variance 18.75 / 200 = 0.09375. One test: shift (1.95996 + 0.84162)
        // · √(0.09375 / 200) = 0.060656, score 0.560656, +42.36 Elo. Four tests: level
        // 0.0125, z 2.49771, shift 0.072299, +50.59 Elo (worked with Python's NormalDist).
        let penta = Penta([25, 50, 50, 50, 25]);
        let one = detectable_elo(&penta, 0.05, 0.8).unwrap();
        assert!((one - 42.357).abs() < 0.01, "{one}");
        let four = detectable_elo(&penta, 0.05 / 4.0, 0.8).unwrap();
        assert!((four - 50.593).abs() < 0.01, "{four}");
        assert_eq!(detectable_elo(&Penta::default(), 0.05, 0.8), None);
        // Two pairs cannot find anything short of a sweep.
        assert_eq!(detectable_elo(&Penta([1, 0, 0, 0, 1]), 0.05, 0.8), None);
    }

    #[test]
    fn a_family_adjusts_each_test_by_holm_and_calls_only_the_adjusted() {
        // A clear win for the first agent, a nominal one (p 0.035) that Holm over four tests
        // turns flat (it is the third smallest: 2 × 0.035), an even match and a clear loss.
        let clear = Penta([10, 20, 100, 40, 80]);
        let nominal = Penta([40, 40, 100, 84, 40]);
        let even = Penta([20, 20, 100, 20, 20]);
        let loss = Penta([80, 40, 100, 20, 10]);
        assert!(nominal.p_value() < 0.05 && nominal.p_value() > 0.05 / 2.0);
        let tests = family(vec![
            ("clear".into(), "a".into(), "b".into(), clear),
            ("nominal".into(), "a".into(), "b".into(), nominal),
            ("even".into(), "a".into(), "b".into(), even),
            ("loss".into(), "a".into(), "b".into(), loss),
        ]);
        let calls: Vec<Call> = tests.iter().map(FamilyTest::call).collect();
        assert_eq!(
            calls,
            [Call::First, Call::Neither, Call::Neither, Call::Second]
        );
        assert!((tests[1].holm - 2.0 * tests[1].p).abs() < 1e-12);
        let md = markdown(&tests);
        assert_eq!(md.lines().filter(|l| l.starts_with("| clear")).count(), 1);
        assert!(md.contains("no difference shown") && md.contains("second stronger"));
    }
}
