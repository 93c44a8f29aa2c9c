//! Hexxagon, the game whose moves Ikabegamá takes. Rules: `RULES.md` in this folder, below.
//!
#![doc = include_str!("RULES.md")]

use crate::error::{GameSpecError, ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player};
use crate::games::grow_jump::{self, GrowJump, KEYS, Tokens};
use crate::hex::{self, DIRECTIONS, HexGrid};

/// The default side: 61 cells.
pub const DEFAULT_SIDE: usize = 5;

/// A Hexxagon position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hexxagon {
    tokens: Tokens,
    hash: u64,
    ply: u32,
    side: u8,
    to_move: Player,
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
            tokens,
            hash: grow_jump::hash_of(&tokens, 0),
            ply: 0,
            side: side as u8,
            to_move: Player::ZERO,
        })
    }

    #[inline]
    fn grid(&self) -> &'static HexGrid {
        hex::grid(self.side as usize)
    }

    /// The tokens of both colours.
    #[must_use]
    pub fn tokens(&self) -> &Tokens {
        &self.tokens
    }

    fn counts(&self) -> [u32; 2] {
        [self.tokens.0[0].count(), self.tokens.0[1].count()]
    }
}

impl Game for Hexxagon {
    type Move = GrowJump;

    fn name(&self) -> &'static str {
        "hexxagon"
    }

    fn spec(&self) -> String {
        if self.side as usize == DEFAULT_SIDE {
            "hexxagon".into()
        } else {
            format!("hexxagon:side={}", self.side)
        }
    }

    fn player_name(&self, player: Player) -> &'static str {
        ["light", "dark"][player.index()]
    }

    fn to_move(&self) -> Option<Player> {
        self.outcome().is_none().then_some(self.to_move)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn legal_moves(&self, moves: &mut Vec<GrowJump>) {
        if self.outcome().is_some() {
            moves.clear();
            return;
        }
        self.tokens
            .list_moves(self.grid(), self.to_move.index(), moves);
    }

    fn is_legal(&self, mv: GrowJump) -> bool {
        self.outcome().is_none() && self.tokens.is_legal(self.grid(), self.to_move.index(), mv)
    }

    fn play_unchecked(&mut self, mv: GrowJump) {
        let me = self.to_move.index();
        let mut hash = self.hash;
        self.tokens.apply(self.grid(), me, mv, |colour, cell| {
            hash ^= KEYS.piece(colour, cell)
        });
        self.hash = hash ^ KEYS.phase(0) ^ KEYS.phase(1);
        self.to_move = self.to_move.other();
        self.ply += 1;
    }

    fn why_illegal(&self, mv: GrowJump) -> String {
        self.tokens
            .why_illegal(self.grid(), self.to_move.index(), mv)
    }

    /// Over when a side has no token, the board is full, or neither side can grow or jump.
    fn outcome(&self) -> Option<Outcome> {
        let [light, dark] = self.counts();
        let grid = self.grid();
        let stuck = self.tokens.empty(grid).is_empty()
            || (!self.tokens.can_move(grid, 0) && !self.tokens.can_move(grid, 1));
        if light == 0 || dark == 0 || stuck {
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
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        grow_jump::hash_of(&self.tokens, self.to_move.index())
    }

    fn parse_move(&self, text: &str) -> Result<GrowJump, ParseMoveError> {
        grow_jump::parse_move(self.grid(), text)
    }

    fn move_text(&self, mv: GrowJump) -> String {
        grow_jump::move_text(self.grid(), mv)
    }

    fn board_rows(&self) -> Vec<String> {
        grow_jump::draw(self.grid(), &self.tokens, ['L', 'D'])
    }

    /// The hexagon drawn row by row (`L` light, `D` dark, `.` empty; spaces ignored) and an
    /// optional line `to_move light|dark` (default light).
    fn set_up(&self, text: &str) -> Result<Hexxagon, PositionError> {
        let (tokens, to_move) =
            grow_jump::read_position(self.grid(), text, ['L', 'D'], &['.'], ["light", "dark"])?;
        let to_move = Player::new(to_move.unwrap_or(0));
        Ok(Hexxagon {
            tokens,
            hash: grow_jump::hash_of(&tokens, to_move.index()),
            ply: 0,
            side: self.side,
            to_move,
        })
    }
}

#[cfg(test)]
mod tests;
