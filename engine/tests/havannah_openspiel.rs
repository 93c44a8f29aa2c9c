//! Replays random Havannah games played by OpenSpiel (file written by
//! tools/openspiel_havannah_games.py) and requires the same result at the same ply.

use ringside_engine::games::havannah::Havannah;
use ringside_engine::{Game, Outcome, Player};

#[test]
fn every_openspiel_game_ends_at_the_same_ply_with_the_same_result() {
    let data = include_str!("data/havannah_openspiel.txt");
    let mut games = 0;
    let mut sizes = std::collections::BTreeSet::new();
    for (line_no, line) in data
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (size, swap, result, plies) = (
            fields[0].parse::<usize>().unwrap(),
            fields[1] == "on",
            fields[2],
            fields[3].parse::<usize>().unwrap(),
        );
        let moves = &fields[4..];
        assert_eq!(moves.len(), plies, "line {}", line_no + 1);
        let mut state = Havannah::new(size, swap).unwrap();
        for (i, text) in moves.iter().enumerate() {
            assert_eq!(
                state.outcome(),
                None,
                "line {}: our game ended before ply {}",
                line_no + 1,
                i + 1
            );
            let mv = state
                .parse_move(text)
                .unwrap_or_else(|e| panic!("line {}: {e}", line_no + 1));
            state
                .try_play(mv)
                .unwrap_or_else(|e| panic!("line {}, ply {} ({text}): {e}", line_no + 1, i + 1));
        }
        let expected = match result {
            "white" => Outcome::Win(Player::ZERO),
            "black" => Outcome::Win(Player::ONE),
            _ => Outcome::Draw,
        };
        assert_eq!(
            state.outcome(),
            Some(expected),
            "line {}: after {plies} plies",
            line_no + 1
        );
        games += 1;
        sizes.insert(size);
    }
    assert!(games >= 500, "{games} games");
    assert_eq!(sizes.into_iter().collect::<Vec<_>>(), [4, 6, 8]);
}
