//! The m,n,k-game, as OpenSpiel's `mnk` plays it. Rules: `RULES.md` in this folder, below.
//!
#![doc = include_str!("RULES.md")]

use rand::{Rng, RngExt};

use crate::error::{GameSpecError, ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player};
use crate::grid::{Cell, Grid};
use crate::options::{GameInfo, GameOption, OptionKind, Options, Registered};
use crate::zobrist::Zobrist;
use crate::{Feature, Features, MAX_FEATURES};

/// The longest side, and so the largest `k`.
pub const MAX_SIDE: usize = 19;
const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;
const WORDS: usize = MAX_CELLS.div_ceil(64);

/// The four directions of a line, as (row, column) steps: a row, a column, the diagonal down
/// to the right and the one down to the left.
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Keys of the two marks on up to 361 cells; phases: `x` to move, `o` to move.
static KEYS: Zobrist<MAX_CELLS, 2> = Zobrist::new(0x4D_4E_4B);

/// A set of cells, one bit a cell number (bit `c % 64` of word `c / 64`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Bits([u64; WORDS]);

impl Bits {
    /// The cells `0..cells`.
    fn below(cells: usize) -> Bits {
        let mut words = [0; WORDS];
        for (i, word) in words.iter_mut().enumerate() {
            let from = i * 64;
            *word = match cells.saturating_sub(from) {
                0 => 0,
                n if n >= 64 => u64::MAX,
                n => (1 << n) - 1,
            };
        }
        Bits(words)
    }

    #[inline]
    fn has(&self, cell: usize) -> bool {
        self.0[cell / 64] >> (cell % 64) & 1 == 1
    }

    #[inline]
    fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The cells in `self` and not in `other`.
    fn minus(&self, other: &Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// The `n`th cell of the set in cell order, from 0; `None` when the set is smaller.
    fn nth(&self, mut n: u32) -> Option<usize> {
        for (i, &word) in self.0.iter().enumerate() {
            let here = word.count_ones();
            if n < here {
                let mut rest = word;
                for _ in 0..n {
                    rest &= rest - 1;
                }
                return Some(i * 64 + rest.trailing_zeros() as usize);
            }
            n -= here;
        }
        None
    }

    /// The cells of the set in cell order.
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    i * 64 + bit
                })
            })
        })
    }
}

/// A position of the m,n,k-game: the board's shape, `k`, each player's marks.
///
/// `Copy`, 112 bytes on a 64-bit target, whatever the board: a search copies it without
/// touching the heap.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Mnk {
    grid: Grid,
    k: u8,
    marks: [Bits; 2],
    ply: u16,
    outcome: Option<Outcome>,
    hash: u64,
}

impl Default for Mnk {
    /// OpenSpiel's default game, 15 × 15 with five in a row.
    fn default() -> Self {
        Mnk::new(15, 15, 5).expect("the defaults are valid")
    }
}

impl Mnk {
    /// The empty board of `m` columns and `n` rows (1 to 19 each) where `k` in a row wins
    /// (1 to `max(m, n)`), `x` to move.
    pub fn new(m: usize, n: usize, k: usize) -> Result<Mnk, GameSpecError> {
        for (name, value) in [("m", m), ("n", n)] {
            if !(1..=MAX_SIDE).contains(&value) {
                return Err(GameSpecError::bad_value(format!(
                    "mnk: {name} must be from 1 to {MAX_SIDE}, not {value}"
                )));
            }
        }
        let longest = m.max(n);
        if !(1..=longest).contains(&k) {
            return Err(GameSpecError::bad_value(format!(
                "mnk: k must be from 1 to {longest}, the longer side of {m} × {n}, not {k} \
                 (no line of {k} fits)"
            )));
        }
        Ok(Mnk {
            grid: Grid::new(m, n),
            k: k as u8,
            marks: [Bits::default(); 2],
            ply: 0,
            outcome: None,
            hash: KEYS.phase(0),
        })
    }

    /// Columns (OpenSpiel's `m`).
    #[must_use]
    pub fn m(&self) -> usize {
        self.grid.columns()
    }

    /// Rows (OpenSpiel's `n`).
    #[must_use]
    pub fn n(&self) -> usize {
        self.grid.rows()
    }

    /// The length of a winning line (OpenSpiel's `k`).
    #[must_use]
    pub fn k(&self) -> usize {
        usize::from(self.k)
    }

    fn mover(&self) -> Player {
        Player::new(usize::from(self.ply % 2))
    }

    fn occupied(&self) -> Bits {
        Bits(std::array::from_fn(|i| {
            self.marks[0].0[i] | self.marks[1].0[i]
        }))
    }

    fn empty(&self) -> Bits {
        Bits::below(self.grid.cells()).minus(&self.occupied())
    }

    fn is_empty(&self, cell: Cell) -> bool {
        self.grid.contains(cell) && !self.occupied().has(cell.index())
    }

    /// The cell one step of `(dr, dc)` from (`row`, `column`), if on the board.
    fn step(&self, row: usize, column: usize, (dr, dc): (isize, isize)) -> Option<(usize, usize)> {
        let r = row.checked_add_signed(dr).filter(|&r| r < self.n())?;
        let c = column.checked_add_signed(dc).filter(|&c| c < self.m())?;
        Some((r, c))
    }

    /// Whether `marks` with `cell` added hold `k` or more in a row through `cell`.
    fn makes_line(&self, marks: &Bits, cell: Cell) -> bool {
        let (row, column) = self.grid.row_column(cell);
        let k = self.k();
        DIRECTIONS.iter().any(|&(dr, dc)| {
            let mut run = 1;
            for dir in [(dr, dc), (-dr, -dc)] {
                let (mut r, mut c) = (row, column);
                while run < k {
                    match self.step(r, c, dir) {
                        Some((r2, c2)) if marks.has(self.grid.cell(r2, c2).index()) => {
                            (r, c) = (r2, c2);
                            run += 1;
                        }
                        _ => break,
                    }
                }
            }
            run >= k
        })
    }

    /// Whether `marks` hold a line of `k` anywhere (for set-up).
    fn has_line(&self, marks: &Bits) -> bool {
        marks.iter().any(|c| self.makes_line(marks, Cell(c as u16)))
    }

    /// The mark on a cell (`X`, `O` or `.`).
    fn mark(&self, cell: usize) -> char {
        if self.marks[0].has(cell) {
            'X'
        } else if self.marks[1].has(cell) {
            'O'
        } else {
            '.'
        }
    }

    /// Calls `window(mine, theirs)` with the number of `player`'s and the opponent's marks in
    /// each line of `k` cells on the board.
    fn for_each_window(&self, player: Player, mut window: impl FnMut(u32, u32)) {
        let (mine, theirs) = (
            &self.marks[player.index()],
            &self.marks[player.other().index()],
        );
        let k = self.k();
        for row in 0..self.n() {
            for column in 0..self.m() {
                for &dir in &DIRECTIONS {
                    let (mut counts, mut at, mut len) = ([0, 0], Some((row, column)), 0);
                    while len < k {
                        let Some((r, c)) = at else { break };
                        let cell = self.grid.cell(r, c).index();
                        counts[0] += u32::from(mine.has(cell));
                        counts[1] += u32::from(theirs.has(cell));
                        len += 1;
                        at = self.step(r, c, dir);
                    }
                    // A line of one cell lies in every direction: count it once.
                    if len == k && (k > 1 || dir == DIRECTIONS[0]) {
                        window(counts[0], counts[1]);
                    }
                }
            }
        }
    }
}

impl Game for Mnk {
    type Move = Cell;

    fn name(&self) -> &'static str {
        "mnk"
    }

    fn spec(&self) -> String {
        Mnk::INFO.spec(&[("m", &self.m()), ("n", &self.n()), ("k", &self.k())])
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
            moves.extend(self.empty().iter().map(|c| Cell(c as u16)));
        }
    }

    /// A uniform draw among the empty cells, found by counting bits: no list, no allocation.
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, _scratch: &mut Vec<Cell>) -> Option<Cell> {
        if self.outcome.is_some() {
            return None;
        }
        let empty = self.empty();
        let n = rng.random_range(0..empty.count());
        empty.nth(n).map(|c| Cell(c as u16))
    }

    fn is_legal(&self, mv: Cell) -> bool {
        self.outcome.is_none() && self.is_empty(mv)
    }

    fn play_unchecked(&mut self, mv: Cell) {
        let me = self.mover();
        self.marks[me.index()].insert(mv.index());
        self.hash ^= KEYS.piece(me.index(), mv.index())
            ^ KEYS.phase(me.index() as u32)
            ^ KEYS.phase(me.other().index() as u32);
        self.ply += 1;
        self.outcome = if self.makes_line(&self.marks[me.index()], mv) {
            Some(Outcome::Win(me))
        } else if usize::from(self.ply) == self.grid.cells() {
            Some(Outcome::Draw)
        } else {
            None
        };
    }

    /// Whether the mark makes a line of `k`; marks never leave the board, so the answer
    /// holds for either player.
    fn wins_at_once(&self, player: Player, mv: Cell) -> Option<bool> {
        if !self.is_legal(mv) {
            return Some(false);
        }
        let mut mine = self.marks[player.index()];
        mine.insert(mv.index());
        Some(self.makes_line(&mine, mv))
    }

    fn move_index(&self, mv: Cell) -> usize {
        mv.index()
    }

    /// OpenSpiel's `num_distinct_actions`: `m × n`.
    fn move_index_count(&self) -> usize {
        self.grid.cells()
    }

    fn why_illegal(&self, mv: Cell) -> String {
        if self.grid.contains(mv) {
            format!("cell {} is taken", self.grid.name(mv))
        } else {
            format!("cell {} is off the board", mv.0)
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
            for cell in self.marks[colour].iter() {
                h ^= KEYS.piece(colour, cell);
            }
        }
        h
    }

    /// A cell name (`h8`), or OpenSpiel's `x(r,c)` / `o(r,c)`.
    fn parse_move(&self, text: &str) -> Result<Cell, ParseMoveError> {
        self.grid.parse_cell(text)
    }

    fn move_text(&self, mv: Cell) -> String {
        self.grid.name(mv)
    }

    fn write_move(&self, mv: Cell, out: &mut String) {
        self.grid.write_name(mv, out);
    }

    fn action_string(&self, player: Player, mv: Cell) -> String {
        self.grid.action_string(player, mv)
    }

    fn board_rows(&self) -> Vec<String> {
        self.grid.draw(|c| self.mark(c))
    }

    fn write_cells(&self, out: &mut Vec<u8>) {
        self.grid.write_cells(out, |c| self.mark(c));
    }

    fn cell_names(&self) -> Vec<Vec<String>> {
        self.grid.names()
    }

    /// `n` rows of `m` cells, `X`, `O` and `.` (or OpenSpiel's `x`, `o`), top first; the
    /// mover follows from the counts, and a drawn line of `k` ends the game.
    fn set_up(&self, text: &str) -> Result<Mnk, PositionError> {
        let read = self.grid.read_marks(text)?;
        let mut game = Mnk::new(self.m(), self.n(), self.k()).expect("this game's options");
        for player in [Player::ZERO, Player::ONE] {
            for cell in read.cells_of(player) {
                game.marks[player.index()].insert(cell.index());
            }
        }
        game.ply = read.ply() as u16;
        let last = read.mover().other();
        game.outcome = [last, last.other()]
            .into_iter()
            .find(|p| game.has_line(&game.marks[p.index()]))
            .map(Outcome::Win)
            .or_else(|| (read.ply() == game.grid.cells()).then_some(Outcome::Draw));
        game.hash = game.hash_from_scratch();
        Ok(game)
    }
}

/// The m,n,k-game's features (see [`Features`]).
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

impl Features for Mnk {
    fn feature_set(&self) -> &'static [Feature] {
        &FEATURES
    }

    /// Tic-tac-toe's, on lines of `k` cells:
    /// - `material`: the player's marks.
    /// - `open_lines`: lines of `k` cells holding the player's marks and none of the
    ///   opponent's.
    /// - `threats`: lines of `k` cells holding `k − 1` of the player's marks and an empty
    ///   cell (one mark from a win).
    fn features(&self, player: Player, out: &mut [f64; MAX_FEATURES]) {
        let k = self.k as u32;
        let (mut open, mut threats) = (0u32, 0u32);
        self.for_each_window(player, |mine, theirs| {
            if theirs == 0 && mine > 0 {
                open += 1;
                threats += u32::from(mine + 1 == k);
            }
        });
        out[0] = f64::from(self.marks[player.index()].count());
        out[1] = f64::from(open);
        out[2] = f64::from(threats);
    }
}

/// OpenSpiel's parameters, with its defaults.
const OPTIONS: &[GameOption] = &[
    GameOption {
        name: "m",
        kind: OptionKind::Int {
            min: 1,
            max: MAX_SIDE,
        },
        default: Some("15"),
        help: "columns, the board's width (OpenSpiel's m)",
    },
    GameOption {
        name: "n",
        kind: OptionKind::Int {
            min: 1,
            max: MAX_SIDE,
        },
        default: Some("15"),
        help: "rows, the board's height (OpenSpiel's n)",
    },
    GameOption {
        name: "k",
        kind: OptionKind::Int {
            min: 1,
            max: MAX_SIDE,
        },
        default: Some("5"),
        help: "marks in a row that win, at most max(m, n) (OpenSpiel's k)",
    },
];

impl Registered for Mnk {
    const INFO: GameInfo = GameInfo {
        name: "mnk",
        about: "the m,n,k-game (k in a row on m × n; Gomoku by default), as OpenSpiel plays it",
        options: OPTIONS,
    };

    /// Each option in its declared range, then `k` against the two sides together.
    fn from_options(options: &mut Options) -> Result<Mnk, GameSpecError> {
        let (m, n, k) = (options.int("m")?, options.int("n")?, options.int("k")?);
        Mnk::new(m, n, k)
    }
}

#[cfg(test)]
mod tests;
