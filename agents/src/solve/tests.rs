use rand::RngExt;
use ringside_engine::games::connect_four::{ConnectFour, Shape};
use ringside_engine::games::hex::Hex;
use ringside_engine::games::tic_tac_toe::TicTacToe;
use ringside_engine::{Game, Player};

use super::search::{Search, WIN, shift};
use super::*;

/// The plain minimax: every move, no table, no pruning; the mover's score in the solver's
/// units (`WIN − d` for a win `d` plies away).
fn minimax<G: Game>(state: &G) -> i32 {
    let me = state.to_move().unwrap();
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| move_score(state, me, mv))
        .max()
        .unwrap()
}

/// The score for `me` of playing `mv`, by plain minimax.
fn move_score<G: Game>(state: &G, me: Player, mv: G::Move) -> i32 {
    let mut child = state.clone();
    child.play(mv);
    match child.outcome() {
        Some(o) => o.value_for(me) * (WIN - 1),
        None if child.to_move() == Some(me) => shift(minimax(&child)),
        None => shift(-minimax(&child)),
    }
}

/// `plies` random moves from `start`, unless the game ends first (then fewer).
fn random_position<G: Game>(start: &G, plies: usize, rng: &mut ringside_engine::GameRng) -> G {
    let mut g = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        let mut next = g.clone();
        next.play(mv);
        if next.outcome().is_some() {
            break;
        }
        g = next;
    }
    g
}

/// Checks the solver's value and best moves against plain minimax on `count` positions.
fn agrees_with_minimax<G: Game>(start: &G, plies: std::ops::Range<usize>, count: usize, seed: u64) {
    let mut rng = ringside_engine::seeded_rng(seed, 0);
    for _ in 0..count {
        let n = rng.random_range(plies.clone());
        let g = random_position(start, n, &mut rng);
        let plain = minimax(&g);
        let s = solve(&g, &Budget::default());
        let me = g.to_move().unwrap();
        assert!(s.distance_known);
        assert_eq!(
            s.value,
            Some(search::value_of(plain)),
            "{}\n{}",
            g.spec(),
            g.board_rows().join("\n")
        );
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let best: Vec<G::Move> = moves
            .into_iter()
            .filter(|&mv| move_score(&g, me, mv) == plain)
            .collect();
        assert_eq!(s.best, best, "{}\n{}", g.spec(), g.board_rows().join("\n"));
    }
}

fn connect_four(rows: usize, columns: usize, k: usize) -> ConnectFour {
    ConnectFour::with_shape(Shape::new(rows, columns, k).unwrap())
}

#[test]
fn tic_tac_toe_is_a_draw_in_nine_plies_from_every_opening() {
    let s = solve(&TicTacToe::new(), &Budget::default());
    assert_eq!(s.value, Some(Value::Draw));
    assert_eq!(s.best.len(), 9);
    assert_eq!(s.method, "alphabeta");
}

#[test]
fn tic_tac_toe_positions_solve_as_plain_minimax_does() {
    agrees_with_minimax(&TicTacToe::new(), 0..7, 120, 1);
}

#[test]
fn small_connect_four_positions_solve_as_plain_minimax_does_by_both_searches() {
    // Four to win takes the dedicated search; three to win the generic one.
    agrees_with_minimax(&connect_four(4, 4, 4), 5..12, 60, 2);
    agrees_with_minimax(&connect_four(4, 5, 4), 9..16, 40, 3);
    agrees_with_minimax(&connect_four(4, 4, 3), 4..12, 60, 4);
    let s = solve(&connect_four(4, 4, 4), &Budget::default());
    assert_eq!(s.method, "connect_four");
}

#[test]
fn hex_three_is_a_first_player_win_through_the_centre_and_positions_match_minimax() {
    let hex = Hex::new(3, false).unwrap();
    let s = solve(&hex, &Budget::default());
    assert!(matches!(s.value, Some(Value::Win(_))), "{:?}", s.value);
    assert!(s.best.contains(&hex.parse_move("b2").unwrap()));
    agrees_with_minimax(&hex, 1..6, 40, 5);
}

#[test]
fn the_dedicated_connect_four_search_agrees_with_the_generic_one() {
    let mut rng = ringside_engine::seeded_rng(6, 0);
    for (rows, columns) in [(4, 5), (5, 4), (4, 6), (5, 5)] {
        for _ in 0..8 {
            let g = random_position(
                &connect_four(rows, columns, 4),
                rng.random_range(4..12),
                &mut rng,
            );
            let fast = solve(&g, &Budget::default());
            let budget = Budget::default();
            let mut table = super::table::Table::new(budget.memory);
            let mut generic = Search::<ConnectFour>::new(&budget, &mut table);
            let value = generic.root(&g).map(|(v, _)| v);
            assert_eq!(fast.method, "connect_four");
            assert_eq!(
                fast.value,
                value,
                "{}\n{}",
                g.spec(),
                g.board_rows().join("\n")
            );
            assert_eq!(fast.best, generic.best, "{}", g.board_rows().join("\n"));
        }
    }
}

#[test]
fn a_budget_spent_before_the_answer_gives_no_value_never_a_guess() {
    let budget = Budget {
        nodes: Some(50),
        ..Budget::default()
    };
    for s in [
        solve(&ConnectFour::new(), &budget).value,
        solve(&connect_four(6, 7, 5), &budget).value,
    ] {
        assert_eq!(s, None);
    }
    let s = solve(&Hex::new(4, false).unwrap(), &budget);
    assert_eq!((s.value, s.best.len()), (None, 0));
}

#[test]
fn a_finished_game_has_no_mover_and_no_value() {
    let mut g = TicTacToe::new();
    for m in ["a1", "a2", "b1", "b2", "c1"] {
        g.play(g.parse_move(m).unwrap());
    }
    assert!(g.outcome().is_some());
    assert_eq!(solve(&g, &Budget::default()).value, None);
}

#[test]
fn without_exact_the_sign_and_one_keeping_move_come_back() {
    let budget = Budget {
        exact: false,
        ..Budget::default()
    };
    let s = solve(&connect_four(4, 5, 4), &budget);
    let full = solve(&connect_four(4, 5, 4), &Budget::default());
    assert_eq!(s.value.map(Value::sign), full.value.map(Value::sign));
    assert_eq!(s.best.len(), 1);
    assert!(full.best.contains(&s.best[0]));
}

/// Checks proof-number search's value and best moves (every move that keeps the value's sign)
/// against plain minimax on `count` positions.
fn proof_numbers_agree_with_minimax<G: Game>(
    start: &G,
    plies: std::ops::Range<usize>,
    count: usize,
    seed: u64,
) {
    let mut rng = ringside_engine::seeded_rng(seed, 0);
    let budget = Budget {
        method: Method::ProofNumber,
        memory: 4 << 20,
        ..Budget::default()
    };
    for _ in 0..count {
        let n = rng.random_range(plies.clone());
        let g = random_position(start, n, &mut rng);
        let sign = minimax(&g).signum();
        let s = solve(&g, &budget);
        assert_eq!(s.method, "dfpn");
        assert!(!s.distance_known);
        let board = g.board_rows().join("\n");
        assert_eq!(
            s.value.map(Value::sign),
            Some(sign),
            "{}\n{board}",
            g.spec()
        );
        let me = g.to_move().unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let keeping: Vec<G::Move> = moves
            .into_iter()
            .filter(|&mv| move_score(&g, me, mv).signum() == sign)
            .collect();
        assert_eq!(s.best, keeping, "{}\n{board}", g.spec());
    }
}

#[test]
fn proof_number_search_finds_the_value_and_every_move_that_keeps_it() {
    proof_numbers_agree_with_minimax(&TicTacToe::new(), 0..7, 80, 11);
    proof_numbers_agree_with_minimax(&Hex::new(3, false).unwrap(), 0..6, 40, 12);
    proof_numbers_agree_with_minimax(&Hex::new(3, true).unwrap(), 0..4, 20, 13);
    proof_numbers_agree_with_minimax(&connect_four(4, 4, 3), 4..12, 40, 14);
    proof_numbers_agree_with_minimax(&connect_four(4, 5, 4), 8..16, 30, 15);
}

#[test]
fn proof_number_search_gives_up_as_its_budget_says() {
    let budget = Budget {
        method: Method::ProofNumber,
        nodes: Some(100),
        memory: 1 << 20,
        ..Budget::default()
    };
    let s = solve(&Hex::new(5, false).unwrap(), &budget);
    assert_eq!((s.value, s.best.len()), (None, 0));
}

#[test]
fn a_line_past_the_deepest_ply_gives_up_instead_of_overflowing_the_stack() {
    // Hexxagon's jumps can return to a position, so a depth-first line can go on for ever;
    // on a thread with a small stack the solve must stop at MAX_PLY, value unknown.
    let start = ringside_engine::games::hexxagon::Hexxagon::new(4).unwrap();
    for method in [Method::AlphaBeta, Method::ProofNumber] {
        let budget = Budget {
            nodes: Some(300_000),
            exact: false,
            method,
            ..Budget::default()
        };
        let solution = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || solve(&start, &budget))
            .unwrap()
            .join()
            .expect("the solve returns, not overflows");
        assert!(solution.nodes <= 300_000 + 1, "{}", solution.nodes);
        assert_eq!(solution.value, None, "{method:?}");
    }
}
