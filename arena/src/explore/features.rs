//! A game's evaluation features as a table (`arena features`): each feature's name, default
//! and tuned weight, and with a line of moves, its value for each player at the position
//! they reach.

use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game, MAX_FEATURES, Player};

use crate::error::Result;
use crate::explore::position::play_moves;

/// The table of `game`'s features: a header line, then `name default tuned` a feature, and
/// with `moves` (in the game's notation, as [`play_moves`] reads them) each player's value of
/// it after those moves. A game without a tuned fit says so on a last `#` line.
pub fn table(game: &AnyGame, moves: Option<&str>) -> Result<String> {
    game.visit(Table(moves))
}

struct Table<'a>(Option<&'a str>);

impl GameVisitor for Table<'_> {
    type Output = Result<String>;
    fn visit<G: Game + Features>(self, start: G) -> Result<String> {
        let mut text = "feature default_weight tuned_weight".to_string();
        let mut values = None;
        if let Some(moves) = self.0 {
            let state = play_moves(start.clone(), moves)?;
            let (mut a, mut b) = ([0.0; MAX_FEATURES], [0.0; MAX_FEATURES]);
            state.features(Player::ZERO, &mut a);
            state.features(Player::ONE, &mut b);
            text.push_str(&format!(
                " {} {}",
                state.player_name(Player::ZERO),
                state.player_name(Player::ONE)
            ));
            values = Some((a, b));
        }
        text.push('\n');
        for (i, f) in start.feature_set().iter().enumerate() {
            let tuned = start.tuned_weight(i);
            text.push_str(&format!("{} {} {tuned:.4}", f.name, f.default_weight));
            if let Some((a, b)) = values {
                text.push_str(&format!(" {} {}", a[i], b[i]));
            }
            text.push('\n');
        }
        if start.tuned_fit().is_none() {
            text.push_str(&format!(
                "# {} has no tuned fit: eval=tuned plays the default (rich) weights\n",
                start.name()
            ));
        }
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_feature_and_each_players_value_after_the_moves() {
        let game = AnyGame::parse("life").unwrap();
        let plain = table(&game, None).unwrap();
        let lines: Vec<&str> = plain.lines().collect();
        assert_eq!(lines[0], "feature default_weight tuned_weight");
        assert!(lines[1].starts_with("material "), "{plain}");
        let width = lines[1].split(' ').count();
        assert_eq!(width, 3, "{plain}");
        let moved = table(&game, Some("")).unwrap();
        let first = moved.lines().nth(1).unwrap();
        assert_eq!(first.split(' ').count(), 5, "{moved}");
        assert!(table(&game, Some("no-such-move")).is_err());
    }
}
