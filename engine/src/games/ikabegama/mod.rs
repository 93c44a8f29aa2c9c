//! Ikabegamá, "nesting over the other" (seed 004): Hexxagon's moves, and the goal of putting a
//! token on the opponent's nest. Rules: `RULES.md` in this folder, below.
//!
#![doc = include_str!("RULES.md")]

use crate::bitboard::Bb256;
use crate::error::{GameSpecError, ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player};
use crate::games::grow_jump::{self, Board, GrowJump, Tokens};
use crate::hex::{self, HexGrid};

/// The default board side (127 cells).
pub const DEFAULT_SIDE: usize = 7;
/// The default distance between the nests.
pub const DEFAULT_DISTANCE: usize = 4;

/// An Ikabegamá position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ikabegama {
    board: Board,
    /// The Light nest and the Dark nest, as cells.
    nests: [u8; 2],
}

impl Default for Ikabegama {
    fn default() -> Self {
        Ikabegama::with_distance(DEFAULT_SIDE, DEFAULT_DISTANCE).expect("defaults are valid")
    }
}

fn spec_error(reason: String) -> GameSpecError {
    GameSpecError {
        kind: crate::error::SpecErrorKind::BadValue,
        reason: format!("ikabegama: {reason}"),
    }
}

impl Ikabegama {
    /// The letter of cell `c` in the drawn board: tokens, then the empty nests.
    fn cell_char(&self, c: usize) -> char {
        let (tokens, nests) = (self.board.tokens, self.nests);
        if tokens.0[0].has(c) {
            'L'
        } else if tokens.0[1].has(c) {
            'D'
        } else if c == nests[0] as usize {
            'l'
        } else if c == nests[1] as usize {
            'd'
        } else {
            '.'
        }
    }
}

impl Ikabegama {
    /// Nests on the horizontal axis through the centre, `distance` cells apart: Light's
    /// `⌊distance/2⌋` cells left of the centre, Dark's `⌈distance/2⌉` cells right of it
    /// (symmetric for even distances).
    pub fn with_distance(side: usize, distance: usize) -> Result<Ikabegama, GameSpecError> {
        check_side(side)?;
        let max = 2 * (side - 1);
        if distance == 0 || distance > max {
            return Err(spec_error(format!(
                "distance must be from 1 to {max} on side {side}, not {distance}"
            )));
        }
        let grid = hex::grid(side);
        let light = grid
            .cell_at(-((distance / 2) as i32), 0)
            .expect("on the axis");
        let dark = grid
            .cell_at(distance.div_ceil(2) as i32, 0)
            .expect("on the axis");
        Ok(Self::with_nests(side, [light as usize, dark as usize]))
    }

    /// Nests on explicit cells (in the hex notation), Light's first.
    pub fn with_nest_cells(
        side: usize,
        light: &str,
        dark: &str,
    ) -> Result<Ikabegama, GameSpecError> {
        check_side(side)?;
        let grid = hex::grid(side);
        let cell = |t: &str| {
            grid.parse_cell(t)
                .map_err(|e| spec_error(format!("nest '{t}': {}", e.expected)))
        };
        let (l, d) = (cell(light)?, cell(dark)?);
        if l == d {
            return Err(spec_error("the two nests must be different cells".into()));
        }
        Ok(Self::with_nests(side, [l, d]))
    }

    fn with_nests(side: usize, nests: [usize; 2]) -> Ikabegama {
        let mut tokens = Tokens::default();
        tokens.0[0].insert(nests[0]);
        tokens.0[1].insert(nests[1]);
        Ikabegama {
            board: Board::new(side, tokens),
            nests: [nests[0] as u8, nests[1] as u8],
        }
    }

    #[inline]
    fn grid(&self) -> &'static HexGrid {
        self.board.grid()
    }

    /// The nest of `player`.
    #[must_use]
    pub fn nest(&self, player: Player) -> usize {
        self.nests[player.index()] as usize
    }

    /// The tokens of both colours.
    #[must_use]
    pub fn tokens(&self) -> &Tokens {
        &self.board.tokens
    }

    /// The hex distance between the nests.
    #[must_use]
    pub fn nest_distance(&self) -> i32 {
        self.grid()
            .distance(self.nests[0] as usize, self.nests[1] as usize)
    }
}

fn check_side(side: usize) -> Result<(), GameSpecError> {
    if (2..=hex::MAX_SIDE).contains(&side) {
        Ok(())
    } else {
        Err(spec_error(format!(
            "side must be from 2 to {}, not {side}",
            hex::MAX_SIDE
        )))
    }
}

impl Game for Ikabegama {
    type Move = GrowJump;

    fn name(&self) -> &'static str {
        "ikabegama"
    }

    fn board_size(&self) -> Option<crate::BoardSize> {
        Some(crate::BoardSize {
            option: "side",
            value: self.board.side(),
        })
    }

    fn spec(&self) -> String {
        let grid = self.grid();
        let default_nests =
            Ikabegama::with_distance(self.board.side(), self.nest_distance() as usize)
                .map(|d| d.nests == self.nests)
                .unwrap_or(false);
        let mut options = Vec::new();
        if self.board.side() != DEFAULT_SIDE {
            options.push(format!("side={}", self.board.side()));
        }
        if !default_nests {
            options.push(format!(
                "light={},dark={}",
                grid.cell_name(self.nests[0] as usize),
                grid.cell_name(self.nests[1] as usize)
            ));
        } else if self.nest_distance() as usize != DEFAULT_DISTANCE {
            options.push(format!("distance={}", self.nest_distance()));
        }
        if options.is_empty() {
            "ikabegama".into()
        } else {
            format!("ikabegama:{}", options.join(","))
        }
    }

    fn cell_shape(&self) -> crate::CellShape {
        crate::CellShape::Hex
    }

    fn player_name(&self, player: Player) -> &'static str {
        ["light", "dark"][player.index()]
    }

    fn to_move(&self) -> Option<Player> {
        self.outcome().is_none().then_some(self.board.mover())
    }

    fn ply(&self) -> u32 {
        self.board.ply()
    }

    fn legal_moves(&self, moves: &mut Vec<GrowJump>) {
        moves.clear();
        if self.outcome().is_none() {
            self.board.list_moves(moves);
        }
    }

    fn is_legal(&self, mv: GrowJump) -> bool {
        self.outcome().is_none() && self.board.is_legal(mv)
    }

    fn play_unchecked(&mut self, mv: GrowJump) {
        self.board.play(mv);
    }

    fn why_illegal(&self, mv: GrowJump) -> String {
        self.board.why_illegal(mv)
    }

    /// A token on the enemy nest wins; a side with no tokens loses; if neither side can grow or
    /// jump the game can never move again and is a draw.
    fn outcome(&self) -> Option<Outcome> {
        let tokens = &self.board.tokens.0;
        for p in [Player::ZERO, Player::ONE] {
            if tokens[p.index()].has(self.nests[p.other().index()] as usize) {
                return Some(Outcome::Win(p));
            }
        }
        for p in [Player::ZERO, Player::ONE] {
            if tokens[p.index()].is_empty() {
                return Some(Outcome::Win(p.other()));
            }
        }
        self.board.stuck().then_some(Outcome::Draw)
    }

    fn scores(&self) -> Option<[f64; 2]> {
        None
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn hash_from_scratch(&self) -> u64 {
        self.board.hash_from_scratch()
    }

    fn parse_move(&self, text: &str) -> Result<GrowJump, ParseMoveError> {
        self.board.parse_move(text)
    }

    fn move_index(&self, mv: GrowJump) -> usize {
        mv.index()
    }

    fn move_index_count(&self) -> usize {
        GrowJump::INDEX_COUNT
    }

    fn move_text(&self, mv: GrowJump) -> String {
        self.board.move_text(mv)
    }

    /// The hexagon with `L`/`D` tokens; an empty nest shows as `l` (Light's) or `d` (Dark's).
    fn cell_names(&self) -> Vec<Vec<String>> {
        self.grid().row_names()
    }

    fn board_rows(&self) -> Vec<String> {
        self.grid().draw(|c| self.cell_char(c))
    }

    fn write_cells(&self, out: &mut Vec<u8>) {
        self.grid().write_cells(|c| self.cell_char(c), out);
    }

    /// The hexagon drawn row by row (`L`, `D`, `.`; an empty nest may be drawn `l` or `d`; spaces
    /// ignored) and an optional line `to_move light|dark` (default light). The nests stay this
    /// state's.
    fn set_up(&self, text: &str) -> Result<Ikabegama, PositionError> {
        Ok(Ikabegama {
            board: self.board.set_up(text, &['.', 'l', 'd'])?,
            nests: self.nests,
        })
    }
}

/// Ikabegamá's features: Hexxagon's, then the nests'; with the weights of `eval=rich`.
const FEATURES: [crate::Feature; 6] = [
    grow_jump::FEATURES[0],
    grow_jump::FEATURES[1],
    grow_jump::FEATURES[2],
    grow_jump::FEATURES[3],
    crate::Feature {
        name: "nest_distance",
        default_weight: 2.0,
    },
    crate::Feature {
        name: "nest_guard",
        default_weight: 0.25,
    },
];

impl crate::Features for Ikabegama {
    fn feature_set(&self) -> &'static [crate::Feature] {
        &FEATURES
    }

    fn tuned_fit(&self) -> Option<&'static [f64]> {
        Some(&TUNED)
    }

    /// The net of side 9 with nests 6 apart, the board it was trained and checked on
    /// (results/nets/ikabegama-mixed/, made by `experiments/net-game.sh ikabegama-mixed`): it
    /// beats `eval=tuned` at equal depth.
    fn shipped_net(&self) -> Option<&'static [u8]> {
        (self.board.side() == 9 && self.nest_distance() == 6).then_some(NET)
    }

    /// - `material`: the player's tokens.
    /// - `growths`: empty cells next to the player's tokens (each a growth).
    /// - `jumps`: jumps the player has (a token and an empty cell two cells away).
    /// - `unflippable`: the player's tokens the opponent cannot flip with its next move.
    /// - `nest_distance`: minus the distance from the player's nearest token to the enemy nest
    ///   (nearer is larger; no token at all counts as twice the board's side).
    /// - `nest_guard`: the player's tokens within two cells of its own nest, the two layers
    ///   seed 004 says wall a nest in.
    fn features(&self, player: Player, out: &mut [f64; crate::MAX_FEATURES]) {
        let grid = self.grid();
        let own = self.board.tokens.0[player.index()];
        self.board.tokens.write_features(grid, player.index(), out);
        let target = self.nests[player.other().index()] as usize;
        let nearest = own
            .points()
            .map(|c| grid.distance(c, target))
            .min()
            .unwrap_or(2 * grid.side() as i32);
        let home = self.nests[player.index()] as usize;
        let guard = grid.dilate(grid.dilate(Bb256::from_point(home)));
        out[4] = -f64::from(nearest);
        out[5] = f64::from((own & guard).count());
    }
}

impl crate::options::Registered for Ikabegama {
    const INFO: crate::options::GameInfo = crate::options::GameInfo {
        name: "ikabegama",
        about: "Ikabegama (seed 004): Hexxagon moves, reach the enemy nest",
        options: &[
            crate::options::GameOption {
                name: "side",
                kind: crate::options::OptionKind::Int { min: 2, max: 9 },
                default: Some("7"),
                help: "cells on a side of the hexagon",
            },
            crate::options::GameOption {
                name: "distance",
                kind: crate::options::OptionKind::Int { min: 1, max: 16 },
                default: Some("4"),
                help: "cells between the nests, at most 2 (side - 1)",
            },
            crate::options::GameOption {
                name: "light",
                kind: crate::options::OptionKind::Cell,
                default: None,
                help: "Light's nest, instead of a distance (with dark=)",
            },
            crate::options::GameOption {
                name: "dark",
                kind: crate::options::OptionKind::Cell,
                default: None,
                help: "Dark's nest, instead of a distance (with light=)",
            },
        ],
    };

    fn from_options(options: &mut crate::options::Options) -> Result<Ikabegama, GameSpecError> {
        let side = options.int("side")?;
        let distance = options.int("distance")?;
        match (options.text("light"), options.text("dark")) {
            (None, None) => Ikabegama::with_distance(side, distance),
            (Some(l), Some(d)) => Ikabegama::with_nest_cells(side, &l, &d),
            _ => Err(GameSpecError::new(
                crate::error::SpecErrorKind::Incomplete,
                "ikabegama: give both light= and dark= nests, or neither",
            )),
        }
    }
}

/// The shipped net of side 9, nests 6 apart ([`crate::Features::shipped_net`]).
const NET: &[u8] = include_bytes!("net.rsnet");

#[cfg(test)]
mod tests;

/// The weights of `eval=tuned` (see [`crate::Features::tuned_fit`]): SPSA-tuned in
/// alpha-beta matches on `ikabegama:distance=6,side=9` (results/ikabegama-spsa/: `growths`,
/// `unflippable`, `nest_distance` and `nest_guard`; `material` and `jumps` kept at their
/// defaults). Texel fits on self-play made this player weaker (results/tuned/README.md).
const TUNED: [f64; 6] = [
    1.0,
    -0.25779582530317074,
    0.02,
    0.13029817755108716,
    2.781332497806492,
    2.174090626019301,
];
