use super::*;
use crate::SpecErrorKind;
use crate::conformance::check_random_games;
use crate::games::tic_tac_toe::TicTacToe;
use crate::registry::AnyGame;

fn game(m: usize, n: usize, k: usize) -> Mnk {
    Mnk::new(m, n, k).unwrap()
}

/// Plays moves given by name from the start of `start`.
fn play(start: Mnk, moves: &str) -> Mnk {
    let mut g = start;
    for m in moves.split_whitespace() {
        let mv = g.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        g.try_play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

/// The plain rules: the mover's mark goes on an empty cell; `k` or more of the mover's marks
/// in a row, a column or a diagonal anywhere on the board win, else a full board draws.
fn reference(before: &Mnk, mv: Cell, after: &Mnk) -> Result<(), String> {
    let (m, n, k) = (before.m() as i32, before.n() as i32, before.k() as i32);
    let cells = |g: &Mnk| g.board_rows().concat().chars().collect::<Vec<char>>();
    let mut board = cells(before);
    let me = ['X', 'O'][before.to_move().unwrap().index()];
    let empties: Vec<usize> = (0..board.len()).filter(|&i| board[i] == '.').collect();
    let mut listed = Vec::new();
    before.legal_moves(&mut listed);
    if listed.iter().map(|c| c.index()).collect::<Vec<_>>() != empties {
        return Err(format!("moves {listed:?}, empty cells {empties:?}"));
    }
    board[mv.index()] = me;
    if board != cells(after) {
        return Err("board after differs".into());
    }
    let at = |r: i32, c: i32| (0..n).contains(&r) && (0..m).contains(&c);
    let mut won = false;
    for r in 0..n {
        for c in 0..m {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                won |= (0..k).all(|i| {
                    let (rr, cc) = (r + i * dr, c + i * dc);
                    at(rr, cc) && board[(rr * m + cc) as usize] == me
                });
            }
        }
    }
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
fn the_board_has_n_rows_of_m_cells_and_x_moves_first() {
    let g = game(4, 3, 3);
    assert_eq!(g.board_rows(), ["....", "....", "...."]);
    assert_eq!(g.to_move(), Some(Player::ZERO));
    assert_eq!(g.move_index_count(), 12);
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves, (0..12).map(Cell).collect::<Vec<_>>());
    let default = Mnk::default();
    assert_eq!((default.m(), default.n(), default.k()), (15, 15, 5));
    assert_eq!(default.cell_names()[0][0], "a15");
}

#[test]
fn a_position_fits_in_112_bytes_whatever_the_board() {
    // Both players' marks are fixed bitsets: cloning copies a few words, never the heap.
    let size = std::mem::size_of::<Mnk>();
    assert!(size <= 112, "{size} bytes");
}

#[test]
fn cells_carry_openspiels_action_numbers_and_strings() {
    // OpenSpiel's mnk(m=4,n=3,k=3): three rows of four cells, action = 4 × row + column.
    let g = game(4, 3, 3);
    for (name, action, openspiel) in [
        ("a3", 0, "x(0,0)"),
        ("d3", 3, "x(0,3)"),
        ("b2", 5, "x(1,1)"),
        ("a1", 8, "x(2,0)"),
        ("d1", 11, "x(2,3)"),
    ] {
        let mv = g.parse_move(name).unwrap();
        assert_eq!(g.move_index(mv), action, "{name}");
        assert_eq!(g.action_string(Player::ZERO, mv), openspiel);
        assert_eq!(g.parse_move(openspiel), Ok(mv));
        assert_eq!(g.move_text(mv), name);
    }
    assert_eq!(g.action_string(Player::ONE, Cell(6)), "o(1,2)");
    for bad in ["e1", "a4", "x(3,0)", "x(0,4)", "x(0,00)", "b", ""] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn marks_alternate_and_a_taken_cell_is_refused() {
    let mut g = play(game(4, 3, 3), "b2 a1");
    assert_eq!(g.board_rows(), ["....", ".X..", "O..."]);
    assert_eq!(g.to_move(), Some(Player::ZERO));
    let taken = g.parse_move("a1").unwrap();
    assert!(!g.is_legal(taken));
    assert!(g.try_play(taken).is_err());
    assert!(!g.is_legal(Cell(12)), "off the board");
}

#[test]
fn k_in_a_row_a_column_or_either_diagonal_wins() {
    // 5 columns, 4 rows, four in a row.
    for (moves, drawn, winner) in [
        (
            "a1 a2 b1 b2 c1 c2 d1",
            [".....", ".....", "OOO..", "XXXX."],
            Player::ZERO,
        ),
        (
            "a1 e1 b1 e2 a2 e3 b2 e4",
            ["....O", "....O", "XX..O", "XX..O"],
            Player::ONE,
        ),
        (
            "a1 a2 b2 a3 c3 a4 d4",
            ["O..X.", "O.X..", "OX...", "X...."],
            Player::ZERO,
        ),
        (
            "e1 a1 d2 a2 c3 a3 b4",
            [".X...", "O.X..", "O..X.", "O...X"],
            Player::ZERO,
        ),
    ] {
        let g = play(game(5, 4, 4), moves);
        assert_eq!(g.board_rows(), drawn, "{moves}");
        assert_eq!(g.outcome(), Some(Outcome::Win(winner)), "{moves}");
        assert_eq!(g.to_move(), None);
    }
}

#[test]
fn a_line_shorter_than_k_does_not_win() {
    let g = play(game(5, 4, 4), "a1 a2 b1 b2 c1 c2");
    assert_eq!(g.board_rows(), [".....", ".....", "OOO..", "XXX.."]);
    assert_eq!(g.outcome(), None);
}

#[test]
fn an_overline_wins_as_in_openspiel() {
    // OpenSpiel's mnk(m=6,n=2,k=3), actions 0 6 1 7 3 9 4 10 2: x's fifth mark joins
    // XX.XX into five in a row, and OpenSpiel's returns are then [1, -1].
    let before = play(game(6, 2, 3), "a2 a1 b2 b1 d2 d1 e2 e1");
    assert_eq!(before.board_rows(), ["XX.XX.", "OO.OO."]);
    assert_eq!(before.outcome(), None);
    let g = play(before, "c2");
    assert_eq!(g.board_rows(), ["XXXXX.", "OO.OO."]);
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ZERO)));
}

#[test]
fn a_column_as_long_as_the_longer_side_wins_on_a_board_taller_than_wide() {
    let g = play(game(3, 5, 5), "b1 a1 b2 a2 b3 a3 b4 a4");
    assert_eq!(g.outcome(), None);
    let g = play(g, "b5");
    assert_eq!(g.board_rows(), [".X.", "OX.", "OX.", "OX.", "OX."]);
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ZERO)));
}

#[test]
fn a_full_board_without_a_line_is_a_draw() {
    let g = play(game(4, 1, 3), "a1 b1 c1 d1");
    assert_eq!(g.board_rows(), ["XOXO"]);
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    let g = play(game(3, 3, 3), "b2 a1 c1 a3 a2 c2 b1 b3 c3");
    assert_eq!(g.board_rows(), ["OOX", "XXO", "OXX"]);
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn the_last_mark_that_makes_a_line_wins_rather_than_draws() {
    let g = play(game(3, 3, 3), "a1 b1 a2 b2 b3 c2 c1 c3 a3");
    assert_eq!(g.board_rows(), ["XXO", "XOO", "XOX"]);
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ZERO)));
}

#[test]
fn with_k_of_one_the_first_mark_wins() {
    let g = play(game(1, 1, 1), "a1");
    assert_eq!(g.board_rows(), ["X"]);
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ZERO)));
    let g = play(game(19, 19, 1), "j10");
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ZERO)));
}

#[test]
fn k_longer_than_both_sides_is_refused_naming_the_limit() {
    let err = AnyGame::parse("mnk:m=3,n=3,k=4").unwrap_err();
    assert_eq!(err.kind, SpecErrorKind::BadValue);
    assert!(
        err.reason
            .contains("k must be from 1 to 3, the longer side of 3 × 3, not 4"),
        "{}",
        err.reason
    );
    assert!(AnyGame::parse("mnk:m=5,n=3,k=5").is_ok());
    assert!(AnyGame::parse("mnk:m=3,n=5,k=5").is_ok());
    assert_eq!(
        AnyGame::parse("mnk:m=20").unwrap_err().kind,
        SpecErrorKind::BadValue
    );
    assert_eq!(Mnk::new(0, 3, 1).unwrap_err().kind, SpecErrorKind::BadValue);
    assert_eq!(Mnk::new(3, 3, 0).unwrap_err().kind, SpecErrorKind::BadValue);
}

#[test]
fn the_spec_names_only_the_options_that_differ_from_openspiels_defaults() {
    let spec = |text: &str| AnyGame::parse(text).unwrap().spec();
    assert_eq!(Mnk::default().spec(), "mnk");
    assert_eq!(spec("mnk:m=15,n=15,k=5"), "mnk");
    assert_eq!(spec("mnk:k=3,n=3,m=3"), "mnk:m=3,n=3,k=3");
    assert_eq!(spec("mnk:k=4"), "mnk:k=4");
    assert_eq!(game(9, 15, 5).spec(), "mnk:m=9");
}

#[test]
fn the_board_has_no_one_size_for_gtp() {
    let g = AnyGame::parse("mnk:m=9,n=9").unwrap();
    assert_eq!(g.board_size(), None);
    assert_eq!(
        g.with_board_size(9).unwrap_err().kind,
        SpecErrorKind::FixedBoard
    );
}

#[test]
fn wins_at_once_names_the_cell_that_completes_a_line_for_either_player() {
    let g = play(game(5, 4, 4), "a1 a2 b1 b2 c1 c2");
    let d1 = g.parse_move("d1").unwrap();
    let d2 = g.parse_move("d2").unwrap();
    assert_eq!(g.wins_at_once(Player::ZERO, d1), Some(true));
    assert_eq!(g.wins_at_once(Player::ONE, d2), Some(true));
    assert_eq!(g.wins_at_once(Player::ZERO, d2), Some(false));
    let a1 = g.parse_move("a1").unwrap();
    assert_eq!(g.wins_at_once(Player::ZERO, a1), Some(false), "taken");
}

#[test]
fn set_up_reads_the_drawing_and_derives_the_mover_and_the_end() {
    let g = game(4, 3, 3).set_up("x...\n.o..\n...x").unwrap();
    assert_eq!(g.to_move(), Some(Player::ONE));
    assert_eq!(g.hash(), g.hash_from_scratch());
    assert_eq!(g, play(game(4, 3, 3), "a3 b2 d1"));
    assert!(game(4, 3, 3).set_up("xx..\n....\n....").is_err());
    assert!(game(4, 3, 3).set_up("x...\n....").is_err());
    let won = game(4, 3, 3).set_up("XXX.\nOO..\n....").unwrap();
    assert_eq!(won.outcome(), Some(Outcome::Win(Player::ZERO)));
    let full = game(4, 1, 3).set_up("XOXO").unwrap();
    assert_eq!(full.outcome(), Some(Outcome::Draw));
}

#[test]
fn features_count_marks_open_lines_and_threats() {
    // 4 × 3, three in a row: 6 row lines, 4 column lines, 4 diagonal lines.
    let g = game(4, 3, 3).set_up("....\nXX..\n...O").unwrap();
    let mut out = [0.0; MAX_FEATURES];
    g.features(Player::ZERO, &mut out);
    // x on a2 and b2: rows a2-c2 and b2-d2, columns a and b, diagonals a3-c1 and c3-a1
    // (through b2): 6 open lines, a2-c2 a threat (two of three, and c2 empty).
    assert_eq!(&out[..3], &[2.0, 6.0, 1.0]);
    g.features(Player::ONE, &mut out);
    // o on d1: row b1-d1, column d, diagonal b3-d1.
    assert_eq!(&out[..3], &[1.0, 3.0, 0.0]);
    // With k = 1 each cell is a line of its own in all four directions: counted once.
    let g = play(game(2, 1, 1), "a1");
    g.features(Player::ZERO, &mut out);
    assert_eq!(&out[..3], &[1.0, 1.0, 0.0]);
}

#[test]
fn three_by_three_with_three_in_a_row_plays_exactly_as_tic_tac_toe() {
    let start = game(3, 3, 3);
    let mut rng = crate::seeded_rng(99, 0);
    let (mut ours, mut scratch) = (Vec::new(), Vec::new());
    let mut decided = 0;
    for _ in 0..300 {
        let (mut g, mut t) = (start, TicTacToe::new());
        loop {
            assert_eq!(g.board_rows(), t.board_rows());
            assert_eq!(g.outcome(), t.outcome());
            assert_eq!(g.to_move(), t.to_move());
            let mut theirs = Vec::new();
            g.legal_moves(&mut ours);
            t.legal_moves(&mut theirs);
            let ours_named: Vec<String> = ours.iter().map(|&mv| g.move_text(mv)).collect();
            let theirs_named: Vec<String> = theirs.iter().map(|&mv| t.move_text(mv)).collect();
            assert_eq!(ours_named, theirs_named);
            let Some(mover) = g.to_move() else { break };
            for p in [Player::ZERO, Player::ONE] {
                let (mut a, mut b) = ([0.0; MAX_FEATURES], [0.0; MAX_FEATURES]);
                g.features(p, &mut a);
                t.features(p, &mut b);
                assert_eq!(a, b);
            }
            let mv = g.random_move(&mut rng, &mut scratch).unwrap();
            let theirs = t.parse_move(&g.move_text(mv)).unwrap();
            assert_eq!(t.move_index(theirs), g.move_index(mv));
            assert_eq!(t.action_string(mover, theirs), g.action_string(mover, mv));
            g.play(mv);
            t.play(theirs);
        }
        decided += usize::from(g.outcome() != Some(Outcome::Draw));
    }
    assert!(decided > 100, "{decided} of 300 decided");
}

#[test]
fn random_games_follow_the_plain_rules() {
    for (m, n, k, games) in [
        (3, 3, 3, 1000),
        (4, 3, 3, 600),
        (5, 4, 4, 400),
        (3, 5, 5, 300),
        (6, 2, 3, 300),
        (1, 1, 1, 5),
        (7, 1, 2, 100),
        (19, 19, 5, 10),
        (15, 15, 5, 30),
    ] {
        let c = check_random_games(&game(m, n, k), games, 72, u32::MAX, reference);
        assert_eq!(c.finished, games, "{m},{n},{k}");
    }
}
