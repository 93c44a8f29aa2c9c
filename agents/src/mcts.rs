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
//! so a child seen in many playouts is judged by them before it is visited often. Two
//! options change the schedule:
//! - `rave_form=hyp`: `β = K / (K + n)`, the hyperbolic form Castro uses (Ewalds, "Playing
//!   and solving Havannah", MSc thesis, University of Alberta, 2012), which trusts AMAF
//!   longer at small `n` and drops it faster at large `n` than the square root.
//! - `rave_grow=D`: `K` becomes `K + D·m`, where `m` is the number of moves at the parent
//!   (in a drop game, the moves left): AMAF is trusted longer early in the game, where a
//!   cell keeps its meaning for many moves. Castro uses `K = 500 + 200·m`.
//!
//! A child with neither visits nor AMAF statistics is tried first, as in plain UCT (or gets
//! the FPU value, below). The statistics take 8 more bytes a node (a parallel array,
//! allocated only with RAVE on): **32 bytes a node with RAVE on**, plus its move. The line's moves are
//! marked in an array indexed by [`Game::move_index`] and unmarked after the update, so an
//! iteration allocates nothing.
//!
//! # Decisive moves (`decisive=tree|on`)
//! Teytaud and Teytaud, "On the huge benefit of decisive moves in Monte-Carlo tree search
//! algorithms" (IEEE CIG 2010); Lorentz, "Improving Monte-Carlo tree search in Havannah"
//! (CG 2010). A *decisive* move wins at once; an *anti-decisive* move takes the cell of the
//! opponent's decisive move. Both come from [`Game::wins_at_once`] (Havannah answers from its
//! groups without playing; other games answer `None`, and the mover's wins are then found by
//! playing each move on a copy; blocks need the game's answer).
//! - `decisive=tree`: when a node is expanded, a child that wins at once is proven won
//!   (distance 0), which MCTS-Solver turns into a proof of the node. Else, when the opponent
//!   has a decisive move the mover can also play, every other child is proven lost at
//!   distance 1: only the block is searched, as Castro's "minimax 2" expansion does. With
//!   two or more such threats no stone blocks them all, and every child is proven lost at
//!   distance 1. Costs one test per child per expansion.
//! - `decisive=on`: the same in the tree, and at every playout ply: the mover plays a
//!   decisive move if it has one, else the first anti-decisive one, else the policy's move.
//!   Costs a test of every legal move, twice, at every ply.
//!
//! # First-play urgency (`fpu=F`)
//! Gelly and Wang, "Exploration exploitation in Go: UCT for Monte-Carlo Go" (NIPS workshop
//! 2006). A child never visited (and, with RAVE, never seen in a playout) scores `F` instead
//! of being tried before all its visited siblings; rewards lie in [−1, 1], so `F = 1` is
//! optimistic and `F = 0` neutral.
//!
//! # Progressive bias (`bias=W`)
//! Chaslot, Winands, van den Herik, Uiterwijk and Bouzy, "Progressive strategies for
//! Monte-Carlo tree search" (New Math. and Natural Computation, 2008). When a node is
//! expanded, each child gets a prior `H = tanh(E/4)`, where `E` is the agent's evaluation
//! (`eval=`, `weights=`, `w.NAME=`) of the position after its move from its mover's view (a
//! move that wins at once gets `H = 1`). Selection adds `W · H / (n + 1)`, knowledge that
//! fades as the child's own visits `n` grow. Priors take 4 bytes a node (a parallel array,
//! allocated only with `bias` above 0) and one copy, move and evaluation per child.
//!
//! # Move knowledge (`know=W`)
//! The game's cheap knowledge of each move ([`Features::move_knowledge`], read without
//! playing it; Havannah's is Castro's: the corners and edges the move's group would touch,
//! and the answer to an intrusion into a two-cell link) is stored with each child at
//! expansion. Selection adds
//!
//! ```text
//! W · K(m) / √max(n, 1)          (while n < 1000; nothing after)
//! ```
//!
//! Castro's fading of `know` in `Node::value` (`player.h`). Unlike `bias`, it plays no move
//! and evaluates nothing: one table lookup per child. With `fpu`, a child never seen is
//! valued `F + W·K(m)`, so knowledge orders the first visits. 4 bytes a node (a parallel
//! array, allocated only with `know` above 0). Games without knowledge answer 0.
//!
//! # Playout policies (`policy=random|mast|eval`, `epsilon=ε`)
//! - `mast`: Move-Average Sampling Technique (Finnsson and Björnsson, "Simulation-based
//!   approach to general game playing", AAAI 2008), ε-greedy as in Tak, Winands and
//!   Björnsson ("N-grams and the last-good-reply policy applied in general game playing",
//!   IEEE TCIAIG 2012). Every move of every iteration's line (tree and playout) adds its
//!   mover's reward to a table indexed by move and player. A playout ply is uniformly random
//!   with probability ε, else the legal move with the best average `Q_MAST(m, p)` (unseen
//!   moves count 0; ties are broken uniformly). At the start of each search the table is
//!   halved (sums and counts), so the last position weighs most.
//! - `eval`: ε-greedy on the evaluation: with probability 1 − ε the move whose resulting
//!   position the evaluation rates best for the mover (a move that wins at once first).
//!   One copy, move and evaluation per legal move per ply: the dearest policy.
//!
//! # Playout replies (`pattern=on`, `reply=lgr|lgrf`)
//! Before the policy's move (and after a decisive move, with `decisive=on`), a playout ply
//! may answer the move just played:
//! - `pattern=on`: the game's own answer, [`Features::playout_reply`]. Havannah's saves a
//!   two-cell link (a "bridge", or a stone's link to the edge) the last stone broke into,
//!   as Castro's `rolloutpattern` does (Lorentz, "Improving Monte-Carlo tree search in
//!   Havannah", CG 2010, plays the same reply in Wanderer's playouts). The scan around the
//!   last stone starts one place further at each call, so where two links are broken each
//!   is saved in turn. A handful of lookups a ply; games without an answer give none.
//! - `reply=lgr`: last good reply, LGR-1 (Drake, "The last-good-reply policy for Monte-Carlo
//!   Go", ICGA Journal 2009): after each iteration, every move of its line (tree and
//!   playout) made by the winner is stored as its mover's reply to the move before it, in a
//!   table indexed by that move's [`Game::move_index`] and the replying player. A playout
//!   ply plays the stored reply to the last move when it is legal.
//! - `reply=lgrf`: LGRF-1 (Baier and Drake, "The power of forgetting: improving the
//!   last-good-reply policy in Monte Carlo Go", IEEE TCIAIG 2010): also, a move of the loser
//!   that is the stored reply is forgotten. Stankiewicz, Winands and Uiterwijk
//!   ("Monte-Carlo tree search enhancements for Havannah", ACG 2011) measured both on
//!   Havannah.
//!
//! The table takes two moves per move index (allocated once; kept between moves, as the
//! papers do), and a draw or an evaluated cut playout with equal rewards teaches nothing.
//! Nothing is allocated per iteration.
//!
//! # The move played (`final=visits|wins`)
//! Among the root's unproven children, the move played is the most visited one (the "robust
//! child" of Chaslot et al., 2008; ties go to the better mean), or with `final=wins` the one
//! with the most won playouts, `n·(1 + Q)/2` for rewards in [−1, 1] (Castro's default,
//! `msrave=-2`; ties go to more visits). The two differ when a child with fewer visits has
//! enough more wins, as after a late swing of the search. Proven wins and losses come first
//! either way (see the crate docs).
//!
//! # Root parallelism (`threads=N`)
//! Cazenave and Jouandeau, "On the parallelization of UCT" (CGW 2007); Chaslot, Winands and
//! van den Herik, "Parallel Monte-Carlo tree search" (CG 2008). `N` trees, each with its own
//! generator (seeded from the agent's), search the same position on `N` threads; the
//! iteration budget `n` is shared (tree `i` runs `⌊n/N⌋`, plus one for `i < n mod N`), a time
//! budget applies to each. The move is chosen as with one tree, over visits and rewards
//! summed across trees; a child proven lost in any tree is lost. Each tree keeps its own
//! subtree between moves. With an iteration budget the result depends only on the seed, never
//! on scheduling: the trees share nothing while they search.
//!
//! # `preset=strong`
//! [`crate::spec::STRONG_PRESET`]: the configuration measured strongest against Castro at
//! equal time (`results/mcts-enhancements/`): Castro's own schedule and knowledge, with
//! `c = 0`, `K = 500 + 200·m` on the hyperbolic form, decisive moves in the tree and
//! `know=1` (games without move knowledge get none). Options given beside it override it.

use std::time::Instant;

use rand::RngExt;
use ringside_engine::{Features, Game, GameRng, Outcome, Player, random_playout, seeded_rng};

use crate::eval::Evaluator;
use crate::spec::{Decisive, FinalChoice, MctsSpec, Policy, RaveForm, Reply, Scoring};
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

/// Move knowledge stops counting once a child has this many visits of its own.
const KNOWLEDGE_VISITS: u32 = 1_000;

/// How deep below the last chosen move tree reuse looks for the new position.
const REUSE_DEPTH: u32 = 3;

/// What a scan for decisive moves found, by position in the scanned moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Threat {
    /// The first move that wins at once.
    Win(usize),
    /// The one move on which the opponent would win at once: the block.
    Block(usize),
    /// The first of two or more such moves: one stone cannot block them all.
    Double(usize),
}

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

impl Amaf {
    fn add(&mut self, reward: f64) {
        self.visits += 1;
        self.reward += reward as f32;
    }

    fn mean(self) -> Option<f64> {
        (self.visits > 0).then(|| f64::from(self.reward) / f64::from(self.visits))
    }
}

/// One move of an iteration's line (tree moves, then playout moves).
#[derive(Debug, Clone, Copy)]
struct Step<M> {
    /// The move's [`Game::move_index`].
    index: u32,
    /// The player who made it.
    mover: u8,
    mv: M,
}

/// Empties a parallel array of the nodes and, when its option is on, gives the root its entry;
/// an array whose option is off stays empty.
fn restart<T: Copy + Default>(array: &mut Vec<T>, on: bool) {
    array.clear();
    if on {
        array.push(T::default());
    }
}

/// Copies entry `i` of a parallel array of the nodes, unless the array is off (empty).
fn carry<T: Copy>(to: &mut Vec<T>, from: &[T], i: u32) {
    if !from.is_empty() {
        to.push(from[i as usize]);
    }
}

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
    /// RAVE, MAST and last good reply: the iteration's line of moves.
    line: Vec<Step<G::Move>>,
    /// RAVE: for each move index, one past the last place in the line where each player
    /// played it (0: never); cleared after each iteration.
    last_played: Vec<[u32; 2]>,
    /// MAST: the average reward of each move index for each player.
    mast: Vec<[Amaf; 2]>,
    /// Last good reply: by the previous move's index, each player's reply that last won.
    replies: Vec<[Option<G::Move>; 2]>,
    /// `pattern`: where the game's scan for a playout reply starts, turned at each call.
    pattern_turn: usize,
    /// Progressive bias: the prior of each node, parallel to `nodes` (empty when off).
    prior: Vec<f32>,
    spare_prior: Vec<f32>,
    /// Move knowledge: each node's [`Features::move_knowledge`], parallel to `nodes` (empty
    /// when off).
    know: Vec<f32>,
    spare_know: Vec<f32>,
    /// A copy of a position for testing moves (decisive moves, priors, the eval policy).
    probe: Option<G>,
    /// Root parallelism: the other trees (`threads - 1`).
    helpers: Vec<Mcts<G>>,
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
            replies: Vec::new(),
            pattern_turn: 0,
            last_played: Vec::new(),
            mast: Vec::new(),
            prior: Vec::new(),
            spare_prior: Vec::new(),
            know: Vec::new(),
            spare_know: Vec::new(),
            probe: None,
            helpers: Vec::new(),
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
        restart(&mut self.amaf, self.spec.rave.is_some());
        restart(&mut self.prior, self.spec.bias > 0.0);
        restart(&mut self.know, self.spec.know > 0.0);
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

    /// Rebuilds the arena with `root` as node 0, keeping its subtree (breadth first), and the
    /// parallel arrays that are in use with it.
    fn compact(&mut self, root: u32) {
        let mut nodes = std::mem::take(&mut self.spare_nodes);
        let mut moves = std::mem::take(&mut self.spare_moves);
        let mut amaf = std::mem::take(&mut self.spare_amaf);
        let mut prior = std::mem::take(&mut self.spare_prior);
        let mut know = std::mem::take(&mut self.spare_know);
        nodes.clear();
        moves.clear();
        amaf.clear();
        prior.clear();
        know.clear();
        self.queue.clear();
        let mut new_root = self.nodes[root as usize];
        new_root.mover_into = NOBODY;
        nodes.push(new_root);
        self.queue.push(root);
        let mut next = 0;
        while next < self.queue.len() {
            let i = self.queue[next];
            carry(&mut amaf, &self.amaf, i);
            carry(&mut prior, &self.prior, i);
            carry(&mut know, &self.know, i);
            let old = self.nodes[i as usize];
            if old.first_child != UNEXPANDED {
                nodes[next].first_child = nodes.len() as u32;
                for child in old.first_child..old.first_child + u32::from(old.children) {
                    nodes.push(self.nodes[child as usize]);
                    moves.push(self.moves[child as usize - 1]);
                    self.queue.push(child);
                }
            }
            next += 1;
        }
        self.spare_nodes = std::mem::replace(&mut self.nodes, nodes);
        self.spare_moves = std::mem::replace(&mut self.moves, moves);
        self.spare_amaf = std::mem::replace(&mut self.amaf, amaf);
        self.spare_prior = std::mem::replace(&mut self.prior, prior);
        self.spare_know = std::mem::replace(&mut self.know, know);
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
        if self.spec.bias > 0.0 {
            self.set_priors(node, state);
        }
        if self.spec.know > 0.0 {
            self.know
                .extend(self.legal.iter().map(|&mv| state.move_knowledge(mv) as f32));
        }
        if self.spec.decisive != Decisive::Off {
            self.prove_decisive(node, state);
        }
        true
    }

    /// `state` after `mv`, played on the reusable copy `probe`.
    fn after<'a>(probe: &'a mut Option<G>, state: &G, mv: G::Move) -> &'a G {
        let copy = probe.get_or_insert_with(|| state.clone());
        copy.clone_from(state);
        copy.play_unchecked(mv);
        copy
    }

    /// Among `moves` (legal for `mover`), the first that wins at once for `mover`: the
    /// game's answer, or else the move played on a copy. Failing that, the moves on which the
    /// opponent would win at once (where the game can tell): one is a block, two or more a
    /// lost position.
    fn decisive_in(
        probe: &mut Option<G>,
        state: &G,
        mover: Player,
        moves: &[G::Move],
    ) -> Option<Threat> {
        let mut found = None;
        for (k, &mv) in moves.iter().enumerate() {
            let wins = state.wins_at_once(mover, mv).unwrap_or_else(|| {
                Self::after(probe, state, mv).outcome() == Some(Outcome::Win(mover))
            });
            if wins {
                return Some(Threat::Win(k));
            }
            if state.wins_at_once(mover.other(), mv) == Some(true) {
                found = match found {
                    None => Some(Threat::Block(k)),
                    Some(Threat::Block(first) | Threat::Double(first)) => {
                        Some(Threat::Double(first))
                    }
                    Some(Threat::Win(_)) => unreachable!("a win returns at once"),
                };
            }
        }
        found
    }

    /// Decisive moves in the tree: a child that wins at once is proven; else, if the
    /// opponent could win at once on a move the mover can also play (a drop game's threat),
    /// every other child is proven lost in one more ply; with two such threats, every child
    /// is (Castro's "minimax 2": one stone blocks one threat, the opponent plays the other).
    fn prove_decisive(&mut self, node: usize, state: &G) {
        let n = self.nodes[node];
        let first = n.first_child as usize;
        let children = first..first + n.children as usize;
        let mover = state.to_move().expect("an expanded node has a mover");
        let moves = &self.moves[first - 1..first - 1 + n.children as usize];
        let spared = match Self::decisive_in(&mut self.probe, state, mover, moves) {
            None => return,
            Some(Threat::Win(k)) => return self.prove(first + k, Outcome::Win(mover), 0),
            Some(Threat::Block(k)) => Some(first + k),
            Some(Threat::Double(_)) => None,
        };
        for c in children.filter(|&c| Some(c) != spared) {
            self.prove(c, Outcome::Win(mover.other()), 1);
        }
    }

    /// Progressive bias: each child's prior, `tanh(eval/4)` of the position after its move
    /// from its mover's view (1 for a move that wins at once).
    fn set_priors(&mut self, node: usize, state: &G) {
        let n = self.nodes[node];
        let first = n.first_child as usize;
        let mover = state.to_move().expect("an expanded node has a mover");
        self.prior.resize(self.nodes.len(), 0.0);
        for c in first..first + n.children as usize {
            let probe = Self::after(&mut self.probe, state, self.moves[c - 1]);
            self.prior[c] = match probe.outcome() {
                Some(Outcome::Win(p)) if p == mover => 1.0,
                _ => (self.eval.evaluate(probe, mover) / 4.0).tanh() as f32,
            };
        }
    }

    /// The child UCT picks: an immediate proven win, else an unvisited child, else the best
    /// upper confidence bound, never a proven loss while something else remains.
    fn select(&self, node: usize) -> usize {
        let n = self.nodes[node];
        let first = n.first_child as usize;
        let end = first + n.children as usize;
        let mover = self.nodes[first].mover_into;
        // With c = 0 (the strong preset) the exploration term is 0 for every child and is left
        // out, square root and all: the sums, and so the choice, are the same.
        let explore =
            (self.spec.c > 0.0).then(|| self.spec.c * (f64::from(n.visits.max(1))).ln().sqrt());
        // RAVE's equivalence here: more moves left, longer trust in AMAF.
        let rave_k = self
            .spec
            .rave
            .map(|k| k + self.spec.rave_grow * f64::from(n.children));
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
            let bias = self.bias(i, child.visits) + self.knowledge(i, child.visits);
            let amaf = rave_k.map(|k| (k, self.amaf[i]));
            let ucb = if child.visits == 0 && amaf.is_none_or(|(_, a)| a.visits == 0) {
                // First-play urgency, or "visit it first".
                match self.spec.fpu {
                    Some(v) => v + bias,
                    None => return i,
                }
            } else {
                let n = f64::from(child.visits);
                let q = if child.visits > 0 {
                    child.reward / n
                } else {
                    0.0
                };
                let value = match amaf.and_then(|(k, a)| Some((k, a.mean()?))) {
                    Some((k, q_amaf)) => {
                        let beta = match self.spec.rave_form {
                            RaveForm::Sqrt => (k / (3.0 * n + k)).sqrt(),
                            RaveForm::Hyperbolic => k / (k + n),
                        };
                        (1.0 - beta) * q + beta * q_amaf
                    }
                    None => q,
                };
                match explore {
                    Some(e) => value + e / n.max(1.0).sqrt() + bias,
                    None => value + bias,
                }
            };
            if ucb > best {
                best = ucb;
                choice = i;
            }
        }
        choice
    }

    /// Progressive bias's term for child `i` with `visits`: `W·H/(n + 1)`.
    fn bias(&self, i: usize, visits: u32) -> f64 {
        if self.prior.is_empty() {
            return 0.0;
        }
        self.spec.bias * f64::from(self.prior[i]) / (f64::from(visits) + 1.0)
    }

    /// Move knowledge's term for child `i` with `visits`: `W·K` while it is unvisited or
    /// visited once, `W·K/√n` up to 1,000 visits (Castro's fading), then nothing.
    fn knowledge(&self, i: usize, visits: u32) -> f64 {
        if self.know.is_empty() || visits >= KNOWLEDGE_VISITS || self.know[i] == 0.0 {
            // Most moves know nothing: no square root for them.
            return 0.0;
        }
        self.spec.know * f64::from(self.know[i]) / f64::from(visits.max(1)).sqrt()
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
        let record = self.records_line();
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
            if record {
                let mv = self.moves[child - 1];
                self.line.push(Step {
                    index: state.move_index(mv) as u32,
                    mover: self.nodes[child].mover_into,
                    mv,
                });
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
            let played = self.playout(&mut state, cap);
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
        if self.spec.policy == Policy::Mast {
            for step in &self.line {
                self.mast[step.index as usize][step.mover as usize]
                    .add(rewards[step.mover as usize]);
            }
        }
        if self.spec.reply != Reply::Off {
            self.learn_replies(rewards);
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

    /// Whether iterations keep their line of moves (for RAVE, MAST or last good reply).
    fn records_line(&self) -> bool {
        self.spec.rave.is_some()
            || self.spec.policy == Policy::Mast
            || self.spec.reply != Reply::Off
    }

    /// Last good reply: each move of the line by the iteration's winner becomes its mover's
    /// reply to the move before it; with forgetting, a loser's move is removed where it is
    /// the stored reply. Nothing is learnt from a draw.
    fn learn_replies(&mut self, rewards: [f64; 2]) {
        if rewards[0] == rewards[1] {
            return;
        }
        let winner = u8::from(rewards[1] > rewards[0]);
        if self.replies.is_empty() {
            let root = self.root.as_ref().expect("a search has a root");
            self.replies = vec![[None; 2]; root.move_index_count()];
        }
        for pair in self.line.windows(2) {
            let (before, step) = (pair[0], pair[1]);
            let stored = &mut self.replies[before.index as usize][step.mover as usize];
            if step.mover == winner {
                *stored = Some(step.mv);
            } else if self.spec.reply == Reply::Forget && *stored == Some(step.mv) {
                *stored = None;
            }
        }
    }

    /// A playout of at most `cap` plies by the playout policy, appending its moves to the
    /// line when the line is kept; the outcome, or `None` when cut.
    fn playout(&mut self, state: &mut G, cap: u32) -> Option<Outcome> {
        let record = self.records_line();
        if !record
            && self.spec.decisive != Decisive::On
            && self.spec.policy == Policy::Random
            && !self.spec.pattern
        {
            return random_playout(state, &mut self.rng, &mut self.scratch, cap);
        }
        let mut played = 0;
        loop {
            if let Some(outcome) = state.outcome() {
                return Some(outcome);
            }
            if played == cap {
                return None;
            }
            let mover = state.to_move().expect("a live state has a mover");
            let mv = self.playout_move(state, mover);
            if record {
                self.line.push(Step {
                    index: state.move_index(mv) as u32,
                    mover: mover.index() as u8,
                    mv,
                });
            }
            state.play_unchecked(mv);
            played += 1;
        }
    }

    /// One playout move, the first of: a decisive or anti-decisive move (`decisive=on`), the
    /// game's reply to the last move (`pattern=on`), the last good reply to the last move
    /// (`reply=`), the policy's move.
    fn playout_move(&mut self, state: &G, mover: Player) -> G::Move {
        if self.spec.decisive == Decisive::On {
            if let Some(mv) = self.decisive_move(state, mover) {
                return mv;
            }
        }
        if self.spec.pattern {
            self.pattern_turn = self.pattern_turn.wrapping_add(1);
            if let Some(mv) = state.playout_reply(self.pattern_turn) {
                return mv;
            }
        }
        if self.spec.reply != Reply::Off {
            let stored = self
                .line
                .last()
                .and_then(|before| self.replies.get(before.index as usize)?[mover.index()]);
            if let Some(mv) = stored.filter(|&mv| state.is_legal(mv)) {
                return mv;
            }
        }
        let greedy =
            self.spec.policy != Policy::Random && self.rng.random::<f64>() >= self.spec.epsilon;
        if !greedy {
            return state
                .random_move(&mut self.rng, &mut self.scratch)
                .expect("a state with no outcome has a legal move");
        }
        state.legal_moves(&mut self.scratch);
        let (mut best, mut best_value, mut ties) = (self.scratch[0], f64::NEG_INFINITY, 0u32);
        for k in 0..self.scratch.len() {
            let mv = self.scratch[k];
            let value = match self.spec.policy {
                Policy::Mast => self.mast[state.move_index(mv)][mover.index()]
                    .mean()
                    .unwrap_or(0.0),
                _ => {
                    let probe = Self::after(&mut self.probe, state, mv);
                    match probe.outcome() {
                        Some(Outcome::Win(p)) if p == mover => f64::INFINITY,
                        _ => self.eval.evaluate(probe, mover),
                    }
                }
            };
            // The best value; among equals, each equally likely (reservoir sampling).
            if value > best_value {
                (best, best_value, ties) = (mv, value, 1);
            } else if value == best_value {
                ties += 1;
                if self.rng.random_range(0..ties) == 0 {
                    best = mv;
                }
            }
        }
        best
    }

    /// A move that wins at once for `mover`, else one that takes the cell of an opponent's
    /// win at once (where the game can tell), else `None`.
    fn decisive_move(&mut self, state: &G, mover: Player) -> Option<G::Move> {
        state.legal_moves(&mut self.scratch);
        Self::decisive_in(&mut self.probe, state, mover, &self.scratch).map(|t| match t {
            Threat::Win(k) | Threat::Block(k) | Threat::Double(k) => self.scratch[k],
        })
    }

    /// RAVE: credits the AMAF statistics of the children of every path node whose move their
    /// mover played at or after that node's depth in the line (see the module docs).
    fn credit_amaf(&mut self, rewards: [f64; 2]) {
        let root = self.root.as_ref().expect("a search has a root");
        if self.last_played.is_empty() {
            self.last_played = vec![[0; 2]; root.move_index_count()];
        }
        for (i, step) in self.line.iter().enumerate() {
            self.last_played[step.index as usize][step.mover as usize] = i as u32 + 1;
        }
        for (depth, &node) in self.path.iter().enumerate() {
            let n = self.nodes[node as usize];
            if n.first_child == UNEXPANDED {
                continue;
            }
            let (first, children) = (n.first_child as usize, n.children as usize);
            // Siblings share their mover: the player to move at `node`.
            let mover = self.nodes[first].mover_into as usize;
            // Slices taken once: the loop runs over every child of every path node.
            let moves = &self.moves[first - 1..first - 1 + children];
            let amaf = &mut self.amaf[first..first + children];
            for (a, &mv) in amaf.iter_mut().zip(moves) {
                if self.last_played[root.move_index(mv)][mover] as usize > depth {
                    a.add(rewards[mover]);
                }
            }
        }
        for step in &self.line {
            self.last_played[step.index as usize] = [0; 2];
        }
    }

    /// The root child to play (see the crate docs) and its mean reward. With helper trees
    /// (root parallelism) each child's visits and rewards are summed over all trees, and a
    /// child proven lost in any tree counts as lost.
    fn best_child(&self) -> (usize, Option<f64>) {
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
        let node = |t: &Mcts<G>, i: usize| t.nodes[t.nodes[0].first_child as usize + i - first];
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
        // then the first listed.
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

    /// Searches `state` until `budget` iterations (if any) or `deadline` (if any), or until
    /// the root is proven; returns the iterations run.
    fn search(&mut self, state: &G, budget: Option<u64>, deadline: Option<Instant>) -> u64 {
        self.reroot(state);
        self.wins = [LengthStats::default(); 2];
        self.deepest = 0;
        if self.spec.policy == Policy::Mast {
            if self.mast.is_empty() {
                self.mast = vec![[Amaf::default(); 2]; state.move_index_count()];
            }
            // Older positions count half as much at each new move.
            for a in self.mast.iter_mut().flatten() {
                a.visits /= 2;
                a.reward /= 2.0;
            }
        }
        let mut iterations = 0;
        // At least one iteration, so the root is expanded.
        loop {
            self.iterate();
            iterations += 1;
            let solved = self.spec.solver && self.nodes[0].proven != UNPROVEN;
            if solved || budget.is_some_and(|n| iterations >= n) {
                break;
            }
            if iterations % 16 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        iterations
    }

    /// Root parallelism: this tree and `threads - 1` helpers search the same position at
    /// once, sharing the iteration budget (tree `i` of `t` runs `⌊n/t⌋`, one more for the
    /// first `n mod t`); returns the iterations of all trees.
    fn search_in_parallel(&mut self, state: &G, deadline: Option<Instant>) -> u64 {
        let threads = self.spec.threads as usize;
        while self.helpers.len() + 1 < threads {
            let mut spec = self.spec.clone();
            spec.threads = 1;
            let seed = self.rng.random::<u64>();
            let rng = seeded_rng(seed, self.helpers.len() as u64);
            self.helpers.push(Mcts::new(spec, self.eval.clone(), rng));
        }
        let total = self.spec.iterations;
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
}

impl<G: Game + Features> Agent<G> for Mcts<G> {
    fn choose(&mut self, state: &G) -> Decision<G::Move> {
        let started = Instant::now();
        assert!(
            state.outcome().is_none(),
            "choose needs a game that is not over"
        );
        let deadline = self.spec.time.map(|t| started + t);
        let iterations = if self.spec.threads > 1 {
            self.search_in_parallel(state, deadline)
        } else {
            self.search(state, self.spec.iterations, deadline)
        };
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
        let (child, value) = self.best_child();
        self.last_choice = Some(child as u32);
        let offset = child - self.nodes[0].first_child as usize;
        for h in &mut self.helpers {
            h.last_choice = (h.nodes[0].first_child != UNEXPANDED)
                .then(|| h.nodes[0].first_child + offset as u32);
        }
        Decision {
            mv: self.moves[child - 1],
            stats: SearchStats {
                nodes: self.nodes.len() as u64
                    + self
                        .helpers
                        .iter()
                        .map(|h| h.nodes.len() as u64)
                        .sum::<u64>(),
                iterations,
                depth: self.deepest,
                time: started.elapsed(),
                value,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ringside_engine::games::havannah::{Cell, Havannah};
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
                let index = start.move_index(m.moves[c - 1]) as u32;
                m.line.iter().any(|s| s.index == index && s.mover == mover)
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
        let whites = m.line.iter().filter(|s| s.mover != mover).count();
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

    fn havannah_agent(text: &str) -> Mcts<Havannah> {
        let start = Havannah::new(4, false).unwrap();
        let crate::AgentSpec::Mcts(spec) = crate::AgentSpec::parse(text).unwrap() else {
            unreachable!()
        };
        let eval = Evaluator::new(&spec.eval, &start).unwrap();
        Mcts::new(spec, eval, ringside_engine::seeded_rng(5, 0))
    }

    /// The agent of `text` after one iteration from `h`.
    fn one_iteration(text: &str, h: &Havannah) -> Mcts<Havannah> {
        let mut m = havannah_agent(text);
        m.root = Some(h.clone());
        m.reset();
        m.iterate();
        m
    }

    /// Size 4: White a1 b1 c1 along the top edge (d1, a corner, would join a1's corner to
    /// it: a bridge), Black d4 e5 far away. Black to move must block d1; White to move wins
    /// there.
    fn bridge_threat(white_to_move: bool) -> Havannah {
        let mut h = Havannah::new(4, false).unwrap();
        let moves = if white_to_move {
            "a1 d4 b1 e5 c1 c4"
        } else {
            "a1 d4 b1 e5 c1"
        };
        for m in moves.split_whitespace() {
            h.play(h.parse_move(m).unwrap());
        }
        h
    }

    #[test]
    fn decisive_playout_moves_take_the_win_in_one_and_block_the_opponents() {
        let mut m = havannah_agent("mcts:iters=10,decisive=on");
        for (white_to_move, why) in [(true, "the win"), (false, "the block")] {
            let h = bridge_threat(white_to_move);
            let mover = h.to_move().unwrap();
            let found = m.decisive_move(&h, mover).map(|mv| h.move_text(mv));
            assert_eq!(found.as_deref(), Some("d1"), "{why}");
        }
        // With no threat on the board there is no decisive move.
        let quiet = Havannah::new(4, false).unwrap();
        assert_eq!(m.decisive_move(&quiet, Player::ZERO), None);
        // A playout from the threat ends with White's bridge or Black's block on d1.
        for white_to_move in [true, false] {
            let h = bridge_threat(white_to_move);
            let mut state = h.clone();
            m.playout_move(&state, state.to_move().unwrap());
            let mv = m.playout_move(&state, state.to_move().unwrap());
            state.play(mv);
            assert_eq!(h.move_text(mv), "d1");
        }
    }

    #[test]
    fn decisive_tree_expansion_proves_the_win_and_the_forced_block_in_one_iteration() {
        for (white_to_move, why) in [(true, "the win"), (false, "the block")] {
            let h = bridge_threat(white_to_move);
            let mut on = havannah_agent("mcts:iters=1,decisive=tree");
            assert_eq!(h.move_text(on.choose(&h).mv), "d1", "{why}");
            let n = on.nodes[0];
            let proven = (n.first_child..n.first_child + u32::from(n.children))
                .filter(|&c| on.nodes[c as usize].proven != UNPROVEN)
                .count();
            if white_to_move {
                assert_eq!(on.root_proof().map(|p| p.0), Some(Some(Player::ZERO)));
            } else {
                assert_eq!(proven, n.children as usize - 1, "all but the block lose");
            }
        }
        // Without the option one iteration proves nothing.
        let h = bridge_threat(false);
        let mut off = havannah_agent("mcts:iters=1");
        off.choose(&h);
        assert!(off.nodes.iter().all(|n| n.proven == UNPROVEN));
    }

    #[test]
    fn decisive_tree_expansion_proves_a_double_threat_lost() {
        // Size 4: White's a1 b1 c1 a2 a3 would join corner a1 to corner d1 or to corner a4:
        // two bridges to make, one Black stone to stop them.
        let mut h = Havannah::new(4, false).unwrap();
        for m in "a1 d4 b1 e5 c1 e4 a2 f5 a3".split_whitespace() {
            h.play(h.parse_move(m).unwrap());
        }
        let black = h.to_move().unwrap();
        let threats = ["d1", "a4"].map(|t| h.wins_at_once(black.other(), h.parse_move(t).unwrap()));
        assert_eq!(threats, [Some(true), Some(true)]);
        let mut m = one_iteration("mcts:iters=1,decisive=tree", &h);
        let n = m.nodes[0];
        let first = n.first_child as usize;
        for c in first..first + n.children as usize {
            assert_eq!(m.nodes[c].proven, black.other().index() as u8, "child {c}");
            assert_eq!(m.nodes[c].proven_distance, 1);
        }
        // The playout policy still blocks one of them (the first it meets).
        let blocked = m.decisive_move(&h, black).map(|mv| h.move_text(mv));
        assert!(
            matches!(blocked.as_deref(), Some("d1" | "a4")),
            "{blocked:?}"
        );
        // With a single threat the block is spared (the bridge_threat position).
        let single = bridge_threat(false);
        let m = one_iteration("mcts:iters=1,decisive=tree", &single);
        let n = m.nodes[0];
        let first = n.first_child as usize;
        let unproven: Vec<String> = (first..first + n.children as usize)
            .filter(|&c| m.nodes[c].proven == UNPROVEN)
            .map(|c| single.move_text(m.moves[c - 1]))
            .collect();
        assert_eq!(unproven, ["d1"]);
    }

    #[test]
    fn progressive_bias_priors_rank_a_winning_move_first() {
        let h = bridge_threat(true);
        let mut m = havannah_agent("mcts:iters=1,bias=1,eval=rich");
        m.choose(&h);
        let n = m.nodes[0];
        let first = n.first_child as usize;
        let best = (first..first + n.children as usize)
            .max_by(|&a, &b| m.prior[a].total_cmp(&m.prior[b]))
            .unwrap();
        assert_eq!(h.move_text(m.moves[best - 1]), "d1");
        assert_eq!(m.prior[best], 1.0);
        assert_eq!(m.prior.len(), m.nodes.len());
    }

    #[test]
    fn rave_schedules_weigh_amaf_by_their_formulas() {
        // An empty size-4 board (37 moves) with every root child visited 30 times. A has
        // Q = 0.4 and AMAF 0; B has Q = 0 and AMAF 1; the others lose every playout. With
        // c = 0, B wins exactly when β > 0.4 / 1.4 = 0.286:
        // - sqrt, K = 10: β = √(10 / (90 + 10)) = 0.316 → B;
        // - hyp, K = 10: β = 10 / (10 + 30) = 0.25 → A;
        // - hyp, K = 10 + 1 × 37 moves = 47: β = 47 / 77 = 0.61 → B.
        let h = Havannah::new(4, false).unwrap();
        for (options, picks_b) in [
            ("rave=10", true),
            ("rave=10,rave_form=hyp", false),
            ("rave=10,rave_form=hyp,rave_grow=1", true),
        ] {
            let mut m = havannah_agent(&format!("mcts:iters=1,c=0,{options}"));
            m.root = Some(h.clone());
            m.reset();
            assert!(m.expand(0, &h));
            let first = m.nodes[0].first_child as usize;
            assert_eq!(m.nodes[0].children, 37);
            for c in first..first + 37 {
                let (q, amaf) = match c - first {
                    0 => (0.4, 0.0),
                    1 => (0.0, 1.0),
                    _ => (-1.0, -1.0),
                };
                m.nodes[c].visits = 30;
                m.nodes[c].reward = 30.0 * q;
                m.amaf[c] = Amaf {
                    reward: 30.0 * amaf,
                    visits: 30,
                };
            }
            let expected = if picks_b { first + 1 } else { first };
            assert_eq!(m.select(0), expected, "{options}");
        }
    }

    #[test]
    fn move_knowledge_is_kept_per_child_and_steers_the_first_visits() {
        // White b2 and c4 are linked through b3 and c3; Black intrudes on b3. White's c3
        // answers (0.5), a1 b1 and the other edge cells touch an edge or a corner (0.4).
        let mut h = Havannah::new(4, false).unwrap();
        for m in "b2 g7 c4 b3".split_whitespace() {
            h.play(h.parse_move(m).unwrap());
        }
        let mut m = one_iteration("mcts:iters=1,fpu=0,know=1", &h);
        let first = m.nodes[0].first_child as usize;
        for c in first..first + m.nodes[0].children as usize {
            assert_eq!(m.know[c], h.move_knowledge(m.moves[c - 1]) as f32);
        }
        assert_eq!(h.move_text(m.moves[m.path[1] as usize - 1]), "c3");
        // The term fades: full at one visit, a tenth at 100, nothing from 1,000.
        assert_eq!(m.knowledge(m.path[1] as usize, 1), 0.5);
        assert!((m.knowledge(m.path[1] as usize, 100) - 0.05).abs() < 1e-9);
        assert_eq!(m.knowledge(m.path[1] as usize, 1_000), 0.0);
        // Kept beside the nodes through tree reuse.
        let d = m.choose(&h);
        h.play(d.mv);
        m.reroot(&h);
        assert_eq!(m.know.len(), m.nodes.len());
        // With the other options on, the win in one is still found and proven.
        let threat = bridge_threat(true);
        let mut strong = havannah_agent("mcts:iters=500,preset=strong,fpu=1");
        assert_eq!(threat.move_text(strong.choose(&threat).mv), "d1");
        assert_eq!(strong.root_proof(), Some((Some(Player::ZERO), 1)));
        // Off, nothing is stored.
        let mut off = havannah_agent("mcts:iters=5");
        off.choose(&h);
        assert!(off.know.is_empty());
    }

    /// Havannah 4's cell `text` and its move index.
    fn cell_at(h: &Havannah, text: &str) -> (Cell, usize) {
        let c = h.parse_move(text).unwrap();
        (c, h.move_index(c))
    }

    #[test]
    fn last_good_reply_keeps_the_winners_replies_and_forgets_the_losers() {
        let h = Havannah::new(4, false).unwrap();
        let (a1, b1, c1, e5) = (
            cell_at(&h, "a1"),
            cell_at(&h, "b1"),
            cell_at(&h, "c1"),
            cell_at(&h, "e5"),
        );
        for (text, forgets) in [
            ("mcts:iters=1,reply=lgr", false),
            ("mcts:iters=1,reply=lgrf", true),
        ] {
            let mut m = havannah_agent(text);
            m.root = Some(h.clone());
            // The line White a1, Black b1, White c1, Black d1; White won.
            let d1 = cell_at(&h, "d1");
            m.line = [a1, b1, c1, d1]
                .iter()
                .enumerate()
                .map(|(i, &(mv, index))| Step {
                    index: index as u32,
                    mover: (i % 2) as u8,
                    mv,
                })
                .collect();
            // Black's replies from earlier iterations: b1 to a1 (the loser's move here), and
            // e5 to c1 (not this line's d1).
            m.replies = vec![[None; 2]; h.move_index_count()];
            m.replies[a1.1][1] = Some(b1.0);
            m.replies[c1.1][1] = Some(e5.0);
            m.learn_replies([1.0, -1.0]);
            assert_eq!(m.replies[b1.1][0], Some(c1.0), "{text}: the winner's reply");
            let kept = if forgets { None } else { Some(b1.0) };
            assert_eq!(m.replies[a1.1][1], kept, "{text}: the loser's reply");
            assert_eq!(
                m.replies[c1.1][1],
                Some(e5.0),
                "{text}: another reply stays"
            );
            let stored = || m.replies.iter().flatten().filter(|r| r.is_some()).count();
            assert_eq!(stored(), if forgets { 2 } else { 3 }, "{text}");
            // A draw teaches nothing.
            let before = m.replies.clone();
            m.learn_replies([0.0, 0.0]);
            assert_eq!(m.replies, before, "{text}");
        }

        // A search fills the table from its iterations' winners.
        let mut m = havannah_agent("mcts:iters=200,reply=lgrf");
        m.choose(&h);
        let stored = m.replies.iter().flatten().filter(|r| r.is_some()).count();
        assert!(stored > 20, "{stored}");
    }

    #[test]
    fn playouts_play_the_stored_reply_and_the_games_link_saving_reply() {
        // White played e5; Black's stored reply to it is d4, played while it is legal.
        let mut h = Havannah::new(4, false).unwrap();
        let ((e5, e5_index), (d4, _)) = (cell_at(&h, "e5"), cell_at(&h, "d4"));
        h.play(e5);
        let mut m = havannah_agent("mcts:iters=1,reply=lgr");
        m.line = vec![Step {
            index: e5_index as u32,
            mover: 0,
            mv: e5,
        }];
        m.replies = vec![[None; 2]; h.move_index_count()];
        m.replies[e5_index][1] = Some(d4);
        for _ in 0..5 {
            assert_eq!(m.playout_move(&h, Player::ONE), d4);
        }
        // White's table is not Black's.
        assert_ne!(m.replies[e5_index][0], Some(d4));
        // A stored reply on a taken cell gives way to the policy's random move.
        m.replies[e5_index][1] = Some(e5);
        let random: std::collections::BTreeSet<_> =
            (0..20).map(|_| m.playout_move(&h, Player::ONE)).collect();
        assert!(!random.contains(&e5) && random.len() > 5, "{random:?}");

        // `pattern=on`: Black intruded on b3 between White's b2 and c4; White saves the link
        // on c3 in every playout, and without the option the move is random.
        let mut h = Havannah::new(4, false).unwrap();
        for t in "b2 g7 c4 b3".split_whitespace() {
            h.play(h.parse_move(t).unwrap());
        }
        let c3 = h.parse_move("c3").unwrap();
        let mut p = havannah_agent("mcts:iters=1,pattern=on");
        for _ in 0..6 {
            assert_eq!(p.playout_move(&h, Player::ZERO), c3);
        }
        let mut plain = havannah_agent("mcts:iters=1");
        let moves: std::collections::BTreeSet<_> = (0..20)
            .map(|_| plain.playout_move(&h, Player::ZERO))
            .collect();
        assert!(moves.len() > 5, "{moves:?}");
    }

    #[test]
    fn final_choice_plays_the_most_visits_or_the_most_wins() {
        let h = Havannah::new(4, false).unwrap();
        for (text, pick) in [("mcts:iters=1", 0), ("mcts:iters=1,final=wins", 1)] {
            let mut m = one_iteration(text, &h);
            let first = m.nodes[0].first_child as usize;
            for c in first..first + m.nodes[0].children as usize {
                (m.nodes[c].visits, m.nodes[c].reward) = (0, 0.0);
            }
            // 100 visits at mean 0: 50 wins. 90 visits at mean 0.2: 54 wins.
            (m.nodes[first].visits, m.nodes[first].reward) = (100, 0.0);
            (m.nodes[first + 1].visits, m.nodes[first + 1].reward) = (90, 18.0);
            assert_eq!(m.best_child().0, first + pick, "{text}");
            // Equal wins (50 each: 100 at 0, 80 at 0.25): the more visited child.
            (m.nodes[first + 1].visits, m.nodes[first + 1].reward) = (80, 20.0);
            assert_eq!(m.best_child().0, first, "{text}");
        }
    }

    #[test]
    fn mast_learns_move_averages_and_root_parallelism_repeats_itself() {
        // One iteration: every move of its line is credited once, with its mover's reward.
        let h = bridge_threat(false);
        let mut m = havannah_agent("mcts:iters=1,policy=mast,epsilon=0.5");
        m.choose(&h);
        let line = m.line.clone();
        assert!(line.len() > 5, "{line:?}");
        let winner = m.nodes[m.path[1] as usize].reward;
        for (index, row) in m.mast.iter().enumerate() {
            for (player, a) in row.iter().enumerate() {
                let played = line
                    .iter()
                    .any(|s| s.index == index as u32 && s.mover == player as u8);
                assert_eq!(a.visits, u32::from(played), "{index} {player}");
                if played {
                    // Black moved first here (path[1] is Black's move).
                    let sign = if player == 1 { 1.0 } else { -1.0 };
                    assert_eq!(f64::from(a.reward), sign * winner);
                }
            }
        }
        // The next search halves what the last one learnt (visits round down).
        let before: f32 = m.mast.iter().flatten().map(|a| a.reward.abs()).sum();
        m.spec.iterations = Some(1);
        m.search(&h, Some(1), None);
        let seen: u32 = m.mast.iter().flatten().map(|a| a.visits).sum();
        assert!(
            seen <= m.line.len() as u32,
            "old visits halved to 0: {seen}"
        );
        let after: f32 = m.mast.iter().flatten().map(|a| a.reward.abs()).sum();
        assert!(after < before + m.line.len() as f32);

        let run = || {
            let mut p = havannah_agent("mcts:iters=400,threads=3,rave=300");
            let d = p.choose(&h);
            (d.mv, d.stats.value, d.stats.iterations, p.helpers.len())
        };
        let (a, b) = (run(), run());
        assert_eq!(a, b);
        assert_eq!((a.2, a.3), (400, 2), "the budget is shared by three trees");
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
