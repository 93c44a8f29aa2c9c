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

/// The plain rules on a grid of characters, for any board: drop to the lowest empty cell, then
/// look for a line of `x_in_row` through every cell in every direction.
fn reference(before: &ConnectFour, mv: Column, after: &ConnectFour) -> Result<(), String> {
    let shape = before.shape();
    let (rows, columns, k) = (
        shape.rows() as i32,
        shape.columns() as i32,
        shape.x_in_row() as i32,
    );
    let grid = |g: &ConnectFour| -> Vec<Vec<char>> {
        g.board_rows()
            .iter()
            .rev()
            .map(|r| r.chars().collect())
            .collect()
    };
    let mut board = grid(before);
    let me = ['X', 'O'][before.to_move().unwrap().index()];
    let open: Vec<u8> = (0..columns as u8)
        .filter(|&c| board[rows as usize - 1][usize::from(c)] == '.')
        .collect();
    let mut listed = Vec::new();
    before.legal_moves(&mut listed);
    if listed.iter().map(|c| c.0).collect::<Vec<_>>() != open {
        return Err(format!("moves {listed:?}, open columns {open:?}"));
    }
    let col = usize::from(mv.0);
    let row = (0..rows as usize).find(|&r| board[r][col] == '.').unwrap();
    board[row][col] = me;
    if board != grid(after) {
        return Err("board after differs".into());
    }
    let at = |c: i32, r: i32| {
        (0..columns).contains(&c) && (0..rows).contains(&r) && board[r as usize][c as usize] == me
    };
    let won = (0..columns).any(|c| {
        (0..rows).any(|r| {
            [(1, 0), (0, 1), (1, 1), (1, -1)]
                .iter()
                .any(|&(dc, dr)| (0..k).all(|i| at(c + i * dc, r + i * dr)))
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
    assert_eq!(g.why_illegal(a), "column a is full");
    assert_eq!(g.why_illegal(Column(7)), "there is no column 7");
    assert!(!ConnectFour::new().is_legal(Column(7)));
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
    // A drawing of the wrong size, in rows or in columns, or with discs that alternate
    // from no start (two x and no o), is refused.
    for drawing in [
        ".......\n.......\n.......\n.......\n..xx...",
        "......\n......\n......\n......\n......\n..xx..",
        ".......\n.......\n.......\n.......\n.......\n..xx...",
    ] {
        assert!(ConnectFour::new().set_up(drawing).is_err(), "{drawing}");
    }
}

#[test]
fn openspiels_action_strings_name_only_columns_in_plain_digits() {
    let g = board(6, 11, 4);
    assert_eq!(g.parse_move("x10"), g.parse_move("k"));
    assert_eq!(g.parse_move("o0"), g.parse_move("a"));
    // No leading zero, no other character after the colour, no column past the board
    // (':' follows '9', so a digit test by range alone would read "x:" as column 10).
    for bad in ["x01", "x:", "x0:", "xa", "x", "x11", "x100"] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
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
    let plain_twos = plain_windows(g.shape())
        .iter()
        .filter(|&&w| {
            w & g.discs(Player::ONE) == 0 && (w & g.discs(Player::ZERO)).count_ones() == 2
        })
        .count();
    assert_eq!(out[2], plain_twos as f64);
    assert_eq!(plain_twos, 1);
}

#[test]
fn random_games_follow_the_plain_rules() {
    let c = check_random_games(&ConnectFour::new(), 1000, 72, u32::MAX, reference);
    assert_eq!(c.finished, 1000);
}

/// Every window of `x_in_row` cells in a line, found cell by cell and direction by direction.
fn plain_windows(shape: Shape) -> Vec<u128> {
    let (rows, columns, k) = (
        shape.rows() as i32,
        shape.columns() as i32,
        shape.x_in_row() as i32,
    );
    let mut out = Vec::new();
    for (dc, dr) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        for c in 0..columns {
            for r in 0..rows {
                let cells: Vec<(i32, i32)> = (0..k).map(|i| (c + i * dc, r + i * dr)).collect();
                if cells
                    .iter()
                    .all(|&(c, r)| (0..columns).contains(&c) && (0..rows).contains(&r))
                {
                    out.push(
                        cells
                            .iter()
                            .fold(0, |w, &(c, r)| w | shape.bit(c as usize, r as usize)),
                    );
                }
            }
        }
    }
    out
}

/// A board of the given dimensions.
fn board(rows: usize, columns: usize, x_in_row: usize) -> ConnectFour {
    ConnectFour::with_shape(Shape::new(rows, columns, x_in_row).unwrap())
}

#[test]
fn the_default_board_has_69_windows_of_four() {
    assert_eq!(plain_windows(Shape::DEFAULT).len(), 69);
}

#[test]
fn random_games_on_other_boards_follow_the_plain_rules() {
    for (rows, columns, k) in [
        (4, 5, 4),
        (5, 4, 3),
        (4, 4, 4),
        (6, 9, 4),
        (9, 12, 5),
        (12, 4, 4),
        (3, 3, 5),
        (12, 9, 12),
        (1, 12, 2),
        (2, 2, 1),
    ] {
        let c = check_random_games(&board(rows, columns, k), 300, 73, u32::MAX, reference);
        assert_eq!(c.finished, 300, "{rows}x{columns} k={k}");
    }
}

#[test]
fn features_on_other_boards_count_what_the_plain_windows_count() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(74);
    for (rows, columns, k) in [(4, 5, 4), (5, 4, 3), (6, 8, 5), (9, 12, 4)] {
        let mut g = board(rows, columns, k);
        let mut moves = Vec::new();
        while g.outcome().is_none() {
            for player in [Player::ZERO, Player::ONE] {
                let (mine, theirs) = (g.discs(player), g.discs(player.other()));
                let windows: Vec<u128> = plain_windows(g.shape())
                    .into_iter()
                    .filter(|w| w & theirs == 0)
                    .collect();
                let threats = windows
                    .iter()
                    .filter(|&&w| (w & mine).count_ones() as usize + 1 == k)
                    .fold(0, |t, &w| t | (w & !mine));
                let twos = windows
                    .iter()
                    .filter(|&&w| k > 3 && (w & mine).count_ones() == 2)
                    .count();
                let mut out = [0.0; MAX_FEATURES];
                g.features(player, &mut out);
                assert_eq!(out[1], f64::from(threats.count_ones()), "{}", g.spec());
                assert_eq!(out[2], twos as f64, "{}", g.spec());
            }
            g.legal_moves(&mut moves);
            g.play(moves[rng.random_range(0..moves.len())]);
        }
    }
}

#[test]
fn three_in_a_row_wins_when_x_in_row_is_three() {
    let mut g = board(4, 5, 3);
    for m in ["a", "a", "b", "b", "c"] {
        g.play(g.parse_move(m).unwrap());
    }
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ZERO)));
    assert_eq!(g.board_rows(), [".....", ".....", "OO...", "XXX.."]);
}

#[test]
fn a_board_of_other_size_fills_to_a_draw_at_its_own_cell_count() {
    // Four columns of four: pairs of columns filled x o x o / o x o x leave no line of four.
    let mut g = board(4, 4, 4);
    for m in "a b a b b a b a c d c d d c d c".split_whitespace() {
        g.play(g.parse_move(m).unwrap());
    }
    assert_eq!(g.ply(), 16);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw),
        "\n{}",
        g.board_rows().join("\n")
    );
}

#[test]
fn sizes_round_trip_through_the_spec_and_the_default_is_written_bare() {
    use crate::registry::AnyGame;
    assert_eq!(ConnectFour::new().spec(), "connect_four");
    assert_eq!(board(6, 7, 4), ConnectFour::new());
    for spec in [
        "connect_four:rows=4",
        "connect_four:columns=11,rows=5",
        "connect_four:rows=5,columns=8,x_in_row=5",
    ] {
        let game: AnyGame = spec.parse().unwrap();
        let again: AnyGame = game.to_string().parse().unwrap();
        assert_eq!(game.to_string(), again.to_string(), "{spec}");
    }
    let g: AnyGame = "connect_four:columns=11,rows=5".parse().unwrap();
    assert_eq!(g.to_string(), "connect_four:rows=5,columns=11");
}

#[test]
fn a_board_past_128_bits_or_a_side_past_12_is_refused() {
    assert!(Shape::new(11, 11, 4).is_err()); // 11 x 12 = 132 bits
    assert!(Shape::new(10, 11, 4).is_ok()); // 11 x 11 = 121
    assert!(Shape::new(13, 4, 4).is_err());
    assert!(Shape::new(6, 7, 0).is_err());
    let err = "connect_four:rows=11,columns=11"
        .parse::<crate::registry::AnyGame>()
        .unwrap_err();
    assert!(err.to_string().contains("128"), "{err}");
}

#[test]
fn columns_past_the_tenth_are_named_by_letter_and_two_digit_action_strings() {
    let g = board(5, 12, 4);
    let l = g.parse_move("l").unwrap();
    assert_eq!(l, Column(11));
    assert_eq!(g.action_string(Player::ONE, l), "o11");
    assert_eq!(g.parse_move("x11"), Ok(l));
    for bad in ["m", "x12", "x011", "x"] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
    assert_eq!(g.move_index_count(), 12);
}

#[test]
fn the_default_board_hashes_with_the_keys_it_always_had() {
    // The old key of x on d1 (column 3, row 0: cell 18) and of o on d2 (cell 19).
    let g = play("d d");
    assert_eq!(
        g.hash(),
        KEYS.phase(0) ^ KEYS.piece(0, 18) ^ KEYS.piece(1, 19)
    );
}

#[test]
fn a_large_board_hashes_with_the_keys_it_always_had() {
    // 10 rows × 11 columns: the discs of both colours on cells past the 42nd take their keys
    // from the second table, whose values a committed run's transposition tables saw.
    let mut g = board(10, 11, 4);
    for m in ["k", "k", "j", "k", "a", "k"] {
        let mv = g.parse_move(m).unwrap();
        g.try_play(mv).unwrap();
    }
    assert_eq!(g.hash(), g.hash_from_scratch());
    assert_eq!(g.hash(), 0x7e49_3a5e_4873_e760);
}

#[test]
fn a_columns_height_counts_its_discs() {
    let g = play("d d d a");
    assert_eq!((g.height(3), g.height(0), g.height(6)), (3, 1, 0));
}

#[test]
fn the_game_keeps_no_score_before_or_after_its_end() {
    for moves in ["", "d d", "a b a b a b a"] {
        let g = play(moves);
        assert_eq!(g.scores(), None, "{moves:?}");
    }
    assert!(play("a b a b a b a").outcome().is_some());
}

#[test]
fn the_grid_planes_hold_the_movers_discs_first_on_a_square_grid_of_the_longer_side() {
    // 4 rows × 5 columns on a 5 × 5 grid: its top row is off the board.
    let mut g = board(4, 5, 4);
    for m in ["a", "b", "a"] {
        let mv = g.parse_move(m).unwrap();
        g.play(mv);
    }
    assert_eq!(g.grid_side(), Some(5));
    let mut planes = vec![9.0; crate::GRID_PLANES * 25];
    g.grid_planes(&mut planes);
    let plane =
        |p: usize| -> Vec<usize> { (0..25).filter(|&c| planes[p * 25 + c] == 1.0).collect() };
    // `o` to move: its disc at b1 (cell 1); `x`'s at a1 and a2 (cells 0 and 5).
    assert_eq!(plane(0), vec![1]);
    assert_eq!(plane(1), vec![0, 5]);
    assert_eq!(plane(2).len(), 20 - 3);
    assert_eq!(plane(3), (0..20).collect::<Vec<_>>());
    assert!(plane(4).is_empty());
    assert_eq!(plane(6), vec![0, 4, 15, 19]);
    assert_eq!(plane(5), vec![1, 2, 3, 5, 9, 10, 14, 16, 17, 18]);
    assert!(planes.iter().all(|&v| v == 0.0 || v == 1.0));
    // A move's cell is where its disc lands; a full column's has none.
    assert_eq!(g.grid_cell(Column(0)), Some(10));
    assert_eq!(g.grid_cell(Column(4)), Some(4));
    for m in ["a", "c", "a"] {
        let mv = g.parse_move(m).unwrap();
        g.play(mv);
    }
    assert_eq!(g.grid_cell(Column(0)), None);
    assert_eq!(g.grid_cell(Column(5)), None);
}

#[test]
fn the_mirror_image_of_a_position_is_the_position_its_mirrored_moves_reach() {
    for (rows, columns) in [(6, 7), (4, 5), (7, 4)] {
        let checked = crate::conformance::check_grid_symmetries(&board(rows, columns, 4), 11, 6);
        assert!(checked > 6 * 7, "{rows}x{columns}: {checked}");
    }
    assert_eq!(board(6, 7, 4).grid_symmetries().len(), 1);
}

#[test]
#[should_panic(expected = "no image of")]
fn a_flip_upside_down_is_no_symmetry_of_connect_four() {
    // The check itself: a map that is not a symmetry is caught (the discs would float).
    let flip: Vec<usize> = (0..16).map(|c| c % 4 + 4 * (3 - c / 4)).collect();
    crate::conformance::check_grid_symmetries_with(&board(4, 4, 4), &[flip], 3, 1);
}
