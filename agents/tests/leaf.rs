//! The principal leaf Texel tuning fits on (issue 24): on a hand-built position of each game,
//! the leaf of a depth-1 search is the child a brute-force scan of every move finds best, the
//! leaf of a depth-2 search carries the brute-force minimax value, and that value is the
//! leaf's own evaluation (or its result) from the root mover's view: the static evaluation
//! judges the leaf exactly as the search did.

use ringside_agents::alphabeta::{EVAL_LIMIT, EVAL_SCALE, WIN};
use ringside_agents::spec::AlphaBetaSpec;
use ringside_agents::{AlphaBeta, EvalKind, EvalSpec, Evaluator};
use ringside_engine::games::advance::Advance;
use ringside_engine::games::havannah::Havannah;
use ringside_engine::games::hexxagon::Hexxagon;
use ringside_engine::games::ikabegama::Ikabegama;
use ringside_engine::games::life::Life;
use ringside_engine::games::rin::Rin;
use ringside_engine::{Features, Game, Outcome, Player};

fn rich() -> EvalSpec {
    EvalSpec {
        kind: EvalKind::Rich,
        ..EvalSpec::default()
    }
}

/// The value of `state` for `me` as the search scores a leaf: a result, or the clamped,
/// rounded evaluation in search units.
fn leaf_value<G: Game + Features>(eval: &Evaluator, state: &G, me: Player) -> i32 {
    match state.outcome() {
        Some(Outcome::Draw) => 0,
        Some(Outcome::Win(p)) if p == me => WIN,
        Some(Outcome::Win(_)) => -WIN,
        None => (eval.evaluate(state, me) * EVAL_SCALE)
            .round()
            .clamp(-f64::from(EVAL_LIMIT), f64::from(EVAL_LIMIT)) as i32,
    }
}

/// Plain minimax to `depth` for `me`, the player to move at the root; the side to move may
/// stay the same from one ply to the next (Rin), so each node maximises for its own mover.
fn minimax<G: Game + Features>(eval: &Evaluator, state: &G, depth: u32, me: Player) -> i32 {
    let Some(mover) = state.to_move().filter(|_| depth > 0) else {
        return leaf_value(eval, state, me);
    };
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let values = moves.iter().map(|&mv| {
        let mut child = state.clone();
        child.play(mv);
        minimax(eval, &child, depth - 1, me)
    });
    if mover == me {
        values.max().expect("a live position has a move")
    } else {
        values.min().expect("a live position has a move")
    }
}

fn check<G: Game + Features>(state: &G) {
    let eval = Evaluator::new(&rich(), state).unwrap();
    let me = state.to_move().expect("a live position");
    for depth in [1, 2] {
        let spec = AlphaBetaSpec {
            depth,
            eval: rich(),
            ..AlphaBetaSpec::default()
        };
        let mut search = AlphaBeta::<G>::new(spec, eval.clone());
        let (leaf, value) = search.principal_leaf(state);
        assert_eq!(
            value,
            minimax(&eval, state, depth, me),
            "{}: depth {depth}: the search's value is the minimax value",
            state.name()
        );
        assert_eq!(
            leaf_value(&eval, &leaf, me),
            value,
            "{}: depth {depth}: the leaf's own value is the search's",
            state.name()
        );
        assert_ne!(
            leaf.hash(),
            state.hash(),
            "{}: the leaf is not the root",
            state.name()
        );
        if depth == 1 {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            let is_child = moves.iter().any(|&mv| {
                let mut child = state.clone();
                child.play(mv);
                child.hash() == leaf.hash()
            });
            assert!(is_child, "{}: a depth-1 leaf is a child", state.name());
        }
    }
}

#[test]
fn rin_leaf_carries_the_minimax_value() {
    let rin = Rin::new(8)
        .unwrap()
        .set_up(
            "........\n........\n...B....\n..BW....\n........\n.....B..\n........\n........\nply 4",
        )
        .unwrap();
    check(&rin);
}

#[test]
fn life_leaf_carries_the_minimax_value() {
    let mut grid = vec![vec!['.'; 19]; 19];
    for (row, col, c) in [
        (9, 9, 'W'),
        (9, 8, 'B'),
        (9, 10, 'W'),
        (3, 3, 'B'),
        (4, 3, 'B'),
    ] {
        grid[row][col] = c;
    }
    let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    let life = Life::default()
        .set_up(&format!("{}\nply 0", rows.join("\n")))
        .unwrap();
    check(&life);
}

#[test]
fn advance_leaf_carries_the_minimax_value() {
    let game = Advance::with_offset(3, 1)
        .unwrap()
        .set_up("  X X O\n . . . .\n. . . . .\n . . . .\n  . . .")
        .unwrap();
    check(&game);
}

#[test]
fn hexxagon_leaf_carries_the_minimax_value() {
    let h = Hexxagon::default()
        .set_up(
            "    . . . . .
            . . . . . .
           . . . . . . .
          . . . D . . . .
         . . . L . . . . .
          . . . . D . . .
           . . . . . . .
            . . . . . .
             . . . . .",
        )
        .unwrap();
    check(&h);
}

#[test]
fn ikabegama_leaf_is_the_winning_growth() {
    let game = Ikabegama::with_nest_cells(3, "c1", "c3")
        .unwrap()
        .set_up("  . . .\n . . . D\nL . d L .\n . . . .\n  . . .")
        .unwrap();
    check(&game);
    // Growing onto c3 wins at once: the depth-1 leaf is that win, worth WIN.
    let spec = AlphaBetaSpec {
        depth: 1,
        eval: rich(),
        ..AlphaBetaSpec::default()
    };
    let eval = Evaluator::new(&rich(), &game).unwrap();
    let (leaf, value) = AlphaBeta::<Ikabegama>::new(spec, eval).principal_leaf(&game);
    assert_eq!(value, WIN);
    assert_eq!(leaf.outcome(), Some(Outcome::Win(Player::ZERO)));
}

#[test]
fn havannah_leaf_carries_the_minimax_value() {
    let h = Havannah::new(4, false)
        .unwrap()
        .set_up(
            "W W B .\n. . . . .\n. . . . . .\n. . . W . . .\n. . . . . .\n. . . . .\n. . . .\nto_move black",
        )
        .unwrap();
    check(&h);
}
