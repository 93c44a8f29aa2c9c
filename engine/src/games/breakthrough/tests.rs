use super::*;
use crate::conformance::check_random_games;

fn play(g: &mut Breakthrough, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = g.parse_move(m).unwrap();
        g.try_play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

/// The plain rules on a grid of characters: every forward step of the mover's pieces, as
/// action strings, and the board and result after the step played.
fn reference(before: &Breakthrough, mv: Step, after: &Breakthrough) -> Result<(), String> {
    let grid: Vec<Vec<char>> = before
        .board_rows()
        .iter()
        .map(|r| r.chars().collect())
        .collect();
    let (rows, cols) = (grid.len() as i32, grid[0].len() as i32);
    let mover = before.to_move().unwrap();
    let (me, them, dr) = if mover == Player::ZERO {
        ('B', 'W', 1)
    } else {
        ('W', 'B', -1)
    };
    let name = |r: i32, c: i32| format!("{}{}", (b'a' + c as u8) as char, rows - r);
    let mut expected = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if grid[r as usize][c as usize] != me {
                continue;
            }
            for dc in [-1, 0, 1] {
                let (tr, tc) = (r + dr, c + dc);
                if !(0..rows).contains(&tr) || !(0..cols).contains(&tc) {
                    continue;
                }
                let there = grid[tr as usize][tc as usize];
                if there == '.' {
                    expected.push(format!("{}{}", name(r, c), name(tr, tc)));
                } else if there == them && dc != 0 {
                    expected.push(format!("{}{}*", name(r, c), name(tr, tc)));
                }
            }
        }
    }
    let mut listed = Vec::new();
    before.legal_moves(&mut listed);
    let listed: Vec<String> = listed.iter().map(|&m| before.move_text(m)).collect();
    if listed != expected {
        return Err(format!("moves {listed:?}, reference {expected:?}"));
    }
    let text = before.move_text(mv);
    let from = (
        rows - i32::from(text.as_bytes()[1] - b'0'),
        i32::from(text.as_bytes()[0] - b'a'),
    );
    let to = (
        rows - i32::from(text.as_bytes()[3] - b'0'),
        i32::from(text.as_bytes()[2] - b'a'),
    );
    let mut next = grid.clone();
    next[from.0 as usize][from.1 as usize] = '.';
    next[to.0 as usize][to.1 as usize] = me;
    let drawn: Vec<Vec<char>> = after
        .board_rows()
        .iter()
        .map(|r| r.chars().collect())
        .collect();
    if next != drawn {
        return Err("board after differs".into());
    }
    let goal = if mover == Player::ZERO { rows - 1 } else { 0 };
    let none_left = !next.iter().flatten().any(|&c| c == them);
    let expected = (to.0 == goal || none_left).then_some(Outcome::Win(mover));
    if after.outcome() != expected {
        return Err(format!(
            "outcome {:?}, reference {expected:?}",
            after.outcome()
        ));
    }
    Ok(())
}

#[test]
fn the_start_fills_two_rows_a_side_and_one_below_six_rows() {
    let g = Breakthrough::default();
    assert_eq!(g.board_rows()[..3], ["BBBBBBBB", "BBBBBBBB", "........"]);
    assert_eq!(g.board_rows()[6..], ["WWWWWWWW", "WWWWWWWW"]);
    let small = Breakthrough::new(4, 3).unwrap();
    assert_eq!(small.board_rows(), ["BBB", "...", "...", "WWW"]);
    assert_eq!(small.spec(), "breakthrough:rows=4,columns=3");
    assert_eq!(g.to_move(), Some(Player::ZERO));
}

#[test]
fn steps_carry_openspiels_action_numbers_and_strings() {
    let g = Breakthrough::default();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves.len(), 22);
    let first: Vec<(usize, String)> = moves[..3]
        .iter()
        .map(|&m| (g.move_index(m), g.move_text(m)))
        .collect();
    assert_eq!(
        first,
        [
            (98, "a7a6".into()),
            (100, "a7b6".into()),
            (108, "b7a6".into())
        ]
    );
    // White's b7a8 capture, as OpenSpiel numbers it: square 9, direction 3, capture.
    let capture = g.parse_move("b7a8*").unwrap();
    assert_eq!(g.move_index(capture), 115);
    assert_eq!(g.move_text(capture), "b7a8*");
    for bad in ["a7a5", "a7c6", "a9a8", "i7h6", "a7a7", "a7b6**"] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn pieces_capture_diagonally_but_never_straight_ahead() {
    let g = Breakthrough::new(4, 3)
        .unwrap()
        .set_up("...\n.b.\n.w.\n...")
        .unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|&m| g.move_text(m)).collect();
    assert_eq!(texts, ["b3a2", "b3c2"]);
    let g = g.set_up("...\n.b.\nw.w\n...").unwrap();
    g.legal_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|&m| g.move_text(m)).collect();
    assert_eq!(texts, ["b3a2*", "b3b2", "b3c2*"]);
    let mut after = g;
    play(&mut after, "b3a2*");
    assert_eq!(after.board_rows(), ["...", "...", "B.W", "..."]);
}

#[test]
fn reaching_the_far_row_or_taking_the_last_piece_wins() {
    let mut g = Breakthrough::new(4, 3)
        .unwrap()
        .set_up("...\n...\nb..\n..w")
        .unwrap();
    assert_eq!(
        g.wins_at_once(Player::ZERO, g.parse_move("a2a1").unwrap()),
        Some(true)
    );
    play(&mut g, "a2a1");
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ZERO)));

    let mut g = Breakthrough::new(4, 3)
        .unwrap()
        .set_up("b..\n...\n.w.\n..b\nto_move white")
        .unwrap();
    // Black's c1 already stands on Black's goal row: the position is over.
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ZERO)));
    g = Breakthrough::new(4, 3)
        .unwrap()
        .set_up("...\nb..\n.w.\n...")
        .unwrap();
    let take = g.parse_move("a3b2*").unwrap();
    assert_eq!(g.wins_at_once(Player::ZERO, take), Some(true));
    play(&mut g, "a3b2*");
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ZERO)));
}

#[test]
fn features_count_pieces_advancement_and_safety() {
    let g = Breakthrough::new(4, 3)
        .unwrap()
        .set_up("...\nb..\n.w.\n...\nto_move white")
        .unwrap();
    let mut out = [0.0; MAX_FEATURES];
    g.features(Player::ZERO, &mut out);
    // Black's a3 is one row ahead of its back row and attacked by White's b2.
    assert_eq!(&out[..4], &[1.0, 1.0, 1.0, 0.0]);
    g.features(Player::ONE, &mut out);
    // White's b2 is one row ahead of its back row (row 1) and attacked by Black's a3.
    assert_eq!(&out[..4], &[1.0, 1.0, 1.0, 0.0]);
}

#[test]
fn sides_outside_2_to_8_are_refused() {
    assert!(Breakthrough::new(1, 8).is_err());
    assert!(Breakthrough::new(8, 9).is_err());
    assert!(Breakthrough::new(2, 2).is_ok());
}

#[test]
fn random_games_follow_the_plain_rules() {
    for (rows, cols, games) in [
        (8, 8, 200),
        (6, 5, 200),
        (4, 3, 300),
        (2, 2, 50),
        (5, 8, 100),
    ] {
        let c = check_random_games(
            &Breakthrough::new(rows, cols).unwrap(),
            games,
            74,
            u32::MAX,
            reference,
        );
        assert_eq!(c.finished, games);
    }
}
