//! Monte Carlo tree search: UCT over a flat node arena, random playouts (optionally cut and
//! scored by an evaluation), MCTS-Solver, move-count rewards and tree reuse.
//!
//! Nodes live in one `Vec` and refer to their children by index: a node's children are
//! consecutive, so a node stores only its first child and their count. The move into node `i`
//! is `moves[i - 1]`. Each node records the player who moved into it, and a playout's reward
//! is credited to that player at that node: correct when a player moves twice in a row.
//!
//! # RAVE (`rave=K`)
//! Rapid Action Value Estimation (Gelly and Silver, "Combining Online and Offline Knowledge
//! in UCT", ICML 2007; "Monte-Carlo tree search and rapid action value estimation in computer
//! Go", AIJ 2011). Besides its visits `n` and mean reward `Q`, every node keeps AMAF ("all
//! moves as first") statistics `ñ`, `Q̃`: after an iteration whose line (tree moves, then
//! playout moves) is `m_0 m_1 …`, a child `c` of the path node at depth `d` is credited with
//! the reward of its mover `p` when `p` played `c`'s move anywhere in `m_d m_{d+1} …`. A "same
//! move" is an equal `Game::Move`: for drops (Rin, the Life duel, Havannah) the same cell; for
//! the growth and jump games the same source and target, which is a weaker analogy (the
//! source's owner may change) but the one Hexxagon programs use. Selection then scores a child
//!
//! ```text
//! β = √(K / (3n + K))                   (β = 0 while ñ = 0)
//! value = (1 − β)·Q + β·Q̃ + c·√(ln N / max(n, 1))
//! ```
//!
//! so a child seen in many playouts is judged by them before it is visited often. A child
//! with neither visits nor AMAF statistics is tried first, as in plain UCT. The statistics
//! take 8 more bytes a node (a parallel array, allocated only with RAVE on); the line's moves
//! are found through a hash map that keeps its capacity, so an iteration allocates nothing
//! once warm.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use ringside_engine::{Features, Game, GameRng, Outcome, Player, random_playout};

use crate::eval::Evaluator;
use crate::spec::{MctsSpec, Scoring};
use crate::{Agent, Decision, SearchStats};

const UNEXPANDED: u32 = u32::MAX;
/// `mover_into` of the root, which nobody moved into.
const NOBODY: u8 = 2;
/// `proven` values: 0 or 1 is the proven winner; these two are the others.
const DRAW: u8 = 2;
const UNPROVEN: u8 = 3;
/// The longest line an iteration follows, tree and "full game" playout together: past this
/// many plies below the root it is scored by the evaluation, like a cut playout. Games whose
/// rules allow a cycle (Hexxagon and Ikabegamá: one side jumps back and forth while the other
/// must pass) would otherwise hang the search, in the playout or in an ever deeper tree.
pub const FULL_PLAYOUT_PLIES: u32 = 1_000;

/// How deep below the last chosen move tree reuse looks for the new position.
const REUSE_DEPTH: u32 = 3;

/// One tree node: 24 bytes ([`Mcts::BYTES_PER_NODE`]), plus its incoming move in a parallel
/// array.
#[derive(Debug, Clone, Copy)]
struct Node {
    /// Sum of the rewards of the player who moved into this node.
    reward: f64,
    visits: u32,
    first_child: u32,
    children: u16,
    /// Plies from this node to the proven end.
    proven_distance: u16,
    mover_into: u8,
    proven: u8,
}

// The issue's target: a node takes at most 32 bytes besides its children's edges.
const _: () = assert!(std::mem::size_of::<Node>() <= 32);

impl Node {
    fn new(mover_into: u8) -> Node {
        Node {
            reward: 0.0,
            visits: 0,
            first_child: UNEXPANDED,
            children: 0,
            proven_distance: 0,
            mover_into,
            proven: UNPROVEN,
        }
    }
}

/// AMAF statistics of one node (RAVE): 8 bytes.
#[derive(Debug, Clone, Copy, Default)]
struct Amaf {
    reward: f32,
    visits: u32,
}

/// A fast hasher for moves (a multiply-rotate hash, as rustc's FxHash): moves are small and
/// trusted, so SipHash's protection is not needed.
#[derive(Debug, Clone, Copy, Default)]
struct MoveHasher(u64);

impl MoveHasher {
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u8(&mut self, v: u8) {
        self.add(u64::from(v));
    }
    fn write_u16(&mut self, v: u16) {
        self.add(u64::from(v));
    }
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
}

/// For each move of an iteration's line, one past the last index at which each player played
/// it (0: never).
type LastPlayed<M> = HashMap<M, [u32; 2], BuildHasherDefault<MoveHasher>>;

/// Running mean and variance (Welford) of the lengths of one player's wins.
#[derive(Debug, Clone, Copy, Default)]
struct LengthStats {
    n: f64,
    mean: f64,
    m2: f64,
}

impl LengthStats {
    fn add(&mut self, x: f64) {
        self.n += 1.0;
        let d = x - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (x - self.mean);
    }

    fn std_dev(&self) -> f64 {
        if self.n < 2.0 {
            0.0
        } else {
            (self.m2 / (self.n - 1.0)).sqrt()
        }
    }
}

/// The MCTS agent.
#[derive(Debug)]
pub struct Mcts<G: Game> {
    spec: MctsSpec,
    eval: Evaluator,
    rng: GameRng,
    nodes: Vec<Node>,
    moves: Vec<G::Move>,
    spare_nodes: Vec<Node>,
    spare_moves: Vec<G::Move>,
    queue: Vec<u32>,
    root: Option<G>,
    last_choice: Option<u32>,
    path: Vec<u32>,
    legal: Vec<G::Move>,
    scratch: Vec<G::Move>,
    wins: [LengthStats; 2],
    deepest: u32,
    /// RAVE: AMAF statistics parallel to `nodes` (empty when RAVE is off).
    amaf: Vec<Amaf>,
    spare_amaf: Vec<Amaf>,
    /// RAVE: the iteration's line, each move with its mover.
    line: Vec<(G::Move, u8)>,
    last_played: LastPlayed<G::Move>,
}

impl<G: Game + Features> Mcts<G> {
    /// The size of one node; its incoming move adds `size_of::<G::Move>()`.
    pub const BYTES_PER_NODE: usize = std::mem::size_of::<Node>();

    /// An MCTS agent with these settings, evaluation (for cut playouts) and generator.
    #[must_use]
    pub fn new(spec: MctsSpec, eval: Evaluator, rng: GameRng) -> Self {
        Mcts {
            spec,
            eval,
            rng,
            nodes: Vec::new(),
            moves: Vec::new(),
            spare_nodes: Vec::new(),
            spare_moves: Vec::new(),
            queue: Vec::new(),
            root: None,
            last_choice: None,
            path: Vec::new(),
            legal: Vec::new(),
            scratch: Vec::new(),
            wins: [LengthStats::default(); 2],
            deepest: 0,
            amaf: Vec::new(),
            spare_amaf: Vec::new(),
            line: Vec::new(),
            last_played: LastPlayed::default(),
        }
    }

    /// Nodes in the tree now.
    #[must_use]
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the root's result is proven, and if so its winner (`None` for a draw) and
    /// distance in plies.
    #[must_use]
    pub fn root_proof(&self) -> Option<(Option<Player>, u16)> {
        let root = self.nodes.first()?;
        match root.proven {
            UNPROVEN => None,
            DRAW => Some((None, root.proven_distance)),
            p => Some((Some(Player::new(p as usize)), root.proven_distance)),
        }
    }

    fn reset(&mut self) {
        self.nodes.clear();
        self.moves.clear();
        self.nodes.push(Node::new(NOBODY));
        self.amaf.clear();
        if self.spec.rave.is_some() {
            self.amaf.push(Amaf::default());
        }
    }

    /// Keeps the subtree of `state` if the last search reached it, else starts afresh.
    fn reroot(&mut self, state: &G) {
        let found = match (&self.root, self.last_choice) {
            (Some(old), Some(chosen)) if self.spec.reuse => {
                let mut after = old.clone();
                after.play_unchecked(self.moves[chosen as usize - 1]);
                self.find(chosen, &after, state, REUSE_DEPTH)
            }
            _ => None,
        };
        match found {
            Some(node) => self.compact(node),
            None => self.reset(),
        }
        self.root = Some(state.clone());
        self.last_choice = None;
    }

    /// The node at or below `node` (whose position is `at`) holding `target`, within `depth`.
    fn find(&self, node: u32, at: &G, target: &G, depth: u32) -> Option<u32> {
        if at.ply() == target.ply() && at.hash() == target.hash() {
            return Some(node);
        }
        let n = self.nodes[node as usize];
        if depth == 0 || n.first_child == UNEXPANDED || at.ply() >= target.ply() {
            return None;
        }
        (n.first_child..n.first_child + u32::from(n.children)).find_map(|child| {
            if self.nodes[child as usize].visits == 0 {
                return None;
            }
            let mut next = at.clone();
            next.play_unchecked(self.moves[child as usize - 1]);
            self.find(child, &next, target, depth - 1)
        })
    }

    /// Rebuilds the arena with `root` as node 0, keeping its subtree (breadth first).
    fn compact(&mut self, root: u32) {
        let mut nodes = std::mem::take(&mut self.spare_nodes);
        let mut moves = std::mem::take(&mut self.spare_moves);
        let mut amaf = std::mem::take(&mut self.spare_amaf);
        let rave = self.spec.rave.is_some();
        nodes.clear();
        moves.clear();
        amaf.clear();
        self.queue.clear();
        let mut new_root = self.nodes[root as usize];
        new_root.mover_into = NOBODY;
        nodes.push(new_root);
        if rave {
            amaf.push(self.amaf[root as usize]);
        }
        self.queue.push(root);
        let mut next = 0;
        while next < self.queue.len() {
            let old = self.nodes[self.queue[next] as usize];
            if old.first_child != UNEXPANDED {
                nodes[next].first_child = nodes.len() as u32;
                for child in old.first_child..old.first_child + u32::from(old.children) {
                    nodes.push(self.nodes[child as usize]);
                    moves.push(self.moves[child as usize - 1]);
                    if rave {
                        amaf.push(self.amaf[child as usize]);
                    }
                    self.queue.push(child);
                }
            }
            next += 1;
        }
        self.spare_nodes = std::mem::replace(&mut self.nodes, nodes);
        self.spare_moves = std::mem::replace(&mut self.moves, moves);
        self.spare_amaf = std::mem::replace(&mut self.amaf, amaf);
    }

    fn prove(&mut self, node: usize, outcome: Outcome, distance: u16) {
        let n = &mut self.nodes[node];
        n.proven = match outcome {
            Outcome::Win(p) => p.index() as u8,
            Outcome::Draw => DRAW,
        };
        n.proven_distance = distance;
    }

    /// Adds `node`'s children; returns false if it is finished or the arena is full.
    fn expand(&mut self, node: usize, state: &G) -> bool {
        if let Some(outcome) = state.outcome() {
            self.prove(node, outcome, 0);
            return false;
        }
        state.legal_moves(&mut self.legal);
        if self.nodes.len() + self.legal.len() > self.spec.max_nodes as usize {
            return false;
        }
        let mover = state.to_move().expect("a live state has a mover").index() as u8;
        self.nodes[node].first_child = self.nodes.len() as u32;
        self.nodes[node].children = self.legal.len() as u16;
        for &mv in &self.legal {
            self.nodes.push(Node::new(mover));
            self.moves.push(mv);
        }
        if self.spec.rave.is_some() {
            self.amaf.resize(self.nodes.len(), Amaf::default());
        }
        true
    }

    /// The child UCT picks: an immediate proven win, else an unvisited child, else the best
    /// upper confidence bound, never a proven loss while something else remains.
    fn select(&self, node: usize) -> usize {
        let n = self.nodes[node];
        let first = n.first_child as usize;
        let end = first + n.children as usize;
        let mover = self.nodes[first].mover_into;
        let explore = self.spec.c * (f64::from(n.visits.max(1))).ln().sqrt();
        let mut best = f64::NEG_INFINITY;
        let mut choice = first;
        for i in first..end {
            let child = &self.nodes[i];
            if self.spec.solver && child.proven != UNPROVEN {
                if child.proven == mover {
                    return i;
                }
                if child.proven != DRAW {
                    continue;
                }
            }
            let ucb = match self.spec.rave {
                None => {
                    if child.visits == 0 {
                        return i;
                    }
                    let visits = f64::from(child.visits);
                    child.reward / visits + explore / visits.sqrt()
                }
                Some(k) => {
                    let a = self.amaf[i];
                    if child.visits == 0 && a.visits == 0 {
                        return i;
                    }
                    let n = f64::from(child.visits);
                    let q = if child.visits > 0 {
                        child.reward / n
                    } else {
                        0.0
                    };
                    let value = if a.visits > 0 {
                        let beta = (k / (3.0 * n + k)).sqrt();
                        (1.0 - beta) * q + beta * f64::from(a.reward) / f64::from(a.visits)
                    } else {
                        q
                    };
                    value + explore / n.max(1.0).sqrt()
                }
            };
            if ucb > best {
                best = ucb;
                choice = i;
            }
        }
        choice
    }

    /// Rewards of both players for a game won by `winner` (or drawn) `length` plies from the
    /// root; see the crate docs for the move-count bonus.
    fn rewards(&mut self, winner: Option<Player>, length: u32) -> [f64; 2] {
        let Some(w) = winner else { return [0.0, 0.0] };
        let mut r = 1.0;
        if self.spec.score == Scoring::Moves {
            let stats = self.wins[w.index()];
            let sigma = stats.std_dev();
            if sigma > 0.0 {
                let lambda = (stats.mean - f64::from(length)) / sigma;
                let bonus = 2.0 / (1.0 + (-self.spec.steepness * lambda).exp()) - 1.0;
                r += self.spec.bonus * bonus;
            }
            self.wins[w.index()].add(f64::from(length));
        }
        let mut out = [-r; 2];
        out[w.index()] = r;
        out
    }

    /// The proof of `node` from its children, if they settle it.
    fn try_prove(&mut self, node: usize) {
        let n = self.nodes[node];
        if n.proven != UNPROVEN || n.first_child == UNEXPANDED {
            return;
        }
        let first = n.first_child as usize;
        let mover = self.nodes[first].mover_into;
        let (mut shortest_win, mut all_proven, mut draw, mut longest_loss) =
            (None::<u16>, true, None::<u16>, 0u16);
        for child in &self.nodes[first..first + n.children as usize] {
            match child.proven {
                p if p == mover => {
                    shortest_win = Some(
                        shortest_win
                            .map_or(child.proven_distance, |d| d.min(child.proven_distance)),
                    )
                }
                UNPROVEN => all_proven = false,
                DRAW => {
                    draw =
                        Some(draw.map_or(child.proven_distance, |d| d.min(child.proven_distance)))
                }
                _ => longest_loss = longest_loss.max(child.proven_distance),
            }
        }
        let node_ref = &mut self.nodes[node];
        if let Some(d) = shortest_win {
            node_ref.proven = mover;
            node_ref.proven_distance = d.saturating_add(1);
        } else if all_proven {
            match draw {
                Some(d) => {
                    node_ref.proven = DRAW;
                    node_ref.proven_distance = d.saturating_add(1);
                }
                None => {
                    node_ref.proven = mover ^ 1;
                    node_ref.proven_distance = longest_loss.saturating_add(1);
                }
            }
        }
    }

    /// One iteration: select, expand, play out, back up.
    fn iterate(&mut self) {
        let mut state = self.root.clone().expect("a search has a root");
        let root_ply = state.ply();
        self.path.clear();
        self.path.push(0);
        let mut node = 0;
        let rave = self.spec.rave.is_some();
        self.line.clear();
        loop {
            if self.nodes[node].proven != UNPROVEN {
                break;
            }
            if state.ply() - root_ply >= FULL_PLAYOUT_PLIES {
                // A line this deep only grows in a cycle: score it by the evaluation.
                break;
            }
            if self.nodes[node].first_child == UNEXPANDED && !self.expand(node, &state) {
                break;
            }
            let child = self.select(node);
            if rave {
                self.line
                    .push((self.moves[child - 1], self.nodes[child].mover_into));
            }
            state.play_unchecked(self.moves[child - 1]);
            node = child;
            self.path.push(child as u32);
            if self.nodes[child].visits == 0 {
                if let Some(outcome) = state.outcome() {
                    self.prove(child, outcome, 0);
                }
                break;
            }
        }
        self.deepest = self.deepest.max(self.path.len() as u32 - 1);

        let leaf = self.nodes[node];
        let rewards = if leaf.proven != UNPROVEN {
            let winner = (leaf.proven < DRAW).then(|| Player::new(leaf.proven as usize));
            self.rewards(
                winner,
                state.ply() - root_ply + u32::from(leaf.proven_distance),
            )
        } else {
            let depth = state.ply() - root_ply;
            let cap = match self.spec.playout_cap {
                Some(cap) => cap,
                None => FULL_PLAYOUT_PLIES.saturating_sub(depth),
            };
            let played = if rave {
                self.recorded_playout(&mut state, cap)
            } else {
                random_playout(&mut state, &mut self.rng, &mut self.scratch, cap)
            };
            match played {
                Some(outcome) => self.rewards(outcome.winner(), state.ply() - root_ply),
                None => {
                    let r = (self.eval.evaluate(&state, Player::ZERO) / 4.0).tanh();
                    [r, -r]
                }
            }
        };

        if rave {
            self.credit_amaf(rewards);
        }
        for k in (0..self.path.len()).rev() {
            let i = self.path[k] as usize;
            if self.spec.solver && k + 1 < self.path.len() {
                self.try_prove(i);
            }
            let n = &mut self.nodes[i];
            n.visits += 1;
            if n.mover_into != NOBODY {
                n.reward += rewards[n.mover_into as usize];
            }
        }
    }

    /// A uniformly random playout, as [`random_playout`], that appends its moves to the line.
    fn recorded_playout(&mut self, state: &mut G, cap: u32) -> Option<Outcome> {
        let mut played = 0;
        loop {
            if let Some(outcome) = state.outcome() {
                return Some(outcome);
            }
            if played == cap {
                return None;
            }
            let mover = state.to_move().expect("a live state has a mover").index() as u8;
            let mv = state
                .random_move(&mut self.rng, &mut self.scratch)
                .expect("a state with no outcome has a legal move");
            self.line.push((mv, mover));
            state.play_unchecked(mv);
            played += 1;
        }
    }

    /// RAVE: credits the AMAF statistics of the children of every path node whose move their
    /// mover played at or after that node's depth in the line (see the module docs).
    fn credit_amaf(&mut self, rewards: [f64; 2]) {
        self.last_played.clear();
        for (i, &(mv, mover)) in self.line.iter().enumerate() {
            self.last_played.entry(mv).or_insert([0, 0])[mover as usize] = i as u32 + 1;
        }
        for (depth, &node) in self.path.iter().enumerate() {
            let n = self.nodes[node as usize];
            if n.first_child == UNEXPANDED {
                continue;
            }
            let first = n.first_child as usize;
            for c in first..first + n.children as usize {
                let mover = self.nodes[c].mover_into as usize;
                let later = self
                    .last_played
                    .get(&self.moves[c - 1])
                    .is_some_and(|last| last[mover] as usize > depth);
                if later {
                    let a = &mut self.amaf[c];
                    a.visits += 1;
                    a.reward += rewards[mover] as f32;
                }
            }
        }
    }

    /// The root child to play (see the crate docs).
    fn best_child(&self) -> usize {
        let root = self.nodes[0];
        let first = root.first_child as usize;
        let children = first..first + root.children as usize;
        let mover = self.nodes[first].mover_into;
        if self.spec.solver {
            let proven_win = children
                .clone()
                .filter(|&i| self.nodes[i].proven == mover)
                .min_by_key(|&i| (self.nodes[i].proven_distance, i));
            if let Some(i) = proven_win {
                return i;
            }
        }
        let lost = |i: usize| {
            self.spec.solver
                && self.nodes[i].proven != UNPROVEN
                && self.nodes[i].proven != DRAW
                && self.nodes[i].proven != mover
        };
        // Most visits; among equals the best mean reward, then the first listed.
        let mean = |i: usize| self.nodes[i].reward / f64::from(self.nodes[i].visits.max(1));
        let most_visited = children
            .clone()
            .filter(|&i| !lost(i))
            .fold(None::<usize>, |best, i| match best {
                Some(b) if (self.nodes[b].visits, mean(b)) >= (self.nodes[i].visits, mean(i)) => {
                    Some(b)
                }
                _ => Some(i),
            });
        most_visited.unwrap_or_else(|| {
            children
                .max_by_key(|&i| (self.nodes[i].proven_distance, std::cmp::Reverse(i)))
                .expect("a root with children")
        })
    }

    fn budget_left(&self, iterations: u64, deadline: Option<Instant>) -> bool {
        if self.spec.iterations.is_some_and(|n| iterations >= n) {
            return false;
        }
        if iterations % 16 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            return false;
        }
        true
    }
}

impl<G: Game + Features> Agent<G> for Mcts<G> {
    fn choose(&mut self, state: &G) -> Decision<G::Move> {
        let started = Instant::now();
        assert!(
            state.outcome().is_none(),
            "choose needs a game that is not over"
        );
        self.reroot(state);
        self.wins = [LengthStats::default(); 2];
        self.deepest = 0;
        let deadline = self.spec.time.map(|t| started + t);
        let mut iterations = 0;
        // At least one iteration, so the root is expanded.
        loop {
            self.iterate();
            iterations += 1;
            let solved = self.spec.solver && self.nodes[0].proven != UNPROVEN;
            if solved || !self.budget_left(iterations, deadline) {
                break;
            }
        }
        if self.nodes[0].first_child == UNEXPANDED {
            // The arena was too full to expand the root: fall back to a random move.
            let mv = state
                .random_move(&mut self.rng, &mut self.scratch)
                .expect("a live state has a move");
            return Decision {
                mv,
                stats: SearchStats {
                    iterations,
                    time: started.elapsed(),
                    ..SearchStats::default()
                },
            };
        }
        let child = self.best_child();
        self.last_choice = Some(child as u32);
        let c = self.nodes[child];
        Decision {
            mv: self.moves[child - 1],
            stats: SearchStats {
                nodes: self.nodes.len() as u64,
                iterations,
                depth: self.deepest,
                time: started.elapsed(),
                value: (c.visits > 0).then(|| c.reward / f64::from(c.visits)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ringside_engine::games::rin::Rin;

    fn mcts_for(start: &Rin, iterations: u32) -> Mcts<Rin> {
        let spec = match crate::AgentSpec::parse(&format!("mcts:iters={iterations}")).unwrap() {
            crate::AgentSpec::Mcts(s) => s,
            _ => unreachable!(),
        };
        let eval = Evaluator::new(&spec.eval, start).unwrap();
        Mcts::new(spec, eval, ringside_engine::seeded_rng(3, 0))
    }

    #[test]
    fn tree_reuse_keeps_the_chosen_subtree_across_a_double_move() {
        // Ply 3: Black moves, then Black moves again from the chosen node.
        let start = Rin::new(6)
            .unwrap()
            .set_up("......\n......\n..B...\n...W..\n....W.\n......\nply 3")
            .unwrap();
        let mut mcts = mcts_for(&start, 2000);
        let first = mcts.choose(&start).mv;
        let chosen = mcts.last_choice.unwrap() as usize;
        let (visits, subtree) = (mcts.nodes[chosen].visits, subtree_size(&mcts, chosen));
        let mut state = start;
        state.play(first);
        assert_eq!(state.to_move(), Some(Player::ZERO));
        mcts.reroot(&state);
        assert_eq!(mcts.nodes[0].visits, visits);
        assert_eq!(mcts.tree_size(), subtree);
        assert!(subtree > 100, "{subtree}");
    }

    #[test]
    fn tree_reuse_finds_the_position_two_plies_below_and_resets_otherwise() {
        let start = Rin::new(6).unwrap();
        let mut mcts = mcts_for(&start, 4000);
        let first = mcts.choose(&start).mv;
        let mut state = start;
        state.play(first);
        // White's two moves, along the most visited line of the tree.
        let mut node = mcts.last_choice.unwrap() as usize;
        for _ in 0..2 {
            let n = mcts.nodes[node];
            let first = n.first_child as usize;
            node = (first..first + n.children as usize)
                .max_by_key(|&i| mcts.nodes[i].visits)
                .unwrap();
            state.play(mcts.moves[node - 1]);
        }
        let (visits, subtree) = (mcts.nodes[node].visits, subtree_size(&mcts, node));
        assert!(visits > 0);
        mcts.reroot(&state);
        assert_eq!(mcts.nodes[0].visits, visits, "found, not reset");
        assert_eq!(mcts.tree_size(), subtree);
        // A position the tree never saw starts a fresh tree.
        let unrelated = Rin::new(6)
            .unwrap()
            .set_up("B.....\n......\n......\n......\n......\n......\nply 1")
            .unwrap();
        mcts.choose(&state);
        mcts.reroot(&unrelated);
        assert_eq!((mcts.tree_size(), mcts.nodes[0].visits), (1, 0));
    }

    fn rave_for<G: Game + Features>(start: &G, seed: u64) -> Mcts<G> {
        let spec = match crate::AgentSpec::parse("mcts:iters=300,rave=500").unwrap() {
            crate::AgentSpec::Mcts(s) => s,
            _ => unreachable!(),
        };
        let eval = Evaluator::new(&spec.eval, start).unwrap();
        Mcts::new(spec, eval, ringside_engine::seeded_rng(seed, 0))
    }

    #[test]
    fn rave_credits_the_children_whose_move_their_mover_played_later_in_the_line() {
        // Rin at ply 3: Black moves twice in a row, so the movers along the line are B B W W B…
        let start = Rin::new(6)
            .unwrap()
            .set_up("......\n......\n..B...\n...W..\n....W.\n......\nply 3")
            .unwrap();
        let mut m = rave_for(&start, 9);
        m.root = Some(start);
        m.reset();
        m.iterate();
        // After one iteration: the root is expanded, the path is root → its first child.
        let root = m.nodes[0];
        let first = root.first_child as usize;
        let chosen = m.path[1] as usize;
        let mover = m.nodes[first].mover_into;
        let credited: Vec<usize> = (first..first + root.children as usize)
            .filter(|&c| {
                m.line
                    .iter()
                    .any(|&(mv, p)| mv == m.moves[c - 1] && p == mover)
            })
            .collect();
        assert!(credited.contains(&chosen), "the move played is credited");
        assert!(credited.len() > 2 && credited.len() < root.children as usize);
        assert_eq!(chosen, first);
        // Every credited child carries the reward its mover got, the chosen child's.
        let reward = m.nodes[chosen].reward;
        assert_ne!(reward, 0.0);
        for c in first..first + root.children as usize {
            let a = m.amaf[c];
            assert_eq!(a.visits, u32::from(credited.contains(&c)), "child {c}");
            let expected = if credited.contains(&c) { reward } else { 0.0 };
            assert_eq!(f64::from(a.reward), expected, "child {c}");
        }
        // White's moves in the line never credit Black's children.
        let whites = m.line.iter().filter(|&&(_, p)| p != mover).count();
        assert!(whites > 0);
    }

    #[test]
    fn rave_search_is_seeded_and_keeps_its_statistics_across_tree_reuse() {
        let start = Rin::new(6).unwrap();
        let (mut a, mut b) = (rave_for(&start, 4), rave_for(&start, 4));
        let (da, db) = (a.choose(&start), b.choose(&start));
        assert_eq!(da.mv, db.mv);
        assert_eq!(da.stats.value, db.stats.value);
        assert_eq!(a.amaf.len(), a.nodes.len());
        let mut state = start;
        state.play(da.mv);
        a.reroot(&state);
        assert_eq!(a.amaf.len(), a.nodes.len(), "compacted together");
        assert!(a.amaf[1..].iter().any(|x| x.visits > 0));
    }

    fn subtree_size(mcts: &Mcts<Rin>, node: usize) -> usize {
        let n = mcts.nodes[node];
        if n.first_child == UNEXPANDED {
            return 1;
        }
        let first = n.first_child as usize;
        1 + (first..first + n.children as usize)
            .map(|c| subtree_size(mcts, c))
            .sum::<usize>()
    }
}
