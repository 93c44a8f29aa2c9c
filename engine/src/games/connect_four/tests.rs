use super::*;
use crate::conformance::check_random_games;

/// Plays columns given by letter.
fn play(moves: &str) -> ConnectFour {
    let mut g = ConnectFour::new();
    for m in moves.split_whitespace() {
        let mv = g.parse_move(m).unwrap();
        g.try_play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

/// The plain rules on a grid of characters: drop to the lowest empty cell, then look for four
/// in a line through every cell in every direction.
fn reference(before: &ConnectFour, mv: Column, after: &ConnectFour) -> Result<(), String> {
    let grid = |g: &ConnectFour| -> Vec<Vec<char>> {
        g.board_rows()
            .iter()
            .rev()
            .map(|r| r.chars().collect())
            .collect()
    };
    let mut board = grid(before);
    let me = ['X', 'O'][before.to_move().unwrap().index()];
    let open: Vec<u8> = (0..7u8)
        .filter(|&c| board[5][usize::from(c)] == '.')
        .collect();
    let mut listed = Vec::new();
    before.legal_moves(&mut listed);
    if listed.iter().map(|c| c.0).collect::<Vec<_>>() != open {
        return Err(format!("moves {listed:?}, open columns {open:?}"));
    }
    let col = usize::from(mv.0);
    let row = (0..6).find(|&r| board[r][col] == '.').unwrap();
    board[row][col] = me;
    if board != grid(after) {
        return Err("board after differs".into());
    }
    let at = |c: i32, r: i32| {
        (0..7).contains(&c) && (0..6).contains(&r) && board[r as usize][c as usize] == me
    };
    let won = (0..7).any(|c| {
        (0..6).any(|r| {
            [(1, 0), (0, 1), (1, 1), (1, -1)]
                .iter()
                .any(|&(dc, dr)| (0..4).all(|k| at(c + k * dc, r + k * dr)))
        })
    });
    let full = board.iter().all(|r| !r.contains(&'.'));
    let expected = if won {
        Some(Outcome::Win(before.to_move().unwrap()))
    } else {
        full.then_some(Outcome::Draw)
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
fn discs_fall_to_the_lowest_empty_cell_of_their_column() {
    let g = play("d d c");
    assert_eq!(
        g.board_rows(),
        [
            ".......", ".......", ".......", ".......", "...O...", "..XX..."
        ]
    );
    assert_eq!(g.to_move(), Some(Player::ONE));
}

#[test]
fn columns_carry_openspiels_action_numbers_and_strings() {
    let g = ConnectFour::new();
    for (name, action) in [("a", 0), ("d", 3), ("g", 6)] {
        let mv = g.parse_move(name).unwrap();
        assert_eq!(g.move_index(mv), action);
        assert_eq!(g.action_string(Player::ZERO, mv), format!("x{action}"));
        assert_eq!(g.action_string(Player::ONE, mv), format!("o{action}"));
        assert_eq!(g.parse_move(&format!("o{action}")), Ok(mv));
    }
    for bad in ["h", "x7", "d1", "", "X3"] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_full_column_is_no_move() {
    let mut g = play("a a a a a a");
    let a = g.parse_move("a").unwrap();
    assert!(!g.is_legal(a));
    assert!(g.try_play(a).is_err());
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves.len(), 6);
}

#[test]
fn four_in_a_column_a_row_and_both_diagonals_win() {
    for (moves, winner) in [
        ("a b a b a b a", Player::ZERO),
        ("a a b b c c d", Player::ZERO),
        // x climbs a rising diagonal a1 b2 c3 d4.
        ("a b b c c d c d d g d", Player::ZERO),
        // o on the falling diagonal a4 b3 c2 d1.
        ("d c c b b a b a a g a", Player::ZERO),
        ("g a b a b a b a", Player::ONE),
    ] {
        let g = play(moves);
        assert_eq!(
            g.outcome(),
            Some(Outcome::Win(winner)),
            "{moves}\n{}",
            g.board_rows().join("\n")
        );
    }
}

#[test]
fn three_in_a_line_and_a_gap_do_not_win() {
    let g = play("a g b g d g");
    assert_eq!(g.outcome(), None);
}

#[test]
fn a_full_board_without_four_is_a_draw() {
    // Columns filled in pairs so that no line of four forms: a b, then c d, e f, g last.
    let order =
        "a b a b a b b a b a b a c d c d c d d c d c d c e f e f e f f e f e f e g g g g g g";
    let g = play(order);
    assert_eq!(g.ply(), 42);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw),
        "\n{}",
        g.board_rows().join("\n")
    );
}

#[test]
fn wins_at_once_answers_for_the_mover_only() {
    let g = play("a b a b a b");
    let a = g.parse_move("a").unwrap();
    assert_eq!(g.wins_at_once(Player::ZERO, a), Some(true));
    assert_eq!(
        g.wins_at_once(Player::ZERO, g.parse_move("c").unwrap()),
        Some(false)
    );
    assert_eq!(
        g.wins_at_once(Player::ONE, g.parse_move("b").unwrap()),
        None
    );
}

#[test]
fn set_up_reads_the_drawing_and_refuses_floating_discs() {
    let g = ConnectFour::new()
        .set_up(".......\n.......\n.......\n.......\n...o...\n..xx...")
        .unwrap();
    assert_eq!(g, play("d d c"));
    assert!(
        ConnectFour::new()
            .set_up(".......\n.......\n.......\n...x...\n.......\n..xo...")
            .is_err()
    );
}

#[test]
fn features_count_threats_twos_and_the_centre() {
    let g = play("a g b g c");
    let mut out = [0.0; MAX_FEATURES];
    g.features(Player::ZERO, &mut out);
    // x a1 b1 c1, o g1 g2: d1 completes four; of the windows without o, only b1-e1 holds
    // exactly two x.
    assert_eq!(out[0], 3.0);
    assert_eq!(out[1], 1.0);
    assert_eq!(out[3], 0.0);
    let plain_twos = WINDOWS
        .iter()
        .filter(|&&w| w & g.discs[1] == 0 && (w & g.discs[0]).count_ones() == 2)
        .count();
    assert_eq!(out[2], plain_twos as f64);
    assert_eq!(plain_twos, 1);
}

#[test]
fn random_games_follow_the_plain_rules() {
    let c = check_random_games(&ConnectFour::new(), 1000, 72, u32::MAX, reference);
    assert_eq!(c.finished, 1000);
}
