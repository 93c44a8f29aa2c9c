//! Choosing a game by name: the one place that lists every game.
//!
//! A game is named by a spec: its name, then optionally `:` and comma-separated `key=value`
//! options, for example `rin` or `rin:size=8`. [`with_game`] builds the start position and
//! hands it to a [`GameVisitor`], whose generic code then runs monomorphised for that game.

use crate::error::GameSpecError;
use crate::games::advance::Advance;
use crate::games::havannah::Havannah;
use crate::games::hexxagon::Hexxagon;
use crate::games::ikabegama::Ikabegama;
use crate::games::life::{Drops, Life};
use crate::games::rin::Rin;
use crate::{Features, Game};

/// Generic code to run on a game chosen at run time.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with the start position of the chosen game.
    fn visit<G: Game + Features>(self, start: G) -> Self::Output;
}

/// A game the registry knows: its name, its options and a line about it.
#[derive(Debug, Clone, Copy)]
pub struct GameInfo {
    /// Registry name.
    pub name: &'static str,
    /// Its options, `key=values (default)`.
    pub options: &'static str,
    /// One line about the game.
    pub about: &'static str,
}

/// Every game of the registry.
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        name: "rin",
        options: "size=6|8|10|12|14|16 (16)",
        about: "Rin, Zhen Wang's ring game: B, W, W, B, B, … turns; rings fill",
    },
    GameInfo {
        name: "life",
        options: "drops=adjacent|anywhere (adjacent)",
        about: "the two-colour Life duel of seed 002, 19x19, as its author's program plays it",
    },
    GameInfo {
        name: "advance",
        options: "side=3..9 (6), offset=1..side-1 (3) or x=CELL,o=CELL, first=random|x|o (random)",
        about: "sab39's hex game of advance, attack and sacrifice (seed 003)",
    },
    GameInfo {
        name: "ikabegama",
        options: "side=2..9 (7), distance=1..2(side-1) (4) or light=CELL,dark=CELL",
        about: "Ikabegama (seed 004): Hexxagon moves, reach the enemy nest",
    },
    GameInfo {
        name: "havannah",
        options: "size=4..10 (8), swap=on|off (off): OpenSpiel's board_size and swap",
        about: "Havannah: ring, bridge or fork; cross-checked against OpenSpiel",
    },
    GameInfo {
        name: "hexxagon",
        options: "side=3..9 (5)",
        about: "Hexxagon: growth, jump and flip on a hexagon; more tokens wins",
    },
];

/// A parsed spec: the game name and its options in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's registry name.
    pub name: String,
    /// `key=value` options.
    pub options: Vec<(String, String)>,
}

impl GameSpec {
    /// Parses `name[:key=value,key=value…]`.
    pub fn parse(text: &str) -> Result<GameSpec, GameSpecError> {
        let text = text.trim();
        let (name, rest) = text.split_once(':').unwrap_or((text, ""));
        if name.is_empty() {
            return Err(spec_error(format!(
                "no game named; known games: {}",
                known_games()
            )));
        }
        let mut options = Vec::new();
        for item in rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item.split_once('=').ok_or_else(|| {
                spec_error(format!(
                    "{name}: option '{item}' is not of the form key=value"
                ))
            })?;
            if options
                .iter()
                .any(|(k, _): &(String, String)| k == key.trim())
            {
                return Err(spec_error(format!(
                    "{name}: option '{}' is given twice",
                    key.trim()
                )));
            }
            options.push((key.trim().to_string(), value.trim().to_string()));
        }
        Ok(GameSpec {
            name: name.to_ascii_lowercase(),
            options,
        })
    }
}

fn spec_error(reason: String) -> GameSpecError {
    GameSpecError { reason }
}

fn known_games() -> String {
    GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
}

/// Reads the options of one game: each lookup consumes its key, and [`Options::finish`]
/// refuses whatever was not asked for.
struct Options {
    game: &'static str,
    allowed: &'static str,
    items: Vec<(String, String)>,
}

impl Options {
    fn take_usize(&mut self, key: &str, default: usize) -> Result<usize, GameSpecError> {
        match self.items.iter().position(|(k, _)| k == key) {
            None => Ok(default),
            Some(i) => {
                let (_, value) = self.items.remove(i);
                value.parse().map_err(|_| {
                    spec_error(format!(
                        "{}: option {key} takes a whole number, not '{value}'",
                        self.game
                    ))
                })
            }
        }
    }

    fn take_choice(
        &mut self,
        key: &str,
        choices: &[&'static str],
    ) -> Result<&'static str, GameSpecError> {
        match self.items.iter().position(|(k, _)| k == key) {
            None => Ok(choices[0]),
            Some(i) => {
                let (_, value) = self.items.remove(i);
                choices
                    .iter()
                    .copied()
                    .find(|c| *c == value)
                    .ok_or_else(|| {
                        spec_error(format!(
                            "{}: option {key} must be one of {}, not '{value}'",
                            self.game,
                            choices.join("|")
                        ))
                    })
            }
        }
    }

    fn take_text(&mut self, key: &str) -> Option<String> {
        let i = self.items.iter().position(|(k, _)| k == key)?;
        Some(self.items.remove(i).1)
    }

    fn finish(self) -> Result<(), GameSpecError> {
        match self.items.first() {
            None => Ok(()),
            Some((key, _)) => Err(spec_error(format!(
                "{}: unknown option '{key}'; allowed: {}",
                self.game, self.allowed
            ))),
        }
    }
}

/// Builds the start position of the game `spec` names and runs `visitor` on it.
pub fn with_game<V: GameVisitor>(spec: &str, visitor: V) -> Result<V::Output, GameSpecError> {
    let spec = GameSpec::parse(spec)?;
    let info = GAMES.iter().find(|g| g.name == spec.name).ok_or_else(|| {
        spec_error(format!(
            "unknown game '{}'; known games: {}",
            spec.name,
            known_games()
        ))
    })?;
    let mut options = Options {
        game: info.name,
        allowed: info.options,
        items: spec.options,
    };
    match info.name {
        "rin" => {
            let size = options.take_usize("size", crate::games::rin::DEFAULT_SIZE)?;
            options.finish()?;
            Ok(visitor.visit(Rin::new(size)?))
        }
        "life" => {
            let drops = match options.take_choice("drops", &["adjacent", "anywhere"])? {
                "anywhere" => Drops::Anywhere,
                _ => Drops::Adjacent,
            };
            options.finish()?;
            Ok(visitor.visit(Life::new(drops)))
        }
        "advance" => {
            let side = options.take_usize("side", crate::games::advance::DEFAULT_SIDE)?;
            let offset = options.take_usize("offset", crate::games::advance::DEFAULT_OFFSET)?;
            let cells = (options.take_text("x"), options.take_text("o"));
            let first = options.take_choice("first", &["random", "x", "o"])?;
            options.finish()?;
            let mut game = match cells {
                (None, None) => Advance::with_offset(side, offset)?,
                (Some(x), Some(o)) => Advance::with_start_cells(side, &x, &o)?,
                _ => {
                    return Err(spec_error(
                        "advance: give both x= and o= start cells, or neither".into(),
                    ));
                }
            };
            match first {
                "x" => game = game.with_first(crate::Player::ZERO),
                "o" => game = game.with_first(crate::Player::ONE),
                _ => {}
            }
            Ok(visitor.visit(game))
        }
        "ikabegama" => {
            let side = options.take_usize("side", crate::games::ikabegama::DEFAULT_SIDE)?;
            let distance =
                options.take_usize("distance", crate::games::ikabegama::DEFAULT_DISTANCE)?;
            let nests = (options.take_text("light"), options.take_text("dark"));
            options.finish()?;
            let game = match nests {
                (None, None) => Ikabegama::with_distance(side, distance)?,
                (Some(l), Some(d)) => Ikabegama::with_nest_cells(side, &l, &d)?,
                _ => {
                    return Err(spec_error(
                        "ikabegama: give both light= and dark= nests, or neither".into(),
                    ));
                }
            };
            Ok(visitor.visit(game))
        }
        "havannah" => {
            let size = options.take_usize("size", crate::games::havannah::DEFAULT_BASE)?;
            let swap = options.take_choice("swap", &["off", "on"])? == "on";
            options.finish()?;
            Ok(visitor.visit(Havannah::new(size, swap)?))
        }
        "hexxagon" => {
            let side = options.take_usize("side", crate::games::hexxagon::DEFAULT_SIDE)?;
            options.finish()?;
            Ok(visitor.visit(Hexxagon::new(side)?))
        }
        other => unreachable!("game {other} is listed in GAMES but not built here"),
    }
}

/// The board size a GTP `boardsize` command names for the game `spec`: its `size` (Rin,
/// Havannah) or `side` (the other hex games) option, or that option's default; `None` for a
/// game without one (the Life duel's board is fixed) or a spec that does not parse.
#[must_use]
pub fn board_size(spec: &str) -> Option<usize> {
    let spec = GameSpec::parse(spec).ok()?;
    let key = match spec.name.as_str() {
        "rin" | "havannah" => "size",
        "advance" | "ikabegama" | "hexxagon" => "side",
        _ => return None,
    };
    if let Some((_, value)) = spec.options.iter().find(|(k, _)| k == key) {
        return value.parse().ok();
    }
    Some(match spec.name.as_str() {
        "rin" => crate::games::rin::DEFAULT_SIZE,
        "havannah" => crate::games::havannah::DEFAULT_BASE,
        "advance" => crate::games::advance::DEFAULT_SIDE,
        "ikabegama" => crate::games::ikabegama::DEFAULT_SIDE,
        _ => crate::games::hexxagon::DEFAULT_SIDE,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Spec;
    impl GameVisitor for Spec {
        type Output = String;
        fn visit<G: Game + crate::Features>(self, start: G) -> String {
            start.spec()
        }
    }

    /// Every cell name token (`a1`, `k10`) in a text.
    fn cell_tokens(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = String::new();
        for c in text.chars().chain(std::iter::once(' ')) {
            let letters_then_digits = c.is_ascii_lowercase()
                && !cur.chars().any(|d| d.is_ascii_digit())
                || c.is_ascii_digit() && !cur.is_empty();
            if letters_then_digits {
                cur.push(c);
            } else {
                if cur.chars().any(|d| d.is_ascii_digit()) {
                    out.push(cur.clone());
                }
                cur.clear();
                if c.is_ascii_lowercase() {
                    cur.push(c);
                }
            }
        }
        out
    }

    #[test]
    fn every_game_names_its_drawn_cells_as_its_moves_name_them() {
        struct Check;
        impl GameVisitor for Check {
            type Output = ();
            fn visit<G: Game + crate::Features>(self, start: G) {
                let names = start.cell_names();
                let cells = start.board_cells();
                let shape: Vec<usize> = names.iter().map(Vec::len).collect();
                let drawn: Vec<usize> = cells.iter().map(|r| r.chars().count()).collect();
                assert_eq!(shape, drawn, "{}", start.spec());
                let all: std::collections::HashSet<&String> = names.iter().flatten().collect();
                assert_eq!(all.len(), shape.iter().sum::<usize>(), "names are distinct");
                let mut moves = Vec::new();
                start.legal_moves(&mut moves);
                for mv in moves {
                    for token in cell_tokens(&start.move_text(mv)) {
                        assert!(all.contains(&token), "{}: {token}", start.spec());
                    }
                }
            }
        }
        for info in GAMES {
            with_game(info.name, Check).unwrap();
        }
    }

    #[test]
    fn board_size_is_the_size_or_side_option_or_its_default() {
        assert_eq!(board_size("havannah:size=6"), Some(6));
        assert_eq!(board_size("havannah"), Some(8));
        assert_eq!(board_size("rin"), Some(16));
        assert_eq!(board_size("ikabegama:side=9,distance=3"), Some(9));
        assert_eq!(board_size("hexxagon"), Some(5));
        assert_eq!(board_size("advance:first=x"), Some(6));
        assert_eq!(board_size("life"), None);
        assert_eq!(board_size("havannah:size=x"), None);
    }

    #[test]
    fn every_listed_game_builds_and_its_spec_round_trips() {
        for info in GAMES {
            let spec = with_game(info.name, Spec).unwrap();
            assert_eq!(with_game(&spec, Spec).unwrap(), spec);
        }
        assert_eq!(with_game("rin:size=8", Spec).unwrap(), "rin:size=8");
        assert_eq!(with_game("rin:size=16", Spec).unwrap(), "rin");
        assert_eq!(
            with_game("life:drops=anywhere", Spec).unwrap(),
            "life:drops=anywhere"
        );
    }

    #[test]
    fn bad_specs_name_the_problem() {
        let err = |s: &str| with_game(s, Spec).unwrap_err().reason;
        assert!(err("chess").contains("unknown game 'chess'"));
        assert!(err("rin:size=7").contains("size must be an even number"));
        assert!(err("rin:size=big").contains("whole number"));
        assert!(err("rin:colour=red").contains("unknown option 'colour'"));
        assert!(err("rin:size").contains("key=value"));
        assert!(err("rin:size=8,size=10").contains("twice"));
        assert!(err("").contains("no game named"));
        assert!(err("life:drops=nowhere").contains("adjacent|anywhere"));
        assert!(err("ikabegama:distance=20").contains("distance must be from 1 to 12"));
        assert!(err("ikabegama:light=a1").contains("both"));
        assert!(err("ikabegama:side=10").contains("side must be from 2 to 9"));
        assert!(err("advance:x=z9,o=a1").contains("start cell 'z9'"));
        assert!(err("hexxagon:side=2").contains("side must be from 3"));
    }
}
