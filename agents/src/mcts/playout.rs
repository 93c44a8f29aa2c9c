//! Playouts and what they teach: the playout policy (random, MAST, evaluation; decisive moves,
//! the game's reply, last good reply) and the reply table.

use super::*;

impl<G: Game + Features> Mcts<G> {
    /// Whether iterations keep their line of moves (for RAVE, MAST or last good reply).
    pub(super) fn records_line(&self) -> bool {
        records_line(&self.spec)
    }

    /// Last good reply: each move of the line by the iteration's winner becomes its mover's
    /// reply to the move before it; with forgetting, a loser's move is removed where it is
    /// the stored reply. Nothing is learnt from a draw.
    pub(super) fn learn_replies(&mut self, rewards: [f64; 2]) {
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

    /// What a playout of this tree reads and writes, borrowed from the agent.
    pub(super) fn roll(&mut self) -> (Roll<'_, G>, &mut Vec<Step<G::Move>>) {
        let roll = Roll {
            spec: &self.spec,
            eval: &self.eval,
            mast: &self.mast,
            ngram: &self.ngram,
            replies: &self.replies,
            pruned: &self.pruned,
            pool: &self.pool,
            roll_terms: &self.roll_terms,
            shape_term: self.shape_term,
            rng: &mut self.rng,
            scratch: &mut self.scratch,
            probe: &mut self.probe,
            pattern_turn: &mut self.pattern_turn,
        };
        (roll, &mut self.line)
    }

    #[cfg(test)]
    /// A playout of at most `cap` plies by the playout policy (see [`Roll::playout`]).
    pub(super) fn playout(&mut self, state: &mut G, cap: u32) -> Option<Outcome> {
        let (mut roll, line) = self.roll();
        roll.playout(state, cap, line)
    }

    #[cfg(test)]
    /// One playout move (see [`Roll::playout_move`]), answering the line's last move, as
    /// a playout's first.
    pub(super) fn playout_move(&mut self, state: &G, mover: Player) -> G::Move {
        self.playout_move_at(state, mover, 0)
    }

    #[cfg(test)]
    /// One playout move `ply` plies into the playout (see [`Roll::playout_move`]).
    pub(super) fn playout_move_at(&mut self, state: &G, mover: Player, ply: u32) -> G::Move {
        let (mut roll, line) = self.roll();
        roll.playout_move(state, mover, line.last(), ply)
    }

    #[cfg(test)]
    /// Leaves `indices` out of playouts' random moves, as [`Mcts::mark_pruned`] would.
    pub(super) fn prune_indices(&mut self, count: usize, indices: &[usize]) {
        self.pruned.clear();
        self.pruned.resize(count.div_ceil(64), 0);
        for &i in indices {
            mark(&mut self.pruned, i);
        }
    }

    /// The deepest expanded node of this iteration's path with `visits` visits: the freshest
    /// well-sampled AMAF statistics of its children (for pruning and the pool).
    fn deepest_visited(&self, visits: u32) -> Option<Node> {
        self.path
            .iter()
            .rev()
            .map(|&n| self.nodes[n as usize])
            .find(|n| n.first_child != UNEXPANDED && n.visits >= visits)
    }

    /// Playout pruning (`prune=F`, Duguépéroux et al. 2016): marks the moves left out of this
    /// iteration's playouts. The deepest node of the path with [`PRUNE_VISITS`] visits has
    /// children whose AMAF statistics are the freshest well-sampled view of which cells
    /// matter below it; of its children with at least [`PRUNE_SAMPLES`] AMAF samples, those
    /// whose mean (for their mover) is more than `F` below the average of their means are
    /// left out, for both players (a cell that does not matter to one side seldom matters to
    /// the other).
    pub(super) fn mark_pruned(&mut self) {
        self.pruned.clear();
        let Some(threshold) = self.spec.prune else {
            return;
        };
        let Some(node) = self.deepest_visited(PRUNE_VISITS) else {
            return;
        };
        let root = self.root.as_ref().expect("a search has a root");
        let words = root.move_index_count().div_ceil(64);
        let (first, children) = (node.first_child as usize, usize::from(node.children));
        let sampled = self.amaf[first..first + children]
            .iter()
            .filter(|a| a.visits >= PRUNE_SAMPLES)
            .filter_map(|a| a.mean());
        let (sum, n) = sampled.fold((0.0, 0u32), |(sum, n), m| (sum + m, n + 1));
        if n == 0 {
            return;
        }
        let bar = sum / f64::from(n) - threshold;
        for k in first..first + children {
            let amaf = self.amaf[k];
            if amaf.visits >= PRUNE_SAMPLES && amaf.mean().is_some_and(|m| m < bar) {
                if self.pruned.is_empty() {
                    self.pruned.resize(words, 0);
                }
                mark(&mut self.pruned, root.move_index(self.moves[k - 1]));
            }
        }
    }

    #[cfg(test)]
    /// Sets the pool playout moves draw from, as [`Mcts::fill_pool`] would.
    pub(super) fn set_pool(&mut self, moves: &[G::Move]) {
        self.pool.clear();
        self.pool.extend_from_slice(moves);
    }

    /// PoolRave (`pool=K`, Rimmel, Teytaud and Teytaud 2010): fills this iteration's pool
    /// with the moves of the `K` children of best AMAF mean (for their mover), among those
    /// with [`POOL_SAMPLES`] samples, of the deepest node of the path with [`POOL_VISITS`]
    /// visits; empty when no node has them. Ties keep the order children are stored in.
    pub(super) fn fill_pool(&mut self) {
        self.pool.clear();
        self.pool_ranked.clear();
        let size = self.spec.pool as usize;
        let Some(node) = self.deepest_visited(POOL_VISITS) else {
            return;
        };
        self.pool_ranked.reserve(size);
        let (first, children) = (node.first_child as usize, usize::from(node.children));
        for k in first..first + children {
            let amaf = self.amaf[k];
            let Some(mean) = amaf.mean().filter(|_| amaf.visits >= POOL_SAMPLES) else {
                continue;
            };
            // Best first; an equal mean goes after those already ranked.
            let at = self.pool_ranked.partition_point(|&(m, _)| m >= mean);
            if at < size {
                if self.pool_ranked.len() == size {
                    self.pool_ranked.pop();
                }
                self.pool_ranked.insert(at, (mean, k as u32));
            }
        }
        let moves = &self.moves;
        self.pool
            .extend(self.pool_ranked.iter().map(|&(_, k)| moves[k as usize - 1]));
    }

    #[cfg(test)]
    /// A move that wins at once for `mover`, else one that takes the cell of an opponent's
    /// win at once (where the game can tell), else `None`.
    pub(super) fn decisive_move(&mut self, state: &G, mover: Player) -> Option<G::Move> {
        self.roll().0.decisive_move(state, mover)
    }
}

/// What one playout needs: the search's settings and the tables it reads, and the generator
/// and scratch it writes. Borrowed from the agent ([`Mcts::roll`]), or owned by a thread of
/// tree parallelism, whose playouts read no table (MAST and last good reply are refused
/// there).
pub(super) struct Roll<'a, G: Game> {
    pub(super) spec: &'a MctsSpec,
    pub(super) eval: &'a Evaluator,
    /// MAST and NST: the average reward of each move index for each player.
    pub(super) mast: &'a [[Amaf; 2]],
    /// NST: the average reward of each pair of move indices for the second's mover.
    pub(super) ngram: &'a [[Amaf; 2]],
    /// Last good reply: by the previous move's index, each player's reply that last won.
    pub(super) replies: &'a [[Option<G::Move>; 2]],
    /// Playout pruning: the move indices left out of random moves, a bit each (empty: none).
    pub(super) pruned: &'a [u64],
    /// PoolRave: the moves a playout ply draws from with probability `pool_p` (empty: none).
    pub(super) pool: &'a [G::Move],
    /// `roll.NAME=W`: the knowledge terms playout moves near the last move are weighed by,
    /// each its index and weight (empty: none; tree parallelism refuses them).
    pub(super) roll_terms: &'a [(usize, f64)],
    /// With `shapes=FILE`: the index of the term the file's weights replace.
    pub(super) shape_term: Option<usize>,
    pub(super) rng: &'a mut GameRng,
    pub(super) scratch: &'a mut Vec<G::Move>,
    pub(super) probe: &'a mut Option<G>,
    pub(super) pattern_turn: &'a mut usize,
}

impl<G: Game + Features> Roll<'_, G> {
    /// Plays out a leaf reached `depth` plies below the root: the relaxed ring rules told to
    /// the position, then a playout capped where an iteration's line would pass
    /// [`FULL_PLAYOUT_PLIES`] (or at `playout_cap`); its end, or the evaluation's reward for
    /// player 0 when cut.
    pub(super) fn play_leaf(
        &mut self,
        state: &mut G,
        depth: u32,
        line: &mut Vec<Step<G::Move>>,
    ) -> Leaf {
        let cap = match self.spec.playout_cap {
            Some(cap) => cap,
            None => FULL_PLAYOUT_PLIES.saturating_sub(depth),
        };
        if let Some(fill) = self.spec.ring_depth {
            state.ring_depth(fill);
        }
        if self.spec.ring_perm > 0 {
            state.ring_permanence(self.spec.ring_perm, self.spec.ring_perm_in);
        }
        let start = state.ply();
        match self.playout(state, cap, line) {
            Some(outcome) => Leaf::Ended {
                winner: outcome.winner(),
                length: depth + (state.ply() - start),
            },
            None => Leaf::Cut((self.eval.evaluate(state, Player::ZERO) / 4.0).tanh()),
        }
    }

    /// A playout of at most `cap` plies by the playout policy, appending its moves to `line`
    /// when the search keeps its lines; the outcome, or `None` when cut.
    pub(super) fn playout(
        &mut self,
        state: &mut G,
        cap: u32,
        line: &mut Vec<Step<G::Move>>,
    ) -> Option<Outcome> {
        let record = records_line(self.spec);
        if !record
            && self.spec.decisive != Decisive::On
            && self.spec.policy == Policy::Random
            && !self.spec.pattern
            && self.pruned.is_empty()
            && self.pool.is_empty()
            && self.roll_terms.is_empty()
        {
            return random_playout(state, self.rng, self.scratch, cap);
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
            let mv = self.playout_move(state, mover, line.last(), played);
            if record {
                line.push(Step {
                    index: state.move_index(mv) as u32,
                    mover: mover.index() as u8,
                    mv,
                });
            }
            state.play_unchecked(mv);
            played += 1;
        }
    }

    /// One playout move, `ply` plies into the playout, the first of: a decisive or
    /// anti-decisive move (`decisive=on`, within `decisive_plies`), the game's reply to the
    /// last move (`pattern=on`), the last good reply to the last move `before` (`reply=`),
    /// with probability `pool_p` a move drawn from the pool when it is legal (`pool=K`), the
    /// policy's move (a random one avoids pruned moves).
    pub(super) fn playout_move(
        &mut self,
        state: &G,
        mover: Player,
        before: Option<&Step<G::Move>>,
        ply: u32,
    ) -> G::Move {
        if self.spec.decisive == Decisive::On
            && self.spec.decisive_plies.is_none_or(|plies| ply < plies)
            && let Some(mv) = self.decisive_move(state, mover)
        {
            return mv;
        }
        if self.spec.pattern {
            *self.pattern_turn = self.pattern_turn.wrapping_add(1);
            if let Some(mv) = state.playout_reply(*self.pattern_turn) {
                return mv;
            }
        }
        if self.spec.reply != Reply::Off {
            let stored =
                before.and_then(|before| self.replies.get(before.index as usize)?[mover.index()]);
            if let Some(mv) = stored.filter(|&mv| state.is_legal(mv)) {
                return mv;
            }
        }
        if !self.pool.is_empty() && self.rng.random::<f64>() < self.spec.pool_p {
            let mv = self.pool[self.rng.random_range(0..self.pool.len())];
            if state.is_legal(mv) {
                return mv;
            }
        }
        if !self.roll_terms.is_empty()
            && self.spec.roll_plies.is_none_or(|plies| ply < plies)
            && let Some(mv) = self.weighed_near_move(state)
        {
            return mv;
        }
        let greedy =
            self.spec.policy != Policy::Random && self.rng.random::<f64>() >= self.spec.epsilon;
        if !greedy {
            return self.random_move(state);
        }
        state.legal_moves(self.scratch);
        let (mut best, mut best_value, mut ties) = (self.scratch[0], f64::NEG_INFINITY, 0u32);
        for k in 0..self.scratch.len() {
            let mv = self.scratch[k];
            let value = match self.spec.policy {
                Policy::Mast => self.mast[state.move_index(mv)][mover.index()]
                    .mean()
                    .unwrap_or(0.0),
                Policy::Ngram => self.ngram_value(state.move_index(mv), mover, before),
                _ => {
                    let probe = Mcts::after(self.probe, state, mv);
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

    /// NST: the greedy value of the move of index `index` for `mover` after the move
    /// `before`: its MAST mean (0 unseen), averaged with the pair's mean when the pair has
    /// [`NGRAM_SEEN`] visits.
    fn ngram_value(&self, index: usize, mover: Player, before: Option<&Step<G::Move>>) -> f64 {
        let single = self
            .mast
            .get(index)
            .map_or(0.0, |row| row[mover.index()].mean().unwrap_or(0.0));
        let pair = before.and_then(|before| {
            let slot = ngram_slot(self.mast.len(), before.index, index as u32);
            let a = self.ngram.get(slot)?[mover.index()];
            (a.visits >= NGRAM_SEEN).then(|| a.mean()).flatten()
        });
        match pair {
            Some(pair) => (single + pair) / 2.0,
            None => single,
        }
    }

    /// `roll.NAME=W`: a draw in which each legal move weighs `exp Σ W·T(m)`, as MoHex 2.0's
    /// playouts draw in proportion to each cell's pattern weight, with every move near the
    /// last one ([`Features::near_last_move`]) weighed and the `E` moves elsewhere stood for
    /// by one of them, `o`, drawn uniformly (again, up to [`PRUNE_TRIES`] times, while it is
    /// near) and weighing `E·exp Σ W·T(o)` for them all: `o` or a near move, by weight. `None`
    /// when the game names no move near the last (the policy picks).
    fn weighed_near_move(&mut self, state: &G) -> Option<G::Move> {
        let elsewhere = state.near_last_move(self.scratch);
        if self.scratch.is_empty() {
            return None;
        }
        let (terms, spec, shape) = (self.roll_terms, self.spec, self.shape_term);
        let weight = |mv: G::Move| -> f64 {
            (terms.iter())
                .map(|&(t, w)| w * term_value(spec, shape, state, mv, t))
                .sum::<f64>()
                .exp()
        };
        // Copied out: a game's random move may use the scratch.
        let mut near = [None; NEAR_MOVES];
        let mut weights = [0.0f64; NEAR_MOVES];
        let mut total = 0.0;
        for (k, &mv) in self.scratch.iter().take(NEAR_MOVES).enumerate() {
            (near[k], weights[k]) = (Some(mv), weight(mv));
            total += weights[k];
        }
        let other = if elsewhere > 0 {
            let mv = self.draw_unless(state, |mv| near.contains(&Some(mv)));
            total += elsewhere as f64 * weight(mv);
            Some(mv)
        } else {
            None
        };
        let mut u = self.rng.random::<f64>() * total;
        for (&mv, &w) in near.iter().zip(&weights) {
            let Some(mv) = mv else { break };
            if u < w {
                return Some(mv);
            }
            u -= w;
        }
        other.or(near[0])
    }

    /// A uniformly random legal move; with pruned moves, drawn again (up to
    /// [`PRUNE_TRIES`] times) while it is pruned, so that a pruned move is played only when
    /// the draws find nothing else (near the end of a playout, or a board mostly pruned).
    fn random_move(&mut self, state: &G) -> G::Move {
        if self.pruned.is_empty() {
            return self.draw(state);
        }
        let pruned = self.pruned;
        self.draw_unless(state, |mv| is_marked(pruned, state.move_index(mv)))
    }

    /// A uniformly random legal move, drawn again (up to [`PRUNE_TRIES`] times) while
    /// `avoid` holds for it.
    fn draw_unless(&mut self, state: &G, avoid: impl Fn(G::Move) -> bool) -> G::Move {
        let mut mv = self.draw(state);
        for _ in 0..PRUNE_TRIES {
            if !avoid(mv) {
                break;
            }
            mv = self.draw(state);
        }
        mv
    }

    /// A uniformly random legal move.
    fn draw(&mut self, state: &G) -> G::Move {
        state
            .random_move(self.rng, self.scratch)
            .expect("a state with no outcome has a legal move")
    }

    /// A move that wins at once for `mover`, else one that takes the cell of an opponent's
    /// win at once (where the game can tell), else `None`.
    pub(super) fn decisive_move(&mut self, state: &G, mover: Player) -> Option<G::Move> {
        state.legal_moves(self.scratch);
        Mcts::decisive_in(self.probe, state, mover, self.scratch).map(|t| match t {
            Threat::Win(k) | Threat::Block(k) | Threat::Double(k) => self.scratch[k],
        })
    }
}

/// Marks move index `i` in the bitset `bits` (a bit an index, 64 a word; long enough).
fn mark(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

/// Whether move index `i` is marked in the bitset `bits` (beyond its end: no).
pub(super) fn is_marked(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
}

/// Whether iterations under `spec` keep their line of moves (for RAVE, MAST, NST or last
/// good reply).
pub(super) fn records_line(spec: &MctsSpec) -> bool {
    spec.rave.is_some() || spec.policy.learns() || spec.reply != Reply::Off
}
