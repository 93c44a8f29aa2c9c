use std::collections::BTreeSet;

use super::*;
use crate::conformance::check_random_games;
use crate::error::SpecErrorKind;
use crate::games::grow_jump::reference::distance;
use crate::seeded_rng;

fn cells(game: &Advance) -> Vec<char> {
    game.grid()
        .read_drawing(&game.board_rows().join("\n"))
        .unwrap()
}

/// Every legal move by brute force over coordinates, as text.
fn reference_moves(game: &Advance, board: &[char], me: char) -> BTreeSet<String> {
    let g = game.grid();
    let them = if me == 'X' { 'O' } else { 'X' };
    let n = board.len();
    let at = |c: usize| g.coords(c);
    let mut out = BTreeSet::new();
    for a in (0..n).filter(|&a| board[a] == me) {
        for b in (0..n).filter(|&b| board[b] == '.') {
            for c in (b + 1..n).filter(|&c| board[c] == '.') {
                if distance(at(a), at(b)) == 1
                    && distance(at(a), at(c)) == 1
                    && distance(at(b), at(c)) == 1
                {
                    out.insert(format!(
                        "{}>{}+{}",
                        g.cell_name(a),
                        g.cell_name(b),
                        g.cell_name(c)
                    ));
                }
            }
        }
        for p3 in (0..n).filter(|&p| board[p] == them) {
            let (dq, dr) = (at(p3).0 - at(a).0, at(p3).1 - at(a).1);
            if distance(at(a), at(p3)) == 2 && dq % 2 == 0 && dr % 2 == 0 {
                let p2 = g.cell_at(at(a).0 + dq / 2, at(a).1 + dr / 2).unwrap() as usize;
                if board[p2] == me {
                    out.insert(format!("{}x{}", g.cell_name(a), g.cell_name(p3)));
                }
            }
        }
    }
    let mine: Vec<usize> = (0..n).filter(|&a| board[a] == me).collect();
    if mine.len() > 1 || out.is_empty() {
        out.extend(mine.iter().map(|&a| format!("-{}", g.cell_name(a))));
    }
    out
}

fn reference_check(before: &Advance, mv: AdvanceMove, after: &Advance) -> Result<(), String> {
    let g = before.grid();
    let mover = before.to_move().unwrap();
    let me = ['X', 'O'][mover.index()];
    let board = cells(before);
    let mut listed = Vec::new();
    before.legal_moves(&mut listed);
    let listed: BTreeSet<String> = listed.iter().map(|m| before.move_text(*m)).collect();
    let expected = reference_moves(before, &board, me);
    if listed != expected {
        return Err(format!("moves {listed:?}, reference {expected:?}"));
    }
    let text = before.move_text(mv);
    let mut next = board.clone();
    let mut captured = [before.captured(Player::ZERO), before.captured(Player::ONE)];
    if let Some(a) = text.strip_prefix('-') {
        next[g.parse_cell(a).unwrap()] = '.';
    } else if let Some((a, bc)) = text.split_once('>') {
        let (b, c) = bc.split_once('+').unwrap();
        next[g.parse_cell(a).unwrap()] = '.';
        next[g.parse_cell(b).unwrap()] = me;
        next[g.parse_cell(c).unwrap()] = me;
    } else {
        let (p1, p3) = text.split_once('x').unwrap();
        let (p1, p3) = (
            g.coords(g.parse_cell(p1).unwrap()),
            g.parse_cell(p3).unwrap(),
        );
        let p2 = g
            .cell_at((p1.0 + g.coords(p3).0) / 2, (p1.1 + g.coords(p3).1) / 2)
            .unwrap() as usize;
        next[p2] = '.';
        next[p3] = me;
        captured[mover.index()] += 1;
    }
    if next != cells(after) {
        return Err(format!(
            "board after {text} differs:\n{}",
            after.board_rows().join("\n")
        ));
    }
    let score = |p: Player, ch: char| {
        next.iter().filter(|&&c| c == ch).count() as f64
            + captured[p.index()] as f64
            + if p == before.starter() { 0.0 } else { 0.5 }
    };
    let (x, o) = (score(Player::ZERO, 'X'), score(Player::ONE, 'O'));
    if after.scores() != Some([x, o]) {
        return Err(format!(
            "scores {:?}, reference {:?}",
            after.scores(),
            [x, o]
        ));
    }
    // No token left loses; otherwise a lead of more than 10 wins.
    let expected = if !next.contains(&'X') || (next.contains(&'O') && o - x > 10.0) {
        Some(Outcome::Win(Player::ONE))
    } else if !next.contains(&'O') || x - o > 10.0 {
        Some(Outcome::Win(Player::ZERO))
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

fn on(side: usize, board: &str) -> Advance {
    Advance::with_offset(side, 1)
        .unwrap()
        .set_up(board)
        .unwrap()
}

#[test]
fn default_start_is_one_token_each_three_from_the_centre() {
    let game = Advance::default();
    assert_eq!(game.grid().cells(), 91);
    assert_eq!(game.board_rows()[5], ". . X . . . . . O . .");
    assert_eq!(
        game.scores(),
        Some([1.0, 1.5]),
        "X moves first until drawn; O gets the half point"
    );
}

#[test]
fn attack_works_in_each_of_the_six_directions_and_no_other() {
    let g = hex::grid(5);
    let centre = g.centre();
    for dir in 0..6 {
        let [p1, p2, p3] = g.line3(centre, dir).unwrap();
        let mut board = vec!['.'; g.cells()];
        board[p1] = 'X';
        board[p2] = 'X';
        board[p3] = 'O';
        // A spare O token far away so O is not wiped out.
        let spare = (0..g.cells())
            .find(|&c| g.distance(c, centre) == 4 && g.distance(c, p3) > 2)
            .unwrap();
        board[spare] = 'O';
        let drawn = g.draw(|c| board[c]).join("\n");
        let mut game = on(5, &drawn);
        let text = format!("{}x{}", g.cell_name(p1), g.cell_name(p3));
        let mv = game.parse_move(&text).unwrap();
        assert_eq!(
            mv,
            AdvanceMove::Attack {
                from: p1 as u8,
                dir: dir as u8
            }
        );
        // A direction past the sixth or a cell off the board is refused.
        for bad in [
            AdvanceMove::Attack {
                from: p1 as u8,
                dir: 6,
            },
            AdvanceMove::Advance {
                from: p1 as u8,
                dir: 6,
            },
            AdvanceMove::Attack {
                from: g.cells() as u8,
                dir: dir as u8,
            },
            AdvanceMove::Advance {
                from: g.cells() as u8,
                dir: dir as u8,
            },
        ] {
            assert!(!game.is_legal(bad), "{bad:?}");
        }
        game.play(mv);
        assert!(
            game.tokens(Player::ZERO).has(p1) && game.tokens(Player::ZERO).has(p3),
            "{text}"
        );
        assert!(
            !game.tokens(Player::ZERO).has(p2) && !game.tokens(Player::ONE).has(p3),
            "{text}"
        );
        assert_eq!(game.captured(Player::ZERO), 1);
        assert_eq!(
            game.scores(),
            Some([3.0, 1.5]),
            "2 on the board + 1 captured vs 1 + 0.5"
        );
    }
}

#[test]
fn advance_replaces_one_token_by_two_in_a_triangle() {
    let mut game = Advance::default().with_first(Player::ZERO);
    game.play(game.parse_move("f3>e3+f4").unwrap());
    assert_eq!(game.tokens(Player::ZERO).count(), 2);
    assert_eq!(
        game.move_text(game.parse_move("f3>f4+e3").unwrap()),
        "f3>e3+f4",
        "B and C print in reading order"
    );
    assert!(game.parse_move("f3>f4+f6").is_err(), "not a triangle");
}

#[test]
fn last_token_may_be_sacrificed_only_when_nothing_else_is_legal() {
    let game = Advance::default().with_first(Player::ZERO);
    let x = game.tokens(Player::ZERO).first().unwrap() as u8;
    assert!(!game.is_legal(AdvanceMove::Sacrifice(x)));
    assert_eq!(
        game.why_illegal(AdvanceMove::Sacrifice(x)),
        "you may sacrifice your last token only when you have no other move"
    );
    // With two tokens either may be sacrificed.
    let mut two = game;
    two.play(two.parse_move("f3>e3+f4").unwrap());
    two.play(two.parse_move("f9>e8+f8").unwrap());
    assert!(two.is_legal(two.parse_move("-e3").unwrap()));
    // X's last token in the corner, both triangles blocked by O: the sacrifice is forced, and
    // it loses.
    let boxed = on(3, "  X O O\n O . . .\n. . . . .\n . . . .\n  . . .");
    let mut moves = Vec::new();
    boxed.legal_moves(&mut moves);
    assert_eq!(moves, vec![AdvanceMove::Sacrifice(0)]);
    let mut after = boxed;
    after.play(moves[0]);
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::ONE)));
}

#[test]
fn the_second_player_gets_half_a_point() {
    let x_first = Advance::default().with_first(Player::ZERO);
    assert_eq!(x_first.scores(), Some([1.0, 1.5]));
    let o_first = Advance::default().with_first(Player::ONE);
    assert_eq!(o_first.scores(), Some([1.5, 1.0]));
    assert_eq!(o_first.to_move(), Some(Player::ONE));
}

#[test]
fn a_lead_of_more_than_ten_wins_and_ten_or_less_does_not() {
    // X (who started): 1 token on the board + 10 captured = 11, against O's 1 + 0.5.
    let mut game = on(
        3,
        "  X . .\n . . . .\n. . . . .\n . . . .\n  . . O\ncaptured 10 0",
    );
    assert_eq!(game.scores(), Some([11.0, 1.5]));
    assert_eq!(game.outcome(), None, "9.5 is not more than 10");
    game.play(game.parse_move("a1>a2+b2").unwrap());
    assert_eq!(game.scores(), Some([12.0, 1.5]));
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::ZERO)), "10.5 is");
}

#[test]
fn the_first_player_is_drawn_from_the_seed_and_recorded_in_the_spec() {
    let mut starters = [0; 2];
    for seed in 0..200 {
        let mut game = Advance::default();
        game.randomize_start(&mut seeded_rng(seed, 0));
        let starter = game.starter();
        starters[starter.index()] += 1;
        assert_eq!(game.to_move(), Some(starter));
        assert!(
            game.spec()
                .ends_with(["first=x", "first=o"][starter.index()])
        );
        let mut again = Advance::default();
        again.randomize_start(&mut seeded_rng(seed, 0));
        assert_eq!(again, game, "the same seed draws the same starter");
    }
    assert!(starters[0] > 70 && starters[1] > 70, "{starters:?}");
    let mut fixed = Advance::default().with_first(Player::ONE);
    fixed.randomize_start(&mut seeded_rng(1, 0));
    assert_eq!(
        fixed.starter(),
        Player::ONE,
        "a fixed first player is not redrawn"
    );
}

#[test]
fn conformance_on_small_and_default_boards() {
    for (game, games) in [
        (Advance::with_offset(4, 2).unwrap(), 150),
        (Advance::default(), 60),
    ] {
        let c = check_random_games(&game, games, 51, 400, reference_check);
        assert!(c.plies > 1000, "{c:?}");
    }
}

#[test]
fn attacks_and_advances_count_what_a_player_could_do() {
    // X a1, a2 and O a3 on one line: X has the attack a1xa3. X's advances: a1 with b1+b2,
    // a2 with b2+b3 (the other triangles hold a token). O in the corner a3: b3+b4 only.
    let game = on(3, "  X X O\n . . . .\n. . . . .\n . . . .\n  . . .");
    let value = |p, name| crate::Features::feature(&game, p, name).unwrap();
    assert_eq!(value(Player::ZERO, "attacks"), 1.0);
    assert_eq!(value(Player::ONE, "attacks"), 0.0);
    assert_eq!(value(Player::ZERO, "advances"), 2.0);
    assert_eq!(value(Player::ONE, "advances"), 1.0);
    assert_eq!(value(Player::ZERO, "tokens"), 2.0);
    assert_eq!(value(Player::ONE, "tokens"), 1.0);
    // material is the score: O moved second and has the half point.
    assert_eq!(value(Player::ONE, "material"), 1.5);
    let captured = on(
        3,
        "  X X O\n . . . .\n. . . . .\n . . . .\n  . . .\ncaptured 4 0",
    );
    assert_eq!(
        crate::Features::feature(&captured, Player::ZERO, "material"),
        Some(6.0)
    );
    assert_eq!(
        crate::Features::feature(&captured, Player::ZERO, "tokens"),
        Some(2.0)
    );
}

#[test]
fn a_set_up_position_starts_at_ply_0_with_nothing_captured_and_its_starter_fixed() {
    let board = Advance::default().board_rows().join("\n");
    let text = format!("{board}\nstarter o\nto_move o");
    // From the default game, whose first player is still to be drawn: the drawing names
    // the starter, so no seed redraws it and the spec records it.
    let set = Advance::default().set_up(&text).unwrap();
    assert_eq!((set.ply(), set.starter()), (0, Player::ONE));
    assert!(set.spec().ends_with("first=o"), "{}", set.spec());
    for seed in 0..20 {
        let mut drawn = set;
        drawn.randomize_start(&mut seeded_rng(seed, 0));
        assert_eq!(drawn, set, "seed {seed}");
    }
    // From a game under way (two and one captured, a move played): nothing carries over.
    let mut under_way = Advance::default()
        .set_up(&format!("{board}\ncaptured 2 1"))
        .unwrap();
    let mut moves = Vec::new();
    under_way.legal_moves(&mut moves);
    under_way.play(moves[0]);
    assert_eq!(under_way.captured(Player::ZERO), 2);
    let again = under_way.set_up(&text).unwrap();
    assert_eq!(again, set);
    assert_eq!(
        again.captured(Player::ZERO) + again.captured(Player::ONE),
        0
    );
}

#[test]
fn move_numbers_follow_the_documented_order_advances_attacks_sacrifices_by_cell_and_direction() {
    // Every move listed in 40 random games of side 4, keyed by (kind, cell, direction).
    let key = |mv: AdvanceMove| match mv {
        AdvanceMove::Advance { from, dir } => (0, from, dir),
        AdvanceMove::Attack { from, dir } => (1, from, dir),
        AdvanceMove::Sacrifice(c) => (2, c, 0),
    };
    let mut numbered = std::collections::BTreeMap::new();
    let mut moves = Vec::new();
    for seed in 0..40 {
        let mut rng = seeded_rng(seed, 0);
        let mut game = Advance::with_offset(4, 2).unwrap();
        while game.outcome().is_none() && game.ply() < 200 {
            game.legal_moves(&mut moves);
            for &mv in &moves {
                numbered.insert(key(mv), game.move_index(mv));
            }
            let mv = moves[rand::RngExt::random_range(&mut rng, 0..moves.len())];
            game.play(mv);
        }
    }
    let kinds: BTreeSet<u8> = numbered.keys().map(|k| k.0).collect();
    assert_eq!(kinds.len(), 3, "advances, attacks and sacrifices all seen");
    let numbers: Vec<usize> = numbered.values().copied().collect();
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{numbered:?}");
}

#[test]
fn sides_outside_three_to_the_largest_board_are_refused_in_words() {
    for side in [0, 1, 2, hex::MAX_SIDE + 1] {
        let want = format!(
            "advance: side must be from 3 to {}, not {side}",
            hex::MAX_SIDE
        );
        let by_offset = Advance::with_offset(side, 1).expect_err("side out of range");
        assert_eq!(by_offset.kind, SpecErrorKind::BadValue);
        assert_eq!(by_offset.reason, want);
        let by_cells = Advance::with_start_cells(side, "a1", "b1").expect_err("side out of range");
        assert_eq!(by_cells.reason, want);
    }
    for side in [3, hex::MAX_SIDE] {
        assert!(Advance::with_offset(side, 1).is_ok(), "side {side}");
    }
}

#[test]
fn a_move_from_a_cell_without_ones_token_names_the_cell_or_its_number_past_the_board() {
    let game = Advance::with_offset(3, 1).unwrap().with_first(Player::ZERO);
    let cells = game.grid().cells();
    assert_eq!(cells, 19);
    let last = (cells - 1) as u8;
    assert_eq!(
        game.why_illegal(AdvanceMove::Sacrifice(last)),
        format!(
            "cell {} holds no token of yours",
            game.grid().cell_name(cells - 1)
        )
    );
    for past in [cells, 200] {
        assert_eq!(
            game.why_illegal(AdvanceMove::Sacrifice(past as u8)),
            format!("cell #{past} holds no token of yours")
        );
    }
}

#[test]
fn start_cells_given_by_name_hold_the_two_tokens_and_must_differ() {
    let game = Advance::with_start_cells(4, "a1", "g4").unwrap();
    let one = |name| Bb256::from_point(game.grid().parse_cell(name).unwrap());
    assert_eq!(game.tokens(Player::ZERO), one("a1"));
    assert_eq!(game.tokens(Player::ONE), one("g4"));
    let same = Advance::with_start_cells(4, "b2", "b2").expect_err("one cell for both");
    assert_eq!(same.reason, "advance: the two start cells must differ");
}

#[test]
fn offsets_of_zero_or_of_the_side_and_more_are_refused_in_words() {
    for (offset, ok) in [(0, false), (1, true), (3, true), (4, false), (9, false)] {
        match Advance::with_offset(4, offset) {
            Ok(_) => assert!(ok, "offset {offset} accepted"),
            Err(e) => {
                assert!(!ok, "offset {offset} refused");
                let want = format!("advance: offset must be from 1 to 3 on side 4, not {offset}");
                assert_eq!(e.reason, want);
            }
        }
    }
}

#[test]
fn the_spec_names_start_cells_off_the_axis_or_off_the_mirror_and_reads_back() {
    let g = hex::grid(4);
    let name = |q, r| g.cell_name(g.cell_at(q, r).unwrap() as usize);
    // X left of the centre but off the axis; X on the axis but O not its mirror image.
    for (x, o) in [((-1, 1), (2, 0)), ((-2, 0), (1, 0)), ((1, 0), (-1, 0))] {
        let (xn, on) = (name(x.0, x.1), name(o.0, o.1));
        let game = Advance::with_start_cells(4, &xn, &on).unwrap();
        let spec = game.spec();
        assert!(spec.contains(&format!("x={xn},o={on}")), "{spec}");
        assert_eq!(crate::registry::AnyGame::parse(&spec).unwrap().spec(), spec);
    }
    // On the axis and mirrored, X on the left: the offset says it.
    let mirrored = Advance::with_start_cells(4, &name(-2, 0), &name(2, 0)).unwrap();
    assert!(mirrored.spec().contains("offset=2"), "{}", mirrored.spec());
}
