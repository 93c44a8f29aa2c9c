//! Alpha-beta search: negamax with iterative deepening, a transposition table and move
//! ordering (table move, then killers, then history).
//!
//! Values are from the view of the player to move at each node. A child's value is negated
//! only when the side to move changed between parent and child, so Rin's double moves and
//! passes are searched correctly. A finished child is valued from the parent's mover's view.

use std::hash::{Hash, Hasher};
use std::time::Instant;

use crate::clock::Clock;

use rand::seq::{IndexedRandom, SliceRandom};
use ringside_engine::{Features, Game, GameRng, Outcome, Player};

use crate::eval::Evaluator;
use crate::spec::{AlphaBetaSpec, Scoring};
use crate::{Agent, Decision, SearchStats};

/// The value of a win at the root (see the crate docs).
pub const WIN: i32 = 1_000_000;
/// Evaluations are clamped to ±this, strictly inside the band of forced results.
pub const EVAL_LIMIT: i32 = WIN / 2;
/// Evaluation units per material unit (one stone is worth 100).
pub const EVAL_SCALE: f64 = 100.0;
const INF: i32 = WIN + 1;
/// Values this close to ±WIN are forced results whose distance is adjusted in the table.
const RESULT_BAND: i32 = WIN / 4;
const HISTORY_SIZE: usize = 4096;
// Clamped evaluations, even shifted by the deepest ply, stay below the band where the table
// adjusts distances, and so below any win.
const _: () = assert!(EVAL_LIMIT + u8::MAX as i32 <= WIN - RESULT_BAND);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Debug, Clone, Copy)]
struct Entry<M> {
    key: u64,
    value: i32,
    depth: u8,
    bound: Bound,
    mv: Option<M>,
}

/// The alpha-beta agent.
#[derive(Debug)]
pub struct AlphaBeta<G: Game> {
    spec: AlphaBetaSpec,
    eval: Evaluator,
    table: Vec<Option<Entry<G::Move>>>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    /// Ordered moves of each ply, reused between nodes.
    ordered: Vec<Vec<(i32, usize, G::Move)>>,
    scratch: Vec<G::Move>,
    nodes: u64,
    clock: Clock,
    enforce_budget: bool,
    stopped: bool,
    root_move: Option<G::Move>,
    /// The value of `root_move`.
    root_value: i32,
    /// With `ties=random`: shuffles the root's moves.
    rng: Option<GameRng>,
}

/// A small, fixed hasher for the history table's move slots.
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517C_C1B7_2722_0A95);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

fn history_slot<M: Hash>(mv: &M) -> usize {
    let mut h = MoveHasher(0);
    mv.hash(&mut h);
    (h.finish() >> 20) as usize % HISTORY_SIZE
}

impl<G: Game + Features> AlphaBeta<G> {
    /// An alpha-beta agent with these settings and this evaluation. The table is allocated on
    /// the first search, so building is cheap.
    #[must_use]
    pub fn new(spec: AlphaBetaSpec, eval: Evaluator) -> Self {
        AlphaBeta {
            spec,
            eval,
            table: Vec::new(),
            killers: Vec::new(),
            history: Vec::new(),
            ordered: Vec::new(),
            scratch: Vec::new(),
            nodes: 0,
            clock: Clock::unlimited(),
            enforce_budget: false,
            stopped: false,
            root_move: None,
            root_value: 0,
            rng: None,
        }
    }

    /// Gives the agent its generator, used only with `ties=random`.
    #[must_use]
    pub fn seeded(mut self, rng: GameRng) -> Self {
        self.rng = Some(rng);
        self
    }

    /// Searches `state` by iterative deepening within the budget and returns the best move of
    /// the deepest finished iteration, its value for the mover, and that depth.
    pub fn analyse(&mut self, state: &G) -> (Option<G::Move>, i32, u32) {
        let started = Instant::now();
        if self.table.is_empty() {
            self.table = vec![None; 1 << self.spec.tt_bits];
            self.history = vec![0; HISTORY_SIZE];
        }
        let max_depth = self.spec.depth as usize;
        if self.killers.len() < max_depth + 2 {
            self.killers.resize(max_depth + 2, [None, None]);
            self.ordered.resize_with(max_depth + 2, Vec::new);
        }
        self.nodes = 0;
        self.stopped = false;
        self.clock = Clock::new(started, self.spec.time);
        let me = state
            .to_move()
            .expect("analyse needs a game that is not over");
        let mut best = (None, 0, 0);
        for depth in 1..=self.spec.depth {
            // A node budget lets the first iteration finish, so there is always a move; a time
            // budget stops it once a root move is searched, and that move (the best of those
            // searched) is played: a costly evaluation must not carry a move past its time.
            self.enforce_budget = depth > 1;
            self.root_move = None;
            let value = self.negamax(state, depth, 0, -INF, INF, me);
            if self.stopped {
                if depth == 1 {
                    best = (self.root_move, self.root_value, 1);
                }
                break;
            }
            best = (self.root_move, value, depth);
        }
        best
    }

    /// Searches `state` as [`AlphaBeta::analyse`] does and returns the leaf of the principal
    /// variation (the best moves read back from the transposition table, from the root down
    /// to the searched depth or an end of game) with the root's value for the player to move.
    /// Texel tuning fits the evaluation on such leaves: a static evaluation judges them, where
    /// a position with a capture or a threat pending would mislead it. At depth 1 the leaf is
    /// the position after the best move and its evaluation is the value.
    pub fn principal_leaf(&mut self, state: &G) -> (G, i32) {
        let (_, value, depth) = self.analyse(state);
        let mut leaf = state.clone();
        for _ in 0..depth {
            if leaf.outcome().is_some() {
                break;
            }
            let key = leaf.hash();
            let slot = key as usize & (self.table.len() - 1);
            match self.table[slot].filter(|e| e.key == key).and_then(|e| e.mv) {
                Some(mv) => leaf.play_unchecked(mv),
                None => break,
            }
        }
        (leaf, value)
    }

    /// With `near=margin`: a move drawn from the seed among `best` and the root moves whose
    /// value at `depth` is at least `value − margin` (in evaluation units), each tested by a
    /// null-window search of `depth` (a fail-high at the threshold proves the move close
    /// enough). The tests share the move's `nodes=`/`time_ms=` budget with the search: they
    /// are tried in the move list's order, a budget that runs out stops them, and the moves
    /// found so far are the choice (only the best, where the budget already ended the
    /// search's last iteration).
    fn near_best(
        &mut self,
        state: &G,
        best: G::Move,
        value: i32,
        depth: u32,
        margin: f64,
    ) -> G::Move {
        let me = state.to_move().expect("a live position");
        let threshold = value.saturating_sub((margin * EVAL_SCALE).round() as i32);
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let mut near = vec![best];
        self.enforce_budget = true;
        for mv in moves.into_iter().filter(|&m| m != best) {
            let mut child = state.clone();
            child.play_unchecked(mv);
            let v = self.child_value(&child, depth - 1, 1, (threshold - 1, threshold), me);
            if self.stopped {
                break;
            }
            if v >= threshold {
                near.push(mv);
            }
        }
        match self.rng.as_mut() {
            Some(rng) => *near.choose(rng).expect("the best move is among them"),
            None => best,
        }
    }

    /// A child's value from the view of `me`, the parent's mover, searched `depth` more in the
    /// parent's window: negated only when the side to move changed (a finished child keeps
    /// `me`, and [`AlphaBeta::negamax`] values it as the end of the game).
    #[inline]
    fn child_value(
        &mut self,
        child: &G,
        depth: u32,
        ply: u32,
        (alpha, beta): (i32, i32),
        me: Player,
    ) -> i32 {
        let child_me = child.to_move().unwrap_or(me);
        if child_me == me {
            self.negamax(child, depth, ply, alpha, beta, me)
        } else {
            -self.negamax(child, depth, ply, -beta, -alpha, child_me)
        }
    }

    /// The node budget, read at inner nodes (where it always was, so that a `nodes=` search
    /// plays as it did).
    fn out_of_budget(&mut self) -> bool {
        if !self.enforce_budget {
            return false;
        }
        if self.spec.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The time budget, read at every node, leaves too: an evaluation may be the costly part
    /// of a search. In the first iteration only once a root move is searched.
    #[inline]
    fn out_of_time(&mut self) -> bool {
        if !self.stopped
            && (self.enforce_budget || self.root_move.is_some())
            && self.clock.expired()
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn result_value(&self, outcome: Outcome, me: Player, ply: u32) -> i32 {
        let win = match self.spec.score {
            Scoring::Win => WIN,
            Scoring::Moves => WIN - ply as i32,
        };
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(p) if p == me => win,
            Outcome::Win(_) => -win,
        }
    }

    /// The evaluation for `me`, in search units, clamped inside the band of results.
    fn static_value(&self, state: &G, me: Player) -> i32 {
        let v = (self.eval.evaluate(state, me) * EVAL_SCALE).round();
        v.clamp(-f64::from(EVAL_LIMIT), f64::from(EVAL_LIMIT)) as i32
    }

    /// Forced results are stored relative to the node, so a transposition at another ply
    /// reads the right distance.
    fn table_value(&self, v: i32, ply: u32) -> i32 {
        match self.spec.score {
            Scoring::Moves if v > WIN - RESULT_BAND => v + ply as i32,
            Scoring::Moves if v < -(WIN - RESULT_BAND) => v - ply as i32,
            _ => v,
        }
    }

    /// A move that cut off at `ply` with `depth` to go (and was not the table's move): it
    /// becomes the ply's first killer, and its history grows by `depth²`, capped at 2²⁷.
    fn note_cutoff(&mut self, ply: usize, mv: G::Move, depth: u32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let h = &mut self.history[history_slot(&mv)];
        *h = (*h + (depth * depth) as i32).min(1 << 27);
    }

    fn read_table_value(&self, v: i32, ply: u32) -> i32 {
        match self.spec.score {
            Scoring::Moves if v > WIN - RESULT_BAND => v - ply as i32,
            Scoring::Moves if v < -(WIN - RESULT_BAND) => v + ply as i32,
            _ => v,
        }
    }

    fn negamax(
        &mut self,
        state: &G,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        me: Player,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        if let Some(outcome) = state.outcome() {
            return self.result_value(outcome, me, ply);
        }
        if depth == 0 {
            return self.static_value(state, me);
        }
        if self.out_of_budget() {
            return 0;
        }
        let key = state.hash();
        let slot = key as usize & (self.table.len() - 1);
        let mut table_move = None;
        if let Some(e) = self.table[slot].filter(|e| e.key == key) {
            table_move = e.mv;
            // Only an entry of exactly this depth is used for its value: the search then
            // returns the fixed-depth minimax value, as its tests require.
            if e.depth as u32 == depth && ply > 0 {
                let v = self.read_table_value(e.value, ply);
                match e.bound {
                    Bound::Exact => return v,
                    Bound::Lower if v >= beta => return v,
                    Bound::Upper if v <= alpha => return v,
                    _ => {}
                }
            }
        }

        let p = ply as usize;
        let mut ordered = std::mem::take(&mut self.ordered[p]);
        state.legal_moves(&mut self.scratch);
        if ply == 0
            && self.spec.random_ties
            && let Some(rng) = self.rng.as_mut()
        {
            // The place in the list breaks ties of the ordering and, through the strict `>`
            // below, of equal values: shuffled, both fall at random.
            self.scratch.shuffle(rng);
        }
        ordered.clear();
        let killers = self.killers[p];
        for (i, &mv) in self.scratch.iter().enumerate() {
            let score = if Some(mv) == table_move {
                1 << 30
            } else if Some(mv) == killers[0] {
                1 << 29
            } else if Some(mv) == killers[1] {
                1 << 28
            } else {
                self.history[history_slot(&mv)]
            };
            ordered.push((score, i, mv));
        }
        ordered.sort_unstable_by_key(|&(score, i, _)| (std::cmp::Reverse(score), i));

        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for &(_, _, mv) in &ordered {
            let mut child = state.clone();
            child.play_unchecked(mv);
            let v = self.child_value(&child, depth - 1, ply + 1, (alpha, beta), me);
            if self.stopped {
                self.ordered[p] = ordered;
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if ply == 0 {
                    self.root_move = Some(mv);
                    self.root_value = v;
                }
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                if Some(mv) != table_move {
                    self.note_cutoff(p, mv, depth);
                }
                break;
            }
        }
        self.ordered[p] = ordered;
        let bound = if best <= original_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Some(Entry {
            key,
            value: self.table_value(best, ply),
            depth: depth as u8,
            bound,
            mv: best_move,
        });
        best
    }
}

impl<G: Game + Features> Agent<G> for AlphaBeta<G> {
    fn choose(&mut self, state: &G) -> Decision<G::Move> {
        let started = Instant::now();
        let (mv, value, depth) = self.analyse(state);
        let mut mv = mv.expect("a live position has a move and depth 1 searches one at least");
        if let Some(margin) = self.spec.near
            && self.spec.near_plies.is_none_or(|n| state.ply() < n)
        {
            mv = self.near_best(state, mv, value, depth, margin);
        }
        Decision {
            mv,
            stats: SearchStats {
                nodes: self.nodes,
                iterations: 0,
                depth,
                time: started.elapsed(),
                value: Some(f64::from(value)),
                exact: false,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AgentSpec;
    use ringside_engine::games::hexxagon::Hexxagon;
    use ringside_engine::games::rin::Rin;

    #[test]
    fn random_ties_give_distinct_self_play_from_the_seed_and_first_ties_one_game() {
        use ringside_engine::games::tic_tac_toe::TicTacToe;
        // Tic-tac-toe after X takes the centre: O's four corners are alike by symmetry, so
        // depth 3 values them alike; with ties=random the seed chooses among them.
        let mut start = TicTacToe::default();
        start.play(start.parse_move("b2").unwrap());
        let opening = |text: &str, seed: u64| {
            let spec = AgentSpec::parse(text).unwrap();
            let mut agent = spec.build(&start, seed).unwrap();
            agent.choose(&start).mv
        };
        let first: std::collections::HashSet<_> = (0..20)
            .map(|s| opening("alphabeta:depth=3,eval=rich", s))
            .collect();
        assert_eq!(
            first.len(),
            1,
            "without ties=random the seed changes nothing"
        );
        let random: std::collections::HashSet<_> = (0..20)
            .map(|s| opening("alphabeta:depth=3,eval=rich,ties=random", s))
            .collect();
        assert!(random.len() >= 2, "{random:?}");
        assert_eq!(
            opening("alphabeta:depth=3,eval=rich,ties=random", 7),
            opening("alphabeta:depth=3,eval=rich,ties=random", 7),
            "the same seed, the same move"
        );
        // The value is the search's, whatever the tie-break.
        let value = |text: &str| {
            let spec = AgentSpec::parse(text).unwrap();
            spec.build(&start, 3).unwrap().choose(&start).stats.value
        };
        assert_eq!(
            value("alphabeta:depth=3,eval=rich"),
            value("alphabeta:depth=3,eval=rich,ties=random")
        );
    }

    #[test]
    fn near_best_moves_give_distinct_perfect_self_play_and_never_a_worse_move() {
        use ringside_engine::games::tic_tac_toe::TicTacToe;
        // At depth 9 every value is exact: near=0 draws among the moves that keep the draw,
        // so every game is a draw, and the seed makes them distinct.
        let play = |text: &str, seed: u64| {
            let spec = AgentSpec::parse(text).unwrap();
            let mut state = TicTacToe::default();
            let mut a = spec.build(&state, seed).unwrap();
            let mut b = spec.build(&state, seed ^ 0x55).unwrap();
            let mut moves = Vec::new();
            while state.outcome().is_none() {
                let agent = if state.ply() % 2 == 0 { &mut a } else { &mut b };
                let mv = agent.choose(&state).mv;
                moves.push(mv);
                state.play(mv);
            }
            (moves, state.outcome())
        };
        let games: Vec<_> = (0..40)
            .map(|s| play("alphabeta:depth=9,near=0", s))
            .collect();
        assert!(games.iter().all(|(_, o)| *o == Some(Outcome::Draw)));
        let distinct: std::collections::HashSet<_> = games.iter().map(|(m, _)| m).collect();
        assert!(distinct.len() >= 20, "{} distinct games", distinct.len());
        let plain: std::collections::HashSet<_> =
            (0..10).map(|s| play("alphabeta:depth=9", s).0).collect();
        assert_eq!(plain.len(), 1, "without near= the seed changes nothing");
        assert_eq!(
            play("alphabeta:depth=9,near=0", 3),
            games[3],
            "same seed, same game"
        );
        // Near the start only: after the first two plies, the best move as without near=.
        let two: std::collections::HashSet<_> = (0..40)
            .map(|s| play("alphabeta:depth=9,near=0,near_plies=2", s).0[2..].to_vec())
            .collect();
        assert!(two.len() < distinct.len());
        // Against a blunder: after X a1, O b1?? (a loss for O), X must keep its forced win.
        let mut state = TicTacToe::default();
        for m in ["a1", "b1"] {
            state.play(state.parse_move(m).unwrap());
        }
        for seed in 0..20 {
            let spec = AgentSpec::parse("alphabeta:depth=9,near=1").unwrap();
            let value = spec.build(&state, seed).unwrap().choose(&state).stats.value;
            let mv = spec.build(&state, seed).unwrap().choose(&state).mv;
            let mut after = state;
            after.play(mv);
            let mut exact = agent("alphabeta:depth=9", &after);
            let (_, v, _) = exact.analyse(&after);
            assert_eq!(value, Some(f64::from(WIN)));
            assert!(v <= -WIN + 10, "seed {seed}: the move keeps the win ({v})");
        }
    }

    fn agent<G: Game + Features>(text: &str, start: &G) -> AlphaBeta<G> {
        let AgentSpec::AlphaBeta(spec) = AgentSpec::parse(text).unwrap() else {
            panic!("{text} is alpha-beta")
        };
        let eval = Evaluator::new(&spec.eval, start).unwrap();
        AlphaBeta::new(spec, eval)
    }

    #[test]
    fn a_forced_result_is_stored_by_its_distance_from_the_node_and_read_at_any_ply() {
        let ab = agent("alphabeta:depth=3,score=moves", &Rin::default());
        // A win 7 plies from the root, found at ply 3: 4 plies from that node. Read back at
        // ply 5 (a transposition two plies deeper) it is 9 plies from the root.
        assert_eq!(ab.table_value(WIN - 7, 3), WIN - 4);
        assert_eq!(ab.read_table_value(WIN - 4, 5), WIN - 9);
        assert_eq!(ab.table_value(-(WIN - 7), 3), -(WIN - 4));
        assert_eq!(ab.read_table_value(-(WIN - 4), 5), -(WIN - 9));
        // The band's edge: one inside is a result, the edge itself is not.
        let inside = WIN - RESULT_BAND + 1;
        assert_eq!(ab.table_value(inside, 2), inside + 2);
        assert_eq!(ab.read_table_value(inside, 2), inside - 2);
        assert_eq!(ab.table_value(-inside, 2), -inside - 2);
        assert_eq!(ab.read_table_value(-inside, 2), -inside + 2);
        for v in [
            WIN - RESULT_BAND,
            -(WIN - RESULT_BAND),
            EVAL_LIMIT,
            -EVAL_LIMIT,
            0,
            123,
        ] {
            assert_eq!(ab.table_value(v, 4), v, "an evaluation is stored as it is");
            assert_eq!(ab.read_table_value(v, 4), v);
        }
        // Win-or-lose scoring has no distances: nothing moves.
        let plain = agent("alphabeta:depth=3", &Rin::default());
        for v in [WIN, WIN - 7, -(WIN - 7), 0] {
            assert_eq!(plain.table_value(v, 3), v);
            assert_eq!(plain.read_table_value(v, 3), v);
        }
    }

    #[test]
    fn no_evaluation_reads_as_a_forced_result() {
        // A clone puts Hexxagon's first mover a stone ahead: a trillion a stone is clamped.
        let mut state = Hexxagon::new(4).unwrap();
        let huge = agent("alphabeta:depth=1,w.material=1e12", &state);
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let clone = *moves
            .iter()
            .find(|&&mv| !state.move_text(mv).contains('-'))
            .unwrap();
        let mover = state.to_move().unwrap();
        state.play(clone);
        assert_eq!(huge.static_value(&state, mover), EVAL_LIMIT);
        assert_eq!(huge.static_value(&state, mover.other()), -EVAL_LIMIT);
    }

    /// A Rin position two random moves in, its mover, and a depth-2 agent with its tables
    /// allocated and empty.
    fn rin_node() -> (Rin, Player, AlphaBeta<Rin>) {
        let mut state = Rin::default();
        let mut rng = ringside_engine::seeded_rng(28, 1);
        for _ in 0..2 {
            let mv = state.random_move(&mut rng, &mut Vec::new()).unwrap();
            state.play_unchecked(mv);
        }
        let mut ab = agent("alphabeta:depth=2", &state);
        ab.analyse(&state);
        ab.table.fill(None);
        ab.history.fill(0);
        ab.killers.fill([None, None]);
        (state, state.to_move().unwrap(), ab)
    }

    /// The entry `state` would find in `ab`'s table.
    fn entry(ab: &AlphaBeta<Rin>, state: &Rin) -> Entry<<Rin as Game>::Move> {
        let key = state.hash();
        ab.table[key as usize & (ab.table.len() - 1)]
            .filter(|e| e.key == key)
            .expect("the node is in the table")
    }

    #[test]
    fn a_table_bound_settles_a_node_only_on_its_side_of_the_window() {
        let (state, me, mut ab) = rin_node();
        // The node's depth-1 value, searched with a full window, is exact.
        let exact = ab.negamax(&state, 1, 1, -INF, INF, me);
        assert_eq!(entry(&ab, &state).bound, Bound::Exact);
        assert_eq!(entry(&ab, &state).value, exact);
        let plant = |ab: &mut AlphaBeta<Rin>, value: i32, bound: Bound| {
            ab.table.fill(None);
            let key = state.hash();
            let slot = key as usize & (ab.table.len() - 1);
            ab.table[slot] = Some(Entry {
                key,
                value,
                depth: 1,
                bound,
                mv: None,
            });
            ab.nodes = 0;
        };
        // A lower bound at or above beta cuts off at once (one node); below beta it settles
        // nothing and the node is searched to its value.
        plant(&mut ab, exact - 50, Bound::Lower);
        assert_eq!(ab.negamax(&state, 1, 1, -INF, exact - 50, me), exact - 50);
        assert_eq!(ab.nodes, 1);
        plant(&mut ab, exact - 50, Bound::Lower);
        assert_eq!(ab.negamax(&state, 1, 1, -INF, INF, me), exact);
        assert!(ab.nodes > 1);
        // An upper bound at or below alpha fails low at once; above alpha it is searched.
        plant(&mut ab, exact + 50, Bound::Upper);
        assert_eq!(ab.negamax(&state, 1, 1, exact + 50, INF, me), exact + 50);
        assert_eq!(ab.nodes, 1);
        plant(&mut ab, exact + 50, Bound::Upper);
        assert_eq!(ab.negamax(&state, 1, 1, -INF, INF, me), exact);
        assert!(ab.nodes > 1);
        // An entry of another depth gives its value to no one.
        plant(&mut ab, exact + 50, Bound::Exact);
        assert_eq!(ab.negamax(&state, 2, 1, -INF, INF, me), {
            let (state, me, mut fresh) = rin_node();
            fresh.negamax(&state, 2, 1, -INF, INF, me)
        });
    }

    #[test]
    fn a_searched_node_is_stored_with_the_bound_its_window_allows() {
        let (state, me, mut ab) = rin_node();
        let exact = ab.negamax(&state, 1, 1, -INF, INF, me);
        // Failing low (every child at most alpha): the value is an upper bound.
        ab.table.fill(None);
        let low = ab.negamax(&state, 1, 1, exact + 10, exact + 20, me);
        assert!(low <= exact + 10);
        assert_eq!(entry(&ab, &state).bound, Bound::Upper);
        // Failing high (a child at least beta): a lower bound.
        ab.table.fill(None);
        let high = ab.negamax(&state, 1, 1, exact - 20, exact - 10, me);
        assert!(high >= exact - 10);
        assert_eq!(entry(&ab, &state).bound, Bound::Lower);
        // Inside the window: exact.
        ab.table.fill(None);
        ab.negamax(&state, 1, 1, exact - 1, exact + 1, me);
        assert_eq!(entry(&ab, &state).bound, Bound::Exact);
    }

    #[test]
    fn a_cutoff_makes_its_move_the_first_killer_and_adds_depth_squared_to_its_history() {
        let (state, _, mut ab) = rin_node();
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let (a, b) = (moves[0], moves[1]);
        ab.note_cutoff(3, a, 3);
        assert_eq!(ab.killers[3], [Some(a), None]);
        assert_eq!(ab.history[history_slot(&a)], 9);
        ab.note_cutoff(3, b, 2);
        assert_eq!(ab.killers[3], [Some(b), Some(a)]);
        assert_eq!(ab.history[history_slot(&b)], 4);
        // The same killer again is not doubled; its history keeps growing.
        ab.note_cutoff(3, b, 4);
        assert_eq!(ab.killers[3], [Some(b), Some(a)]);
        assert_eq!(ab.history[history_slot(&b)], 20);
        // History is capped at 2^27.
        ab.history[history_slot(&a)] = (1 << 27) - 5;
        ab.note_cutoff(2, a, 3);
        assert_eq!(ab.history[history_slot(&a)], 1 << 27);
    }

    #[test]
    fn history_slots_spread_moves_over_the_table() {
        let mut moves = Vec::new();
        Rin::default().legal_moves(&mut moves);
        let mut slots: Vec<usize> = moves.iter().map(history_slot).collect();
        assert!(slots.iter().all(|&s| s < HISTORY_SIZE));
        slots.sort_unstable();
        slots.dedup();
        // 256 moves into 4,096 slots: a fair hash leaves few collisions (about 8 expected).
        assert!(slots.len() > 230, "{} distinct slots", slots.len());
    }
}
