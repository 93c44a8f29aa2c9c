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
//! replicated steps. The report says "levels off" only when no replicated step from the
//! plateau on wins, and calls a loss replicated only when it loses again.

use crate::figures::stats::{Wdl, Z95, detectable_share, holm, sign_test, wilson};
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
    /// The k where the curve levels off, when the first run finds a plateau and no
    /// replicated step from there on wins.
    #[must_use]
    pub fn levels_off(&self) -> Option<u64> {
        let at = plateau(&self.first)?;
        let confirmed = self
            .again
            .iter()
            .filter(|(i, _)| *i >= at)
            .all(|(_, t)| t.doubling() != Doubling::Wins);
        (confirmed && self.again.iter().any(|(i, _)| *i >= at)).then_some(self.first[at].k)
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
        let mut s = match (plateau(&self.first), self.levels_off()) {
            (_, Some(k)) => format!(
                "Levels off at k = {k}: from there no doubling wins measurably, in the first run or in its replication."
            ),
            (Some(at), None) => format!(
                "The first run levels off at k = {}, but the replication does not confirm it: a doubling from there on wins again.",
                self.first[at].k
            ),
            (None, _) => match self.first.last() {
                Some(t) if t.doubling() == Doubling::Wins => format!(
                    "No plateau within the schedule: the last doubling (k = {}) still wins ({:.3}).",
                    t.k, t.score.0
                ),
                Some(_) => "No plateau within the schedule (no two consecutive doublings win nothing, with none winning after them).".to_string(),
                None => "No steps played.".to_string(),
            },
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

fn capitalized(s: &str) -> String {
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
        assert!(
            v.sentence().contains("does not confirm"),
            "{}",
            v.sentence()
        );
    }
}
