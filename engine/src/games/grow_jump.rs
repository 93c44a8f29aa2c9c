//! The moves of Hexxagon, which Ikabegamá borrows: growth, jump, then flips.
//!
//! - A **growth** puts a new token on an empty cell adjacent to one of the mover's tokens.
//! - A **jump** moves one of the mover's tokens to an empty cell exactly two cells away; its old
//!   cell becomes empty.
//! - Then every enemy token adjacent to the destination turns to the mover's colour.
//! - A player with no growth and no jump passes; the pass is legal only then.
//!
//! Notation: a growth is its destination (`e5`), a jump is `source-destination` (`e3-e5`), a
//! pass is `pass`. Legal moves are listed growths first (by destination), then jumps (by source,
//! then destination).

use crate::Feature;
use crate::bitboard::Bb256;
use crate::error::ParseMoveError;
use crate::hex::HexGrid;

/// The features Hexxagon and Ikabegamá share (see [`Tokens::write_features`]), with the
/// weights of `eval=rich`.
pub const FEATURES: [Feature; 4] = [
    Feature {
        name: "material",
        default_weight: 1.0,
    },
    Feature {
        name: "growths",
        default_weight: 0.1,
    },
    Feature {
        name: "jumps",
        default_weight: 0.02,
    },
    Feature {
        name: "unflippable",
        default_weight: 0.25,
    },
];

/// A growth, a jump or a pass; cells are indices of the [`HexGrid`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GrowJump {
    /// A new token on this cell.
    Grow(u8),
    /// A token moves from the first cell to the second, two cells away.
    Jump(u8, u8),
    /// No growth or jump exists.
    Pass,
}

impl GrowJump {
    /// One more than the largest [`GrowJump::index`].
    pub const INDEX_COUNT: usize = 256 + 256 * 256 + 1;

    /// A dense number for the move: growths by cell, then jumps by (from, to), then the pass.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            GrowJump::Grow(to) => to as usize,
            GrowJump::Jump(from, to) => 256 + 256 * from as usize + to as usize,
            GrowJump::Pass => 256 + 256 * 256,
        }
    }
}

/// The tokens of both colours on a hex board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Tokens(pub [Bb256; 2]);

impl Tokens {
    /// The empty cells of `grid`.
    #[inline]
    #[must_use]
    pub fn empty(&self, grid: &HexGrid) -> Bb256 {
        grid.all() & !(self.0[0] | self.0[1])
    }

    /// Whether `colour` has a growth or a jump.
    #[must_use]
    pub fn can_move(&self, grid: &HexGrid, colour: usize) -> bool {
        let empty = self.empty(grid);
        self.0[colour]
            .points()
            .any(|c| (grid.neighbours(c) | grid.at_distance_two(c)).intersects(empty))
    }

    /// Lists `colour`'s growths and jumps into `out` (cleared first), or the pass when it has none.
    pub fn list_moves(&self, grid: &HexGrid, colour: usize, out: &mut Vec<GrowJump>) {
        out.clear();
        let empty = self.empty(grid);
        let mine = self.0[colour];
        for c in (grid.dilate(mine) & empty).points() {
            out.push(GrowJump::Grow(c as u8));
        }
        for from in mine.points() {
            for to in (grid.at_distance_two(from) & empty).points() {
                out.push(GrowJump::Jump(from as u8, to as u8));
            }
        }
        if out.is_empty() {
            out.push(GrowJump::Pass);
        }
    }

    /// Whether `mv` is legal for `colour`.
    #[must_use]
    pub fn is_legal(&self, grid: &HexGrid, colour: usize, mv: GrowJump) -> bool {
        let empty = self.empty(grid);
        let on_board = |c: u8| (c as usize) < grid.cells();
        match mv {
            GrowJump::Grow(to) => {
                on_board(to)
                    && empty.has(to as usize)
                    && grid.neighbours(to as usize).intersects(self.0[colour])
            }
            GrowJump::Jump(from, to) => {
                on_board(from)
                    && on_board(to)
                    && self.0[colour].has(from as usize)
                    && empty.has(to as usize)
                    && grid.at_distance_two(from as usize).has(to as usize)
            }
            GrowJump::Pass => !self.can_move(grid, colour),
        }
    }

    /// Why `mv` is illegal for `colour`, in words.
    #[must_use]
    pub fn why_illegal(&self, grid: &HexGrid, colour: usize, mv: GrowJump) -> String {
        let empty = self.empty(grid);
        let name = |c: u8| {
            if (c as usize) < grid.cells() {
                grid.cell_name(c as usize)
            } else {
                format!("#{c}")
            }
        };
        match mv {
            GrowJump::Grow(to) if !empty.has(to as usize) => {
                format!("cell {} is not empty", name(to))
            }
            GrowJump::Grow(to) => format!("cell {} is not next to one of your tokens", name(to)),
            GrowJump::Jump(from, _) if !self.0[colour].has(from as usize) => {
                format!("cell {} holds no token of yours", name(from))
            }
            GrowJump::Jump(_, to) if !empty.has(to as usize) => {
                format!("cell {} is not empty", name(to))
            }
            GrowJump::Jump(from, to) => {
                format!("{} is not two cells from {}", name(to), name(from))
            }
            GrowJump::Pass => "you may pass only when you have no growth and no jump".to_string(),
        }
    }

    /// `colour`'s growths (empty cells next to its tokens) and jumps (token and empty cell two
    /// apart), as counted by [`Tokens::list_moves`] before the pass.
    #[must_use]
    pub fn mobility(&self, grid: &HexGrid, colour: usize) -> (u32, u32) {
        let empty = self.empty(grid);
        let mine = self.0[colour];
        let growths = (grid.dilate(mine) & empty).count();
        let jumps = mine
            .points()
            .map(|from| (grid.at_distance_two(from) & empty).count())
            .sum();
        (growths, jumps)
    }

    /// `colour`'s tokens that the opponent cannot flip with its next move: no empty cell next
    /// to them is within two cells of an enemy token (the cells enemy growths and jumps reach).
    #[must_use]
    pub fn unflippable(&self, grid: &HexGrid, colour: usize) -> Bb256 {
        let enemy = self.0[colour ^ 1];
        let landings = grid.dilate(grid.dilate(enemy)) & self.empty(grid);
        self.0[colour] & !grid.dilate(landings)
    }

    /// Writes the four features Hexxagon and Ikabegamá share, for `colour`: tokens, growths,
    /// jumps and unflippable tokens.
    pub fn write_features(&self, grid: &HexGrid, colour: usize, out: &mut [f64]) {
        let (growths, jumps) = self.mobility(grid, colour);
        out[0] = f64::from(self.0[colour].count());
        out[1] = f64::from(growths);
        out[2] = f64::from(jumps);
        out[3] = f64::from(self.unflippable(grid, colour).count());
    }

    /// Plays `mv` for `colour` and calls `toggled(colour, cell)` for every token that appears or
    /// disappears (for hash updates).
    #[inline]
    pub fn apply(
        &mut self,
        grid: &HexGrid,
        colour: usize,
        mv: GrowJump,
        mut toggled: impl FnMut(usize, usize),
    ) {
        let to = match mv {
            GrowJump::Pass => return,
            GrowJump::Grow(to) => to as usize,
            GrowJump::Jump(from, to) => {
                self.0[colour].remove(from as usize);
                toggled(colour, from as usize);
                to as usize
            }
        };
        self.0[colour].insert(to);
        toggled(colour, to);
        let flipped = grid.neighbours(to) & self.0[colour ^ 1];
        self.0[colour ^ 1] ^= flipped;
        self.0[colour] |= flipped;
        for c in flipped.points() {
            toggled(colour ^ 1, c);
            toggled(colour, c);
        }
    }
}

/// Prints a move in the notation above.
#[must_use]
pub fn move_text(grid: &HexGrid, mv: GrowJump) -> String {
    match mv {
        GrowJump::Grow(to) => grid.cell_name(to as usize),
        GrowJump::Jump(from, to) => format!(
            "{}-{}",
            grid.cell_name(from as usize),
            grid.cell_name(to as usize)
        ),
        GrowJump::Pass => "pass".to_string(),
    }
}

/// Reads a move in the notation above (legality is not checked).
pub fn parse_move(grid: &HexGrid, text: &str) -> Result<GrowJump, ParseMoveError> {
    if text == "pass" {
        return Ok(GrowJump::Pass);
    }
    let wrap = |e: ParseMoveError| ParseMoveError {
        text: text.to_string(),
        expected: format!(
            "a growth (cell, like e5), a jump (e3-e5) or 'pass': {}",
            e.expected
        ),
    };
    match text.split_once('-') {
        Some((from, to)) => Ok(GrowJump::Jump(
            grid.parse_cell(from).map_err(wrap)? as u8,
            grid.parse_cell(to).map_err(wrap)? as u8,
        )),
        None => Ok(GrowJump::Grow(grid.parse_cell(text).map_err(wrap)? as u8)),
    }
}

/// Hash keys for hex games with two turn phases (who is to move).
pub static KEYS: crate::zobrist::Zobrist<256, 2> = crate::zobrist::Zobrist::new(0x48_45_58);

/// The Zobrist hash of `tokens` with `to_move` to play.
#[must_use]
pub fn hash_of(tokens: &Tokens, to_move: usize) -> u64 {
    let mut h = KEYS.phase(to_move as u32);
    for colour in 0..2 {
        for c in tokens.0[colour].points() {
            h ^= KEYS.piece(colour, c);
        }
    }
    h
}

/// The board drawn as a hexagon, `letters[0]`/`letters[1]` for the tokens, `.` for empty.
#[must_use]
pub fn draw(grid: &HexGrid, tokens: &Tokens, letters: [char; 2]) -> Vec<String> {
    grid.draw(|c| cell_char(tokens, letters, c))
}

/// The cells [`draw`] draws, one byte a cell, into `out` ([`crate::Game::write_cells`]).
pub fn write_cells(grid: &HexGrid, tokens: &Tokens, letters: [char; 2], out: &mut Vec<u8>) {
    grid.write_cells(|c| cell_char(tokens, letters, c), out);
}

fn cell_char(tokens: &Tokens, letters: [char; 2], c: usize) -> char {
    if tokens.0[0].has(c) {
        letters[0]
    } else if tokens.0[1].has(c) {
        letters[1]
    } else {
        '.'
    }
}

/// Reads a drawn board (rows of the hexagon, spaces ignored; `letters` for the tokens, any of
/// `empty` for an empty cell) and an optional line `to_move NAME` with NAME one of `names`.
pub fn read_position(
    grid: &HexGrid,
    text: &str,
    letters: [char; 2],
    empty: &[char],
    names: [&str; 2],
) -> Result<(Tokens, Option<usize>), crate::error::PositionError> {
    let err = |reason: String| crate::error::PositionError { reason };
    let mut to_move = None;
    let mut board = String::new();
    for line in text.lines() {
        match line.trim().strip_prefix("to_move") {
            Some(name) => {
                let name = name.trim();
                to_move = Some(names.iter().position(|n| *n == name).ok_or_else(|| {
                    err(format!(
                        "to_move must be {} or {}, not '{name}'",
                        names[0], names[1]
                    ))
                })?);
            }
            None => {
                board.push_str(line);
                board.push('\n');
            }
        }
    }
    let cells = grid.read_drawing(&board)?;
    let mut tokens = Tokens::default();
    for (c, ch) in cells.into_iter().enumerate() {
        match ch {
            ch if empty.contains(&ch) => {}
            ch if ch == letters[0] => tokens.0[0].insert(c),
            ch if ch == letters[1] => tokens.0[1].insert(c),
            other => return Err(err(format!("unknown cell character '{other}'"))),
        }
    }
    Ok((tokens, to_move))
}

/// A plain reference of the growth/jump/flip rules on axial coordinates, for the tests of the
/// games that use them: no tables, no bitboards.
#[cfg(test)]
pub(crate) mod reference {
    use std::collections::BTreeSet;

    use crate::hex::HexGrid;

    /// Hex distance computed from coordinates.
    pub fn distance(a: (i32, i32), b: (i32, i32)) -> i32 {
        let (dq, dr) = (a.0 - b.0, a.1 - b.1);
        (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
    }

    /// Every legal move of `me` (as text) on `cells` (one char a cell, reading order).
    pub fn moves(grid: &HexGrid, cells: &[char], me: char) -> BTreeSet<String> {
        let n = cells.len();
        let mut out = BTreeSet::new();
        for to in 0..n {
            if cells[to] != '.' {
                continue;
            }
            for from in 0..n {
                if cells[from] != me {
                    continue;
                }
                match distance(grid.coords(from), grid.coords(to)) {
                    1 => {
                        out.insert(grid.cell_name(to));
                    }
                    2 => {
                        out.insert(format!("{}-{}", grid.cell_name(from), grid.cell_name(to)));
                    }
                    _ => {}
                }
            }
        }
        if out.is_empty() {
            out.insert("pass".to_string());
        }
        out
    }

    /// Checks one step of a growth-and-jump game against the reference: the listed moves (as
    /// text) equal the reference's, and the board after `mv` does too. Returns the board after.
    pub fn check_step(
        grid: &HexGrid,
        before: &[char],
        me: char,
        listed: &BTreeSet<String>,
        mv: &str,
        after: &[char],
    ) -> Result<Vec<char>, String> {
        let expected = moves(grid, before, me);
        if *listed != expected {
            return Err(format!("moves {listed:?}, reference {expected:?}"));
        }
        let next = play(grid, before, me, mv);
        if next != after {
            return Err(format!("board after {mv} differs from the reference"));
        }
        Ok(next)
    }

    /// `cells` after `me` plays `mv` (text).
    pub fn play(grid: &HexGrid, cells: &[char], me: char, mv: &str) -> Vec<char> {
        let mut next = cells.to_vec();
        if mv == "pass" {
            return next;
        }
        let to_text = match mv.split_once('-') {
            Some((from, to)) => {
                next[grid.parse_cell(from).unwrap()] = '.';
                to
            }
            None => mv,
        };
        let to = grid.parse_cell(to_text).unwrap();
        next[to] = me;
        for c in 0..next.len() {
            if next[c] != '.' && next[c] != me && distance(grid.coords(c), grid.coords(to)) == 1 {
                next[c] = me;
            }
        }
        next
    }
}

/// The state every growth-and-jump game keeps: tokens, board side, side to move, plies and
/// the incremental hash. Hexxagon and Ikabegamá wrap it and add only their goals.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The tokens of both colours.
    pub tokens: Tokens,
    hash: u64,
    ply: u32,
    side: u8,
    to_move: crate::Player,
}

impl Board {
    /// `tokens` on a hexagon of `side` (already checked by the game), Light to move.
    #[must_use]
    pub fn new(side: usize, tokens: Tokens) -> Board {
        Board {
            tokens,
            hash: hash_of(&tokens, 0),
            ply: 0,
            side: side as u8,
            to_move: crate::Player::ZERO,
        }
    }

    /// The grid of this board's side.
    #[inline]
    #[must_use]
    pub fn grid(&self) -> &'static HexGrid {
        crate::hex::grid(self.side as usize)
    }

    /// The side length.
    #[must_use]
    pub fn side(&self) -> usize {
        self.side as usize
    }

    /// The colour whose turn it is (whether or not the game is over).
    #[must_use]
    pub fn mover(&self) -> crate::Player {
        self.to_move
    }

    /// Plies played.
    #[must_use]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The incremental hash.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash recomputed from the tokens and the side to move.
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        hash_of(&self.tokens, self.to_move.index())
    }

    /// Whether neither colour can grow or jump: nothing can ever change again.
    #[must_use]
    pub fn stuck(&self) -> bool {
        let grid = self.grid();
        !self.tokens.can_move(grid, 0) && !self.tokens.can_move(grid, 1)
    }

    /// The mover's moves into `out` (cleared first).
    pub fn list_moves(&self, out: &mut Vec<GrowJump>) {
        self.tokens
            .list_moves(self.grid(), self.to_move.index(), out);
    }

    /// Whether `mv` is legal for the mover.
    #[must_use]
    pub fn is_legal(&self, mv: GrowJump) -> bool {
        self.tokens.is_legal(self.grid(), self.to_move.index(), mv)
    }

    /// Why `mv` is illegal for the mover.
    #[must_use]
    pub fn why_illegal(&self, mv: GrowJump) -> String {
        self.tokens
            .why_illegal(self.grid(), self.to_move.index(), mv)
    }

    /// Plays `mv` for the mover and passes the turn.
    #[inline]
    pub fn play(&mut self, mv: GrowJump) {
        let mut hash = self.hash;
        self.tokens
            .apply(self.grid(), self.to_move.index(), mv, |colour, cell| {
                hash ^= KEYS.piece(colour, cell)
            });
        self.hash = hash ^ KEYS.phase(0) ^ KEYS.phase(1);
        self.to_move = self.to_move.other();
        self.ply += 1;
    }

    /// Reads a move in this board's notation.
    pub fn parse_move(&self, text: &str) -> Result<GrowJump, ParseMoveError> {
        parse_move(self.grid(), text)
    }

    /// Prints a move in this board's notation.
    #[must_use]
    pub fn move_text(&self, mv: GrowJump) -> String {
        move_text(self.grid(), mv)
    }

    /// A position on this board from text (see [`read_position`]), at ply 0.
    pub fn set_up(&self, text: &str, empty: &[char]) -> Result<Board, crate::error::PositionError> {
        let (tokens, to_move) =
            read_position(self.grid(), text, ['L', 'D'], empty, ["light", "dark"])?;
        let to_move = crate::Player::new(to_move.unwrap_or(0));
        Ok(Board {
            tokens,
            hash: hash_of(&tokens, to_move.index()),
            ply: 0,
            side: self.side,
            to_move,
        })
    }
}
