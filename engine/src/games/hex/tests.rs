use super::*;
use crate::conformance::check_random_games;

/// Plays moves given by name.
fn play(g: &mut Hex, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = g.parse_move(m).unwrap();
        g.try_play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn cells(g: &Hex) -> Vec<char> {
    g.board_cells().concat().chars().collect()
}

/// Whether `mark`'s stones join its edges, by a plain flood fill over the grid.
fn joined(board: &[char], n: usize, mark: char) -> bool {
    let black = mark == 'B';
    let mut seen = vec![false; n * n];
    let mut stack: Vec<(usize, usize)> = (0..n)
        .map(|k| if black { (0, k) } else { (k, 0) })
        .filter(|&(r, c)| board[r * n + c] == mark)
        .collect();
    while let Some((r, c)) = stack.pop() {
        if std::mem::replace(&mut seen[r * n + c], true) {
            continue;
        }
        if (black && r == n - 1) || (!black && c == n - 1) {
            return true;
        }
        for (dr, dc) in [(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)] {
            let (rr, cc) = (r as i32 + dr, c as i32 + dc);
            if (0..n as i32).contains(&rr) && (0..n as i32).contains(&cc) {
                let (rr, cc) = (rr as usize, cc as usize);
                if board[rr * n + cc] == mark {
                    stack.push((rr, cc));
                }
            }
        }
    }
    false
}

fn reference(before: &Hex, mv: Cell, after: &Hex) -> Result<(), String> {
    let n = before.size();
    let mut board = cells(before);
    let mover = before.to_move().unwrap();
    let mut expected: Vec<usize> = (0..n * n).filter(|&i| board[i] == '.').collect();
    let may_swap = before.swap_rule() && before.ply() == 1;
    if may_swap {
        expected.push(n * n);
    }
    let mut listed = Vec::new();
    before.legal_moves(&mut listed);
    if listed.iter().map(|c| usize::from(c.0)).collect::<Vec<_>>() != expected {
        return Err(format!("moves {listed:?}, expected {expected:?}"));
    }
    let c = usize::from(mv.0);
    if c == n * n {
        let x = board.iter().position(|&m| m == 'B').unwrap();
        board[x] = '.';
        board[(x % n) * n + x / n] = 'W';
    } else {
        board[c] = ['B', 'W'][mover.index()];
    }
    if board != cells(after) {
        return Err("board after differs".into());
    }
    let won = joined(&board, n, ['B', 'W'][mover.index()]);
    let expected = won.then_some(Outcome::Win(mover));
    if after.outcome() != expected {
        return Err(format!(
            "outcome {:?}, reference {expected:?}",
            after.outcome()
        ));
    }
    Ok(())
}

#[test]
fn the_board_is_a_rhombus_drawn_as_openspiel_draws_it() {
    let mut g = Hex::new(3, false).unwrap();
    play(&mut g, "b1 a2");
    assert_eq!(g.board_rows(), [". B .", " W . .", "  . . ."]);
    assert_eq!(g.to_move(), Some(Player::ZERO));
    assert_eq!(Hex::default().size(), 11);
    assert_eq!(Hex::default().spec(), "hex");
}

#[test]
fn cells_carry_openspiels_action_numbers_and_strings() {
    let g = Hex::new(11, true).unwrap();
    for (name, action) in [
        ("a1", 0),
        ("b1", 1),
        ("k1", 10),
        ("a2", 11),
        ("f6", 60),
        ("k11", 120),
        ("swap", 121),
    ] {
        let mv = g.parse_move(name).unwrap();
        assert_eq!(g.move_index(mv), action, "{name}");
        assert_eq!(g.move_text(mv), name);
        assert_eq!(g.action_string(Player::ZERO, mv), name);
    }
    for bad in ["l1", "a12", "a0", "", "swap2"] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn black_joins_top_to_bottom_and_white_left_to_right() {
    let mut g = Hex::new(3, false).unwrap();
    // Black a1 a2 a3 down the left column; White b1 b2 in between.
    play(&mut g, "a1 b1 a2 b2");
    assert_eq!(g.outcome(), None);
    play(&mut g, "a3");
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ZERO)));

    let mut g = Hex::new(3, false).unwrap();
    // White across the middle row a2 b2 c2.
    play(&mut g, "a1 a2 b1 b2 a3 c2");
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ONE)));
}

#[test]
fn the_two_diagonal_neighbours_are_up_right_and_down_left() {
    let mut g = Hex::new(3, false).unwrap();
    // Black c1 b2 a3: each touches the next along the short diagonal.
    play(&mut g, "c1 a1 b2 a2 a3");
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ZERO)));
    // a1 b2 c3 (the long diagonal) do not touch.
    let mut g = Hex::new(3, false).unwrap();
    play(&mut g, "a1 c1 b2 b1 c3");
    assert_eq!(g.outcome(), None);
}

#[test]
fn swap_mirrors_blacks_stone_into_a_white_one_and_black_moves_next() {
    let mut g = Hex::new(3, true).unwrap();
    play(&mut g, "b1");
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves.last(), Some(&Cell(9)));
    play(&mut g, "swap");
    assert_eq!(g.board_rows(), [". . .", " W . .", "  . . ."]);
    assert_eq!(g.to_move(), Some(Player::ZERO));
    assert!(!g.is_legal(Cell(9)));
    assert_eq!(g.hash(), g.hash_from_scratch());
    // Without the rule, or later, there is no swap.
    let mut off = Hex::new(3, false).unwrap();
    play(&mut off, "b1");
    assert!(off.parse_move("swap").is_ok_and(|s| !off.is_legal(s)));
}

#[test]
fn wins_at_once_answers_for_both_players() {
    let mut g = Hex::new(3, false).unwrap();
    // Black a1 a2 down the left column, White b2 c2 along the middle row: a3 wins for both.
    play(&mut g, "a1 b2 a2 c2");
    let (a3, c3) = (g.parse_move("a3").unwrap(), g.parse_move("c3").unwrap());
    assert_eq!(g.wins_at_once(Player::ZERO, a3), Some(true));
    assert_eq!(g.wins_at_once(Player::ONE, a3), Some(true));
    assert_eq!(g.wins_at_once(Player::ONE, c3), Some(false));
    assert_eq!(g.wins_at_once(Player::ZERO, c3), Some(false));
}

#[test]
fn connection_need_counts_the_empty_cells_of_the_shortest_chain() {
    let mut g = Hex::new(5, false).unwrap();
    assert_eq!(g.connection_need(Player::ZERO), 5);
    play(&mut g, "c1 a1 c2 a2");
    assert_eq!(g.connection_need(Player::ZERO), 3);
    // White's a1 a2 sit on its left edge, but Black's c1 c2 wall off rows 1 and 2: the
    // shortest way round fills b2 b3 c3 d3 e3.
    assert_eq!(g.connection_need(Player::ONE), 5);
    let mut out = [0.0; crate::MAX_FEATURES];
    crate::Features::features(&g, Player::ZERO, &mut out);
    assert_eq!(&out[..2], &[2.0, 3.0]);
    assert_eq!(out[2], f64::from(g.two_distance(Player::ZERO)));
}

#[test]
fn a_cut_player_needs_the_whole_board() {
    let g = Hex::new(3, false)
        .unwrap()
        .set_up("o o o\n x x x\n . . .")
        .unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ONE)));
    assert_eq!(g.connection_need(Player::ZERO), 9);
}

#[test]
fn set_up_reads_the_drawing_and_derives_the_mover() {
    let mut played = Hex::new(3, false).unwrap();
    play(&mut played, "b1 a2");
    let g = Hex::new(3, false)
        .unwrap()
        .set_up(". x .\n o . .\n . . .")
        .unwrap();
    assert_eq!(g, played);
    assert_eq!(g.hash(), played.hash());
    assert!(
        Hex::new(3, false)
            .unwrap()
            .set_up("x x .\n . . .\n . . .")
            .is_err()
    );
}

#[test]
fn sizes_outside_3_to_19_are_refused() {
    assert!(Hex::new(2, false).is_err());
    assert!(Hex::new(20, false).is_err());
    assert!(Hex::new(19, true).is_ok());
}

#[test]
fn random_games_follow_the_plain_rules() {
    for (size, swap, games) in [
        (3, false, 500),
        (4, true, 300),
        (7, false, 200),
        (11, true, 60),
    ] {
        let c = check_random_games(
            &Hex::new(size, swap).unwrap(),
            games,
            73,
            u32::MAX,
            reference,
        );
        assert_eq!(c.finished, games, "size {size}");
    }
}

#[test]
fn random_moves_reach_every_cell_and_the_swap() {
    let mut g = Hex::new(4, true).unwrap();
    play(&mut g, "b2");
    crate::conformance::check_random_moves_reach_every_move(&g, &mut crate::seeded_rng(3, 0), 60);
}

#[test]
fn two_distance_counts_the_second_best_neighbour_on_the_empty_board() {
    // On 3x3 the centre b2 is two steps from each edge for either player (its two upper
    // neighbours b1 and c1 both touch the top): 2 + 2. Every other cell is worse.
    let g = Hex::new(3, false).unwrap();
    assert_eq!(g.two_distance(Player::ZERO), 4);
    assert_eq!(g.two_distance(Player::ONE), 4);
}

#[test]
fn a_stone_brings_every_cell_around_it_within_reach() {
    let mut g = Hex::new(3, false).unwrap();
    play(&mut g, "b2");
    // a3 touches the bottom and, through b2's group, b1 and c1 on the top row: 1 + 2.
    assert_eq!(g.two_distance(Player::ZERO), 3);
    assert!(g.two_distance(Player::ONE) > 4);
}

#[test]
fn a_bridge_to_the_edge_counts_as_connected_where_one_path_does_not() {
    // Black c2 on 5x5 reaches the top row through c1 or d1, a bridge White cannot cut with
    // one stone; with White on c1 only d1 is left. The shortest path cannot tell the two
    // apart; the two-distance can.
    let mut bridge = Hex::new(5, false).unwrap();
    play(&mut bridge, "c2");
    let mut single = Hex::new(5, false).unwrap();
    play(&mut single, "c2 c1");
    assert_eq!(
        bridge.connection_need(Player::ZERO),
        single.connection_need(Player::ZERO)
    );
    assert!(single.two_distance(Player::ZERO) > bridge.two_distance(Player::ZERO));
}

#[test]
fn two_distance_is_zero_after_a_win_and_large_when_cut() {
    let won = Hex::new(3, false)
        .unwrap()
        .set_up("o o o\n x x x\n . . .")
        .unwrap();
    assert_eq!(won.two_distance(Player::ONE), 0);
    assert_eq!(won.two_distance(Player::ZERO), 18);
}

/// Two-distance the slow way: flood-filled groups, neighbour lists, and relaxation of
/// "one more than the second-best neighbour" until nothing changes.
fn plain_two_distance(g: &Hex, player: Player) -> u32 {
    let n = g.size();
    let board = cells(g);
    let me = ['B', 'W'][player.index()];
    let adjacent = |c: usize| -> Vec<usize> {
        let (r, col) = ((c / n) as i32, (c % n) as i32);
        [(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)]
            .iter()
            .map(|(dr, dc)| (r + dr, col + dc))
            .filter(|&(rr, cc)| (0..n as i32).contains(&rr) && (0..n as i32).contains(&cc))
            .map(|(rr, cc)| rr as usize * n + cc as usize)
            .collect()
    };
    let on_edge = |c: usize, first: bool| {
        let (r, col) = (c / n, c % n);
        let k = if player == Player::ZERO { r } else { col };
        if first { k == 0 } else { k == n - 1 }
    };
    // Each empty cell's neighbours and edges, through the player's groups.
    let reach = |c: usize| -> (Vec<usize>, [bool; 2]) {
        let mut seen = vec![false; n * n];
        let mut stack = vec![c];
        let (mut out, mut edges) = (Vec::new(), [on_edge(c, true), on_edge(c, false)]);
        seen[c] = true;
        while let Some(x) = stack.pop() {
            for y in adjacent(x) {
                if seen[y] {
                    continue;
                }
                seen[y] = true;
                if board[y] == '.' {
                    out.push(y);
                } else if board[y] == me {
                    edges[0] |= on_edge(y, true);
                    edges[1] |= on_edge(y, false);
                    stack.push(y);
                }
            }
        }
        (out, edges)
    };
    let empty: Vec<usize> = (0..n * n).filter(|&c| board[c] == '.').collect();
    let links: Vec<(Vec<usize>, [bool; 2])> = (0..n * n).map(reach).collect();
    let mut best = u32::MAX;
    let mut d = [vec![u32::MAX; n * n], vec![u32::MAX; n * n]];
    for e in 0..2 {
        loop {
            let mut changed = false;
            for &c in &empty {
                let value = if links[c].1[e] {
                    1
                } else {
                    let mut near: Vec<u32> = links[c].0.iter().map(|&y| d[e][y]).collect();
                    near.sort_unstable();
                    match near.get(1) {
                        Some(&s) if s != u32::MAX => s + 1,
                        _ => u32::MAX,
                    }
                };
                if value < d[e][c] {
                    d[e][c] = value;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
    for &c in &empty {
        if d[0][c] != u32::MAX && d[1][c] != u32::MAX {
            best = best.min(d[0][c] + d[1][c]);
        }
    }
    if g.outcome() == Some(Outcome::Win(player)) {
        0
    } else if best == u32::MAX {
        2 * (n * n) as u32
    } else {
        best
    }
}

#[test]
fn two_distance_agrees_with_the_plain_relaxation_in_random_positions() {
    let mut rng = crate::seeded_rng(77, 0);
    let mut checked = 0;
    for (size, games) in [(4, 60), (7, 40), (11, 10)] {
        for _ in 0..games {
            let mut g = Hex::new(size, false).unwrap();
            let mut scratch = Vec::new();
            while g.outcome().is_none() {
                for p in [Player::ZERO, Player::ONE] {
                    assert_eq!(
                        g.two_distance(p),
                        plain_two_distance(&g, p),
                        "{}",
                        g.board_rows().join("\n")
                    );
                    checked += 1;
                }
                let mv = g.random_move(&mut rng, &mut scratch).unwrap();
                g.play(mv);
            }
        }
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn the_half_turn_of_a_position_is_the_position_its_turned_moves_reach() {
    for (size, swap) in [(3, false), (5, true), (7, false)] {
        let start = Hex::new(size, swap).unwrap();
        assert_eq!(crate::Features::grid_symmetries(&start).len(), 1);
        let checked = crate::conformance::check_grid_symmetries(&start, 13, 4);
        assert!(checked > 4 * size, "size {size}: {checked}");
    }
}

#[test]
fn the_grid_turns_rows_over_so_the_diagonal_neighbours_are_the_hex_kernels() {
    use crate::Features;
    // c1 (row 0, column 2) and its down-left neighbour b2 (row 1, column 1) on a 3×3 board:
    // grid cells 2 + 3·2 = 8 and 1 + 3·1 = 4, one step of (−1, −1) apart.
    let mut g = Hex::new(3, false).unwrap();
    play(&mut g, "c1 b2");
    let cell = |name: &str| g.grid_cell(g.parse_move(name).unwrap());
    assert_eq!(cell("a1"), Some(6));
    assert_eq!(cell("c3"), Some(2));
    assert_eq!(cell("c1"), None, "taken");
    let mut planes = vec![0.0; crate::GRID_PLANES * 9];
    g.grid_planes(&mut planes);
    let plane = |p: usize| -> Vec<usize> { (0..9).filter(|&c| planes[p * 9 + c] == 1.0).collect() };
    // Black to move: its stone at c1 (grid 8), White's at b2 (grid 4).
    assert_eq!((plane(0), plane(1)), (vec![8], vec![4]));
    assert_eq!(plane(3).len(), 9);
    // Black's edges are the first and last rows (grid rows 2 and 0), White's the columns.
    assert_eq!(plane(5), vec![0, 1, 2, 6, 7, 8]);
    assert_eq!(plane(6), vec![0, 2, 3, 5, 6, 8]);
}
