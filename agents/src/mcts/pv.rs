//! PUCT with a policy-value network (`pv=FILE`; Silver et al. 2018, as OpenSpiel's
//! `alpha_zero` plays it): a node's children get the network's prior when the node is
//! expanded, and a new leaf's value is the network's instead of a playout's.

use super::*;

impl<G: Game + Features> Mcts<G> {
    /// Evaluates expanded `node`'s position `state`: writes its children's prior (the
    /// softmax of their logits over the children, each move read at the cell it fills or,
    /// filling none, at the other move's logit) and returns the position's value for
    /// player 0.
    pub(super) fn add_pv(&mut self, node: usize, state: &G) -> f64 {
        let net = self.pv_net();
        let out = self
            .pv_eval
            .evaluate(&net, state)
            .expect("a network is checked against its game when the agent is built");
        let n = self.nodes[node];
        let first = n.first_child as usize;
        let children = first..first + usize::from(n.children);
        let logit = |mv: G::Move| match state.grid_cell(mv) {
            Some(cell) => out.cells[cell],
            None => out.other,
        };
        let top = children
            .clone()
            .map(|c| logit(self.moves[c - 1]))
            .fold(f32::NEG_INFINITY, f32::max);
        let mut sum = 0.0f64;
        for c in children.clone() {
            let e = f64::from(logit(self.moves[c - 1]) - top).exp();
            self.prob[c] = e as f32;
            sum += e;
        }
        for c in children.clone() {
            self.prob[c] = (f64::from(self.prob[c]) / sum) as f32;
        }
        let value = for_player_zero(state, f64::from(out.value));
        let epsilon = self.spec.pv_noise;
        if node == 0 && epsilon > 0.0 {
            // AlphaZero's exploration in self-play: the root's prior mixed with Dirichlet
            // noise, (1 − ε)·P + ε·η, η ~ Dir(α).
            let alpha = self.spec.pv_alpha;
            let mut total = 0.0;
            for _ in children.clone() {
                let g = gamma(&mut self.rng, alpha);
                self.noise_draws.push(g);
                total += g;
            }
            for (c, g) in children.zip(self.noise_draws.drain(..)) {
                let eta = if total > 0.0 { g / total } else { 0.0 };
                self.prob[c] = ((1.0 - epsilon) * f64::from(self.prob[c]) + epsilon * eta) as f32;
            }
        }
        value
    }

    /// The root's children after a search: each move and its visits, in the tree's order
    /// (empty before a search). Self-play learns the visits' distribution.
    pub fn root_visits(&self, out: &mut Vec<(G::Move, u32)>) {
        out.clear();
        let Some(root) = self.nodes.first().filter(|r| r.first_child != UNEXPANDED) else {
            return;
        };
        let first = root.first_child as usize;
        out.extend(
            (first..first + usize::from(root.children))
                .map(|c| (self.moves[c - 1], self.nodes[c].visits)),
        );
    }

    /// The network's value of `state` for player 0.
    pub(super) fn pv_value(&mut self, state: &G) -> f64 {
        if let Some(outcome) = state.outcome() {
            return match outcome.winner() {
                Some(p) if p.index() == 0 => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            };
        }
        let net = self.pv_net();
        let out = self
            .pv_eval
            .evaluate(&net, state)
            .expect("a network is checked against its game when the agent is built");
        for_player_zero(state, f64::from(out.value))
    }

    /// PUCT's score of child `i` of a parent with `visits`: `Q + C·P·√N/(1 + n)`, with
    /// `Q` the child's mean reward for its mover (`fpu=V`, else 0, while unvisited), `P` its
    /// prior and `N` the parent's visits, at least 1 (so that the prior orders the first
    /// descent from a new root, as OpenSpiel's root, evaluated before its first simulation,
    /// counts one visit).
    pub(super) fn puct(&self, parent_visits: u32, i: usize) -> f64 {
        let child = &self.nodes[i];
        let n = f64::from(child.visits);
        let q = if child.visits > 0 {
            child.reward / n
        } else {
            self.spec.fpu.unwrap_or(0.0)
        };
        q + self.spec.puct * f64::from(self.prob[i]) * f64::from(parent_visits.max(1)).sqrt()
            / (1.0 + n)
    }

    /// The spec's network, shared.
    fn pv_net(&self) -> std::sync::Arc<crate::pvnet::PvNet> {
        self.spec
            .pv
            .as_ref()
            .and_then(|p| p.net.clone())
            .expect("pv=FILE is read when the agent is built")
    }
}

/// A draw from Gamma(`alpha`, 1): Marsaglia and Tsang's method ("A simple method for
/// generating gamma variables", 2000), boosted by `U^{1/α}` below α = 1; its normal draws by
/// Box and Muller.
fn gamma<R: rand::Rng + ?Sized>(rng: &mut R, alpha: f64) -> f64 {
    if alpha < 1.0 {
        let u: f64 = rng.random();
        return gamma(rng, alpha + 1.0) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let (u1, u2): (f64, f64) = (rng.random(), rng.random());
        let x = (-2.0 * (1.0 - u1).ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = rng.random();
        if (1.0 - u).ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// `value`, the network's for the player to move in `state`, for player 0.
fn for_player_zero<G: Game>(state: &G, value: f64) -> f64 {
    match state.to_move() {
        Some(p) if p.index() == 1 => -value,
        _ => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ringside_engine::games::connect_four::{Column, ConnectFour};
    use ringside_engine::games::havannah::Havannah;

    /// The random square-kernel network of `agents/tests/data` (its outputs checked against
    /// PyTorch's in `pvnet::tests`).
    const NET: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pvnet-fixture-square.rspvn"
    );

    fn agent(text: &str, seed: u64) -> Mcts<ConnectFour> {
        let crate::AgentSpec::Mcts(spec) = crate::AgentSpec::parse(text).unwrap() else {
            unreachable!()
        };
        let eval = Evaluator::new(&spec.eval, &ConnectFour::new()).unwrap();
        Mcts::new(spec, eval, ringside_engine::seeded_rng(seed, 0))
    }

    fn net() -> crate::pvnet::PvNet {
        crate::pvnet::PvNet::read(&std::fs::read(NET).unwrap()).unwrap()
    }

    #[test]
    fn puct_picks_the_child_of_the_highest_q_plus_c_p_root_n_over_one_plus_n() {
        // A root of 10 visits and three children, built by hand; C = 1.5, √10 = 3.1623:
        //   a: 6 visits, Q 0.2, P 0.5: 0.2 + 1.5·0.5·3.1623/7 = 0.5388
        //   b: 3 visits, Q 0.5, P 0.3: 0.5 + 1.5·0.3·3.1623/4 = 0.8558
        //   c: unvisited (Q 0), P 0.2:  0 + 1.5·0.2·3.1623/1 = 0.9487  → c
        let mut m = agent(&format!("mcts:pv={NET},puct=1.5,iters=10"), 1);
        let mut root = Node::new(NOBODY);
        (root.visits, root.first_child, root.children) = (10, 1, 3);
        m.nodes = vec![root];
        for (visits, reward) in [(6, 1.2), (3, 1.5), (0, 0.0)] {
            let mut child = Node::new(0);
            (child.visits, child.reward) = (visits, reward);
            m.nodes.push(child);
        }
        m.moves = vec![Column(0), Column(1), Column(2)];
        m.prob = vec![0.0, 0.5, 0.3, 0.2];
        let scores: Vec<f64> = (1..4).map(|i| m.puct(10, i)).collect();
        for (got, want) in scores.iter().zip([0.5388, 0.8558, 0.9487]) {
            assert!((got - want).abs() < 1e-4, "{scores:?}");
        }
        assert_eq!(m.select(0), 3);
        // c lost its one visit (Q −1): −1 + 1.5·0.2·3.1623/2 = −0.526, so b.
        (m.nodes[3].visits, m.nodes[3].reward) = (1, -1.0);
        assert_eq!(m.select(0), 2);
        // An unvisited child's Q is fpu=V where given: at 0.5 a fresh c outranks b.
        let mut m2 = agent(&format!("mcts:pv={NET},puct=1.5,fpu=0.5"), 1);
        (m2.nodes, m2.moves, m2.prob) = (m.nodes.clone(), m.moves.clone(), m.prob.clone());
        (m2.nodes[3].visits, m2.nodes[3].reward) = (0, 0.0);
        assert!((m2.puct(10, 3) - (0.5 + 0.9487)).abs() < 1e-4);
        assert_eq!(m2.select(0), 3);
    }

    #[test]
    fn the_roots_prior_is_the_networks_softmax_over_the_cells_its_moves_fill() {
        // Column d twice: the children's cells are each column's landing cell.
        let mut state = ConnectFour::new();
        for m in ["d", "d"] {
            let mv = state.parse_move(m).unwrap();
            state.play(mv);
        }
        let mut m = agent(&format!("mcts:pv={NET},iters=1"), 2);
        m.choose(&state);
        let mut eval = crate::pvnet::PvEval::default();
        let net = net();
        let out = eval.evaluate(&net, &state).unwrap();
        let first = m.nodes[0].first_child as usize;
        let children = first..first + usize::from(m.nodes[0].children);
        let logits: Vec<f64> = children
            .clone()
            .map(|c| f64::from(out.cells[state.grid_cell(m.moves[c - 1]).unwrap()]))
            .collect();
        let sum: f64 = logits.iter().map(|l| l.exp()).sum();
        assert_eq!(logits.len(), 7);
        for (c, l) in children.zip(&logits) {
            assert!((f64::from(m.prob[c]) - l.exp() / sum).abs() < 1e-6);
        }
        // Column d's disc lands on its third row: cell 3 + 7·2.
        assert!(
            m.moves
                .iter()
                .any(|&mv| state.grid_cell(mv) == Some(3 + 7 * 2))
        );
    }

    #[test]
    fn a_new_leaf_is_valued_by_the_network_and_expanded_at_once() {
        let state = ConnectFour::new();
        let mut m = agent(&format!("mcts:pv={NET},iters=2"), 3);
        m.choose(&state);
        // Two iterations: the first expands the root and one leaf; the second another leaf
        // (or the same leaf's child). Each visited child of the root holds, as its mover's
        // (player 0's) reward, minus the network's value for the player to move after it.
        let net = net();
        let mut eval = crate::pvnet::PvEval::default();
        let first = m.nodes[0].first_child as usize;
        let mut checked = 0;
        for c in first..first + usize::from(m.nodes[0].children) {
            let node = m.nodes[c];
            if node.visits != 1 {
                continue;
            }
            let mut after = state;
            after.play(m.moves[c - 1]);
            let value = f64::from(eval.evaluate(&net, &after).unwrap().value);
            assert!(
                (node.reward + value).abs() < 1e-6,
                "{} {value}",
                node.reward
            );
            assert_ne!(node.first_child, UNEXPANDED, "expanded with its evaluation");
            checked += 1;
        }
        assert!(checked >= 1);
        // No playout ran: the search's only positions are the tree's.
        assert_eq!(m.nodes[0].visits, 2);
    }

    #[test]
    fn gamma_draws_have_the_mean_and_variance_of_their_alpha() {
        // Gamma(α, 1): mean α, variance α. 40,000 draws: the mean's standard error is
        // √(α/40000), under 0.008 here; the bounds are 5 of them.
        let mut rng = ringside_engine::seeded_rng(102, 0);
        for alpha in [0.03, 0.3, 1.0, 2.5] {
            let n = 40_000;
            let draws: Vec<f64> = (0..n).map(|_| gamma(&mut rng, alpha)).collect();
            let mean = draws.iter().sum::<f64>() / f64::from(n);
            let var = draws.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / f64::from(n);
            assert!(draws.iter().all(|&x| x >= 0.0 && x.is_finite()));
            let se = (alpha / f64::from(n)).sqrt();
            assert!((mean - alpha).abs() < 5.0 * se, "α {alpha}: mean {mean}");
            assert!(
                (var - alpha).abs() < 0.1 * alpha,
                "α {alpha}: variance {var}"
            );
        }
    }

    #[test]
    fn root_noise_mixes_into_the_roots_prior_and_nowhere_else() {
        let state = ConnectFour::new();
        let prior = |text: &str, seed: u64| {
            let mut m = agent(text, seed);
            m.choose(&state);
            let first = m.nodes[0].first_child as usize;
            let root: Vec<f32> = (first..first + 7).map(|c| m.prob[c]).collect();
            // Another expanded node's prior, which the noise leaves alone.
            let other = (1..m.nodes.len())
                .find(|&i| m.nodes[i].first_child != UNEXPANDED)
                .unwrap();
            let f = m.nodes[other].first_child as usize;
            let deeper: Vec<f32> = (f..f + usize::from(m.nodes[other].children))
                .map(|c| m.prob[c])
                .collect();
            (m.moves[first - 1..first + 6].to_vec(), root, deeper)
        };
        let plain = prior(&format!("mcts:pv={NET},iters=20"), 6);
        let noisy = prior(
            &format!("mcts:pv={NET},iters=20,pv_noise=0.25,pv_alpha=0.3"),
            6,
        );
        assert_eq!(plain.0, noisy.0, "the same children in the same order");
        let sum: f32 = noisy.1.iter().sum();
        assert!((sum - 1.0).abs() < 1e-5);
        assert_ne!(plain.1, noisy.1);
        for (p, q) in plain.1.iter().zip(&noisy.1) {
            assert!(
                *q >= 0.75 * p - 1e-6,
                "at least (1 − ε) of the prior is kept"
            );
        }
        // The same seed, the same noise.
        assert_eq!(
            noisy,
            prior(
                &format!("mcts:pv={NET},iters=20,pv_noise=0.25,pv_alpha=0.3"),
                6
            )
        );
        let err = crate::AgentSpec::parse(&format!("mcts:pv={NET},pv_alpha=0.3")).unwrap_err();
        assert!(
            err.reason.contains("pv_alpha goes with pv_noise=E"),
            "{err}"
        );
    }

    #[test]
    fn the_root_visits_are_the_root_childrens_after_a_search() {
        let state = ConnectFour::new();
        let mut m = agent(&format!("mcts:pv={NET},iters=50"), 7);
        let mut visits = Vec::new();
        m.root_visits(&mut visits);
        assert!(visits.is_empty(), "no search, no root");
        let chosen = m.choose(&state).mv;
        m.root_visits(&mut visits);
        assert_eq!(visits.len(), 7);
        assert_eq!(
            visits.iter().map(|v| v.1).sum::<u32>(),
            50,
            "every descent passes a child"
        );
        let most = visits.iter().max_by_key(|v| v.1).unwrap();
        assert_eq!(visits.iter().filter(|v| v.1 == most.1).count(), 1);
        assert_eq!(most.0, chosen);
    }

    #[test]
    fn a_pv_search_depends_only_on_its_seed_and_plays_whole_games() {
        let search = |seed: u64| {
            let mut m = agent(&format!("mcts:pv={NET},iters=200"), seed);
            let mut state = ConnectFour::new();
            let mut moves = Vec::new();
            while state.outcome().is_none() {
                let mv = m.choose(&state).mv;
                assert!(state.is_legal(mv));
                moves.push(mv);
                state.play(mv);
            }
            moves
        };
        assert_eq!(search(4), search(4));
    }

    #[test]
    fn a_pv_file_is_named_by_its_content_and_refused_where_it_cannot_play() {
        let spec = crate::AgentSpec::parse(&format!("mcts:pv={NET},puct=1.25")).unwrap();
        let printed = spec.to_string();
        assert!(printed.contains(&format!("pv={NET},pv_id=")), "{printed}");
        assert!(printed.contains("puct=1.25"), "{printed}");
        assert_eq!(crate::AgentSpec::parse(&printed).unwrap(), spec);
        assert!(spec.build(&ConnectFour::new(), 1).is_ok());
        let err = spec
            .build(&Havannah::new(4, false).unwrap(), 1)
            .unwrap_err();
        assert!(err.reason.contains("kernel is for square cells"), "{err}");
        let err = spec
            .build(&ringside_engine::games::rin::Rin::default(), 1)
            .unwrap_err();
        assert!(err.reason.contains("has no grid"), "{err}");
        for (extra, name) in [("rave=300", "rave"), ("know=1", "know"), ("bias=1", "bias")] {
            let err = crate::AgentSpec::parse(&format!("mcts:pv={NET},{extra}")).unwrap_err();
            assert!(
                err.reason.contains(&format!("{name} does not go with it")),
                "{err}"
            );
        }
        let err = crate::AgentSpec::parse("mcts:puct=1").unwrap_err();
        assert!(
            err.reason.contains("puct and pv_noise go with pv=FILE"),
            "{err}"
        );
    }
}
