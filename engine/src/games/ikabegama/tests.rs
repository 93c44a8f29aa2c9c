use super::*;
use crate::conformance::check_random_games;
use crate::games::grow_jump::reference;

fn cells(game: &Ikabegama) -> Vec<char> {
    let drawn = game.board_rows().join("\n").replace(['l', 'd'], ".");
    game.grid().read_drawing(&drawn).unwrap()
}

fn reference_check(before: &Ikabegama, mv: GrowJump, after: &Ikabegama) -> Result<(), String> {
    let g = before.grid();
    let me = ['L', 'D'][before.to_move().unwrap().index()];
    let board = cells(before);
    let mut listed = Vec::new();
    before.legal_moves(&mut listed);
    let listed = listed.iter().map(|m| before.move_text(*m)).collect();
    let next = reference::check_step(g, &board, me, &listed, &before.move_text(mv), &cells(after))?;
    let [light_nest, dark_nest] = [before.nest(Player::ZERO), before.nest(Player::ONE)];
    // A token on the enemy nest wins first; then a side without tokens loses.
    let expected = if next[dark_nest] == 'L' {
        Some(Outcome::Win(Player::ZERO))
    } else if next[light_nest] == 'D' || !next.contains(&'L') {
        Some(Outcome::Win(Player::ONE))
    } else if !next.contains(&'D') {
        Some(Outcome::Win(Player::ZERO))
    } else if reference::moves(g, &next, 'L').contains("pass")
        && reference::moves(g, &next, 'D').contains("pass")
    {
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
fn default_start_puts_the_nests_four_apart_on_the_axis() {
    let game = Ikabegama::default();
    assert_eq!(game.grid().cells(), 127);
    assert_eq!(game.nest_distance(), 4);
    assert_eq!(game.board_rows()[6], ". . . . L . . . D . . . .");
    assert_eq!(game.to_move(), Some(Player::ZERO));
    let far = Ikabegama::with_distance(9, 6).unwrap();
    assert_eq!(far.nest_distance(), 6);
    let odd = Ikabegama::with_distance(7, 5).unwrap();
    assert_eq!(odd.nest_distance(), 5);
}

#[test]
fn growth_onto_the_enemy_nest_wins() {
    // Light stands next to the empty Dark nest (drawn d); Dark's token has wandered off.
    let game = Ikabegama::with_nest_cells(3, "c1", "c3").unwrap();
    let mut game = game
        .set_up("  . . .\n . . . D\nL . d L .\n . . . .\n  . . .")
        .unwrap();
    assert_eq!(game.outcome(), None);
    game.play(game.parse_move("c3").unwrap());
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::ZERO)));
}

#[test]
fn a_jump_onto_the_enemy_nest_wins() {
    let game = Ikabegama::with_nest_cells(3, "c1", "c3").unwrap();
    let mut game = game
        .set_up("  . . .\n . . . .\nL . d . L\n . . . .\n  . . D")
        .unwrap();
    game.play(game.parse_move("c5-c3").unwrap());
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::ZERO)));
    assert!(game.tokens().0[0].has(game.nest(Player::ONE)));
}

#[test]
fn flipping_the_token_on_the_enemy_nest_wins() {
    // Dark sits on its own nest c3; Light grows next to it and the flip puts Light on the nest.
    let game = Ikabegama::with_nest_cells(3, "c1", "c3").unwrap();
    let mut game = game
        .set_up("  . . .\n . . . .\nL L D . .\n . . . .\n  . . .")
        .unwrap();
    game.play(game.parse_move("b2").unwrap());
    assert!(
        game.tokens().0[0].has(game.nest(Player::ONE)),
        "the nest token turned Light"
    );
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::ZERO)));
}

#[test]
fn a_player_with_no_tokens_loses() {
    let game = Ikabegama::with_nest_cells(3, "a1", "e3").unwrap();
    let mut game = game
        .set_up("  l . .\n . . . .\n. L D . .\n . . . .\n  . . d\nto_move light")
        .unwrap();
    // Growing on b2 (next to both) flips Dark's only token.
    game.play(game.parse_move("b2").unwrap());
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::ZERO)));
}

#[test]
fn pass_only_when_nothing_else_is_legal() {
    let game = Ikabegama::with_nest_cells(3, "a1", "e3").unwrap();
    let walled = "  L D D\n D D D .\nD D D . .\n . . . .\n  . . d";
    let light = game.set_up(walled).unwrap();
    let mut moves = Vec::new();
    light.legal_moves(&mut moves);
    assert_eq!(moves, vec![GrowJump::Pass]);
    let mut after = light;
    after.play(GrowJump::Pass);
    assert_eq!(after.to_move(), Some(Player::ONE));
    let dark = game.set_up(&format!("{walled}\nto_move dark")).unwrap();
    assert!(!dark.is_legal(GrowJump::Pass));
}

#[test]
fn adjacent_nests_let_the_first_player_win_at_once() {
    // The seed's observation for close nests, at its extreme: distance 1.
    let start = Ikabegama::with_distance(7, 1).unwrap();
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    let winning = moves.iter().filter(|&&m| {
        let mut s = start;
        s.play(m);
        s.outcome() == Some(Outcome::Win(Player::ZERO))
    });
    assert!(
        winning.count() >= 2,
        "growths next to the Dark nest flip it"
    );
}

#[test]
fn conformance_with_near_and_far_nests() {
    for (game, games) in [
        (Ikabegama::with_distance(4, 2).unwrap(), 200),
        (Ikabegama::default(), 60),
        (Ikabegama::with_nest_cells(5, "a1", "i5").unwrap(), 40),
    ] {
        let c = check_random_games(&game, games, 41, 600, reference_check);
        assert!(c.plies > 500, "{c:?}");
    }
}

#[test]
fn nest_distance_and_nest_guard_measure_the_race_and_the_wall() {
    // Side 3, Light nest c1, Dark nest c5 (drawn l and d when empty). Light: c1 (its nest) and
    // c2; Dark: c5 and a1.
    let game = Ikabegama::with_nest_cells(3, "c1", "c5").unwrap();
    let game = game
        .set_up("  D . .\n . . . .\nL L . . D\n . . . .\n  . . .")
        .unwrap();
    let value = |p, name| crate::Features::feature(&game, p, name).unwrap();
    // Light's nearest token to c5 is c2, three cells away.
    assert_eq!(value(Player::ZERO, "nest_distance"), -3.0);
    // Dark's nearest to c1: a1 is two cells from c1 (a1-b1-c1), c5 four.
    assert_eq!(value(Player::ONE, "nest_distance"), -2.0);
    // Within two cells of its own nest: Light c1, c2; Dark c5 only (a1 is four from c5).
    assert_eq!(value(Player::ZERO, "nest_guard"), 2.0);
    assert_eq!(value(Player::ONE, "nest_guard"), 1.0);
    // Empty cells next to c1 or c2: b1, b2, c3, d1, d2.
    assert_eq!(value(Player::ZERO, "growths"), 5.0);
}

#[test]
fn ikabegama_counts_no_score_from_start_to_end() {
    // A nest reached or an army lost decides the game; the rules count no points.
    let mut game = Ikabegama::default();
    let mut rng = crate::seeded_rng(5, 0);
    let mut moves = Vec::new();
    for _ in 0..400 {
        assert_eq!(game.scores(), None);
        let Some(mv) = game.random_move(&mut rng, &mut moves) else {
            break;
        };
        game.play(mv);
    }
    assert!(
        game.outcome().is_some(),
        "a random game of 400 plies did not end"
    );
}

#[test]
fn an_illegal_move_is_explained_in_words() {
    // Dark, walled in with moves left, may not pass; a growth onto a token is refused too.
    let game = Ikabegama::with_nest_cells(3, "a1", "e3").unwrap();
    let walled = "  L D D\n D D D .\nD D D . .\n . . . .\n  . . d\nto_move dark";
    let dark = game.set_up(walled).unwrap();
    assert_eq!(
        dark.why_illegal(GrowJump::Pass),
        "you may pass only when you have no growth and no jump"
    );
    let onto = dark.parse_move("a1").unwrap();
    assert!(!dark.is_legal(onto));
    assert_eq!(dark.why_illegal(onto), "cell a1 is not empty");
}

#[test]
fn a_board_where_neither_side_can_move_is_a_draw() {
    // Every cell full, each nest under its own token: no growth, no jump, no win.
    let game = Ikabegama::with_nest_cells(3, "a1", "e3").unwrap();
    let full = game
        .set_up("  L L L\n L L L L\nL L L D D\n D D D D\n  D D D")
        .unwrap();
    assert_eq!(
        full.outcome(),
        Some(Outcome::Draw),
        "{}",
        full.board_rows().join("\n")
    );
}

#[test]
fn a_side_without_tokens_is_twice_the_side_from_the_enemy_nest() {
    let game = Ikabegama::with_nest_cells(3, "a1", "e3").unwrap();
    let no_light = game
        .set_up("  . . .\n . . . .\n. . D . .\n . . . .\n  . . .")
        .unwrap();
    let mut out = [0.0; crate::MAX_FEATURES];
    crate::Features::features(&no_light, Player::ZERO, &mut out);
    assert_eq!(out[4], -6.0, "2 x side 3");
}

#[test]
fn nests_may_stand_from_one_cell_apart_to_the_two_ends_of_the_axis() {
    // Side 3: the axis has 5 cells, so the farthest nests are 4 apart, at its two ends.
    let ends = Ikabegama::with_distance(3, 4).unwrap();
    assert_eq!(ends.nest_distance(), 4);
    assert_eq!(ends.board_rows()[2], "L . . . D");
    for distance in [0, 5] {
        let e = Ikabegama::with_distance(3, distance).expect_err("no such nests");
        let want = format!("ikabegama: distance must be from 1 to 4 on side 3, not {distance}");
        assert_eq!(e.reason, want);
    }
}
