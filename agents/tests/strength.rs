//! Searches must beat the random player clearly: 50 seeded games each, seats alternating, at
//! least 95% of them won (48 of 50; a side that wins 85% of its games passes 1 time in 70).

use rayon::prelude::*;
use ringside_agents::{Agent, AgentSpec};
use ringside_engine::games::advance::Advance;
use ringside_engine::games::havannah::Havannah;
use ringside_engine::games::hexxagon::Hexxagon;
use ringside_engine::games::ikabegama::Ikabegama;
use ringside_engine::games::life::Life;
use ringside_engine::games::rin::Rin;
use ringside_engine::{Features, Game, Outcome, Player, seeded_rng};

/// The colour of the strong side in game `i` whose first mover is `first`: the first seat in
/// even games, the second in odd ones, whichever colour that is.
fn strong_colour(i: u64, first: Player) -> Player {
    if i.is_multiple_of(2) {
        first
    } else {
        first.other()
    }
}

/// Wins of `strong` against `random` in `games` games; game i seats `strong` first when i is
/// even. Games still going after `cap` plies count as not won.
fn wins_against_random<G: Game + Features>(start: &G, strong: &str, games: u64, cap: u32) -> u64 {
    let strong = AgentSpec::parse(strong).unwrap();
    let random = AgentSpec::parse("random").unwrap();
    (0..games)
        .into_par_iter()
        .filter(|&i| {
            let mut state = start.clone();
            state.randomize_start(&mut seeded_rng(1000 + i, 0));
            let strong_colour = strong_colour(i, state.to_move().unwrap());
            let mut seats = [
                random.build(start, 2 * i).unwrap(),
                random.build(start, 2 * i + 1).unwrap(),
            ];
            seats[strong_colour.index()] = strong.build(start, 2 * i).unwrap();
            let mut plies = 0;
            while let Some(p) = state.to_move() {
                if plies == cap {
                    return false;
                }
                let mv = seats[p.index()].choose(&state).mv;
                state.play(mv);
                plies += 1;
            }
            state.outcome() == Some(Outcome::Win(strong_colour))
        })
        .count() as u64
}

/// Games a search plays against random.
const GAMES: u64 = 50;
/// Of which it must win at least these (95%).
const WINS_NEEDED: u64 = 48;

fn assert_strong<G: Game + Features>(start: &G, strong: &str, cap: u32) {
    let wins = wins_against_random(start, strong, GAMES, cap);
    assert!(
        wins >= WINS_NEEDED,
        "{strong} won {wins} of {GAMES} against random on {}",
        start.spec()
    );
}

#[test]
fn mcts_beats_random_on_rin() {
    // 256 first moves: plain playouts need many iterations to tell them apart, so the Rin
    // test cuts playouts at 20 plies and scores them by material (1000 iterations a move).
    assert_strong(&Rin::default(), "mcts:iters=1000,playout=20", u32::MAX);
}

#[test]
fn mcts_beats_random_on_the_life_duel() {
    assert_strong(&Life::default(), "mcts:iters=300", 2000);
}

#[test]
fn mcts_beats_random_on_advance() {
    assert_strong(&Advance::default(), "mcts:iters=150", 2000);
}

#[test]
fn mcts_beats_random_on_ikabegama() {
    assert_strong(&Ikabegama::default(), "mcts:iters=300", 2000);
}

#[test]
fn mcts_beats_random_on_hexxagon() {
    assert_strong(&Hexxagon::default(), "mcts:iters=150", 2000);
}

#[test]
fn mcts_beats_random_on_havannah() {
    assert_strong(&Havannah::default(), "mcts:iters=300", u32::MAX);
}

#[test]
fn alphabeta_with_material_beats_random_on_the_life_duel() {
    assert_strong(&Life::default(), "alphabeta:depth=2,eval=material", 2000);
}

#[test]
fn on_advances_drawn_starts_the_strong_side_plays_each_colour_from_each_seat() {
    // The helper seats by the drawn first player: over its seeded starts, each colour
    // moves first in some games, and the strong side holds each colour both first and second.
    let firsts: Vec<Player> = (0..GAMES)
        .map(|i| {
            let mut a = Advance::default();
            a.randomize_start(&mut seeded_rng(1000 + i, 0));
            a.to_move().unwrap()
        })
        .collect();
    assert!(firsts.contains(&Player::ZERO) && firsts.contains(&Player::ONE));
    for (i, &first) in firsts.iter().enumerate() {
        assert_eq!(strong_colour(i as u64, first) == first, i % 2 == 0);
    }
    for colour in [Player::ZERO, Player::ONE] {
        for seat_first in [true, false] {
            assert!(
                (0..GAMES).any(|i| {
                    let first = firsts[i as usize];
                    strong_colour(i, first) == colour && (colour == first) == seat_first
                }),
                "the strong side never plays {colour:?} {}",
                if seat_first { "first" } else { "second" }
            );
        }
    }
}
