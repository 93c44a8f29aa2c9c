//! The two-colour Life duel of GlukKazan's Zillions-of-Games program (seed 002), exactly as that program
//! plays it. Rules: `RULES.md` in this folder, included below.
//!
#![doc = include_str!("RULES.md")]

use rand::{Rng, RngExt};

use crate::error::{ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player};
use crate::square::{parse_point, point_name};
use crate::zobrist::Zobrist;

/// The board's side: 19 points.
pub const SIZE: usize = 19;
/// The bits of a row that are on the board.
const ROW_MASK: u32 = (1 << SIZE) - 1;

/// The start position, Black's stones (Black moves first).
pub const START_BLACK: [&str; 11] = [
    "d3", "c5", "e5", "i10", "k10", "o4", "p4", "q4", "o15", "p17", "q15",
];
/// The start position, White's stones.
pub const START_WHITE: [&str; 11] = [
    "c4", "d15", "d16", "d17", "e4", "d6", "j9", "j11", "p14", "o16", "q16",
];

/// Where a stone may be dropped.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Drops {
    /// On an empty point with a stone of either colour among its 8 neighbours: the author's
    /// program, which produced the published tables. The default.
    Adjacent,
    /// On any empty point: the article's text.
    Anywhere,
}

/// A point: `19 * row + col`, row 0 at the bottom, column 0 at the left.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub u16);

impl Point {
    /// The point at `col` (0 = left) and `row` (0 = bottom).
    #[must_use]
    pub const fn new(col: usize, row: usize) -> Point {
        Point((SIZE * row + col) as u16)
    }

    /// The column, 0 at the left.
    #[must_use]
    pub const fn col(self) -> usize {
        self.0 as usize % SIZE
    }

    /// The row, 0 at the bottom.
    #[must_use]
    pub const fn row(self) -> usize {
        self.0 as usize / SIZE
    }

    /// Whether the point is on the 19×19 board (a `Point` is any `u16`).
    #[must_use]
    pub const fn on_board(self) -> bool {
        (self.0 as usize) < SIZE * SIZE
    }
}

/// Rows of a 19×19 board, row 0 at the bottom, bit `col` of a row for column `col`.
pub type Rows = [u32; SIZE];

/// Stone keys (361 points) and side-to-move keys.
static KEYS: Zobrist<{ SIZE * SIZE }, 2> = Zobrist::new(0x4C_49_46_45);

/// A Life duel position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Life {
    stones: [Rows; 2],
    hash: u64,
    ply: u32,
    drops: Drops,
}

impl Default for Life {
    fn default() -> Self {
        Life::new(Drops::Adjacent)
    }
}

/// The per-row counts of a set's 8-neighbours, bit-sliced: for each point, `ones` and `twos`
/// are the low two bits of the count and `four_plus` says it is 4 or more.
#[derive(Copy, Clone, Debug, Default)]
struct Counts {
    ones: u32,
    twos: u32,
    four_plus: u32,
}

/// Counts, for every point, how many of its 8 neighbours are in `set`.
///
/// Each row's horizontal three-sum (left + centre + right) is computed once as two bit planes
/// and shared by the rows above and below; the middle row adds left + right only.
#[inline]
fn neighbour_counts(set: &Rows) -> [Counts; SIZE] {
    let mut h0 = [0u32; SIZE + 2];
    let mut h1 = [0u32; SIZE + 2];
    for (r, &x) in set.iter().enumerate() {
        let (l, c, rt) = (x << 1, x, x >> 1);
        h0[r + 1] = l ^ c ^ rt;
        h1[r + 1] = (l & c) | (rt & (l ^ c));
    }
    let mut out = [Counts::default(); SIZE];
    for r in 0..SIZE {
        let x = set[r];
        let (l, rt) = (x << 1, x >> 1);
        let (m0, m1) = (l ^ rt, l & rt);
        let (u0, u1, d0, d1) = (h0[r + 2], h1[r + 2], h0[r], h1[r]);
        // up + down: a 3-bit number (s0, s1, s2).
        let s0 = u0 ^ d0;
        let c0 = u0 & d0;
        let s1 = u1 ^ d1 ^ c0;
        let s2 = (u1 & d1) | (c0 & (u1 ^ d1));
        // + middle pair.
        let t0 = s0 ^ m0;
        let k0 = s0 & m0;
        let t1 = s1 ^ m1 ^ k0;
        let k1 = (s1 & m1) | (k0 & (s1 ^ m1));
        out[r] = Counts {
            ones: t0,
            twos: t1,
            four_plus: s2 | k1,
        };
    }
    out
}

/// One synchronous Life step of the two-colour rules over the whole board.
///
/// Returns the new (black, white) rows. See `RULES.md` for the rules; in bit form, with `n` the
/// neighbour count and `b` the black-neighbour count:
/// - black where `n = 3` and `b ≥ 2`, or a stone has `n = 2` and (`b = 2`, or `b = 1` and it was
///   black);
/// - white where `n = 3` and `b ≤ 1`, or a stone has `n = 2` and (`b = 0`, or `b = 1` and it was
///   white).
#[must_use]
pub fn life_step(black: &Rows, white: &Rows) -> (Rows, Rows) {
    let mut occupied = [0u32; SIZE];
    for r in 0..SIZE {
        occupied[r] = black[r] | white[r];
    }
    let all = neighbour_counts(&occupied);
    let blacks = neighbour_counts(black);
    let mut new_black = [0u32; SIZE];
    let mut new_white = [0u32; SIZE];
    for r in 0..SIZE {
        let n = all[r];
        let b = blacks[r];
        let low = !n.four_plus & n.twos;
        let n3 = low & n.ones;
        let n2 = low & !n.ones;
        let b_ge2 = b.four_plus | b.twos;
        let b_ge1 = b_ge2 | b.ones;
        let stone = occupied[r];
        new_black[r] = ((n3 & b_ge2) | (stone & n2 & (b_ge2 | (b_ge1 & black[r])))) & ROW_MASK;
        new_white[r] = ((n3 & !b_ge2) | (stone & n2 & (!b_ge1 | (!b_ge2 & white[r])))) & ROW_MASK;
    }
    (new_black, new_white)
}

/// The empty points with at least one stone among their 8 neighbours.
#[must_use]
pub fn adjacent_empty(occupied: &Rows) -> Rows {
    let mut out = [0u32; SIZE];
    for r in 0..SIZE {
        let mut near = 0;
        for rr in r.saturating_sub(1)..=(r + 1).min(SIZE - 1) {
            let x = occupied[rr];
            near |= x | (x << 1) | (x >> 1);
        }
        out[r] = near & !occupied[r] & ROW_MASK;
    }
    out
}

impl Life {
    /// The start position with the given drop rule, Black to move.
    #[must_use]
    pub fn new(drops: Drops) -> Life {
        let mut life = Life {
            stones: [[0; SIZE]; 2],
            hash: 0,
            ply: 0,
            drops,
        };
        for (colour, points) in [START_BLACK, START_WHITE].iter().enumerate() {
            for text in points {
                let (col, row) = parse_point(text, SIZE).expect("start points are on the board");
                life.stones[colour][row] |= 1 << col;
            }
        }
        life.hash = life.hash_from_scratch();
        life
    }

    /// The drop rule in force.
    #[must_use]
    pub fn drops(&self) -> Drops {
        self.drops
    }

    /// The rows of `player`'s stones.
    #[must_use]
    pub fn stones(&self, player: Player) -> &Rows {
        &self.stones[player.index()]
    }

    /// The number of `player`'s stones.
    #[must_use]
    pub fn count(&self, player: Player) -> u32 {
        self.stones[player.index()]
            .iter()
            .map(|r| r.count_ones())
            .sum()
    }

    fn occupied(&self) -> Rows {
        let mut o = [0u32; SIZE];
        for (r, row) in o.iter_mut().enumerate() {
            *row = self.stones[0][r] | self.stones[1][r];
        }
        o
    }

    /// The points where the player to move may drop a stone.
    #[must_use]
    pub fn drop_points(&self) -> Rows {
        let occupied = self.occupied();
        match self.drops {
            Drops::Adjacent => adjacent_empty(&occupied),
            Drops::Anywhere => occupied.map(|r| !r & ROW_MASK),
        }
    }

    #[inline]
    fn mover(&self) -> Player {
        Player::new((self.ply % 2) as usize)
    }

    fn wiped_out(&self) -> Option<Outcome> {
        let has = |p: usize| self.stones[p].iter().any(|&r| r != 0);
        match (has(0), has(1)) {
            (true, true) => None,
            (false, false) => Some(Outcome::Draw),
            (true, false) => Some(Outcome::Win(Player::ZERO)),
            (false, true) => Some(Outcome::Win(Player::ONE)),
        }
    }

    fn rows_text(&self) -> Vec<String> {
        (0..SIZE)
            .rev()
            .map(|row| (0..SIZE).map(|col| self.point_char(row, col)).collect())
            .collect()
    }

    /// The letter of the point in `row` (from the bottom) and `col`.
    fn point_char(&self, row: usize, col: usize) -> char {
        if self.stones[0][row] >> col & 1 == 1 {
            'B'
        } else if self.stones[1][row] >> col & 1 == 1 {
            'W'
        } else {
            '.'
        }
    }
}

impl Game for Life {
    type Move = Point;

    fn name(&self) -> &'static str {
        "life"
    }

    fn spec(&self) -> String {
        match self.drops {
            Drops::Adjacent => "life".to_string(),
            Drops::Anywhere => "life:drops=anywhere".to_string(),
        }
    }

    fn stone(&self, player: Player) -> Option<crate::Stone> {
        use crate::Stone;
        Some([Stone::Black, Stone::White][player.index()])
    }

    fn player_name(&self, player: Player) -> &'static str {
        ["black", "white"][player.index()]
    }

    fn to_move(&self) -> Option<Player> {
        self.outcome().is_none().then(|| self.mover())
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// Drop points from a1 upward, row by row.
    fn legal_moves(&self, moves: &mut Vec<Point>) {
        moves.clear();
        if self.wiped_out().is_some() {
            return;
        }
        for (row, &bits) in self.drop_points().iter().enumerate() {
            let mut b = bits;
            while b != 0 {
                moves.push(Point::new(b.trailing_zeros() as usize, row));
                b &= b - 1;
            }
        }
    }

    fn random_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _scratch: &mut Vec<Point>,
    ) -> Option<Point> {
        if self.wiped_out().is_some() {
            return None;
        }
        let points = self.drop_points();
        let total: u32 = points.iter().map(|r| r.count_ones()).sum();
        if total == 0 {
            return None;
        }
        let mut n = rng.random_range(0..total);
        for (row, &bits) in points.iter().enumerate() {
            let c = bits.count_ones();
            if n < c {
                let mut b = bits;
                for _ in 0..n {
                    b &= b - 1;
                }
                return Some(Point::new(b.trailing_zeros() as usize, row));
            }
            n -= c;
        }
        unreachable!("n is below the total count")
    }

    fn is_legal(&self, mv: Point) -> bool {
        mv.on_board()
            && self.outcome().is_none()
            && self.drop_points()[mv.row()] >> mv.col() & 1 == 1
    }

    fn play_unchecked(&mut self, mv: Point) {
        let me = self.mover().index();
        let (mut black, mut white) = (self.stones[0], self.stones[1]);
        [&mut black, &mut white][me][mv.row()] |= 1 << mv.col();
        let (new_black, new_white) = life_step(&black, &white);
        for (colour, new) in [new_black, new_white].iter().enumerate() {
            for row in 0..SIZE {
                let mut changed = self.stones[colour][row] ^ new[row];
                while changed != 0 {
                    let col = changed.trailing_zeros() as usize;
                    self.hash ^= KEYS.piece(colour, SIZE * row + col);
                    changed &= changed - 1;
                }
            }
        }
        self.stones = [new_black, new_white];
        self.hash ^= KEYS.phase(self.ply % 2) ^ KEYS.phase((self.ply + 1) % 2);
        self.ply += 1;
    }

    fn why_illegal(&self, mv: Point) -> String {
        if !mv.on_board() {
            return format!("point {} is off the {SIZE}x{SIZE} board", mv.0);
        }
        let name = self.move_text(mv);
        if self.occupied()[mv.row()] >> mv.col() & 1 == 1 {
            format!("point {name} is occupied")
        } else if self.drops == Drops::Adjacent && !self.is_legal(mv) {
            format!("point {name} has no stone among its 8 neighbours (drops must touch a stone)")
        } else {
            "the move is legal".to_string()
        }
    }

    /// Wipe-outs end the game; so does a player to move with no drop point (a draw). The grid
    /// is connected, so while stones and empty points both exist some empty point touches a
    /// stone: a player can be without a drop only on a full board.
    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.wiped_out() {
            return Some(o);
        }
        let stones: u32 = self.occupied().iter().map(|r| r.count_ones()).sum();
        (stones as usize == SIZE * SIZE).then_some(Outcome::Draw)
    }

    fn scores(&self) -> Option<[f64; 2]> {
        Some([
            f64::from(self.count(Player::ZERO)),
            f64::from(self.count(Player::ONE)),
        ])
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = KEYS.phase(self.ply % 2);
        for colour in 0..2 {
            for row in 0..SIZE {
                for col in 0..SIZE {
                    if self.stones[colour][row] >> col & 1 == 1 {
                        h ^= KEYS.piece(colour, SIZE * row + col);
                    }
                }
            }
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<Point, ParseMoveError> {
        let (col, row) = parse_point(text, SIZE)?;
        Ok(Point::new(col, row))
    }

    fn move_index(&self, mv: Point) -> usize {
        mv.0 as usize
    }

    fn move_index_count(&self) -> usize {
        SIZE * SIZE
    }

    fn move_text(&self, mv: Point) -> String {
        point_name(mv.col(), mv.row())
    }

    fn write_move(&self, mv: Point, out: &mut String) {
        crate::square::write_point_name(mv.col(), mv.row(), out);
    }

    fn cell_names(&self) -> Vec<Vec<String>> {
        let n = SIZE;
        (0..n)
            .rev()
            .map(|row| (0..n).map(|col| point_name(col, row)).collect())
            .collect()
    }

    fn board_rows(&self) -> Vec<String> {
        self.rows_text()
    }

    fn write_cells(&self, out: &mut Vec<u8>) {
        // `point_char`'s bytes by table: black's bit first, then white's (never both).
        const BYTES: [u8; 4] = *b".BWB";
        out.clear();
        for row in (0..SIZE).rev() {
            let (black, white) = (self.stones[0][row], self.stones[1][row]);
            out.extend(
                (0..SIZE).map(|col| BYTES[(black >> col & 1 | (white >> col & 1) << 1) as usize]),
            );
        }
    }

    /// 19 rows top to bottom, `.` empty, `B`/`X` black, `W`/`O` white, spaces ignored; an
    /// optional line `ply N` (default 0): Black moves at even plies.
    fn set_up(&self, text: &str) -> Result<Life, PositionError> {
        let err = |reason: String| PositionError { reason };
        let mut life = Life {
            stones: [[0; SIZE]; 2],
            hash: 0,
            ply: 0,
            drops: self.drops,
        };
        let mut rows = Vec::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if let Some(ply) = line.strip_prefix("ply") {
                life.ply = ply
                    .trim()
                    .parse()
                    .map_err(|_| err(format!("bad ply line '{line}'")))?;
            } else {
                rows.push(
                    line.chars()
                        .filter(|c| !c.is_whitespace())
                        .collect::<Vec<char>>(),
                );
            }
        }
        if rows.len() != SIZE {
            return Err(err(format!("expected {SIZE} rows, found {}", rows.len())));
        }
        for (i, row) in rows.iter().enumerate() {
            if row.len() != SIZE {
                return Err(err(format!(
                    "row {} has {} points, expected {SIZE}",
                    i + 1,
                    row.len()
                )));
            }
            for (col, &c) in row.iter().enumerate() {
                let r = SIZE - 1 - i;
                match c {
                    '.' => {}
                    'B' | 'X' => life.stones[0][r] |= 1 << col,
                    'W' | 'O' => life.stones[1][r] |= 1 << col,
                    other => return Err(err(format!("unknown point character '{other}'"))),
                }
            }
        }
        life.hash = life.hash_from_scratch();
        Ok(life)
    }
}

/// The Life duel's features, with the weights of `eval=rich`.
const FEATURES: [crate::Feature; 3] = [
    crate::Feature {
        name: "material",
        default_weight: 1.0,
    },
    crate::Feature {
        name: "survivors",
        default_weight: 0.5,
    },
    crate::Feature {
        name: "births",
        default_weight: 0.5,
    },
];

impl crate::Features for Life {
    fn feature_set(&self) -> &'static [crate::Feature] {
        &FEATURES
    }

    fn tuned_fit(&self) -> Option<&'static [f64]> {
        Some(&TUNED)
    }

    /// The net of the default game, the one it was trained and checked on (results/nets/life/,
    /// made by `experiments/net-game.sh life`): it beats `eval=tuned` at equal depth.
    fn shipped_net(&self) -> Option<&'static [u8]> {
        (self.spec() == "life").then_some(NET)
    }

    /// The last two look one step ahead: the step the rules apply after a drop, here applied
    /// to the position as it stands (as if the next drop changed nothing).
    /// - `material`: the player's stones.
    /// - `survivors`: the player's stones still standing, in the player's colour, after the step.
    /// - `births`: empty points where a stone of the player's colour is born in the step.
    fn features(&self, player: Player, out: &mut [f64; crate::MAX_FEATURES]) {
        let (black, white) = life_step(&self.stones[0], &self.stones[1]);
        let next = [black, white][player.index()];
        let own = &self.stones[player.index()];
        let occupied = self.occupied();
        let (mut survivors, mut births) = (0, 0);
        for r in 0..SIZE {
            survivors += (next[r] & own[r]).count_ones();
            births += (next[r] & !occupied[r]).count_ones();
        }
        out[0] = f64::from(self.count(player));
        out[1] = f64::from(survivors);
        out[2] = f64::from(births);
    }
}

impl crate::options::Registered for Life {
    const INFO: crate::options::GameInfo = crate::options::GameInfo {
        name: "life",
        about: "the two-colour Life duel of seed 002, 19x19, as its author's program plays it",
        options: &[crate::options::GameOption {
            name: "drops",
            kind: crate::options::OptionKind::Choice(&["adjacent", "anywhere"]),
            default: Some("adjacent"),
            help: "where a stone may be dropped: next to a stone, or on any empty point",
        }],
    };

    fn from_options(
        options: &mut crate::options::Options,
    ) -> Result<Life, crate::error::GameSpecError> {
        Ok(Life::new(match options.choice("drops")? {
            "anywhere" => Drops::Anywhere,
            _ => Drops::Adjacent,
        }))
    }
}

#[cfg(test)]
mod tests;

/// The bytes of `eval=net`'s network for the default game (`agents/src/net.rs` gives the
/// format).
const NET: &[u8] = include_bytes!("net.rsnet");

/// The weights of `eval=tuned` (see [`crate::Features::tuned_fit`]): Texel-fitted to
/// alpha-beta self-play, `material` held at 1 (results/tuned/life/: the command, the fit and
/// the checks against the default weights).
const TUNED: [f64; 3] = [1.0, 0.6270581088715249, 0.5254529071828941];
