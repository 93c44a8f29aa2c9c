//! The report's SkillTrace: MCTS with 2k iterations against MCTS with k, k doubling from a
//! base (after Ludii's `SkillTrace` metric: Browne, Stephenson, Piette and Soemers, "A
//! practical introduction to the Ludii general game system", 2019), and what it may claim.
//!
//! Each step is tested by the exact sign test on the 2k side's wins and losses (draws set
//! aside), adjusted by Holm–Bonferroni over the trace's steps. A step *wins* when its adjusted
//! p is at most 0.05 and 2k won more; it *loses* (an artefact to explain: more search should
//! not lose) when 2k won fewer; otherwise it wins nothing measurable (*flat*).
//!
//! The curve *levels off* at the first k from which two consecutive doublings are flat and no
//! later doubling wins. A losing step is not flat. Because a single run of flat steps is what
//! too few games give, the claim is replicated: the steps from the plateau on, and every
//! losing step, are played again from a fresh seed fixed before the run, with Holm over the
//! replicated steps, and calls a loss replicated only when it loses again.
//!
//! No single step failing its test says the curve is level: twelve doublings that each win
//! 56% of their games pass one by one and win together. So the claim rests on one test over
//! the whole tail ([`Tail`]): every doubling from the plateau on, first run and replication
//! pooled, by the sign test at 5%. The report says "levels off" only when no replicated step
//! wins, the pooled tail does not win either, and that pooled test had the power to see a
//! doubling win [`TAIL_POWER`] of its decisive games; it says "still climbing" when the pooled
//! tail wins; otherwise the curve is undecided from there. Without a plateau the tail is the
//! last [`LAST_STEPS`] doublings of the first run.

use crate::figures::stats::{Wdl, Z95, detectable_share, holm, sign_test, wilson};

/// The share of decisive games a pooled tail's test must find with 80% probability at 5% before
/// the report says the curve levels off: a tail too small to see 2k win three of five
/// decisive games is undecided, not level.
pub const TAIL_POWER: f64 = 0.6;

/// The doublings a trace without a plateau pools at its end.
pub const LAST_STEPS: usize = 3;
use crate::figures::summary::Tally;

/// SkillTrace's steps: `(2k, k)` for `k = base · 2^i`, `i < steps`.
#[must_use]
pub fn schedule(base: u64, steps: usize) -> Vec<(u64, u64)> {
    (0..steps)
        .map(|i| {
            let k = base << i;
            (2 * k, k)
        })
        .collect()
}

/// What one doubling did, after Holm over the steps tested with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doubling {
    /// 2k wins measurably.
    Wins,
    /// Nothing measurable either way.
    Flat,
    /// 2k loses measurably: an artefact to explain.
    Loses,
    /// Too few decisive games for the test to find any difference at its level: neither
    /// flat nor anything else.
    Untested,
}

impl Doubling {
    /// The word the report prints.
    #[must_use]
    pub fn text(self) -> &'static str {
        match self {
            Doubling::Wins => "wins",
            Doubling::Flat => "nothing measurable",
            Doubling::Loses => "loses (artefact)",
            Doubling::Untested => "too few decisive games to test",
        }
    }
}

/// One step of the SkillTrace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TracePoint {
    /// k: the weaker side's iterations.
    pub k: u64,
    /// The 2k side's wins, draws and losses.
    pub strong: Wdl,
    /// The 2k side's score, with its 95% Wilson interval.
    pub score: (f64, f64, f64),
    /// The sign test's p-value of "2k and k are equal".
    pub p: f64,
    /// `p` adjusted by Holm–Bonferroni over the steps tested with it.
    pub holm: f64,
    /// How many steps were tested with it (Holm's m).
    pub tests: usize,
}

impl TracePoint {
    /// The point of `k` from the 2k side's results (Holm's adjustment set by [`adjust`]).
    #[must_use]
    pub fn of(k: u64, strong: Wdl) -> TracePoint {
        let s = strong.score();
        let (lo, hi) = wilson(s, strong.n() as f64, Z95);
        TracePoint {
            k,
            strong,
            score: (s, lo, hi),
            p: sign_test(strong.w, strong.l),
            holm: 1.0,
            tests: 1,
        }
    }

    /// The share of decisive games 2k must win for this step's test to find it with 80%
    /// probability at Holm's first threshold; `None` when no share would do.
    #[must_use]
    pub fn power(&self) -> Option<f64> {
        detectable_share(
            self.strong.w + self.strong.l,
            0.05 / self.tests.max(1) as f64,
            0.8,
        )
    }

    /// Games played.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.strong.n()
    }

    /// What the doubling did at family-wise 5%.
    #[must_use]
    pub fn doubling(&self) -> Doubling {
        if self.holm <= 0.05 && self.strong.w > self.strong.l {
            Doubling::Wins
        } else if self.holm <= 0.05 && self.strong.w < self.strong.l {
            Doubling::Loses
        } else if self.power().is_none() {
            Doubling::Untested
        } else {
            Doubling::Flat
        }
    }
}

/// Sets each point's Holm-adjusted p over `points`.
pub fn adjust(points: &mut [TracePoint]) {
    let p: Vec<f64> = points.iter().map(|t| t.p).collect();
    let m = points.len();
    for (t, h) in points.iter_mut().zip(holm(&p)) {
        t.holm = h;
        t.tests = m;
    }
}

/// Doublings pooled into one test: the tail of a skill curve (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tail {
    /// The k of its first doubling.
    pub from: u64,
    /// The doublings pooled, first run and replication counted apart.
    pub steps: usize,
    /// The 2k sides' wins, draws and losses, summed.
    pub strong: Wdl,
    /// The pooled score with its 95% Wilson interval.
    pub score: (f64, f64, f64),
    /// The sign test's p-value on the pooled wins and losses.
    pub p: f64,
    /// The share of decisive games 2k must win for this test to find it with 80% probability
    /// at 5%; `None` when no share would do.
    pub detectable: Option<f64>,
}

impl Tail {
    /// The tail of `points`, whose first doubling is at `from`.
    #[must_use]
    pub fn of<'a>(from: u64, points: impl IntoIterator<Item = &'a TracePoint>) -> Tail {
        let (mut strong, mut steps) = (Wdl::default(), 0);
        for t in points {
            strong.w += t.strong.w;
            strong.d += t.strong.d;
            strong.l += t.strong.l;
            steps += 1;
        }
        let s = strong.score();
        let (lo, hi) = wilson(s, strong.n() as f64, Z95);
        Tail {
            from,
            steps,
            strong,
            score: (s, lo, hi),
            p: sign_test(strong.w, strong.l),
            detectable: detectable_share(strong.w + strong.l, 0.05, 0.8),
        }
    }

    /// Whether 2k wins the pooled tail at 5%.
    #[must_use]
    pub fn wins(&self) -> bool {
        self.p <= 0.05 && self.strong.w > self.strong.l
    }

    /// Whether the pooled test could see 2k win [`TAIL_POWER`] of the decisive games.
    #[must_use]
    pub fn powered(&self) -> bool {
        self.detectable.is_some_and(|q| q <= TAIL_POWER)
    }

    /// The pooled figures in words.
    #[must_use]
    pub fn text(&self) -> String {
        let power = match self.detectable {
            Some(q) => format!(
                "a test that finds 2k winning {q:.3} of the decisive games with 80% probability"
            ),
            None => "too few decisive games for the test to find anything".to_string(),
        };
        format!(
            "2k scores {:.3} [{:.3}, {:.3}] ({}-{}-{}, sign test p = {}), {power}",
            self.score.0,
            self.score.1,
            self.score.2,
            self.strong.w,
            self.strong.d,
            self.strong.l,
            p_text(self.p)
        )
    }
}

/// A p-value to three significant figures.
fn p_text(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.3}")
    } else {
        format!("{p:.1e}")
    }
}

/// The SkillTrace's points from a run whose pairing `i` is step `i` of `schedule` (2k first),
/// adjusted over the steps.
#[must_use]
pub fn points(schedule: &[(u64, u64)], tally: &Tally) -> Vec<TracePoint> {
    let mut out: Vec<TracePoint> = schedule
        .iter()
        .enumerate()
        .filter_map(|(i, &(_, k))| Some(TracePoint::of(k, tally.pairing(i)?.all)))
        .collect();
    adjust(&mut out);
    out
}

/// Where the trace levels off: the index of the first step from which two consecutive
/// doublings are flat and no later doubling wins.
#[must_use]
pub fn plateau(points: &[TracePoint]) -> Option<usize> {
    (0..points.len().saturating_sub(1)).find(|&i| {
        points[i].doubling() == Doubling::Flat
            && points[i + 1].doubling() == Doubling::Flat
            && points[i + 2..]
                .iter()
                .all(|t| t.doubling() != Doubling::Wins)
    })
}

/// The steps whose claims a replication must confirm: every step from the plateau on, and
/// every losing step; in schedule order.
#[must_use]
pub fn to_replicate(points: &[TracePoint]) -> Vec<usize> {
    let from = plateau(points).unwrap_or(points.len());
    (0..points.len())
        .filter(|&i| i >= from || points[i].doubling() == Doubling::Loses)
        .collect()
}

/// The trace's verdict, first run and replication together.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceVerdict {
    /// The first run's steps.
    pub first: Vec<TracePoint>,
    /// The replicated steps (indices into `first`) and their points, adjusted among
    /// themselves.
    pub again: Vec<(usize, TracePoint)>,
}

impl TraceVerdict {
    /// The k where the curve levels off: the first run finds a plateau, no replicated step
    /// from there on wins, and the pooled tail from there neither wins nor lacks the power to
    /// see [`TAIL_POWER`] (see the module docs).
    #[must_use]
    pub fn levels_off(&self) -> Option<u64> {
        let at = plateau(&self.first)?;
        let confirmed = self
            .again
            .iter()
            .filter(|(i, _)| *i >= at)
            .all(|(_, t)| t.doubling() != Doubling::Wins);
        let tail = self.tail()?;
        (confirmed && self.again.iter().any(|(i, _)| *i >= at) && !tail.wins() && tail.powered())
            .then_some(self.first[at].k)
    }

    /// The tail the curve's claim rests on: from the plateau, every doubling of the first run
    /// and of the replication; without one, the last [`LAST_STEPS`] doublings of the first run.
    /// `None` without steps.
    #[must_use]
    pub fn tail(&self) -> Option<Tail> {
        match plateau(&self.first) {
            Some(at) => Some(Tail::of(
                self.first[at].k,
                self.first[at..]
                    .iter()
                    .chain(self.again.iter().filter(|(i, _)| *i >= at).map(|(_, t)| t)),
            )),
            None => {
                let from = self
                    .first
                    .len()
                    .checked_sub(1)?
                    .saturating_sub(LAST_STEPS - 1);
                Some(Tail::of(self.first[from].k, &self.first[from..]))
            }
        }
    }

    /// Whether the pooled tail still wins: more search still pays at the end of the curve.
    #[must_use]
    pub fn climbing(&self) -> bool {
        self.tail().is_some_and(|t| t.wins())
    }

    /// The replication of step `i`, if it was played.
    #[must_use]
    pub fn replication(&self, i: usize) -> Option<&TracePoint> {
        self.again.iter().find(|(j, _)| *j == i).map(|(_, t)| t)
    }

    /// The verdict in a sentence.
    #[must_use]
    pub fn sentence(&self) -> String {
        let losses: Vec<String> = (0..self.first.len())
            .filter(|&i| self.first[i].doubling() == Doubling::Loses)
            .map(|i| {
                let again = self
                    .replication(i)
                    .is_some_and(|t| t.doubling() == Doubling::Loses);
                format!(
                    "at k = {} 2k loses ({:.3}){}",
                    self.first[i].k,
                    self.first[i].score.0,
                    if again {
                        ", and again in the replication: an artefact of the player to explain"
                    } else {
                        ", not confirmed by the replication"
                    }
                )
            })
            .collect();
        let Some(tail) = self.tail() else {
            return "No steps played.".to_string();
        };
        let replicated_win = plateau(&self.first).is_some_and(|at| {
            self.again
                .iter()
                .any(|(i, t)| *i >= at && t.doubling() == Doubling::Wins)
        });
        let mut s = match (plateau(&self.first), self.levels_off()) {
            (_, Some(k)) => format!(
                "Levels off at k = {k}: no doubling from there wins measurably, in the first run or in its replication, and pooled over those {} doublings {}.",
                tail.steps,
                tail.text()
            ),
            (Some(_), None) if tail.wins() => format!(
                "Still climbing: no single doubling from k = {} wins after Holm{}, but pooled over the {} doublings from there (first run and replication) {}.",
                tail.from,
                if replicated_win {
                    " in the first run"
                } else {
                    ""
                },
                tail.steps,
                tail.text()
            ),
            (Some(_), None) if replicated_win => format!(
                "The first run levels off at k = {}, but the replication does not confirm it: a doubling from there on wins again (pooled over the {} doublings from there, {}).",
                tail.from,
                tail.steps,
                tail.text()
            ),
            (Some(_), None) => format!(
                "Undecided from k = {}: no doubling from there wins measurably, but pooled over its {} doublings {}; too few games to say the curve levels off.",
                tail.from,
                tail.steps,
                tail.text()
            ),
            (None, _) => {
                let end = if tail.wins() {
                    "still climbing"
                } else {
                    "not shown to climb"
                };
                format!(
                    "No plateau within the schedule; {end} at its end: pooled over the last {} doublings (from k = {}), {}.",
                    tail.steps,
                    tail.from,
                    tail.text()
                )
            }
        };
        for l in losses {
            s.push(' ');
            s.push_str(&capitalized(&l));
            s.push('.');
        }
        s
    }
}

/// Ludii's SkillTrace schedule: level `i` (from 0) pits UCT with `2k` iterations a legal
/// move against UCT with `k`, `k = 2^(i+1)`, as `(strong spec, weak spec)`: plain UCT
/// (`c = √2` to four places, no solver), its budget `k ×` the legal moves at each decision
/// (`per_move=on`).
#[must_use]
pub fn ludii_schedule(levels: usize) -> Vec<(String, String)> {
    let uct = |k: u64| format!("mcts:iters={k},per_move=on,c=1.4142,solver=off");
    (0..levels)
        .map(|i| {
            let k = 2u64 << i;
            (uct(2 * k), uct(k))
        })
        .collect()
}

/// Ludii's SkillTrace number (`metrics/designer/SkillTrace.java`) from its levels' results,
/// each the strong side's mean utility (win 1, draw 0, loss −1): a least-squares line through
/// `(i, result_i)`, `i` from 0, predicts the result at `levels + 1` (Ludii's "next step",
/// clamped to [0, 1]); with `A` the mean of `max(result, 0)` over the levels played, the
/// number is `next + (1 − next)·A`. 0 without levels.
#[must_use]
pub fn ludii_skill_trace(results: &[f64], levels: usize) -> f64 {
    let n = results.len();
    if n == 0 {
        return 0.0;
    }
    let nf = n as f64;
    let mean_x = (nf - 1.0) / 2.0;
    let mean_y = results.iter().sum::<f64>() / nf;
    let sxx: f64 = (0..n).map(|i| (i as f64 - mean_x).powi(2)).sum();
    let sxy: f64 = (0..n)
        .map(|i| (i as f64 - mean_x) * (results[i] - mean_y))
        .sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    let next = (mean_y + slope * ((levels + 1) as f64 - mean_x)).clamp(0.0, 1.0);
    let area = results.iter().map(|r| r.max(0.0)).sum::<f64>() / nf;
    next + (1.0 - next) * area
}

pub(super) fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(k: u64, w: u64, l: u64) -> TracePoint {
        TracePoint::of(k, Wdl { w, d: 0, l })
    }

    fn adjusted(mut p: Vec<TracePoint>) -> Vec<TracePoint> {
        adjust(&mut p);
        p
    }

    #[test]
    fn ludiis_number_follows_its_formula_worked_by_hand() {
        // Rising 0.2, 0.4, 0.6: the line (0.2 + 0.2i) predicts 1.0 at i = 4: the number is 1.
        assert!((ludii_skill_trace(&[0.2, 0.4, 0.6], 3) - 1.0).abs() < 1e-12);
        // Falling 0.5, 0.3, 0.1: the line predicts −0.3, clamped to 0; the mean of the
        // positive results is 0.3: the number is 0.3.
        assert!((ludii_skill_trace(&[0.5, 0.3, 0.1], 3) - 0.3).abs() < 1e-12);
        // 0.4, −0.2, 0.1: slope −0.15, intercept 0.25, predicts −0.35 → 0; the area counts the
        // negative level as 0: (0.4 + 0 + 0.1) / 3.
        let n = ludii_skill_trace(&[0.4, -0.2, 0.1], 3);
        assert!((n - 0.5 / 3.0).abs() < 1e-12, "{n}");
        // Ludii predicts at its configured levels + 1 even when fewer were played.
        let n = ludii_skill_trace(&[0.1, 0.2], 8);
        assert!((n - 1.0).abs() < 1e-12, "0.1 + 0.1·9 = 1.0: {n}");
        assert_eq!(ludii_skill_trace(&[], 8), 0.0);
        let s = ludii_schedule(8);
        assert_eq!(s.len(), 8);
        assert_eq!(s[0].1, "mcts:iters=2,per_move=on,c=1.4142,solver=off");
        assert_eq!(s[7].0, "mcts:iters=512,per_move=on,c=1.4142,solver=off");
    }

    #[test]
    fn skilltrace_doubles_k_from_its_base_and_pits_2k_against_k() {
        assert_eq!(
            schedule(16, 4),
            vec![(32, 16), (64, 32), (128, 64), (256, 128)]
        );
    }

    #[test]
    fn a_plateau_needs_two_flat_doublings_after_holm_and_no_later_win() {
        // 80-20 wins under any Holm factor here; 50-50 and 55-45 are flat.
        let p = adjusted(vec![
            at(16, 80, 20),
            at(32, 55, 45),
            at(64, 50, 50),
            at(128, 52, 48),
        ]);
        assert_eq!(plateau(&p), Some(1));
        // One flat step alone is no plateau.
        let p = adjusted(vec![at(16, 80, 20), at(32, 55, 45), at(64, 80, 20)]);
        assert_eq!(plateau(&p), None);
        // A win after two flat steps: not levelled off there.
        let p = adjusted(vec![
            at(16, 55, 45),
            at(32, 50, 50),
            at(64, 80, 20),
            at(128, 50, 50),
        ]);
        assert_eq!(plateau(&p), None);
        // A significant loss is not flat: an artefact, and no plateau through it.
        let p = adjusted(vec![at(16, 80, 20), at(32, 25, 75), at(64, 50, 50)]);
        assert_eq!(p[1].doubling(), Doubling::Loses);
        assert_eq!(plateau(&p), None);
        assert_eq!(to_replicate(&p), vec![1]);
        // Four games a step cannot find anything at Holm's level: untested, never flat.
        let p = adjusted(vec![at(4, 2, 2), at(8, 2, 1), at(16, 3, 0)]);
        assert!(p.iter().all(|t| t.doubling() == Doubling::Untested));
        assert_eq!(plateau(&p), None);
    }

    #[test]
    fn holm_over_the_trace_turns_a_lone_nominal_win_flat() {
        // 60-40: p = 0.057 alone, flat; 63-37: p = 0.012 alone, but 8 steps make it 0.1.
        let mut p = vec![at(16, 63, 37)];
        p.extend((1..8).map(|i| at(16 << i, 50, 50)));
        assert!(p[0].p < 0.05);
        adjust(&mut p);
        assert_eq!(p[0].doubling(), Doubling::Flat);
        assert_eq!(plateau(&p), Some(0));
    }

    #[test]
    fn levelling_off_is_said_only_when_the_replication_agrees() {
        let first = adjusted(vec![at(16, 80, 20), at(32, 52, 48), at(64, 50, 50)]);
        assert_eq!(to_replicate(&first), vec![1, 2]);
        let flat = adjusted(vec![at(32, 48, 52), at(64, 51, 49)]);
        let v = TraceVerdict {
            first: first.clone(),
            again: vec![(1, flat[0]), (2, flat[1])],
        };
        assert_eq!(v.levels_off(), Some(32));
        assert!(v.sentence().starts_with("Levels off at k = 32"));
        let wins = adjusted(vec![at(32, 80, 20), at(64, 51, 49)]);
        let v = TraceVerdict {
            first,
            again: vec![(1, wins[0]), (2, wins[1])],
        };
        assert_eq!(v.levels_off(), None);
        // The replication's 80-20 makes the pooled tail win too: still climbing.
        assert!(
            v.sentence().starts_with("Still climbing") && v.sentence().contains("in the first run"),
            "{}",
            v.sentence()
        );
    }

    #[test]
    fn doublings_that_each_pass_but_win_together_are_still_climbing_not_level() {
        // Hex 4's case: from k = 64 every doubling wins 56 of 100 decisive games, none
        // significant after Holm, so the first run finds a plateau and the replication
        // confirms every step flat; pooled, 2k wins 672 of 1,200 (p < 10⁻⁴).
        let mut first = vec![at(16, 80, 20), at(32, 70, 30)];
        first.extend((2..8).map(|i| at(16 << i, 56, 44)));
        let first = adjusted(first);
        assert_eq!(plateau(&first), Some(2));
        let again = adjusted((2..8).map(|i| at(16 << i, 56, 44)).collect());
        assert!(again.iter().all(|t| t.doubling() == Doubling::Flat));
        let v = TraceVerdict {
            first,
            again: (2..8).zip(again).collect(),
        };
        let tail = v.tail().unwrap();
        assert_eq!((tail.from, tail.steps), (64, 12));
        assert_eq!((tail.strong.w, tail.strong.l), (672, 528));
        assert_eq!(tail.p, sign_test(672, 528));
        assert!(tail.p < 1e-4, "{}", tail.p);
        assert!(v.climbing());
        assert_eq!(v.levels_off(), None);
        assert!(
            v.sentence().starts_with("Still climbing"),
            "{}",
            v.sentence()
        );
    }

    #[test]
    fn a_flat_tail_too_small_to_see_three_wins_in_five_is_undecided_not_level() {
        // 6-6 and 7-5 are flat after Holm (12 decisive games could show 12-0), so the first
        // run has a plateau at k = 32 and the replication agrees; but 50 decisive games pooled
        // find 2k only when it wins about 0.7 of them.
        let first = adjusted(vec![at(16, 12, 0), at(32, 6, 6), at(64, 7, 5)]);
        assert_eq!(plateau(&first), Some(1));
        let again = adjusted(vec![at(32, 7, 6), at(64, 6, 7)]);
        let v = TraceVerdict {
            first,
            again: vec![(1, again[0]), (2, again[1])],
        };
        let tail = v.tail().unwrap();
        assert_eq!(tail.strong.w + tail.strong.l, 50);
        assert!(!tail.wins());
        let q = tail.detectable.unwrap();
        assert!(q > TAIL_POWER, "{q}");
        assert_eq!(v.levels_off(), None);
        assert!(
            v.sentence().starts_with("Undecided from k = 32"),
            "{}",
            v.sentence()
        );
    }

    #[test]
    fn without_a_plateau_the_last_three_doublings_are_pooled() {
        let first = adjusted(vec![
            at(16, 90, 10),
            at(32, 80, 20),
            at(64, 60, 40),
            at(128, 58, 42),
            at(256, 70, 30),
        ]);
        assert_eq!(plateau(&first), None);
        let v = TraceVerdict {
            first,
            again: Vec::new(),
        };
        let tail = v.tail().unwrap();
        assert_eq!((tail.from, tail.steps), (64, 3));
        assert_eq!((tail.strong.w, tail.strong.l), (188, 112));
        assert!(v.climbing());
        assert!(
            v.sentence().contains("still climbing at its end"),
            "{}",
            v.sentence()
        );
        // Fewer than three steps: all of them.
        let v = TraceVerdict {
            first: adjusted(vec![at(16, 50, 50)]),
            again: Vec::new(),
        };
        assert_eq!(v.tail().unwrap().steps, 1);
        assert!(!v.climbing());
    }
}
