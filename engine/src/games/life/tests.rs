use super::*;
use crate::Features;
use crate::conformance::check_random_games;
use crate::seeded_rng;

/// A plain per-cell Life step on character grids (rows top to bottom), written from RULES.md.
fn reference_step(grid: &[Vec<char>]) -> Vec<Vec<char>> {
    let n = grid.len();
    let mut next = grid.to_vec();
    for y in 0..n {
        for x in 0..n {
            let (mut b, mut w) = (0, 0);
            for dy in -1i32..=1 {
                for dx in -1i32..=1 {
                    let (yy, xx) = (y as i32 + dy, x as i32 + dx);
                    if (dy, dx) == (0, 0) || yy < 0 || xx < 0 || yy >= n as i32 || xx >= n as i32 {
                        continue;
                    }
                    match grid[yy as usize][xx as usize] {
                        'B' => b += 1,
                        'W' => w += 1,
                        _ => {}
                    }
                }
            }
            let total = b + w;
            next[y][x] = match grid[y][x] {
                '.' if total == 3 => {
                    if b > w {
                        'B'
                    } else {
                        'W'
                    }
                }
                '.' => '.',
                _ if !(2..=3).contains(&total) => '.',
                _ if b > w => 'B',
                _ if w > b => 'W',
                own => own,
            };
        }
    }
    next
}

fn grid_of(life: &Life) -> Vec<Vec<char>> {
    life.board_rows()
        .iter()
        .map(|r| r.chars().collect())
        .collect()
}

fn text_of(grid: &[Vec<char>]) -> Vec<String> {
    grid.iter().map(|r| r.iter().collect()).collect()
}

/// The reference for a whole move: drop rule, drop, step, and who moves next.
fn reference_check(before: &Life, mv: Point, after: &Life) -> Result<(), String> {
    let mut grid = grid_of(before);
    let (x, y) = (mv.col(), SIZE - 1 - mv.row());
    if grid[y][x] != '.' {
        return Err("a drop on an occupied point was accepted".into());
    }
    let touches = (-1i32..=1).any(|dy| {
        (-1i32..=1).any(|dx| {
            let (yy, xx) = (y as i32 + dy, x as i32 + dx);
            (0..SIZE as i32).contains(&yy)
                && (0..SIZE as i32).contains(&xx)
                && grid[yy as usize][xx as usize] != '.'
        })
    });
    if before.drops() == Drops::Adjacent && !touches {
        return Err("a drop away from every stone was accepted".into());
    }
    grid[y][x] = if before.ply().is_multiple_of(2) {
        'B'
    } else {
        'W'
    };
    let expected = text_of(&reference_step(&grid));
    if expected != after.board_rows() {
        return Err(format!(
            "board\n{}\nexpected\n{}",
            after.board_rows().join("\n"),
            expected.join("\n")
        ));
    }
    let has = |c: char| expected.iter().any(|r| r.contains(c));
    let expected_outcome = match (has('B'), has('W')) {
        (false, false) => Some(Outcome::Draw),
        (true, false) => Some(Outcome::Win(Player::ZERO)),
        (false, true) => Some(Outcome::Win(Player::ONE)),
        (true, true) => None,
    };
    if after.wiped_out() != expected_outcome {
        return Err(format!(
            "outcome {:?}, expected {expected_outcome:?}",
            after.outcome()
        ));
    }
    Ok(())
}

fn empty_board_with(stones: &[(&str, char)], ply: u32) -> Life {
    let mut grid = vec![vec!['.'; SIZE]; SIZE];
    for (name, c) in stones {
        let (col, row) = parse_point(name, SIZE).unwrap();
        grid[SIZE - 1 - row][col] = *c;
    }
    let text = format!("{}\nply {ply}", text_of(&grid).join("\n"));
    Life::default().set_up(&text).unwrap()
}

fn at(life: &Life, name: &str) -> char {
    let (col, row) = parse_point(name, SIZE).unwrap();
    life.board_rows()[SIZE - 1 - row].as_bytes()[col] as char
}

#[test]
fn start_position_matches_the_source_and_is_a_period_2_oscillator() {
    let start = Life::default();
    assert_eq!(start.count(Player::ZERO), 11);
    assert_eq!(start.count(Player::ONE), 11);
    let once = life_step(&start.stones[0], &start.stones[1]);
    let twice = life_step(&once.0, &once.1);
    assert_ne!(
        once,
        (start.stones[0], start.stones[1]),
        "the blinkers turn"
    );
    assert_eq!(
        twice,
        (start.stones[0], start.stones[1]),
        "two steps restore the start"
    );
}

#[test]
fn bit_parallel_step_matches_the_per_cell_reference_on_random_boards() {
    let mut rng = seeded_rng(21, 0);
    for density in [0.1, 0.3, 0.5, 0.8] {
        for _ in 0..200 {
            let grid: Vec<Vec<char>> = (0..SIZE)
                .map(|_| {
                    (0..SIZE)
                        .map(|_| {
                            let u: f64 = rng.random();
                            if u < density / 2.0 {
                                'B'
                            } else if u < density {
                                'W'
                            } else {
                                '.'
                            }
                        })
                        .collect()
                })
                .collect();
            let life = Life::default().set_up(&text_of(&grid).join("\n")).unwrap();
            let (b, w) = life_step(&life.stones[0], &life.stones[1]);
            let stepped = Life {
                stones: [b, w],
                ..life
            };
            assert_eq!(stepped.board_rows(), text_of(&reference_step(&grid)));
        }
    }
}

#[test]
fn a_lone_drop_dies_at_once() {
    // Black drops beside a lone white stone: both have one neighbour and die; a draw.
    let mut life = empty_board_with(&[("j10", 'W'), ("b2", 'B'), ("b3", 'B'), ("b4", 'B')], 0);
    life.play(life.parse_move("k10").unwrap());
    assert_eq!(at(&life, "k10"), '.', "the new stone had one neighbour");
    assert_eq!(at(&life, "j10"), '.');
    // The black blinker lives on and White has nothing: Black wins.
    assert_eq!(life.outcome(), Some(Outcome::Win(Player::ZERO)));
}

#[test]
fn a_drop_changes_colour_when_its_neighbours_are_the_other_colour() {
    // A white block of four plus a black drop touching two of its stones. The drop has two
    // white neighbours and no black one, so it survives as white.
    let mut life = empty_board_with(
        &[
            ("j10", 'W'),
            ("k10", 'W'),
            ("j11", 'W'),
            ("k11", 'W'),
            ("c3", 'B'),
            ("d3", 'B'),
            ("e3", 'B'),
        ],
        0,
    );
    life.play(life.parse_move("l12").unwrap());
    assert_eq!(
        at(&life, "l12"),
        '.',
        "one neighbour only: it dies (checks the setup)"
    );
    let mut life = empty_board_with(
        &[
            ("j10", 'W'),
            ("k10", 'W'),
            ("k12", 'W'),
            ("c3", 'B'),
            ("d3", 'B'),
            ("e3", 'B'),
        ],
        0,
    );
    // l11 has neighbours k10, k12 (white) and nothing else: n = 2, b = 0 → it turns white.
    life.play(life.parse_move("l11").unwrap());
    assert_eq!(at(&life, "l11"), 'W', "the black drop turned white");
}

#[test]
fn a_birth_decided_two_to_one_takes_the_majority_colour() {
    // After Black drops on d5, the empty e5 has exactly three neighbours: d4 and d5 black, e6
    // white. It is born black.
    let blinkers = [
        ("p15", 'W'),
        ("p16", 'W'),
        ("p17", 'W'),
        ("b16", 'B'),
        ("b17", 'B'),
        ("b18", 'B'),
    ];
    let mut stones = vec![("d4", 'B'), ("e6", 'W')];
    stones.extend(blinkers);
    let mut life = empty_board_with(&stones, 0);
    life.play(life.parse_move("d5").unwrap());
    assert_eq!(
        at(&life, "e5"),
        'B',
        "two black neighbours against one white"
    );
    // Colours swapped, White dropping: born white.
    let mut stones = vec![("d4", 'W'), ("e6", 'B')];
    stones.extend(blinkers);
    let mut life = empty_board_with(&stones, 1);
    life.play(life.parse_move("d5").unwrap());
    assert_eq!(at(&life, "e5"), 'W');
}

#[test]
fn a_surviving_stone_on_a_tie_keeps_its_colour() {
    // A white stone with one black and one white neighbour survives and stays white.
    let life = empty_board_with(&[("j10", 'W'), ("i10", 'B'), ("k10", 'W')], 0);
    let (b, w) = life_step(&life.stones[0], &life.stones[1]);
    let stepped = Life {
        stones: [b, w],
        ..life
    };
    assert_eq!(at(&stepped, "j10"), 'W');
}

#[test]
fn a_wipe_out_of_both_colours_is_a_draw() {
    // Black's drop beside its lone stone leaves every stone with at most one neighbour.
    let mut life = empty_board_with(&[("j10", 'W'), ("b2", 'B')], 0);
    life.play(life.parse_move("c3").unwrap());
    assert_eq!(life.count(Player::ZERO) + life.count(Player::ONE), 0);
    assert_eq!(life.outcome(), Some(Outcome::Draw));
    assert_eq!(life.to_move(), None);
}

#[test]
fn a_drop_far_from_every_stone_is_refused_with_a_clear_error() {
    let mut life = Life::default();
    let far = life.parse_move("a19").unwrap();
    let err = life.try_play(far).unwrap_err();
    assert_eq!(
        err.to_string(),
        "point a19 has no stone among its 8 neighbours (drops must touch a stone)"
    );
    assert_eq!(life, Life::default(), "a refused drop changes nothing");
    let occupied = life.parse_move("d3").unwrap();
    assert_eq!(
        life.try_play(occupied).unwrap_err().to_string(),
        "point d3 is occupied"
    );
    // A legal drop is not explained as illegal, under either rule.
    let mut legal = Vec::new();
    life.legal_moves(&mut legal);
    assert_eq!(life.why_illegal(legal[0]), "the move is legal");
    // Under the article's rule the far drop is legal.
    let mut anywhere = Life::new(Drops::Anywhere);
    assert_eq!(anywhere.why_illegal(far), "the move is legal");
    anywhere.play(far);
}

#[test]
fn no_legal_drop_is_a_draw() {
    // A full board cannot step into anything but death, but set it up directly: no drop exists.
    let full = vec!["B".repeat(SIZE); SIZE].join("\n");
    let mut rows: Vec<String> = vec!["W".repeat(SIZE)];
    rows.extend(full.lines().skip(1).map(String::from));
    let life = Life::default().set_up(&rows.join("\n")).unwrap();
    assert_eq!(life.outcome(), Some(Outcome::Draw));
    let mut moves = vec![Point(0)];
    life.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn conformance_under_both_drop_rules() {
    for (drops, games) in [(Drops::Adjacent, 300), (Drops::Anywhere, 150)] {
        let coverage = check_random_games(&Life::new(drops), games, 17, 400, reference_check);
        assert!(coverage.plies > 1000, "{coverage:?}");
        assert!(coverage.finished > 0, "{coverage:?}");
    }
}

#[test]
fn start_position_matches_the_rules_document_lists() {
    let start = Life::default();
    for name in START_BLACK {
        assert_eq!(at(&start, name), 'B', "{name}");
    }
    for name in START_WHITE {
        assert_eq!(at(&start, name), 'W', "{name}");
    }
}

#[test]
fn survivors_and_births_look_one_step_ahead() {
    // A Black blinker d5 e5 f5: the step keeps e5 (two neighbours, both Black) and gives birth
    // to e4 and e6 (three Black neighbours each); d5 and f5 die. A lone White stone dies.
    let life = empty_board_with(&[("d5", 'B'), ("e5", 'B'), ("f5", 'B'), ("p15", 'W')], 4);
    let features = |player| {
        let mut out = [0.0; crate::MAX_FEATURES];
        crate::Features::features(&life, player, &mut out);
        [out[0], out[1], out[2]]
    };
    assert_eq!(features(Player::ZERO), [3.0, 1.0, 2.0]);
    assert_eq!(features(Player::ONE), [1.0, 0.0, 0.0]);
}

#[test]
fn births_go_to_the_colour_with_two_of_three_neighbours() {
    // d5 and f5 have one neighbour each and die. e5 has two, one of them Black, and keeps its
    // own colour: it survives Black.
    let life = empty_board_with(&[("d5", 'B'), ("e5", 'B'), ("f5", 'W')], 4);
    let black = |name: &str| life.feature(Player::ZERO, name).unwrap();
    let white = |name: &str| life.feature(Player::ONE, name).unwrap();
    assert_eq!(black("survivors"), 1.0);
    // e4 and e6 each see d5, e5, f5: two Black of three, so both are born Black.
    assert_eq!(black("births"), 2.0);
    assert_eq!(white("survivors"), 0.0);
    assert_eq!(white("births"), 0.0);
}

#[test]
fn a_point_off_the_board_is_illegal_and_refused_in_words() {
    // Point is a plain number; the first one past the board and the largest are no drops.
    for life in [Life::default(), Life::new(Drops::Anywhere)] {
        for off in [SIZE * SIZE, usize::from(u16::MAX)] {
            let mv = Point(off as u16);
            assert!(!life.is_legal(mv), "{off}");
            let mut after = life;
            let err = after.try_play(mv).unwrap_err().to_string();
            assert_eq!(err, format!("point {off} is off the 19x19 board"));
            assert_eq!(after, life, "a refused drop changes nothing");
        }
    }
}

#[test]
fn stones_and_scores_are_the_board_rows_and_counts_of_each_colour() {
    let mut life = Life::default();
    let mut rng = seeded_rng(11, 0);
    let mut moves = Vec::new();
    for _ in 0..6 {
        let board = life.board_rows();
        for (p, colour) in [(Player::ZERO, b'B'), (Player::ONE, b'W')] {
            let rows = life.stones(p);
            let mut seen = 0;
            for row in 0..SIZE {
                for col in 0..SIZE {
                    let drawn = board[SIZE - 1 - row].as_bytes()[col] == colour;
                    assert_eq!(rows[row] >> col & 1 == 1, drawn, "{p:?} at {col},{row}");
                    seen += u32::from(drawn);
                }
            }
            assert!(seen > 0);
            assert_eq!(life.count(p), seen);
            // The score of a colour is its number of stones.
            assert_eq!(life.scores().unwrap()[p.index()], f64::from(seen));
        }
        let mv = life.random_move(&mut rng, &mut moves).unwrap();
        life.play(mv);
    }
}

#[test]
fn every_point_around_two_stones_of_a_row_is_a_legal_drop() {
    // Two stones in row 10, White's one stone far off on p3 (its 8 neighbours are drops too):
    // c10 and e10 with a gap, whose reach overlaps on d9, d10 and d11, and c10 and d10 side by
    // side. Every point of the block around them is a drop, and nothing else near: g10 is two
    // away from e10.
    let cases: [(&[&str; 2], &[&str], usize); 2] = [
        (
            &["c10", "e10"],
            &["d9", "d10", "d11", "b10", "f10"],
            3 * 5 - 2,
        ),
        (
            &["c10", "d10"],
            &[
                "b9", "c9", "d9", "e9", "b10", "e10", "b11", "c11", "d11", "e11",
            ],
            3 * 4 - 2,
        ),
    ];
    for (stones, around, block) in cases {
        let life = empty_board_with(&[(stones[0], 'B'), (stones[1], 'B'), ("p3", 'W')], 0);
        let mut legal = Vec::new();
        life.legal_moves(&mut legal);
        for name in around {
            let p = life.parse_move(name).unwrap();
            assert!(legal.contains(&p), "{stones:?}: {name} is a legal drop");
            assert!(life.is_legal(p), "{stones:?}: {name}");
        }
        assert!(!legal.contains(&life.parse_move("g10").unwrap()));
        assert_eq!(
            legal.len(),
            block + 8,
            "{stones:?}: the block, less the stones, and p3's 8"
        );
    }
}

#[test]
fn the_start_hash_is_the_phase_key_and_the_keys_of_the_start_stones_only() {
    let mut want = KEYS.phase(0);
    for (colour, points) in [START_BLACK, START_WHITE].iter().enumerate() {
        for text in points {
            let (col, row) = parse_point(text, SIZE).unwrap();
            want ^= KEYS.piece(colour, SIZE * row + col);
        }
    }
    let life = Life::default();
    assert_eq!(life.hash(), want);
    assert_eq!(life.hash_from_scratch(), want);
}
