//! Parallel search: root parallelism (independent trees, their root statistics summed) and
//! tree parallelism (one tree, rounds of descents under virtual loss whose playouts the
//! threads share).

use std::sync::mpsc::{Receiver, RecvError, TryRecvError, sync_channel};

use super::playout::Roll;
use super::*;
use crate::clock::Clock;

impl<G: Game + Features> Mcts<G> {
    /// Root parallelism: this tree and `threads - 1` helpers search the same position at
    /// once, sharing the iteration budget (tree `i` of `t` runs `⌊n/t⌋`, one more for the
    /// first `n mod t`); returns the iterations of all trees.
    pub(super) fn search_in_parallel(
        &mut self,
        state: &G,
        total: Option<u64>,
        clock: Clock,
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
                    scope.spawn(move || h.search(state, budget, clock))
                })
                .collect();
            let mine = self.search(state, share(0), clock);
            mine + running
                .into_iter()
                .map(|r| r.join().expect("a search thread does not panic"))
                .sum::<u64>()
        });
        self.helpers = helpers;
        iterations
    }

    /// Tree parallelism: rounds of `batch` descents (fewer in the last round of an
    /// iteration budget), each leaving a virtual loss on its path, played out by every
    /// thread and backed up in descent order, each lifting its virtual loss first. The rounds
    /// are pipelined: round `k + 1` is descended before round `k` is backed up. This thread
    /// descends, plays out the first playouts of each round itself (its *home share*) and
    /// backs up, while the other threads play out the rest (a descent's to one of them, in
    /// turn); the home share grows by one playout when this thread had to wait for the
    /// others' and shrinks by one when it did not, so the threads' loads meet whatever a
    /// playout costs beside a descent. Counted in playouts, not descents, the share can
    /// split a descent's `rollouts=K`: a step of one descent (K playouts) left the threads
    /// taking turns to wait. Every playout is seeded at its descent, so with an iteration
    /// budget the search is the same whatever the thread count and however the leaves were
    /// dealt.
    /// Returns the iterations (descents) run.
    pub(super) fn search_tree(&mut self, state: &G, total: Option<u64>, mut clock: Clock) -> u64 {
        self.begin(state);
        let threads = self.spec.threads as usize;
        // Rollers a round: this thread's (the first), then one for each other thread.
        while self.rollers.len() < 2 * threads {
            let roller = Roller::new(self.spec.clone(), self.eval.clone());
            self.rollers.push(Some(roller));
        }
        self.round_root.clone_from(&self.root);
        let batch = u64::from(self.spec.batch);
        // The home share, in playouts: a round's are `batch · rollouts`.
        let playouts = batch * u64::from(self.spec.rollouts);
        let mut home = self.home_share.unwrap_or(playouts / (2 * threads as u64));
        let mut rollers = std::mem::take(&mut self.rollers);
        let descended = std::thread::scope(|scope| {
            // One thread a worker, alive for this search; a roller (a round's share of
            // leaves, and its scratch) travels to its thread and back.
            let links: Vec<_> = (1..threads)
                .map(|_| {
                    let (go, jobs) = sync_channel::<Roller<G>>(1);
                    let (done, back) = sync_channel::<Roller<G>>(1);
                    scope.spawn(move || {
                        while let Ok((mut roller, _)) = receive(&jobs) {
                            roller.run();
                            if done.send(roller).is_err() {
                                break;
                            }
                        }
                    });
                    (go, back)
                })
                .collect();
            let (mut descended, mut stop, mut in_flight) = (0u64, false, None);
            let mut set = 0;
            loop {
                // Descend the next round (unless stopping), send the other threads their
                // shares and play this thread's ...
                let n = if stop {
                    0
                } else {
                    total.map_or(batch, |t| batch.min(t - descended))
                };
                if n > 0 {
                    let share = &mut rollers[set * threads..(set + 1) * threads];
                    self.descend_round(share, set, n, home as usize);
                    descended += n;
                    let (own, others) = share.split_first_mut().expect("a roller a thread");
                    for (roller, (go, _)) in others.iter_mut().zip(&links) {
                        let roller = roller.take().expect("every roller is home");
                        go.send(roller).expect("a playout thread waits for work");
                    }
                    own.as_mut().expect("home").run();
                }
                // ... then back up the round before it, played meanwhile.
                if let Some(before) = in_flight {
                    let share = &mut rollers[before * threads..(before + 1) * threads];
                    let mut waited = false;
                    for (roller, (_, back)) in share[1..].iter_mut().zip(&links) {
                        let (played, late) =
                            receive(back).expect("a playout thread does not panic");
                        *roller = Some(played);
                        waited |= late;
                    }
                    if !links.is_empty() {
                        home = if waited {
                            (home + 1).min(playouts)
                        } else {
                            home.saturating_sub(1)
                        };
                    }
                    self.back_up_round(share, before);
                    let solved = self.spec.solver && self.nodes[0].proven != UNPROVEN;
                    stop =
                        stop || solved || total.is_some_and(|t| descended >= t) || clock.expired();
                }
                if n == 0 {
                    break;
                }
                in_flight = Some(set);
                set ^= 1;
            }
            descended
        });
        self.rollers = rollers;
        self.home_share = Some(home);
        descended
    }

    /// `n` descents from the root into the rollers of round `set`, each leaving virtual loss
    /// on its path. Their playouts (`rollouts=K` a descent, one slot each) are dealt in
    /// descent order: the first `mine` to the first roller (this thread's), the rest to the
    /// others, a descent's to one of them in turn (all to the first when it is the only one).
    /// A descent whose playouts the boundary splits has its leaf copied here into the other
    /// thread's roller; every other copy of a leaf is made by the thread that plays it.
    fn descend_round(
        &mut self,
        rollers: &mut [Option<Roller<G>>],
        set: usize,
        n: u64,
        mine: usize,
    ) {
        let others = rollers.len() - 1;
        for roller in rollers.iter_mut() {
            roller.as_mut().expect("every roller is home").used = 0;
        }
        let mut order = std::mem::take(&mut self.round[set]);
        order.clear();
        let root = self.round_root.take().expect("a search has a root");
        // The roller of the round's next playout, descent `k`'s.
        let mut dealt = 0;
        let mut deal = |k: usize| {
            dealt += 1;
            if dealt <= mine || others == 0 {
                0
            } else {
                1 + k % others
            }
        };
        for k in 0..n as usize {
            let t = deal(k);
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
            slot.tree_line = self.line.len();
            slot.lifts_loss = true;
            slot.copies = 0;
            order.push((t, j));
            if let Some(leaf) = self.proven_leaf(node, depth) {
                slot.leaf = leaf;
                slot.pending = None;
                continue;
            }
            slot.pending = Some(depth);
            slot.seed = self.rng.random();
            // The slot the descent's next playout starts from: in its roller, the playing
            // thread copies the leaf from it.
            let mut from = (t, j);
            for _ in 1..self.spec.rollouts {
                let t2 = deal(k);
                let j2 = rollers[t2].as_mut().expect("home").claim();
                if t2 == from.0 {
                    rollers[t2].as_mut().expect("home").slots[from.1].copies += 1;
                } else {
                    // Dealing leaves this thread's roller only once: the leaf is copied
                    // across here, and the other roller's playouts copy it from there.
                    debug_assert!(from.0 == 0 && t2 > 0);
                    let (home, away) = rollers.split_at_mut(1);
                    let leaf = home[0].as_ref().expect("home").slots[from.1].state.as_ref();
                    let leaf = leaf.expect("a pending slot holds its leaf");
                    match &mut away[t2 - 1].as_mut().expect("home").slots[j2].state {
                        Some(state) => state.clone_from(leaf),
                        none => *none = Some(leaf.clone()),
                    }
                    from = (t2, j2);
                }
                let to = &mut rollers[t2].as_mut().expect("home").slots[j2];
                to.path.clone_from(&self.path);
                to.line.clone_from(&self.line);
                to.tree_line = self.line.len();
                to.lifts_loss = false;
                to.copies = 0;
                to.pending = Some(depth);
                to.seed = self.rng.random();
                order.push((t2, j2));
            }
        }
        self.round_root = Some(root);
        self.round[set] = order;
    }

    /// Backs up round `set`'s results in descent order, lifting each descent's virtual loss.
    /// With RAVE, a descent's `rollouts=K` playouts (K > 1) are backed up as the search on
    /// one tree backs them up: each to the path on its own, then their AMAF credits in one
    /// pass ([`Mcts::credit_rollouts`]; the same statistics as a pass each).
    fn back_up_round(&mut self, rollers: &mut [Option<Roller<G>>], set: usize) {
        let order = std::mem::take(&mut self.round[set]);
        let sum_amaf = self.spec.rave.is_some() && self.spec.rollouts > 1;
        for (k, &(t, j)) in order.iter().enumerate() {
            // A descent's slots run from the one that lifts its loss to the next such.
            let ends_descent = order
                .get(k + 1)
                .is_none_or(|&(t, j)| rollers[t].as_ref().expect("home").slots[j].lifts_loss);
            let slot = &mut rollers[t].as_mut().expect("every roller is home").slots[j];
            std::mem::swap(&mut self.path, &mut slot.path);
            std::mem::swap(&mut self.line, &mut slot.line);
            let alone = slot.lifts_loss && ends_descent;
            if slot.lifts_loss {
                self.virtual_loss(false);
            }
            let rewards = self.leaf_rewards(slot.leaf);
            if sum_amaf && !alone {
                self.keep_rollout(slot.tree_line, rewards);
                self.back_up_but_amaf(rewards);
                if ends_descent {
                    self.credit_rollouts(slot.tree_line);
                }
            } else {
                self.back_up(rewards);
            }
            std::mem::swap(&mut self.path, &mut slot.path);
            std::mem::swap(&mut self.line, &mut slot.line);
        }
        self.round[set] = order;
    }

    /// Puts a virtual loss on every node of the path (a visit and a lost reward for its
    /// mover), or lifts it: later descents of the round turn to other lines. With
    /// `vloss=amaf` each node below the root also gets one on its move's AMAF statistics,
    /// which RAVE's value weighs most while the node is young.
    pub(super) fn virtual_loss(&mut self, put: bool) {
        let amaf = self.spec.vloss_amaf;
        for &i in &self.path {
            let i = i as usize;
            let n = &mut self.nodes[i];
            if put {
                n.visits += 1;
            } else {
                n.visits -= 1;
            }
            if n.mover_into != NOBODY {
                n.reward += if put { -1.0 } else { 1.0 };
                if amaf {
                    let a = &mut self.amaf[i];
                    if put {
                        a.visits += 1;
                        a.reward -= 1.0;
                    } else {
                        a.visits -= 1;
                        a.reward += 1.0;
                    }
                }
            }
        }
    }
}

/// Tries to receive this many times, spinning, before sleeping on the channel: a round's
/// hand-over is due within microseconds, and waking a sleeping thread costs tens of them.
const SPINS: u32 = 1 << 16;

/// The next message of `rx`, spinning a while before sleeping, and whether it was late
/// (not there at the first look).
fn receive<T>(rx: &Receiver<T>) -> Result<(T, bool), RecvError> {
    for spin in 0..SPINS {
        match rx.try_recv() {
            Ok(message) => return Ok((message, spin > 0)),
            Err(TryRecvError::Empty) => std::hint::spin_loop(),
            Err(TryRecvError::Disconnected) => return Err(RecvError),
        }
    }
    rx.recv().map(|message| (message, true))
}

/// One playout worker of tree parallelism: its own copy of the settings and evaluation, its
/// scratch, and the round's slots dealt to it.
#[derive(Debug)]
pub(super) struct Roller<G: Game> {
    spec: MctsSpec,
    eval: Evaluator,
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
    /// How many of `line`'s first moves are the tree's (the playout's follow them).
    tree_line: usize,
    /// The playout's generator seed, drawn at the descent.
    seed: u64,
    /// The leaf's depth below the root while its playout is still to be played.
    pending: Option<u32>,
    leaf: Leaf,
    /// Whether backing this slot up lifts its descent's virtual loss (the first of its
    /// rollouts does).
    lifts_loss: bool,
    /// How many of the next slots (its descent's other rollouts) start from this slot's
    /// leaf: the playing thread copies it into them before playing this one out.
    copies: u32,
}

impl<G: Game + Features> Roller<G> {
    fn new(spec: MctsSpec, eval: Evaluator) -> Self {
        Roller {
            spec,
            eval,
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
                tree_line: 0,
                seed: 0,
                pending: None,
                leaf: Leaf::Cut(0.0),
                lifts_loss: false,
                copies: 0,
            });
        }
        self.used += 1;
        self.used - 1
    }

    /// Plays out every pending leaf of the round, each from its own seed, first copying a
    /// descent's leaf into the slots of its other rollouts.
    fn run(&mut self) {
        for k in 0..self.used {
            let (slot, rest) = self.slots[k..].split_first_mut().expect("a slot in use");
            let copies = std::mem::take(&mut slot.copies) as usize;
            for to in &mut rest[..copies] {
                let from = slot.state.as_ref().expect("a pending slot holds its leaf");
                match &mut to.state {
                    Some(state) => state.clone_from(from),
                    none => *none = Some(from.clone()),
                }
            }
            let Some(depth) = slot.pending.take() else {
                continue;
            };
            let mut rng = seeded_rng(slot.seed, 0);
            let mut pattern_turn = 0;
            let mut roll = Roll {
                spec: &self.spec,
                eval: &self.eval,
                mast: &[],
                ngram: &[],
                replies: &[],
                pruned: &[],
                pool: &[],
                roll_terms: &[],
                shape_term: None,
                rng: &mut rng,
                scratch: &mut self.scratch,
                probe: &mut self.probe,
                pattern_turn: &mut pattern_turn,
            };
            let state = slot.state.as_mut().expect("a pending slot holds its leaf");
            slot.leaf = roll.play_leaf(state, depth, &mut slot.line);
        }
    }
}
