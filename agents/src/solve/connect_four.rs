//! Connect Four's own solver, for boards whose bitboard fits 64 bits and four to win: the
//! methods of Pascal Pons' solver (his blog "Solving Connect 4", 2017) and John Tromp's
//! Fhourstones, written for this project. A position is two bitboards, the mover's discs and
//! all discs (a column `c` in bits `c × (rows + 1)` up, as the game lays it out), whose sum
//! identifies it; the search never plays a move that lets the opponent win at once, orders
//! moves by the threats they make (centre columns first on ties), bounds a score by the
//! fastest win or loss still possible, and asks the table before searching.

use std::time::Instant;

use ringside_engine::Game;
use ringside_engine::games::connect_four::{Column, ConnectFour};

use super::search::{WIN, bounds, shift, unshift, value_of};
use super::table::Table;
use super::{Budget, Solution, Value};

/// The board's geometry as 64-bit masks.
#[derive(Copy, Clone, Debug)]
struct Board {
    rows: u32,
    columns: u32,
    cells: u32,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every cell.
    all: u64,
    /// Columns from the centre out.
    order: [u8; 12],
    /// Bits a column takes (its rows and the empty bit above).
    stride: u32,
}

impl Board {
    fn new(rows: usize, columns: usize) -> Board {
        let stride = rows + 1;
        let bottom = (0..columns).fold(0u64, |b, c| b | 1 << (c * stride));
        // Columns by distance from the centre, the left first on ties: 3 2 4 1 5 0 6.
        let mut order = [0u8; 12];
        let mut by_centre: Vec<usize> = (0..columns).collect();
        by_centre.sort_by_key(|&c| (2 * c).abs_diff(columns - 1));
        for (slot, c) in order.iter_mut().zip(by_centre) {
            *slot = c as u8;
        }
        Board {
            rows: rows as u32,
            columns: columns as u32,
            cells: (rows * columns) as u32,
            bottom,
            all: bottom * ((1 << rows) - 1),
            order,
            stride: stride as u32,
        }
    }

    fn column(&self, col: u32) -> u64 {
        ((1u64 << self.rows) - 1) << (col * (self.rows + 1))
    }

    /// The key of a position or of its mirror image, whichever is smaller: a position and
    /// its mirror have the same value, so they share one entry (as Tromp's Fhourstones does).
    #[inline]
    fn canonical(&self, key: u64) -> u64 {
        let column = (1u64 << self.stride) - 1;
        let mut mirrored = 0;
        for c in 0..self.columns {
            let bits = (key >> (c * self.stride)) & column;
            mirrored |= bits << ((self.columns - 1 - c) * self.stride);
        }
        key.min(mirrored)
    }

    /// The empty cells that would complete four for `discs` (`taken`: every disc).
    #[inline]
    fn winning_cells(&self, discs: u64, taken: u64) -> u64 {
        let p = discs;
        let h = self.rows;
        // Up a column: three below.
        let mut r = (p << 1) & (p << 2) & (p << 3);
        for d in [h + 1, h, h + 2] {
            // Along a row (h + 1) and the two diagonals (h, h + 2): three of four on either
            // side of the empty cell, or split two and one.
            let q = (p << d) & (p << (2 * d));
            r |= q & (p << (3 * d));
            r |= q & (p >> d);
            let q = (p >> d) & (p >> (2 * d));
            r |= q & (p << d);
            r |= q & (p >> (3 * d));
        }
        r & (self.all ^ taken)
    }
}

/// A position: the mover's discs, every disc, and the plies played.
#[derive(Copy, Clone, Debug)]
struct Position {
    mine: u64,
    taken: u64,
    plies: u32,
}

impl Position {
    /// A number that names the position (the mover's discs plus every disc).
    #[inline]
    fn key(&self) -> u64 {
        self.mine.wrapping_add(self.taken)
    }

    /// The cell each column that is not full would take.
    #[inline]
    fn playable(&self, b: &Board) -> u64 {
        self.taken.wrapping_add(b.bottom) & b.all
    }

    #[inline]
    fn play(&self, cell: u64) -> Position {
        Position {
            mine: self.mine ^ self.taken,
            taken: self.taken | cell,
            plies: self.plies + 1,
        }
    }

    #[inline]
    fn can_win_now(&self, b: &Board) -> bool {
        b.winning_cells(self.mine, self.taken) & self.playable(b) != 0
    }

    /// The moves after which the opponent cannot win at once: a forced block when the
    /// opponent threatens one cell, nothing when two, and never a cell under one of the
    /// opponent's winning cells.
    #[inline]
    fn safe_moves(&self, b: &Board) -> u64 {
        let mut playable = self.playable(b);
        let theirs = b.winning_cells(self.mine ^ self.taken, self.taken);
        let forced = playable & theirs;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            playable = forced;
        }
        playable & !(theirs >> 1)
    }
}

/// The solver's state: the table, counters and budget.
struct Search<'a> {
    board: Board,
    table: &'a mut Table,
    budget: &'a Budget,
    start: Instant,
    nodes: u64,
    stopped: bool,
}

impl Search<'_> {
    fn out_of_budget(&mut self) -> bool {
        self.stopped |= self.budget.spent(self.nodes, self.start, 4096);
        self.stopped
    }

    /// The mover's score in a position where the mover cannot win at once: exact inside
    /// `(alpha, beta)`, else a bound on the side it fell.
    fn negamax(&mut self, p: Position, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let b = self.board;
        let safe = p.safe_moves(&b);
        if safe == 0 {
            return 2 - WIN; // every move lets the opponent win next
        }
        if p.plies + 2 >= b.cells {
            return 0; // we fill one cell, the opponent the last, neither winning
        }
        // The mover cannot win in one ply, nor the opponent in two.
        let (alpha, beta) = (alpha.max(4 - WIN), beta.min(WIN - 3));
        if alpha >= beta {
            return alpha;
        }
        let key = b.canonical(p.key());
        let (mut alpha, beta) = match self.table.probe(key, alpha, beta) {
            Ok((alpha, beta, _)) => (alpha, beta),
            Err(score) => return score,
        };
        // Moves sorted by the winning cells they make, centre first on ties.
        let mut moves = [(0u32, 0u64); 12];
        let mut n = 0;
        for &col in &b.order[..b.columns as usize] {
            let cell = safe & b.column(u32::from(col));
            if cell != 0 {
                let threats = b.winning_cells(p.mine | cell, p.taken).count_ones();
                let mut i = n;
                while i > 0 && moves[i - 1].0 < threats {
                    moves[i] = moves[i - 1];
                    i -= 1;
                }
                moves[i] = (threats, cell);
                n += 1;
            }
        }
        let start_alpha = alpha;
        let mut best = -WIN;
        for &(_, cell) in &moves[..n] {
            let s = shift(-self.negamax(p.play(cell), -unshift(beta), -unshift(alpha)));
            if self.stopped {
                return 0;
            }
            best = best.max(s);
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        let (lo, hi) = bounds(best, start_alpha, beta);
        self.table.put(key, lo, hi, None);
        best
    }

    /// The mover's score after it plays `cell`, tested in the window `(alpha, beta)`.
    fn after(&mut self, p: Position, cell: u64, alpha: i32, beta: i32) -> i32 {
        let b = self.board;
        if b.winning_cells(p.mine, p.taken) & cell != 0 {
            return WIN - 1;
        }
        let child = p.play(cell);
        if child.plies == b.cells {
            return 0;
        }
        if child.can_win_now(&b) {
            return 2 - WIN;
        }
        shift(-self.negamax(child, -unshift(beta), -unshift(alpha)))
    }

    /// The exact score of a position that goes on, by null windows: first its sign, then (with
    /// `exact`) its distance by halving the range it may lie in. `None` when stopped before
    /// the sign; the flag says whether the distance was found.
    fn score(&mut self, p: Position, exact: bool) -> Option<(i32, bool)> {
        let b = self.board;
        if p.can_win_now(&b) {
            return Some((WIN - 1, true));
        }
        let sign = self.negamax(p, -1, 1).signum();
        if self.stopped {
            return None;
        }
        if sign == 0 || !exact {
            return Some((sign, sign == 0));
        }
        let left = (b.cells - p.plies) as i32;
        let (mut lo, mut hi) = if sign > 0 {
            (WIN - left, WIN - 3)
        } else {
            (2 - WIN, left - WIN)
        };
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let r = self.negamax(p, mid, mid + 1);
            if self.stopped {
                return Some((sign, false));
            }
            if r <= mid {
                hi = r.min(mid);
            } else {
                lo = r.max(mid + 1);
            }
        }
        Some((lo, true))
    }
}

/// Solves `state` when it is Connect Four with four to win on a board of at most 64 bits
/// (every board of the known-answer suite, 7 × 6 and 8 × 7 among them); `None` for other
/// boards, which the generic search takes.
pub(super) fn solve(
    state: &ConnectFour,
    budget: &Budget,
    table: &mut Table,
) -> Option<Solution<Column>> {
    let shape = state.shape();
    if shape.x_in_row() != 4 || shape.columns() * shape.stride() > 64 {
        return None;
    }
    let start = Instant::now();
    let board = Board::new(shape.rows(), shape.columns());
    let mut search = Search {
        board,
        table,
        budget,
        start,
        nodes: 0,
        stopped: false,
    };
    let done = |search: &Search<'_>, value: Option<Value>, exact: bool, best: Vec<Column>| {
        Some(Solution {
            value,
            distance_known: exact,
            best,
            nodes: search.nodes,
            time: start.elapsed(),
            table: search.table.usage(),
            method: "connect_four",
        })
    };
    let Some(mover) = state.to_move() else {
        return done(&search, None, false, Vec::new());
    };
    let taken = (state.discs(mover) | state.discs(mover.other())) as u64;
    let root = Position {
        mine: state.discs(mover) as u64,
        taken,
        plies: state.ply(),
    };
    let Some((score, exact)) = search.score(root, budget.exact) else {
        return done(&search, None, false, Vec::new());
    };
    let mut best = Vec::new();
    let playable = root.playable(&board);
    for col in 0..shape.columns() as u32 {
        let cell = playable & board.column(col);
        if cell == 0 {
            continue;
        }
        let (lo, hi) = if exact {
            (score - 1, score + 1)
        } else if score > 0 {
            (0, 1)
        } else {
            (-1, 1)
        };
        let s = search.after(root, cell, lo, hi);
        if search.stopped {
            return done(&search, None, false, Vec::new());
        }
        if (exact && s == score) || (!exact && s.signum() == score.signum()) {
            best.push(Column(col as u8));
            if !budget.exact {
                break;
            }
        }
    }
    let value = if exact {
        value_of(score)
    } else {
        value_of(score.signum() * WIN)
    };
    done(&search, Some(value), exact, best)
}
