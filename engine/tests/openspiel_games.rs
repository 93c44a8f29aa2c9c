//! Replays random games of the reference games played by OpenSpiel (files written by
//! tools/openspiel_games.py) and requires Ringside to agree at every ply: the player to move,
//! the number and the sum of the legal actions (OpenSpiel's action numbers are
//! `Game::move_index`), the action number and action string of the move played, and the end
//! at the same ply with the same returns.

use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game, Outcome, Player};

/// One recorded game: its steps `action;string;legal;sum` and player 0's return.
struct Replay<'a> {
    steps: Vec<&'a str>,
    return0: i32,
    line: usize,
}

impl GameVisitor for Replay<'_> {
    type Output = ();
    fn visit<G: Game + Features>(self, start: G) {
        let line = self.line;
        let mut state = start;
        let mut legal = Vec::new();
        for (ply, step) in self.steps.iter().enumerate() {
            let fields: Vec<&str> = step.split(';').collect();
            let [action, text, count, sum] = fields[..] else {
                panic!("line {line}: bad step '{step}'")
            };
            let (action, count, sum): (usize, usize, usize) = (
                action.parse().unwrap(),
                count.parse().unwrap(),
                sum.parse().unwrap(),
            );
            let at = format!("line {line}, ply {} ({text})", ply + 1);
            assert_eq!(state.outcome(), None, "{at}: our game is over");
            // OpenSpiel's players alternate in all six games, passes and the swap included.
            let mover = Player::new(ply % 2);
            assert_eq!(state.to_move(), Some(mover), "{at}: the player to move");
            state.legal_moves(&mut legal);
            let ours: usize = legal.iter().map(|&m| state.move_index(m)).sum();
            assert_eq!((legal.len(), ours), (count, sum), "{at}: legal actions");
            let mv = state
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(state.move_index(mv), action, "{at}: action number");
            assert_eq!(state.action_string(mover, mv), text, "{at}: action string");
            state.try_play(mv).unwrap_or_else(|e| panic!("{at}: {e}"));
        }
        let expected = match self.return0 {
            1 => Outcome::Win(Player::ZERO),
            -1 => Outcome::Win(Player::ONE),
            _ => Outcome::Draw,
        };
        assert_eq!(
            state.outcome(),
            Some(expected),
            "line {line}: after {} plies",
            self.steps.len()
        );
    }
}

/// Replays every game of one data file; returns the number of games and the specs seen.
fn replay_file(data: &str) -> (usize, std::collections::BTreeSet<String>) {
    let mut specs = std::collections::BTreeSet::new();
    let mut games = 0;
    for (i, line) in data.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(' ').collect();
        let game = AnyGame::parse(fields[0]).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let plies: usize = fields[2].parse().unwrap();
        let steps = fields[3..].to_vec();
        assert_eq!(steps.len(), plies, "line {}", i + 1);
        game.visit(Replay {
            steps,
            return0: fields[1].parse().unwrap(),
            line: i + 1,
        });
        specs.insert(fields[0].to_string());
        games += 1;
    }
    (games, specs)
}

#[test]
fn tic_tac_toe_agrees_with_openspiel_at_every_ply() {
    let (games, _) = replay_file(include_str!("data/openspiel/tic_tac_toe.txt"));
    assert_eq!(games, 1000);
}

#[test]
fn connect_four_agrees_with_openspiel_at_every_ply() {
    let (games, specs) = replay_file(include_str!("data/openspiel/connect_four.txt"));
    assert_eq!(games, 1060);
    assert_eq!(specs.len(), 5, "{specs:?}");
}

#[test]
fn hex_agrees_with_openspiel_at_every_ply() {
    let (games, specs) = replay_file(include_str!("data/openspiel/hex.txt"));
    assert_eq!(games, 850);
    assert_eq!(specs.len(), 6, "{specs:?}");
}

#[test]
fn breakthrough_agrees_with_openspiel_at_every_ply() {
    let (games, specs) = replay_file(include_str!("data/openspiel/breakthrough.txt"));
    assert_eq!(games, 450);
    assert_eq!(specs.len(), 3, "{specs:?}");
}

#[test]
fn othello_agrees_with_openspiel_at_every_ply() {
    let (games, _) = replay_file(include_str!("data/openspiel/othello.txt"));
    assert_eq!(games, 150);
}

#[test]
fn mnk_agrees_with_openspiel_at_every_ply() {
    // Six boards: 3 × 3, 4 × 4, wider than tall (5 × 4, 7 × 2), taller than wide (3 × 6),
    // and OpenSpiel's default 15 × 15; 55 of the games are won by an overline.
    let (games, specs) = replay_file(include_str!("data/openspiel/mnk.txt"));
    assert_eq!(games, 940);
    assert_eq!(specs.len(), 6, "{specs:?}");
}
