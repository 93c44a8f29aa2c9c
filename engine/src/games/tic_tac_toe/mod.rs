//! Tic-tac-toe, as OpenSpiel's `tic_tac_toe` plays it. Rules: `RULES.md` in this folder,
//! below.
//!
#![doc = include_str!("RULES.md")]

use crate::error::{ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player};
use crate::grid::Grid;
use crate::zobrist::Zobrist;
use crate::{Feature, Features, MAX_FEATURES};

/// The eight lines of three, as masks of cells (bit `3 × row + column`, row 0 at the top).
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
const FULL: u16 = 0b111_111_111;

/// Whether `marks` fill a line.
fn has_line(marks: u16) -> bool {
    for line in LINES {
        if marks & line == line {
            return true;
        }
    }
    false
}

/// Keys of the two marks on nine cells; phases: `x` to move, `o` to move.
static KEYS: Zobrist<9, 2> = Zobrist::new(0x7E_7E_7E);

/// The board's shape and notation: three rows of three cells, numbered and named as in the
/// m,n,k-game.
const GRID: Grid = Grid::new(3, 3);

/// A cell, by OpenSpiel's action number: `3 × row + column`, row 0 at the top.
pub use crate::grid::Cell;

/// A Tic-tac-toe position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    marks: [u16; 2],
    ply: u8,
    outcome: Option<Outcome>,
    hash: u64,
}

impl Default for TicTacToe {
    fn default() -> Self {
        TicTacToe::new()
    }
}

impl TicTacToe {
    /// The empty board, `x` to move.
    #[must_use]
    pub fn new() -> TicTacToe {
        TicTacToe {
            marks: [0, 0],
            ply: 0,
            outcome: None,
            hash: KEYS.phase(0),
        }
    }

    fn mover(&self) -> Player {
        Player::new(usize::from(self.ply % 2))
    }

    fn empty(&self) -> u16 {
        FULL & !(self.marks[0] | self.marks[1])
    }

    fn outcome_of(marks: [u16; 2], mover: Player) -> Option<Outcome> {
        let mine = marks[mover.index()];
        if has_line(mine) {
            Some(Outcome::Win(mover))
        } else if marks[0] | marks[1] == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// The mark on a cell (`X`, `O` or `.`).
    fn mark(&self, cell: usize) -> char {
        if self.marks[0] >> cell & 1 == 1 {
            'X'
        } else if self.marks[1] >> cell & 1 == 1 {
            'O'
        } else {
            '.'
        }
    }
}

impl Game for TicTacToe {
    type Move = Cell;

    fn name(&self) -> &'static str {
        "tic_tac_toe"
    }

    fn spec(&self) -> String {
        "tic_tac_toe".into()
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

    fn legal_moves(&self, moves: &mut Vec<Cell>) {
        moves.clear();
        if self.outcome.is_none() {
            let empty = self.empty();
            moves.extend((0..9u16).filter(|&c| empty >> c & 1 == 1).map(Cell));
        }
    }

    fn is_legal(&self, mv: Cell) -> bool {
        self.outcome.is_none() && mv.0 < 9 && self.empty() >> mv.0 & 1 == 1
    }

    fn play_unchecked(&mut self, mv: Cell) {
        let me = self.mover();
        self.marks[me.index()] |= 1 << mv.0;
        self.hash ^= KEYS.piece(me.index(), usize::from(mv.0))
            ^ KEYS.phase(me.index() as u32)
            ^ KEYS.phase(me.other().index() as u32);
        self.ply += 1;
        self.outcome = TicTacToe::outcome_of(self.marks, me);
    }

    fn wins_at_once(&self, player: Player, mv: Cell) -> Option<bool> {
        if !self.is_legal(mv) {
            return Some(false);
        }
        let mine = self.marks[player.index()] | 1 << mv.0;
        Some(has_line(mine))
    }

    fn move_index(&self, mv: Cell) -> usize {
        usize::from(mv.0)
    }

    fn move_index_count(&self) -> usize {
        9
    }

    fn why_illegal(&self, mv: Cell) -> String {
        if mv.0 >= 9 {
            format!("cell {} is off the board", mv.0)
        } else {
            format!("cell {} is taken", GRID.name(mv))
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
            for cell in 0..9 {
                if self.marks[colour] >> cell & 1 == 1 {
                    h ^= KEYS.piece(colour, cell);
                }
            }
        }
        h
    }

    /// A cell name (`b2`), or OpenSpiel's `x(r,c)` / `o(r,c)`.
    fn parse_move(&self, text: &str) -> Result<Cell, ParseMoveError> {
        GRID.parse_cell(text)
    }

    fn move_text(&self, mv: Cell) -> String {
        GRID.name(mv)
    }

    fn action_string(&self, player: Player, mv: Cell) -> String {
        GRID.action_string(player, mv)
    }

    fn board_rows(&self) -> Vec<String> {
        GRID.draw(|c| self.mark(c))
    }

    fn write_cells(&self, out: &mut Vec<u8>) {
        GRID.write_cells(out, |c| self.mark(c));
    }

    fn cell_names(&self) -> Vec<Vec<String>> {
        GRID.names()
    }

    /// Three rows of `X`, `O` and `.` (or OpenSpiel's `x`, `o`), top first; the mover
    /// follows from the counts.
    fn set_up(&self, text: &str) -> Result<TicTacToe, PositionError> {
        let read = GRID.read_marks(text)?;
        let mut game = TicTacToe::new();
        for player in [Player::ZERO, Player::ONE] {
            for cell in read.cells_of(player) {
                game.marks[player.index()] |= 1 << cell.0;
            }
        }
        game.ply = read.ply() as u8;
        let last = read.mover().other();
        game.outcome = TicTacToe::outcome_of(game.marks, last)
            .or_else(|| TicTacToe::outcome_of(game.marks, last.other()));
        game.hash = game.hash_from_scratch();
        Ok(game)
    }
}

/// Tic-tac-toe's features (see [`Features`]).
const FEATURES: [Feature; 3] = [
    Feature {
        name: "material",
        default_weight: 0.0,
    },
    Feature {
        name: "open_lines",
        default_weight: 0.1,
    },
    Feature {
        name: "threats",
        default_weight: 1.0,
    },
];

impl Features for TicTacToe {
    fn feature_set(&self) -> &'static [Feature] {
        &FEATURES
    }

    /// - `material`: the player's marks.
    /// - `open_lines`: lines holding the player's marks and none of the opponent's.
    /// - `threats`: lines holding two of the player's marks and an empty cell.
    fn features(&self, player: Player, out: &mut [f64; MAX_FEATURES]) {
        let (mine, theirs) = (
            self.marks[player.index()],
            self.marks[player.other().index()],
        );
        let open = LINES.iter().filter(|&&l| l & theirs == 0 && l & mine != 0);
        let threats = LINES
            .iter()
            .filter(|&&l| l & theirs == 0 && (l & mine).count_ones() == 2);
        out[0] = f64::from(mine.count_ones());
        out[1] = open.count() as f64;
        out[2] = threats.count() as f64;
    }
}

impl crate::options::Registered for TicTacToe {
    const INFO: crate::options::GameInfo = crate::options::GameInfo {
        name: "tic_tac_toe",
        about: "Tic-tac-toe, as OpenSpiel plays it (a draw under perfect play)",
        options: &[],
    };

    fn from_options(
        _options: &mut crate::options::Options,
    ) -> Result<TicTacToe, crate::GameSpecError> {
        Ok(TicTacToe::new())
    }
}

#[cfg(test)]
mod tests;
