//! Parallel search: root parallelism (independent trees, their root statistics summed) and
//! tree parallelism (one tree, rounds of descents under virtual loss whose playouts the
//! threads share).

use std::sync::mpsc::sync_channel;

use super::playout::Roll;
use super::*;

impl<G: Game + Features> Mcts<G> {
    /// Root parallelism: this tree and `threads - 1` helpers search the same position at
    /// once, sharing the iteration budget (tree `i` of `t` runs `⌊n/t⌋`, one more for the
    /// first `n mod t`); returns the iterations of all trees.
    pub(super) fn search_in_parallel(
        &mut self,
        state: &G,
        total: Option<u64>,
        deadline: Option<Instant>,
    ) -> u64 {
        let threads = self.spec.threads as usize;
        while self.helpers.len() + 1 < threads {
            let mut spec = self.spec.clone();
            spec.threads = 1;
            let seed = self.rng.random::<u64>();
            let rng = seeded_rng(seed, self.helpers.len() as u64);
            self.helpers.push(Mcts::new(spec, self.eval.clone(), rng));
        }
        let share = |i: usize| {
            total.map(|n| {
                let t = threads as u64;
                (n / t + u64::from((i as u64) < n % t)).max(1)
            })
        };
        let mut helpers = std::mem::take(&mut self.helpers);
        let iterations = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(i, h)| {
                    let budget = share(i + 1);
                    scope.spawn(move || h.search(state, budget, deadline))
                })
                .collect();
            let mine = self.search(state, share(0), deadline);
            mine + running
                .into_iter()
                .map(|r| r.join().expect("a search thread does not panic"))
                .sum::<u64>()
        });
        self.helpers = helpers;
        iterations
    }

    /// Tree parallelism: rounds of `batch` descents (fewer in the last round of an
    /// iteration budget), each leaving a virtual loss on its path; the leaves are dealt to
    /// the `threads` playout workers in turn (descent `k` to worker `k mod threads`), each
    /// playout seeded from the agent's generator at its descent; then every result is backed
    /// up in descent order, its virtual loss lifted first. Every random choice is drawn in a
    /// fixed order, so with an iteration budget the search is the same whatever the thread
    /// count. Returns the iterations (descents) run.
    pub(super) fn search_tree(
        &mut self,
        state: &G,
        total: Option<u64>,
        deadline: Option<Instant>,
    ) -> u64 {
        self.begin(state);
        let threads = self.spec.threads as usize;
        while self.rollers.len() < threads {
            let roller = Roller::new(self.spec.clone(), self.eval.clone());
            self.rollers.push(Some(roller));
        }
        self.round_root.clone_from(&self.root);
        let batch = u64::from(self.spec.batch);
        let mut rollers = std::mem::take(&mut self.rollers);
        let iterations = std::thread::scope(|scope| {
            // One worker thread for each roller after the first, alive for this search; a
            // roller (its slots and scratch) travels to its thread and back each round.
            let links: Vec<_> = (1..threads)
                .map(|_| {
                    let (go, jobs) = sync_channel::<Roller<G>>(1);
                    let (done, back) = sync_channel::<Roller<G>>(1);
                    scope.spawn(move || {
                        for mut roller in jobs {
                            roller.run();
                            if done.send(roller).is_err() {
                                break;
                            }
                        }
                    });
                    (go, back)
                })
                .collect();
            let mut iterations = 0;
            loop {
                let n = total.map_or(batch, |t| batch.min(t.saturating_sub(iterations).max(1)));
                self.descend_round(&mut rollers, n);
                for (roller, (go, _)) in rollers[1..].iter_mut().zip(&links) {
                    let roller = roller.take().expect("every roller is home between rounds");
                    go.send(roller).expect("a playout thread waits for work");
                }
                rollers[0].as_mut().expect("the first roller stays").run();
                for (roller, (_, back)) in rollers[1..].iter_mut().zip(&links) {
                    *roller = Some(back.recv().expect("a playout thread does not panic"));
                }
                self.back_up_round(&mut rollers);
                iterations += n;
                let solved = self.spec.solver && self.nodes[0].proven != UNPROVEN;
                if solved || total.is_some_and(|t| iterations >= t) {
                    break;
                }
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
            }
            iterations
        });
        self.rollers = rollers;
        iterations
    }

    /// `n` descents from the root, each into the next slot of roller `k mod threads`, with
    /// virtual loss left on its path; `rollouts=K` gives a descent K slots.
    fn descend_round(&mut self, rollers: &mut [Option<Roller<G>>], n: u64) {
        let threads = rollers.len();
        for roller in rollers.iter_mut() {
            roller.as_mut().expect("every roller is home").used = 0;
        }
        self.round.clear();
        let root = self.round_root.take().expect("a search has a root");
        for k in 0..n as usize {
            let t = k % threads;
            let roller = rollers[t].as_mut().expect("every roller is home");
            let j = roller.claim();
            let slot = &mut roller.slots[j];
            let state = match &mut slot.state {
                Some(s) => {
                    s.clone_from(&root);
                    s
                }
                none => none.insert(root.clone()),
            };
            let node = self.descend(state);
            let depth = state.ply() - root.ply();
            self.virtual_loss(true);
            slot.path.clone_from(&self.path);
            slot.line.clone_from(&self.line);
            slot.lifts_loss = true;
            self.round.push((t, j));
            if let Some(leaf) = self.proven_leaf(node, depth) {
                slot.leaf = leaf;
                slot.pending = None;
                continue;
            }
            slot.pending = Some(depth);
            slot.seed = self.rng.random();
            for _ in 1..self.spec.rollouts {
                let j2 = roller.claim();
                let (done, fresh) = roller.slots.split_at_mut(j2);
                let (from, to) = (&done[j], &mut fresh[0]);
                to.state.clone_from(&from.state);
                to.path.clone_from(&from.path);
                to.line.clone_from(&from.line);
                to.lifts_loss = false;
                to.pending = Some(depth);
                to.seed = self.rng.random();
                self.round.push((t, j2));
            }
        }
        self.round_root = Some(root);
    }

    /// Backs up the round's results in descent order, lifting each descent's virtual loss.
    fn back_up_round(&mut self, rollers: &mut [Option<Roller<G>>]) {
        for r in 0..self.round.len() {
            let (t, j) = self.round[r];
            let slot = &mut rollers[t].as_mut().expect("every roller is home").slots[j];
            std::mem::swap(&mut self.path, &mut slot.path);
            std::mem::swap(&mut self.line, &mut slot.line);
            if slot.lifts_loss {
                self.virtual_loss(false);
            }
            let rewards = self.leaf_rewards(slot.leaf);
            self.back_up(rewards);
            std::mem::swap(&mut self.path, &mut slot.path);
            std::mem::swap(&mut self.line, &mut slot.line);
        }
    }

    /// Puts a virtual loss on every node of the path (a visit and a lost reward for its
    /// mover), or lifts it: later descents of the round turn to other lines.
    fn virtual_loss(&mut self, put: bool) {
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            if put {
                n.visits += 1;
            } else {
                n.visits -= 1;
            }
            if n.mover_into != NOBODY {
                n.reward += if put { -1.0 } else { 1.0 };
            }
        }
    }
}

/// One playout worker of tree parallelism: its own copy of the settings and evaluation, its
/// scratch, and the round's slots dealt to it.
#[derive(Debug)]
pub(super) struct Roller<G: Game> {
    spec: MctsSpec,
    eval: Evaluator,
    rng: GameRng,
    scratch: Vec<G::Move>,
    probe: Option<G>,
    slots: Vec<Slot<G>>,
    /// Slots in use this round.
    used: usize,
}

/// One descent's leaf in a round of tree parallelism.
#[derive(Debug)]
struct Slot<G: Game> {
    /// The leaf's position (played out in place).
    state: Option<G>,
    path: Vec<u32>,
    line: Vec<Step<G::Move>>,
    /// The playout's generator seed, drawn at the descent.
    seed: u64,
    /// The leaf's depth below the root while its playout is still to be played.
    pending: Option<u32>,
    leaf: Leaf,
    /// Whether backing this slot up lifts its descent's virtual loss (the first of its
    /// rollouts does).
    lifts_loss: bool,
}

impl<G: Game + Features> Roller<G> {
    fn new(spec: MctsSpec, eval: Evaluator) -> Self {
        Roller {
            spec,
            eval,
            rng: seeded_rng(0, 0),
            scratch: Vec::new(),
            probe: None,
            slots: Vec::new(),
            used: 0,
        }
    }

    /// The next free slot (a new one only while the rounds are growing).
    fn claim(&mut self) -> usize {
        if self.used == self.slots.len() {
            self.slots.push(Slot {
                state: None,
                path: Vec::new(),
                line: Vec::new(),
                seed: 0,
                pending: None,
                leaf: Leaf::Cut(0.0),
                lifts_loss: false,
            });
        }
        self.used += 1;
        self.used - 1
    }

    /// Plays out every pending leaf of the round, each from its own seed.
    fn run(&mut self) {
        for slot in &mut self.slots[..self.used] {
            let Some(depth) = slot.pending.take() else {
                continue;
            };
            self.rng = seeded_rng(slot.seed, 0);
            let mut pattern_turn = 0;
            let mut roll = Roll {
                spec: &self.spec,
                eval: &self.eval,
                mast: &[],
                replies: &[],
                rng: &mut self.rng,
                scratch: &mut self.scratch,
                probe: &mut self.probe,
                pattern_turn: &mut pattern_turn,
            };
            let state = slot.state.as_mut().expect("a pending slot holds its leaf");
            slot.leaf = roll.play_leaf(state, depth, &mut slot.line);
        }
    }
}
