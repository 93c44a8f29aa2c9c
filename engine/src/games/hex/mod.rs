//! Hex, as OpenSpiel's `hex` plays it. Rules: `RULES.md` in this folder, below.
//!
#![doc = include_str!("RULES.md")]

mod features;

use std::sync::OnceLock;

use rand::{Rng, RngExt};

use crate::error::{GameSpecError, ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player, Stone};
use crate::zobrist::Zobrist;

/// The default size, as in OpenSpiel.
pub const DEFAULT_SIZE: usize = 11;
/// The smallest and largest sizes.
pub const SIZES: std::ops::RangeInclusive<usize> = 3..=19;
const MAX_CELLS: usize = 19 * 19;
const EMPTY: u8 = 2;
const NONE: u16 = u16::MAX;
/// A group's edge bits: the first edge (Black's top, White's left) and the second.
const FIRST_EDGE: u8 = 1;
const SECOND_EDGE: u8 = 2;
const BOTH_EDGES: u8 = 3;

/// A move: a cell by OpenSpiel's action number, `size × row + column`, or the swap.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u16);

/// Stone keys for 361 cells; phases: Black to move, White to move, White to move with the
/// swap available.
static KEYS: Zobrist<MAX_CELLS, 3> = Zobrist::new(0x48_45_58);

/// The neighbours of each cell of one size, in OpenSpiel's order.
fn neighbours(size: usize) -> &'static [[u16; 6]] {
    static TABLES: [OnceLock<Vec<[u16; 6]>>; 20] = [const { OnceLock::new() }; 20];
    TABLES[size].get_or_init(|| {
        let n = size as i32;
        (0..size * size)
            .map(|cell| {
                let (r, c) = ((cell / size) as i32, (cell % size) as i32);
                let mut out = [NONE; 6];
                let around = [(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)];
                for (k, (dr, dc)) in around.iter().enumerate() {
                    let (rr, cc) = (r + dr, c + dc);
                    if (0..n).contains(&rr) && (0..n).contains(&cc) {
                        out[k] = (rr * n + cc) as u16;
                    }
                }
                out
            })
            .collect()
    })
}

/// A Hex position with its groups (a union-find over cells whose roots carry the edges the
/// group touches) and its empty cells (for constant-time random moves).
#[derive(Clone, Debug)]
pub struct Hex {
    size: u8,
    swap: bool,
    owner: [u8; MAX_CELLS],
    parent: [u16; MAX_CELLS],
    edges: [u8; MAX_CELLS],
    empties: [u16; MAX_CELLS],
    empty_at: [u16; MAX_CELLS],
    empty_count: u16,
    ply: u16,
    /// The first stone, while the swap may take it.
    first: u16,
    outcome: Option<Outcome>,
    hash: u64,
}

impl PartialEq for Hex {
    /// Positions are equal when their boards, movers, swap rights and results are: the
    /// union-find's shape and the empty list's order are bookkeeping.
    fn eq(&self, other: &Hex) -> bool {
        let cells = self.cells();
        self.size == other.size
            && self.swap == other.swap
            && self.owner[..cells] == other.owner[..cells]
            && self.ply == other.ply
            && self.swap_available() == other.swap_available()
            && self.outcome == other.outcome
    }
}

impl Eq for Hex {}

impl Default for Hex {
    fn default() -> Self {
        Hex::new(DEFAULT_SIZE, false).expect("the default size is valid")
    }
}

impl Hex {
    /// The empty board of `size` (3 to 19), Black to move; `swap` turns the swap rule on.
    pub fn new(size: usize, swap: bool) -> Result<Hex, GameSpecError> {
        if !SIZES.contains(&size) {
            return Err(GameSpecError::bad_value(format!(
                "hex: size must be from {} to {}, not {size}",
                SIZES.start(),
                SIZES.end()
            )));
        }
        // The neighbour table is built here, once a size, so that playing never allocates.
        neighbours(size);
        let mut game = Hex {
            size: size as u8,
            swap,
            owner: [EMPTY; MAX_CELLS],
            parent: [0; MAX_CELLS],
            edges: [0; MAX_CELLS],
            empties: [0; MAX_CELLS],
            empty_at: [0; MAX_CELLS],
            empty_count: (size * size) as u16,
            ply: 0,
            first: NONE,
            outcome: None,
            hash: 0,
        };
        for cell in 0..size * size {
            game.empties[cell] = cell as u16;
            game.empty_at[cell] = cell as u16;
            game.parent[cell] = cell as u16;
        }
        game.hash = game.hash_from_scratch();
        Ok(game)
    }

    /// Cells on a side.
    #[must_use]
    pub fn size(&self) -> usize {
        usize::from(self.size)
    }

    /// Whether the swap rule is on.
    #[must_use]
    pub fn swap_rule(&self) -> bool {
        self.swap
    }

    fn cells(&self) -> usize {
        self.size() * self.size()
    }

    /// The swap action.
    fn swap_cell(&self) -> Cell {
        Cell(self.cells() as u16)
    }

    fn swap_available(&self) -> bool {
        self.swap && self.ply == 1 && self.first != NONE && self.outcome.is_none()
    }

    fn mover(&self) -> Player {
        Player::new(usize::from(self.ply % 2))
    }

    fn phase(&self) -> u32 {
        if self.swap_available() {
            2
        } else {
            u32::from(self.ply % 2)
        }
    }

    /// The edge bits a stone of `player` on `cell` touches by itself.
    fn own_edges(&self, player: usize, cell: usize) -> u8 {
        let (n, r, c) = (self.size(), cell / self.size(), cell % self.size());
        let (lo, hi) = if player == 0 { (r, r) } else { (c, c) };
        (u8::from(lo == 0) * FIRST_EDGE) | (u8::from(hi == n - 1) * SECOND_EDGE)
    }

    fn root_of(&self, cell: usize) -> usize {
        let mut root = cell;
        while usize::from(self.parent[root]) != root {
            root = usize::from(self.parent[root]);
        }
        root
    }

    fn find(&mut self, cell: usize) -> usize {
        let root = self.root_of(cell);
        self.parent[cell] = root as u16;
        root
    }

    /// The edges a stone of `player` on `cell` would join: its own and its groups'.
    fn edges_joined(&self, player: usize, cell: usize) -> u8 {
        let mut edges = self.own_edges(player, cell);
        for &nb in &neighbours(self.size())[cell] {
            if nb != NONE && usize::from(self.owner[usize::from(nb)]) == player {
                edges |= self.edges[self.root_of(usize::from(nb))];
            }
        }
        edges
    }

    fn remove_empty(&mut self, cell: usize) {
        let at = usize::from(self.empty_at[cell]);
        self.empty_count -= 1;
        let last = self.empties[usize::from(self.empty_count)];
        self.empties[at] = last;
        self.empty_at[usize::from(last)] = at as u16;
    }

    fn add_empty(&mut self, cell: usize) {
        self.empties[usize::from(self.empty_count)] = cell as u16;
        self.empty_at[cell] = self.empty_count;
        self.empty_count += 1;
    }

    /// Puts a stone of `player` on `cell` and joins it to its neighbours' groups; returns the
    /// edges its group touches.
    fn place(&mut self, player: usize, cell: usize) -> u8 {
        self.owner[cell] = player as u8;
        self.parent[cell] = cell as u16;
        self.edges[cell] = self.own_edges(player, cell);
        self.remove_empty(cell);
        self.hash ^= KEYS.piece(player, cell);
        for k in 0..6 {
            let nb = neighbours(self.size())[cell][k];
            if nb == NONE || usize::from(self.owner[usize::from(nb)]) != player {
                continue;
            }
            let (a, b) = (self.find(cell), self.find(usize::from(nb)));
            if a != b {
                self.parent[b] = a as u16;
                self.edges[a] |= self.edges[b];
            }
        }
        let root = self.find(cell);
        self.edges[root]
    }

    /// The cell mirrored across the long diagonal: row and column exchanged.
    fn mirrored(&self, cell: usize) -> usize {
        let n = self.size();
        (cell % n) * n + cell / n
    }

    fn name_of(&self, cell: usize) -> String {
        let n = self.size();
        crate::square::point_name(cell % n, cell / n)
    }

    fn mark(&self, cell: usize) -> char {
        ['B', 'W', '.'][usize::from(self.owner[cell])]
    }
}

impl Game for Hex {
    type Move = Cell;

    fn name(&self) -> &'static str {
        "hex"
    }

    fn spec(&self) -> String {
        let mut options = Vec::new();
        if self.size() != DEFAULT_SIZE {
            options.push(format!("size={}", self.size()));
        }
        if self.swap {
            options.push("swap=on".to_string());
        }
        if options.is_empty() {
            "hex".into()
        } else {
            format!("hex:{}", options.join(","))
        }
    }

    fn board_size(&self) -> Option<crate::BoardSize> {
        Some(crate::BoardSize {
            option: "size",
            value: self.size(),
        })
    }

    fn cell_shape(&self) -> crate::CellShape {
        crate::CellShape::Hex
    }

    /// HexGui's (and Benzene's, MoHex's): the same cell names, and `swap-pieces` for the
    /// swap.
    fn notations(&self) -> &'static [&'static str] {
        &["hexgui"]
    }

    fn translate_move(&self, notation: &str, text: &str, into: bool) -> Option<String> {
        (notation == "hexgui").then(|| match (text, into) {
            ("swap", true) => "swap-pieces".to_string(),
            ("swap-pieces", false) => "swap".to_string(),
            _ => text.to_string(),
        })
    }

    fn stone(&self, player: Player) -> Option<Stone> {
        Some([Stone::Black, Stone::White][player.index()])
    }

    fn player_name(&self, player: Player) -> &'static str {
        ["black", "white"][player.index()]
    }

    fn to_move(&self) -> Option<Player> {
        self.outcome.is_none().then(|| self.mover())
    }

    fn ply(&self) -> u32 {
        u32::from(self.ply)
    }

    fn legal_moves(&self, moves: &mut Vec<Cell>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        moves.extend(
            (0..self.cells())
                .filter(|&c| self.owner[c] == EMPTY)
                .map(|c| Cell(c as u16)),
        );
        if self.swap_available() {
            moves.push(self.swap_cell());
        }
    }

    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, _scratch: &mut Vec<Cell>) -> Option<Cell> {
        if self.outcome.is_some() {
            return None;
        }
        let n = u32::from(self.empty_count) + u32::from(self.swap_available());
        let k = rng.random_range(0..n) as usize;
        Some(if k == usize::from(self.empty_count) {
            self.swap_cell()
        } else {
            Cell(self.empties[k])
        })
    }

    fn is_legal(&self, mv: Cell) -> bool {
        let c = usize::from(mv.0);
        self.outcome.is_none()
            && (c < self.cells() && self.owner[c] == EMPTY
                || c == self.cells() && self.swap_available())
    }

    fn play_unchecked(&mut self, mv: Cell) {
        let me = self.mover().index();
        self.hash ^= KEYS.phase(self.phase());
        let c = usize::from(mv.0);
        if c == self.cells() {
            let first = usize::from(self.first);
            self.owner[first] = EMPTY;
            self.parent[first] = first as u16;
            self.edges[first] = 0;
            self.add_empty(first);
            self.hash ^= KEYS.piece(0, first);
            self.place(1, self.mirrored(first));
            self.first = NONE;
        } else {
            if self.ply == 0 {
                self.first = mv.0;
            } else {
                self.first = NONE;
            }
            if self.place(me, c) == BOTH_EDGES {
                self.outcome = Some(Outcome::Win(Player::new(me)));
            }
        }
        self.ply += 1;
        self.hash ^= KEYS.phase(self.phase());
    }

    /// The swap rule's offer: the second player's first move, with the swap on.
    fn rule_decision(&self) -> bool {
        self.swap_available()
    }

    /// Whether the stone completes a chain between `player`'s edges; stones never leave the
    /// board, so the answer holds for either player.
    fn wins_at_once(&self, player: Player, mv: Cell) -> Option<bool> {
        let c = usize::from(mv.0);
        if c >= self.cells() || self.owner[c] != EMPTY || self.outcome.is_some() {
            return Some(false);
        }
        Some(self.edges_joined(player.index(), c) == BOTH_EDGES)
    }

    fn move_index(&self, mv: Cell) -> usize {
        usize::from(mv.0)
    }

    /// OpenSpiel's `num_distinct_actions`: the cells, and the swap when the rule is on.
    fn move_index_count(&self) -> usize {
        self.cells() + usize::from(self.swap)
    }

    fn why_illegal(&self, mv: Cell) -> String {
        let c = usize::from(mv.0);
        if c == self.cells() {
            "the swap is White's first move, with the swap rule on".into()
        } else if c > self.cells() {
            format!("cell {c} is off the board")
        } else {
            format!("cell {} is taken", self.name_of(c))
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
        let mut h = KEYS.phase(self.phase());
        for cell in 0..self.cells() {
            if self.owner[cell] != EMPTY {
                h ^= KEYS.piece(usize::from(self.owner[cell]), cell);
            }
        }
        h
    }

    /// A cell (`f6`: column letter, row number from the top) or `swap`.
    fn parse_move(&self, text: &str) -> Result<Cell, ParseMoveError> {
        if text == "swap" {
            return Ok(self.swap_cell());
        }
        let n = self.size();
        // `parse_point` reads the number less one as the row: here, the row from the top.
        let (col, row) = crate::square::parse_point(text, n).map_err(|_| ParseMoveError {
            text: text.to_string(),
            expected: format!(
                "a cell a1..{}{n} (column letter, then row number from the top) or swap",
                char::from(b'a' + n as u8 - 1)
            ),
        })?;
        Ok(Cell((row * n + col) as u16))
    }

    fn move_text(&self, mv: Cell) -> String {
        let c = usize::from(mv.0);
        if c == self.cells() {
            "swap".into()
        } else {
            self.name_of(c)
        }
    }

    fn write_move(&self, mv: Cell, out: &mut String) {
        let (c, n) = (usize::from(mv.0), self.size());
        if c == self.cells() {
            out.push_str("swap");
        } else {
            crate::square::write_point_name(c % n, c / n, out);
        }
    }

    /// Rows top first, each indented one space more than the one above, cells `B`, `W`, `.`
    /// a space apart (OpenSpiel's drawing, with the colours' initials for its `x` and `o`).
    fn board_rows(&self) -> Vec<String> {
        let n = self.size();
        (0..n)
            .map(|r| {
                let cells: Vec<String> = (0..n).map(|c| self.mark(r * n + c).to_string()).collect();
                format!("{}{}", " ".repeat(r), cells.join(" "))
            })
            .collect()
    }

    fn write_cells(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend((0..self.cells()).map(|c| self.mark(c) as u8));
    }

    fn cell_names(&self) -> Vec<Vec<String>> {
        let n = self.size();
        (0..n)
            .map(|r| (0..n).map(|c| self.name_of(r * n + c)).collect())
            .collect()
    }

    /// `size` rows of `B`, `W` and `.` (or OpenSpiel's `x`, `o`), top first; the mover
    /// follows from the counts.
    fn set_up(&self, text: &str) -> Result<Hex, PositionError> {
        let err = |reason: String| PositionError { reason };
        let cells: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        let n = self.size();
        if cells.len() != n * n {
            return Err(err(format!(
                "expected {} cells, found {}",
                n * n,
                cells.len()
            )));
        }
        let mut game = Hex::new(n, self.swap).map_err(|e| err(e.reason))?;
        let mut counts = [0u16; 2];
        for (i, &ch) in cells.iter().enumerate() {
            let player = match ch {
                'B' | 'x' => 0,
                'W' | 'o' => 1,
                '.' => continue,
                other => return Err(err(format!("'{other}' is not x, o or ."))),
            };
            counts[player] += 1;
            if game.place(player, i) == BOTH_EDGES {
                game.outcome = Some(Outcome::Win(Player::new(player)));
            }
        }
        if counts[0] != counts[1] && counts[0] != counts[1] + 1 {
            return Err(err(format!(
                "{} x and {} o: Black moves first",
                counts[0], counts[1]
            )));
        }
        game.ply = counts[0] + counts[1];
        if game.ply == 1 {
            game.first = (0..n * n)
                .find(|&c| game.owner[c] == 0)
                .map_or(NONE, |c| c as u16);
        }
        game.hash = game.hash_from_scratch();
        Ok(game)
    }
}

impl crate::options::Registered for Hex {
    const INFO: crate::options::GameInfo = crate::options::GameInfo {
        name: "hex",
        about: "Hex, as OpenSpiel plays it (a first-player win without the swap)",
        options: &[
            crate::options::GameOption {
                name: "size",
                kind: crate::options::OptionKind::Int { min: 3, max: 19 },
                default: Some("11"),
                help: "cells on a side (OpenSpiel's board_size)",
            },
            crate::options::SWAP,
        ],
    };

    fn from_options(options: &mut crate::options::Options) -> Result<Hex, GameSpecError> {
        let size = options.int("size")?;
        let swap = options.choice("swap")? == "on";
        Hex::new(size, swap)
    }
}

#[cfg(test)]
mod tests;
