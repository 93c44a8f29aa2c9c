//! A rectangular board of marks with OpenSpiel's cell numbers: what Tic-tac-toe and the
//! m,n,k-game share (OpenSpiel's `tic_tac_toe` and `mnk` number and name cells alike).
//!
//! A [`Grid`] has `columns` × `rows` cells. A cell is its OpenSpiel action number,
//! `columns × row + column` with row 0 at the top; Ringside names it in the square notation
//! of [`crate::square`] (column letter from the left, row number from the bottom), and
//! OpenSpiel's action strings name it `x(row,column)` or `o(row,column)`, the mark of the
//! player who plays it first. Four columns and three rows (OpenSpiel's `mnk(m=4,n=3,k=3)`):
//!
//! ```text
//!        a   b   c   d
//!   3 │  0   1   2   3       a3 = action 0 = x(0,0)
//!   2 │  4   5   6   7       b2 = action 5 = x(1,1)
//!   1 │  8   9  10  11       d1 = action 11 = x(2,3)
//! ```
//!
//! The board is drawn as OpenSpiel draws it, rows top first, one character a cell, but with
//! the marks in upper case (`X`, `O`, `.`), as every Ringside board draws its stones; the
//! same text is read back by [`Grid::read_marks`] (lower case too) to set up a position.
//!
//! ```
//! use ringside_engine::grid::{Cell, Grid};
//! use ringside_engine::Player;
//!
//! let grid = Grid::new(4, 3);
//! assert_eq!(grid.name(Cell(5)), "b2");
//! assert_eq!(grid.action_string(Player::ONE, Cell(5)), "o(1,1)");
//! assert_eq!(grid.parse_cell("b2"), Ok(Cell(5)));
//! assert_eq!(grid.parse_cell("x(1,1)"), Ok(Cell(5)));
//! assert_eq!(grid.draw(|c| if c == 5 { 'X' } else { '.' }), ["....", ".X..", "...."]);
//! ```

use crate::error::{ParseMoveError, PositionError};
use crate::game::Player;

/// The most columns a grid names with letters (`a` to `z`), and the most rows.
pub const MAX_SIDE: usize = 26;

/// OpenSpiel's marks of the two players in action strings and drawings: `x` for player 0.
const MARKS: [char; 2] = ['x', 'o'];

/// A cell of a [`Grid`], by its OpenSpiel action number: `columns × row + column`, row 0 at
/// the top.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u16);

impl Cell {
    /// The cell's number, for indexing arrays of cells.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The shape of a board of `columns` × `rows` cells, and its notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    columns: u8,
    rows: u8,
}

impl Grid {
    /// A board of `columns` × `rows` cells.
    ///
    /// # Panics
    /// When a side is 0 or more than [`MAX_SIDE`]: games check their options first.
    #[must_use]
    pub const fn new(columns: usize, rows: usize) -> Grid {
        assert!(
            columns >= 1 && columns <= MAX_SIDE && rows >= 1 && rows <= MAX_SIDE,
            "a grid's sides are 1 to 26"
        );
        Grid {
            columns: columns as u8,
            rows: rows as u8,
        }
    }

    /// Cells in a row (OpenSpiel's `m` in the m,n,k-game).
    #[inline]
    #[must_use]
    pub const fn columns(self) -> usize {
        self.columns as usize
    }

    /// Rows (OpenSpiel's `n`).
    #[inline]
    #[must_use]
    pub const fn rows(self) -> usize {
        self.rows as usize
    }

    /// The number of cells: one more than the largest cell number.
    #[inline]
    #[must_use]
    pub const fn cells(self) -> usize {
        self.columns() * self.rows()
    }

    /// The cell in `row` (from the top) and `column` (from the left), both from 0.
    #[inline]
    #[must_use]
    pub const fn cell(self, row: usize, column: usize) -> Cell {
        Cell((row * self.columns() + column) as u16)
    }

    /// The (row from the top, column from the left) of `cell`, both from 0.
    #[inline]
    #[must_use]
    pub const fn row_column(self, cell: Cell) -> (usize, usize) {
        (cell.index() / self.columns(), cell.index() % self.columns())
    }

    /// Whether `cell` is on the board.
    #[inline]
    #[must_use]
    pub const fn contains(self, cell: Cell) -> bool {
        cell.index() < self.cells()
    }

    /// The cell's name in Ringside's notation: column letter, row number from the bottom
    /// (`a3` is the top-left cell of a board of three rows).
    #[must_use]
    pub fn name(self, cell: Cell) -> String {
        let mut out = String::with_capacity(3);
        self.write_name(cell, &mut out);
        out
    }

    /// Appends the cell's name to `out`, without allocating once `out` has room.
    pub fn write_name(self, cell: Cell, out: &mut String) {
        let (row, column) = self.row_column(cell);
        crate::square::write_point_name(column, self.rows() - 1 - row, out);
    }

    /// OpenSpiel's action string for `player` playing `cell`: `x(row,column)` for player 0,
    /// `o(row,column)` for player 1, row from the top, both from 0.
    #[must_use]
    pub fn action_string(self, player: Player, cell: Cell) -> String {
        let (row, column) = self.row_column(cell);
        format!("{}({row},{column})", MARKS[player.index()])
    }

    /// Reads a cell in Ringside's notation (`b2`) or as OpenSpiel's action strings write it
    /// (`x(1,1)` or `o(1,1)`: either mark, whoever is to move). Does not check that the cell
    /// is empty.
    pub fn parse_cell(self, text: &str) -> Result<Cell, ParseMoveError> {
        let err = || ParseMoveError {
            text: text.to_string(),
            expected: format!(
                "a cell a1..{}{} (column letter, row number from the bottom) or x(r,c)",
                char::from(b'a' + self.columns - 1),
                self.rows
            ),
        };
        if let Some(pair) = text
            .strip_prefix(MARKS)
            .and_then(|t| t.strip_prefix('('))
            .and_then(|t| t.strip_suffix(')'))
        {
            let (row, column) = pair.split_once(',').ok_or_else(err)?;
            let (row, column) = (
                number(row).ok_or_else(err)?,
                number(column).ok_or_else(err)?,
            );
            return if row < self.rows() && column < self.columns() {
                Ok(self.cell(row, column))
            } else {
                Err(err())
            };
        }
        let (column, row) =
            crate::square::parse_point_on(text, self.columns(), self.rows()).map_err(|_| err())?;
        Ok(self.cell(self.rows() - 1 - row, column))
    }

    /// The names of the cells, rows top first (what `Game::cell_names` gives).
    #[must_use]
    pub fn names(self) -> Vec<Vec<String>> {
        (0..self.rows())
            .map(|r| {
                (0..self.columns())
                    .map(|c| self.name(self.cell(r, c)))
                    .collect()
            })
            .collect()
    }

    /// The board as text rows, top first, one character a cell: `mark(cell number)`
    /// (what `Game::board_rows` gives).
    #[must_use]
    pub fn draw(self, mark: impl Fn(usize) -> char) -> Vec<String> {
        (0..self.rows())
            .map(|r| {
                (0..self.columns())
                    .map(|c| mark(r * self.columns() + c))
                    .collect()
            })
            .collect()
    }

    /// The cells of [`Grid::draw`], row after row, one ASCII byte a cell, into `out` (cleared
    /// first); allocates nothing once `out` has grown (what `Game::write_cells` does).
    pub fn write_cells(self, out: &mut Vec<u8>, mark: impl Fn(usize) -> char) {
        out.clear();
        out.extend((0..self.cells()).map(|c| mark(c) as u8));
    }

    /// Reads a drawing of the board, as [`Grid::draw`] draws it: rows top first of `X`, `O`
    /// and `.` (spaces and line breaks ignored; OpenSpiel's lower-case `x` and `o` read too).
    /// Refuses a text with another number of cells or another character, and counts that
    /// cannot arise from `x` moving first and the players alternating (`x` has as many marks
    /// as `o`, or one more).
    pub fn read_marks(self, text: &str) -> Result<Marks, PositionError> {
        let err = |reason: String| PositionError { reason };
        let cells: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        if cells.len() != self.cells() {
            return Err(err(format!(
                "expected {} cells, found {}",
                self.cells(),
                cells.len()
            )));
        }
        let mut owners = Vec::with_capacity(cells.len());
        let mut counts = [0; 2];
        for &c in &cells {
            let owner = match MARKS.iter().position(|m| m.eq_ignore_ascii_case(&c)) {
                Some(p) => Some(Player::new(p)),
                None if c == '.' => None,
                None => return Err(err(format!("'{c}' is not x, o or ."))),
            };
            if let Some(p) = owner {
                counts[p.index()] += 1;
            }
            owners.push(owner);
        }
        let [x, o] = counts;
        if x != o && x != o + 1 {
            return Err(err(format!("{x} x and {o} o: x moves first")));
        }
        Ok(Marks { owners })
    }
}

/// A whole number as OpenSpiel writes it: digits, no sign, no leading zero.
fn number(text: &str) -> Option<usize> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    if canonical { text.parse().ok() } else { None }
}

/// The marks of a board read by [`Grid::read_marks`], whose counts a game of `x` moving
/// first and the players alternating can reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    owners: Vec<Option<Player>>,
}

impl Marks {
    /// Who holds each cell, by cell number; `None` for an empty cell.
    #[must_use]
    pub fn owners(&self) -> &[Option<Player>] {
        &self.owners
    }

    /// The cells `player` holds, in cell order.
    pub fn cells_of(&self, player: Player) -> impl Iterator<Item = Cell> + '_ {
        self.owners
            .iter()
            .enumerate()
            .filter(move |(_, o)| **o == Some(player))
            .map(|(c, _)| Cell(c as u16))
    }

    /// Marks on the board: the plies played to reach it.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.owners.iter().flatten().count()
    }

    /// The player to move were the game not over: `x` when both have as many marks, else `o`.
    #[must_use]
    pub fn mover(&self) -> Player {
        Player::new(self.ply() % 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_numbered_by_rows_from_the_top_and_named_by_rows_from_the_bottom() {
        let grid = Grid::new(4, 3);
        assert_eq!(grid.cells(), 12);
        assert_eq!(grid.cell(2, 3), Cell(11));
        assert_eq!(grid.row_column(Cell(6)), (1, 2));
        assert_eq!(
            grid.names(),
            [
                ["a3", "b3", "c3", "d3"],
                ["a2", "b2", "c2", "d2"],
                ["a1", "b1", "c1", "d1"]
            ]
        );
        assert_eq!(grid.action_string(Player::ZERO, Cell(11)), "x(2,3)");
        assert!(grid.contains(Cell(11)) && !grid.contains(Cell(12)));
    }

    #[test]
    fn every_cell_parses_back_from_both_notations() {
        for (columns, rows) in [(1, 1), (3, 3), (4, 3), (3, 5), (19, 19), (19, 2)] {
            let grid = Grid::new(columns, rows);
            for c in 0..grid.cells() {
                let cell = Cell(c as u16);
                assert_eq!(grid.parse_cell(&grid.name(cell)), Ok(cell));
                for p in [Player::ZERO, Player::ONE] {
                    assert_eq!(grid.parse_cell(&grid.action_string(p, cell)), Ok(cell));
                }
            }
        }
    }

    #[test]
    fn malformed_or_off_board_cells_are_refused_with_the_boards_range() {
        let grid = Grid::new(4, 3);
        for bad in [
            "e1", "a4", "a0", "x(3,0)", "x(0,4)", "x(0,0", "(0,0)", "x(0,00)", "x(01,0)",
            "x(+1,0)", "x(1;0)", "y(1,0)", "X(1,0)", "x()", "x(,)", "b", "",
        ] {
            assert!(grid.parse_cell(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            grid.parse_cell("e1").unwrap_err().expected,
            "a cell a1..d3 (column letter, row number from the bottom) or x(r,c)"
        );
        assert_eq!(Grid::new(19, 19).parse_cell("x(18,10)"), Ok(Cell(352)));
    }

    #[test]
    fn a_drawing_reads_back_as_the_marks_it_draws() {
        let grid = Grid::new(4, 3);
        let marks = grid.read_marks("X...\n.o..\n...x").unwrap();
        assert_eq!(marks.ply(), 3);
        assert_eq!(marks.mover(), Player::ONE);
        assert_eq!(
            marks.cells_of(Player::ZERO).collect::<Vec<_>>(),
            [Cell(0), Cell(11)]
        );
        let drawn = grid.draw(|c| match marks.owners()[c] {
            Some(p) => ['X', 'O'][p.index()],
            None => '.',
        });
        assert_eq!(drawn, ["X...", ".O..", "...X"]);
        let mut bytes = Vec::new();
        grid.write_cells(&mut bytes, |c| drawn.concat().as_bytes()[c] as char);
        assert_eq!(bytes, drawn.concat().as_bytes());
    }

    #[test]
    fn a_drawing_of_the_wrong_size_letters_or_counts_is_refused() {
        let grid = Grid::new(3, 3);
        let reason = |text: &str| grid.read_marks(text).unwrap_err().reason;
        assert_eq!(reason("xx.\n...\n.."), "expected 9 cells, found 8");
        assert_eq!(reason("xb.\n...\n..."), "'b' is not x, o or .");
        assert_eq!(reason("xx.\n...\n..."), "2 x and 0 o: x moves first");
        assert_eq!(reason("o..\n...\n..."), "0 x and 1 o: x moves first");
    }
}
