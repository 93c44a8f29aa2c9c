use super::*;
use crate::conformance::check_random_games;

/// Plays moves given by name.
fn play(moves: &str) -> TicTacToe {
    let mut g = TicTacToe::new();
    for m in moves.split_whitespace() {
        let mv = g.parse_move(m).unwrap();
        g.try_play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

/// The plain rules: any full line of the mover's marks wins, else a full board draws.
fn reference(before: &TicTacToe, mv: Cell, after: &TicTacToe) -> Result<(), String> {
    let rows = |g: &TicTacToe| g.board_rows().concat().chars().collect::<Vec<char>>();
    let mut board = rows(before);
    let me = ['X', 'O'][before.to_move().unwrap().index()];
    let empties: Vec<usize> = (0..9).filter(|&i| board[i] == '.').collect();
    let mut listed = Vec::new();
    before.legal_moves(&mut listed);
    if listed.iter().map(|c| usize::from(c.0)).collect::<Vec<_>>() != empties {
        return Err(format!("moves {listed:?}, empty cells {empties:?}"));
    }
    board[usize::from(mv.0)] = me;
    if board != rows(after) {
        return Err("board after differs".into());
    }
    let lines = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];
    let won = lines.iter().any(|l| l.iter().all(|&i| board[i] == me));
    let expected = if won {
        Some(Outcome::Win(before.to_move().unwrap()))
    } else if !board.contains(&'.') {
        Some(Outcome::Draw)
    } else {
        None
    };
    if after.outcome() != expected {
        return Err(format!(
            "outcome {:?}, reference {expected:?}",
            after.outcome()
        ));
    }
    Ok(())
}

#[test]
fn the_board_starts_empty_with_x_to_move_and_nine_moves() {
    let g = TicTacToe::new();
    assert_eq!(g.board_rows(), ["...", "...", "..."]);
    assert_eq!(g.to_move(), Some(Player::ZERO));
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves, (0..9).map(Cell).collect::<Vec<_>>());
}

#[test]
fn cells_carry_openspiels_action_numbers_and_strings() {
    let g = TicTacToe::new();
    for (name, action, openspiel) in [
        ("a3", 0, "x(0,0)"),
        ("b2", 4, "x(1,1)"),
        ("c1", 8, "x(2,2)"),
        ("c3", 2, "x(0,2)"),
    ] {
        let mv = g.parse_move(name).unwrap();
        assert_eq!(g.move_index(mv), action, "{name}");
        assert_eq!(g.action_string(Player::ZERO, mv), openspiel);
        assert_eq!(g.parse_move(openspiel), Ok(mv));
        assert_eq!(g.move_text(mv), name);
    }
    assert_eq!(g.action_string(Player::ONE, Cell(5)), "o(1,2)");
    for bad in ["d1", "a4", "x(3,0)", "x(0,0", "(0,0)", "x(0,00)", "b"] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn marks_alternate_and_a_taken_cell_is_refused() {
    let mut g = play("b2 a1");
    assert_eq!(g.board_rows(), ["...", ".X.", "O.."]);
    assert_eq!(g.to_move(), Some(Player::ZERO));
    let taken = g.parse_move("a1").unwrap();
    assert!(!g.is_legal(taken));
    assert!(g.try_play(taken).is_err());
    assert_eq!(g.why_illegal(taken), "cell a1 is taken");
    assert_eq!(g.why_illegal(Cell(9)), "cell 9 is off the board");
    assert!(!g.is_legal(Cell(9)) && !g.is_legal(Cell(15)));
}

#[test]
fn the_game_keeps_no_score_before_or_after_its_end() {
    for moves in ["", "b2 a1", "a1 a2 b1 b2 c1"] {
        assert_eq!(play(moves).scores(), None, "{moves:?}");
    }
}

#[test]
fn a_row_a_column_and_a_diagonal_each_win() {
    for (moves, winner) in [
        ("a1 a2 b1 b2 c1", Player::ZERO),
        ("a1 b1 c3 b2 a3 b3", Player::ONE),
        ("a1 a2 b2 b1 c3", Player::ZERO),
        ("c1 a1 b2 a2 a3", Player::ZERO),
    ] {
        let g = play(moves);
        assert_eq!(g.outcome(), Some(Outcome::Win(winner)), "{moves}");
        assert_eq!(g.to_move(), None);
    }
}

#[test]
fn a_full_board_without_a_line_is_a_draw() {
    let g = play("b2 a1 c1 a3 a2 c2 b1 b3 c3");
    assert_eq!(g.board_rows(), ["OOX", "XXO", "OXX"]);
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn the_ninth_mark_that_makes_a_line_wins_rather_than_draws() {
    let g = play("a1 b1 a2 b2 b3 c2 c1 c3 a3");
    assert_eq!(g.board_rows(), ["XXO", "XOO", "XOX"]);
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ZERO)));
}

#[test]
fn wins_at_once_names_the_cell_that_completes_a_line() {
    let g = play("a1 a2 b1 b2");
    let c1 = g.parse_move("c1").unwrap();
    let c2 = g.parse_move("c2").unwrap();
    assert_eq!(g.wins_at_once(Player::ZERO, c1), Some(true));
    assert_eq!(g.wins_at_once(Player::ONE, c2), Some(true));
    assert_eq!(g.wins_at_once(Player::ZERO, c2), Some(false));
}

#[test]
fn set_up_reads_the_drawing_and_derives_the_mover() {
    let g = TicTacToe::new().set_up("x..\n.o.\n..x").unwrap();
    assert_eq!(g.to_move(), Some(Player::ONE));
    assert_eq!(g.hash(), g.hash_from_scratch());
    assert_eq!(g, play("a3 b2 c1"));
    assert!(TicTacToe::new().set_up("xx.\n...\n...").is_err());
    assert!(
        TicTacToe::new()
            .set_up("xxx\noo.\n...")
            .unwrap()
            .outcome()
            .is_some()
    );
}

#[test]
fn features_count_marks_open_lines_and_threats() {
    let g = play("a1 c3 b1");
    let mut out = [0.0; MAX_FEATURES];
    g.features(Player::ZERO, &mut out);
    // x on a1 and b1: rows 1, columns a and b, diagonal a1-c3 is blocked by o.
    assert_eq!(&out[..3], &[2.0, 3.0, 1.0]);
}

#[test]
fn random_games_follow_the_plain_rules() {
    let c = check_random_games(&TicTacToe::new(), 2000, 71, u32::MAX, reference);
    assert_eq!(c.finished, 2000);
}
