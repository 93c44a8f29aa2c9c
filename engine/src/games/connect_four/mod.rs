//! Connect Four, as OpenSpiel's `connect_four` plays it. Rules: `RULES.md` in this folder,
//! below.
//!
#![doc = include_str!("RULES.md")]

use crate::error::{ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player};
use crate::zobrist::Zobrist;
use crate::{Feature, Features, MAX_FEATURES};

/// Columns of the board.
pub const COLUMNS: usize = 7;
/// Rows of the board.
pub const ROWS: usize = 6;
/// Bits a column takes in a bitboard: its rows and one empty bit above, so that no line
/// runs from one column's top into the next column's bottom.
const STRIDE: usize = ROWS + 1;
/// Every cell of the board.
const BOARD: u64 = {
    let mut b = 0;
    let mut c = 0;
    while c < COLUMNS {
        b |= ((1 << ROWS) - 1) << (c * STRIDE);
        c += 1;
    }
    b
};
/// The four-cell windows of the board (columns, rows and both diagonals): 69 of them.
const WINDOWS: [u64; 69] = {
    let mut out = [0u64; 69];
    let mut n = 0;
    let dirs: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut d = 0;
    while d < 4 {
        let (dc, dr) = dirs[d];
        let mut c = 0;
        while c < COLUMNS as i32 {
            let mut r = 0;
            while r < ROWS as i32 {
                let (ec, er) = (c + 3 * dc, r + 3 * dr);
                if ec >= 0 && ec < COLUMNS as i32 && er >= 0 && er < ROWS as i32 {
                    let mut w = 0u64;
                    let mut k = 0;
                    while k < 4 {
                        w |= 1 << ((c + k * dc) as usize * STRIDE + (r + k * dr) as usize);
                        k += 1;
                    }
                    out[n] = w;
                    n += 1;
                }
                r += 1;
            }
            c += 1;
        }
        d += 1;
    }
    assert!(n == 69);
    out
};

/// Keys of the two colours on the 42 cells (`column × 6 + row`); phases: `x` to move, `o`.
static KEYS: Zobrist<{ COLUMNS * ROWS }, 2> = Zobrist::new(0xC4_C4);

/// A move: the column a disc is dropped in, 0 (left) to 6; OpenSpiel's action number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column(pub u8);

/// A Connect Four position: a bitboard a colour (bit `7 × column + row`, row 0 at the
/// bottom) and the height of each column.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    discs: [u64; 2],
    heights: [u8; COLUMNS],
    ply: u8,
    outcome: Option<Outcome>,
    hash: u64,
}

impl Default for ConnectFour {
    fn default() -> Self {
        ConnectFour::new()
    }
}

/// Whether `discs` hold four in a line.
#[inline]
fn has_four(discs: u64) -> bool {
    [1, STRIDE, STRIDE + 1, STRIDE - 1].iter().any(|&d| {
        let pairs = discs & (discs >> d);
        pairs & (pairs >> (2 * d)) != 0
    })
}

#[inline]
fn bit(col: usize, row: usize) -> u64 {
    1 << (col * STRIDE + row)
}

impl ConnectFour {
    /// The empty board, `x` to move.
    #[must_use]
    pub fn new() -> ConnectFour {
        ConnectFour {
            discs: [0, 0],
            heights: [0; COLUMNS],
            ply: 0,
            outcome: None,
            hash: KEYS.phase(0),
        }
    }

    fn mover(&self) -> Player {
        Player::new(usize::from(self.ply % 2))
    }

    fn disc(&self, col: usize, row: usize) -> char {
        if self.discs[0] & bit(col, row) != 0 {
            'X'
        } else if self.discs[1] & bit(col, row) != 0 {
            'O'
        } else {
            '.'
        }
    }

    fn outcome_after(&self, mover: Player) -> Option<Outcome> {
        if has_four(self.discs[mover.index()]) {
            Some(Outcome::Win(mover))
        } else if usize::from(self.ply) == COLUMNS * ROWS {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
}

impl Game for ConnectFour {
    type Move = Column;

    fn name(&self) -> &'static str {
        "connect_four"
    }

    fn spec(&self) -> String {
        "connect_four".into()
    }

    fn player_name(&self, player: Player) -> &'static str {
        ["x", "o"][player.index()]
    }

    fn to_move(&self) -> Option<Player> {
        self.outcome.is_none().then(|| self.mover())
    }

    fn ply(&self) -> u32 {
        u32::from(self.ply)
    }

    fn legal_moves(&self, moves: &mut Vec<Column>) {
        moves.clear();
        if self.outcome.is_none() {
            moves.extend(
                (0..COLUMNS as u8)
                    .filter(|&c| usize::from(self.heights[usize::from(c)]) < ROWS)
                    .map(Column),
            );
        }
    }

    fn is_legal(&self, mv: Column) -> bool {
        self.outcome.is_none()
            && usize::from(mv.0) < COLUMNS
            && usize::from(self.heights[usize::from(mv.0)]) < ROWS
    }

    fn play_unchecked(&mut self, mv: Column) {
        let me = self.mover();
        let col = usize::from(mv.0);
        let row = usize::from(self.heights[col]);
        self.discs[me.index()] |= bit(col, row);
        self.heights[col] += 1;
        self.hash ^= KEYS.piece(me.index(), col * ROWS + row)
            ^ KEYS.phase(me.index() as u32)
            ^ KEYS.phase(me.other().index() as u32);
        self.ply += 1;
        self.outcome = self.outcome_after(me);
    }

    /// For the mover only: the opponent's reply may fill the column, moving the cell a
    /// column move lands on.
    fn wins_at_once(&self, player: Player, mv: Column) -> Option<bool> {
        if self.to_move() != Some(player) {
            return None;
        }
        if !self.is_legal(mv) {
            return Some(false);
        }
        let col = usize::from(mv.0);
        let cell = bit(col, usize::from(self.heights[col]));
        Some(has_four(self.discs[player.index()] | cell))
    }

    fn move_index(&self, mv: Column) -> usize {
        usize::from(mv.0)
    }

    fn move_index_count(&self) -> usize {
        COLUMNS
    }

    fn why_illegal(&self, mv: Column) -> String {
        if usize::from(mv.0) >= COLUMNS {
            format!("there is no column {}", mv.0)
        } else {
            format!("column {} is full", self.move_text(mv))
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn scores(&self) -> Option<[f64; 2]> {
        None
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = KEYS.phase(u32::from(self.ply % 2));
        for colour in 0..2 {
            for col in 0..COLUMNS {
                for row in 0..ROWS {
                    if self.discs[colour] & bit(col, row) != 0 {
                        h ^= KEYS.piece(colour, col * ROWS + row);
                    }
                }
            }
        }
        h
    }

    /// A column letter (`d`), or OpenSpiel's `x3` / `o3`.
    fn parse_move(&self, text: &str) -> Result<Column, ParseMoveError> {
        let err = || ParseMoveError {
            text: text.to_string(),
            expected: "a column a..g, or x0..x6".into(),
        };
        let col = match text.as_bytes() {
            [c @ b'a'..=b'g'] => c - b'a',
            [b'x' | b'o', d @ b'0'..=b'6'] => d - b'0',
            _ => return Err(err()),
        };
        Ok(Column(col))
    }

    fn move_text(&self, mv: Column) -> String {
        char::from(b'a' + mv.0).to_string()
    }

    fn action_string(&self, player: Player, mv: Column) -> String {
        format!("{}{}", self.player_name(player), mv.0)
    }

    fn board_rows(&self) -> Vec<String> {
        (0..ROWS)
            .rev()
            .map(|row| (0..COLUMNS).map(|col| self.disc(col, row)).collect())
            .collect()
    }

    fn write_cells(&self, out: &mut Vec<u8>) {
        out.clear();
        for row in (0..ROWS).rev() {
            out.extend((0..COLUMNS).map(|col| self.disc(col, row) as u8));
        }
    }

    fn cell_names(&self) -> Vec<Vec<String>> {
        (0..ROWS)
            .rev()
            .map(|row| {
                (0..COLUMNS)
                    .map(|col| crate::square::point_name(col, row))
                    .collect()
            })
            .collect()
    }

    /// Six rows of `X`, `O` and `.` (or OpenSpiel's `x`, `o`), top first; the mover follows
    /// from the counts.
    fn set_up(&self, text: &str) -> Result<ConnectFour, PositionError> {
        let err = |reason: String| PositionError { reason };
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| {
                l.chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<Vec<char>>()
            })
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() != ROWS || rows.iter().any(|r| r.len() != COLUMNS) {
            return Err(err(format!("expected {ROWS} rows of {COLUMNS} cells")));
        }
        let mut game = ConnectFour::new();
        for col in 0..COLUMNS {
            for row in 0..ROWS {
                let colour = match rows[ROWS - 1 - row][col] {
                    'X' | 'x' => 0,
                    'O' | 'o' => 1,
                    '.' => continue,
                    other => return Err(err(format!("'{other}' is not x, o or ."))),
                };
                if usize::from(game.heights[col]) != row {
                    return Err(err(format!(
                        "a disc floats in column {}",
                        char::from(b'a' + col as u8)
                    )));
                }
                game.discs[colour] |= bit(col, row);
                game.heights[col] += 1;
            }
        }
        let (x, o) = (game.discs[0].count_ones(), game.discs[1].count_ones());
        if x != o && x != o + 1 {
            return Err(err(format!("{x} x and {o} o: x moves first")));
        }
        game.ply = (x + o) as u8;
        let last = Player::new(usize::from((game.ply + 1) % 2));
        game.outcome = game.outcome_after(last).or_else(|| {
            has_four(game.discs[last.other().index()]).then_some(Outcome::Win(last.other()))
        });
        game.hash = game.hash_from_scratch();
        Ok(game)
    }
}

/// Connect Four's features (see [`Features`]).
const FEATURES: [Feature; 4] = [
    Feature {
        name: "material",
        default_weight: 0.0,
    },
    Feature {
        name: "threats",
        default_weight: 1.0,
    },
    Feature {
        name: "twos",
        default_weight: 0.1,
    },
    Feature {
        name: "centre",
        default_weight: 0.2,
    },
];

impl Features for ConnectFour {
    fn feature_set(&self) -> &'static [Feature] {
        &FEATURES
    }

    /// - `material`: the player's discs.
    /// - `threats`: empty cells that would complete four of the player's (Allis's threats,
    ///   open threes among them), playable now or later.
    /// - `twos`: four-cell windows holding two of the player's discs and two empty cells.
    /// - `centre`: the player's discs in the centre column.
    fn features(&self, player: Player, out: &mut [f64; MAX_FEATURES]) {
        let (mine, theirs) = (
            self.discs[player.index()],
            self.discs[player.other().index()],
        );
        let empty = BOARD & !(mine | theirs);
        let (mut threats, mut twos) = (0u64, 0u32);
        for &w in &WINDOWS {
            if w & theirs != 0 {
                continue;
            }
            match (w & mine).count_ones() {
                3 => threats |= w & empty,
                2 => twos += 1,
                _ => {}
            }
        }
        out[0] = f64::from(mine.count_ones());
        out[1] = f64::from(threats.count_ones());
        out[2] = f64::from(twos);
        out[3] = f64::from((mine >> (3 * STRIDE) & ((1 << ROWS) - 1)).count_ones());
    }
}

impl crate::options::Registered for ConnectFour {
    const INFO: crate::options::GameInfo = crate::options::GameInfo {
        name: "connect_four",
        about: "Connect Four 7x6, as OpenSpiel plays it (a first-player win)",
        options: &[],
    };

    fn from_options(
        _options: &mut crate::options::Options,
    ) -> Result<ConnectFour, crate::GameSpecError> {
        Ok(ConnectFour::new())
    }
}

#[cfg(test)]
mod tests;
