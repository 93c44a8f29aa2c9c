//! Hexagon-shaped boards of hexagonal cells, shared by the hex games.
//!
//! Cells use axial coordinates `(q, r)`: `r` grows downward (one row a value), `q` grows to the
//! right along a row. A hexagon of side `s` holds the cells with `|q|, |r|, |q + r| ≤ s − 1`:
//! `3s(s − 1) + 1` cells (61 for side 5, 91 for side 6, 127 for side 7, 217 for side 9).
//!
//! ## Cell notation
//! A cell is named by its row letter, `a` for the top row, and its place in that row counted
//! from 1 at the left. On the side-3 hexagon:
//!
//! ```text
//!     a1 a2 a3
//!   b1 b2 b3 b4
//! c1 c2 c3 c4 c5
//!   d1 d2 d3 d4
//!     e1 e2 e3
//! ```
//!
//! The centre of a side-`s` board is row `s` (letter number `s`), place `s`: `c3` above, `e5`
//! on side 5, `f6` on side 6.
//!
//! Cells are indexed from 0 in reading order (row by row from the top, left to right), and
//! sets of cells are [`Bb256`]s over those indices, so boards up to side 9 fit.

use std::sync::OnceLock;

use crate::bitboard::Bb256;
use crate::error::ParseMoveError;

/// The six directions in ring order (each is adjacent to the next): E, NE, NW, W, SW, SE.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// The largest side whose cells fit a [`Bb256`].
pub const MAX_SIDE: usize = 9;

/// A hexagon board of one side length, with its tables.
#[derive(Debug)]
pub struct HexGrid {
    side: usize,
    coords: Vec<(i32, i32)>,
    lookup: Vec<Option<u16>>,
    steps: Vec<[Option<u16>; 6]>,
    neighbours: Vec<Bb256>,
    at_two: Vec<Bb256>,
    row_start: Vec<usize>,
    all: Bb256,
}

impl HexGrid {
    fn build(side: usize) -> HexGrid {
        let n = side as i32 - 1;
        let width = 2 * side - 1;
        let mut coords = Vec::new();
        let mut row_start = Vec::new();
        let mut lookup = vec![None; width * width];
        for r in -n..=n {
            row_start.push(coords.len());
            for q in (-n).max(-n - r)..=n.min(n - r) {
                lookup[((q + n) as usize) * width + (r + n) as usize] = Some(coords.len() as u16);
                coords.push((q, r));
            }
        }
        row_start.push(coords.len());
        let mut grid = HexGrid {
            side,
            coords,
            lookup,
            steps: Vec::new(),
            neighbours: Vec::new(),
            at_two: Vec::new(),
            row_start,
            all: Bb256::EMPTY,
        };
        for cell in 0..grid.cells() {
            grid.all.insert(cell);
            let (q, r) = grid.coords[cell];
            let mut steps = [None; 6];
            let mut around = Bb256::EMPTY;
            for (d, &(dq, dr)) in DIRECTIONS.iter().enumerate() {
                steps[d] = grid.cell_at(q + dq, r + dr);
                if let Some(c) = steps[d] {
                    around.insert(c as usize);
                }
            }
            let mut two = Bb256::EMPTY;
            for other in 0..grid.cells() {
                if grid.distance(cell, other) == 2 {
                    two.insert(other);
                }
            }
            grid.steps.push(steps);
            grid.neighbours.push(around);
            grid.at_two.push(two);
        }
        grid
    }

    /// The side length.
    #[must_use]
    pub fn side(&self) -> usize {
        self.side
    }

    /// The number of cells.
    #[must_use]
    pub fn cells(&self) -> usize {
        self.coords.len()
    }

    /// Every cell.
    #[must_use]
    pub fn all(&self) -> Bb256 {
        self.all
    }

    /// The cell at axial `(q, r)`, if it is on the board.
    #[must_use]
    pub fn cell_at(&self, q: i32, r: i32) -> Option<u16> {
        let n = self.side as i32 - 1;
        if q.abs() > n || r.abs() > n || (q + r).abs() > n {
            return None;
        }
        let width = 2 * self.side - 1;
        self.lookup[((q + n) as usize) * width + (r + n) as usize]
    }

    /// The axial coordinates of `cell`.
    #[must_use]
    pub fn coords(&self, cell: usize) -> (i32, i32) {
        self.coords[cell]
    }

    /// The centre cell.
    #[must_use]
    pub fn centre(&self) -> usize {
        self.cell_at(0, 0).expect("the centre is on the board") as usize
    }

    /// The cell one step from `cell` in direction `dir` (index into [`DIRECTIONS`]).
    #[inline]
    #[must_use]
    pub fn step(&self, cell: usize, dir: usize) -> Option<usize> {
        self.steps[cell][dir].map(usize::from)
    }

    /// The cells adjacent to `cell`.
    #[inline]
    #[must_use]
    pub fn neighbours(&self, cell: usize) -> Bb256 {
        self.neighbours[cell]
    }

    /// The cells at distance exactly 2 from `cell`.
    #[inline]
    #[must_use]
    pub fn at_distance_two(&self, cell: usize) -> Bb256 {
        self.at_two[cell]
    }

    /// The union of the neighbours of every cell of `set`.
    #[must_use]
    pub fn dilate(&self, set: Bb256) -> Bb256 {
        let mut out = Bb256::EMPTY;
        for c in set.points() {
            out |= self.neighbours[c];
        }
        out
    }

    /// The straight line of three cells from `cell` in direction `dir`, if all are on the board.
    #[inline]
    #[must_use]
    pub fn line3(&self, cell: usize, dir: usize) -> Option<[usize; 3]> {
        let b = self.step(cell, dir)?;
        let c = self.step(b, dir)?;
        Some([cell, b, c])
    }

    /// The hex distance between two cells.
    #[must_use]
    pub fn distance(&self, a: usize, b: usize) -> i32 {
        let ((q1, r1), (q2, r2)) = (self.coords[a], self.coords[b]);
        let (dq, dr) = (q1 - q2, r1 - r2);
        (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
    }

    /// The number of rows (`2 × side − 1`).
    #[must_use]
    pub fn rows(&self) -> usize {
        2 * self.side - 1
    }

    /// The cells of row `row` (0 = top), left to right.
    #[must_use]
    pub fn row_cells(&self, row: usize) -> std::ops::Range<usize> {
        self.row_start[row]..self.row_start[row + 1]
    }

    /// The name of `cell`: row letter from the top, place in the row from 1.
    #[must_use]
    pub fn cell_name(&self, cell: usize) -> String {
        let row = (self.coords[cell].1 + self.side as i32 - 1) as usize;
        let place = cell - self.row_start[row] + 1;
        format!("{}{}", (b'a' + row as u8) as char, place)
    }

    /// Every cell's name, row by row from the top, left to right.
    #[must_use]
    pub fn row_names(&self) -> Vec<Vec<String>> {
        (0..self.rows())
            .map(|row| self.row_cells(row).map(|c| self.cell_name(c)).collect())
            .collect()
    }

    /// Reads a cell name.
    pub fn parse_cell(&self, text: &str) -> Result<usize, ParseMoveError> {
        let err = || ParseMoveError {
            text: text.to_string(),
            expected: format!(
                "a cell: row letter a..{} from the top, then its place in the row from 1",
                (b'a' + self.rows() as u8 - 1) as char
            ),
        };
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(err)?;
        if !letter.is_ascii_lowercase() {
            return Err(err());
        }
        let row = (letter as u8 - b'a') as usize;
        let digits = chars.as_str();
        if row >= self.rows()
            || digits.is_empty()
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(err());
        }
        let place: usize = digits.parse().map_err(|_| err())?;
        let cells = self.row_cells(row);
        if place == 0 || place > cells.len() {
            return Err(err());
        }
        Ok(cells.start + place - 1)
    }

    /// Draws the board: one row of text a hexagon row, indented so that the hexagon shows,
    /// with `cell_char` giving each cell's character.
    pub fn draw(&self, cell_char: impl Fn(usize) -> char) -> Vec<String> {
        (0..self.rows())
            .map(|row| {
                let indent = (self.side as i32 - 1 - row as i32).unsigned_abs() as usize;
                let cells: Vec<String> = self
                    .row_cells(row)
                    .map(|c| cell_char(c).to_string())
                    .collect();
                format!("{}{}", " ".repeat(indent), cells.join(" "))
            })
            .collect()
    }

    /// The cells [`HexGrid::draw`] draws, in reading order, one byte a cell, into `out`
    /// (cleared first); allocates nothing once `out` has grown ([`Game::write_cells`]).
    ///
    /// [`Game::write_cells`]: crate::Game::write_cells
    pub fn write_cells(&self, cell_char: impl Fn(usize) -> char, out: &mut Vec<u8>) {
        out.clear();
        for row in 0..self.rows() {
            out.extend(self.row_cells(row).map(|c| cell_char(c) as u8));
        }
    }

    /// The cells of a drawn board (as [`HexGrid::draw`] makes), in reading order.
    pub fn read_drawing(&self, text: &str) -> Result<Vec<char>, crate::PositionError> {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| {
                l.chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<Vec<char>>()
            })
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() != self.rows() {
            return Err(crate::PositionError {
                reason: format!("expected {} rows, found {}", self.rows(), rows.len()),
            });
        }
        let mut cells = Vec::with_capacity(self.cells());
        for (i, row) in rows.iter().enumerate() {
            let want = self.row_cells(i).len();
            if row.len() != want {
                return Err(crate::PositionError {
                    reason: format!("row {} has {} cells, expected {want}", i + 1, row.len()),
                });
            }
            cells.extend(row);
        }
        Ok(cells)
    }
}

/// The hexagon grid of side `side` (2 to [`MAX_SIDE`]), built once and shared.
///
/// # Panics
/// When `side` is out of range; game constructors check it first.
#[must_use]
pub fn grid(side: usize) -> &'static HexGrid {
    static GRIDS: [OnceLock<HexGrid>; MAX_SIDE + 1] = [const { OnceLock::new() }; MAX_SIDE + 1];
    assert!(
        (2..=MAX_SIDE).contains(&side),
        "hex side {side} is not in 2..={MAX_SIDE}"
    );
    GRIDS[side].get_or_init(|| HexGrid::build(side))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hexagons_have_the_expected_cell_counts() {
        for (side, cells) in [(2, 7), (3, 19), (5, 61), (6, 91), (7, 127), (9, 217)] {
            assert_eq!(grid(side).cells(), cells);
            assert_eq!(grid(side).all().count() as usize, cells);
        }
    }

    #[test]
    fn notation_round_trips_and_matches_the_drawing() {
        let g = grid(3);
        assert_eq!(g.cell_name(0), "a1");
        assert_eq!(g.cell_name(g.centre()), "c3");
        assert_eq!(g.cell_name(g.cells() - 1), "e3");
        for side in [3, 5, 9] {
            let g = grid(side);
            for c in 0..g.cells() {
                assert_eq!(g.parse_cell(&g.cell_name(c)), Ok(c));
            }
        }
        for bad in ["", "a0", "a4", "f1", "A1", "a01", "c6", "3c"] {
            assert!(g.parse_cell(bad).is_err(), "{bad}");
        }
        assert_eq!(grid(5).cell_name(grid(5).centre()), "e5");
        assert_eq!(grid(6).cell_name(grid(6).centre()), "f6");
    }

    #[test]
    fn interior_cells_have_six_neighbours_and_twelve_at_two() {
        let g = grid(5);
        let c = g.centre();
        assert_eq!(g.neighbours(c).count(), 6);
        assert_eq!(g.at_distance_two(c).count(), 12);
        let corner = g.parse_cell("a1").unwrap();
        assert_eq!(g.neighbours(corner).count(), 3);
        // A corner sees two of the six sectors: 2 + 1 cells at distance 1, 2·2 + 1 at distance 2.
        assert_eq!(g.at_distance_two(corner).count(), 5);
        // Neighbours are symmetric and consecutive directions are adjacent.
        for cell in 0..g.cells() {
            for d in 0..6 {
                if let Some(n) = g.step(cell, d) {
                    assert!(g.neighbours(n).has(cell));
                    assert_eq!(g.distance(cell, n), 1);
                    if let Some(m) = g.step(cell, (d + 1) % 6) {
                        assert!(g.neighbours(n).has(m), "ring order");
                    }
                }
            }
        }
    }

    #[test]
    fn lines_of_three_run_straight_in_each_direction() {
        let g = grid(3);
        let c = g.centre();
        let names = |d| g.line3(c, d).map(|l| l.map(|x| g.cell_name(x)));
        assert_eq!(
            names(0),
            Some(["c3".into(), "c4".into(), "c5".into()]),
            "east"
        );
        assert_eq!(
            names(3),
            Some(["c3".into(), "c2".into(), "c1".into()]),
            "west"
        );
        assert_eq!(
            names(1),
            Some(["c3".into(), "b3".into(), "a3".into()]),
            "north-east"
        );
        assert_eq!(
            names(2),
            Some(["c3".into(), "b2".into(), "a1".into()]),
            "north-west"
        );
        assert_eq!(
            names(4),
            Some(["c3".into(), "d2".into(), "e1".into()]),
            "south-west"
        );
        assert_eq!(
            names(5),
            Some(["c3".into(), "d3".into(), "e3".into()]),
            "south-east"
        );
        assert_eq!(g.line3(g.parse_cell("a1").unwrap(), 2), None);
    }

    #[test]
    fn drawing_reads_back() {
        let g = grid(3);
        let drawn = g.draw(|c| if c % 2 == 0 { 'L' } else { '.' });
        assert_eq!(drawn[0], "  L . L");
        let cells = g.read_drawing(&drawn.join("\n")).unwrap();
        assert!(
            cells
                .iter()
                .enumerate()
                .all(|(i, &ch)| ch == if i % 2 == 0 { 'L' } else { '.' })
        );
    }
}
