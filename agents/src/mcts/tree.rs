//! The tree and its proofs: the node arena kept between moves (reroot, compaction), expansion
//! with decisive moves and priors, MCTS-Solver's proofs, and the rewards a finished playout
//! backs up (win/loss, or move-count scoring).

use super::*;

impl<G: Game + Features> Mcts<G> {
    pub(super) fn reset(&mut self) {
        self.nodes.clear();
        self.moves.clear();
        self.nodes.push(Node::new(NOBODY));
        restart(&mut self.amaf, self.spec.rave.is_some());
        restart(&mut self.prior, self.spec.bias > 0.0);
        let knows = self.spec.knows();
        restart(&mut self.know, knows);
        restart(&mut self.prob, self.spec.has_prior());
    }

    /// Keeps the subtree of `state` if the last search reached it, else starts afresh.
    pub(super) fn reroot(&mut self, state: &G) {
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
    pub(super) fn find(&self, node: u32, at: &G, target: &G, depth: u32) -> Option<u32> {
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
    pub(super) fn compact(&mut self, root: u32) {
        let mut nodes = std::mem::take(&mut self.spare_nodes);
        let mut moves = std::mem::take(&mut self.spare_moves);
        let mut amaf = std::mem::take(&mut self.spare_amaf);
        let mut prior = std::mem::take(&mut self.spare_prior);
        let mut know = std::mem::take(&mut self.spare_know);
        let mut prob = std::mem::take(&mut self.spare_prob);
        nodes.clear();
        moves.clear();
        amaf.clear();
        prior.clear();
        know.clear();
        prob.clear();
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
            carry(&mut prob, &self.prob, i);
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
        self.spare_prob = std::mem::replace(&mut self.prob, prob);
    }

    pub(super) fn prove(&mut self, node: usize, outcome: Outcome, distance: u16) {
        let n = &mut self.nodes[node];
        n.proven = match outcome {
            Outcome::Win(p) => p.index() as u8,
            Outcome::Draw => DRAW,
        };
        n.proven_distance = distance;
    }

    /// Adds `node`'s children; returns false if it is finished or the arena is full.
    pub(super) fn expand(&mut self, node: usize, state: &G) -> bool {
        if let Some(outcome) = state.outcome() {
            self.prove(node, outcome, 0);
            return false;
        }
        state.legal_moves(&mut self.legal);
        if self.nodes.len() + self.legal.len() > self.spec.max_nodes as usize {
            return false;
        }
        let mover = state.to_move().expect("a live state has a mover");
        self.rank_children(state, mover);
        self.nodes[node].first_child = self.nodes.len() as u32;
        self.nodes[node].children = self.ranked.len() as u16;
        for child in &self.ranked {
            self.nodes.push(Node::new(mover.index() as u8));
            self.moves.push(child.mv);
        }
        if self.spec.rave.is_some() {
            self.amaf.resize(self.nodes.len(), Amaf::default());
        }
        if self.spec.bias > 0.0 {
            self.prior.extend(self.ranked.iter().map(|c| c.prior));
        }
        if self.spec.knows() {
            self.know.extend(self.ranked.iter().map(|c| c.know));
        }
        if self.spec.has_prior() {
            self.prob.extend(self.ranked.iter().map(|c| c.prob));
        }
        if self.spec.decisive != Decisive::Off {
            self.prove_decisive(node, state);
        }
        true
    }

    /// `state` after `mv`, played on the reusable copy `probe`.
    pub(super) fn after<'a>(probe: &'a mut Option<G>, state: &G, mv: G::Move) -> &'a G {
        let copy = probe.get_or_insert_with(|| state.clone());
        copy.clone_from(state);
        copy.play_unchecked(mv);
        copy
    }

    /// Among `moves` (legal for `mover`), the first that wins at once for `mover`: the
    /// game's answer, or else the move played on a copy. Failing that, the moves on which the
    /// opponent would win at once (where the game can tell): one is a block, two or more a
    /// lost position.
    pub(super) fn decisive_in(
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
    pub(super) fn prove_decisive(&mut self, node: usize, state: &G) {
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

    /// Havannah-Mate at its shallowest (Stankiewicz, Winands and Uiterwijk, "Monte-Carlo
    /// tree search enhancements for Havannah", ACG 2011): the first child of `node` that is a
    /// mate in three for the mover, a move after which the mover wins at once against every
    /// reply, is proven won at distance 2, and MCTS-Solver proves the node. Searched only
    /// where decisive moves settled no child, and only among the moves after which the mover
    /// has two wins at once (no stone blocks both, unless a reply wins or changes the
    /// board's verdicts, which the search over every reply then finds). A game that cannot
    /// tell a win at once without playing it ([`Game::wins_at_once`] `None`) is not searched.
    pub(super) fn prove_mate(&mut self, node: usize, state: &G) {
        let n = self.nodes[node];
        if n.proven != UNPROVEN || n.first_child == UNEXPANDED {
            return;
        }
        let children = n.first_child as usize..(n.first_child as usize + n.children as usize);
        if self.nodes[children.clone()]
            .iter()
            .any(|c| c.proven != UNPROVEN)
        {
            return;
        }
        let mover = state.to_move().expect("an expanded node has a mover");
        for child in children {
            let after = Self::after(&mut self.probe, state, self.moves[child - 1]);
            if after.outcome().is_some() {
                continue;
            }
            after.legal_moves(&mut self.mate_replies);
            let mut wins = 0;
            for &mv in &self.mate_replies {
                match after.wins_at_once(mover, mv) {
                    None => return,
                    Some(true) => wins += 1,
                    Some(false) => {}
                }
                if wins == 2 {
                    break;
                }
            }
            if wins == 2
                && Self::wins_after_every_reply(
                    after,
                    mover,
                    &self.mate_replies,
                    &mut self.mate_moves,
                    &mut self.mate_probe,
                )
            {
                return self.prove(child, Outcome::Win(mover), 2);
            }
        }
    }

    /// Whether `mover` (not to move at `state`) wins at once after every one of `replies`:
    /// none of them ends the game but in `mover`'s favour, and after each `mover` has a
    /// move that wins at once.
    pub(super) fn wins_after_every_reply(
        state: &G,
        mover: Player,
        replies: &[G::Move],
        moves: &mut Vec<G::Move>,
        probe: &mut Option<G>,
    ) -> bool {
        replies.iter().all(|&reply| {
            let next = Self::after(probe, state, reply);
            match next.outcome() {
                Some(outcome) => outcome == Outcome::Win(mover),
                None => {
                    next.legal_moves(moves);
                    moves
                        .iter()
                        .any(|&mv| next.wins_at_once(mover, mv) == Some(true))
                }
            }
        })
    }

    /// The children of a node at `state` (legal moves in `self.legal`), in the order they
    /// are stored, with their priors and knowledge, into `self.ranked`. With `order=random`
    /// the moves are shuffled (Fisher–Yates, from the agent's generator) and then, with
    /// `know`, `prob` or `bias` on, put in falling order of the term selection gives an
    /// unvisited child, `know·K + bias·H + Σ W·ρ` (ties keep the shuffled order); with
    /// `order=list` they stay in the move list's order.
    pub(super) fn rank_children(&mut self, state: &G, mover: Player) {
        if !self.terms_found {
            let names = state.knowledge_terms();
            let find = |terms: &std::collections::BTreeMap<String, f64>| -> Vec<(usize, f64)> {
                (terms.iter())
                    .filter_map(|(name, &w)| Some((names.iter().position(|n| n == name)?, w)))
                    .collect()
            };
            self.know_terms = find(&self.spec.know_terms);
            self.prob_terms = find(&self.spec.prob_terms);
            self.roll_terms = find(&self.spec.roll_terms);
            self.shape_term =
                (self.spec.shapes.as_ref()).and_then(|_| names.iter().position(|n| *n == "shape"));
            self.terms_found = true;
        }
        let random = self.spec.order == ChildOrder::Random;
        if random {
            self.legal.shuffle(&mut self.rng);
        }
        self.ranked.clear();
        // Terms the game reads for all the moves at once (a flood of the board), read so.
        for (i, &(term, _)) in self.know_terms.iter().enumerate() {
            if self.term_tables.len() <= i {
                self.term_tables.push((false, Vec::new()));
            }
            let (whole, values) = &mut self.term_tables[i];
            *whole = self.shape_term != Some(term)
                && state.knowledge_term_all(&self.legal, term, values);
        }
        for k in 0..self.legal.len() {
            let mv = self.legal[k];
            let prior = if self.spec.bias > 0.0 {
                self.prior_of(state, mover, mv)
            } else {
                0.0
            };
            let know = if !self.spec.weighs_knowledge() {
                if self.spec.know > 0.0 {
                    state.move_knowledge(mv) as f32
                } else {
                    0.0
                }
            } else {
                // With named terms the stored value is the whole weighted sum.
                let mut sum = if self.spec.know > 0.0 {
                    self.spec.know * state.move_knowledge(mv)
                } else {
                    0.0
                };
                for (&(term, w), (whole, values)) in self.know_terms.iter().zip(&self.term_tables) {
                    sum += w * if *whole {
                        values[k]
                    } else {
                        term_value(&self.spec, self.shape_term, state, mv, term)
                    };
                }
                sum as f32
            };
            self.ranked.push(Child {
                mv,
                prior,
                know,
                prob: 0.0,
                place: k as u32,
            });
        }
        self.rank_priors(state);
        if self.spec.sorts_children() {
            let (bias, know) = (self.spec.bias, self.know_scale());
            let key = |c: &Child<G::Move>| {
                let k = know * f64::from(c.know) + bias * f64::from(c.prior);
                // Only with a prior, so that specs without one sort exactly as before.
                if c.prob > 0.0 {
                    k + f64::from(c.prob)
                } else {
                    k
                }
            };
            // The place breaks ties, so this unstable (allocation-free) sort is stable.
            self.ranked
                .sort_unstable_by(|a, b| key(b).total_cmp(&key(a)).then(a.place.cmp(&b.place)));
        }
    }

    /// Each child's prior term `Σ W·ρ(m)` (`prob.NAME=W`): for each named term, the
    /// softmax of its values over the children, `ρ(m) = exp T(m) / Σ exp T` (a term that is
    /// a log-strength `ln γ` gives `γ(m)/Σγ`, the Bradley–Terry chance that `m` is chosen).
    fn rank_priors(&mut self, state: &G) {
        for &(term, w) in &self.prob_terms {
            let values = &mut self.prob_values;
            values.clear();
            let (spec, shape) = (&self.spec, self.shape_term);
            // `ranked` is still in `legal`'s order here.
            if shape == Some(term) || !state.knowledge_term_all(&self.legal, term, values) {
                values.clear();
                values.extend(
                    (self.ranked.iter()).map(|c| term_value(spec, shape, state, c.mv, term)),
                );
            }
            let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let mut sum = 0.0;
            for v in values.iter_mut() {
                *v = (*v - top).exp();
                sum += *v;
            }
            for (c, v) in self.ranked.iter_mut().zip(values.iter()) {
                c.prob += (w * v / sum) as f32;
            }
        }
    }

    /// `movenet=FILE`: adds the network's prior, `movenet_w · ρ(m)` with `ρ` the softmax of
    /// its logits over the children's cells, to the `prob` of `node`'s children (at `state`),
    /// and with `movenet_know=W` its logit less their mean, `W·(ℓ(m) − ℓ̄)`, to their
    /// knowledge; once, when `node` has `movenet_at` visits. A child without a cell (a swap)
    /// gets neither.
    pub(super) fn add_movenet(&mut self, node: usize, state: &G) {
        self.nodes[node].netted = true;
        let Some(net) = self.spec.movenet.as_ref().and_then(|p| p.net.as_deref()) else {
            return;
        };
        let Some(logits) = self.movenet_eval.logits(net, state) else {
            return;
        };
        let n = self.nodes[node];
        let first = n.first_child as usize;
        let children = first..first + usize::from(n.children);
        let cell = |c: usize| state.grid_cell(self.moves[c - 1]);
        let (mut top, mut total, mut count) = (f32::NEG_INFINITY, 0.0, 0.0);
        for k in children.clone().filter_map(cell) {
            top = top.max(logits[k]);
            total += f64::from(logits[k]);
            count += 1.0;
        }
        let sum: f64 = (children.clone())
            .filter_map(cell)
            .map(|k| f64::from(logits[k] - top).exp())
            .sum();
        let (w, wk, mean) = (self.spec.movenet_w, self.spec.movenet_know, total / count);
        for c in children {
            let Some(k) = cell(c) else { continue };
            self.prob[c] += (w * f64::from(logits[k] - top).exp() / sum) as f32;
            if wk > 0.0 {
                self.know[c] += (wk * (f64::from(logits[k]) - mean)) as f32;
            }
        }
    }

    /// Progressive bias: the prior of `mv`, `tanh(eval/4)` of the position after it from
    /// `mover`'s view (1 for a move that wins at once).
    pub(super) fn prior_of(&mut self, state: &G, mover: Player, mv: G::Move) -> f32 {
        let probe = Self::after(&mut self.probe, state, mv);
        match probe.outcome() {
            Some(Outcome::Win(p)) if p == mover => 1.0,
            _ => (self.eval.evaluate(probe, mover) / 4.0).tanh() as f32,
        }
    }

    /// Rewards of both players for a game won by `winner` (or drawn) `length` plies from the
    /// root; see the crate docs for the move-count bonus.
    pub(super) fn rewards(&mut self, winner: Option<Player>, length: u32) -> [f64; 2] {
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
    pub(super) fn try_prove(&mut self, node: usize) {
        if let Some((proven, distance)) = proof_from_children(&self.nodes, node) {
            let n = &mut self.nodes[node];
            (n.proven, n.proven_distance) = (proven, distance);
        }
    }
}

/// What the children of `node` (expanded, not yet proven) in `nodes` prove it, as the proven
/// value and distance [`Node`] keeps: a win for the mover by its shortest win, else, with
/// every child settled, a draw by the shortest draw or a loss by the longest; `None` when they
/// settle nothing, or the node is proven already or unexpanded.
pub(super) fn proof_from_children(nodes: &[Node], node: usize) -> Option<(u8, u16)> {
    let n = nodes[node];
    if n.proven != UNPROVEN || n.first_child == UNEXPANDED {
        return None;
    }
    let first = n.first_child as usize;
    let mover = nodes[first].mover_into;
    let (mut shortest_win, mut all_proven, mut draw, mut longest_loss) =
        (None::<u16>, true, None::<u16>, 0u16);
    for child in &nodes[first..first + n.children as usize] {
        match child.proven {
            p if p == mover => {
                shortest_win = Some(
                    shortest_win.map_or(child.proven_distance, |d| d.min(child.proven_distance)),
                )
            }
            UNPROVEN => all_proven = false,
            DRAW => {
                draw = Some(draw.map_or(child.proven_distance, |d| d.min(child.proven_distance)))
            }
            _ => longest_loss = longest_loss.max(child.proven_distance),
        }
    }
    match (shortest_win, all_proven, draw) {
        (Some(d), _, _) => Some((mover, d.saturating_add(1))),
        (None, true, Some(d)) => Some((DRAW, d.saturating_add(1))),
        (None, true, None) => Some((mover ^ 1, longest_loss.saturating_add(1))),
        (None, false, _) => None,
    }
}
