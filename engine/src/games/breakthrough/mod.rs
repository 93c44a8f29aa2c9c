//! Breakthrough, as OpenSpiel's `breakthrough` plays it. Rules: `RULES.md` in this folder,
//! below.
//!
#![doc = include_str!("RULES.md")]

use crate::error::{GameSpecError, ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player};
use crate::zobrist::Zobrist;
use crate::{Feature, Features, MAX_FEATURES};

/// The default rows and columns, as in OpenSpiel.
pub const DEFAULT_ROWS: usize = 8;
/// The default columns.
pub const DEFAULT_COLUMNS: usize = 8;
/// The smallest and largest number of rows or columns.
pub const SIDES: std::ops::RangeInclusive<usize> = 2..=8;

/// Keys of the two colours on 64 squares; phases: Black to move, White to move.
static KEYS: Zobrist<64, 2> = Zobrist::new(0xB7_B7);

/// A move: the square it starts from (`columns × row + column`, row 0 at the top), OpenSpiel's
/// direction (0–2 Black's down-left, down, down-right; 3–5 White's up-left, up, up-right) and
/// whether it captures.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    /// The square moved from.
    pub from: u8,
    /// OpenSpiel's direction, 0 to 5.
    pub direction: u8,
    /// Whether the move takes the piece on the square moved to.
    pub capture: bool,
}

/// A Breakthrough position: a bitboard a colour, bit `columns × row + column`, row 0 at the
/// top.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Breakthrough {
    pieces: [u64; 2],
    rows: u8,
    columns: u8,
    ply: u16,
    mover: Player,
    outcome: Option<Outcome>,
    hash: u64,
}

impl Default for Breakthrough {
    fn default() -> Self {
        Breakthrough::new(DEFAULT_ROWS, DEFAULT_COLUMNS).expect("the default board is valid")
    }
}

impl Breakthrough {
    /// The start on `rows` × `columns` squares (each 2 to 8), Black to move.
    pub fn new(rows: usize, columns: usize) -> Result<Breakthrough, GameSpecError> {
        for (name, value) in [("rows", rows), ("columns", columns)] {
            if !SIDES.contains(&value) {
                return Err(GameSpecError::bad_value(format!(
                    "breakthrough: {name} must be from {} to {}, not {value}",
                    SIDES.start(),
                    SIDES.end()
                )));
            }
        }
        let row = |r: usize| ((1u64 << columns) - 1) << (r * columns);
        let (black, white) = if rows >= 6 {
            (row(0) | row(1), row(rows - 1) | row(rows - 2))
        } else {
            (row(0), row(rows - 1))
        };
        let mut game = Breakthrough {
            pieces: [black, white],
            rows: rows as u8,
            columns: columns as u8,
            ply: 0,
            mover: Player::ZERO,
            outcome: None,
            hash: 0,
        };
        game.hash = game.hash_from_scratch();
        Ok(game)
    }

    fn rows(&self) -> usize {
        usize::from(self.rows)
    }

    fn columns(&self) -> usize {
        usize::from(self.columns)
    }

    /// The square a step from `from` in `direction` lands on, if on the board.
    fn target(&self, from: usize, direction: u8) -> Option<usize> {
        let (r, c) = (
            (from / self.columns()) as i32,
            (from % self.columns()) as i32,
        );
        let dr = if direction < 3 { 1 } else { -1 };
        let dc = i32::from(direction % 3) - 1;
        let (r, c) = (r + dr, c + dc);
        ((0..i32::from(self.rows)).contains(&r) && (0..i32::from(self.columns)).contains(&c))
            .then(|| r as usize * self.columns() + c as usize)
    }

    /// The row a player wins on reaching.
    fn goal_row(&self, player: Player) -> usize {
        if player == Player::ZERO {
            self.rows() - 1
        } else {
            0
        }
    }

    fn piece(&self, square: usize) -> char {
        if self.pieces[0] >> square & 1 == 1 {
            'B'
        } else if self.pieces[1] >> square & 1 == 1 {
            'W'
        } else {
            '.'
        }
    }

    fn write_square(&self, square: usize, out: &mut String) {
        let (r, c) = (square / self.columns(), square % self.columns());
        crate::square::write_point_name(c, self.rows() - 1 - r, out);
    }

    /// The squares the pieces of `player` attack (diagonally forward).
    fn attacks(&self, player: Player) -> u64 {
        let cols = self.columns();
        let column = |c: usize| (0..self.rows()).fold(0u64, |b, r| b | 1 << (r * cols + c));
        let (first, last) = (column(0), column(cols - 1));
        let board = if self.rows() * cols == 64 {
            u64::MAX
        } else {
            (1u64 << (self.rows() * cols)) - 1
        };
        let p = self.pieces[player.index()];
        let hits = if player == Player::ZERO {
            (p & !first) << (cols - 1) | (p & !last) << (cols + 1)
        } else {
            (p & !first) >> (cols + 1) | (p & !last) >> (cols - 1)
        };
        hits & board
    }
}

impl Game for Breakthrough {
    type Move = Step;

    fn name(&self) -> &'static str {
        "breakthrough"
    }

    fn spec(&self) -> String {
        let mut options = Vec::new();
        if self.rows() != DEFAULT_ROWS {
            options.push(format!("rows={}", self.rows));
        }
        if self.columns() != DEFAULT_COLUMNS {
            options.push(format!("columns={}", self.columns));
        }
        if options.is_empty() {
            "breakthrough".into()
        } else {
            format!("breakthrough:{}", options.join(","))
        }
    }

    fn player_name(&self, player: Player) -> &'static str {
        ["black", "white"][player.index()]
    }

    fn to_move(&self) -> Option<Player> {
        self.outcome.is_none().then_some(self.mover)
    }

    fn ply(&self) -> u32 {
        u32::from(self.ply)
    }

    fn legal_moves(&self, moves: &mut Vec<Step>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        let me = self.mover.index();
        let (mine, theirs) = (self.pieces[me], self.pieces[1 - me]);
        let mut rest = mine;
        while rest != 0 {
            let from = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for o in 0..3u8 {
                let direction = me as u8 * 3 + o;
                let Some(to) = self.target(from, direction) else {
                    continue;
                };
                let capture = theirs >> to & 1 == 1;
                if (mine | theirs) >> to & 1 == 0 || capture && o != 1 {
                    moves.push(Step {
                        from: from as u8,
                        direction,
                        capture,
                    });
                }
            }
        }
    }

    fn is_legal(&self, mv: Step) -> bool {
        let me = self.mover.index();
        let from = usize::from(mv.from);
        if self.outcome.is_some()
            || from >= self.rows() * self.columns()
            || self.pieces[me] >> from & 1 == 0
            || usize::from(mv.direction / 3) != me
            || mv.direction > 5
        {
            return false;
        }
        let Some(to) = self.target(from, mv.direction) else {
            return false;
        };
        let theirs = self.pieces[1 - me] >> to & 1 == 1;
        if mv.capture {
            theirs && mv.direction % 3 != 1
        } else {
            (self.pieces[0] | self.pieces[1]) >> to & 1 == 0
        }
    }

    fn play_unchecked(&mut self, mv: Step) {
        let me = self.mover;
        let (from, to) = (
            usize::from(mv.from),
            self.target(usize::from(mv.from), mv.direction)
                .expect("a legal step stays on the board"),
        );
        let them = me.other();
        if self.pieces[them.index()] >> to & 1 == 1 {
            self.pieces[them.index()] &= !(1 << to);
            self.hash ^= KEYS.piece(them.index(), to);
        }
        self.pieces[me.index()] ^= 1 << from | 1 << to;
        self.hash ^= KEYS.piece(me.index(), from)
            ^ KEYS.piece(me.index(), to)
            ^ KEYS.phase(me.index() as u32)
            ^ KEYS.phase(them.index() as u32);
        self.ply += 1;
        self.mover = them;
        if to / self.columns() == self.goal_row(me) || self.pieces[them.index()] == 0 {
            self.outcome = Some(Outcome::Win(me));
        }
    }

    /// For the mover: whether the step reaches the far row or takes the last opposing piece.
    fn wins_at_once(&self, player: Player, mv: Step) -> Option<bool> {
        if self.to_move() != Some(player) {
            return None;
        }
        if !self.is_legal(mv) {
            return Some(false);
        }
        let to = self.target(usize::from(mv.from), mv.direction)?;
        let last = mv.capture && self.pieces[player.other().index()].count_ones() == 1;
        Some(to / self.columns() == self.goal_row(player) || last)
    }

    fn move_index(&self, mv: Step) -> usize {
        (usize::from(mv.from) * 6 + usize::from(mv.direction)) * 2 + usize::from(mv.capture)
    }

    fn move_index_count(&self) -> usize {
        self.rows() * self.columns() * 12
    }

    fn why_illegal(&self, mv: Step) -> String {
        format!(
            "{} is not a legal step for {}",
            self.move_text(mv),
            self.player_name(self.mover)
        )
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
        KEYS.phase(self.mover.index() as u32) ^ KEYS.of_bitboards(self.pieces)
    }

    /// OpenSpiel's action string: `a7a6`, `b7c6*`.
    fn parse_move(&self, text: &str) -> Result<Step, ParseMoveError> {
        let err = || ParseMoveError {
            text: text.to_string(),
            expected: "a step such as a7a6 or b7c6* (from, to, * for a capture)".into(),
        };
        let (squares, capture) = match text.strip_suffix('*') {
            Some(s) => (s, true),
            None => (text, false),
        };
        let square = |col: u8, row: u8| -> Option<(i32, i32)> {
            let c = usize::from(col.checked_sub(b'a')?);
            let rank = usize::from(row.checked_sub(b'1')?);
            (c < self.columns() && rank < self.rows())
                .then(|| ((self.rows() - 1 - rank) as i32, c as i32))
        };
        let &[c1, r1, c2, r2] = squares.as_bytes() else {
            return Err(err());
        };
        let ((fr, fc), (tr, tc)) = (
            square(c1, r1).ok_or_else(err)?,
            square(c2, r2).ok_or_else(err)?,
        );
        let (dr, dc) = (tr - fr, tc - fc);
        if dr.abs() != 1 || dc.abs() > 1 {
            return Err(err());
        }
        Ok(Step {
            from: (fr as usize * self.columns() + fc as usize) as u8,
            direction: if dr == 1 { 0 } else { 3 } + (dc + 1) as u8,
            capture,
        })
    }

    fn move_text(&self, mv: Step) -> String {
        let mut out = String::with_capacity(5);
        self.write_move(mv, &mut out);
        out
    }

    fn write_move(&self, mv: Step, out: &mut String) {
        let from = usize::from(mv.from);
        self.write_square(from, out);
        // A step off the board (never listed) prints its start only.
        if let Some(to) = self.target(from, mv.direction) {
            self.write_square(to, out);
        }
        if mv.capture {
            out.push('*');
        }
    }

    fn board_rows(&self) -> Vec<String> {
        (0..self.rows())
            .map(|r| {
                (0..self.columns())
                    .map(|c| self.piece(r * self.columns() + c))
                    .collect()
            })
            .collect()
    }

    fn write_cells(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend((0..self.rows() * self.columns()).map(|s| self.piece(s) as u8));
    }

    fn cell_names(&self) -> Vec<Vec<String>> {
        (0..self.rows())
            .map(|r| {
                (0..self.columns())
                    .map(|c| crate::square::point_name(c, self.rows() - 1 - r))
                    .collect()
            })
            .collect()
    }

    /// `rows` rows of `B`, `W` and `.` (or OpenSpiel's `b`, `w`), top first, and an optional
    /// `to_move black|white`.
    fn set_up(&self, text: &str) -> Result<Breakthrough, PositionError> {
        let err = |reason: String| PositionError { reason };
        let mut game = *self;
        game.pieces = [0, 0];
        game.mover = Player::ZERO;
        game.ply = 0;
        game.outcome = None;
        let mut rows = Vec::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            match line.strip_prefix("to_move") {
                Some(p) => {
                    game.mover = match p.trim() {
                        "black" => Player::ZERO,
                        "white" => Player::ONE,
                        o => return Err(err(format!("to_move must be black or white, not '{o}'"))),
                    }
                }
                None => rows.push(
                    line.chars()
                        .filter(|c| !c.is_whitespace())
                        .collect::<Vec<_>>(),
                ),
            }
        }
        if rows.len() != self.rows() || rows.iter().any(|r| r.len() != self.columns()) {
            return Err(err(format!(
                "expected {} rows of {} squares",
                self.rows(),
                self.columns()
            )));
        }
        for (r, row) in rows.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                let colour = match ch {
                    'B' | 'b' => 0,
                    'W' | 'w' => 1,
                    '.' => continue,
                    other => return Err(err(format!("'{other}' is not b, w or ."))),
                };
                game.pieces[colour] |= 1 << (r * self.columns() + c);
            }
        }
        for p in [Player::ZERO, Player::ONE] {
            let row = (1u64 << self.columns()) - 1;
            let home = row << (self.goal_row(p) * self.columns());
            if game.pieces[p.index()] & home != 0 || game.pieces[p.other().index()] == 0 {
                game.outcome = Some(Outcome::Win(p));
            }
        }
        game.hash = game.hash_from_scratch();
        Ok(game)
    }
}

/// Breakthrough's features (see [`Features`]).
const FEATURES: [Feature; 4] = [
    Feature {
        name: "material",
        default_weight: 1.0,
    },
    Feature {
        name: "advancement",
        default_weight: 0.05,
    },
    Feature {
        name: "furthest",
        default_weight: 0.2,
    },
    Feature {
        name: "safe",
        default_weight: 0.2,
    },
];

/// The weights of `eval=tuned` (see [`Features::tuned_fit`]): Texel-fitted to alpha-beta
/// self-play, `material` held at 1 (results/tuned/breakthrough/; checked against the default
/// weights in results/reference-tuned-check/ and its replication: +280 and +73 Elo at depths
/// 2 and 3).
const TUNED: [f64; 4] = [
    1.0,
    -0.012992260321257533,
    0.5506964296344017,
    -0.2373065348974651,
];

impl Features for Breakthrough {
    fn feature_set(&self) -> &'static [Feature] {
        &FEATURES
    }

    fn tuned_fit(&self) -> Option<&'static [f64]> {
        Some(&TUNED)
    }

    /// - `material`: the player's pieces.
    /// - `advancement`: rows the player's pieces stand ahead of the player's back row, summed.
    /// - `furthest`: rows ahead of the back row of the player's most advanced piece.
    /// - `safe`: the player's pieces that no opposing piece attacks.
    fn features(&self, player: Player, out: &mut [f64; MAX_FEATURES]) {
        let mine = self.pieces[player.index()];
        let (mut sum, mut furthest) = (0usize, 0usize);
        let mut rest = mine;
        while rest != 0 {
            let r = rest.trailing_zeros() as usize / self.columns();
            rest &= rest - 1;
            let ahead = if player == Player::ZERO {
                r
            } else {
                self.rows() - 1 - r
            };
            sum += ahead;
            furthest = furthest.max(ahead);
        }
        out[0] = f64::from(mine.count_ones());
        out[1] = sum as f64;
        out[2] = furthest as f64;
        out[3] = f64::from((mine & !self.attacks(player.other())).count_ones());
    }
}

impl crate::options::Registered for Breakthrough {
    const INFO: crate::options::GameInfo = crate::options::GameInfo {
        name: "breakthrough",
        about: "Breakthrough, as OpenSpiel plays it: reach the far row",
        options: &[
            crate::options::GameOption {
                name: "rows",
                kind: crate::options::OptionKind::Int { min: 2, max: 8 },
                default: Some("8"),
                help: "rows of the board (OpenSpiel's rows)",
            },
            crate::options::GameOption {
                name: "columns",
                kind: crate::options::OptionKind::Int { min: 2, max: 8 },
                default: Some("8"),
                help: "columns of the board (OpenSpiel's columns)",
            },
        ],
    };

    fn from_options(options: &mut crate::options::Options) -> Result<Breakthrough, GameSpecError> {
        let rows = options.int("rows")?;
        let columns = options.int("columns")?;
        Breakthrough::new(rows, columns)
    }
}

#[cfg(test)]
mod tests;
