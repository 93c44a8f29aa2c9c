//! Budgets, weights files and reported costs.

use std::time::Duration;

use ringside_agents::{Agent, AgentSpec, AnyAgent, Evaluator};
use ringside_engine::games::ikabegama::Ikabegama;
use ringside_engine::games::rin::Rin;
use ringside_engine::{Game, Player};

/// The agent of `text` for Rin's start, seed 1.
fn rin_agent(text: &str, start: &Rin) -> AnyAgent<Rin> {
    AgentSpec::parse(text).unwrap().build(start, 1).unwrap()
}

#[test]
fn a_node_budget_stops_alphabeta_after_its_first_full_iteration() {
    let start = Rin::default();
    let mut agent = rin_agent("alphabeta:depth=6,nodes=2000", &start);
    let d = agent.choose(&start);
    assert!(start.is_legal(d.mv));
    assert!((1..6).contains(&d.stats.depth), "{:?}", d.stats);
    assert!(
        (2000..2100).contains(&d.stats.nodes),
        "stopped at the budget: {}",
        d.stats.nodes
    );
    // The next depth, unbudgeted, needs more than the budget: so the budget is what stopped it.
    let deeper = format!("alphabeta:depth={}", d.stats.depth + 1);
    let mut unbudgeted = rin_agent(&deeper, &start);
    assert!(unbudgeted.choose(&start).stats.nodes > 2000);
}

#[test]
fn the_first_iteration_always_finishes_whatever_the_node_budget() {
    // A budget of one node is spent at the root: depth 1 still finishes and plays.
    let start = Rin::default();
    let mut agent = rin_agent("alphabeta:depth=3,nodes=1", &start);
    let d = agent.choose(&start);
    assert!(start.is_legal(d.mv));
    assert_eq!(d.stats.depth, 1, "{:?}", d.stats);
    assert!(d.stats.nodes > 256, "{:?}", d.stats);
}

#[test]
fn a_time_budget_bounds_mcts_and_reports_what_it_spent() {
    let start = Rin::default();
    let mut agent = rin_agent("mcts:time_ms=40", &start);
    let d = agent.choose(&start);
    // It searches until two of its clock's intervals (a fiftieth of the budget each) before
    // the budget, so as to end within it.
    assert!(d.stats.time >= Duration::from_millis(38), "{:?}", d.stats);
    assert!(d.stats.iterations > 10, "{:?}", d.stats);
    assert!(
        d.stats.nodes > 256,
        "the root and its 256 children at least: {:?}",
        d.stats
    );
    assert!(d.stats.depth >= 1);
}

#[test]
fn a_time_budget_stops_alphabeta_and_a_generous_one_lets_it_finish() {
    let start = Rin::default();
    // A depth no clock allows: the budget, checked every 1,024 nodes, is what stops it.
    let mut short = rin_agent("alphabeta:depth=40,time_ms=30", &start);
    let d = short.choose(&start);
    assert!(start.is_legal(d.mv));
    assert!((2..40).contains(&d.stats.depth), "{:?}", d.stats);
    assert!(d.stats.time < Duration::from_secs(20), "{:?}", d.stats);
    // A minute for a search of a few thousand nodes: the clock never cuts it, and it
    // searches exactly what the same depth searches without a budget.
    let mut generous = rin_agent("alphabeta:depth=3,time_ms=60000", &start);
    let mut plain = rin_agent("alphabeta:depth=3", &start);
    let (g, p) = (generous.choose(&start), plain.choose(&start));
    assert_eq!(g.stats.depth, 3, "{:?}", g.stats);
    assert!(g.stats.nodes > 2 * 1024, "{:?}", g.stats);
    assert_eq!((g.mv, g.stats.nodes), (p.mv, p.stats.nodes));
}

#[test]
fn a_weights_file_changes_the_evaluation_and_bad_names_are_refused() {
    let dir = std::env::temp_dir().join(format!("ringside-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("ikabegama.json");
    std::fs::write(&good, r#"{"material": 0.0, "nest_distance": 3.0}"#).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"immune": 1.0}"#).unwrap();
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "material = 1").unwrap();

    let game = Ikabegama::default();
    let spec = AgentSpec::parse(&format!("alphabeta:depth=1,weights={}", good.display())).unwrap();
    assert!(
        spec.to_string()
            .contains(&format!("weights={}", good.display()))
    );
    let AgentSpec::AlphaBeta(ab) = &spec else {
        unreachable!()
    };
    let weighted = Evaluator::new(&ab.eval, &game).unwrap();
    let AgentSpec::AlphaBeta(plain) = AgentSpec::parse("alphabeta").unwrap() else {
        unreachable!()
    };
    let material = Evaluator::new(&plain.eval, &game).unwrap();
    // Light grows one step towards the Dark nest: 2 tokens to 1, nearest distances 3 and 4.
    let mut after = game;
    after.play(after.parse_move("g6").unwrap());
    assert_eq!(material.evaluate(&after, Player::ZERO), 1.0);
    assert_eq!(
        weighted.evaluate(&after, Player::ZERO),
        3.0,
        "3 x (4 - 3), material ignored"
    );
    assert!(spec.build(&game, 1).is_ok());

    let err = AgentSpec::parse(&format!("alphabeta:weights={}", bad.display()))
        .unwrap()
        .build(&game, 1)
        .unwrap_err();
    assert_eq!(
        err.reason,
        "weights: ikabegama has no feature 'immune'; its features: material, growths, jumps, unflippable, nest_distance, nest_guard"
    );
    let err = AgentSpec::parse(&format!("mcts:weights={}", broken.display())).unwrap_err();
    assert!(
        err.reason
            .contains("expected a JSON object of feature names and numbers"),
        "{}",
        err.reason
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn mcts_lines_stop_at_the_full_playout_length_where_a_side_can_cycle_for_ever() {
    use ringside_agents::mcts::FULL_PLAYOUT_PLIES;
    use ringside_engine::games::hexxagon::Hexxagon;
    // Light must pass; Dark, behind 16 to 20, would lose by filling the last hole, so it
    // jumps back and forth for ever (found in a Hexxagon match that hung: with tree reuse the
    // tree grew along the cycle by about one node an iteration, and every iteration walked
    // all of it).
    let mut state = Hexxagon::new(4)
        .unwrap()
        .set_up(
            "   L L L L\n  D L L L L\n D D D L L L\nD D D L L L L\n D D D L L D\n  . D D L L\n   D D D L\nto_move light",
        )
        .unwrap();
    let spec = AgentSpec::parse("mcts:iters=1000").unwrap();
    let mut agents = [
        spec.build(&state, 1).unwrap(),
        spec.build(&state, 2).unwrap(),
    ];
    // The line grows by about 85 plies a decision without the limit: 30 decisions pass it.
    for _ in 0..30 {
        let mover = state.to_move().unwrap().index();
        let decision = agents[mover].choose(&state);
        assert!(
            decision.stats.depth <= FULL_PLAYOUT_PLIES,
            "ply {}: a line of {} plies",
            state.ply(),
            decision.stats.depth
        );
        state.play(decision.mv);
    }
    assert!(state.outcome().is_none(), "Dark keeps the game going");
}
