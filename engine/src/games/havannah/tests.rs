use std::collections::VecDeque;

use super::*;
use crate::conformance::check_random_games;

/// Plays cells given by name, alternating from White.
fn play(h: &mut Havannah, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = h.parse_move(m).unwrap();
        h.try_play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

/// White plays `white`, Black answers with the next cell of `filler` each time.
fn white_builds(base: usize, white: &[&str], filler: &[&str]) -> Havannah {
    let mut h = Havannah::new(base, false).unwrap();
    for (i, w) in white.iter().enumerate() {
        play(&mut h, w);
        if h.outcome().is_some() {
            break;
        }
        play(&mut h, filler[i]);
    }
    h
}

#[test]
fn notation_and_action_numbers_follow_openspiel() {
    let h = Havannah::default();
    assert_eq!(h.parse_move("a1"), Ok(Cell(0)));
    assert_eq!(h.parse_move("b2"), Ok(Cell(16)));
    assert_eq!(h.move_text(Cell(224)), "o15");
    assert!(h.parse_move("a9").is_err(), "(0, 8) is off a size-8 board");
    assert!(h.parse_move("i1").is_err());
    let mut moves = Vec::new();
    h.legal_moves(&mut moves);
    assert_eq!(moves.len(), 169);
    assert_eq!(Havannah::new(10, false).unwrap().empty_count, 271);
}

#[test]
fn a_bridge_joins_two_corners() {
    // Size 4: corners a1 and d1 joined along the top edge.
    let h = white_builds(4, &["a1", "b1", "c1", "d1"], &["a4", "b5", "c6", "d7"]);
    assert_eq!(h.outcome(), Some(Outcome::Win(Player::ZERO)));
    assert_eq!(h.ply(), 7);
}

#[test]
fn a_fork_touches_three_edges_and_corners_do_not_count() {
    // Size 5 (d = 9). Edges: top b1-d1, upper right f2-h4, right i6-i8, bottom f9-h9,
    // lower left b6-d8, left a2-a4. White runs c1 (top) down to c7 (lower left), then from c5
    // east to h5 and i6 (right). Black's stones stay on single edges and never touch corners.
    let mut h = Havannah::new(5, false).unwrap();
    let white = [
        "c1", "c2", "c3", "c4", "c5", "c6", "c7", "d5", "e5", "f5", "g5", "h5", "i6",
    ];
    let black = [
        "a2", "a3", "a4", "f9", "g9", "h9", "i7", "i8", "b2", "h7", "f4", "d3",
    ];
    for (k, w) in white.iter().enumerate() {
        assert_eq!(h.outcome(), None, "before {w}");
        play(&mut h, w);
        if k < black.len() {
            play(&mut h, black[k]);
        }
    }
    assert_eq!(h.outcome(), Some(Outcome::Win(Player::ZERO)));
    assert_eq!(h.ply(), 25);
    assert_eq!(reference_winner(&h, Player::ZERO), Some("fork"));

    // A corner lies between two sides but is no edge: d1 (top edge), e1 (corner) and f2
    // (upper-right edge) touch two edges and one corner, which wins nothing.
    let mut h = Havannah::new(5, false).unwrap();
    play(&mut h, "d1 a3 e1 a4 f2");
    assert_eq!(h.outcome(), None);
    let g = geometry(5);
    let e1 = h.parse_move("e1").unwrap().0 as usize;
    assert_eq!((g.edge[e1], g.corner[e1].count_ones()), (0, 1));
}

#[test]
fn a_ring_around_an_empty_cell_wins() {
    // Size 5: the six neighbours of e5 (4,4): d4 e4 f5 f6 e6 d5.
    let h = white_builds(
        5,
        &["d4", "e4", "f5", "f6", "e6", "d5"],
        &["i6", "i7", "i8", "h9", "g9", "a3"],
    );
    assert_eq!(h.outcome(), Some(Outcome::Win(Player::ZERO)));
    assert!(h.is_legal_cell_empty("e5"));
}

#[test]
fn a_ring_around_an_occupied_cell_wins_too() {
    // Black sits on e5; White surrounds it.
    let mut h = Havannah::new(5, false).unwrap();
    play(&mut h, "d4 e5 e4 a1 f5 b1 f6 c1 e6 d1");
    assert_eq!(h.outcome(), None);
    play(&mut h, "d5");
    assert_eq!(h.outcome(), Some(Outcome::Win(Player::ZERO)));
}

#[test]
fn a_ring_holding_only_the_players_own_stone_wins_when_closed_beside_it() {
    // White e5, then five of its six neighbours; d5 closes the ring. Around d5, White's
    // d4 e5 e6 are one run: the ring enters and leaves d5 through it and holds only e5.
    let mut h = Havannah::new(5, false).unwrap();
    play(&mut h, "e5 i6 d4 i7 e4 i8 f5 h9 f6 g9 e6 a3");
    assert_eq!(h.outcome(), None);
    play(&mut h, "d5");
    assert_eq!(h.outcome(), Some(Outcome::Win(Player::ZERO)));
    // The same blob one stone short (no f6): d5 joins it, rings nothing.
    let mut h = Havannah::new(5, false).unwrap();
    play(&mut h, "e5 i6 d4 i7 e4 i8 f5 h9 e6 a3 d5");
    assert_eq!(h.outcome(), None);
}

#[test]
fn a_triangle_is_not_a_ring() {
    let mut h = Havannah::new(5, false).unwrap();
    // e5 (4,4), f5 (5,4) and f6 (5,5) are mutually adjacent.
    play(&mut h, "e5 a1 f5 b1 f6");
    assert_eq!(h.outcome(), None);
}

#[test]
fn the_swap_rule_hands_the_first_stone_to_black() {
    let mut h = Havannah::new(5, true).unwrap();
    play(&mut h, "e5");
    assert!(h.swap_available());
    let e5 = h.parse_move("e5").unwrap();
    assert!(h.is_legal(e5));
    let mut moves = Vec::new();
    h.legal_moves(&mut moves);
    assert_eq!(moves.len(), 61, "60 empty cells and the swap");
    h.play(e5);
    assert_eq!(h.owner[e5.0 as usize], 1, "e5 is Black's now");
    assert_eq!(h.to_move(), Some(Player::ZERO));
    assert!(!h.is_legal(e5));
    let mut no_swap = Havannah::new(5, false).unwrap();
    play(&mut no_swap, "e5");
    assert!(!no_swap.is_legal(e5));
}

#[test]
fn a_full_board_without_a_win_is_a_draw() {
    // Play random games on size 4 until one fills the board without a winner.
    let mut found = false;
    for seed in 0..2000 {
        let mut h = Havannah::new(4, false).unwrap();
        let mut rng = crate::seeded_rng(seed, 0);
        crate::random_playout(&mut h, &mut rng, &mut Vec::new(), u32::MAX);
        if h.outcome() == Some(Outcome::Draw) {
            assert_eq!(h.empty_count, 0);
            assert_eq!(reference_winner(&h, Player::ZERO), None);
            assert_eq!(reference_winner(&h, Player::ONE), None);
            found = true;
            break;
        }
    }
    assert!(found, "some random size-4 game ends in a draw");
}

impl Havannah {
    fn is_legal_cell_empty(&self, name: &str) -> bool {
        self.owner[self.parse_move(name).unwrap().0 as usize] == EMPTY
    }
}

/// The plain reference: does `player` have a ring, bridge or fork anywhere? Groups by
/// breadth-first search; a ring is a cell (any content) from which the rim of the board cannot
/// be reached without crossing `player`'s stones (other than the cell itself).
fn reference_winner(h: &Havannah, player: Player) -> Option<&'static str> {
    let g = h.geometry();
    let me = player.index() as u8;
    let n = g.on_board.len();
    let mut seen = vec![false; n];
    for start in 0..n {
        if h.owner[start] != me || seen[start] {
            continue;
        }
        let (mut corners, mut edges) = (0u8, 0u8);
        let mut queue = VecDeque::from([start]);
        seen[start] = true;
        while let Some(c) = queue.pop_front() {
            corners |= g.corner[c];
            edges |= g.edge[c];
            for &m in &g.neighbours[c] {
                if m != NONE && h.owner[m as usize] == me && !seen[m as usize] {
                    seen[m as usize] = true;
                    queue.push_back(m as usize);
                }
            }
        }
        if corners.count_ones() >= 2 {
            return Some("bridge");
        }
        if edges.count_ones() >= 3 {
            return Some("fork");
        }
    }
    for hole in (0..n).filter(|&c| g.on_board[c]) {
        let mut reached = vec![false; n];
        let mut queue = VecDeque::from([hole]);
        reached[hole] = true;
        let mut escapes = false;
        while let Some(c) = queue.pop_front() {
            if g.neighbours[c].contains(&NONE) {
                escapes = true;
                break;
            }
            for &m in &g.neighbours[c] {
                let m = m as usize;
                if !reached[m] && h.owner[m] != me {
                    reached[m] = true;
                    queue.push_back(m);
                }
            }
        }
        if !escapes {
            return Some("ring");
        }
    }
    None
}

fn reference_check(before: &Havannah, mv: Cell, after: &Havannah) -> Result<(), String> {
    let mover = before.to_move().unwrap();
    let expected = match reference_winner(after, mover) {
        Some(_) => Some(Outcome::Win(mover)),
        None if after.empty_count == 0 => Some(Outcome::Draw),
        None => None,
    };
    if after.outcome() != expected {
        return Err(format!(
            "after {} outcome {:?}, reference {:?} ({:?})\n{}",
            before.move_text(mv),
            after.outcome(),
            expected,
            reference_winner(after, mover),
            after.board_rows().join("\n")
        ));
    }
    Ok(())
}

#[test]
fn conformance_on_several_sizes() {
    for (base, games) in [(4, 300), (5, 150), (6, 80), (8, 30)] {
        let c = check_random_games(
            &Havannah::new(base, false).unwrap(),
            games,
            61,
            u32::MAX,
            reference_check,
        );
        assert_eq!(c.finished, games);
    }
    check_random_games(
        &Havannah::new(5, true).unwrap(),
        100,
        62,
        u32::MAX,
        reference_check,
    );
}

#[test]
fn groups_corners_and_edges_describe_the_best_group() {
    // Size 4. White: the top-left corner and the edge cell beside it (one group), and a lone
    // stone in the middle. Black: one edge cell of the top row.
    let h = Havannah::new(4, false)
        .unwrap()
        .set_up(
            "W W B .\n. . . . .\n. . . . . .\n. . . W . . .\n. . . . . .\n. . . . .\n. . . .\nto_move black",
        )
        .unwrap();
    let value = |p, name| crate::Features::feature(&h, p, name).unwrap();
    assert_eq!(value(Player::ZERO, "material"), 3.0);
    assert_eq!(value(Player::ZERO, "groups"), 2.0);
    assert_eq!(value(Player::ZERO, "corners"), 1.0);
    assert_eq!(value(Player::ZERO, "edges"), 1.0);
    assert_eq!(value(Player::ONE, "groups"), 1.0);
    assert_eq!(value(Player::ONE, "corners"), 0.0);
    assert_eq!(value(Player::ONE, "edges"), 1.0);
}

#[test]
fn needs_not_wanted_are_not_searched_and_the_counts_are_still_read() {
    // The position of the needs test: its needs are 3 and 4, so a sentinel left in their
    // places shows the two board searches were skipped, while the counts are written.
    let h = Havannah::new(4, false)
        .unwrap()
        .set_up("W W B .\n. . . . .\n. . . . . .\n. . . . . . .\n. . . . . .\n. . . . .\n. . . .")
        .unwrap();
    let counts = 0b1111;
    let mut out = [-7.0; crate::MAX_FEATURES];
    crate::Features::features_wanted(&h, Player::ZERO, counts, &mut out);
    assert_eq!(out[..6], [2.0, 1.0, 1.0, 1.0, -7.0, -7.0]);
    crate::Features::features_wanted(&h, Player::ZERO, counts | 1 << 5, &mut out);
    assert_eq!(out[..6], [2.0, 1.0, 1.0, 1.0, -7.0, 4.0]);
}

#[test]
fn bridge_and_fork_needs_count_empty_cells_and_go_around_enemy_stones() {
    // Rows of size 4 from the top, as (x, y) with y the row: White holds the corner (0, 0)
    // and the edge cell (1, 0); Black blocks (2, 0). The nearest other corners: (3, 0) now
    // costs (2, 1), (3, 1), (3, 0), and (0, 3) costs (0, 1), (0, 2), (0, 3): three each.
    let h = Havannah::new(4, false)
        .unwrap()
        .set_up("W W B .\n. . . . .\n. . . . . .\n. . . . . . .\n. . . . . .\n. . . . .\n. . . .")
        .unwrap();
    let value = |p, name| crate::Features::feature(&h, p, name).unwrap();
    assert_eq!(value(Player::ZERO, "bridge_need"), 3.0);
    // Fork: White touches the top edge at (1, 0); (0, 1) adds the left edge; the right-upper
    // edge's nearest cell (4, 1) is three cells from (1, 0) by (2, 1), (3, 1), (4, 1).
    assert_eq!(value(Player::ZERO, "fork_need"), 4.0);
    // Without Black's stone the bridge along the top row costs two.
    let open = Havannah::new(4, false)
        .unwrap()
        .set_up("W W . .\n. . . . .\n. . . . . .\n. . . . . . .\n. . . . . .\n. . . . .\n. . . .\nto_move black")
        .unwrap();
    assert_eq!(
        crate::Features::feature(&open, Player::ZERO, "bridge_need"),
        Some(2.0)
    );
    // An empty board: a bridge needs a whole side, the four cells from corner to corner.
    let empty = Havannah::new(4, false).unwrap();
    assert_eq!(
        crate::Features::feature(&empty, Player::ZERO, "bridge_need"),
        Some(4.0)
    );
}

#[test]
fn wins_at_once_agrees_with_the_reference_for_every_cell_and_both_players() {
    // Positions along random games of sizes 4 and 5: for each empty cell and each player, a
    // stone put there by hand makes a winner by the reference exactly when `wins_at_once`
    // says so, whoever is to move.
    let mut rng = crate::seeded_rng(17, 0);
    let mut scratch = Vec::new();
    let (mut checked, mut wins) = ([0; 2], [0; 2]);
    for base in [4, 5] {
        for _ in 0..60 {
            let mut h = Havannah::new(base, false).unwrap();
            while h.outcome().is_none() {
                for c in (0..h.geometry().on_board.len()).filter(|&c| h.owner[c] == EMPTY) {
                    for p in [Player::ZERO, Player::ONE] {
                        let mut placed = h.clone();
                        placed.owner[c] = p.index() as u8;
                        let expected = reference_winner(&placed, p).is_some();
                        assert_eq!(
                            h.wins_at_once(p, Cell(c as u16)),
                            Some(expected),
                            "{} for player {} ({} to move)\n{}",
                            h.move_text(Cell(c as u16)),
                            p.index(),
                            h.to_move.index(),
                            h.board_rows().join("\n")
                        );
                        let mover = usize::from(Some(p) != h.to_move());
                        checked[mover] += 1;
                        wins[mover] += usize::from(expected);
                    }
                }
                let mv = h.random_move(&mut rng, &mut scratch).unwrap();
                h.play(mv);
            }
        }
    }
    // Both the mover's and the other player's wins occurred (the test saw both answers).
    assert!(wins[0] > 50 && wins[1] > 50, "{wins:?} of {checked:?}");
    // Occupied and off-board cells are never wins.
    let mut h = Havannah::new(4, false).unwrap();
    play(&mut h, "a1");
    assert_eq!(h.wins_at_once(Player::ONE, Cell(0)), Some(false));
    assert_eq!(h.wins_at_once(Player::ONE, Cell(6)), Some(false));
}

#[test]
fn move_knowledge_counts_what_the_group_touches_and_answers_an_intrusion() {
    use crate::Features;
    let know = |h: &Havannah, text: &str| h.move_knowledge(h.parse_move(text).unwrap());
    // Size 4. White b2 and c4 are linked through b3 and c3; Black intrudes on b3.
    let mut h = Havannah::new(4, false).unwrap();
    play(&mut h, "b2 g7 c4 b3");
    // The other cell of the link: nothing touched, the answer is worth 0.5.
    assert_eq!(know(&h, "c3"), 0.5);
    // Beside the intruder but not between two white stones; joins c4 only.
    assert_eq!(know(&h, "b4"), 0.0);
    // An edge cell beside the intruder: the edge only.
    assert_eq!(know(&h, "a3"), 0.4);
    // The corner a1 joins b2: one corner. The edge cell b1 joins b2: one edge.
    assert_eq!(know(&h, "a1"), 0.4);
    assert_eq!(know(&h, "b1"), 0.4);
    // Joins c4, which touches nothing.
    assert_eq!(know(&h, "d4"), 0.0);
    // A taken cell knows nothing, even a corner stone (Black's g7) or the intruder b3.
    for taken in ["b2", "g7", "b3"] {
        assert_eq!(know(&h, taken), 0.0, "{taken}");
    }

    // A stone's link to the edge: White b2 reaches the top edge through a1 or b1. Black
    // takes b1; a1 answers it (a corner, and the link: 0.4 + 0.5); c1 is only an edge cell.
    let mut h = Havannah::new(4, false).unwrap();
    play(&mut h, "b2 b1");
    assert_eq!(know(&h, "a1"), 0.9);
    assert_eq!(know(&h, "c1"), 0.4);
    // Black to move after White's a1: c1 joins b1 on the same top edge; a2 is an edge cell
    // beside a1 with White's b2, not Black's, on its other side: no link of Black's.
    play(&mut h, "a1");
    assert_eq!(know(&h, "c1"), 0.4);
    assert_eq!(know(&h, "a2"), 0.4);
}

#[test]
fn playout_reply_saves_the_link_the_last_stone_broke_into() {
    use crate::Features;
    let cell = |h: &Havannah, text: &str| h.parse_move(text).unwrap();
    // White b2 and c4 are linked through b3 and c3; Black intrudes on b3: White saves the
    // link on c3, wherever the scan starts.
    let mut h = Havannah::new(4, false).unwrap();
    play(&mut h, "b2 g7 c4 b3");
    for start in 0..12 {
        assert_eq!(
            h.playout_reply(start),
            Some(cell(&h, "c3")),
            "start {start}"
        );
    }
    // A stone's link to the edge through a1 and b1: Black takes b1, White answers a1.
    let mut h = Havannah::new(4, false).unwrap();
    play(&mut h, "b2 b1");
    assert_eq!(h.playout_reply(0), Some(cell(&h, "a1")));
    // Nothing of White's beside Black's last stone; and no reply before the first stone.
    let mut h = Havannah::new(4, false).unwrap();
    assert_eq!(h.playout_reply(0), None);
    play(&mut h, "b2 g7");
    assert_eq!(h.playout_reply(0), None);

    // White holds every other cell around the centre and Black takes the centre: three links
    // broken at once. Each answer is the cell between two white stones, and moving the start
    // reaches all three.
    let mut h = Havannah::new(4, false).unwrap();
    let centre = cell(&h, "d4");
    let ring = h.geometry().neighbours[centre.0 as usize];
    let far = ["a1", "a4", "g7"];
    for (k, f) in [0, 2, 4].into_iter().zip(far) {
        h.play(Cell(ring[k]));
        play(&mut h, f);
    }
    h.play(Cell(ring[5]));
    // White's fourth stone filled place 5: only places 1 and 3 stay open after Black's centre.
    h.play(centre);
    let answers: std::collections::BTreeSet<_> =
        (0..6).filter_map(|s| h.playout_reply(s)).collect();
    assert_eq!(
        answers,
        [Cell(ring[1]), Cell(ring[3])].into_iter().collect(),
        "ring {ring:?}"
    );
    // The replies are the moves whose knowledge counts the answer to an intrusion.
    for &c in &answers {
        assert!(h.move_knowledge(c) >= 0.5);
    }
}

#[test]
fn an_illegal_move_is_explained_as_off_the_board_or_occupied() {
    let mut h = Havannah::new(4, false).unwrap();
    h.play(h.parse_move("d4").unwrap());
    h.play(h.parse_move("a1").unwrap());
    let occupied = h.why_illegal(h.parse_move("d4").unwrap());
    assert_eq!(occupied, "cell d4 is occupied");
    // g1 is outside the hexagon of side 4 (|x − y| = 6).
    let off = h.why_illegal(Cell(6));
    assert!(off.contains("off the board"), "{off}");
}

#[test]
fn havannah_counts_no_score_from_start_to_end() {
    // The rules have a winner and no points: no score at the start, during or after a game.
    let mut h = Havannah::new(4, false).unwrap();
    let mut rng = crate::seeded_rng(5, 0);
    let mut moves = Vec::new();
    loop {
        assert_eq!(h.scores(), None);
        if h.outcome().is_some() {
            break;
        }
        let mv = h.random_move(&mut rng, &mut moves).unwrap();
        h.play(mv);
    }
}

#[test]
fn once_the_game_is_over_no_move_wins_at_once_and_no_cell_has_knowledge() {
    use crate::Features;
    // After White's bridge a1-d1 the game is over: no cell wins, not even one that would join
    // the winning group again (b2 touches it), for either player, and none is worth anything.
    let h = white_builds(4, &["a1", "b1", "c1", "d1"], &["a4", "b5", "c6", "d7"]);
    assert_eq!(h.outcome(), Some(Outcome::Win(Player::ZERO)));
    let on_board: Vec<usize> = (0..h.geometry().on_board.len())
        .filter(|&c| h.geometry().on_board[c])
        .collect();
    assert!(on_board.contains(&(h.parse_move("b2").unwrap().0 as usize)));
    for &c in &on_board {
        assert_eq!(h.move_knowledge(Cell(c as u16)), 0.0, "cell {c}");
        if h.owner[c] == EMPTY {
            for p in [Player::ZERO, Player::ONE] {
                assert_eq!(h.wins_at_once(p, Cell(c as u16)), Some(false), "cell {c}");
            }
        }
    }
    // Numbers past the board's grid, in a game still going on.
    let live = Havannah::new(4, false).unwrap();
    for c in [live.geometry().on_board.len(), usize::from(u16::MAX)] {
        assert_eq!(live.wins_at_once(Player::ZERO, Cell(c as u16)), Some(false));
    }
}

#[test]
fn castro_notation_is_the_transpose_row_letter_then_column_number() {
    let h = Havannah::default();
    for (ours, castro) in [
        ("e3", "c5"),
        ("a1", "a1"),
        ("b1", "a2"),
        ("a2", "b1"),
        ("o15", "o15"),
    ] {
        assert_eq!(
            h.translate_move("castro", ours, true).as_deref(),
            Some(castro)
        );
        assert_eq!(
            h.translate_move("castro", castro, false).as_deref(),
            Some(ours)
        );
    }
    // Text that is not a letter and a number passes through unchanged; other notations are
    // not Havannah's.
    assert_eq!(
        h.translate_move("castro", "swap", true).as_deref(),
        Some("swap")
    );
    assert_eq!(h.translate_move("openspiel", "e3", true), None);
}

#[test]
fn a_set_up_position_without_a_side_to_move_gives_the_move_to_the_side_behind() {
    let rows = |first: &str| {
        format!("{first}\n. . . . .\n. . . . . .\n. . . . . . .\n. . . . . .\n. . . . .\n. . . .")
    };
    let game = Havannah::new(4, false).unwrap();
    let to_move = |first: &str| game.set_up(&rows(first)).unwrap().to_move();
    assert_eq!(to_move(". . . ."), Some(Player::ZERO), "no stones: White");
    assert_eq!(
        to_move("W . . ."),
        Some(Player::ONE),
        "White one ahead: Black"
    );
    assert_eq!(to_move("W . B ."), Some(Player::ZERO), "even: White");
    assert_eq!(to_move("W W B ."), Some(Player::ONE));
}

#[test]
fn a_cell_number_with_a_leading_zero_or_no_number_or_a_letter_past_the_board_is_refused() {
    // Size 4 (7 columns): h1 would wrap to the next row's a2.
    let h = Havannah::new(4, false).unwrap();
    assert_eq!(h.parse_move("a1"), Ok(Cell(0)));
    for bad in ["a01", "a0", "a", "a1x", "a+1", "h1"] {
        let err = h.parse_move(bad).unwrap_err();
        assert_eq!(err.text, bad);
        assert_eq!(
            err.expected,
            "a cell: letter a..g then number 1..7, on the board"
        );
    }
}

#[test]
fn the_drawn_rows_are_the_hexagons_rows_and_name_every_first_move() {
    // Base 4: rows of 4, 5, 6, 7, 6, 5, 4 cells; the lower half starts one column further
    // right each row (a4 is the top row's first cell, b5 the first below the middle row).
    let h = Havannah::new(4, false).unwrap();
    let names = h.cell_names();
    let shape: Vec<usize> = names.iter().map(Vec::len).collect();
    assert_eq!(shape, [4, 5, 6, 7, 6, 5, 4]);
    let firsts: Vec<&str> = names.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(firsts, ["a1", "a2", "a3", "a4", "b5", "c6", "d7"]);
    let lasts: Vec<&str> = names.iter().map(|r| r[r.len() - 1].as_str()).collect();
    assert_eq!(lasts, ["d1", "e2", "f3", "g4", "g5", "g6", "g7"]);
    let rows: Vec<usize> = h
        .board_rows()
        .iter()
        .map(|r| r.split_whitespace().count())
        .collect();
    assert_eq!(rows, shape);
    let mut moves = Vec::new();
    h.legal_moves(&mut moves);
    let mut named: Vec<String> = moves.iter().map(|&m| h.move_text(m)).collect();
    let mut drawn: Vec<String> = names.into_iter().flatten().collect();
    named.sort();
    drawn.sort();
    assert_eq!(named, drawn);
}

#[test]
fn bridge_and_fork_needs_are_the_same_on_the_board_turned_upside_down() {
    // The first position of the test above, mirrored top to bottom: White holds the bottom-left
    // corner d7 and e7 beside it, Black blocks f7. The fork's cells are now on the bottom rows.
    let h = Havannah::new(4, false)
        .unwrap()
        .set_up(". . . .\n. . . . .\n. . . . . .\n. . . . . . .\n. . . . . .\n. . . . .\nW W B .")
        .unwrap();
    let value = |p, name| crate::Features::feature(&h, p, name).unwrap();
    assert_eq!(value(Player::ZERO, "bridge_need"), 3.0);
    assert_eq!(value(Player::ZERO, "fork_need"), 4.0);
}

#[test]
fn the_hash_tells_who_is_to_move_and_whether_black_may_swap() {
    let stones = "W . . .\n. . . . .\n. . . . . .\n. . . B . . .\n. . . . . .\n. . . . .\n. . . .";
    let start = Havannah::new(4, false).unwrap();
    let white = start.set_up(&format!("{stones}\nto_move white")).unwrap();
    let black = start.set_up(&format!("{stones}\nto_move black")).unwrap();
    assert_ne!(white.hash(), black.hash());
    // After one stone, Black to move: with the swap rule Black may take it over, without not.
    let (mut swap, mut plain) = (Havannah::new(4, true).unwrap(), start.clone());
    play(&mut swap, "d4");
    play(&mut plain, "d4");
    assert!(swap.swap_available() && !plain.swap_available());
    assert_ne!(swap.hash(), plain.hash());
}

#[test]
fn the_drawn_board_shows_white_black_and_empty_cells() {
    let mut h = Havannah::new(4, false).unwrap();
    play(&mut h, "a1 d4 g7");
    let rows = h.board_rows();
    assert_eq!(
        rows,
        [
            "   W . . .",
            "  . . . . .",
            " . . . . . .",
            ". . . B . . .",
            " . . . . . .",
            "  . . . . .",
            "   . . . W",
        ]
    );
    assert_eq!(h.set_up(&rows.join("\n")).unwrap().hash(), h.hash());
}

#[test]
fn a_fork_on_the_empty_board_needs_six_stones_its_meeting_cell_counted_once() {
    // Size 4. Touching the top edge (b1), the upper-left edge (a2) and the upper-right edge
    // (e2) takes a2 b2 c2 d2 e2 and b1, six cells; from the meeting cell b2 the chains to
    // those edges hold 2, 2 and 4 cells, b2 in each. No chain of five touches three edges:
    // two edges' nearest cells are two steps apart, through a corner or the cell between.
    let empty = Havannah::new(4, false).unwrap();
    assert_eq!(
        crate::Features::feature(&empty, Player::ZERO, "fork_need"),
        Some(6.0)
    );
}

#[test]
fn a_bridge_that_cannot_be_made_counts_as_four_times_the_size() {
    // Size 4: Black holds all six corners, so no chain of White's can join two; the need is
    // the cap, 4 × 4 = 16.
    let h = Havannah::new(4, false)
        .unwrap()
        .set_up("B . . B\n. . . . .\n. W W W . .\nB . . . . . B\n. W W W . .\n. . . . .\nB . . B\nto_move white")
        .unwrap();
    assert_eq!(
        crate::Features::feature(&h, Player::ZERO, "bridge_need"),
        Some(16.0)
    );
}

#[test]
fn random_moves_reach_every_legal_move_the_swap_included() {
    let mut h = Havannah::new(4, true).unwrap();
    play(&mut h, "d4");
    assert!(h.swap_available());
    let mut legal = Vec::new();
    h.legal_moves(&mut legal);
    assert_eq!(legal.len(), 37, "36 empty cells and the swap");
    // 82 draws a move: 3,034 in all.
    crate::conformance::check_random_moves_reach_every_move(&h, &mut crate::seeded_rng(7, 0), 82);
}

#[test]
fn castro_text_with_no_letter_or_a_number_past_26_passes_through_unchanged() {
    let h = Havannah::default();
    for text in ["#5", "A0", "a27", "z99"] {
        assert_eq!(
            h.translate_move("castro", text, false).as_deref(),
            Some(text)
        );
    }
}

#[test]
fn knowledge_terms_measure_reach_reply_locality_and_group_size() {
    use crate::Features;
    // Size 4: White d4 (the centre), Black the corner a1; White to move.
    let mut h = Havannah::new(4, false).unwrap();
    play(&mut h, "d4 a1");
    assert_eq!(
        h.knowledge_terms(),
        [
            "connect",
            "bridge",
            "reply",
            "local",
            "size",
            "shape",
            "distance",
            "shape_ctx",
            "block",
            "shape_wide",
            "shape_wide2"
        ]
    );
    let term = |cell: &str, name: &str| {
        let k = term_index(name);
        h.knowledge_term(h.parse_move(cell).unwrap(), k)
    };
    // reply: 4 − the distance to the last stone, a1: b2 is beside it, c3 two away, e4 four.
    assert_eq!(term("b2", "reply"), 3.0);
    assert_eq!(term("c3", "reply"), 2.0);
    assert_eq!(term("e4", "reply"), 0.0);
    // local: beside d4 (e4), a bridge away (e3: d4 and e3 share e4 and d3), distance 2
    // otherwise (f4 shares only e4), farther (the corner a4).
    assert_eq!(term("e4", "local"), 3.0);
    assert_eq!(term("e3", "local"), 2.0);
    assert_eq!(term("f4", "local"), 1.0);
    assert_eq!(term("a4", "local"), 0.0);
    // size: the group a stone would make; connect: the corners and edges it would touch.
    assert_eq!(term("e4", "size"), 2.0);
    assert_eq!(term("a4", "size"), 1.0);
    assert_eq!(term("a4", "connect"), 1.0);
    assert_eq!(term("e4", "connect"), 0.0);
    // block: connect for Black, whose a1 touches the corner a1: b1 (beside a1, on the top
    // edge) would join it and touch the corner and the edge; g4 would touch a corner alone;
    // e4, inside, nothing.
    assert_eq!(term("b1", "block"), 2.0);
    assert_eq!(term("g4", "block"), 1.0);
    assert_eq!(term("e4", "block"), 0.0);
    // No link was broken into: no bridge answer anywhere; a taken cell knows nothing.
    assert_eq!(term("e4", "bridge"), 0.0);
    for name in ["connect", "reply", "local", "size", "distance", "block"] {
        assert_eq!(term("d4", name), 0.0, "{name}");
    }
    // The bridge term is move_knowledge's answer to an intrusion: Black takes b3 between
    // White's b2 and c4, and c3 saves the link.
    let mut h = Havannah::new(4, false).unwrap();
    play(&mut h, "b2 g7 c4 b3");
    let bridge = h.knowledge_term(h.parse_move("c3").unwrap(), 1);
    assert_eq!(bridge, 1.0);
}

#[test]
fn distance_term_counts_the_stones_a_bridge_or_fork_through_the_cell_still_needs() {
    use crate::Features;
    // Size 4 (diameter 7), corners a1 d1 g4 g7 d7 a4; the term is 7 − d.
    let term = |h: &Havannah, cell: &str| {
        h.knowledge_term(h.parse_move(cell).unwrap(), term_index("distance"))
    };
    let empty = Havannah::new(4, false).unwrap();
    // The corner a1: a bridge to d1 along the top needs a1 b1 c1 d1 (4); a fork needs its
    // two edges (b1, a2: 1 + 1 more) and the nearest third, e2 or b5, four steps off (5
    // cells): 2 + 2 + 5 − 2 = 7. So d = 4.
    assert_eq!(term(&empty, "a1"), 3.0);
    // The centre: every corner 3 steps off (4 cells), a bridge 4 + 4 − 1 = 7; every edge 4
    // cells, a fork 10. So d = 7 and the term 0.
    assert_eq!(term(&empty, "d4"), 0.0);
    // White b1 c1, Black far off (g7 f5), White to move: from a1 the bridge to d1 needs only
    // a1 and d1 (2).
    let mut h = Havannah::new(4, false).unwrap();
    play(&mut h, "b1 g7 c1 f5");
    assert_eq!(term(&h, "a1"), 5.0);
    assert_eq!(term(&h, "d1"), 5.0);
    assert_eq!(term(&h, "b1"), 0.0, "a taken cell");
    // Black on d1 instead: the bridge from a1 goes to a4 (4); the fork takes a1 (top edge
    // reached through b1), a2 and d2 e2 (through c1): 1 + 2 + 3 − 2 = 4. So d = 4.
    let mut h = Havannah::new(4, false).unwrap();
    play(&mut h, "b1 g7 c1 d1");
    assert_eq!(term(&h, "a1"), 3.0);
}

#[test]
fn distance_is_one_exactly_where_a_stone_wins_by_a_bridge_or_fork() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(47);
    let (mut cells, mut winning) = (0, 0);
    for game in 0..200 {
        let base = 4 + game % 3;
        let mut h = Havannah::new(base, false).unwrap();
        let mut moves = Vec::new();
        while h.outcome().is_none() {
            let me = h.to_move.index() as u8;
            let mut d = [features::FAR; MAX_CELLS];
            h.win_distances(me, &mut d);
            h.legal_moves(&mut moves);
            for &mv in &moves {
                let c = mv.0 as usize;
                let wins = h.joined_by(c, me).forks_or_bridges();
                assert_eq!(d[c] == 1, wins, "game {game} cell {c}: d = {}", d[c]);
                assert!(d[c] >= 1);
                cells += 1;
                winning += usize::from(wins);
            }
            h.try_play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
    }
    assert!(cells > 50_000 && winning > 200, "{cells} {winning}");
}

#[test]
fn distance_read_for_all_moves_at_once_is_each_moves_and_the_same_on_a_turned_board() {
    use crate::Features;
    use rand::{RngExt, SeedableRng};
    let base = 6;
    let k = term_index("distance");
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(48);
    let (mut moves, mut all) = (Vec::new(), Vec::new());
    let mut nonzero = 0;
    for _ in 0..20 {
        let mut h = Havannah::new(base, false).unwrap();
        let mut line = Vec::new();
        for _ in 0..rng.random_range(1..40) {
            h.legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            h.try_play(mv).unwrap();
            line.push(mv);
            if h.outcome().is_some() {
                break;
            }
        }
        h.legal_moves(&mut moves);
        assert!(h.knowledge_term_all(&moves, k, &mut all));
        assert_eq!(all.len(), moves.len());
        for (turns, mirror) in [(1, false), (3, true), (5, false)] {
            let mut t = Havannah::new(base, false).unwrap();
            for &mv in &line {
                t.try_play(symmetric_cell(base, mv, turns, mirror)).unwrap();
            }
            for (&mv, &v) in moves.iter().zip(&all) {
                assert_eq!(v, h.knowledge_term(mv, k));
                let there = symmetric_cell(base, mv, turns, mirror);
                assert_eq!(v, t.knowledge_term(there, k), "{turns} {mirror}");
                nonzero += usize::from(v != 0.0);
            }
        }
        // Other terms are read move by move.
        assert!(!h.knowledge_term_all(&moves, 0, &mut all));
    }
    assert!(nonzero > 500, "{nonzero}");
}

/// Size 5, White to move: five White stones round e5 (Black far off), d5 closes the ring.
fn ring_open_at_d5() -> Havannah {
    white_builds(
        5,
        &["d4", "e4", "f5", "f6", "e6"],
        &["i6", "i7", "i8", "h9", "g9"],
    )
}

#[test]
fn past_its_ring_depth_a_playout_copy_ignores_rings_but_not_bridges() {
    use crate::Features;
    // Size 5: White five stones round e5, d5 to close the ring (Black elsewhere).
    let before = ring_open_at_d5();
    let d5 = before.parse_move("d5").unwrap();
    // The rules: the ring wins.
    let mut rules = before.clone();
    rules.play(d5);
    assert_eq!(rules.outcome(), Some(Outcome::Win(Player::ZERO)));
    // A share of the empty cells larger than the one move: rings still count.
    let mut early = before.clone();
    early.ring_depth(0.5);
    early.play(d5);
    assert_eq!(early.outcome(), Some(Outcome::Win(Player::ZERO)));
    // Depth 0: past it at once, the ring is ignored and the game goes on, Black to move.
    let mut late = before.clone();
    late.ring_depth(0.0);
    late.play(d5);
    assert_eq!(late.outcome(), None);
    assert_eq!(late.to_move(), Some(Player::ONE));
    // A bridge still wins past the depth: corners a1 and d1 along the top edge of size 4.
    let mut h = white_builds(4, &["a1", "b1", "c1"], &["a4", "b5", "c6"]);
    h.ring_depth(0.0);
    h.play(h.parse_move("d1").unwrap());
    assert_eq!(h.outcome(), Some(Outcome::Win(Player::ZERO)));
}

#[test]
fn under_ring_permanence_a_ring_wins_only_with_enough_stones_from_before_the_playout() {
    use crate::{Features, PermanentIn};
    let before = ring_open_at_d5();
    let d5 = before.parse_move("d5").unwrap();
    // Five of White's stones were there before: a ring needing 3 or 5 wins, 6 does not.
    for (stones, wins) in [(3, true), (5, true), (6, false)] {
        let mut h = before.clone();
        h.ring_permanence(stones, PermanentIn::Group);
        h.play(d5);
        assert_eq!(h.outcome().is_some(), wins, "{stones} permanent stones");
    }
    // A ring made wholly in the playout holds none: it does not win, and play goes on.
    let mut h = Havannah::new(5, false).unwrap();
    h.ring_permanence(1, PermanentIn::Group);
    let filler = ["i6", "i7", "i8", "h9", "g9", "a3"];
    for (w, b) in ["d4", "e4", "f5", "f6", "e6", "d5"].iter().zip(filler) {
        h.play(h.parse_move(w).unwrap());
        assert_eq!(h.outcome(), None, "{w}");
        h.play(h.parse_move(b).unwrap());
    }
    assert_eq!(h.outcome(), None);
}

/// Size 5: White's `old` stones, then `ring` (the six stones round e5, d5 last) played under
/// `needed` permanent stones counted in `counted`; whether d5 won.
fn ring_of_new_stones_wins(old: &[&str], needed: u32, counted: crate::PermanentIn) -> bool {
    use crate::Features;
    let filler = ["i6", "i7", "i8", "h9", "g9", "a3", "a4", "b6", "c7"];
    let mut h = white_builds(5, old, &filler);
    h.ring_permanence(needed, counted);
    let ring: Vec<&str> = ["d4", "e4", "f5", "f6", "e6", "d5"]
        .into_iter()
        .filter(|c| !old.contains(c))
        .collect();
    for (i, w) in ring.iter().enumerate() {
        assert_eq!(h.outcome(), None, "before {w}");
        play(&mut h, w);
        if i + 1 < ring.len() {
            play(&mut h, filler[old.len() + i]);
        }
    }
    h.outcome() == Some(Outcome::Win(Player::ZERO))
}

#[test]
fn ring_permanence_counted_in_the_ring_leaves_out_old_stones_of_the_group_off_the_ring() {
    use crate::PermanentIn::{Group, Ring};
    // An old tail a1 b2 c3 joins the new ring at d4: its group holds 3 old stones, the ring
    // none.
    let tail = ["a1", "b2", "c3"];
    assert!(ring_of_new_stones_wins(&tail, 3, Group));
    assert!(!ring_of_new_stones_wins(&tail, 3, Ring));
    assert!(!ring_of_new_stones_wins(&tail, 1, Ring));
    // With e4 old too, the ring holds one.
    let tail_and_e4 = ["a1", "b2", "c3", "e4"];
    assert!(ring_of_new_stones_wins(&tail_and_e4, 1, Ring));
    assert!(!ring_of_new_stones_wins(&tail_and_e4, 2, Ring));
    assert!(ring_of_new_stones_wins(&tail_and_e4, 4, Group));
    // Five of the six ring stones old: the ring holds 5, as the group does.
    let five = ["d4", "e4", "f5", "f6", "e6"];
    for (needed, wins) in [(3, true), (5, true), (6, false)] {
        assert_eq!(
            ring_of_new_stones_wins(&five, needed, Ring),
            wins,
            "{needed}"
        );
    }
    // A ring round White's own stone on e5 holds e5 only inside it, not on it.
    assert!(!ring_of_new_stones_wins(&["e5"], 1, Ring));
    assert!(ring_of_new_stones_wins(&["e5"], 1, Group));
}

#[test]
fn a_ring_counted_in_the_ring_is_never_counted_where_its_group_is_not() {
    use crate::{Features, PermanentIn};
    use rand::SeedableRng;
    // Random playouts from random middle games, one copy counting in the ring, one in the
    // group, the same moves in both: the ring's count is at most the group's, so the copy
    // counting in the ring never ends first, and sometimes later.
    let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
    let mut later = 0;
    for _ in 0..400 {
        let mut start = Havannah::new(6, false).unwrap();
        for _ in 0..24 {
            let mv = start.random_move(&mut rng, &mut Vec::new()).unwrap();
            start.play(mv);
            if start.outcome().is_some() {
                break;
            }
        }
        if start.outcome().is_some() {
            continue;
        }
        let (mut ring, mut group) = (start.clone(), start.clone());
        ring.ring_permanence(2, PermanentIn::Ring);
        group.ring_permanence(2, PermanentIn::Group);
        while ring.outcome().is_none() {
            let mv = ring.random_move(&mut rng, &mut Vec::new()).unwrap();
            ring.play(mv);
            if group.outcome().is_none() {
                group.play(mv);
            }
            assert!(ring.outcome().is_none() || group.outcome().is_some());
        }
        later += usize::from(ring.ply() > group.ply());
    }
    assert!(later > 0, "the two counts never differed");
}

/// The cell `(x, y)` of a board of `base`.
fn cell_at(base: usize, x: usize, y: usize) -> Cell {
    Cell((x + (2 * base - 1) * y) as u16)
}

/// The index of Havannah's knowledge term `name` in `knowledge_terms` (the same on every
/// board).
fn term_index(name: &str) -> usize {
    use crate::Features;
    (Havannah::default().knowledge_terms().iter())
        .position(|&t| t == name)
        .unwrap()
}

/// `cell` under one of the board's twelve symmetries about its centre: `turns` 60° turns
/// (u, v) → (u − v, u) after the mirror (u, v) → (v, u) if `mirror`, on coordinates from
/// the centre.
fn symmetric_cell(base: usize, cell: Cell, turns: u32, mirror: bool) -> Cell {
    let m = base as i32 - 1;
    let d = 2 * base as i32 - 1;
    let (mut u, mut v) = (cell.0 as i32 % d - m, cell.0 as i32 / d - m);
    if mirror {
        (u, v) = (v, u);
    }
    for _ in 0..turns {
        (u, v) = (u - v, u);
    }
    cell_at(base, (u + m) as usize, (v + m) as usize)
}

#[test]
fn a_shape_numbers_each_place_by_its_state_with_the_lowest_number_its_symmetries_give() {
    use crate::Features;
    // Size 5, the centre (4, 4): an empty neighbourhood is shape 0.
    let mut h = Havannah::new(5, false).unwrap();
    let centre = cell_at(5, 4, 4);
    assert_eq!(h.move_shape(centre), Some(0));
    // White's stone beside it: White sees its own stone (1) at place 0, the lowest; Black,
    // to move after it, sees an opponent's stone (2) there.
    h.try_play(cell_at(5, 5, 4)).unwrap();
    assert_eq!(h.move_shape(centre), Some(2), "Black to move");
    let mut w = Havannah::new(5, false).unwrap();
    w.try_play(cell_at(5, 5, 4)).unwrap();
    w.try_play(cell_at(5, 0, 0)).unwrap();
    assert_eq!(w.move_shape(centre), Some(1), "White to move");
    // A stone a bridge away only (two steps, between two neighbours): place 6, bits 12–13.
    let mut b = Havannah::new(5, false).unwrap();
    b.try_play(cell_at(5, 6, 5)).unwrap();
    assert_eq!(b.move_shape(centre), Some(2 << 12));
    // A taken cell and a finished game have no shape.
    assert_eq!(b.move_shape(cell_at(5, 6, 5)), None);
    // The corner (0, 0) of size 4: three neighbours and four bridge places off the board,
    // three neighbours and two bridge places on it. Whatever the lowest number is, it holds
    // seven 3s and five 0s, so it is odd and has fourteen bits set.
    let h4 = Havannah::new(4, false).unwrap();
    let corner = h4.move_shape(cell_at(4, 0, 0)).unwrap();
    assert_eq!(corner.count_ones(), 14);
    let states: Vec<u32> = (0..12).map(|i| (corner >> (2 * i)) & 3).collect();
    assert_eq!(states.iter().filter(|&&s| s == 3).count(), 7);
    assert_eq!(states.iter().filter(|&&s| s == 0).count(), 5);
    // Every corner has the same shape.
    for (x, y) in [(3, 0), (6, 3), (6, 6), (3, 6), (0, 3)] {
        assert_eq!(h4.move_shape(cell_at(4, x, y)), Some(corner), "({x}, {y})");
    }
}

#[test]
fn a_wide_shape_adds_the_cells_two_steps_along_a_line_and_fixes_the_shape_within_it() {
    use crate::Features;
    let mut h = Havannah::new(5, false).unwrap();
    let centre = cell_at(5, 4, 4);
    assert_eq!(h.move_wide_shape(centre), Some(0));
    // A stone two steps along a line, (6, 4) from (4, 4): outside the twelve places (the
    // shape is still 0), at an outer place of the wide shape, the lowest being place 12.
    h.try_play(cell_at(5, 6, 4)).unwrap();
    assert_eq!(h.move_shape(centre), Some(0));
    assert_eq!(
        h.move_wide_shape(centre),
        Some(2 << 24),
        "Black sees White's stone"
    );
    // A taken cell has no wide shape.
    assert_eq!(h.move_wide_shape(cell_at(5, 6, 4)), None);
    // In any position, each move's wide shape holds its shape in one of its turns: the low
    // 24 bits' lowest turn is the shape.
    let mut p = Havannah::new(6, false).unwrap();
    play(&mut p, "f6 g7 e5 h8 d6 f8 g5 c3");
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut differs = 0;
    for &mv in &moves {
        let wide = p.move_wide_shape(mv).unwrap();
        assert!(wide < crate::shapes::WIDE_CONTEXT_UNIT);
        let inner = super::shape::lowest_turn((wide & 0xff_ffff) as u32);
        assert_eq!(Some(inner), p.move_shape(mv), "{}", p.move_text(mv));
        differs += usize::from(wide >> 24 != 0);
    }
    assert!(differs > 10, "{differs} moves see a stone two steps out");
}

#[test]
fn a_shape_reader_gives_a_moves_wide_shape_where_the_file_has_it_and_its_shape_where_not() {
    use crate::Features;
    use crate::shapes::{ShapeReader, key, wide_key};
    let mut h = Havannah::new(6, false).unwrap();
    play(&mut h, "f6 g7 e5 h8");
    let mut moves = Vec::new();
    h.legal_moves(&mut moves);
    let seen = |mv: Cell| {
        let (c, s, w) = (
            h.shape_context(mv),
            h.move_shape(mv).unwrap(),
            h.move_wide_shape(mv).unwrap(),
        );
        (key(s, c), wide_key(w, c))
    };
    // Two moves of one shape and context whose wide shapes differ.
    let (a, b) = moves
        .iter()
        .flat_map(|&a| moves.iter().map(move |&b| (a, b)))
        .find(|&(a, b)| seen(a).0 == seen(b).0 && seen(a).1 != seen(b).1)
        .expect("two such moves");
    let (shape, wide_a) = seen(a);
    let mut file = vec![(u64::from(shape), 1.0), (wide_a, 2.5)];
    file.sort_unstable_by_key(|&(k, _)| k);
    let reader = ShapeReader::new(&file);
    assert!(reader.in_context() && reader.has_wide());
    assert_eq!(reader.weight(&h, a), Some(2.5), "a's wide shape");
    assert_eq!(
        reader.weight(&h, b),
        Some(1.0),
        "b's wide shape is missing: its shape"
    );
    let other = moves
        .iter()
        .find(|&&m| seen(m).0 != shape)
        .copied()
        .unwrap();
    assert_eq!(
        reader.weight(&h, other),
        None,
        "neither: the average candidate"
    );
    // A file of shapes only reads its shapes.
    let narrow = ShapeReader::new(&[(u64::from(shape), 1.0)]);
    assert!(!narrow.has_wide());
    assert_eq!(
        (narrow.weight(&h, a), narrow.weight(&h, b)),
        (Some(1.0), Some(1.0))
    );
}

#[test]
fn a_shapes_context_is_its_distance_to_the_last_stone_up_to_3_and_0_before_the_first() {
    use crate::Features;
    let mut h = Havannah::new(5, false).unwrap();
    assert_eq!(h.shape_context(cell_at(5, 4, 4)), 0, "no stone yet");
    h.try_play(cell_at(5, 5, 4)).unwrap();
    // From (5, 4): neighbours differ by (±1, 0), (0, ±1) or ±(1, 1).
    for ((x, y), d) in [
        ((4, 4), 1),
        ((6, 5), 1),
        ((4, 3), 1),
        ((3, 4), 2),
        ((3, 3), 2),
        ((5, 6), 2),
        ((8, 4), 3),
        ((1, 1), 3), // 4 steps, counted as 3
    ] {
        assert_eq!(h.shape_context(cell_at(5, x, y)), d, "({x}, {y})");
    }
    // The next stone is the last one now.
    h.try_play(cell_at(5, 1, 1)).unwrap();
    assert_eq!(h.shape_context(cell_at(5, 1, 2)), 1);
    assert_eq!(h.shape_context(cell_at(5, 4, 4)), 3);
    assert_eq!(
        h.shape_context_names().map(|(_, name)| name),
        Some("distance")
    );
}

#[test]
fn a_cells_shape_and_its_weight_are_the_same_after_any_turn_or_mirror_of_the_board() {
    use crate::Features;
    use rand::{RngExt, SeedableRng};
    let base = 6;
    let map = |cell: Cell, turns: u32, mirror: bool| symmetric_cell(base, cell, turns, mirror);
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(46);
    let (mut compared, mut weighed) = (0, 0);
    let k = term_index("shape");
    for _ in 0..20 {
        let mut h = Havannah::new(base, false).unwrap();
        let mut line = Vec::new();
        let plies = rng.random_range(1..40);
        let mut moves = Vec::new();
        while line.len() < plies && h.outcome().is_none() {
            h.legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            h.try_play(mv).unwrap();
            line.push(mv);
        }
        for turns in 0..6 {
            for mirror in [false, true] {
                let mut t = Havannah::new(base, false).unwrap();
                for &mv in &line {
                    t.try_play(map(mv, turns, mirror)).unwrap();
                }
                h.legal_moves(&mut moves);
                for &mv in &moves {
                    let there = map(mv, turns, mirror);
                    assert_eq!(h.move_shape(mv), t.move_shape(there), "{turns} {mirror}");
                    assert_eq!(h.move_wide_shape(mv), t.move_wide_shape(there));
                    // The weight is read from the shape as it lies, through a table of every
                    // symmetry: the same however the board is turned.
                    assert_eq!(h.knowledge_term(mv, k), t.knowledge_term(there, k));
                    compared += 1;
                    weighed += usize::from(h.knowledge_term(mv, k) != 0.0);
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
    assert!(
        weighed > compared / 2,
        "{weighed} of {compared} shapes shipped"
    );
}

#[test]
fn the_shipped_shape_weights_are_lowest_numbered_finite_and_read_by_the_shape_term() {
    use crate::Features;
    let table = super::shape::shipped_shapes();
    assert!(table.len() > 100, "{} shapes", table.len());
    assert!(
        table.windows(2).all(|w| w[0].0 < w[1].0),
        "sorted, no repeats"
    );
    assert!(table.iter().all(|&(_, w)| w.is_finite()));
    // Each shipped shape is the lowest number of its symmetries: found again as the shape of
    // a cell whose surroundings are set to it.
    let h = Havannah::new(8, false).unwrap();
    let k = term_index("shape");
    let mut checked = 0;
    for &(key, weight) in table.iter().step_by(7) {
        let states: Vec<u32> = (0..12).map(|i| (key >> (2 * i)) & 3).collect();
        // Shapes that touch the edge need a cell on it; place the interior ones at the centre.
        if states.contains(&3) {
            continue;
        }
        let mut p = Havannah::new(8, false).unwrap();
        let centre = (7, 7);
        let cells: Vec<(Cell, u32)> = (0..12)
            .map(|i| {
                let (dx, dy) = super::shape::place(i);
                (
                    cell_at(8, (centre.0 + dx) as usize, (centre.1 + dy) as usize),
                    states[i],
                )
            })
            .collect();
        p.set_for_test(&cells);
        let mv = cell_at(8, 7, 7);
        assert_eq!(p.move_shape(mv), Some(key));
        assert_eq!(p.knowledge_term(mv, k), f64::from(weight));
        checked += 1;
    }
    assert!(checked > 10, "{checked}");
    let _ = h;
}

#[test]
fn the_shape_wide_term_reads_a_moves_wide_shape_where_the_shipped_fit_has_it_else_its_shape() {
    a_wide_term_reads_a_moves_wide_shape_where_its_file_has_it_else_its_shape(
        "shape_wide",
        "shapes-wide.txt",
    );
}

#[test]
fn the_shape_wide2_term_reads_a_moves_wide_shape_where_the_refit_has_it_else_its_shape() {
    a_wide_term_reads_a_moves_wide_shape_where_its_file_has_it_else_its_shape(
        "shape_wide2",
        "shapes-wide2.txt",
    );
}

/// Checks that knowledge term `term` gives each legal move of a size-8 position the weight
/// of its wide shape in context where shipped file `file` has it, else its shape's, else 0,
/// and that both kinds of line are read.
fn a_wide_term_reads_a_moves_wide_shape_where_its_file_has_it_else_its_shape(
    term: &str,
    file: &str,
) {
    use crate::Features;
    use crate::shapes::{key, wide_key};
    let path = format!("{}/src/games/havannah/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let weights = crate::shapes::parse_shape_weights(&text).unwrap();
    assert!(crate::shapes::in_context(&weights), "a fit in context");
    // Looked up here by a binary search of the sorted file, the term by the hash tables.
    let find = |k: u64| {
        weights
            .binary_search_by_key(&k, |&(key, _)| key)
            .ok()
            .map(|at| f64::from(weights[at].1))
    };
    let k = term_index(term);
    let mut h = Havannah::new(8, false).unwrap();
    play(&mut h, "h8 g7 i9 f8 g9 h7 e6");
    let mut moves = Vec::new();
    h.legal_moves(&mut moves);
    let (mut wide, mut narrow) = (0, 0);
    for &mv in &moves {
        let context = h.shape_context(mv);
        let w = find(wide_key(h.move_wide_shape(mv).unwrap(), context));
        let n = find(u64::from(key(h.move_shape(mv).unwrap(), context)));
        assert_eq!(
            h.knowledge_term(mv, k),
            w.or(n).unwrap_or(0.0),
            "{}",
            h.move_text(mv)
        );
        wide += usize::from(w.is_some());
        narrow += usize::from(w.is_none() && n.is_some());
    }
    assert!(
        wide > 5 && narrow > 0,
        "{wide} wide, {narrow} by their shape"
    );
}

#[test]
fn the_shape_ctx_term_reads_the_shipped_context_fit_by_shape_and_distance_to_the_last_stone() {
    use crate::Features;
    let table = super::shape::shipped_context_shapes();
    let wide: Vec<(u64, f32)> = table.iter().map(|&(k, w)| (u64::from(k), w)).collect();
    assert!(crate::shapes::in_context(&wide), "a fit in context");
    assert!(table.iter().all(|&(_, w)| w.is_finite()));
    // Looked up here by a binary search of the sorted file, the term by the hash table.
    let weight = |key: u32| {
        table
            .binary_search_by_key(&key, |&(k, _)| k)
            .map_or(0.0, |at| f64::from(table[at].1))
    };
    let k = term_index("shape_ctx");
    let mut h = Havannah::new(8, false).unwrap();
    play(&mut h, "h8 g7 i9 f8 g9 h7 e6");
    let mut moves = Vec::new();
    h.legal_moves(&mut moves);
    let mut known = [0; 4];
    for &mv in &moves {
        let context = h.shape_context(mv);
        let key = crate::shapes::key(h.move_shape(mv).unwrap(), context);
        assert_eq!(h.knowledge_term(mv, k), weight(key), "{}", h.move_text(mv));
        if weight(key) != 0.0 {
            known[context as usize] += 1;
        }
    }
    assert!(
        known[1..].iter().all(|&n| n > 0),
        "each distance read: {known:?}"
    );
    // A stone's cell has no shape: 0.
    assert_eq!(h.knowledge_term(h.parse_move("h8").unwrap(), k), 0.0);
}

#[test]
fn near_last_move_names_the_empty_cells_of_the_last_stones_twelve_places_and_counts_the_rest() {
    use crate::Features;
    let names = |h: &Havannah| {
        let mut near = Vec::new();
        let elsewhere = h.near_last_move(&mut near);
        let mut names: Vec<String> = near.iter().map(|&c| h.move_text(c)).collect();
        names.sort();
        (names.join(" "), elsewhere)
    };
    let mut h = Havannah::new(4, false).unwrap();
    assert_eq!(names(&h), (String::new(), 0), "no stone yet");
    // Size 4 (37 cells). Black's a1 is a corner: three neighbours and two bridge cells on
    // the board, all empty; 37 − 2 stones − 5 elsewhere.
    play(&mut h, "d4 a1");
    assert_eq!(names(&h), ("a2 b1 b2 b3 c2".to_string(), 30));
    // White's b2: neighbours a1 (Black's, left out) b1 c2 c3 b3 a2; a bridge away c1 d3 c4
    // a3 (two places are off the board). d4 is two steps away, not near.
    play(&mut h, "b2");
    assert_eq!(
        names(&h),
        ("a2 a3 b1 b3 c1 c2 c3 c4 d3".to_string(), 37 - 3 - 9)
    );
    // While the swap is on offer (a move onto a stone) nothing is near.
    let mut s = Havannah::new(4, true).unwrap();
    play(&mut s, "d4");
    assert_eq!(names(&s), (String::new(), 0));
}

#[test]
fn every_turn_and_mirror_of_a_position_is_the_position_its_turned_moves_reach() {
    // Eleven symmetries besides the identity; the swap (a move on no empty cell) maps to
    // itself.
    for (base, swap) in [(4, false), (5, true)] {
        let start = Havannah::new(base, swap).unwrap();
        assert_eq!(crate::Features::grid_symmetries(&start).len(), 11);
        let checked = crate::conformance::check_grid_symmetries(&start, 12, 2);
        assert!(checked > 11 * 20, "size {base}: {checked}");
    }
}
