use super::*;
use crate::conformance::check_random_games;

fn play(g: &mut Othello, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = g.parse_move(m).unwrap();
        g.try_play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

/// The plain rules on an 8 × 8 grid: walk each direction square by square.
fn plain_flips(grid: &[Vec<char>], r: i32, c: i32, me: char) -> Vec<(usize, usize)> {
    let them = if me == 'B' { 'W' } else { 'B' };
    let mut out = Vec::new();
    if grid[r as usize][c as usize] != '.' {
        return out;
    }
    for (dr, dc) in [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ] {
        let mut run = Vec::new();
        let (mut rr, mut cc) = (r + dr, c + dc);
        while (0..8).contains(&rr) && (0..8).contains(&cc) && grid[rr as usize][cc as usize] == them
        {
            run.push((rr as usize, cc as usize));
            rr += dr;
            cc += dc;
        }
        if !run.is_empty()
            && (0..8).contains(&rr)
            && (0..8).contains(&cc)
            && grid[rr as usize][cc as usize] == me
        {
            out.extend(run);
        }
    }
    out
}

fn plain_moves(grid: &[Vec<char>], me: char) -> Vec<usize> {
    (0..64)
        .filter(|&s| !plain_flips(grid, (s / 8) as i32, (s % 8) as i32, me).is_empty())
        .collect()
}

fn reference(before: &Othello, mv: Square, after: &Othello) -> Result<(), String> {
    let mut grid: Vec<Vec<char>> = before
        .board_rows()
        .iter()
        .map(|r| r.chars().collect())
        .collect();
    let me = ['B', 'W'][before.to_move().unwrap().index()];
    let them = if me == 'B' { 'W' } else { 'B' };
    let mut expected: Vec<usize> = plain_moves(&grid, me);
    if expected.is_empty() {
        expected.push(64);
    }
    let mut listed = Vec::new();
    before.legal_moves(&mut listed);
    if listed.iter().map(|s| usize::from(s.0)).collect::<Vec<_>>() != expected {
        return Err(format!("moves {listed:?}, reference {expected:?}"));
    }
    if mv != PASS {
        let (r, c) = (usize::from(mv.0) / 8, usize::from(mv.0) % 8);
        for (fr, fc) in plain_flips(&grid, r as i32, c as i32, me) {
            grid[fr][fc] = me;
        }
        grid[r][c] = me;
    }
    let drawn: Vec<Vec<char>> = after
        .board_rows()
        .iter()
        .map(|r| r.chars().collect())
        .collect();
    if grid != drawn {
        return Err("board after differs".into());
    }
    let over = plain_moves(&grid, me).is_empty() && plain_moves(&grid, them).is_empty();
    let count = |ch: char| grid.iter().flatten().filter(|&&x| x == ch).count();
    let expected = over.then(|| match count('B').cmp(&count('W')) {
        std::cmp::Ordering::Greater => Outcome::Win(Player::ZERO),
        std::cmp::Ordering::Less => Outcome::Win(Player::ONE),
        std::cmp::Ordering::Equal => Outcome::Draw,
    });
    if after.outcome() != expected {
        return Err(format!(
            "outcome {:?}, reference {expected:?}",
            after.outcome()
        ));
    }
    Ok(())
}

#[test]
fn the_start_has_four_discs_and_black_has_four_moves() {
    let g = Othello::new();
    assert_eq!(g.board_rows()[3], "...WB...");
    assert_eq!(g.board_rows()[4], "...BW...");
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let named: Vec<(usize, String)> = moves
        .iter()
        .map(|&m| (g.move_index(m), g.move_text(m)))
        .collect();
    assert_eq!(
        named,
        [
            (19, "d3".into()),
            (26, "c4".into()),
            (37, "f5".into()),
            (44, "e6".into())
        ]
    );
    assert_eq!(g.scores(), Some([2.0, 2.0]));
}

#[test]
fn a_disc_flips_every_bracketed_line() {
    let mut g = Othello::new();
    play(&mut g, "d3");
    assert_eq!(g.board_rows()[2..5], ["...B....", "...BB...", "...BW..."]);
    assert_eq!(g.to_move(), Some(Player::ONE));
    // White c3 flips d4, bracketed by e5 on the falling diagonal.
    play(&mut g, "c3");
    assert_eq!(g.board_rows()[2..5], ["..WB....", "...WB...", "...BW..."]);
}

#[test]
fn a_player_without_a_placement_must_pass_and_the_game_goes_on() {
    // Neither side can bracket anything along the top row: the game is over at once.
    let g = Othello::new()
        .set_up(
            "xxxxxxxo
             ........
             ........
             ........
             ........
             ........
             ........
             ........
             to_move black",
        )
        .unwrap();
    // Black a1..g1 and White h1: no run of one colour ends in the other's disc. Black
    // leads 7-1.
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ZERO)));

    let mut g = Othello::new()
        .set_up(
            "oxx.....
             ........
             ........
             ........
             ........
             ........
             ........
             ........
             to_move black",
        )
        .unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves, [PASS]);
    assert_eq!(g.outcome(), None);
    play(&mut g, "pass");
    assert_eq!(g.to_move(), Some(Player::ONE));
    play(&mut g, "d1");
    assert_eq!(g.board_rows()[0], "WWWW....");
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ONE)));
}

#[test]
fn squares_are_named_from_the_top_row_and_pass_is_action_64() {
    let g = Othello::new();
    for (name, action) in [("a1", 0), ("h1", 7), ("a8", 56), ("h8", 63), ("pass", 64)] {
        let mv = g.parse_move(name).unwrap();
        assert_eq!(g.move_index(mv), action);
        assert_eq!(g.move_text(mv), name);
    }
    for bad in ["i1", "a9", "a0", "", "Pass"] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
    assert!(!g.is_legal(PASS));
}

#[test]
fn stable_discs_grow_from_owned_corners_along_full_edges() {
    let g = Othello::new()
        .set_up(
            "xxx.....
             xx......
             x.......
             ...ox...
             ...xo...
             ........
             ........
             ........",
        )
        .unwrap();
    // a1 b1 c1 a2 b2 a3 are stable; the centre is not.
    assert_eq!(g.stable(Player::ZERO).count_ones(), 6);
    assert_eq!(g.stable(Player::ONE), 0);
    let mut out = [0.0; MAX_FEATURES];
    g.features(Player::ZERO, &mut out);
    assert_eq!(out[2], 1.0);
    assert_eq!(out[3], 6.0);
}

#[test]
fn random_games_follow_the_plain_rules() {
    let c = check_random_games(&Othello::new(), 300, 75, u32::MAX, reference);
    assert_eq!(c.finished, 300);
}
