//! Selection: UCT with RAVE's schedules, first-play urgency, progressive bias and move
//! knowledge (formulas in the module docs of [`super`]), and the final choice of the move played.

use super::*;

/// Progressive widening's growth: one more child each time a node's visits grow 1.4-fold
/// (Coulom 2007).
const WIDEN_GROWTH: f64 = 1.4;

/// `√(n + 1)` for the visits `n` a young child has, read rather than worked out in the
/// selection loop (the same correctly rounded values as `sqrt`): the prior's `√(n + 1)`.
/// Knowledge reads its own table, [`Mcts`]'s `know_fades`.
static ROOTS: std::sync::LazyLock<[f64; 1024]> =
    std::sync::LazyLock::new(|| std::array::from_fn(|n| (n as f64 + 1.0).sqrt()));

/// A node's share of the selection formula: its children's mover, the exploration factor
/// `c·√ln n` (`None` with c = 0) and RAVE's equivalence `K` (`None` without RAVE).
#[derive(Debug, Clone, Copy)]
pub(super) struct ParentTerms {
    mover: u8,
    explore: Option<f64>,
    rave_k: Option<f64>,
    /// With GRAVE, the node's first child when its children read the reference's AMAF
    /// statistics ([`super::grave::Grave::amaf`]) in place of their own.
    grave_first: Option<usize>,
}

impl<G: Game + Features> Mcts<G> {
    /// The child UCT picks: an immediate proven win, else an unvisited child, else the best
    /// upper confidence bound, never a proven loss while something else remains.
    pub(super) fn select(&self, node: usize) -> usize {
        let n = self.nodes[node];
        let first = n.first_child as usize;
        let end = first + n.children as usize;
        let parent = self.parent_terms(node);
        let mut best = f64::NEG_INFINITY;
        let mut choice = first;
        let mut open = self.window(n.visits);
        let puct = self.spec.pv.is_some();
        for i in first..end {
            let child = &self.nodes[i];
            if self.spec.solver && child.proven != UNPROVEN {
                if child.proven == parent.mover {
                    return i;
                }
                if child.proven != DRAW {
                    continue;
                }
            }
            if open == 0 {
                // Past the window only a proven win (above) is still taken.
                if self.spec.solver {
                    continue;
                }
                break;
            }
            open -= 1;
            let score = if puct {
                Some(self.puct(n.visits, i))
            } else {
                self.ucb(parent, i)
            };
            let Some(ucb) = score else {
                return i;
            };
            if ucb > best {
                best = ucb;
                choice = i;
            }
        }
        choice
    }

    /// How many children not proven lost a node with `visits` offers selection: all of them
    /// without `widen`, else `2 + ⌊ln(n/T)/ln 1.4⌋` (2 below `T` visits), Coulom's schedule
    /// of progressive widening (CrazyStone, 2007; Aya's `ln(n/40)/ln 1.4 + 2`).
    pub(super) fn window(&self, visits: u32) -> usize {
        let t = self.spec.widen;
        if t == 0 {
            return usize::MAX;
        }
        if visits <= t {
            return 2;
        }
        2 + ((f64::from(visits) / f64::from(t)).ln() / WIDEN_GROWTH.ln()) as usize
    }

    /// What the formula needs of expanded `node`, worked out once for all its children.
    pub(super) fn parent_terms(&self, node: usize) -> ParentTerms {
        let n = self.nodes[node];
        // With c = 0 (the strong preset) the exploration term is 0 for every child and is left
        // out, square root and all: the sums, and so the choice, are the same.
        let explore =
            (self.spec.c > 0.0).then(|| self.spec.c * (f64::from(n.visits.max(1))).ln().sqrt());
        // RAVE's equivalence here: more moves left, longer trust in AMAF.
        let rave_k = self
            .spec
            .rave
            .map(|k| k + self.spec.rave_grow * f64::from(n.children));
        ParentTerms {
            mover: self.nodes[n.first_child as usize].mover_into,
            explore,
            rave_k,
            grave_first: (self.grave.node == node as u32).then_some(n.first_child as usize),
        }
    }

    /// Child `i`'s upper confidence bound under `parent`, or `None` when it is to be visited
    /// first (no visits, no AMAF visits, no first-play urgency).
    pub(super) fn ucb(&self, parent: ParentTerms, i: usize) -> Option<f64> {
        let child = &self.nodes[i];
        let bias = self.bias(i, child.visits)
            + self.knowledge(i, child.visits)
            + self.prior_term(i, child.visits);
        let amaf = parent.rave_k.map(|k| {
            let stats = match parent.grave_first {
                Some(first) => self.grave.amaf[i - first],
                None => self.amaf[i],
            };
            (k, stats)
        });
        if child.visits == 0 && amaf.is_none_or(|(_, a)| a.visits == 0) {
            // First-play urgency, or "visit it first".
            return self.spec.fpu.map(|v| v + bias);
        }
        let n = f64::from(child.visits);
        let q = if child.visits > 0 {
            child.reward / n
        } else {
            0.0
        };
        let value = match amaf.and_then(|(k, a)| Some((k, a, a.mean()?))) {
            Some((k, a, q_amaf)) => {
                let beta = match self.spec.rave_form {
                    RaveForm::Sqrt => (k / (3.0 * n + k)).sqrt(),
                    RaveForm::Hyperbolic => k / (k + n),
                    RaveForm::MinimumMse => {
                        // ñ/(n + ñ + nñ/K), multiplied through by K: one division.
                        let m = f64::from(a.visits);
                        k * m / (k * (n + m) + n * m)
                    }
                };
                (1.0 - beta) * q + beta * q_amaf
            }
            None => q,
        };
        Some(match parent.explore {
            Some(e) => value + e / n.max(1.0).sqrt() + bias,
            None => value + bias,
        })
    }

    /// Progressive bias's term for child `i` with `visits`: `W·H/(n + 1)`.
    pub(super) fn bias(&self, i: usize, visits: u32) -> f64 {
        if self.prior.is_empty() {
            return 0.0;
        }
        self.spec.bias * f64::from(self.prior[i]) / (f64::from(visits) + 1.0)
    }

    /// The prior's term for child `i` with `visits` (`prob.NAME=W`, MoHex 2.0's):
    /// `Σ W·ρ / √(n + 1)`.
    pub(super) fn prior_term(&self, i: usize, visits: u32) -> f64 {
        if self.prob.is_empty() {
            return 0.0;
        }
        let root = match ROOTS.get(visits as usize) {
            Some(&r) => r,
            None => (f64::from(visits) + 1.0).sqrt(),
        };
        f64::from(self.prob[i]) / root
    }

    /// Move knowledge's term for child `i` with `visits`: `W·K` while it is unvisited or
    /// visited once, `W·K/√n` up to 1,000 visits (Castro's fading; `W·K/n^F` with
    /// `know_fade=F`), then nothing.
    pub(super) fn knowledge(&self, i: usize, visits: u32) -> f64 {
        if self.know.is_empty() || visits >= KNOWLEDGE_VISITS || self.know[i] == 0.0 {
            // Most moves know nothing: no square root for them.
            return 0.0;
        }
        // n is below 1,000 here, the table's length.
        self.know_scale() * f64::from(self.know[i]) / self.know_fades[visits as usize]
    }

    /// The root's child whose move is `mv`, if the root is expanded.
    pub(super) fn root_child(&self, mv: G::Move) -> Option<usize> {
        let root = self.nodes.first()?;
        if root.first_child == UNEXPANDED {
            return None;
        }
        let first = root.first_child as usize;
        (first..first + root.children as usize).find(|&i| self.moves[i - 1] == mv)
    }

    /// The root child to play (see the crate docs) and its mean reward. With helper trees
    /// (root parallelism) each child's visits and rewards are summed over all trees, and a
    /// child proven lost in any tree counts as lost.
    pub(super) fn best_child(&self) -> (usize, Option<f64>) {
        let root = self.nodes[0];
        let first = root.first_child as usize;
        let children = first..first + root.children as usize;
        let mover = self.nodes[first].mover_into;
        let trees = || {
            std::iter::once(self).chain(
                self.helpers
                    .iter()
                    .filter(|h| h.nodes[0].first_child != UNEXPANDED),
            )
        };
        // Each tree stores the root's children in its own order: they are matched by move.
        let node = |t: &Mcts<G>, i: usize| {
            let at = if std::ptr::eq(t, self) {
                i
            } else {
                t.root_child(self.moves[i - 1])
                    .expect("every tree has the same root moves")
            };
            t.nodes[at]
        };
        let visits = |i: usize| trees().map(|t| u64::from(node(t, i).visits)).sum::<u64>();
        let mean =
            |i: usize| trees().map(|t| node(t, i).reward).sum::<f64>() / visits(i).max(1) as f64;
        let value = |i: usize| (visits(i) > 0).then(|| mean(i));
        if self.spec.solver {
            let proven_win = children
                .clone()
                .flat_map(|i| trees().map(move |t| (i, node(t, i))))
                .filter(|(_, n)| n.proven == mover)
                .min_by_key(|&(i, n)| (n.proven_distance, i));
            if let Some((i, _)) = proven_win {
                return (i, value(i));
            }
        }
        let lost = |i: usize| {
            self.spec.solver
                && trees().any(|t| {
                    let n = node(t, i);
                    n.proven != UNPROVEN && n.proven != DRAW && n.proven != mover
                })
        };
        // Most visits (or most wins); among equals the best mean reward (or most visits),
        // then the first stored (random with `order=random`).
        let rank = |i: usize| {
            let (n, q) = (visits(i), mean(i));
            match self.spec.final_choice {
                FinalChoice::Visits => (n as f64, q),
                FinalChoice::Wins => (n as f64 * (1.0 + q) / 2.0, n as f64),
            }
        };
        let most_visited = children
            .clone()
            .filter(|&i| !lost(i))
            .map(|i| (i, rank(i)))
            .fold(None::<(usize, (f64, f64))>, |best, c| match best {
                Some(b) if b.1 >= c.1 => Some(b),
                _ => Some(c),
            });
        let i = most_visited.map_or_else(
            || {
                children
                    .max_by_key(|&i| (self.nodes[i].proven_distance, std::cmp::Reverse(i)))
                    .expect("a root with children")
            },
            |b| b.0,
        );
        (i, value(i))
    }
}
