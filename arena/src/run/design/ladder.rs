//! The report's skill ladder: a round robin of random, alpha-beta and MCTS; Bradley–Terry
//! ratings, weakest first; for each step up, the direct match of the two neighbours.
//!
//! A step is *shown* when the direct match favours the upper rung with its p-value
//! ([`Penta::p_value`]) adjusted by Holm–Bonferroni over the ladder's steps at most 0.05, and
//! *real* only when a replication agrees: each shown step's match is played again from a fresh
//! seed fixed before the run, tested the same way with Holm over the replicated steps. A step
//! whose direct match favours the lower rung (the ratings, which pool every game, put it
//! below) is *reversed*: a non-transitive result the report shows rather than hides.

use crate::figures::stats::{Penta, holm};
use crate::figures::summary::{PairingSummary, Tally, ratings};
use crate::plan::RunPlan;

/// One rung of the ladder.
#[derive(Debug, Clone, PartialEq)]
pub struct Rung {
    /// The agent's label.
    pub agent: String,
    /// Its Bradley–Terry rating (Elo scale, mean 0).
    pub rating: f64,
    /// The half-width of the rating's 95% interval.
    pub half_width: f64,
    /// The step from the rung below, if any.
    pub step: Option<Step>,
}

/// A step up the ladder, from the direct match of two neighbours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// The first run.
    pub first: StepTest,
    /// The replication, when the first run showed the step.
    pub again: Option<StepTest>,
}

/// One direct match of two neighbours, from the upper rung's side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepTest {
    /// The upper agent's Elo against the lower one, with its 95% interval.
    pub elo: (f64, f64, f64),
    /// The p-value of "the two are equal" ([`Penta::p_value`]).
    pub p: f64,
    /// `p` adjusted by Holm–Bonferroni over the steps tested with it.
    pub holm: f64,
}

impl StepTest {
    /// A direct match's test (Holm's adjustment set by the caller).
    #[must_use]
    pub fn of(penta: &Penta) -> StepTest {
        // Adding zero turns the −0 of an even match into +0 for printing.
        let (e, lo, hi) = penta.elo_interval();
        StepTest {
            elo: (e + 0.0, lo + 0.0, hi + 0.0),
            p: penta.p_value(),
            holm: 1.0,
        }
    }

    /// Whether the match favours the upper rung at family-wise 5%.
    #[must_use]
    pub fn upward(&self) -> bool {
        self.holm <= 0.05 && self.elo.0 > 0.0
    }

    /// Whether it favours the lower rung at family-wise 5%.
    #[must_use]
    pub fn reversed(&self) -> bool {
        self.holm <= 0.05 && self.elo.0 < 0.0
    }
}

impl Step {
    /// Real: shown by the first run and by its replication.
    #[must_use]
    pub fn real(&self) -> bool {
        self.first.upward() && self.again.is_some_and(|t| t.upward())
    }

    /// The step's verdict in words.
    #[must_use]
    pub fn verdict(&self) -> &'static str {
        if self.first.reversed() {
            "reversed (the lower rung wins)"
        } else if !self.first.upward() {
            "not shown"
        } else if self.real() {
            "real (replicated)"
        } else {
            "did not replicate"
        }
    }
}

/// The ladder of a round robin, weakest first: ratings from every game, steps from the direct
/// matches of neighbours (first run only). `None` when the results do not connect every agent.
#[must_use]
pub fn ladder(plan: &RunPlan, tally: &Tally) -> Option<Vec<Rung>> {
    let pairings = tally.pairings();
    let groups = ratings(plan.agents.len(), pairings.iter().copied());
    let group = groups
        .into_iter()
        .find(|g| g.members.len() == plan.agents.len())?;
    let mut order: Vec<usize> = (0..group.members.len()).collect();
    order.sort_by(|&a, &b| group.ratings[a].total_cmp(&group.ratings[b]));
    let tests: Vec<Option<StepTest>> = order
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            let below = group.members[*order.get(i.checked_sub(1)?)?];
            direct(&pairings, group.members[k], below).map(|p| StepTest::of(&p))
        })
        .collect();
    let p: Vec<f64> = tests.iter().flatten().map(|t| t.p).collect();
    let mut adjusted = holm(&p).into_iter();
    Some(
        order
            .iter()
            .zip(tests)
            .map(|(&k, test)| Rung {
                agent: plan.agents[group.members[k]].label.clone(),
                rating: group.ratings[k],
                half_width: group.half_widths[k],
                step: test.map(|mut t| {
                    t.holm = adjusted.next().expect("one p a step");
                    Step {
                        first: t,
                        again: None,
                    }
                }),
            })
            .collect(),
    )
}

/// The rungs whose step the first run shows, as `(rung, upper label, lower label)`: the
/// matches a replication plays.
#[must_use]
pub fn shown_steps(rungs: &[Rung]) -> Vec<(usize, String, String)> {
    (1..rungs.len())
        .filter(|&i| rungs[i].step.is_some_and(|s| s.first.upward()))
        .map(|i| (i, rungs[i].agent.clone(), rungs[i - 1].agent.clone()))
        .collect()
}

/// Records the replication: `results[j]` is the upper rung's pairs in the `j`-th shown step's
/// match again; Holm over the replicated steps.
pub fn set_replication(rungs: &mut [Rung], shown: &[(usize, String, String)], results: &[Penta]) {
    let mut tests: Vec<StepTest> = results.iter().map(StepTest::of).collect();
    let p: Vec<f64> = tests.iter().map(|t| t.p).collect();
    for (t, h) in tests.iter_mut().zip(holm(&p)) {
        t.holm = h;
    }
    for ((i, _, _), t) in shown.iter().zip(tests) {
        if let Some(step) = rungs[*i].step.as_mut() {
            step.again = Some(t);
        }
    }
}

/// The pairs of the direct match of `upper` and `lower`, from `upper`'s side.
#[must_use]
pub fn direct(pairings: &[&PairingSummary], upper: usize, lower: usize) -> Option<Penta> {
    pairings.iter().find_map(|p| {
        if (p.a, p.b) == (upper, lower) {
            Some(p.penta)
        } else if (p.a, p.b) == (lower, upper) {
            let mut flipped = p.penta.0;
            flipped.reverse();
            Some(Penta(flipped))
        } else {
            None
        }
    })
}

/// Pairings the ratings' order contradicts: the lower-rated agent beat the higher-rated one
/// with a nominal p below 0.05 (no correction: a list to look at, not a verdict). Each as
/// `(winner, loser, its score, p)`.
#[must_use]
pub fn upsets(plan: &RunPlan, tally: &Tally, rungs: &[Rung]) -> Vec<(String, String, f64, f64)> {
    let place = |label: &str| rungs.iter().position(|r| r.agent == label);
    let mut out = Vec::new();
    for p in tally.pairings() {
        let (a, b) = (&plan.agents[p.a].label, &plan.agents[p.b].label);
        let (Some(ra), Some(rb)) = (place(a), place(b)) else {
            continue;
        };
        let pv = p.penta.p_value();
        let score = p.all.score();
        if pv < 0.05 && score != 0.5 {
            let (winner, loser, s) = if score > 0.5 {
                (a, b, score)
            } else {
                (b, a, 1.0 - score)
            };
            let below = if score > 0.5 { ra < rb } else { rb < ra };
            if below {
                out.push((winner.clone(), loser.clone(), s, pv));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(elo: f64, holm: f64) -> StepTest {
        StepTest {
            elo: (elo, elo - 50.0, elo + 50.0),
            p: holm,
            holm,
        }
    }

    #[test]
    fn a_step_is_real_only_when_its_replication_also_favours_the_upper_rung() {
        let step = |first, again| Step { first, again };
        assert_eq!(step(test(120.0, 0.01), None).verdict(), "did not replicate");
        assert_eq!(
            step(test(120.0, 0.01), Some(test(90.0, 0.02))).verdict(),
            "real (replicated)"
        );
        assert_eq!(
            step(test(120.0, 0.01), Some(test(90.0, 0.2))).verdict(),
            "did not replicate"
        );
        assert_eq!(
            step(test(120.0, 0.01), Some(test(-90.0, 0.01))).verdict(),
            "did not replicate"
        );
        assert_eq!(step(test(60.0, 0.3), None).verdict(), "not shown");
        assert_eq!(
            step(test(-80.0, 0.01), None).verdict(),
            "reversed (the lower rung wins)"
        );
    }

    #[test]
    fn the_replication_is_adjusted_over_the_replicated_steps() {
        let rung = |agent: &str, first: Option<StepTest>| Rung {
            agent: agent.into(),
            rating: 0.0,
            half_width: 10.0,
            step: first.map(|first| Step { first, again: None }),
        };
        let mut rungs = vec![
            rung("random", None),
            rung("ab1", Some(test(200.0, 0.001))),
            rung("ab2", Some(test(30.0, 0.5))),
            rung("ab3", Some(test(150.0, 0.01))),
        ];
        let shown = shown_steps(&rungs);
        assert_eq!(
            shown.iter().map(|s| s.0).collect::<Vec<_>>(),
            vec![1, 3],
            "only the shown steps are played again"
        );
        // Pairs from the upper side: 14 of 20 pairs won 2-0, the rest split.
        let strong = Penta([0, 0, 6, 0, 14]);
        // 6 won, 4 lost: p well above 0.05.
        let weak = Penta([0, 4, 10, 6, 0]);
        set_replication(&mut rungs, &shown, &[strong, weak]);
        assert!(rungs[1].step.unwrap().real());
        assert!(!rungs[3].step.unwrap().real());
        assert_eq!(rungs[2].step.unwrap().again, None);
        let again = rungs[1].step.unwrap().again.unwrap();
        // Holm over two: the smaller p doubled.
        assert!(strong.p_value() < weak.p_value());
        assert!((again.holm - 2.0 * strong.p_value()).abs() < 1e-15);
    }
}
