use std::collections::VecDeque;

use super::*;
use crate::conformance::check_random_games;
use crate::{random_playout, seeded_rng};

fn position(size: usize, text: &str) -> Rin {
    Rin::new(size).unwrap().set_up(text).unwrap()
}

fn play(rin: &mut Rin, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = rin.parse_move(m).unwrap();
        rin.try_play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn board(rin: &Rin) -> String {
    rin.board_rows().join("\n")
}

fn drawn(text: &str) -> String {
    text.lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn turn_order_is_black_then_pairs_from_white() {
    let mut rin = Rin::new(8).unwrap();
    let mut order = String::new();
    let mut scratch = Vec::new();
    let mut rng = seeded_rng(3, 0);
    for _ in 0..11 {
        order.push(if rin.to_move() == Some(Player::ZERO) {
            'B'
        } else {
            'W'
        });
        let mv = rin.random_move(&mut rng, &mut scratch).unwrap();
        rin.play(mv);
    }
    assert_eq!(order, "BWWBBWWBBWW");
}

#[test]
fn ring_around_one_point_fills_it() {
    let mut rin = position(
        8,
        "........
         ........
         ........
         ...B....
         ..B.B...
         ........
         ........
         ........
         ply 4",
    );
    play(&mut rin, "d3");
    assert_eq!(
        board(&rin),
        drawn(
            "........
             ........
             ........
             ...B....
             ..BBB...
             ...B....
             ........
             ........"
        )
    );
    assert_eq!(rin.scores(), Some([5.0, 0.0]));
}

#[test]
fn worked_example_of_the_rules_document() {
    // Also a ring that takes enemy stones and empty points together.
    let mut rin = position(
        8,
        "........
         ........
         ........
         .BBB....
         .B..B...
         .BW.B...
         ...B....
         ........
         ply 4",
    );
    play(&mut rin, "c2");
    assert_eq!(
        board(&rin),
        drawn(
            "........
             ........
             ........
             .BBB....
             .BBBB...
             .BBBB...
             ..BB....
             ........"
        )
    );
    assert_eq!(rin.scores(), Some([13.0, 0.0]));
}

#[test]
fn a_stone_beside_the_gap_does_not_close_the_worked_example() {
    let mut rin = position(
        8,
        "........
         ........
         ........
         .BBB....
         .B..B...
         .BW.B...
         ...B....
         ........
         ply 4",
    );
    let before = rin.stones(Player::ONE);
    play(&mut rin, "b2");
    assert_eq!(
        rin.stones(Player::ONE),
        before,
        "the white stone on c3 must survive"
    );
    assert_eq!(rin.scores(), Some([9.0, 1.0]));
}

#[test]
fn edge_stone_is_never_captured() {
    // White a4 sits in the safe zone; Black surrounds it on every side the board has.
    let mut rin = position(
        8,
        "........
         ........
         ........
         B.......
         W.......
         ........
         ........
         ........
         ply 3",
    );
    play(&mut rin, "b4 a3");
    assert!(rin.stones(Player::ONE).has(Point::new(0, 3).0 as usize));
    assert_eq!(rin.scores(), Some([3.0, 1.0]));
}

#[test]
fn corner_walled_off_by_the_mover_is_not_filled() {
    let mut rin = position(
        8,
        "........
         ........
         ........
         ........
         ........
         BBB.....
         ..B.....
         ........
         ply 4",
    );
    play(&mut rin, "c1");
    assert_eq!(rin.scores(), Some([5.0, 0.0]));
    for corner in ["a1", "a2", "b1", "b2"] {
        let p = rin.parse_move(corner).unwrap();
        assert!(rin.is_legal(p), "{corner} must still be empty");
    }
}

#[test]
fn ring_closed_by_the_second_stone_of_a_double_turn() {
    // Ply 1: White plays twice in a row; the second stone closes the ring.
    let mut rin = position(
        8,
        "........
         ........
         ........
         ...W....
         ..WB....
         ...W....
         ........
         ........
         ply 1",
    );
    assert_eq!(rin.to_move(), Some(Player::ONE));
    play(&mut rin, "f4");
    assert_eq!(
        rin.to_move(),
        Some(Player::ONE),
        "White's second stone of the pair"
    );
    assert_eq!(rin.scores(), Some([1.0, 4.0]));
    play(&mut rin, "e5");
    assert_eq!(
        rin.scores(),
        Some([1.0, 5.0]),
        "e4 is still open through e3"
    );
    rin = position(
        8,
        "........
         ........
         ........
         ...WW...
         ..WB.W..
         ...W....
         ........
         ........
         ply 2",
    );
    play(&mut rin, "e3");
    assert_eq!(
        board(&rin),
        drawn(
            "........
             ........
             ........
             ...WW...
             ..WWWW..
             ...WW...
             ........
             ........"
        )
    );
    assert_eq!(rin.to_move(), Some(Player::ZERO));
}

#[test]
fn one_stone_closes_two_rings_at_once() {
    let mut rin = position(
        8,
        "........
         ........
         ........
         ..B.B...
         .B...B..
         ..B.B...
         ........
         ........
         ply 3",
    );
    play(&mut rin, "d4");
    assert_eq!(
        board(&rin),
        drawn(
            "........
             ........
             ........
             ..B.B...
             .BBBBB..
             ..B.B...
             ........
             ........"
        )
    );
}

#[test]
fn safe_zone_stone_can_close_a_ring() {
    // Black's stone on the edge at a3 closes a ring around b3 together with b4, c3 and b2.
    let mut rin = position(
        8,
        "........
         ........
         ........
         ........
         .B......
         ..B.....
         .B......
         ........
         ply 4",
    );
    play(&mut rin, "a3");
    assert!(rin.stones(Player::ZERO).has(Point::new(1, 2).0 as usize));
    assert_eq!(rin.scores(), Some([5.0, 0.0]));
}

#[test]
fn game_ends_when_the_board_is_full_and_more_stones_win() {
    let mut rin = position(
        6,
        "WWWBBB
         WWWBBB
         WWWBBB
         WWWBBB
         WWBBBB
         WW.BBB
         ply 3",
    );
    assert_eq!(rin.outcome(), None);
    play(&mut rin, "c1");
    assert_eq!(rin.outcome(), Some(Outcome::Win(Player::ZERO)));
    assert_eq!(rin.scores(), Some([20.0, 16.0]));
    assert_eq!(rin.to_move(), None);
    let mut moves = vec![Point(0)];
    rin.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(
        rin.try_play(Point::new(0, 0)),
        Err(crate::IllegalMove::GameOver)
    );
}

#[test]
fn equal_stone_counts_on_a_full_board_are_a_draw() {
    let mut rin = position(
        6,
        "WWWBBB
         WWWBBB
         WWWBBB
         WWWBBB
         WWWBBB
         WWWBB.
         ply 35",
    );
    play(&mut rin, "f1");
    assert_eq!(rin.scores(), Some([18.0, 18.0]));
    assert_eq!(rin.outcome(), Some(Outcome::Draw));
}

#[test]
fn occupied_point_is_refused_with_a_reason_and_the_state_kept() {
    let mut rin = Rin::new(8).unwrap();
    play(&mut rin, "d4");
    let before = rin;
    let err = rin.try_play(rin.parse_move("d4").unwrap()).unwrap_err();
    assert_eq!(err.to_string(), "point d4 is occupied");
    assert_eq!(rin, before);
    assert!(
        rin.parse_move("i1").is_err(),
        "column i is off an 8x8 board"
    );
}

#[test]
fn set_up_refuses_a_region_that_should_already_be_filled() {
    let err = Rin::new(6)
        .unwrap()
        .set_up(
            "......
             ..B...
             .B.B..
             ..B...
             ......
             ......",
        )
        .unwrap_err();
    assert!(err.reason.contains("c4"), "{err}");
}

#[test]
fn hash_depends_on_the_turn_phase() {
    let a = position(
        8,
        "........\n........\n........\n...B....\n........\n........\n........\n........\nply 3",
    );
    let b = position(
        8,
        "........\n........\n........\n...B....\n........\n........\n........\n........\nply 4",
    );
    assert_ne!(a.hash(), b.hash());
    let c = position(
        8,
        "........\n........\n........\n...B....\n........\n........\n........\n........\nply 8",
    );
    assert_eq!(b.hash(), c.hash(), "plies 4 and 8 have the same future");
}

#[test]
fn split_table_matches_hand_worked_neighbourhoods() {
    // Bits: 0 SW, 1 S, 2 SE, 3 W, 4 centre, 5 E, 6 NW, 7 N, 8 NE.
    let bits = |cells: &[usize]| cells.iter().map(|b| 1 << b).sum::<usize>();
    assert!(
        !SPLITS[bits(&[1, 7, 0, 3, 6])],
        "S and N joined round the west side"
    );
    assert!(SPLITS[bits(&[1, 7])], "S and N with nothing between them");
    assert!(!SPLITS[bits(&[7])], "a single neighbour cannot split");
    assert!(!SPLITS[bits(&[0, 1, 2, 3, 5, 6, 7, 8])], "all eight cells");
    assert!(
        SPLITS[bits(&[5, 7])],
        "E and N with a stone on NE between them"
    );
    assert!(
        !SPLITS[bits(&[1, 3, 5, 7, 0, 2, 6])],
        "E and N joined the long way round"
    );
    assert!(
        SPLITS[bits(&[1, 3, 5, 7, 0, 2])],
        "N cut off by stones on NW and NE"
    );
}

/// The plain reference: the rules of RULES.md on a grid of characters with breadth-first
/// search, checking each region next to the new stone.
fn reference_place(before: &Rin, mv: Point) -> Vec<Vec<char>> {
    let n = before.size();
    let mut grid: Vec<Vec<char>> = before
        .board_rows()
        .iter()
        .map(|r| r.chars().collect())
        .collect();
    // grid[y][x] with y from the top.
    let me = if Rin::mover_at(before.ply()) == Player::ZERO {
        'B'
    } else {
        'W'
    };
    let (x0, y0) = (mv.col(), n - 1 - mv.row());
    grid[y0][x0] = me;
    let neighbours = |x: usize, y: usize| {
        let mut v = Vec::new();
        if x > 0 {
            v.push((x - 1, y));
        }
        if y > 0 {
            v.push((x, y - 1));
        }
        if x + 1 < n {
            v.push((x + 1, y));
        }
        if y + 1 < n {
            v.push((x, y + 1));
        }
        v
    };
    for (sx, sy) in neighbours(x0, y0) {
        if grid[sy][sx] == me {
            continue;
        }
        let mut seen = vec![vec![false; n]; n];
        let mut region = vec![(sx, sy)];
        let mut queue = VecDeque::from([(sx, sy)]);
        seen[sy][sx] = true;
        let mut touches_edge = false;
        while let Some((x, y)) = queue.pop_front() {
            touches_edge |= x == 0 || y == 0 || x == n - 1 || y == n - 1;
            for (nx, ny) in neighbours(x, y) {
                if !seen[ny][nx] && grid[ny][nx] != me {
                    seen[ny][nx] = true;
                    region.push((nx, ny));
                    queue.push_back((nx, ny));
                }
            }
        }
        if !touches_edge {
            for (x, y) in region {
                grid[y][x] = me;
            }
        }
    }
    grid
}

fn reference_check(before: &Rin, mv: Point, after: &Rin) -> Result<(), String> {
    let expected: Vec<String> = reference_place(before, mv)
        .into_iter()
        .map(|r| r.into_iter().collect())
        .collect();
    if expected != after.board_rows() {
        return Err(format!(
            "board\n{}\nexpected\n{}",
            after.board_rows().join("\n"),
            expected.join("\n")
        ));
    }
    Ok(())
}

#[test]
fn conformance_on_every_size() {
    for (size, games) in [(6, 400), (8, 300), (10, 150), (12, 100), (14, 60), (16, 60)] {
        let coverage = check_random_games(
            &Rin::new(size).unwrap(),
            games,
            7 + size as u64,
            u32::MAX,
            reference_check,
        );
        assert_eq!(
            coverage.finished, games,
            "every Rin game ends when the board fills"
        );
    }
}

#[test]
fn random_moves_are_uniform_over_empty_points() {
    let rin = position(6, "......\n.B....\n......\n....W.\n......\n......");
    let empty = rin.empty();
    let mut counts = [0u32; 256];
    let mut rng = seeded_rng(11, 0);
    let draws = 34 * 3000;
    for _ in 0..draws {
        counts[rin.random_move(&mut rng, &mut Vec::new()).unwrap().0 as usize] += 1;
    }
    for (p, &count) in counts.iter().enumerate() {
        if empty.has(p) {
            // Expected 3000 each; 5 standard deviations is about 270.
            assert!((2700..3300).contains(&count), "point {p}: {count}");
        } else {
            assert_eq!(count, 0, "occupied point {p} drawn");
        }
    }
}

/// Seeded playout statistics, computed by the engine and by the reference from the same random
/// choices, and pinned as a regression figure.
#[test]
fn seeded_playout_statistics_match_the_reference_and_the_recorded_figure() {
    let games = 300;
    let mut engine_counts = [0u32; 3];
    let mut reference_counts = [0u32; 3];
    let mut plies = 0;
    for index in 0..games {
        let mut rng = seeded_rng(1, index);
        let mut rin = Rin::new(16).unwrap();
        let outcome = random_playout(&mut rin, &mut rng, &mut Vec::new(), u32::MAX).unwrap();
        plies += rin.ply();
        engine_counts[slot(outcome)] += 1;

        // The same random choices (the k-th empty point, k drawn the same way) on the reference.
        let mut rng = seeded_rng(1, index);
        let mut grid_state = Rin::new(16).unwrap();
        while grid_state.outcome().is_none() {
            let mv = grid_state.random_move(&mut rng, &mut Vec::new()).unwrap();
            let grid = reference_place(&grid_state, mv);
            let text: Vec<String> = grid.into_iter().map(|r| r.into_iter().collect()).collect();
            let ply = grid_state.ply() + 1;
            grid_state = Rin::new(16)
                .unwrap()
                .set_up(&format!("{}\nply {ply}", text.join("\n")))
                .unwrap();
        }
        reference_counts[slot(grid_state.outcome().unwrap())] += 1;
    }
    assert_eq!(engine_counts, reference_counts);
    assert_eq!(engine_counts.iter().sum::<u32>(), games as u32);
    // Recorded with this commit's engine; a change means the rules or the sampler changed.
    assert_eq!(
        (engine_counts, plies),
        RECORDED_SEED1_300_GAMES,
        "black/white/draw and total plies"
    );
}

const RECORDED_SEED1_300_GAMES: ([u32; 3], u32) = ([146, 148, 6], 72664);

fn slot(outcome: Outcome) -> usize {
    match outcome {
        Outcome::Win(p) => p.index(),
        Outcome::Draw => 2,
    }
}

fn rin_features(rin: &Rin, player: Player) -> [f64; 5] {
    let mut out = [0.0; crate::MAX_FEATURES];
    crate::Features::features(rin, player, &mut out);
    [out[0], out[1], out[2], out[3], out[4]]
}

/// A Rin board of `size` with the given stones (`("g13", 'B')`), set up at `ply`.
fn board_with(size: usize, stones: &[(&str, char)], ply: u32) -> Rin {
    let mut rows = vec![vec!['.'; size]; size];
    for (name, stone) in stones {
        let (col, row) = parse_point(name, size).unwrap();
        rows[size - 1 - row][col] = *stone;
    }
    let text: Vec<String> = rows.into_iter().map(String::from_iter).collect();
    Rin::new(size)
        .unwrap()
        .set_up(&format!("{}\nply {ply}", text.join("\n")))
        .unwrap()
}

#[test]
fn immune_counts_stones_joined_to_the_safe_zone_through_their_own_colour() {
    // a1 and a2 are on the edge; b2, c2, c3 and c4 hang from a2 through Black stones.
    // White's e3 is inside the ring and alone.
    let rin = Rin::new(6)
        .unwrap()
        .set_up("......\n......\n..B...\n..B.W.\nBBB...\nB.....\nply 7")
        .unwrap();
    assert_eq!(rin_features(&rin, Player::ZERO)[0], 6.0);
    assert_eq!(rin_features(&rin, Player::ZERO)[1], 6.0);
    assert_eq!(rin_features(&rin, Player::ONE)[1], 0.0);
    // Cut the chain at c2: c3 and c4 are no longer joined.
    let cut = board_with(
        6,
        &[
            ("a1", 'B'),
            ("a2", 'B'),
            ("b2", 'B'),
            ("c3", 'B'),
            ("c4", 'B'),
        ],
        7,
    );
    assert_eq!(rin_features(&cut, Player::ZERO)[1], 3.0);
}

#[test]
fn liberties_are_empty_points_next_to_a_players_stones() {
    // White e3 alone: four empty neighbours. Black a6 in the corner: two.
    let rin = board_with(6, &[("a6", 'B'), ("e3", 'W')], 2);
    assert_eq!(rin_features(&rin, Player::ONE)[2], 4.0);
    assert_eq!(rin_features(&rin, Player::ZERO)[2], 2.0);
}

#[test]
fn territory_is_the_empty_points_a_colour_reaches_first() {
    // Black a6, White f2 on an open 6x6 board: growing through empty points is the Manhattan
    // distance, and counting the 34 empty points by |c| + |6 - r| against |5 - c| + |r - 2|
    // (columns from 0) gives Black 15, White 19, no ties.
    let rin = board_with(6, &[("a6", 'B'), ("f2", 'W')], 2);
    assert_eq!(rin_features(&rin, Player::ZERO)[3], 15.0);
    assert_eq!(rin_features(&rin, Player::ONE)[3], 19.0);
    // a6 against f6: Black is nearer on columns a to c (c < 2.5): 18 points less a6 itself.
    let corners = board_with(6, &[("a6", 'B'), ("f6", 'W')], 2);
    assert_eq!(rin_features(&corners, Player::ZERO)[3], 17.0);
    assert_eq!(rin_features(&corners, Player::ONE)[3], 17.0);
    // A Black wall on column b keeps White from column a: White f6 reaches only c..f.
    let wall = board_with(
        6,
        &[
            ("b1", 'B'),
            ("b2", 'B'),
            ("b3", 'B'),
            ("b4", 'B'),
            ("b5", 'B'),
            ("b6", 'B'),
            ("f6", 'W'),
        ],
        11,
    );
    // Column a (6 points) is Black's; of columns c-f (23 empty), Black reaches a point first
    // when its column distance from b is below White's Manhattan distance from f6.
    let mut black = 6;
    for c in 2..6i32 {
        for r in 1..=6i32 {
            if (c, r) != (5, 6) && (c - 1) < (5 - c) + (6 - r) {
                black += 1;
            }
        }
    }
    assert_eq!(rin_features(&wall, Player::ZERO)[3], f64::from(black));
}

#[test]
fn marked_counts_stones_on_the_seeds_eight_marked_points() {
    // The seed's (3, 6) is g13 and (9, 3) is d7; h8 is not marked; (6, 12) is m10.
    let rin = board_with(
        16,
        &[("g13", 'B'), ("d7", 'B'), ("h8", 'B'), ("m10", 'W')],
        4,
    );
    assert_eq!(rin_features(&rin, Player::ZERO)[4], 2.0);
    assert_eq!(rin_features(&rin, Player::ONE)[4], 1.0);
    let all = ["g13", "j13", "m10", "m7", "j4", "g4", "d7", "d10"].map(|p| (p, 'B'));
    assert_eq!(
        rin_features(&board_with(16, &all, 15), Player::ZERO)[4],
        8.0
    );
}

#[test]
fn an_illegal_move_is_explained_as_off_the_board_or_occupied() {
    let mut rin = Rin::new(6).unwrap();
    let first = rin.parse_move("c3").unwrap();
    rin.play(first);
    assert_eq!(rin.why_illegal(first), "point c3 is occupied");
    // A point of the 16-wide grid outside the 6×6 board: no move on the empty board.
    let empty = Rin::new(6).unwrap();
    let outside = (0..=255).map(Point).find(|&p| !empty.is_legal(p)).unwrap();
    let off = rin.why_illegal(outside);
    assert!(off.contains("is off the 6x6 board"), "{off}");
}

#[test]
fn the_board_is_the_n_by_n_points_and_the_safe_zone_its_outer_ring() {
    for n in SIZES {
        let rin = Rin::new(n).unwrap();
        let (board, safe) = (rin.board(), rin.safe_zone());
        assert_eq!(board.count() as usize, n * n, "{n}x{n}");
        assert_eq!(safe.count() as usize, 4 * (n - 1), "{n}x{n}");
        for p in (0..=255).map(Point) {
            let on = p.col() < n && p.row() < n;
            assert_eq!(board.has(p.0 as usize), on, "{n}x{n} {p:?}");
            let ring = on && (p.col() % (n - 1) == 0 || p.row() % (n - 1) == 0);
            assert_eq!(safe.has(p.0 as usize), ring, "{n}x{n} {p:?}");
        }
    }
}

#[test]
fn territory_keeps_growing_the_colour_that_still_can_when_the_other_is_shut_in() {
    // Black a6 is shut in by White a5, b5 and b6: Black reaches nothing, and White every one
    // of the 32 empty points.
    let rin = board_with(6, &[("a6", 'B'), ("a5", 'W'), ("b5", 'W'), ("b6", 'W')], 4);
    assert_eq!(rin_features(&rin, Player::ZERO)[3], 0.0);
    assert_eq!(rin_features(&rin, Player::ONE)[3], 32.0);
}
