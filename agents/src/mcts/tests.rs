//! Tests of the search: tree reuse, RAVE's credits and schedules, decisive moves, priors and
//! knowledge, replies, the final choice, MAST and root parallelism.

use super::*;
use ringside_engine::games::havannah::{Cell, Havannah};
use ringside_engine::games::hexxagon::Hexxagon;
use ringside_engine::games::rin::Rin;

/// The MCTS agent of `text` for games like `start`, seeded (`seed`, 0).
fn agent<G: Game + Features>(text: &str, start: &G, seed: u64) -> Mcts<G> {
    let crate::AgentSpec::Mcts(spec) = crate::AgentSpec::parse(text).unwrap() else {
        unreachable!()
    };
    let eval = Evaluator::new(&spec.eval, start).unwrap();
    Mcts::new(spec, eval, ringside_engine::seeded_rng(seed, 0))
}

/// The MCTS agent of `text` for `start`, seeded (3, 0).
fn rin_agent(text: &str, start: &Rin) -> Mcts<Rin> {
    agent(text, start, 3)
}

fn mcts_for(start: &Rin, iterations: u32) -> Mcts<Rin> {
    rin_agent(&format!("mcts:iters={iterations}"), start)
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

#[test]
fn tree_reuse_looks_three_plies_below_the_chosen_move_and_no_further() {
    // Without exploration (c = 0) the tree grows deep along its best line.
    let start = Rin::new(6).unwrap();
    let mut mcts = rin_agent("mcts:iters=2000,c=0", &start);
    mcts.choose(&start);
    let chosen = mcts.last_choice.unwrap();
    let mut after = start;
    after.play(mcts.moves[chosen as usize - 1]);
    // The most visited line below the chosen move, REUSE_DEPTH + 1 plies long.
    let (mut state, mut node, mut line) = (after, chosen as usize, Vec::new());
    for _ in 0..=REUSE_DEPTH {
        let n = mcts.nodes[node];
        let first = n.first_child as usize;
        node = (first..first + n.children as usize)
            .max_by_key(|&i| mcts.nodes[i].visits)
            .unwrap();
        assert!(mcts.nodes[node].visits > 0);
        state.play(mcts.moves[node - 1]);
        line.push((state, node as u32));
    }
    let (deepest, too_deep) = (&line[REUSE_DEPTH as usize - 1], &line[REUSE_DEPTH as usize]);
    assert_eq!(
        mcts.find(chosen, &after, &deepest.0, REUSE_DEPTH),
        Some(deepest.1)
    );
    assert_eq!(mcts.find(chosen, &after, &too_deep.0, REUSE_DEPTH), None);
}

#[test]
fn without_tree_reuse_every_search_starts_a_fresh_tree() {
    // The reuse test's double move, with reuse=off: the second search's root has only its
    // own iterations.
    let start = Rin::new(6)
        .unwrap()
        .set_up("......\n......\n..B...\n...W..\n....W.\n......\nply 3")
        .unwrap();
    let mut mcts = rin_agent("mcts:iters=500,reuse=off", &start);
    let mut state = start;
    state.play(mcts.choose(&state).mv);
    mcts.choose(&state);
    assert_eq!(mcts.nodes[0].visits, 500);
}

fn rave_for<G: Game + Features>(start: &G, seed: u64) -> Mcts<G> {
    agent("mcts:iters=300,rave=500", start, seed)
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
fn cutoff_amaf_credits_only_the_tree_move_and_the_playouts_first_plies() {
    // One iteration on an empty size-4 Havannah board: the line is the tree's move, then
    // the playout's. With amaf_plies=3 only the line's first 1 + 3 moves credit the root's
    // children: the tree's move and the playout's first three, each by its own mover.
    let h = Havannah::new(4, false).unwrap();
    let m = one_iteration("mcts:iters=1,rave=500,amaf_plies=3", &h);
    assert!(m.line.len() > 10, "the playout runs past the cutoff");
    let first = m.nodes[0].first_child as usize;
    let mover = m.nodes[first].mover_into;
    let mut credited = 0;
    for c in first..first + m.nodes[0].children as usize {
        let index = h.move_index(m.moves[c - 1]) as u32;
        let played_early = m.line[..4]
            .iter()
            .any(|s| s.index == index && s.mover == mover);
        assert_eq!(m.amaf[c].visits, u32::from(played_early), "child {c}");
        credited += usize::from(played_early);
    }
    // The tree's move and the playout's second ply are the root mover's.
    assert_eq!(credited, 2);
}

#[test]
fn a_cutoff_past_every_playout_changes_nothing() {
    // amaf_plies longer than any game leaves the search as it is without it, with one
    // playout a leaf and with several credited together.
    let h = Havannah::new(4, false).unwrap();
    for rollouts in [1, 3] {
        let plain = format!("mcts:iters=200,rave=500,rollouts={rollouts}");
        let cut = format!("{plain},amaf_plies=1000");
        let (mut a, mut b) = (havannah_agent(&plain), havannah_agent(&cut));
        let (da, db) = (a.choose(&h), b.choose(&h));
        assert_eq!(da.mv, db.mv);
        assert_eq!(a.nodes.len(), b.nodes.len());
        let amaf = |m: &Mcts<Havannah>| {
            m.amaf
                .iter()
                .map(|a| (a.visits, a.reward))
                .collect::<Vec<_>>()
        };
        assert_eq!(amaf(&a), amaf(&b), "rollouts={rollouts}");
        // A short cutoff credits less.
        let mut c = havannah_agent(&format!("{plain},amaf_plies=2"));
        c.choose(&h);
        let total = |m: &Mcts<Havannah>| m.amaf.iter().map(|a| u64::from(a.visits)).sum::<u64>();
        assert!(total(&c) < total(&a), "rollouts={rollouts}");
    }
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

/// The MCTS agent of `text` for Havannah 4, seeded (5, 0).
fn havannah_agent(text: &str) -> Mcts<Havannah> {
    agent(text, &Havannah::new(4, false).unwrap(), 5)
}

/// Havannah 4 after `moves` (cell names, from the start).
fn havannah4(moves: &str) -> Havannah {
    let mut h = Havannah::new(4, false).unwrap();
    for m in moves.split_whitespace() {
        h.play(h.parse_move(m).unwrap());
    }
    h
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
    havannah4(if white_to_move {
        "a1 d4 b1 e5 c1 c4"
    } else {
        "a1 d4 b1 e5 c1"
    })
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
fn decisive_plies_limit_the_playout_tests_to_a_playouts_first_plies() {
    // With decisive_plies=2 the win on d1 is taken at plies 0 and 1 of a playout; from ply
    // 2 the move is the policy's, random over the 31 empty cells.
    let h = bridge_threat(true);
    let white = h.to_move().unwrap();
    let mut m = havannah_agent("mcts:iters=10,decisive=on,decisive_plies=2");
    for ply in [0, 1] {
        for _ in 0..5 {
            assert_eq!(
                h.move_text(m.playout_move_at(&h, white, ply)),
                "d1",
                "ply {ply}"
            );
        }
    }
    let later: std::collections::BTreeSet<_> = (0..40)
        .map(|_| h.move_text(m.playout_move_at(&h, white, 2)))
        .collect();
    assert!(later.len() > 10, "{later:?}");
    // Without the limit every ply takes the win.
    let mut every = havannah_agent("mcts:iters=10,decisive=on");
    assert_eq!(h.move_text(every.playout_move_at(&h, white, 500)), "d1");
    // The limit means nothing without decisive=on, and is refused.
    assert!(crate::AgentSpec::parse("mcts:decisive_plies=3").is_err());
    assert!(crate::AgentSpec::parse("mcts:decisive=tree,decisive_plies=3").is_err());
}

#[test]
fn pruned_cells_are_left_out_of_random_playout_moves_and_pruning_marks_low_amaf_cells() {
    // Half the cells of an empty size-4 board pruned: a random move lands on one only when
    // nine draws in a row do (1 in 512); unpruned, half the moves would.
    let h = Havannah::new(4, false).unwrap();
    let mut m = havannah_agent("mcts:iters=10,rave=500,prune=0.1");
    let count = h.move_index_count();
    let pruned: Vec<usize> = (0..count).filter(|i| i % 2 == 0).collect();
    m.prune_indices(count, &pruned);
    let draws = 400;
    let landed = (0..draws)
        .map(|_| h.move_index(m.playout_move(&h, Player::ZERO)))
        .filter(|i| i % 2 == 0)
        .count();
    assert!(landed < 10, "{landed} of {draws} draws on pruned cells");
    m.prune_indices(count, &[]);
    let landed = (0..draws)
        .map(|_| h.move_index(m.playout_move(&h, Player::ZERO)))
        .filter(|i| i % 2 == 0)
        .count();
    assert!(
        landed > 100,
        "{landed} of {draws} draws on even cells with nothing pruned"
    );

    // After a search, the marked cells are exactly the children of the deepest well-visited
    // node whose AMAF mean, with enough samples, is below the threshold.
    // With prune=0.05 the bar is the sampled children's average AMAF mean less 0.05.
    let mut m = havannah_agent("mcts:iters=3000,rave=500,prune=0.05");
    m.choose(&h);
    let root = m.nodes[0];
    let (first, children) = (root.first_child as usize, usize::from(root.children));
    let means: Vec<f64> = (first..first + children)
        .filter(|&k| m.amaf[k].visits >= PRUNE_SAMPLES)
        .filter_map(|k| m.amaf[k].mean())
        .collect();
    let threshold = means.iter().sum::<f64>() / means.len() as f64 - 0.05;
    m.path.clear();
    m.path.push(0);
    m.mark_pruned();
    let mut marked = 0;
    for k in first..first + children {
        let i = h.move_index(m.moves[k - 1]);
        let is_marked = super::playout::is_marked(&m.pruned, i);
        let a = m.amaf[k];
        let low = a.visits >= PRUNE_SAMPLES && a.mean().is_some_and(|x| x < threshold);
        assert_eq!(is_marked, low, "child {k}");
        marked += usize::from(is_marked);
    }
    assert!(
        marked > 0 && marked < children,
        "{marked} of {children} marked"
    );
    // Pruning needs AMAF statistics, and is refused without them.
    assert!(crate::AgentSpec::parse("mcts:prune=0").is_err());
}

#[test]
fn pool_moves_are_drawn_with_probability_pool_p_and_only_when_legal() {
    let h = Havannah::new(4, false).unwrap();
    let legal = moves_of(&h);
    assert_eq!(legal.len(), 37);
    let pool = [legal[3], legal[10], legal[20]];
    // pool_p=1: every move is a pool move.
    let mut m = havannah_agent("mcts:iters=10,rave=500,pool=3,pool_p=1");
    m.set_pool(&pool);
    for _ in 0..200 {
        assert!(pool.contains(&m.playout_move(&h, Player::ZERO)));
    }
    // The default pool_p=0.3: a pool move 0.3 + 0.7 × 3/37 of the time (0.357: 713 of 2,000,
    // standard deviation 21); without a pool, 3/37 (162).
    let mut m = havannah_agent("mcts:iters=10,rave=500,pool=3");
    let draws = 2000;
    let hits = |m: &mut Mcts<Havannah>| {
        (0..draws)
            .filter(|_| pool.contains(&m.playout_move(&h, Player::ZERO)))
            .count()
    };
    let without = hits(&mut m);
    assert!((100..230).contains(&without), "{without} without a pool");
    m.set_pool(&pool);
    let with = hits(&mut m);
    assert!((640..790).contains(&with), "{with} with the pool");
    // Every pool cell taken: the draws fall back to the policy's legal moves.
    let mut taken = h.clone();
    for &mv in &pool {
        taken.play(mv);
    }
    let mover = taken.to_move().unwrap();
    let mut m = havannah_agent("mcts:iters=10,rave=500,pool=3,pool_p=1");
    m.set_pool(&pool);
    for _ in 0..200 {
        let mv = m.playout_move(&taken, mover);
        assert!(taken.is_legal(mv) && !pool.contains(&mv));
    }
}

#[test]
fn the_pool_is_the_k_best_amaf_children_of_the_deepest_node_with_50_visits() {
    let h = Havannah::new(4, false).unwrap();
    // The K best sampled children of `node` by AMAF mean, ties to the child stored first.
    let best = |m: &Mcts<Havannah>, node: usize, k: usize| -> Vec<Cell> {
        let n = m.nodes[node];
        let first = n.first_child as usize;
        let mut ranked: Vec<(f64, usize)> = (first..first + usize::from(n.children))
            .filter(|&c| m.amaf[c].visits >= POOL_SAMPLES)
            .filter_map(|c| Some((m.amaf[c].mean()?, c)))
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        ranked
            .iter()
            .take(k)
            .map(|&(_, c)| m.moves[c - 1])
            .collect()
    };
    let mut m = havannah_agent("mcts:iters=3000,rave=500,pool=5");
    m.choose(&h);
    m.path.clear();
    m.path.push(0);
    m.fill_pool();
    assert_eq!(m.pool.len(), 5);
    assert_eq!(m.pool, best(&m, 0, 5));
    // A deeper node with 50 visits on the path gives the pool instead.
    let root = m.nodes[0];
    let first = root.first_child as usize;
    let child = (first..first + usize::from(root.children))
        .max_by_key(|&c| m.nodes[c].visits)
        .unwrap();
    assert!(m.nodes[child].visits >= POOL_VISITS);
    m.path.push(child as u32);
    m.fill_pool();
    assert_eq!(m.pool, best(&m, child, 5));
    assert_ne!(m.pool, best(&m, 0, 5));
    // A pool larger than the sampled children holds them all, best first.
    let mut all = havannah_agent("mcts:iters=3000,rave=500,pool=1000");
    all.choose(&h);
    all.path.clear();
    all.path.push(0);
    all.fill_pool();
    assert_eq!(all.pool, best(&all, 0, 1000));
    assert!(all.pool.len() > 5);
    // No node with 50 visits (10 iterations): no pool.
    let mut young = havannah_agent("mcts:iters=10,rave=500,pool=5");
    young.choose(&h);
    young.path.clear();
    young.path.push(0);
    young.fill_pool();
    assert!(young.pool.is_empty());
}

#[test]
fn a_search_with_a_pool_depends_only_on_its_seed_and_pool_needs_rave_and_root_parallelism() {
    let h = Havannah::new(5, false).unwrap();
    let search = |seed| {
        let mut m = agent("mcts:iters=400,rave=500,pool=10", &h, seed);
        let mv = m.choose(&h).mv;
        (mv, m.tree_size(), m.nodes[0].reward)
    };
    assert_eq!(search(7), search(7));
    assert_ne!(search(7), search(8));
    let spec = |t: &str| crate::AgentSpec::parse(t).map(|s| s.to_string());
    let text = spec("mcts:rave=500,pool=10").unwrap();
    assert!(text.contains(",pool=10,pool_p=0.3"), "{text}");
    assert!(!spec("mcts:rave=500").unwrap().contains("pool"));
    assert!(spec("mcts:pool=10").is_err());
    assert!(spec("mcts:rave=500,pool_p=0.5").is_err());
    assert!(spec("mcts:rave=500,pool=10,pool_p=1.5").is_err());
    assert!(spec("mcts:rave=500,pool=10,parallel=tree,threads=2").is_err());
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
    let h = havannah4("a1 d4 b1 e5 c1 e4 a2 f5 a3");
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
    // With a single threat the block is spared: d1 in the bridge_threat position (the first
    // empty cell listed), g7 when White's d7 e7 f7 threaten a bridge along the bottom edge
    // (listed last).
    let bottom = havannah4("d7 a1 e7 b1 f7");
    for (single, block) in [(bridge_threat(false), "d1"), (bottom, "g7")] {
        let m = one_iteration("mcts:iters=1,decisive=tree", &single);
        let n = m.nodes[0];
        let first = n.first_child as usize;
        let unproven: Vec<String> = (first..first + n.children as usize)
            .filter(|&c| m.nodes[c].proven == UNPROVEN)
            .map(|c| single.move_text(m.moves[c - 1]))
            .collect();
        assert_eq!(unproven, [block]);
    }
}

/// The legal moves of `state`.
fn moves_of<G: Game>(state: &G) -> Vec<G::Move> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
}

/// Whether `mover`, to move at `h`, mates in three by `mv`, found by playing every line out
/// (not by the game's wins at once): no reply ends the game but in `mover`'s favour, and after
/// each `mover` has a move that wins.
fn mates_in_three(h: &Havannah, mover: Player, mv: Cell) -> bool {
    let mut after = h.clone();
    after.play(mv);
    if after.outcome().is_some() {
        return false;
    }
    moves_of(&after).into_iter().all(|reply| {
        let mut next = after.clone();
        next.play(reply);
        match next.outcome() {
            Some(outcome) => outcome == Outcome::Win(mover),
            None => moves_of(&next).into_iter().any(|win| {
                let mut last = next.clone();
                last.play(win);
                last.outcome() == Some(Outcome::Win(mover))
            }),
        }
    })
}

#[test]
fn a_mate_in_three_is_proven_among_children_the_search_has_not_tried() {
    // Size 4: White's b1 c1 on the top edge and a2 a3 on the left edge, Black's stones in the
    // middle, White to move. No move wins at once, and only a1, the corner between them,
    // makes two bridges at once (d1 and a4): no Black stone stops both.
    let h = havannah4("b1 d4 c1 e5 a2 f5 a3 e4");
    let white = h.to_move().unwrap();
    let mates: Vec<String> = moves_of(&h)
        .into_iter()
        .filter(|&mv| mates_in_three(&h, white, mv))
        .map(|mv| h.move_text(mv))
        .collect();
    assert_eq!(
        mates,
        ["a1"],
        "the position has one mate, found by playing it out"
    );
    // Two iterations: the first expands the root (decisive moves prove nothing here), the
    // second finds the root with one visit, searches it, and the solver proves it.
    let spec = "mcts:iters=2,decisive=tree,solver=on,mate_at=1";
    let mut m = havannah_agent(spec);
    assert_eq!(h.move_text(m.choose(&h).mv), "a1");
    assert_eq!(m.root_proof(), Some((Some(white), 3)));
    let n = m.nodes[0];
    let proven: Vec<(String, u8, u16)> = (n.first_child..n.first_child + u32::from(n.children))
        .map(|c| (c as usize, m.nodes[c as usize]))
        .filter(|(_, node)| node.proven != UNPROVEN)
        .map(|(c, node)| {
            (
                h.move_text(m.moves[c - 1]),
                node.proven,
                node.proven_distance,
            )
        })
        .collect();
    assert_eq!(proven, [("a1".to_string(), white.index() as u8, 2)]);
    // Without the mate search two iterations prove nothing, and most children are untried.
    let mut off = havannah_agent("mcts:iters=2,decisive=tree,solver=on");
    off.choose(&h);
    assert_eq!(off.root_proof(), None);
    // The reply test on its own, which two wins at once never fail in Havannah: after a1
    // White wins against every Black reply; with one threat (d1 in `bridge_threat`) Black's
    // block leaves none, and where the player to move wins at once itself, that reply wins.
    let (mut probe, mut moves) = (None, Vec::new());
    let mut every = |state: &Havannah, mover: Player| {
        Mcts::<Havannah>::wins_after_every_reply(
            state,
            mover,
            &moves_of(state),
            &mut moves,
            &mut probe,
        )
    };
    let mut mated = h.clone();
    mated.play(mated.parse_move("a1").unwrap());
    assert!(every(&mated, white));
    assert!(!every(&bridge_threat(false), white));
    assert!(!every(&bridge_threat(true), white.other()));
    // White's two bridges to make (d1, a4) against Black's own on the bottom edge (g7), Black
    // to move: every reply but g7 leaves White a win, and g7 wins for Black.
    let both = havannah4("a1 d7 b1 e7 c1 f7 a2 e4 a3");
    assert!(both.outcome().is_none());
    assert_eq!(
        both.wins_at_once(white.other(), both.parse_move("g7").unwrap()),
        Some(true)
    );
    assert!(!every(&both, white));
    // A node is searched only once it has mate_at visits: at 1,000, two iterations do not.
    let mut late = havannah_agent("mcts:iters=2,decisive=tree,solver=on,mate_at=1000");
    late.choose(&h);
    assert_eq!(late.root_proof(), None);
}

#[test]
fn the_mate_search_proves_only_mates_and_leaves_a_game_it_cannot_read_alone() {
    // Along random size-4 games, a search with mate_at=1 proves children won at distance 2
    // only where playing every line out finds a mate in three.
    let mut rng = ringside_engine::seeded_rng(11, 0);
    let mut found = 0;
    for _ in 0..20 {
        let mut h = Havannah::new(4, false).unwrap();
        while h.outcome().is_none() {
            let mover = h.to_move().unwrap();
            let mut m = havannah_agent("mcts:iters=30,decisive=tree,solver=on,mate_at=1");
            m.choose(&h);
            let n = m.nodes[0];
            for c in n.first_child..n.first_child + u32::from(n.children) {
                let node = m.nodes[c as usize];
                if node.proven == mover.index() as u8 && node.proven_distance == 2 {
                    assert!(mates_in_three(&h, mover, m.moves[c as usize - 1]));
                    found += 1;
                }
            }
            let mv = h.random_move(&mut rng, &mut Vec::new()).unwrap();
            h.play(mv);
        }
    }
    assert!(found > 0, "some positions of random games hold a mate");
    // Rin cannot tell a win at once without playing it: the option changes nothing there.
    let start = Rin::new(6).unwrap();
    let mut with = rin_agent("mcts:iters=300,decisive=tree,solver=on,mate_at=1", &start);
    let mut without = rin_agent("mcts:iters=300,decisive=tree,solver=on", &start);
    let (a, b) = (with.choose(&start), without.choose(&start));
    assert_eq!((a.mv, a.stats.nodes), (b.mv, b.stats.nodes));
    // It needs decisive moves in the tree and the solver.
    for text in ["mcts:mate_at=8", "mcts:decisive=tree,solver=off,mate_at=8"] {
        let err = crate::AgentSpec::parse(text).unwrap_err().to_string();
        assert!(err.contains("mate_at needs decisive=tree"), "{err}");
    }
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
fn a_move_that_ends_the_game_in_the_opponents_favour_is_valued_by_evaluation_not_as_a_win() {
    // Hexxagon 3, Dark to move with one empty cell: the growth e3 fills the board and Light
    // wins 10 to 9; a jump into e3 (e1-e3) leaves its source empty and the game goes on.
    let h = Hexxagon::new(3)
        .unwrap()
        .set_up("  L L L\n L L L L\nL L L D D\n D D D D\n  D D .\nto_move dark")
        .unwrap();
    let dark = h.to_move().unwrap();
    let growth = h.parse_move("e3").unwrap();
    let mut after = h;
    after.play(growth);
    assert_eq!(after.outcome(), Some(Outcome::Win(dark.other())));
    // Progressive bias: the growth's prior is tanh(material / 4) = tanh(-1/4), not a win's 1.
    let mut m = agent("mcts:iters=1,bias=1,eval=material", &h, 5);
    m.choose(&h);
    let first = m.nodes[0].first_child as usize;
    let k = m.moves[first - 1..first - 1 + m.nodes[0].children as usize]
        .iter()
        .position(|&mv| mv == growth)
        .unwrap();
    assert_eq!(m.prior[first + k], (-0.25f64).tanh() as f32);
    // The evaluation policy, with material weighted -1: the growth is worth 1 and a jump 2;
    // the lost growth must not count as a win.
    let mut greedy = agent(
        "mcts:iters=1,policy=eval,epsilon=0,eval=material,w.material=-1",
        &h,
        5,
    );
    for _ in 0..20 {
        let mv = greedy.playout_move(&h, dark);
        assert_ne!(mv, growth, "{}", h.move_text(mv));
    }
}

#[test]
fn rave_schedules_weigh_amaf_by_their_formulas() {
    // An empty size-4 board (37 moves) with every root child visited 30 times. A has
    // Q = 0.4 and AMAF 0; B has Q = 0 and AMAF 1; the others lose every playout. With
    // c = 0, B wins exactly when β > 0.4 / 1.4 = 0.286:
    // - sqrt, K = 10: β = √(10 / (90 + 10)) = 0.316 → B;
    // - hyp, K = 10: β = 10 / (10 + 30) = 0.25 → A;
    // - hyp, K = 10 + 1 × 37 moves = 47: β = 47 / 77 = 0.61 → B.
    for (options, picks_b) in [
        ("rave=10", true),
        ("rave=10,rave_form=hyp", false),
        ("rave=10,rave_form=hyp,rave_grow=1", true),
    ] {
        let (mut m, first) = ucb_root(&format!("c=0,{options}"));
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
fn minimum_mse_schedule_trusts_amaf_only_as_far_as_its_visits_go() {
    // An empty size-4 board, K = 100, every root child visited 30 times. A has Q = 0.4 and
    // no AMAF visits (its value is Q); B has Q = 0 and an AMAF mean of 1 over ñ visits; the
    // others lose every playout. B wins exactly when β > 0.4:
    // - hyp: β = 100 / 130 = 0.769 whatever ñ → B;
    // - mse, ñ = 10: β = 10 / (30 + 10 + 30·10/100) = 10 / 43 = 0.233 → A;
    // - mse, ñ = 100: β = 100 / (30 + 100 + 30) = 0.625 → B.
    for (form, amaf_visits, picks_b) in [("hyp", 10, true), ("mse", 10, false), ("mse", 100, true)]
    {
        let options = format!("c=0,rave=100,rave_form={form}");
        let (mut m, first) = ucb_root(&options);
        for c in first..first + m.nodes[0].children as usize {
            let (q, amaf) = match c - first {
                0 => (0.4, Amaf::default()),
                1 => (
                    0.0,
                    Amaf {
                        reward: amaf_visits as f32,
                        visits: amaf_visits,
                    },
                ),
                _ => (
                    -1.0,
                    Amaf {
                        reward: -30.0,
                        visits: 30,
                    },
                ),
            };
            m.nodes[c].visits = 30;
            m.nodes[c].reward = 30.0 * q;
            m.amaf[c] = amaf;
        }
        let expected = if picks_b { first + 1 } else { first };
        assert_eq!(m.select(0), expected, "{options}, ñ = {amaf_visits}");
    }
}

#[test]
fn knowledge_fades_as_the_power_know_fade_of_the_visits() {
    // The position of the test below: c3's knowledge is 0.5. At 100 visits it is 0.5/√100
    // = 0.05 by default, 0.5/100 = 0.005 at know_fade=1 and 0.5/100^0.25 = 0.158 at 0.25;
    // full at one visit, none from 1,000, whatever the fade.
    let h = link_intrusion();
    for (fade, at_100) in [(0.5, 0.05), (1.0, 0.005), (0.25, 0.5 / 10f64.sqrt())] {
        let m = one_iteration(&format!("mcts:iters=1,fpu=0,know=1,know_fade={fade}"), &h);
        let c3 = m.path[1] as usize;
        assert_eq!(h.move_text(m.moves[c3 - 1]), "c3");
        assert_eq!(m.knowledge(c3, 0), 0.5, "fade {fade}");
        assert_eq!(m.knowledge(c3, 1), 0.5, "fade {fade}");
        assert!((m.knowledge(c3, 100) - at_100).abs() < 1e-12, "fade {fade}");
        assert_eq!(m.knowledge(c3, 1_000), 0.0, "fade {fade}");
    }
}

#[test]
fn move_knowledge_is_kept_per_child_and_steers_the_first_visits() {
    // White b2 and c4 are linked through b3 and c3; Black intrudes on b3. White's c3
    // answers (0.5), a1 b1 and the other edge cells touch an edge or a corner (0.4).
    let mut h = havannah4("b2 g7 c4 b3");
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
fn ngram_learns_the_lines_pairs_and_halves_them_at_each_search() {
    // One iteration: each pair of consecutive moves of its line (tree and playout) is
    // credited once to the second's mover, with that mover's reward; MAST's table too.
    let h = bridge_threat(false);
    let mut m = havannah_agent("mcts:iters=1,policy=ngram,epsilon=0.5");
    m.choose(&h);
    let line = m.line.clone();
    assert!(line.len() > 5, "{line:?}");
    assert_eq!(m.ngram.len(), NGRAM_SLOTS);
    let count = h.move_index_count();
    // Black moved first here (path[1] is Black's move): White's reward is its negation.
    let black = m.nodes[m.path[1] as usize].reward;
    let mut expected = vec![[(0u32, 0.0f64); 2]; NGRAM_SLOTS];
    for pair in line.windows(2) {
        let slot = &mut expected[(pair[0].index as usize) * count + pair[1].index as usize]
            [pair[1].mover as usize];
        slot.0 += 1;
        slot.1 += if pair[1].mover == 1 { black } else { -black };
    }
    for (slot, (row, want)) in m.ngram.iter().zip(&expected).enumerate() {
        for player in 0..2 {
            assert_eq!(row[player].visits, want[player].0, "{slot} {player}");
            assert_eq!(
                f64::from(row[player].reward),
                want[player].1,
                "{slot} {player}"
            );
        }
    }
    let singles: u32 = m.mast.iter().flatten().map(|a| a.visits).sum();
    assert_eq!(
        singles,
        line.len() as u32,
        "MAST's table learns beside the pairs'"
    );
    // The next search halves the pairs (visits round down: each seen once becomes 0).
    m.search(&h, Some(1), crate::clock::Clock::unlimited());
    let seen: u32 = m.ngram.iter().flatten().map(|a| a.visits).sum();
    assert!(
        seen < m.line.len() as u32,
        "old pairs halved to 0: {seen} of {}",
        m.line.len()
    );
}

#[test]
fn ngram_plays_the_best_average_of_move_and_pair_once_the_pair_is_seen_seven_times() {
    // White played e5; Black to move. MAST: b1 at 0.6, d4 at 0.5, every other move unseen
    // (0). The pair (e5, d4) at 1.0: seen 7 times it lifts d4 to (0.5 + 1.0) / 2 = 0.75,
    // above b1; seen 6 times it is left out, and b1 is the best. The pair (e5, b1) at -1.0,
    // seen 7 times, takes b1 to (0.6 - 1.0) / 2 = -0.2, below every unseen move but d4.
    let mut h = Havannah::new(4, false).unwrap();
    let ((e5, e5_index), (d4, d4_index), (b1, b1_index)) =
        (cell_at(&h, "e5"), cell_at(&h, "d4"), cell_at(&h, "b1"));
    h.play(e5);
    let count = h.move_index_count();
    let slot = |index: usize| e5_index * count + index;
    let amaf = |visits: u32, mean: f32| Amaf {
        visits,
        reward: mean * visits as f32,
    };
    for (pair_d4, pair_b1, want) in [
        (amaf(7, 1.0), Amaf::default(), d4),
        (amaf(6, 1.0), Amaf::default(), b1),
        (Amaf::default(), amaf(7, -1.0), d4),
        (amaf(7, 1.0), amaf(7, -1.0), d4),
    ] {
        let mut m = havannah_agent("mcts:iters=1,policy=ngram,epsilon=0");
        m.line = vec![Step {
            index: e5_index as u32,
            mover: 0,
            mv: e5,
        }];
        m.mast = vec![[Amaf::default(); 2]; count];
        m.mast[b1_index][1] = amaf(10, 0.6);
        m.mast[d4_index][1] = amaf(10, 0.5);
        // White's averages are not Black's.
        m.mast[cell_at(&h, "a1").1][0] = amaf(10, 1.0);
        m.ngram = vec![[Amaf::default(); 2]; NGRAM_SLOTS];
        m.ngram[slot(d4_index)][1] = pair_d4;
        m.ngram[slot(b1_index)][1] = pair_b1;
        for _ in 0..5 {
            let mv = m.playout_move(&h, Player::ONE);
            assert_eq!(mv, want, "{pair_d4:?} {pair_b1:?}");
        }
    }
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
    let h = havannah4("b2 g7 c4 b3");
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
    m.search(&h, Some(1), crate::clock::Clock::unlimited());
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
    // ⌊400/3⌋ = 133 each, and the one left over goes to the first tree; each tree gets at
    // least one iteration whatever the budget.
    for (iterations, roots) in [(400, [134, 133, 133]), (5, [2, 2, 1]), (2, [1, 1, 1])] {
        let mut p = havannah_agent(&format!("mcts:iters={iterations},threads=3"));
        p.choose(&h);
        let visits: Vec<u32> = std::iter::once(p.nodes[0].visits)
            .chain(p.helpers.iter().map(|t| t.nodes[0].visits))
            .collect();
        assert_eq!(visits, roots, "{iterations} iterations");
    }
}

#[test]
fn root_parallelism_chooses_by_the_sums_over_every_tree_that_searched() {
    let h = Havannah::new(4, false).unwrap();
    let mut p = havannah_agent("mcts:iters=300,threads=3");
    p.choose(&h);
    // The third tree is left without a search (as a tree that got no time would be).
    p.helpers[1].reset();
    let (first, count) = (
        p.nodes[0].first_child as usize,
        p.nodes[0].children as usize,
    );
    let searched = [&p, &p.helpers[0]];
    // Each tree stores the root's children in its own random order: sum by move.
    let sums: Vec<(u64, f64)> = (0..count)
        .map(|k| {
            let mv = p.moves[first + k - 1];
            searched.iter().fold((0, 0.0), |(v, r), t| {
                let n = t.nodes[t.root_child(mv).unwrap()];
                (v + u64::from(n.visits), r + n.reward)
            })
        })
        .collect();
    let order = |t: &Mcts<Havannah>| {
        let f = t.nodes[0].first_child as usize;
        t.moves[f - 1..f - 1 + count].to_vec()
    };
    assert_ne!(
        order(&p),
        order(&p.helpers[0]),
        "the trees order by their own seeds"
    );
    let most = sums.iter().map(|s| s.0).max().unwrap();
    let (child, value) = p.best_child();
    let (visits, reward) = sums[child - first];
    assert_eq!(visits, most);
    assert!(
        visits > u64::from(p.nodes[child].visits),
        "a helper's visits count"
    );
    assert_eq!(value, Some(reward / visits as f64));
}

/// How often MCTS with `text` plays the first move of Havannah 5's move list (a1) from the
/// empty board, over `seeds` seeds.
fn first_listed_share(text: &str, seeds: u64) -> u64 {
    let h = Havannah::new(5, false).unwrap();
    let legal = moves_of(&h);
    (0..seeds)
        .filter(|&seed| agent(text, &h, seed).choose(&h).mv == legal[0])
        .count() as u64
}

#[test]
fn at_small_budgets_the_random_order_no_longer_plays_the_first_listed_cell() {
    // 61 cells, 32 iterations: about half the children get their one visit, and the move
    // list's order plays a1 whenever its single playout won.
    let list = first_listed_share("mcts:iters=32,order=list", 60);
    let random = first_listed_share("mcts:iters=32", 60);
    assert!(
        list >= 15,
        "the list order's bias is there to remove: {list} of 60"
    );
    // Uniform over 61 cells: 1 in 60 expected; 5 or more has chance about 0.4%.
    assert!(random <= 4, "{random} of 60");
}

#[test]
fn the_random_order_is_seeded_and_puts_the_best_known_children_first() {
    let h = Havannah::new(5, false).unwrap();
    let stored = |m: &Mcts<Havannah>| {
        let f = m.nodes[0].first_child as usize;
        m.moves[f - 1..f - 1 + m.nodes[0].children as usize].to_vec()
    };
    let once = |text: &str, seed: u64| {
        let mut m = agent(text, &h, seed);
        m.choose(&h);
        m
    };
    let (a, b, c) = (
        once("mcts:iters=1", 5),
        once("mcts:iters=1", 5),
        once("mcts:iters=1", 6),
    );
    assert_eq!(stored(&a), stored(&b), "the same seed, the same order");
    assert_ne!(stored(&a), stored(&c), "another seed, another order");
    let mut legal = moves_of(&h);
    assert_ne!(stored(&a), legal, "not the move list's order");
    assert_eq!(stored(&once("mcts:iters=1,order=list", 5)), legal);
    let mut sorted = stored(&a);
    sorted.sort_by_key(|&m| h.move_index(m));
    legal.sort_by_key(|&m| h.move_index(m));
    assert_eq!(sorted, legal, "every legal move, once");
    // With knowledge, the children fall in order of it (corners 0.4 before the rest); the
    // shuffle still orders cells of equal knowledge.
    let known = once("mcts:iters=1,know=1", 5);
    let first = known.nodes[0].first_child as usize;
    let k: Vec<f32> = (first..first + known.nodes[0].children as usize)
        .map(|c| known.know[c])
        .collect();
    assert!(k.windows(2).all(|w| w[0] >= w[1]), "{k:?}");
    assert!(k[0] > 0.0 && k[k.len() - 1] < k[0], "{k:?}");
    let other = once("mcts:iters=1,know=1", 6);
    assert_ne!(stored(&known), stored(&other));
}

#[test]
fn per_move_budgets_count_a_legal_move() {
    // Havannah 4 has 37 cells: 2 iterations a legal move are 74.
    let h = Havannah::new(4, false).unwrap();
    let d = agent("mcts:iters=2,per_move=on,solver=off", &h, 1).choose(&h);
    assert_eq!(d.stats.iterations, 74);
    let d = agent("mcts:iters=2,per_move=on,solver=off,threads=2", &h, 1).choose(&h);
    assert_eq!(d.stats.iterations, 74, "shared between the trees");
    assert_eq!(agent("mcts:iters=2", &h, 1).choose(&h).stats.iterations, 2);
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

#[test]
fn welford_lengths_give_the_sample_mean_and_deviation() {
    let mut s = LengthStats::default();
    assert_eq!(s.std_dev(), 0.0);
    s.add(7.0);
    assert_eq!(
        (s.mean, s.std_dev()),
        (7.0, 0.0),
        "one length has no spread"
    );
    let mut s = LengthStats::default();
    for x in [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0] {
        s.add(x);
    }
    // Mean 5; squared deviations sum to 32; the sample variance is 32 / 7.
    assert!((s.mean - 5.0).abs() < 1e-12);
    assert!((s.std_dev() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
}

#[test]
fn amaf_means_are_absent_until_visited() {
    let mut a = Amaf::default();
    assert_eq!(a.mean(), None);
    a.add(1.0);
    a.add(0.0);
    a.add(-0.5);
    assert_eq!(a.mean(), Some(0.5 / 3.0));
}

fn moves_agent(text: &str) -> Mcts<Rin> {
    rin_agent(text, &Rin::new(6).unwrap())
}

#[test]
fn move_count_rewards_follow_pepels_formula_for_each_winner_separately() {
    // r = 1 + a (2 / (1 + exp(-k λ)) - 1), λ = (mean - length) / σ over the winner's earlier
    // wins (Pepels et al. 2014); no bonus until σ > 0.
    let mut m = moves_agent("mcts:score=moves,a=0.25,k=1");
    assert_eq!(m.rewards(None, 12), [0.0, 0.0], "a draw scores nothing");
    assert_eq!(m.rewards(Some(Player::ZERO), 10), [1.0, -1.0]);
    assert_eq!(m.rewards(Some(Player::ZERO), 20), [1.0, -1.0]);
    // The other colour's first win has no history of its own.
    assert_eq!(m.rewards(Some(Player::ONE), 30), [-1.0, 1.0]);
    // After 10 and 20: mean 15, σ = √50; a win in 30 is slow: λ = −2.1213, r = 0.80352.
    let r = m.rewards(Some(Player::ZERO), 30);
    assert!((r[0] - 0.803_520_900_7).abs() < 1e-9, "{r:?}");
    assert_eq!(r[1], -r[0]);
    // After 10, 20, 30: mean 20, σ = 10; with a = 0.4, k = 2 a win in 5 is fast: r = 1.36206.
    let mut fast = moves_agent("mcts:score=moves,a=0.4,k=2");
    for length in [10, 20, 30] {
        fast.rewards(Some(Player::ONE), length);
    }
    let r = fast.rewards(Some(Player::ONE), 5);
    assert!((r[1] - 1.362_059_301_5).abs() < 1e-9, "{r:?}");
    // Win-or-lose scoring ignores lengths.
    let mut plain = moves_agent("mcts");
    for length in [10, 20, 30, 5] {
        assert_eq!(plain.rewards(Some(Player::ONE), length), [-1.0, 1.0]);
    }
}

#[test]
fn a_tree_too_small_for_the_root_falls_back_to_a_random_move_and_reports_its_iterations() {
    // Rin 6 has 36 first moves: a 10-node arena cannot expand the root.
    let start = Rin::new(6).unwrap();
    let mut m = rin_agent("mcts:iters=7,max_nodes=10", &start);
    let d = m.choose(&start);
    assert!(start.is_legal(d.mv));
    assert_eq!(d.stats.iterations, 7, "{:?}", d.stats);
    assert!(
        d.stats.time > std::time::Duration::ZERO,
        "its time is measured"
    );
    assert_eq!((d.stats.nodes, d.stats.value), (0, None), "{:?}", d.stats);
    assert_eq!(m.tree_size(), 1);
    // An arena of exactly 1 + 36 nodes holds the expanded root.
    let mut fits = rin_agent("mcts:iters=7,max_nodes=37", &start);
    fits.choose(&start);
    assert_eq!(fits.tree_size(), 37);
}

#[test]
fn the_final_choice_never_plays_a_child_proven_lost_and_a_draw_is_not_a_loss() {
    // The mover is player 0. The most visited child is proven lost; the open child is
    // played.
    let mut m = proven_children(&[(1, 3), (UNPROVEN, 0), (DRAW, 0)]);
    m.spec.solver = true;
    for (c, visits) in [(1, 100), (2, 10), (3, 5)] {
        m.nodes[c].visits = visits;
    }
    assert_eq!(m.best_child().0, 2);
    // A proven draw is played like an open child, by its visits.
    m.nodes[3].visits = 50;
    assert_eq!(m.best_child().0, 3);
    // Every child lost: the longest loss.
    let mut m = proven_children(&[(1, 3), (1, 7), (1, 5)]);
    m.spec.solver = true;
    m.nodes[1].visits = 100;
    assert_eq!(m.best_child().0, 2);
}

/// A root whose children, moved into by player 0, are proven as given: `(proven, distance)`.
fn proven_children(children: &[(u8, u16)]) -> Mcts<Rin> {
    let mut m = mcts_for(&Rin::new(6).unwrap(), 1);
    m.reset();
    m.nodes[0].first_child = 1;
    m.nodes[0].children = children.len() as u16;
    for &(proven, distance) in children {
        let mut n = Node::new(0);
        n.proven = proven;
        n.proven_distance = distance;
        m.nodes.push(n);
    }
    m
}

#[test]
fn the_solver_proves_a_node_by_its_best_child_and_counts_the_plies() {
    // The mover (player 0) wins by its shortest win, one ply more than the child's.
    let mut m = proven_children(&[(1, 1), (0, 5), (DRAW, 0), (0, 3)]);
    m.try_prove(0);
    assert_eq!((m.nodes[0].proven, m.nodes[0].proven_distance), (0, 4));
    // No win, every child settled, one drawn: a draw, by the shortest draw.
    let mut m = proven_children(&[(1, 1), (DRAW, 6), (DRAW, 2)]);
    m.try_prove(0);
    assert_eq!((m.nodes[0].proven, m.nodes[0].proven_distance), (DRAW, 3));
    // Every child lost: lost, by the longest loss (the loser delays).
    let mut m = proven_children(&[(1, 1), (1, 7), (1, 3)]);
    m.try_prove(0);
    assert_eq!((m.nodes[0].proven, m.nodes[0].proven_distance), (1, 8));
    // A child still open: nothing is proven unless a win is there.
    let mut m = proven_children(&[(1, 1), (UNPROVEN, 0), (DRAW, 2)]);
    m.try_prove(0);
    assert_eq!(m.nodes[0].proven, UNPROVEN);
    // A proven node is left as it is.
    let mut m = proven_children(&[(0, 1)]);
    m.nodes[0].proven = 1;
    m.nodes[0].proven_distance = 9;
    m.try_prove(0);
    assert_eq!((m.nodes[0].proven, m.nodes[0].proven_distance), (1, 9));
    // A leaf not yet expanded has nothing to prove from.
    let mut m = proven_children(&[]);
    m.nodes[0].first_child = UNEXPANDED;
    m.try_prove(0);
    assert_eq!(m.nodes[0].proven, UNPROVEN);
}

/// The expanded, unproven nodes of `m`'s tree that a try would prove now.
fn provable_but_open<G: Game + Features>(m: &Mcts<G>) -> Vec<usize> {
    (0..m.nodes.len())
        .filter(|&i| tree::proof_from_children(&m.nodes, i).is_some())
        .collect()
}

#[test]
fn backing_up_tries_only_nodes_that_may_have_changed_and_leaves_no_node_provable() {
    // Havannah 4 along a random game, with decisive moves in the tree and five playouts an
    // iteration (proofs at expansion and in the back-up): after every iteration no expanded
    // node of the tree is left that a try would prove, so trying only the nodes `may_prove`
    // names proves all that trying every node of each path would. In the move list's order
    // a win found at expansion is often not the child selected.
    for text in [
        "preset=strong4",
        "c=0,rave=500,decisive=tree,rollouts=5,order=list",
    ] {
        let mut h = Havannah::new(4, false).unwrap();
        let mut rng = ringside_engine::seeded_rng(11, 0);
        let mut scratch = Vec::new();
        let mut proofs = 0;
        while h.outcome().is_none() {
            let mut m = havannah_agent(&format!("mcts:iters=1,{text}"));
            m.begin(&h);
            for _ in 0..400 {
                m.iterate();
                let open = provable_but_open(&m);
                assert_eq!(open, Vec::<usize>::new(), "{text}, ply {}", h.ply());
            }
            proofs += m.nodes.iter().filter(|n| n.proven != UNPROVEN).count();
            let mv = h.random_move(&mut rng, &mut scratch).unwrap();
            h.play_unchecked(mv);
        }
        assert!(proofs > 1000, "{text}: the searches proved {proofs} nodes");
    }
}

/// An empty Havannah 4 root (37 children) with 100 visits for the agent of `text`, and its
/// first child.
fn ucb_root(text: &str) -> (Mcts<Havannah>, usize) {
    let h = Havannah::new(4, false).unwrap();
    let mut m = havannah_agent(&format!("mcts:iters=1,{text}"));
    m.root = Some(h.clone());
    m.reset();
    assert!(m.expand(0, &h));
    m.nodes[0].visits = 100;
    let first = m.nodes[0].first_child as usize;
    (m, first)
}

#[test]
fn the_selection_formula_gives_hand_worked_values() {
    // A child with 10 visits of mean 0.6 and AMAF 20 visits of mean 0.5, under a root of
    // 100 visits and 37 children. With c = 0.7 the exploration term is 0.7·√(ln 100)/√10
    // = 1.5021762184/√10; RAVE's β is √(K/(3n + K)) or K/(K + n), with K = 300, or
    // 300 + 1 × 37 with rave_grow=1 (worked out separately to 12 digits).
    let explore = 1.502_176_218_402_543 / 10f64.sqrt();
    for (options, expected) in [
        ("c=0", 0.6),
        ("c=0.7", 0.6 + explore),
        ("c=0.7,rave=300", 0.979_683_570_784_498_5),
        ("c=0.7,rave=300,rave_form=hyp", 0.978_255_636_160_670_6),
        ("c=0.7,rave=300,rave_grow=1", 0.979_204_147_828_353_6),
    ] {
        let (mut m, i) = ucb_root(options);
        m.nodes[i].visits = 10;
        m.nodes[i].reward = 6.0;
        if m.spec.rave.is_some() {
            m.amaf[i] = Amaf {
                reward: 10.0,
                visits: 20,
            };
        }
        let ucb = m.ucb(m.parent_terms(0), i).unwrap();
        assert!(
            (ucb - expected).abs() < 1e-12,
            "{options}: {ucb} against {expected}"
        );
    }
    // Progressive bias W·H/(n + 1) = 2 × 0.5/11 and knowledge W·K/√n = 3 × 0.375/√10 (values an f32 holds exactly) add on.
    let (mut m, i) = ucb_root("c=0.7,bias=2,know=3");
    m.nodes[i].visits = 10;
    m.nodes[i].reward = 6.0;
    m.prior[i] = 0.5;
    m.know[i] = 0.375;
    let ucb = m.ucb(m.parent_terms(0), i).unwrap();
    let expected = 0.6 + explore + 2.0 * 0.5 / 11.0 + 3.0 * 0.375 / 10f64.sqrt();
    assert!((ucb - expected).abs() < 1e-12, "{ucb} against {expected}");
    // Knowledge is W·K = 1.125 while a child is unvisited or visited once, and gone from 1,000 visits.
    assert!((m.knowledge(i, 0) - 1.125).abs() < 1e-12);
    assert!((m.knowledge(i, 1) - 1.125).abs() < 1e-12);
    assert!((m.knowledge(i, 999) - 1.125 / 999f64.sqrt()).abs() < 1e-12);
    assert_eq!(m.knowledge(i, 1000), 0.0);
    // Unvisited with first-play urgency: the urgency plus the bias of a child never visited
    // (2 × 0.5/1) and its knowledge (1.125).
    let (mut m, i) = ucb_root("fpu=0.6,bias=2,know=3");
    m.prior[i] = 0.5;
    m.know[i] = 0.375;
    assert!((m.ucb(m.parent_terms(0), i).unwrap() - 2.725).abs() < 1e-12);
    // Unvisited without it: to be visited first.
    let (m, i) = ucb_root("c=0.7");
    assert_eq!(m.ucb(m.parent_terms(0), i), None);
    // Unvisited but with AMAF visits (mean 0.8): β = 1, the AMAF mean plus the full
    // exploration term (n counts as 1).
    let (mut m, i) = ucb_root("c=0.7,rave=300");
    m.amaf[i] = Amaf {
        reward: 4.0,
        visits: 5,
    };
    let ucb = m.ucb(m.parent_terms(0), i).unwrap();
    assert!((ucb - (0.8 + 1.502_176_218_402_543)).abs() < 1e-12, "{ucb}");
    // A root never visited explores by √(ln 1) = 0.
    m.nodes[0].visits = 0;
    m.nodes[i].visits = 4;
    m.nodes[i].reward = 2.0;
    m.amaf[i].visits = 0;
    assert!((m.ucb(m.parent_terms(0), i).unwrap() - 0.5).abs() < 1e-12);
}

/// Havannah 4 with Black's b3 intruding between White's b2 and c4 (White's c3 saves the link).
fn link_intrusion() -> Havannah {
    havannah4("b2 g7 c4 b3")
}

#[test]
fn a_playout_plays_the_policys_moves_and_records_them_when_something_learns_from_them() {
    // A playout capped at 3 plies equals 3 moves of `playout_move` by an agent seeded alike,
    // whatever the options: the quick path of plain random playouts is taken only when no
    // option changes the moves (its draws are the same as the policy's then), and the line
    // is kept exactly when RAVE, MAST or replies read it.
    for (options, records) in [
        ("", false),
        ("decisive=on", false),
        ("pattern=on", false),
        ("policy=eval,epsilon=0", false),
        ("policy=mast", true),
        ("policy=ngram", true),
        ("rave=100", true),
        ("reply=lgr", true),
    ] {
        for (which, h) in [
            ("White's win", bridge_threat(true)),
            ("Black's block", bridge_threat(false)),
            ("the saved link", link_intrusion()),
        ] {
            let agent = || {
                let mut m = havannah_agent(&format!("mcts:iters=1,{options}"));
                m.root = Some(h.clone());
                m.reset();
                m.mast = vec![[Amaf::default(); 2]; h.move_index_count()];
                m
            };
            let (mut a, mut b) = (agent(), agent());
            let mut by_playout = h.clone();
            let outcome = a.playout(&mut by_playout, 3);
            let mut by_moves = h.clone();
            let mut plies = 0;
            while plies < 3 && by_moves.outcome().is_none() {
                let mv = b.playout_move(&by_moves, by_moves.to_move().unwrap());
                by_moves.play_unchecked(mv);
                plies += 1;
            }
            let why = format!("{options} from {which}");
            assert_eq!(by_playout.board_rows(), by_moves.board_rows(), "{why}");
            assert_eq!(by_playout.ply(), h.ply() + plies, "{why}");
            assert_eq!(outcome, by_moves.outcome(), "{why}");
            assert_eq!(
                a.line.len(),
                if records { plies as usize } else { 0 },
                "{why}"
            );
        }
    }
}

#[test]
fn the_evaluation_policy_plays_its_best_move_except_for_an_epsilon_share_of_random_ones() {
    // White to move wins on d1: the greedy move every time with ε = 0, almost never with
    // ε = 1, when every move is random.
    let h = bridge_threat(true);
    let d1 = h.parse_move("d1").unwrap();
    let mut greedy = havannah_agent("mcts:iters=1,policy=eval,epsilon=0");
    assert!((0..20).all(|_| greedy.playout_move(&h, Player::ZERO) == d1));
    let mut random = havannah_agent("mcts:iters=1,policy=eval,epsilon=1");
    let moves: std::collections::BTreeSet<_> = (0..20)
        .map(|_| random.playout_move(&h, Player::ZERO))
        .collect();
    assert!(moves.len() > 5, "{moves:?}");
}

#[test]
fn a_proven_line_is_scored_by_its_length_to_the_proven_end() {
    // A 6x6 Rin endgame that White (to move) wins: once the solver has proven the root, an
    // iteration stops there and scores White's win at the root's proven distance.
    let start = Rin::new(6)
        .unwrap()
        .set_up(
            "BBWBWW
             BW.BWW
             WBW..W
             B..BBW
             WBBWWB
             WBBBW.
             ply 30",
        )
        .unwrap();
    let mut m = rin_agent("mcts:iters=5000,score=moves", &start);
    m.choose(&start);
    let (winner, distance) = m.root_proof().expect("the solver proves the endgame");
    assert_eq!(winner, Some(Player::ONE));
    assert!(distance > 0);
    m.wins = [LengthStats::default(); 2];
    m.iterate();
    assert_eq!(m.wins[1].n, 1.0);
    assert_eq!(m.wins[1].mean, f64::from(distance));
}

#[test]
fn a_search_from_a_late_ply_of_an_endless_game_counts_its_lines_from_the_root() {
    // Life can last without end; from a root at ply 1,200 the tree's depth limit and the
    // playouts' cap count plies from the root, not from the game's start: the root is
    // expanded and playouts reach their ends as they would at ply 0.
    let start = ringside_engine::games::life::Life::default();
    let mut text = start.board_rows().join("\n");
    text.push_str("\nply 1200");
    let late = start.set_up(&text).unwrap();
    let crate::AgentSpec::Mcts(spec) =
        crate::AgentSpec::parse("mcts:iters=40,score=moves").unwrap()
    else {
        unreachable!()
    };
    let eval = Evaluator::new(&spec.eval, &late).unwrap();
    let mut m = Mcts::new(spec, eval, ringside_engine::seeded_rng(3, 0));
    let d = m.choose(&late);
    assert!(m.nodes[0].children > 0 && d.stats.iterations == 40);
    let finished = m.wins[0].n + m.wins[1].n;
    assert!(finished > 20.0, "{finished} of 40 playouts finished");
}

#[test]
fn several_rollouts_a_leaf_back_up_each_playout_and_credit_amaf_for_each() {
    let start = Havannah::new(5, false).unwrap();
    let visits = |text: &str| {
        let mut mcts = agent(text, &start, 4);
        mcts.root = Some(start.clone());
        mcts.reroot(&start);
        for _ in 0..50 {
            mcts.iterate();
        }
        let root = mcts.nodes[0];
        let first = root.first_child as usize;
        let below: u32 = (first..first + usize::from(root.children))
            .map(|i| mcts.nodes[i].visits)
            .sum();
        let amaf: u32 = mcts.amaf[first..first + usize::from(root.children)]
            .iter()
            .map(|a| a.visits)
            .sum();
        (root.visits, below, amaf)
    };
    let (one, below_one, amaf_one) = visits("mcts:rave=500");
    let (three, below_three, amaf_three) = visits("mcts:rave=500,rollouts=3");
    // 50 descents: one playout each, or three, each backed up to the root through the child
    // the descent took.
    assert_eq!((one, three), (50, 150));
    assert_eq!((below_one, below_three), (50, 150));
    // Each playout credits the root's children whose moves its mover played: about three
    // times as many credits.
    assert!(amaf_three > 2 * amaf_one, "{amaf_one} {amaf_three}");
    // The option prints only when it is not 1, so older specs are unchanged.
    let spec = |t: &str| crate::AgentSpec::parse(t).unwrap().to_string();
    assert!(!spec("mcts").contains("rollouts"));
    assert!(spec("mcts:rollouts=5").contains("rollouts=5"));
}

#[test]
fn named_knowledge_terms_weighed_as_know_one_search_exactly_as_know_one() {
    // Havannah's move_knowledge is 0.4·connect + 0.5·bridge: the same values, stored the
    // same way, so the same seed gives the same trees and moves.
    let mut a = havannah_agent("mcts:iters=400,rave=500,know=1");
    let mut b = havannah_agent("mcts:iters=400,rave=500,know.connect=0.4,know.bridge=0.5");
    let mut c = havannah_agent("mcts:iters=400,rave=500,know.connect=0.4,know.reply=0.3");
    let mut state = Havannah::new(5, false).unwrap();
    let mut differs = false;
    for _ in 0..6 {
        let (ma, mb, mc) = (
            a.choose(&state).mv,
            b.choose(&state).mv,
            c.choose(&state).mv,
        );
        assert_eq!(ma, mb);
        assert_eq!(a.tree_size(), b.tree_size());
        differs |= mc != ma;
        state.play(ma);
    }
    assert!(differs, "another term changes the search");
    // Printed after the table, sorted by name; set by name as tuners do; checked by game.
    let spec = crate::AgentSpec::parse("mcts:know.reply=0.05,know.bridge=1").unwrap();
    assert!(
        spec.to_string().ends_with(",know.bridge=1,know.reply=0.05"),
        "{spec}"
    );
    let tuned = spec.set("know.local", 0.03).unwrap();
    assert!(tuned.to_string().contains("know.local=0.03"), "{tuned}");
    let err = crate::AgentSpec::parse("mcts:know.nearby=1")
        .unwrap()
        .build(&Havannah::new(4, false).unwrap(), 1)
        .unwrap_err();
    assert!(
        err.reason.contains(
            "has no knowledge term 'nearby' (it has: connect, bridge, reply, local, size, shape, distance, shape_ctx, block, shape_wide, shape_wide2)"
        ),
        "{err}"
    );
    let err = crate::AgentSpec::parse("mcts:know.reply=1")
        .unwrap()
        .build(&Rin::new(6).unwrap(), 1)
        .unwrap_err();
    assert!(err.reason.contains("(it has: none)"), "{err}");
}

#[test]
fn ring_depth_relaxes_playouts_only_so_the_tree_still_wins_by_a_ring() {
    // Size 5: White's five stones round e5; d5 closes the ring. Even with rings ignored in
    // every playout (depth 0), the tree plays by the rules and takes the ring.
    let mut h = Havannah::new(5, false).unwrap();
    for (w, b) in [
        ("d4", "i6"),
        ("e4", "i7"),
        ("f5", "i8"),
        ("f6", "h9"),
        ("e6", "g9"),
    ] {
        h.play(h.parse_move(w).unwrap());
        h.play(h.parse_move(b).unwrap());
    }
    let mut mcts = agent("mcts:iters=300,ring_depth=0", &h, 2);
    assert_eq!(h.move_text(mcts.choose(&h).mv), "d5");
    let spec = |t: &str| crate::AgentSpec::parse(t).unwrap().to_string();
    assert!(spec("mcts:ring_depth=0.7").contains("ring_depth=0.7"));
    assert!(!spec("mcts").contains("ring_depth"));
    assert!(crate::AgentSpec::parse("mcts:ring_depth=1.5").is_err());
    let mut mcts = agent("mcts:iters=300,ring_depth=0,ring_perm=3", &h, 2);
    assert_eq!(h.move_text(mcts.choose(&h).mv), "d5");
    assert!(spec("mcts:ring_perm=3").contains("ring_perm=3"));
    let mut mcts = agent(
        "mcts:iters=300,ring_depth=0,ring_perm=3,ring_perm_in=ring",
        &h,
        2,
    );
    assert_eq!(h.move_text(mcts.choose(&h).mv), "d5");
    assert!(spec("mcts:ring_perm=3,ring_perm_in=ring").contains("ring_perm=3,ring_perm_in=ring"));
    assert!(!spec("mcts:ring_perm=3,ring_perm_in=group").contains("ring_perm_in"));
    assert!(crate::AgentSpec::parse("mcts:ring_perm_in=loop").is_err());
}

#[test]
fn counting_ring_stones_in_the_ring_reaches_the_playouts() {
    // The same seeded search of a middle game of Havannah 6, rings in playouts counted by
    // their group's stones from before and by the ring's own: the playouts end differently,
    // so the root's visits differ.
    let mut h = Havannah::new(6, false).unwrap();
    let mut rng = ringside_engine::seeded_rng(5, 0);
    for _ in 0..30 {
        let mv = h.random_move(&mut rng, &mut Vec::new()).unwrap();
        h.play(mv);
    }
    assert!(h.outcome().is_none());
    let visits = |text: &str| {
        let mut m = agent(text, &h, 4);
        m.choose(&h);
        let root = m.nodes[0];
        let first = root.first_child as usize;
        (first..first + root.children as usize)
            .map(|c| m.nodes[c].visits)
            .collect::<Vec<_>>()
    };
    let group = visits("mcts:iters=3000,ring_perm=2");
    assert_eq!(
        group,
        visits("mcts:iters=3000,ring_perm=2,ring_perm_in=group")
    );
    assert_ne!(
        group,
        visits("mcts:iters=3000,ring_perm=2,ring_perm_in=ring")
    );
}

/// Each expanded node's visits against its children's: at least their sum (a node's own
/// first visit, and a proven node's, end there), and the root's exactly the playouts
/// backed up. What a virtual loss left on a path would break.
fn visits_add_up(m: &Mcts<Havannah>, playouts: u32) {
    assert_eq!(m.nodes[0].visits, playouts);
    for (i, n) in m.nodes.iter().enumerate() {
        assert!(n.reward.abs() <= f64::from(n.visits), "node {i}: {n:?}");
        if n.first_child == UNEXPANDED {
            continue;
        }
        let first = n.first_child as usize;
        let below: u32 = (first..first + usize::from(n.children))
            .map(|c| m.nodes[c].visits)
            .sum();
        assert!(n.visits >= below, "node {i}: {} < {below}", n.visits);
    }
}

#[test]
fn tree_parallelism_lifts_every_virtual_loss_and_counts_descents() {
    let h = Havannah::new(5, false).unwrap();
    // 500 descents: 15 rounds of 32 and one of 20.
    let mut m = agent("mcts:iters=500,parallel=tree,threads=2,rave=500", &h, 7);
    assert_eq!(m.choose(&h).stats.iterations, 500);
    visits_add_up(&m, 500);
    // With three playouts a descent, each backed up on its own.
    let mut m = agent(
        "mcts:iters=100,parallel=tree,threads=2,batch=9,rollouts=3,rave=500,know=1",
        &h,
        7,
    );
    assert_eq!(m.choose(&h).stats.iterations, 100);
    visits_add_up(&m, 300);
}

#[test]
fn tree_parallelism_searches_the_same_tree_whatever_the_thread_count() {
    let spec = |threads: u32| {
        format!(
            "mcts:iters=700,parallel=tree,threads={threads},batch=24,rave=500,rave_form=hyp,\
             rave_grow=200,c=0,know=1,decisive=tree,ring_depth=0.7"
        )
    };
    let start = Havannah::new(5, false).unwrap();
    let mut agents: Vec<_> = [1, 2, 3].map(|t| agent(&spec(t), &start, 11)).into();
    let mut state = start.clone();
    for _ in 0..6 {
        let moves: Vec<_> = agents.iter_mut().map(|a| a.choose(&state).mv).collect();
        assert!(moves.iter().all(|&mv| mv == moves[0]), "{moves:?}");
        let trees: Vec<Vec<(u32, f64)>> = agents
            .iter()
            .map(|a| a.nodes.iter().map(|n| (n.visits, n.reward)).collect())
            .collect();
        assert!(trees.iter().all(|t| *t == trees[0]), "the same tree");
        assert!(agents.iter().all(|a| a.moves == agents[0].moves));
        state.play(moves[0]);
    }
    // A different seed searches differently: the equality above is not vacuous.
    let mut other = agent(&spec(2), &start, 12);
    other.choose(&start);
    let mut first = agent(&spec(2), &start, 11);
    first.choose(&start);
    assert_ne!(
        other.nodes.iter().map(|n| n.visits).collect::<Vec<_>>(),
        first.nodes.iter().map(|n| n.visits).collect::<Vec<_>>()
    );
}

#[test]
fn tree_parallelism_credits_every_playout_of_a_descent_to_amaf() {
    // A descent's three playouts are backed up together, their AMAF credits summed in one
    // pass: about three times one playout's credits at the root, none lost.
    let start = Havannah::new(5, false).unwrap();
    let root_amaf = |text: &str| {
        let mut m = agent(text, &start, 9);
        m.choose(&start);
        let root = m.nodes[0];
        let first = root.first_child as usize;
        let children = first..first + usize::from(root.children);
        let amaf: u32 = m.amaf[children].iter().map(|a| a.visits).sum();
        (root.visits, amaf)
    };
    let tree = "mcts:iters=200,parallel=tree,threads=2,batch=8,rave=500,reuse=off";
    let (one, amaf_one) = root_amaf(tree);
    let (three, amaf_three) = root_amaf(&format!("{tree},rollouts=3"));
    assert_eq!((one, three), (200, 600));
    assert!(
        amaf_three > 2 * amaf_one + amaf_one / 2,
        "{amaf_one} {amaf_three}"
    );
}

#[test]
fn tree_parallelism_searches_the_same_tree_however_a_round_is_dealt() {
    // The searching thread's home share (none, part or all of a round's 48 playouts, 16
    // descents of three; 7 and 26 split a descent between the threads) decides only which
    // thread plays a leaf out.
    let spec = "mcts:iters=400,parallel=tree,threads=2,batch=16,rollouts=3,rave=500,know=1";
    let start = Havannah::new(5, false).unwrap();
    let trees: Vec<Vec<(u32, f64)>> = [0, 7, 15, 26, 48]
        .map(|home| {
            let mut m = agent(spec, &start, 13);
            m.home_share = Some(home);
            m.choose(&start);
            m.nodes.iter().map(|n| (n.visits, n.reward)).collect()
        })
        .into();
    assert!(trees.iter().all(|t| *t == trees[0]), "the same tree");
    let mut alone = agent(&spec.replace("threads=2", "threads=1"), &start, 13);
    alone.choose(&start);
    let tree: Vec<(u32, f64)> = alone.nodes.iter().map(|n| (n.visits, n.reward)).collect();
    assert_eq!(tree, trees[0], "and the tree one thread searches");
}

#[test]
fn tree_parallelism_lifts_every_amaf_virtual_loss_and_searches_otherwise() {
    // vloss=amaf: the AMAF statistics a search leaves are what the same descents' playouts
    // credited, with no virtual loss left on them, while the search itself differs (young
    // nodes' RAVE values saw the losses).
    let start = Havannah::new(5, false).unwrap();
    let base = "mcts:iters=300,parallel=tree,threads=2,batch=16,rollouts=3,rave=500,know=1";
    let mut amaf = agent(&format!("{base},vloss=amaf"), &start, 21);
    assert_eq!(amaf.choose(&start).stats.iterations, 300);
    visits_add_up(&amaf, 900);
    // Every AMAF sum is whole playouts' credits: visits within what was played and each
    // mean a reward in [-1, 1]; a lost virtual visit would leave a mean below -1 or a
    // count no playout made.
    let root = amaf.nodes[0];
    let first = root.first_child as usize;
    for a in &amaf.amaf[first..first + usize::from(root.children)] {
        assert!(a.visits <= 900, "{a:?}");
        assert!(a.mean().is_none_or(|q| (-1.0..=1.0).contains(&q)), "{a:?}");
    }
    let mut node = agent(base, &start, 21);
    node.choose(&start);
    let visits = |m: &Mcts<Havannah>| m.nodes.iter().map(|n| n.visits).collect::<Vec<_>>();
    assert_ne!(
        visits(&amaf),
        visits(&node),
        "the AMAF losses change the search"
    );
    // And the same tree at one thread as at two.
    let mut alone = agent(
        &format!("{base},vloss=amaf").replace("threads=2", "threads=1"),
        &start,
        21,
    );
    alone.choose(&start);
    assert_eq!(visits(&alone), visits(&amaf));
    assert_eq!(
        alone
            .amaf
            .iter()
            .map(|a| (a.visits, a.reward))
            .collect::<Vec<_>>(),
        amaf.amaf
            .iter()
            .map(|a| (a.visits, a.reward))
            .collect::<Vec<_>>()
    );
}

#[test]
fn tree_parallelism_virtual_loss_on_amaf_is_lifted_bit_for_bit() {
    // Laying a descent's virtual loss and lifting it restores the nodes' and the AMAF
    // statistics exactly.
    let start = Havannah::new(5, false).unwrap();
    let mut m = agent(
        "mcts:iters=200,parallel=tree,threads=1,rave=500,vloss=amaf",
        &start,
        5,
    );
    m.choose(&start);
    let mut state = m.root.clone().expect("a root");
    m.descend(&mut state);
    assert!(m.path.len() > 2, "a path below the root's children");
    let before = (m.nodes.clone(), m.amaf.clone());
    m.virtual_loss(true);
    let leaf = *m.path.last().expect("a path") as usize;
    assert_eq!(m.amaf[leaf].visits, before.1[leaf].visits + 1);
    assert_eq!(m.amaf[leaf].reward, before.1[leaf].reward - 1.0);
    m.virtual_loss(false);
    let same =
        |a: &Amaf, b: &Amaf| a.visits == b.visits && a.reward.to_bits() == b.reward.to_bits();
    assert!(m.amaf.iter().zip(&before.1).all(|(a, b)| same(a, b)));
    assert!(
        m.nodes
            .iter()
            .zip(&before.0)
            .all(|(a, b)| a.visits == b.visits && a.reward == b.reward)
    );
}

#[test]
fn tree_parallelism_takes_the_win_in_one_without_decisive_moves() {
    let h = bridge_threat(true);
    let mut m = havannah_agent("mcts:iters=3000,parallel=tree,threads=2,rave=300");
    let mv = m.choose(&h).mv;
    assert_eq!(h.move_text(mv), "d1");
}

#[test]
fn tree_parallelism_options_print_only_when_set_and_refuse_learnt_tables() {
    let spec = |t: &str| crate::AgentSpec::parse(t).map(|s| s.to_string());
    let plain = spec("mcts:threads=2").unwrap();
    assert!(!plain.contains("parallel") && !plain.contains("batch"));
    let tree = spec("mcts:threads=2,parallel=tree,batch=8").unwrap();
    assert!(tree.contains("threads=2,") && tree.contains("parallel=tree,batch=8"));
    assert_eq!(spec(&tree).unwrap(), tree);
    let amaf = spec("mcts:threads=2,parallel=tree,rave=500,vloss=amaf").unwrap();
    assert!(
        amaf.contains("vloss=amaf") && !tree.contains("vloss"),
        "{amaf}"
    );
    assert_eq!(spec(&amaf).unwrap(), amaf);
    for bad in [
        "mcts:parallel=tree,policy=mast",
        "mcts:parallel=tree,policy=ngram",
        "mcts:parallel=tree,reply=lgrf",
        "mcts:batch=8",
        "mcts:vloss=amaf,rave=500",
        "mcts:vloss=amaf,parallel=tree",
        "mcts:vloss=ring,parallel=tree,rave=500",
    ] {
        assert!(spec(bad).is_err(), "{bad}");
    }
}

/// Runs `iterations` iterations of `text` from `start` with the playouts' AMAF credits kept,
/// and credits each both ways: summed in one pass, and one playout at a time (the statistics
/// a pass a playout made before the one pass was built); asserts they agree bit for bit.
/// Returns how many iterations were summed and how many credits (a child, a playout) they
/// added.
fn summed_and_one_by_one_credits_agree<G: Game + Features>(
    text: &str,
    start: &G,
    iterations: usize,
) -> (usize, u64) {
    let mut m = agent(text, start, 5);
    m.root = Some(start.clone());
    m.reroot(start);
    let total = |amaf: &[Amaf]| amaf.iter().map(|a| u64::from(a.visits)).sum::<u64>();
    let (mut summed, mut credits) = (0, 0);
    for _ in 0..iterations {
        let Some((state, depth)) = m.descend_to_playout() else {
            continue;
        };
        let tree_line = m.line.len();
        m.play_rollouts(state, depth, tree_line, true);
        let before = m.amaf.clone();
        let before_total = total(&before);
        m.credit_one_by_one(tree_line);
        assert_eq!(m.line.len(), tree_line);
        let one_by_one = std::mem::replace(&mut m.amaf, before);
        if m.sums_exact() {
            m.credit_summed(tree_line);
            assert_eq!(m.line.len(), tree_line);
            for (a, b) in m.amaf.iter().zip(&one_by_one) {
                assert_eq!(
                    (a.visits, a.reward.to_bits()),
                    (b.visits, b.reward.to_bits())
                );
            }
            // The pass leaves its scratch clear for the next iteration.
            assert!(m.credits.iter().flatten().all(|c| c.deep + c.shallow == 0));
            assert!(m.last_played.iter().all(|p| *p == [0, 0]));
            summed += 1;
        }
        credits += total(&one_by_one) - before_total;
        m.amaf = one_by_one;
        m.rollout_steps.clear();
        m.rollout_ends.clear();
        m.rollout_rewards.clear();
    }
    (summed, credits)
}

#[test]
fn rollouts_credited_in_one_summed_pass_give_the_amaf_of_a_pass_each() {
    // Havannah (a cell is played once a line) and Hexxagon (moves repeat, so a tree move
    // may be played again in a playout and credited deeper), with the options that shape
    // the line: decisive moves, relaxed rings, replies.
    let havannah = Havannah::new(5, false).unwrap();
    for text in [
        "mcts:rave=500,rollouts=3",
        "mcts:preset=strong4",
        "mcts:rave=500,rollouts=4,reply=lgrf,decisive=on",
    ] {
        let (summed, credits) = summed_and_one_by_one_credits_agree(text, &havannah, 300);
        assert!(
            summed > 250 && credits > 10_000,
            "{text}: {summed} {credits}"
        );
    }
    let hexxagon = Hexxagon::default();
    let (summed, credits) =
        summed_and_one_by_one_credits_agree("mcts:rave=300,rollouts=3", &hexxagon, 200);
    assert!(
        summed > 100 && credits > 1_000,
        "hexxagon: {summed} {credits}"
    );
}

/// The AMAF statistics as comparable values (the reward's bits and the visits).
fn amaf_bits(a: Amaf) -> (u32, u32) {
    (a.reward.to_bits(), a.visits)
}

#[test]
fn grave_ranks_a_young_nodes_children_by_the_amaf_of_the_closest_well_visited_node_with_their_mover()
 {
    const R: u32 = 50;
    let h = Havannah::new(5, false).unwrap();
    let mut m = agent(&format!("mcts:iters=1000,c=0,rave=500,grave={R}"), &h, 11);
    m.choose(&h);
    // The most visited line from the root while it is expanded.
    let mut line = vec![0usize];
    loop {
        let n = m.nodes[*line.last().unwrap()];
        if n.first_child == UNEXPANDED || n.children == 0 {
            break;
        }
        let first = n.first_child as usize;
        line.push(
            (first..first + usize::from(n.children))
                .max_by_key(|&c| (m.nodes[c].visits, std::cmp::Reverse(c)))
                .unwrap(),
        );
    }
    let expanded = |node: usize| m.nodes[node].first_child != UNEXPANDED;
    let mover = |node: usize| m.nodes[m.nodes[node].first_child as usize].mover_into;
    let young = line
        .iter()
        .position(|&n| expanded(n) && m.nodes[n].visits < R)
        .expect("a young expanded node on the line");
    assert!(young >= 2, "the root and its best child are well visited");
    let x = line[young];
    // Its reference, worked from the tree: the closest node above with R visits and the
    // same mover into its children (the node just above has the other mover).
    let reference = line[..young]
        .iter()
        .rev()
        .copied()
        .find(|&n| m.nodes[n].visits >= R && mover(n) == mover(x))
        .expect("a reference");
    assert_ne!(reference, line[young - 1]);
    // The descent, as `descend` prepares each node before selecting.
    let mut state = h.clone();
    m.grave.start_descent();
    for (k, &node) in line[..=young].iter().enumerate() {
        m.grave_prepare(node, &state);
        let well_visited = m.nodes[node].visits >= R;
        assert_eq!(
            m.grave.node == node as u32,
            !well_visited && k > 0,
            "node {k}"
        );
        if k < young {
            state.play_unchecked(m.moves[line[k + 1] - 1]);
        }
    }
    let (xn, rn) = (m.nodes[x], m.nodes[reference]);
    let (first, r_first) = (xn.first_child as usize, rn.first_child as usize);
    let mut lent = 0;
    for i in first..first + usize::from(xn.children) {
        let same = (r_first..r_first + usize::from(rn.children))
            .find(|&j| m.moves[j - 1] == m.moves[i - 1]);
        let expected = same.map_or(m.amaf[i], |j| m.amaf[j]);
        assert_eq!(amaf_bits(m.grave.amaf[i - first]), amaf_bits(expected));
        lent += usize::from(same.is_some());
        // Selection reads the lent statistics exactly as it would read its own.
        let with_grave = m.ucb(m.parent_terms(x), i);
        let own = std::mem::replace(&mut m.amaf[i], expected);
        m.grave.node = u32::MAX;
        let as_own = m.ucb(m.parent_terms(x), i);
        (m.amaf[i], m.grave.node) = (own, x as u32);
        assert_eq!(with_grave, as_own);
    }
    // Every cell free below the young node was free at its reference.
    assert_eq!(lent, usize::from(xn.children));
    // The statistics differ from the node's own: the reference saw more playouts.
    let sampled = |a: &[Amaf]| a.iter().map(|a| u64::from(a.visits)).sum::<u64>();
    assert!(sampled(&m.grave.amaf) > sampled(&m.amaf[first..first + usize::from(xn.children)]));
}

#[test]
fn a_grave_search_depends_only_on_its_seed_and_grave_needs_rave_and_root_parallelism() {
    let h = Havannah::new(5, false).unwrap();
    let search = |text: &str, seed| {
        let mut m = agent(text, &h, seed);
        let mv = m.choose(&h).mv;
        (mv, m.tree_size(), m.nodes[0].reward)
    };
    let grave = "mcts:iters=400,c=0,rave=500,grave=30";
    assert_eq!(search(grave, 7), search(grave, 7));
    assert_ne!(search(grave, 7), search(grave, 8));
    assert_ne!(search(grave, 7), search("mcts:iters=400,c=0,rave=500", 7));
    let spec = |t: &str| crate::AgentSpec::parse(t).map(|s| s.to_string());
    assert!(spec(grave).unwrap().contains(",grave=30"));
    assert!(!spec("mcts:rave=500").unwrap().contains("grave"));
    assert!(spec("mcts:grave=30").is_err());
    assert!(spec("mcts:rave=500,grave=30,parallel=tree,threads=2").is_err());
}

#[test]
fn progressive_widening_opens_a_child_each_time_a_nodes_visits_grow_by_1_4() {
    let h = Havannah::new(5, false).unwrap();
    let m = agent("mcts:iters=10,know=1,widen=40", &h, 1);
    // 2 below T; then 2 + ⌊ln(n/40)/ln 1.4⌋: ln(57/40)/ln 1.4 = 1.05, ln 25/ln 1.4 = 9.57.
    let windows: Vec<usize> = [0, 40, 55, 57, 1000].map(|n| m.window(n)).into();
    assert_eq!(windows, [2, 2, 2, 3, 11]);
    let off = agent("mcts:iters=10,know=1", &h, 1);
    assert_eq!(off.window(1000), usize::MAX);
}

/// How many of `node`'s children have been visited.
fn visited_children(m: &Mcts<Havannah>, node: usize) -> usize {
    let n = m.nodes[node];
    (n.first_child..n.first_child + u32::from(n.children))
        .filter(|&c| m.nodes[c as usize].visits > 0)
        .count()
}

#[test]
fn a_widened_search_visits_only_the_first_children_of_each_node_in_knowledge_order() {
    let h = Havannah::new(5, false).unwrap();
    let search = |text: &str| {
        let mut m = agent(text, &h, 7);
        m.choose(&h);
        m
    };
    let wide = search("mcts:iters=600,c=0,rave=500,know=1");
    let narrow = search("mcts:iters=600,c=0,rave=500,know=1,widen=20");
    // 600 visits at the root: 2 + ⌊ln 30/ln 1.4⌋ = 12 children open of 61.
    assert_eq!(narrow.window(narrow.nodes[0].visits), 12);
    assert!(
        visited_children(&wide, 0) > 12,
        "without widening RAVE tries more"
    );
    for node in 0..narrow.nodes.len() {
        let n = narrow.nodes[node];
        if n.first_child == UNEXPANDED {
            continue;
        }
        let open = narrow.window(n.visits);
        let first = n.first_child as usize;
        for i in first..first + n.children as usize {
            if narrow.nodes[i].visits > 0 {
                // Nothing is proven this early, so the window is the first `open` children.
                assert!(
                    i - first < open,
                    "node {node}: child {} of window {open}",
                    i - first
                );
            }
        }
    }
    // The search depends only on its seed, and widening changes it.
    let visits = |m: &Mcts<Havannah>| m.nodes.iter().map(|n| n.visits).collect::<Vec<_>>();
    let again = search("mcts:iters=600,c=0,rave=500,know=1,widen=20");
    assert_eq!(visits(&again), visits(&narrow));
    assert_ne!(visits(&wide), visits(&narrow));
}

#[test]
fn widening_skips_children_proven_lost_and_still_takes_a_proven_win_past_the_window() {
    let h = Havannah::new(5, false).unwrap();
    let mut m = expanded_root("mcts:iters=10,c=0,know=1,widen=40", &h, 3);
    let first = m.nodes[0].first_child as usize;
    let last = first + m.nodes[0].children as usize - 1;
    let mover = m.nodes[first].mover_into;
    // Unvisited, the first child of the window is taken first.
    assert_eq!(m.select(0), first);
    // The first two proven lost: the window (2) opens on the third and fourth.
    for c in [first, first + 1] {
        m.nodes[c].proven = mover ^ 1;
    }
    assert_eq!(m.select(0), first + 2);
    m.nodes[first + 2].visits = 1;
    m.nodes[first + 2].reward = 1.0;
    assert_eq!(m.select(0), first + 3);
    m.nodes[first + 3].visits = 1;
    // The window visited, the better of its two is chosen, never a child past it.
    assert_eq!(m.select(0), first + 2);
    // The last child, far outside the window, proven won: taken at once.
    m.nodes[last].proven = mover;
    assert_eq!(m.select(0), last);
}

#[test]
fn widen_prints_when_set_and_needs_an_order_by_knowledge_or_bias() {
    let spec = |t: &str| crate::AgentSpec::parse(t).map(|s| s.to_string());
    assert!(spec("mcts:know=1,widen=40").unwrap().contains(",widen=40"));
    assert!(spec("mcts:know.shape=0.3,widen=40").is_ok());
    assert!(!spec("mcts:know=1").unwrap().contains("widen"));
    assert!(spec("mcts:widen=40").is_err());
    assert!(spec("mcts:know=1,order=list,widen=40").is_err());
}

/// The agent of `text` (seeded `seed`) with its root at `h` expanded.
fn expanded_root(text: &str, h: &Havannah, seed: u64) -> Mcts<Havannah> {
    let mut m = agent(text, h, seed);
    m.root = Some(h.clone());
    m.reset();
    assert!(m.expand(0, h));
    m
}

/// Havannah 5 after a few moves, so that the cells' shapes differ.
fn havannah_in_play() -> Havannah {
    let mut h = Havannah::new(5, false).unwrap();
    let mut legal = Vec::new();
    for pick in [30, 7, 44, 12, 25] {
        h.legal_moves(&mut legal);
        h.play_unchecked(legal[pick % legal.len()]);
    }
    h
}

/// The share `exp T(m) / Σ exp T` of term `name` at `state` of each of `m`'s root children,
/// in stored order, worked here from the term itself.
fn root_shares(m: &Mcts<Havannah>, state: &Havannah, name: &str) -> Vec<f64> {
    let term = (state.knowledge_terms().iter())
        .position(|&n| n == name)
        .unwrap();
    let first = m.nodes[0].first_child as usize;
    let strengths: Vec<f64> = (first..first + m.nodes[0].children as usize)
        .map(|i| state.knowledge_term(m.moves[i - 1], term).exp())
        .collect();
    let total: f64 = strengths.iter().sum();
    strengths.iter().map(|s| s / total).collect()
}

#[test]
fn a_prior_is_each_childs_softmax_share_of_its_term_weighed_and_orders_the_children() {
    let h = havannah_in_play();
    let m = expanded_root("mcts:iters=10,c=0,prob.shape=2", &h, 5);
    let first = m.nodes[0].first_child as usize;
    let children = first..first + m.nodes[0].children as usize;
    let shares = root_shares(&m, &h, "shape");
    let mut distinct = Vec::new();
    for i in children.clone() {
        // 2 · γ(m) / Σ γ.
        let want = 2.0 * shares[i - first];
        assert!(
            (f64::from(m.prob[i]) - want).abs() < 1e-6,
            "{i}: {} {want}",
            m.prob[i]
        );
        distinct.push((m.prob[i] * 1e6).round() as i64);
    }
    distinct.sort_unstable();
    distinct.dedup();
    assert!(distinct.len() > 3, "the shapes differ, so do the priors");
    let sum: f64 = children.clone().map(|i| f64::from(m.prob[i])).sum();
    assert!((sum - 2.0).abs() < 1e-4);
    // Stored highest first: an unvisited child's term is its prior.
    assert!(
        children
            .clone()
            .zip(children.skip(1))
            .all(|(a, b)| m.prob[a] >= m.prob[b])
    );
}

#[test]
fn the_prior_term_fades_as_one_over_the_root_of_visits_plus_one() {
    let h = havannah_in_play();
    let mut m = expanded_root("mcts:iters=10,c=0,prob.shape=1", &h, 5);
    let first = m.nodes[0].first_child as usize;
    let p = f64::from(m.prob[first]);
    assert!(p > 0.0);
    assert_eq!(m.prior_term(first, 0), p);
    assert_eq!(m.prior_term(first, 3), p / 2.0);
    // In the formula (no RAVE, c = 0): the mean reward and the prior's term.
    m.nodes[first].visits = 3;
    m.nodes[first].reward = 1.0;
    let ucb = m.ucb(m.parent_terms(0), first).unwrap();
    assert!((ucb - (1.0 / 3.0 + p / 2.0)).abs() < 1e-12);
    // Without a prior the term is 0 and nothing is stored.
    let plain = expanded_root("mcts:iters=10,c=0,know.shape=1", &h, 5);
    assert!(plain.prob.is_empty());
    assert_eq!(plain.prior_term(first, 0), 0.0);
}

#[test]
fn a_prior_search_depends_only_on_its_seed_and_keeps_its_priors_when_the_tree_is_reused() {
    let h = havannah_in_play();
    let text = "mcts:iters=300,c=0,rave=500,know=1,prob.shape=0.5,reuse=on";
    let search = || {
        let mut m = agent(text, &h, 11);
        let mv = m.choose(&h).mv;
        (mv, m)
    };
    let (mv, mut m) = search();
    let (again, other) = search();
    assert_eq!(mv, again);
    let visits = |m: &Mcts<Havannah>| m.nodes.iter().map(|n| n.visits).collect::<Vec<_>>();
    assert_eq!(visits(&m), visits(&other));
    // One array entry a node, kept through the reroot with the rest: after the reply the
    // search reached most, each child of the new root still holds its own share.
    assert_eq!(m.prob.len(), m.nodes.len());
    let chosen = m.root_child(mv).unwrap();
    let n = m.nodes[chosen];
    let reply = (n.first_child..n.first_child + u32::from(n.children))
        .max_by_key(|&c| m.nodes[c as usize].visits)
        .unwrap();
    let mut next = h.clone();
    next.play_unchecked(mv);
    next.play_unchecked(m.moves[reply as usize - 1]);
    let kept = m.nodes[reply as usize].visits;
    assert!(kept > 0 && m.nodes[reply as usize].first_child != UNEXPANDED);
    m.choose(&next);
    assert_eq!(m.prob.len(), m.nodes.len());
    assert_eq!(
        m.nodes[0].visits,
        kept + 300,
        "the reply's subtree was kept"
    );
    let first = m.nodes[0].first_child as usize;
    for (k, share) in root_shares(&m, &next, "shape").iter().enumerate() {
        let want = 0.5 * share;
        assert!((f64::from(m.prob[first + k]) - want).abs() < 1e-6, "{k}");
    }
}

#[test]
fn prob_prints_when_set_and_refuses_a_weight_not_above_0_or_a_term_the_game_lacks() {
    let spec = |t: &str| crate::AgentSpec::parse(t).map(|s| s.to_string());
    let text = spec("mcts:know=1,prob.shape=0.5").unwrap();
    assert!(text.ends_with(",prob.shape=0.5"), "{text}");
    assert_eq!(spec(&text).unwrap(), text);
    assert!(
        spec("mcts:prob.shape=0.5,widen=40").is_ok(),
        "a prior orders the children"
    );
    assert!(spec("mcts:prob.shape=0").is_err());
    assert!(spec("mcts:prob.shape=-1").is_err());
    assert!(spec("mcts:prob.=1").is_err());
    let with = crate::AgentSpec::parse("mcts:prob.shape=0.5")
        .unwrap()
        .set("prob.shape", 2.0)
        .unwrap();
    assert!(
        crate::AgentSpec::parse("mcts:prob.shape=0.5")
            .unwrap()
            .set("prob.shape", 0.0)
            .is_err()
    );
    assert!(with.to_string().contains("prob.shape=2"));
    let err = crate::AgentSpec::parse("mcts:prob.nothing=1")
        .unwrap()
        .build(&Havannah::new(5, false).unwrap(), 1)
        .unwrap_err();
    assert!(err.reason.contains("prob.nothing"), "{err}");
}

#[test]
fn several_priors_add_their_weighed_shares_whether_or_not_knowledge_reads_the_same_term() {
    let h = havannah_in_play();
    let m = expanded_root("mcts:iters=10,c=0,prob.shape=2,prob.local=0.5", &h, 5);
    let first = m.nodes[0].first_child as usize;
    let children = first..first + m.nodes[0].children as usize;
    let (shape, local) = (root_shares(&m, &h, "shape"), root_shares(&m, &h, "local"));
    for i in children.clone() {
        let want = 2.0 * shape[i - first] + 0.5 * local[i - first];
        assert!((f64::from(m.prob[i]) - want).abs() < 1e-6, "{i}");
    }
    // The term read once for knowledge and prior alike: the same priors, move by move.
    let both = expanded_root(
        "mcts:iters=10,c=0,know.shape=0.3,prob.shape=2,prob.local=0.5",
        &h,
        5,
    );
    let by_move = |m: &Mcts<Havannah>| {
        let mut p: Vec<_> = (children.clone())
            .map(|i| (m.moves[i - 1], m.prob[i].to_bits()))
            .collect();
        p.sort_unstable_by_key(|&(mv, _)| mv);
        p
    };
    assert_eq!(by_move(&both), by_move(&m));
}

/// How often each move is the playout move of `m` at `state`, `ply` plies into a playout,
/// over `draws` draws.
fn playout_move_counts(
    m: &mut Mcts<Havannah>,
    state: &Havannah,
    ply: u32,
    draws: u32,
) -> std::collections::HashMap<Cell, u32> {
    let mover = state.to_move().unwrap();
    let mut counts = std::collections::HashMap::new();
    for _ in 0..draws {
        *counts
            .entry(m.playout_move_at(state, mover, ply))
            .or_insert(0) += 1;
    }
    counts
}

#[test]
fn knowledge_in_playouts_draws_each_move_by_its_weight_one_drawn_cell_standing_for_the_rest() {
    // roll.shape=0.7: each cell weighs w = exp(0.7·T), T its shape's ln γ, worked here from
    // the term. The near cells (total S) against one cell o drawn from the E elsewhere,
    // weighing E·w(o): a near m is played with chance (1/E)·Σ_o w(m)/(S + E·w(o)), and o
    // with w(o)/(S + E·w(o)).
    let h = havannah_in_play();
    let mut m = expanded_root("mcts:iters=10,roll.shape=0.7", &h, 9);
    let mut near = Vec::new();
    let elsewhere = h.near_last_move(&mut near);
    let legal = moves_of(&h);
    let others: Vec<Cell> = legal.into_iter().filter(|mv| !near.contains(mv)).collect();
    assert_eq!(others.len(), elsewhere);
    assert!(
        near.len() >= 6 && elsewhere > 30,
        "{} near, {elsewhere}",
        near.len()
    );
    let term = (h.knowledge_terms().iter())
        .position(|&n| n == "shape")
        .unwrap();
    let weight = |mv: Cell| (0.7 * h.knowledge_term(mv, term)).exp();
    let near_total: f64 = near.iter().map(|&mv| weight(mv)).sum();
    let e = elsewhere as f64;
    let draws = 40_000;
    let counts = playout_move_counts(&mut m, &h, 0, draws);
    let share = |expected: f64, mv: Cell| {
        let seen = counts.get(&mv).copied().unwrap_or(0);
        let sd = (expected * (1.0 - expected) / f64::from(draws)).sqrt();
        let got = f64::from(seen) / f64::from(draws);
        let what = h.move_text(mv);
        assert!(
            (got - expected).abs() < 4.5 * sd,
            "{what}: {got} against {expected}"
        );
    };
    for &mv in &near {
        let chance: f64 = (others.iter())
            .map(|&o| weight(mv) / (near_total + e * weight(o)) / e)
            .sum();
        share(chance, mv);
    }
    for &o in &others {
        share(weight(o) / (near_total + e * weight(o)), o);
    }
    assert_eq!(
        counts.len(),
        near.len() + elsewhere,
        "every legal move is drawn"
    );
}

#[test]
fn roll_plies_keeps_the_weighed_draw_to_a_playouts_first_plies() {
    // With a weight so large that the strongest shape of a draw is all but certain, ply 0
    // plays a move as strong as the strongest near one (it, or a stronger cell elsewhere
    // drawn to stand for the rest); past roll_plies=1 the move is uniform again.
    let h = havannah_in_play();
    let mut m = expanded_root("mcts:iters=10,roll.shape=60,roll_plies=1", &h, 4);
    let mut near = Vec::new();
    h.near_last_move(&mut near);
    let term = (h.knowledge_terms().iter())
        .position(|&n| n == "shape")
        .unwrap();
    let value = |mv: &Cell| h.knowledge_term(*mv, term);
    let top = near.iter().map(value).fold(f64::NEG_INFINITY, f64::max);
    let first = playout_move_counts(&mut m, &h, 0, 300);
    assert!(first.keys().all(|mv| value(mv) >= top), "{first:?}");
    let later = playout_move_counts(&mut m, &h, 1, 2_000);
    let legal = moves_of(&h);
    assert!(legal.iter().any(|mv| value(mv) < top), "weaker moves exist");
    let most = later.values().max().unwrap();
    assert!(
        later.len() > legal.len() * 9 / 10 && *most < 200,
        "{later:?}"
    );
}

#[test]
fn roll_prints_when_set_and_refuses_what_it_cannot_do() {
    let spec = |t: &str| crate::AgentSpec::parse(t).map(|s| s.to_string());
    let text = spec("mcts:roll.shape=0.5,roll_plies=8").unwrap();
    assert!(
        text.contains("roll_plies=8") && text.ends_with(",roll.shape=0.5"),
        "{text}"
    );
    assert_eq!(spec(&text).unwrap(), text);
    assert!(
        spec("mcts:roll_plies=8").is_err(),
        "roll_plies needs a term"
    );
    assert!(spec("mcts:roll.shape=1,threads=2,parallel=tree").is_err());
    assert!(spec("mcts:roll.shape=inf").is_err());
    assert!(spec("mcts:roll.=1").is_err());
    let with = crate::AgentSpec::parse("mcts:roll.shape=0.5")
        .unwrap()
        .set("roll.shape", 2.0)
        .unwrap();
    assert!(with.to_string().contains("roll.shape=2"));
    let err = crate::AgentSpec::parse("mcts:roll.nothing=1")
        .unwrap()
        .build(&Havannah::new(5, false).unwrap(), 1)
        .unwrap_err();
    assert!(err.reason.contains("roll.nothing"), "{err}");
}

/// The shipped Havannah shapes file.
fn shipped_shapes_file() -> String {
    format!(
        "{}/../engine/src/games/havannah/shapes.txt",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A file of the system's temporary folder holding `text`, named for `name` and this process.
fn temp_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("ringside-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn the_shipped_shapes_read_from_their_file_search_as_the_shipped_shapes_do() {
    // Every way the term is read: tree knowledge, the prior, and the playouts' draw.
    let h = havannah_in_play();
    let base = "mcts:iters=300,c=0,rave=500,know=1,know.shape=0.3,prob.shape=0.5,roll.shape=0.5";
    let file = shipped_shapes_file();
    let search = |text: &str| {
        let mut m = agent(text, &h, 5);
        let mv = m.choose(&h).mv;
        let visits: Vec<u32> = m.nodes.iter().map(|n| n.visits).collect();
        (mv, visits, m.know.clone(), m.prob.clone())
    };
    let shipped = search(base);
    let read = search(&format!("{base},shapes={file}"));
    assert_eq!(shipped, read);
    // And a file of other weights is what the term then reads.
    let nothing = temp_file("shapes-zero", "# all shapes average\n0 0\n");
    let zero = search(&format!("{base},shapes={nothing}"));
    assert_ne!(shipped.2, zero.2, "the knowledge read from the file");
}

#[test]
fn a_term_the_game_reads_for_all_children_at_once_gives_each_child_its_own_value() {
    // Havannah's `distance` is read for all the children by one flood of the board; each
    // child's knowledge and prior must be what the term gives that child alone.
    let h = havannah_in_play();
    let term = |name: &str, mv: Cell| {
        let k = (h.knowledge_terms().iter())
            .position(|&n| n == name)
            .unwrap();
        h.knowledge_term(mv, k)
    };
    let m = expanded_root(
        "mcts:iters=10,know.distance=0.5,know.local=0.25,prob.distance=1,order=list",
        &h,
        1,
    );
    let first = m.nodes[0].first_child as usize;
    let shares = root_shares(&m, &h, "distance");
    let mut distinct = Vec::new();
    for i in first..first + m.nodes[0].children as usize {
        let mv = m.moves[i - 1];
        let want = 0.25 * term("local", mv) + 0.5 * term("distance", mv);
        assert_eq!(m.know[i], want as f32, "{}", h.move_text(mv));
        assert!((f64::from(m.prob[i]) - shares[i - first]).abs() < 1e-6);
        distinct.push(term("distance", mv) as i64);
    }
    distinct.sort_unstable();
    distinct.dedup();
    assert!(
        distinct.len() > 2,
        "the cells' distances differ: {distinct:?}"
    );
}

#[test]
fn a_shapes_file_gives_the_term_shape_its_weights_and_0_to_shapes_it_lacks() {
    let h = havannah_in_play();
    let legal = moves_of(&h);
    let picked = legal[3];
    let key = h.move_shape(picked).unwrap();
    let file = temp_file("shapes-one", &format!("# one shape\n{key} 2.5 1 1\n"));
    let m = expanded_root(
        &format!("mcts:iters=10,know.shape=1,order=list,shapes={file}"),
        &h,
        1,
    );
    let first = m.nodes[0].first_child as usize;
    for i in first..first + m.nodes[0].children as usize {
        let mv = m.moves[i - 1];
        let want = if h.move_shape(mv) == Some(key) {
            2.5
        } else {
            0.0
        };
        assert_eq!(f64::from(m.know[i]), want, "{}", h.move_text(mv));
    }
    assert!(m.know.contains(&2.5));
}

#[test]
fn a_shapes_file_fitted_in_context_weighs_a_shape_only_at_its_distance_from_the_last_stone() {
    // One shape at one distance from the last stone: only the children with both get it, and
    // the same shape at another distance reads the average, 0.
    let h = havannah_in_play();
    let legal = moves_of(&h);
    let seen = |mv: Cell| (h.move_shape(mv).unwrap(), h.shape_context(mv));
    // A move whose shape another move has at another distance.
    let picked = *legal
        .iter()
        .find(|&&a| {
            legal
                .iter()
                .any(|&b| seen(b).0 == seen(a).0 && seen(b).1 != seen(a).1)
        })
        .unwrap();
    let (shape, context) = seen(picked);
    assert!((1..=3).contains(&context));
    let key = ringside_engine::shapes::key(shape, context);
    let file = temp_file("shapes-context", &format!("# in context\n{key} 2.5 1 1\n"));
    let m = expanded_root(
        &format!("mcts:iters=10,know.shape=1,order=list,shapes={file}"),
        &h,
        1,
    );
    let first = m.nodes[0].first_child as usize;
    let (mut given, mut other_distance) = (0, 0);
    for i in first..first + m.nodes[0].children as usize {
        let mv = m.moves[i - 1];
        let same_shape = h.move_shape(mv) == Some(shape);
        let want = if same_shape && h.shape_context(mv) == context {
            given += 1;
            2.5
        } else {
            other_distance += usize::from(same_shape);
            0.0
        };
        assert_eq!(f64::from(m.know[i]), want, "{}", h.move_text(mv));
    }
    assert!(
        given >= 1 && other_distance >= 1,
        "{given} {other_distance}"
    );
}

#[test]
fn a_shapes_file_is_named_by_its_content_and_refused_when_it_changes() {
    let file = temp_file("shapes-named", "5 0.25\n7 -1\n");
    let text = format!("mcts:know.shape=0.3,shapes={file}");
    let spec = crate::AgentSpec::parse(&text).unwrap();
    let printed = spec.to_string();
    assert!(
        printed.contains(&format!("shapes={file},shapes_id=")),
        "{printed}"
    );
    assert_eq!(crate::AgentSpec::parse(&printed).unwrap(), spec);
    let h = Havannah::new(5, false).unwrap();
    assert!(spec.build(&h, 1).is_ok());
    // The file changes: the recorded spec is refused, naming both contents.
    std::fs::write(&file, "5 0.5\n7 -1\n").unwrap();
    let err = crate::AgentSpec::parse(&printed).unwrap_err();
    assert_eq!(err.kind, crate::spec::SpecErrorKind::Shapes);
    assert!(err.reason.contains("the file changed since"), "{err}");
    // Gone: the recorded spec still reads, and building it says the file is not here.
    std::fs::remove_file(&file).unwrap();
    let elsewhere = crate::AgentSpec::parse(&printed).unwrap();
    let err = elsewhere.build(&h, 1).unwrap_err();
    assert!(err.reason.contains("not here"), "{err}");
    // A file never read is refused at once.
    let err = crate::AgentSpec::parse(&text).unwrap_err();
    assert_eq!(err.kind, crate::spec::SpecErrorKind::Shapes);
}

#[test]
fn a_shapes_file_needs_a_shape_term_and_good_lines() {
    let good = temp_file("shapes-good", "5 0.25\n");
    let err = crate::AgentSpec::parse(&format!("mcts:know=1,shapes={good}")).unwrap_err();
    assert!(err.reason.contains("give know.shape=W"), "{err}");
    assert!(crate::AgentSpec::parse(&format!("mcts:roll.shape=1,shapes={good}")).is_ok());
    assert!(crate::AgentSpec::parse("mcts:know.shape=1,shapes_id=00000000000000ff").is_err());
    let bad = temp_file("shapes-bad", "# header\n5 0.25\n6 heavy\n");
    let err = crate::AgentSpec::parse(&format!("mcts:know.shape=1,shapes={bad}")).unwrap_err();
    assert!(
        err.reason
            .ends_with("line 3: weight heavy is not a finite number"),
        "{err}"
    );
}

/// The random move-prior network of `agents/tests/data` (PyTorch's logits checked in
/// `movenet::tests`).
const MOVENET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/movenet-fixture.rspol"
);

/// The fixture network's logit of every grid cell at `h`, and the cell of each of the
/// root's children in order.
fn root_logits(m: &Mcts<Havannah>, h: &Havannah) -> (Vec<f32>, Vec<usize>) {
    let net = crate::movenet::MoveNet::read(&std::fs::read(MOVENET).unwrap()).unwrap();
    let logits = crate::movenet::MoveNetEval::default()
        .logits(&net, h)
        .unwrap()
        .to_vec();
    let first = m.nodes[0].first_child as usize;
    let cells = (first..first + m.nodes[0].children as usize)
        .map(|c| h.grid_cell(m.moves[c - 1]).unwrap())
        .collect();
    (logits, cells)
}

#[test]
fn a_learned_prior_adds_its_softmax_share_once_a_node_has_its_visits() {
    let h = havannah_in_play();
    let text = format!(
        "mcts:iters=200,c=0,rave=500,know=1,prob.shape=0.5,movenet={MOVENET},movenet_w=2,movenet_at=20"
    );
    let mut m = agent(&text, &h, 5);
    m.choose(&h);
    let bare = expanded_root("mcts:iters=10,c=0,rave=500,know=1,prob.shape=0.5", &h, 5);
    // The root's children: the shapes' share, plus 2 · the network's softmax share.
    let (logits, cells) = root_logits(&m, &h);
    let first = m.nodes[0].first_child as usize;
    let children = first..first + m.nodes[0].children as usize;
    let top = cells.iter().map(|&k| logits[k]).fold(f32::MIN, f32::max);
    let sum: f64 = cells
        .iter()
        .map(|&k| f64::from(logits[k] - top).exp())
        .sum();
    let shapes = root_shares(&m, &h, "shape");
    assert!(m.nodes[0].netted);
    for (j, c) in children.enumerate() {
        let net_share = f64::from(logits[cells[j]] - top).exp() / sum;
        let want = 0.5 * shapes[j] + 2.0 * net_share;
        assert!(
            (f64::from(m.prob[c]) - want).abs() < 1e-5,
            "{c}: {} {want}",
            m.prob[c]
        );
    }
    // Nodes with fewer visits than movenet_at have only the shapes' share.
    let few = (1..m.nodes.len())
        .find(|&i| m.nodes[i].first_child != UNEXPANDED && m.nodes[i].visits < 20)
        .expect("an expanded node with few visits");
    assert!(!m.nodes[few].netted);
    assert!(m.nodes.iter().filter(|n| n.netted).count() > 1);
    assert!(!bare.prob.is_empty() && !bare.nodes.iter().any(|n| n.netted));
}

#[test]
fn a_learned_prior_search_depends_only_on_its_seed_and_changes_the_search() {
    let h = havannah_in_play();
    let with = format!(
        "mcts:iters=400,rave=500,know=1,reuse=on,movenet={MOVENET},movenet_w=5,movenet_at=8"
    );
    let search = |text: &str| {
        let mut m = agent(text, &h, 9);
        let mv = m.choose(&h).mv;
        (mv, m.nodes.iter().map(|n| n.visits).collect::<Vec<_>>())
    };
    assert_eq!(search(&with), search(&with));
    let without = search("mcts:iters=400,rave=500,know=1,reuse=on");
    assert_ne!(search(&with).1, without.1, "the prior steers the search");
}

#[test]
fn a_movenet_file_is_named_by_its_content_and_refused_where_it_cannot_play() {
    let text = format!("mcts:movenet={MOVENET},movenet_at=4");
    let spec = crate::AgentSpec::parse(&text).unwrap();
    let printed = spec.to_string();
    assert!(
        printed.contains(&format!("movenet={MOVENET},movenet_id=")),
        "{printed}"
    );
    assert!(printed.contains("movenet_at=4"), "{printed}");
    assert_eq!(crate::AgentSpec::parse(&printed).unwrap(), spec);
    assert!(spec.build(&Havannah::new(5, false).unwrap(), 1).is_ok());
    // A game without a grid: one clear error.
    let err = spec.build(&Rin::default(), 1).unwrap_err();
    assert_eq!(err.kind, crate::spec::SpecErrorKind::MoveNet);
    assert!(err.reason.contains("has no grid"), "{err}");
    // A file that is not a network, and one named by another content.
    let bad = temp_file("movenet-bad", "not a net");
    let err = crate::AgentSpec::parse(&format!("mcts:movenet={bad}")).unwrap_err();
    assert_eq!(err.kind, crate::spec::SpecErrorKind::MoveNet);
    assert!(
        err.reason.contains("not a move-prior network") || err.reason.contains("ends inside"),
        "{err}"
    );
    let err = crate::AgentSpec::parse(&format!(
        "mcts:movenet={MOVENET},movenet_id=00000000000000ff"
    ))
    .unwrap_err();
    assert!(err.reason.contains("the file changed since"), "{err}");
    let err = crate::AgentSpec::parse("mcts:know=2,movenet_know=0.1").unwrap_err();
    assert!(err.reason.contains("go with movenet=FILE"), "{err}");
    assert!(crate::AgentSpec::parse(&format!("mcts:movenet={MOVENET},movenet_w=-1")).is_err());
}

#[test]
fn the_networks_knowledge_adds_its_logit_less_the_mean_to_each_childs_knowledge() {
    let h = havannah_in_play();
    let base = "mcts:iters=200,c=0,rave=500,know=1,know.shape=0.15";
    let text = format!("{base},movenet={MOVENET},movenet_w=0,movenet_know=0.2,movenet_at=20");
    let mut m = agent(&text, &h, 5);
    m.choose(&h);
    let bare = expanded_root(base, &h, 5);
    let (logits, cells) = root_logits(&m, &h);
    let first = m.nodes[0].first_child as usize;
    let children = first..first + m.nodes[0].children as usize;
    let mean = cells.iter().map(|&k| f64::from(logits[k])).sum::<f64>() / cells.len() as f64;
    assert!(m.nodes[0].netted);
    for (j, c) in children.enumerate() {
        // The same children in the same order as the bare expansion (same seed and terms).
        assert_eq!(m.moves[c - 1], bare.moves[c - 1]);
        let want = f64::from(bare.know[c]) + 0.2 * (f64::from(logits[cells[j]]) - mean);
        assert!(
            (f64::from(m.know[c]) - want).abs() < 1e-5,
            "{c}: {} {want}",
            m.know[c]
        );
        // With movenet_w=0 the prior term adds nothing.
        assert_eq!(m.prob[c], 0.0);
    }
}
