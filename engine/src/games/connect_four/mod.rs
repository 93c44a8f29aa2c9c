//! Connect Four, as OpenSpiel's `connect_four` plays it, on any board from one column to
//! twelve, any height, and any length of line to win. Rules: `RULES.md` in this folder, below.
//!
#![doc = include_str!("RULES.md")]

use crate::error::{GameSpecError, ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player};
use crate::zobrist::Zobrist;
use crate::{Feature, Features, MAX_FEATURES};

/// Columns of the default board (OpenSpiel's `columns`).
pub const COLUMNS: usize = 7;
/// Rows of the default board (OpenSpiel's `rows`).
pub const ROWS: usize = 6;
/// Discs in a line that win on the default board (OpenSpiel's `x_in_row`).
pub const IN_A_ROW: usize = 4;
/// The most columns, rows, or discs in a line a board may have.
pub const MAX_SIDE: usize = 12;
/// Bits a bitboard has: `columns × (rows + 1)` may not exceed it.
pub const BITS: usize = 128;

/// Keys of the two colours on the default board's 42 cells (`column × rows + row`), kept as
/// they were before boards had sizes so the default board hashes as committed runs saw it;
/// phases: `x` to move, `o`.
static KEYS: Zobrist<{ COLUMNS * ROWS }, 2> = Zobrist::new(0xC4_C4);
/// Keys of the cells past the 42nd on larger boards.
static MORE_KEYS: Zobrist<{ MAX_SIDE * MAX_SIDE - COLUMNS * ROWS }, 1> = Zobrist::new(0xC4_C5);

/// The key of a disc of `colour` on cell `cell` (`column × rows + row`).
#[inline]
fn key(colour: usize, cell: usize) -> u64 {
    match cell.checked_sub(COLUMNS * ROWS) {
        None => KEYS.piece(colour, cell),
        Some(more) => MORE_KEYS.piece(colour, more),
    }
}

/// A move: the column a disc is dropped in, from 0 (left); OpenSpiel's action number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column(pub u8);

/// A board's dimensions and the line that wins: OpenSpiel's `rows`, `columns` and
/// `x_in_row`.
///
/// In a bitboard, column `c` takes bits `c × (rows + 1)` to `c × (rows + 1) + rows - 1`, row 0
/// at the bottom; the bit above each column stays empty, so that no line runs from one
/// column's top into the next column's bottom. For the default board:
///
/// ```text
///  6 13 20 27 34 41 48   (always empty)
///  5 12 19 26 33 40 47
///  4 11 18 25 32 39 46
///  3 10 17 24 31 38 45
///  2  9 16 23 30 37 44
///  1  8 15 22 29 36 43
///  0  7 14 21 28 35 42
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    rows: u8,
    columns: u8,
    x_in_row: u8,
}

impl Shape {
    /// The default board: 7 columns of 6 rows, four to win.
    pub const DEFAULT: Shape = Shape {
        rows: ROWS as u8,
        columns: COLUMNS as u8,
        x_in_row: IN_A_ROW as u8,
    };

    /// A board of `columns` columns of `rows` cells where `x_in_row` discs in a line win.
    ///
    /// # Errors
    /// When a number is 0 or above [`MAX_SIDE`], or `columns × (rows + 1)` passes [`BITS`].
    pub fn new(rows: usize, columns: usize, x_in_row: usize) -> Result<Shape, GameSpecError> {
        for (name, n) in [("rows", rows), ("columns", columns), ("x_in_row", x_in_row)] {
            if !(1..=MAX_SIDE).contains(&n) {
                return Err(GameSpecError::bad_value(format!(
                    "{name}={n}: from 1 to {MAX_SIDE}"
                )));
            }
        }
        if columns * (rows + 1) > BITS {
            return Err(GameSpecError::bad_value(format!(
                "{columns} columns of {rows} rows: columns x (rows + 1) may not pass {BITS}"
            )));
        }
        Ok(Shape {
            rows: rows as u8,
            columns: columns as u8,
            x_in_row: x_in_row as u8,
        })
    }

    /// Cells in a column.
    #[must_use]
    pub const fn rows(self) -> usize {
        self.rows as usize
    }

    /// Columns on the board.
    #[must_use]
    pub const fn columns(self) -> usize {
        self.columns as usize
    }

    /// Discs in a line that win.
    #[must_use]
    pub const fn x_in_row(self) -> usize {
        self.x_in_row as usize
    }

    /// Bits a column takes in a bitboard: its rows and the empty bit above.
    #[must_use]
    pub const fn stride(self) -> usize {
        self.rows as usize + 1
    }

    /// Cells on the board.
    #[must_use]
    pub const fn cells(self) -> usize {
        self.rows as usize * self.columns as usize
    }

    /// The bit of a cell.
    #[inline]
    #[must_use]
    pub const fn bit(self, col: usize, row: usize) -> u128 {
        1 << (col * self.stride() + row)
    }

    /// Every cell of the board.
    #[must_use]
    pub fn board(self) -> u128 {
        (0..self.columns()).fold(0, |b, c| b | (self.column(c)))
    }

    /// Every cell of column `col`.
    #[must_use]
    pub fn column(self, col: usize) -> u128 {
        ((1u128 << self.rows) - 1) << (col * self.stride())
    }

    /// The four directions of a line as bit distances: up a column, along a row, and the
    /// two diagonals.
    const fn directions(self) -> [usize; 4] {
        let s = self.stride();
        [1, s, s + 1, s - 1]
    }

    /// Whether `discs` hold a line of [`Shape::x_in_row`] or more.
    #[inline]
    #[must_use]
    pub fn has_line(self, discs: u128) -> bool {
        let k = self.x_in_row();
        self.directions().iter().any(|&d| {
            // Runs of `len` discs by doubling, then the rest: a run of `len` starting at a
            // bit and one starting `k - len` further make a run of `k` when `k - len <= len`.
            let (mut runs, mut len) = (discs, 1);
            while 2 * len <= k {
                runs &= runs >> (len * d);
                len *= 2;
            }
            runs &= runs >> ((k - len) * d);
            runs != 0
        })
    }

    /// The lowest bit of every line of [`Shape::x_in_row`] cells in direction `d` on `board`
    /// (this shape's [`Shape::board`]), with the line's cells when it starts at bit 0: each
    /// window of the board is `line << start`.
    fn windows(self, d: usize, board: u128) -> (u128, u128) {
        let (mut starts, mut line) = (board, 1u128);
        for i in 1..self.x_in_row() {
            // A line longer than the board shifts past the top: no window.
            let shift = u32::try_from(i * d).unwrap_or(u32::MAX);
            starts &= board.checked_shr(shift).unwrap_or(0);
            line |= 1u128.checked_shl(shift).unwrap_or(0);
        }
        (starts, line)
    }
}

/// A Connect Four position: a bitboard a colour (laid out as [`Shape`] draws it) and the
/// height of each column.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    discs: [u128; 2],
    heights: [u8; MAX_SIDE],
    shape: Shape,
    ply: u8,
    outcome: Option<Outcome>,
    hash: u64,
}

impl Default for ConnectFour {
    fn default() -> Self {
        ConnectFour::new()
    }
}

impl ConnectFour {
    /// The empty default board, `x` to move.
    #[must_use]
    pub fn new() -> ConnectFour {
        ConnectFour::with_shape(Shape::DEFAULT)
    }

    /// The empty board of `shape`, `x` to move.
    #[must_use]
    pub fn with_shape(shape: Shape) -> ConnectFour {
        ConnectFour {
            discs: [0, 0],
            heights: [0; MAX_SIDE],
            shape,
            ply: 0,
            outcome: None,
            hash: KEYS.phase(0),
        }
    }

    /// The board's dimensions and winning line.
    #[must_use]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The discs of `player`, as a bitboard laid out as [`Shape`] draws it.
    #[must_use]
    pub fn discs(&self, player: Player) -> u128 {
        self.discs[player.index()]
    }

    /// Discs in column `col`.
    #[must_use]
    pub fn height(&self, col: usize) -> usize {
        usize::from(self.heights[col])
    }

    fn mover(&self) -> Player {
        Player::new(usize::from(self.ply % 2))
    }

    fn disc(&self, col: usize, row: usize) -> char {
        let b = self.shape.bit(col, row);
        if self.discs[0] & b != 0 {
            'X'
        } else if self.discs[1] & b != 0 {
            'O'
        } else {
            '.'
        }
    }

    fn outcome_after(&self, mover: Player) -> Option<Outcome> {
        if self.shape.has_line(self.discs[mover.index()]) {
            Some(Outcome::Win(mover))
        } else if usize::from(self.ply) == self.shape.cells() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn column_letter(col: usize) -> char {
        char::from(b'a' + col as u8)
    }
}

impl Game for ConnectFour {
    type Move = Column;

    fn name(&self) -> &'static str {
        "connect_four"
    }

    fn spec(&self) -> String {
        let s = self.shape;
        <ConnectFour as crate::options::Registered>::INFO.spec(&[
            ("rows", &s.rows()),
            ("columns", &s.columns()),
            ("x_in_row", &s.x_in_row()),
        ])
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
            let rows = self.shape.rows();
            moves.extend(
                (0..self.shape.columns)
                    .filter(|&c| usize::from(self.heights[usize::from(c)]) < rows)
                    .map(Column),
            );
        }
    }

    fn is_legal(&self, mv: Column) -> bool {
        self.outcome.is_none()
            && usize::from(mv.0) < self.shape.columns()
            && usize::from(self.heights[usize::from(mv.0)]) < self.shape.rows()
    }

    fn play_unchecked(&mut self, mv: Column) {
        let me = self.mover();
        let col = usize::from(mv.0);
        let row = usize::from(self.heights[col]);
        self.discs[me.index()] |= self.shape.bit(col, row);
        self.heights[col] += 1;
        self.hash ^= key(me.index(), col * self.shape.rows() + row)
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
        let cell = self.shape.bit(col, usize::from(self.heights[col]));
        Some(self.shape.has_line(self.discs[player.index()] | cell))
    }

    fn move_index(&self, mv: Column) -> usize {
        usize::from(mv.0)
    }

    fn move_index_count(&self) -> usize {
        self.shape.columns()
    }

    fn why_illegal(&self, mv: Column) -> String {
        if usize::from(mv.0) >= self.shape.columns() {
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
        let s = self.shape;
        let mut h = KEYS.phase(u32::from(self.ply % 2));
        for colour in 0..2 {
            for col in 0..s.columns() {
                for row in 0..s.rows() {
                    if self.discs[colour] & s.bit(col, row) != 0 {
                        h ^= key(colour, col * s.rows() + row);
                    }
                }
            }
        }
        h
    }

    /// A column letter (`d`), or OpenSpiel's `x3` / `o3`.
    fn parse_move(&self, text: &str) -> Result<Column, ParseMoveError> {
        let columns = self.shape.columns();
        let err = || ParseMoveError {
            text: text.to_string(),
            expected: format!(
                "a column a..{}, or x0..x{}",
                Self::column_letter(columns - 1),
                columns - 1
            ),
        };
        let col = match text.as_bytes() {
            [c @ b'a'..=b'z'] => usize::from(c - b'a'),
            [b'x' | b'o', digits @ ..]
                if (1..=2).contains(&digits.len())
                    && digits.iter().all(u8::is_ascii_digit)
                    && (digits.len() == 1 || digits[0] != b'0') =>
            {
                digits.iter().fold(0, |n, d| 10 * n + usize::from(d - b'0'))
            }
            _ => return Err(err()),
        };
        if col >= columns {
            return Err(err());
        }
        Ok(Column(col as u8))
    }

    fn move_text(&self, mv: Column) -> String {
        Self::column_letter(usize::from(mv.0)).to_string()
    }

    fn action_string(&self, player: Player, mv: Column) -> String {
        format!("{}{}", self.player_name(player), mv.0)
    }

    fn board_rows(&self) -> Vec<String> {
        let s = self.shape;
        (0..s.rows())
            .rev()
            .map(|row| (0..s.columns()).map(|col| self.disc(col, row)).collect())
            .collect()
    }

    fn write_cells(&self, out: &mut Vec<u8>) {
        out.clear();
        let s = self.shape;
        for row in (0..s.rows()).rev() {
            out.extend((0..s.columns()).map(|col| self.disc(col, row) as u8));
        }
    }

    fn cell_names(&self) -> Vec<Vec<String>> {
        let s = self.shape;
        (0..s.rows())
            .rev()
            .map(|row| {
                (0..s.columns())
                    .map(|col| crate::square::point_name(col, row))
                    .collect()
            })
            .collect()
    }

    /// Rows of `X`, `O` and `.` (or OpenSpiel's `x`, `o`), top first, as many and as long as
    /// this board's; the mover follows from the counts.
    fn set_up(&self, text: &str) -> Result<ConnectFour, PositionError> {
        let err = |reason: String| PositionError { reason };
        let (rows, columns) = (self.shape.rows(), self.shape.columns());
        let drawn: Vec<Vec<char>> = text
            .lines()
            .map(|l| {
                l.chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<Vec<char>>()
            })
            .filter(|r| !r.is_empty())
            .collect();
        if drawn.len() != rows || drawn.iter().any(|r| r.len() != columns) {
            return Err(err(format!("expected {rows} rows of {columns} cells")));
        }
        let mut game = ConnectFour::with_shape(self.shape);
        for col in 0..columns {
            for row in 0..rows {
                let colour = match drawn[rows - 1 - row][col] {
                    'X' | 'x' => 0,
                    'O' | 'o' => 1,
                    '.' => continue,
                    other => return Err(err(format!("'{other}' is not x, o or ."))),
                };
                if usize::from(game.heights[col]) != row {
                    return Err(err(format!(
                        "a disc floats in column {}",
                        Self::column_letter(col)
                    )));
                }
                game.discs[colour] |= self.shape.bit(col, row);
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
            game.shape
                .has_line(game.discs[last.other().index()])
                .then_some(Outcome::Win(last.other()))
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

    /// Over the windows of [`Shape::x_in_row`] cells in a line (69 on the default board):
    /// - `material`: the player's discs.
    /// - `threats`: empty cells that would complete a line of the player's (Allis's threats,
    ///   open threes among them), playable now or later.
    /// - `twos`: windows free of the opponent's discs holding exactly two of the player's,
    ///   when two are short of a threat by more than one disc (lines of four or more).
    /// - `centre`: the player's discs in the centre column (both middle columns of an even
    ///   board).
    fn features(&self, player: Player, out: &mut [f64; MAX_FEATURES]) {
        let s = self.shape;
        let (mine, theirs) = (
            self.discs[player.index()],
            self.discs[player.other().index()],
        );
        let board = s.board();
        let empty = board & !(mine | theirs);
        let k = s.x_in_row() as u32;
        let (mut threats, mut twos) = (0u128, 0u32);
        for d in s.directions() {
            let (mut starts, line) = s.windows(d, board);
            while starts != 0 {
                let w = line << starts.trailing_zeros();
                starts &= starts - 1;
                if w & theirs != 0 {
                    continue;
                }
                match (w & mine).count_ones() {
                    n if n + 1 == k => threats |= w & empty,
                    2 if k > 3 => twos += 1,
                    _ => {}
                }
            }
        }
        let centre = s.column((s.columns() - 1) / 2) | s.column(s.columns() / 2);
        out[0] = f64::from(mine.count_ones());
        out[1] = f64::from(threats.count_ones());
        out[2] = f64::from(twos);
        out[3] = f64::from((mine & centre).count_ones());
    }

    /// The longer of the board's two sides: column `x` and row `y` (0 at the bottom) are
    /// grid cell `x + side·y`; a board that is not square leaves the grid's last rows or
    /// columns off the board.
    fn grid_side(&self) -> Option<usize> {
        Some(self.shape.rows().max(self.shape.columns()))
    }

    /// As the trait says, for the player to move (the first player's once the game is over).
    /// The position does not keep its last move, so that plane is empty; the edges are the
    /// cells of the board's first and last rows and columns.
    fn grid_planes(&self, out: &mut [f32]) {
        let s = self.shape;
        let side = s.rows().max(s.columns());
        let cells = side * side;
        let out = &mut out[..crate::GRID_PLANES * cells];
        out.fill(0.0);
        let me = self.mover().index();
        for x in 0..s.columns() {
            for y in 0..s.rows() {
                let c = x + side * y;
                let bit = s.bit(x, y);
                let plane = if self.discs[me] & bit != 0 {
                    0
                } else if self.discs[1 - me] & bit != 0 {
                    1
                } else {
                    2
                };
                out[plane * cells + c] = 1.0;
                out[3 * cells + c] = 1.0;
                let (ends_x, ends_y) =
                    (x == 0 || x + 1 == s.columns(), y == 0 || y + 1 == s.rows());
                if ends_x && ends_y {
                    out[6 * cells + c] = 1.0;
                } else if ends_x || ends_y {
                    out[5 * cells + c] = 1.0;
                }
            }
        }
    }

    /// The mirror image left to right (a column `x` goes to `columns − 1 − x`).
    fn grid_symmetries(&self) -> Vec<Vec<usize>> {
        let s = self.shape;
        let side = s.rows().max(s.columns());
        let mirror = (0..side * side)
            .map(|c| {
                let (x, y) = (c % side, c / side);
                if x < s.columns() && y < s.rows() {
                    s.columns() - 1 - x + side * y
                } else {
                    c
                }
            })
            .collect();
        vec![mirror]
    }

    /// The cell where the disc dropped in the column lands.
    fn grid_cell(&self, mv: Column) -> Option<usize> {
        let (x, side) = (
            usize::from(mv.0),
            self.shape.rows().max(self.shape.columns()),
        );
        (x < self.shape.columns() && self.height(x) < self.shape.rows())
            .then(|| x + side * self.height(x))
    }
}

impl crate::options::Registered for ConnectFour {
    const INFO: crate::options::GameInfo = crate::options::GameInfo {
        name: "connect_four",
        about: "Connect Four on any board, as OpenSpiel plays it (7x6: a first-player win)",
        options: &[
            crate::options::GameOption {
                name: "rows",
                kind: crate::options::OptionKind::Int {
                    min: 1,
                    max: MAX_SIDE,
                },
                default: Some("6"),
                help: "cells in a column (OpenSpiel's rows); columns x (rows + 1) <= 128",
            },
            crate::options::GameOption {
                name: "columns",
                kind: crate::options::OptionKind::Int {
                    min: 1,
                    max: MAX_SIDE,
                },
                default: Some("7"),
                help: "columns on the board (OpenSpiel's columns)",
            },
            crate::options::GameOption {
                name: "x_in_row",
                kind: crate::options::OptionKind::Int {
                    min: 1,
                    max: MAX_SIDE,
                },
                default: Some("4"),
                help: "discs in a line that win (OpenSpiel's x_in_row)",
            },
        ],
    };

    fn from_options(
        options: &mut crate::options::Options,
    ) -> Result<ConnectFour, crate::GameSpecError> {
        let shape = Shape::new(
            options.int("rows")?,
            options.int("columns")?,
            options.int("x_in_row")?,
        )?;
        Ok(ConnectFour::with_shape(shape))
    }
}

#[cfg(test)]
mod tests;
