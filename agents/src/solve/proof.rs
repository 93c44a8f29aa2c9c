//! Depth-first proof-number search (df-pn, Nagai 2002, with Pawlewicz and Lew's 1 + ε
//! thresholds), for games whose branching defeats alpha-beta (Hex, m,n,k boards, Havannah):
//! it grows the tree where a proof is cheapest, not to a fixed order.
//!
//! One search answers one question for one player, the attacker: can it reach its goal (a win,
//! or with `draw_counts` a win or a draw)? A node where the attacker moves is proved when one
//! child is; a node where the other player moves, when all are. Win, draw or loss takes at most
//! two questions: "does the mover win?" and, if not, "does the mover at least draw?". The
//! search does not find distances. Positions keep their proof and disproof numbers in a table
//! of fixed size that always replaces: a lost entry costs time, never correctness.

use std::time::Instant;

use ringside_engine::{Game, Player};

use super::Budget;

/// Proof and disproof numbers at infinity: a proved or disproved position.
const INF: u32 = u32::MAX / 4;

/// ε of the 1 + ε trick: a child is searched until its proof number passes the second
/// best's by a quarter.
const EPSILON: f64 = 0.25;

#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
}

/// The search's table: proof and disproof numbers by position hash.
#[derive(Debug)]
pub(super) struct Numbers {
    entries: Vec<Entry>,
    shift: u32,
}

impl Numbers {
    pub(super) fn new(bytes: usize) -> Numbers {
        let want = (bytes / std::mem::size_of::<Entry>()).max(1024);
        let n = 1usize << (usize::BITS - 1 - want.leading_zeros());
        Numbers {
            entries: vec![Entry::default(); n],
            shift: 64 - n.trailing_zeros(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    #[inline]
    fn get(&self, key: u64) -> Option<(u32, u32)> {
        let e = &self.entries[self.slot(key)];
        (e.key == key && (e.pn | e.dn) != 0).then_some((e.pn, e.dn))
    }

    #[inline]
    fn put(&mut self, key: u64, pn: u32, dn: u32) {
        let slot = self.slot(key);
        self.entries[slot] = Entry { key, pn, dn };
    }
}

/// One question's search.
pub(super) struct ProofSearch<'a, G: Game> {
    numbers: &'a mut Numbers,
    attacker: Player,
    draw_counts: bool,
    /// Mixed into every key: this question's entries apart from another's.
    salt: u64,
    budget: &'a Budget,
    start: Instant,
    pub(super) nodes: u64,
    stopped: bool,
    moves: Vec<Vec<G::Move>>,
    /// Each ply's children's proof and disproof numbers.
    children: Vec<Vec<(u32, u32)>>,
}

impl<'a, G: Game> ProofSearch<'a, G> {
    pub(super) fn new(
        numbers: &'a mut Numbers,
        attacker: Player,
        draw_counts: bool,
        budget: &'a Budget,
        start: Instant,
    ) -> ProofSearch<'a, G> {
        ProofSearch {
            numbers,
            attacker,
            draw_counts,
            salt: ringside_engine::zobrist::splitmix64(
                0xDF9E + 2 * attacker.index() as u64 + u64::from(draw_counts),
            ),
            budget,
            start,
            nodes: 0,
            stopped: false,
            moves: Vec::new(),
            children: Vec::new(),
        }
    }

    /// Whether `state` reaches the attacker's goal: `Some(true)` proved, `Some(false)`
    /// disproved, `None` when the budget ran out first.
    pub(super) fn prove(&mut self, state: &G) -> Option<bool> {
        if let Some(v) = self.terminal(state) {
            return Some(v);
        }
        let (pn, dn) = self.mid(state, 0, INF - 1, INF - 1);
        match (pn, dn) {
            _ if self.stopped => None,
            (0, _) => Some(true),
            (_, 0) => Some(false),
            _ => None,
        }
    }

    /// A finished game's answer.
    fn terminal(&self, state: &G) -> Option<bool> {
        state.outcome().map(|o| match o.winner() {
            Some(p) => p == self.attacker,
            None => self.draw_counts,
        })
    }

    /// The proof and disproof numbers of `state` as known: 0 or infinity when finished, the
    /// table's, or 1 and 1 for a position never seen.
    fn numbers_of(&self, state: &G) -> (u32, u32) {
        match self.terminal(state) {
            Some(true) => (0, INF),
            Some(false) => (INF, 0),
            None => self.numbers.get(state.hash() ^ self.salt).unwrap_or((1, 1)),
        }
    }

    fn out_of_budget(&mut self) -> bool {
        self.stopped |= self.budget.spent(self.nodes, self.start, 1024);
        self.stopped
    }

    /// Searches `state` (a game that goes on) until its proof number reaches `th_pn` or its
    /// disproof number `th_dn`, and returns both.
    fn mid(&mut self, state: &G, ply: usize, th_pn: u32, th_dn: u32) -> (u32, u32) {
        self.nodes += 1;
        let key = state.hash() ^ self.salt;
        if ply >= super::MAX_PLY {
            self.stopped = true;
        }
        if self.out_of_budget() {
            return self.numbers.get(key).unwrap_or((1, 1));
        }
        if self.moves.len() <= ply {
            self.moves.resize_with(ply + 1, Vec::new);
            self.children.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut children = std::mem::take(&mut self.children[ply]);
        state.legal_moves(&mut moves);
        // Each child's numbers read once; afterwards only the child just searched changes
        // (another's could change through a transposition, which only costs a little time).
        children.clear();
        for &mv in moves.iter() {
            let mut child = state.clone();
            child.play_unchecked(mv);
            let (pn, dn) = self.numbers_of(&child);
            children.push((pn, dn));
        }
        let attacking = state.to_move() == Some(self.attacker);
        let result = loop {
            // The node's numbers from its children's, and the child to search next: at the
            // attacker's nodes the one with the smallest proof number, at the defender's the one
            // with the smallest disproof number (the first listed on ties).
            let (mut best, mut best_pn, mut best_dn) = (0, INF, INF);
            let (mut second, mut sum, mut min) = (INF, 0u32, INF);
            for (i, &(pn, dn)) in children.iter().enumerate() {
                // Attacker's node: pn = min child pn, dn = sum child dn; defender's: swapped.
                let (mine, theirs) = if attacking { (pn, dn) } else { (dn, pn) };
                sum = sum.saturating_add(theirs).min(INF);
                if mine < min {
                    second = min;
                    min = mine;
                    (best, best_pn, best_dn) = (i, pn, dn);
                } else if mine < second {
                    second = mine;
                }
            }
            let (pn, dn) = if attacking { (min, sum) } else { (sum, min) };
            if pn >= th_pn || dn >= th_dn || self.stopped {
                break (pn, dn);
            }
            let grow = |x: u32| {
                ((f64::from(x) * (1.0 + EPSILON)).ceil() as u32)
                    .max(x + 1)
                    .min(INF - 1)
            };
            let (child_pn, child_dn) = if attacking {
                (
                    th_pn.min(grow(second)),
                    (th_dn - dn).saturating_add(best_dn).min(INF - 1),
                )
            } else {
                (
                    (th_pn - pn).saturating_add(best_pn).min(INF - 1),
                    th_dn.min(grow(second)),
                )
            };
            let mut child = state.clone();
            child.play_unchecked(moves[best]);
            // The child's search stores its own numbers.
            children[best] = self.mid(&child, ply + 1, child_pn, child_dn);
        };
        self.children[ply] = children;
        self.moves[ply] = moves;
        self.numbers.put(key, result.0, result.1);
        result
    }
}
