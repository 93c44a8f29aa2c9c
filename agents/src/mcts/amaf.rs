//! RAVE's AMAF credits: after a playout, the children of every path node whose move their
//! mover played at or after that node's depth in the line gain the playout's reward; with
//! `rollouts=K`, the `K` playouts of an iteration credited in one pass over the children.

use super::*;

/// The largest root visit count under which [`Mcts::credit_rollouts`] sums an iteration's
/// rewards before adding them: every AMAF sum stays a multiple of ½ below 2²², which `f32`
/// holds exactly, so adding a sum equals adding its terms one at a time.
const EXACT_SUMS_BELOW: u32 = 1 << 21;

/// One move index's credit for one player from an iteration's playouts: those whose last
/// play of the move was in a playout (credited at every path node) and those whose last play
/// was the tree move one past `shallow_at - 1` in the line (credited at the path nodes above
/// it; the tree's line is the same in every playout of an iteration, so that place is too).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Credit {
    pub(super) deep: u32,
    deep_reward: f32,
    pub(super) shallow: u32,
    shallow_reward: f32,
    shallow_at: u32,
}

/// Whether a reward is a multiple of ½ between −1 and 1: a win, a loss or a draw.
fn whole_or_half(reward: f64) -> bool {
    reward.abs() <= 1.0 && (2.0 * reward).fract() == 0.0
}

impl<G: Game + Features> Mcts<G> {
    /// RAVE: credits the AMAF statistics of the children of every path node whose move their
    /// mover played at or after that node's depth in the line (see the module docs).
    pub(super) fn credit_amaf(&mut self, rewards: [f64; 2]) {
        let root = self.root.as_ref().expect("a search has a root");
        size_once(&mut self.last_played, root.move_index_count(), [0; 2]);
        // The tree's moves are the path's, one fewer than its nodes.
        let end = self.amaf_end(self.path.len() - 1, self.line.len());
        mark_last_plays(&mut self.last_played, &self.line[..end]);
        let last_played = &self.last_played;
        path_children!(self).each(|depth, mover, index, a| {
            if last_played[index][mover] as usize > depth {
                a.add(rewards[mover]);
            }
        });
        clear_last_plays(&mut self.last_played, &self.line[..end]);
    }

    /// Where a line of `len` moves, whose first `tree_line` are the tree's, stops crediting
    /// AMAF: after `amaf_plies` playout moves, or at its end.
    fn amaf_end(&self, tree_line: usize, len: usize) -> usize {
        match self.spec.amaf_plies {
            Some(n) => len.min(tree_line + n as usize),
            None => len,
        }
    }

    /// Keeps a playout of a `rollouts=K` iteration for [`Mcts::credit_rollouts`]: its moves
    /// after the tree's `tree_line` (up to `amaf_plies` of them) and its rewards.
    pub(super) fn keep_rollout(&mut self, tree_line: usize, rewards: [f64; 2]) {
        let end = self.amaf_end(tree_line, self.line.len());
        self.rollout_steps
            .extend_from_slice(&self.line[tree_line..end]);
        self.rollout_ends.push(self.rollout_steps.len());
        self.rollout_rewards.push(rewards);
    }

    /// Credits the AMAF statistics from the playouts kept by [`Mcts::keep_rollout`], as
    /// [`Mcts::credit_amaf`] after each in turn would (nothing reads AMAF between an
    /// iteration's playouts), and empties them. When every reward is a win, loss or draw
    /// (and the sums stay exact) one pass over the children adds each child's summed credit;
    /// otherwise each playout is credited on its own. The line is left holding the tree's
    /// `tree_line` moves.
    pub(super) fn credit_rollouts(&mut self, tree_line: usize) {
        if self.sums_exact() {
            self.credit_summed(tree_line);
        } else {
            self.credit_one_by_one(tree_line);
        }
        self.rollout_steps.clear();
        self.rollout_ends.clear();
        self.rollout_rewards.clear();
    }

    /// Whether the kept playouts' credits may be summed before they are added: every reward
    /// a win, a loss or a draw, and every AMAF sum (at most the root's visits) small enough
    /// for `f32` to hold its halves exactly.
    pub(super) fn sums_exact(&self) -> bool {
        self.nodes[0].visits < EXACT_SUMS_BELOW
            && self
                .rollout_rewards
                .iter()
                .all(|r| whole_or_half(r[0]) && whole_or_half(r[1]))
    }

    /// [`Mcts::credit_amaf`] for each kept playout in turn, its line rebuilt after the tree's
    /// `tree_line` moves; the line is left holding those.
    pub(super) fn credit_one_by_one(&mut self, tree_line: usize) {
        let mut start = 0;
        for k in 0..self.rollout_ends.len() {
            let end = self.rollout_ends[k];
            self.line.truncate(tree_line);
            self.line.extend_from_slice(&self.rollout_steps[start..end]);
            self.credit_amaf(self.rollout_rewards[k]);
            start = end;
        }
        self.line.truncate(tree_line);
    }

    /// [`Mcts::credit_rollouts`]'s single pass: each move's credit summed over the playouts
    /// ([`Credit`]), then added to each child at each path node in one step.
    pub(super) fn credit_summed(&mut self, tree_line: usize) {
        let root = self.root.as_ref().expect("a search has a root");
        size_once(&mut self.last_played, root.move_index_count(), [0; 2]);
        size_once(
            &mut self.credits,
            root.move_index_count(),
            [Credit::default(); 2],
        );
        self.line.truncate(tree_line);
        // A last play at place `v` (one past its index in the line) counts at the path
        // nodes of depth below `v`: from `path.len()` on, at all of them.
        let everywhere = self.path.len() as u32;
        let mut start = 0;
        for (k, &end) in self.rollout_ends.iter().enumerate() {
            let line = || self.line.iter().chain(&self.rollout_steps[start..end]);
            mark_last_plays(&mut self.last_played, line());
            for (i, step) in line().enumerate() {
                let (index, mover) = (step.index as usize, step.mover as usize);
                let at = i as u32 + 1;
                if self.last_played[index][mover] != at {
                    continue;
                }
                let reward = self.rollout_rewards[k][mover] as f32;
                let credit = &mut self.credits[index][mover];
                if at >= everywhere {
                    credit.deep += 1;
                    credit.deep_reward += reward;
                } else {
                    debug_assert!(credit.shallow == 0 || credit.shallow_at == at);
                    credit.shallow += 1;
                    credit.shallow_reward += reward;
                    credit.shallow_at = at;
                }
            }
            clear_last_plays(&mut self.last_played, line());
            start = end;
        }
        let credits = &self.credits;
        path_children!(self).each(|depth, mover, index, a| {
            // Without branches: whether a child's move was played, and how deep, is a coin
            // toss the processor cannot predict. A child not credited gets 0 visits and ±0.0
            // reward, which change nothing (its sum starts at +0.0 and never becomes −0.0).
            let credit = credits[index][mover];
            let shallow = credit.shallow_at as usize > depth;
            a.visits += credit.deep + u32::from(shallow) * credit.shallow;
            a.reward += credit.deep_reward + f32::from(u8::from(shallow)) * credit.shallow_reward;
        });
        let everything = self.line.iter().chain(&self.rollout_steps);
        for step in everything {
            self.credits[step.index as usize] = [Credit::default(); 2];
        }
    }
}

/// Sizes `table` to `len` copies of `value` the first time it is used (empty until then).
pub(super) fn size_once<T: Clone>(table: &mut Vec<T>, len: usize, value: T) {
    if table.is_empty() {
        *table = vec![value; len];
    }
}

/// Marks in `last_played`, for each move index and player, one past the place of the last
/// of `steps` where that player played it.
fn mark_last_plays<'s, M: 's>(
    last_played: &mut [[u32; 2]],
    steps: impl IntoIterator<Item = &'s Step<M>>,
) {
    for (i, step) in steps.into_iter().enumerate() {
        last_played[step.index as usize][step.mover as usize] = i as u32 + 1;
    }
}

/// Clears the marks [`mark_last_plays`] made for `steps`.
fn clear_last_plays<'s, M: 's>(
    last_played: &mut [[u32; 2]],
    steps: impl IntoIterator<Item = &'s Step<M>>,
) {
    for step in steps {
        last_played[step.index as usize] = [0; 2];
    }
}

/// The [`PathChildren`] of an agent, each table borrowed on its own so the pass may read the
/// agent's other tables.
macro_rules! path_children {
    ($mcts:expr) => {
        PathChildren {
            root: $mcts.root.as_ref().expect("a search has a root"),
            path: &$mcts.path,
            nodes: &$mcts.nodes,
            moves: &$mcts.moves,
            amaf: &mut $mcts.amaf,
        }
    };
}
use path_children;

/// The tables a pass over the path's children reads, and the AMAF statistics it writes.
struct PathChildren<'a, G: Game> {
    root: &'a G,
    path: &'a [u32],
    nodes: &'a [Node],
    moves: &'a [G::Move],
    amaf: &'a mut [Amaf],
}

impl<G: Game> PathChildren<'_, G> {
    /// Calls `credit(depth, mover, index, amaf)` for every child of every expanded node on
    /// the path: the node's depth, the children's mover, the child's move index and its AMAF
    /// statistics.
    fn each(self, mut credit: impl FnMut(usize, usize, usize, &mut Amaf)) {
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
                credit(depth, mover, self.root.move_index(mv), a);
            }
        }
    }
}
