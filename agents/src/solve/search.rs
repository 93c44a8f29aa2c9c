//! The generic solver: alpha-beta over scores that carry the distance to the end, with a
//! transposition table, for any game of the registry.

use std::any::Any;
use std::time::Instant;

use ringside_engine::Game;

use super::table::Table;
use super::{Budget, Solution, Value};

/// A win one ply away scores `WIN − 1`; a win `d` plies away `WIN − d`. Games end long before
/// `WIN` plies, so every decided score is far from 0 and a window of width two around the
/// draw asks only win, draw or loss.
pub(super) const WIN: i32 = 10_000;

/// A child's score seen from its parent, one ply further from the end.
#[inline]
pub(super) fn shift(score: i32) -> i32 {
    score - score.signum()
}

/// The inverse of [`shift`], for turning a parent's window into its child's.
#[inline]
pub(super) fn unshift(score: i32) -> i32 {
    score + score.signum()
}

/// What a fail-soft search's `best` over the window `(alpha, beta)` says of the score: an
/// upper bound when it failed low, a lower bound when it failed high, else the score.
#[inline]
pub(super) fn bounds(best: i32, alpha: i32, beta: i32) -> (i32, i32) {
    if best <= alpha {
        (-WIN, best)
    } else if best >= beta {
        (best, WIN)
    } else {
        (best, best)
    }
}

/// The value a score stands for.
pub(super) fn value_of(score: i32) -> Value {
    match score {
        0 => Value::Draw,
        s if s > 0 => Value::Win((WIN - s) as u32),
        s => Value::Loss((WIN + s) as u32),
    }
}

/// The exact value of `state` for the player to move, within `budget`, with a table of its
/// own of `budget.memory` bytes ([`Solver::solve`] keeps one from call to call).
pub fn solve<G: Game>(state: &G, budget: &Budget) -> Solution<G::Move> {
    Solver::new(budget.memory).solve(state, budget)
}

/// A solver with its transposition table, kept from one position to the next (a perfect
/// player's moves share most of their trees).
#[derive(Debug)]
pub struct Solver {
    table: Table,
    /// Proof-number search's table, made on its first use.
    numbers: Option<super::proof::Numbers>,
    memory: usize,
}

impl Solver {
    /// A solver whose table takes `memory` bytes (rounded down to a power of two entries).
    #[must_use]
    pub fn new(memory: usize) -> Solver {
        Solver {
            table: Table::new(memory),
            numbers: None,
            memory,
        }
    }

    /// The exact value of `state` for the player to move, within `budget` (its `memory` is
    /// this solver's table's, set when made): Connect Four on a board whose bitboard fits 64
    /// bits with four to win takes the dedicated search (`method=connect_four`), every other
    /// game this one (`method=alphabeta`).
    pub fn solve<G: Game>(&mut self, state: &G, budget: &Budget) -> Solution<G::Move> {
        if budget.method == super::Method::ProofNumber {
            return self.prove(state, budget);
        }
        let c4 = if budget.method == super::Method::Auto {
            (state as &dyn Any).downcast_ref::<ringside_engine::games::connect_four::ConnectFour>()
        } else {
            None
        };
        if let Some(c4) = c4
            && let Some(s) = super::connect_four::solve(c4, budget, &mut self.table)
        {
            let moves: Vec<G::Move> = s
                .best
                .iter()
                .map(|&mv| {
                    *(&mv as &dyn Any)
                        .downcast_ref::<G::Move>()
                        .expect("the same game")
                })
                .collect();
            return Solution {
                value: s.value,
                distance_known: s.distance_known,
                best: moves,
                nodes: s.nodes,
                time: s.time,
                table: s.table,
                method: s.method,
            };
        }
        let mut search = Search::new(budget, &mut self.table);
        let value = search.root(state);
        Solution {
            value: value.map(|(v, _)| v),
            distance_known: value.is_some_and(|(_, d)| d),
            best: if value.is_some() {
                std::mem::take(&mut search.best)
            } else {
                Vec::new()
            },
            nodes: search.nodes,
            time: search.start.elapsed(),
            table: search.table.usage(),
            method: "alphabeta",
        }
    }

    /// The value by proof-number search: "does the mover win?", then if not "does it at least
    /// draw?"; then which moves keep that (each child asked the same question, the table
    /// shared). No distances.
    fn prove<G: Game>(&mut self, state: &G, budget: &Budget) -> Solution<G::Move> {
        use super::proof::{Numbers, ProofSearch};
        let start = Instant::now();
        let memory = self.memory;
        let numbers = self.numbers.get_or_insert_with(|| Numbers::new(memory));
        let mut nodes = 0;
        let solution = |value: Option<Value>, best: Vec<G::Move>, nodes: u64| Solution {
            value,
            distance_known: false,
            best,
            nodes,
            time: start.elapsed(),
            table: (0, 0),
            method: "dfpn",
        };
        let Some(me) = state.to_move() else {
            return solution(None, Vec::new(), 0);
        };
        let mut ask = |state: &G, draw_counts: bool, nodes: &mut u64| {
            let mut search = ProofSearch::new(numbers, me, draw_counts, budget, start);
            let answer = search.prove(state);
            *nodes += search.nodes;
            answer
        };
        let value = match ask(state, false, &mut nodes) {
            None => return solution(None, Vec::new(), nodes),
            Some(true) => Value::Win(0),
            Some(false) => match ask(state, true, &mut nodes) {
                None => return solution(None, Vec::new(), nodes),
                Some(true) => Value::Draw,
                Some(false) => Value::Loss(0),
            },
        };
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let mut best = Vec::new();
        for mv in moves {
            let keeps = match value {
                // Every move loses: each keeps the value.
                Value::Loss(_) => Some(true),
                _ => {
                    let mut child = state.clone();
                    child.play_unchecked(mv);
                    ask(&child, value == Value::Draw, &mut nodes)
                }
            };
            match keeps {
                None => return solution(None, Vec::new(), nodes),
                Some(true) => {
                    best.push(mv);
                    if !budget.exact {
                        break;
                    }
                }
                Some(false) => {}
            }
        }
        solution(Some(value), best, nodes)
    }
}

/// One solve's state: the table, the counters, the budget, move lists a ply.
pub(super) struct Search<'a, G: Game> {
    table: &'a mut Table,
    budget: &'a Budget,
    start: Instant,
    nodes: u64,
    stopped: bool,
    moves: Vec<Vec<G::Move>>,
    /// Cut-offs each move (by `Game::move_index`) has made, for move ordering.
    history: Vec<u64>,
    pub(super) best: Vec<G::Move>,
}

impl<'a, G: Game> Search<'a, G> {
    pub(super) fn new(budget: &'a Budget, table: &'a mut Table) -> Search<'a, G> {
        Search {
            table,
            budget,
            start: Instant::now(),
            nodes: 0,
            stopped: false,
            moves: Vec::new(),
            history: Vec::new(),
            best: Vec::new(),
        }
    }

    /// The root's value and whether its distance is exact, and [`Search::best`] filled;
    /// `None` when the game is over or the budget ran out before the sign was known.
    pub(super) fn root(&mut self, state: &G) -> Option<(Value, bool)> {
        let me = state.to_move()?;
        let wdl = self.negamax(state, 0, -1, 1);
        if self.stopped {
            return None;
        }
        let sign = wdl.signum();
        let mut score = sign;
        let mut exact = sign == 0;
        if self.budget.exact && sign != 0 {
            let (lo, hi) = if sign > 0 { (0, WIN) } else { (-WIN, 0) };
            let s = self.negamax(state, 0, lo, hi);
            if !self.stopped {
                score = s;
                exact = true;
            }
        }
        // Which moves keep the value: each child's score tested against the root's.
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        self.stopped = false;
        for mv in moves {
            let mut child = state.clone();
            child.play_unchecked(mv);
            let (lo, hi) = if exact {
                (score - 1, score + 1)
            } else if sign > 0 {
                (0, 1)
            } else {
                (-1, 1)
            };
            let s = self.child_score(&child, me, 0, lo, hi);
            if self.stopped {
                return None;
            }
            let keeps = if exact {
                s == score
            } else {
                s.signum() == sign
            };
            if keeps {
                self.best.push(mv);
                if !self.budget.exact {
                    break;
                }
            }
        }
        let value = if exact {
            value_of(score)
        } else {
            value_of(sign * WIN)
        };
        Some((value, exact))
    }

    /// The score of `child` (reached by a move of `me`) for `me`, one ply further from the
    /// end, searched in `me`'s window `(alpha, beta)`.
    fn child_score(
        &mut self,
        child: &G,
        me: ringside_engine::Player,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match child.outcome() {
            Some(o) => match o.value_for(me) {
                1 => WIN - 1,
                -1 => 1 - WIN,
                _ => 0,
            },
            None if child.to_move() == Some(me) => {
                shift(self.negamax(child, ply + 1, unshift(alpha), unshift(beta)))
            }
            None => shift(-self.negamax(child, ply + 1, -unshift(beta), -unshift(alpha))),
        }
    }

    fn out_of_budget(&mut self) -> bool {
        self.stopped |= self.budget.spent(self.nodes, self.start, 1024);
        self.stopped
    }

    /// The score of a position that goes on, for its mover: exact when it falls inside
    /// `(alpha, beta)`, else a bound on the side it fell (fail-soft).
    fn negamax(&mut self, state: &G, ply: usize, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if ply >= super::MAX_PLY {
            self.stopped = true;
        }
        if self.out_of_budget() {
            return 0;
        }
        let me = state
            .to_move()
            .expect("a position that goes on has a mover");
        let key = state.hash();
        let (alpha, beta, first) = match self.table.probe(key, alpha, beta) {
            Ok(narrowed) => narrowed,
            Err(score) => return score,
        };
        if self.moves.len() <= ply {
            self.moves.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        state.legal_moves(&mut moves);
        let score = self.search_moves(state, me, &mut moves, ply, key, alpha, beta, first);
        self.moves[ply] = moves;
        score
    }

    /// [`Search::negamax`] over its move list: a move that wins at once first, then the
    /// table's best, then by the history heuristic.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        state: &G,
        me: ringside_engine::Player,
        moves: &mut [G::Move],
        ply: usize,
        key: u64,
        alpha: i32,
        beta: i32,
        first: Option<usize>,
    ) -> i32 {
        if let Some(&win) = moves
            .iter()
            .find(|&&mv| state.wins_at_once(me, mv) == Some(true))
        {
            self.table
                .put(key, WIN - 1, WIN - 1, Some(state.move_index(win)));
            return WIN - 1;
        }
        // The moves that cut off most often first (the history heuristic), the game's order on
        // ties, then the table's best before them all.
        if self.history.is_empty() {
            self.history = vec![0; state.move_index_count()];
        }
        let history = &self.history;
        moves.sort_unstable_by_key(|&m| {
            let i = state.move_index(m);
            (std::cmp::Reverse(history[i]), i)
        });
        if let Some(i) = first.and_then(|f| moves.iter().position(|&m| state.move_index(m) == f)) {
            moves[..=i].rotate_right(1);
        }
        let (start_alpha, mut alpha) = (alpha, alpha);
        let (mut best, mut best_move) = (-WIN, None);
        for &mv in moves.iter() {
            let mut child = state.clone();
            child.play_unchecked(mv);
            let s = self.child_score(&child, me, ply, alpha, beta);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                best_move = Some(state.move_index(mv));
            }
            alpha = alpha.max(best);
            if alpha >= beta {
                self.history[state.move_index(mv)] += 1;
                break;
            }
        }
        let (lo, hi) = bounds(best, start_alpha, beta);
        self.table.put(key, lo, hi, best_move);
        best
    }
}
