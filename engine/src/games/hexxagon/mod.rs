//! Hexxagon, the game whose moves Ikabegamá takes. Rules: `RULES.md` in this folder, below.
//!
#![doc = include_str!("RULES.md")]

use crate::error::{GameSpecError, ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player};
use crate::games::grow_jump::{self, Board, GrowJump, Tokens};
use crate::hex::{self, DIRECTIONS};

/// The default side: 61 cells.
pub const DEFAULT_SIDE: usize = 5;

/// A Hexxagon position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hexxagon {
    board: Board,
}

impl Default for Hexxagon {
    fn default() -> Self {
        Hexxagon::new(DEFAULT_SIDE).expect("the default side is valid")
    }
}

impl Hexxagon {
    /// The start on a hexagon of `side` (3 to 9): three tokens each on alternating corners,
    /// Light (`Player::ZERO`) to move.
    pub fn new(side: usize) -> Result<Hexxagon, GameSpecError> {
        if !(3..=hex::MAX_SIDE).contains(&side) {
            return Err(GameSpecError {
                kind: crate::error::SpecErrorKind::BadValue,
                reason: format!(
                    "hexxagon: side must be from 3 to {}, not {side}",
                    hex::MAX_SIDE
                ),
            });
        }
        let grid = hex::grid(side);
        let mut tokens = Tokens::default();
        let n = side as i32 - 1;
        for (k, &(dq, dr)) in DIRECTIONS.iter().enumerate() {
            let corner = grid
                .cell_at(n * dq, n * dr)
                .expect("corners are on the board");
            tokens.0[k % 2].insert(corner as usize);
        }
        Ok(Hexxagon {
            board: Board::new(side, tokens),
        })
    }

    #[inline]
    fn grid(&self) -> &'static crate::hex::HexGrid {
        self.board.grid()
    }

    /// The tokens of both colours.
    #[must_use]
    pub fn tokens(&self) -> &Tokens {
        &self.board.tokens
    }

    fn counts(&self) -> [u32; 2] {
        [
            self.board.tokens.0[0].count(),
            self.board.tokens.0[1].count(),
        ]
    }
}

impl Game for Hexxagon {
    type Move = GrowJump;

    fn name(&self) -> &'static str {
        "hexxagon"
    }

    fn board_size(&self) -> Option<crate::BoardSize> {
        Some(crate::BoardSize {
            option: "side",
            value: self.board.side(),
        })
    }

    fn spec(&self) -> String {
        match self.board.side() {
            DEFAULT_SIDE => "hexxagon".into(),
            side => format!("hexxagon:side={side}"),
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

    /// Over when a side has no token, the board is full, or neither side can grow or jump.
    fn outcome(&self) -> Option<Outcome> {
        let [light, dark] = self.counts();
        let full = self.board.tokens.empty(self.grid()).is_empty();
        if light == 0 || dark == 0 || full || self.board.stuck() {
            Some(match light.cmp(&dark) {
                std::cmp::Ordering::Greater => Outcome::Win(Player::ZERO),
                std::cmp::Ordering::Less => Outcome::Win(Player::ONE),
                std::cmp::Ordering::Equal => Outcome::Draw,
            })
        } else {
            None
        }
    }

    fn scores(&self) -> Option<[f64; 2]> {
        let [l, d] = self.counts();
        Some([f64::from(l), f64::from(d)])
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

    fn cell_names(&self) -> Vec<Vec<String>> {
        self.grid().row_names()
    }

    fn board_rows(&self) -> Vec<String> {
        grow_jump::draw(self.grid(), &self.board.tokens, ['L', 'D'])
    }

    fn write_cells(&self, out: &mut Vec<u8>) {
        grow_jump::write_cells(self.grid(), &self.board.tokens, ['L', 'D'], out);
    }

    /// The hexagon drawn row by row (`L` light, `D` dark, `.` empty; spaces ignored) and an
    /// optional line `to_move light|dark` (default light).
    fn set_up(&self, text: &str) -> Result<Hexxagon, PositionError> {
        Ok(Hexxagon {
            board: self.board.set_up(text, &['.'])?,
        })
    }
}

impl crate::Features for Hexxagon {
    fn feature_set(&self) -> &'static [crate::Feature] {
        &crate::games::grow_jump::FEATURES
    }

    fn tuned_fit(&self) -> Option<&'static [f64]> {
        Some(&TUNED)
    }

    /// The net of side 5, the side it was trained and checked on (results/nets/hexxagon/,
    /// made by experiments/net-hexxagon.sh): it beats `eval=tuned` at equal depth.
    fn shipped_net(&self) -> Option<&'static [u8]> {
        (self.board.side() == DEFAULT_SIDE).then_some(NET)
    }

    /// - `material`: the player's tokens.
    /// - `growths`: empty cells next to the player's tokens (each a growth).
    /// - `jumps`: jumps the player has (a token and an empty cell two cells away).
    /// - `unflippable`: the player's tokens the opponent cannot flip with its next move.
    fn features(&self, player: Player, out: &mut [f64; crate::MAX_FEATURES]) {
        self.board
            .tokens
            .write_features(self.grid(), player.index(), out);
    }
}

impl crate::options::Registered for Hexxagon {
    const INFO: crate::options::GameInfo = crate::options::GameInfo {
        name: "hexxagon",
        about: "Hexxagon: growth, jump and flip on a hexagon; more tokens wins",
        options: &[crate::options::GameOption {
            name: "side",
            kind: crate::options::OptionKind::Int { min: 3, max: 9 },
            default: Some("5"),
            help: "cells on a side of the hexagon",
        }],
    };

    fn from_options(options: &mut crate::options::Options) -> Result<Hexxagon, GameSpecError> {
        Hexxagon::new(options.int("side")?)
    }
}

#[cfg(test)]
mod tests;

/// The bytes of `eval=net`'s network for side 5 (`agents/src/net.rs` gives the format).
const NET: &[u8] = include_bytes!("net.rsnet");

/// The weights of `eval=tuned` (see [`crate::Features::tuned_fit`]): Texel-fitted to
/// alpha-beta self-play, `material` held at 1 (results/tuned/hexxagon/: the command, the fit and
/// the checks against the default weights).
const TUNED: [f64; 4] = [
    1.0,
    0.05640647200587021,
    -0.07571460056251601,
    0.36370584203883927,
];
