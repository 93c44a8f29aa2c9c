//! Rin, Zhen Wang's ring game (2010). Rules: `RULES.md` in this folder, included below.
//!
#![doc = include_str!("RULES.md")]

use rand::{Rng, RngExt};

use crate::bitboard::Bb256;
use crate::error::{ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player};
use crate::square::{parse_point, point_name};
use crate::zobrist::Zobrist;

/// The default board size.
pub const DEFAULT_SIZE: usize = 16;
/// The board sizes Rin can be played on: even sizes from 6 to 16.
pub const SIZES: [usize; 6] = [6, 8, 10, 12, 14, 16];

/// A point of the board, as the bit index `16 * row + col` of [`Bb256`] (row 0 at the bottom).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub u8);

impl Point {
    /// The point at `col` (0 = left) and `row` (0 = bottom).
    #[must_use]
    pub const fn new(col: usize, row: usize) -> Point {
        Point((16 * row + col) as u8)
    }

    /// The column, 0 at the left.
    #[must_use]
    pub const fn col(self) -> usize {
        self.0 as usize % 16
    }

    /// The row, 0 at the bottom.
    #[must_use]
    pub const fn row(self) -> usize {
        self.0 as usize / 16
    }
}

/// The fixed masks of one board size.
#[derive(Debug)]
struct Geometry {
    /// Every point of the board.
    board: Bb256,
    /// The safe zone: the points of the outer ring.
    edge: Bb256,
    /// The eight marked points of the seed's board (see [`Rin`]'s `marked` feature).
    marks: Bb256,
}

const fn geometry(size: usize) -> Geometry {
    let mut board = Bb256::EMPTY;
    let mut edge = Bb256::EMPTY;
    let mut row = 0;
    while row < size {
        let mut col = 0;
        while col < size {
            let p = 16 * row + col;
            board.insert(p);
            if row == 0 || col == 0 || row == size - 1 || col == size - 1 {
                edge.insert(p);
            }
            col += 1;
        }
        row += 1;
    }
    // The seed's (row from the top, column) pairs on 16x16, with 6 and 9 scaled to the
    // board's middle: (3, 6), (3, 9), (6, 12), (9, 12), (12, 9), (12, 6), (9, 3), (6, 3).
    let (near, low, high, far) = (3, size / 2 - 2, size / 2 + 1, size - 4);
    let seed_marks = [
        (near, low),
        (near, high),
        (low, far),
        (high, far),
        (far, high),
        (far, low),
        (high, near),
        (low, near),
    ];
    let mut marks = Bb256::EMPTY;
    let mut i = 0;
    while i < seed_marks.len() {
        let (r, c) = seed_marks[i];
        marks.insert(16 * (size - 1 - r) + c);
        i += 1;
    }
    Geometry { board, edge, marks }
}

static GEOMETRY: [Geometry; 6] = [
    geometry(6),
    geometry(8),
    geometry(10),
    geometry(12),
    geometry(14),
    geometry(16),
];

/// For each 3×3 neighbourhood of an interior point (bit `3 * dy + dx`, bottom-left first; the
/// centre bit ignored), whether the orthogonal neighbours in the set fall into two or more
/// groups that are not joined inside the 3×3 block.
///
/// When they form one group, taking the centre out of a region cannot split it, so a stone
/// placed there cannot have closed a ring.
static SPLITS: [bool; 512] = splits_table();

const fn splits_table() -> [bool; 512] {
    // The eight cells around the centre in ring order: N, NE, E, SE, S, SW, W, NW.
    const RING: [usize; 8] = [7, 8, 5, 2, 1, 0, 3, 6];
    const ORTHOGONAL: [bool; 8] = [true, false, true, false, true, false, true, false];
    let mut table = [false; 512];
    let mut pattern = 0;
    while pattern < 512 {
        // Count the runs of set cells around the ring that hold an orthogonal cell.
        let mut groups = 0;
        let mut all_set = true;
        let mut i = 0;
        while i < 8 {
            if pattern >> RING[i] & 1 == 0 {
                all_set = false;
            }
            i += 1;
        }
        if !all_set {
            // Start just after an unset cell so that no run wraps around.
            let mut start = 0;
            while pattern >> RING[start] & 1 != 0 {
                start += 1;
            }
            let mut in_run = false;
            let mut run_has_orthogonal = false;
            let mut k = 1;
            while k <= 8 {
                let i = (start + k) % 8;
                let set = pattern >> RING[i] & 1 != 0;
                if set {
                    in_run = true;
                    run_has_orthogonal |= ORTHOGONAL[i];
                } else if in_run {
                    if run_has_orthogonal {
                        groups += 1;
                    }
                    in_run = false;
                    run_has_orthogonal = false;
                }
                k += 1;
            }
        }
        table[pattern] = groups >= 2;
        pattern += 1;
    }
    table
}

/// The 3×3 block of `set` centred on `point` (which must not be on the grid's border), as a
/// 9-bit index into [`SPLITS`].
#[inline]
fn block3x3(set: Bb256, point: usize) -> usize {
    let row_bits = |centre: usize| ((set.0[centre >> 6] >> ((centre - 1) & 63)) & 7) as usize;
    row_bits(point - 16) | row_bits(point) << 3 | row_bits(point + 16) << 6
}

/// What a flood from a seed found.
enum Flood {
    /// The region reached the safe zone; the part flooded so far.
    Open(Bb256),
    /// The whole region, which holds no edge point.
    Enclosed(Bb256),
}

/// Floods from `seed` through `passable`, stopping as soon as the region touches `edge`.
#[inline]
fn flood(seed: Bb256, passable: Bb256, edge: Bb256) -> Flood {
    let mut region = seed;
    loop {
        if region.intersects(edge) {
            return Flood::Open(region);
        }
        let grown = region.dilate() & passable;
        if grown == region {
            return Flood::Enclosed(region);
        }
        region = grown;
    }
}

/// Stone keys and turn-phase keys of Rin's Zobrist hash.
static KEYS: Zobrist<256, 4> = Zobrist::new(0x52_49_4E);

/// A Rin position: the stones of both colours, the board size and the ply count.
///
/// The state is 72 bytes and `Copy`: search plays on copies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rin {
    stones: [Bb256; 2],
    hash: u64,
    ply: u32,
    size: u8,
}

impl Default for Rin {
    fn default() -> Self {
        Rin::new(DEFAULT_SIZE).expect("16 is a Rin size")
    }
}

impl Rin {
    /// The letter of point `p` (`16 · row + col`) in the drawn board.
    fn point_char(&self, p: usize) -> char {
        if self.stones[0].has(p) {
            'B'
        } else if self.stones[1].has(p) {
            'W'
        } else {
            '.'
        }
    }
}

impl Rin {
    /// The empty board of the given size (even, 6 to 16), Black to move.
    pub fn new(size: usize) -> Result<Rin, crate::error::GameSpecError> {
        if !SIZES.contains(&size) {
            return Err(crate::error::GameSpecError {
                kind: crate::error::SpecErrorKind::BadValue,
                reason: format!("rin: size must be an even number from 6 to 16, not {size}"),
            });
        }
        let mut rin = Rin {
            stones: [Bb256::EMPTY; 2],
            hash: 0,
            ply: 0,
            size: size as u8,
        };
        rin.hash = rin.hash_from_scratch();
        Ok(rin)
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size as usize
    }

    #[inline]
    fn geometry(&self) -> &'static Geometry {
        &GEOMETRY[self.size as usize / 2 - 3]
    }

    /// Every point of the board.
    #[must_use]
    pub fn board(&self) -> Bb256 {
        self.geometry().board
    }

    /// The safe zone: the points of the outer ring, where stones are never captured.
    #[must_use]
    pub fn safe_zone(&self) -> Bb256 {
        self.geometry().edge
    }

    /// The stones of `player`.
    #[must_use]
    pub fn stones(&self, player: Player) -> Bb256 {
        self.stones[player.index()]
    }

    /// The empty points.
    #[inline]
    #[must_use]
    pub fn empty(&self) -> Bb256 {
        self.geometry().board & !(self.stones[0] | self.stones[1])
    }

    /// Who moves at ply `ply`: Black at 0, then White, White, Black, Black, …
    #[inline]
    const fn mover_at(ply: u32) -> Player {
        match ply % 4 {
            1 | 2 => Player::ONE,
            _ => Player::ZERO,
        }
    }

    /// Puts a stone of the player to move on `point` and fills every ring it closes.
    #[inline]
    fn place(&mut self, point: usize) {
        let me = Self::mover_at(self.ply).index();
        self.stones[me].insert(point);
        self.hash ^=
            KEYS.piece(me, point) ^ KEYS.phase(self.ply % 4) ^ KEYS.phase((self.ply + 1) % 4);
        self.ply += 1;

        let geo = self.geometry();
        let passable = geo.board & !self.stones[me];
        let on_edge = geo.edge.has(point);
        // Every region of non-`me` points reached the safe zone before this stone (rings are
        // filled the moment they close), so only a stone that splits its region can close one.
        if !on_edge && !SPLITS[block3x3(passable, point)] {
            return;
        }
        let mut seeds = Bb256::from_point(point).dilate() & passable;
        let mut found_open = false;
        while let Some(seed) = seeds.first() {
            seeds.remove(seed);
            // Off the edge, the old region's safe-zone points survive in one of the parts: if
            // every other part was enclosed, this last one is open.
            if !on_edge && !found_open && seeds.is_empty() {
                break;
            }
            match flood(Bb256::from_point(seed), passable, geo.edge) {
                Flood::Open(part) => {
                    found_open = true;
                    seeds &= !part;
                }
                Flood::Enclosed(region) => {
                    self.fill(me, region);
                    seeds &= !region;
                }
            }
        }
    }

    /// Fills an enclosed region with `me`'s stones, removing the opponent's.
    fn fill(&mut self, me: usize, region: Bb256) {
        let captured = region & self.stones[me ^ 1];
        self.stones[me ^ 1] ^= captured;
        let new = region & !self.stones[me];
        self.stones[me] |= region;
        for p in captured.points() {
            self.hash ^= KEYS.piece(me ^ 1, p);
        }
        for p in new.points() {
            self.hash ^= KEYS.piece(me, p);
        }
    }

    /// The regions of non-`player` points that hold no safe-zone point. Empty in every
    /// position reached by play.
    fn enclosed_regions(&self, player: Player) -> Bb256 {
        let geo = self.geometry();
        let passable = geo.board & !self.stones[player.index()];
        let mut reached = passable & geo.edge;
        loop {
            let grown = reached.dilate() & passable;
            if grown == reached {
                return passable & !reached;
            }
            reached = grown;
        }
    }

    fn point_in_board(&self, mv: Point) -> bool {
        (mv.0 as usize) < 256 && self.geometry().board.has(mv.0 as usize)
    }
}

impl Game for Rin {
    type Move = Point;

    fn name(&self) -> &'static str {
        "rin"
    }

    fn board_size(&self) -> Option<crate::BoardSize> {
        Some(crate::BoardSize {
            option: "size",
            value: self.size(),
        })
    }

    fn spec(&self) -> String {
        if self.size() == DEFAULT_SIZE {
            "rin".to_string()
        } else {
            format!("rin:size={}", self.size)
        }
    }

    fn stone(&self, player: Player) -> Option<crate::Stone> {
        use crate::Stone;
        Some([Stone::Black, Stone::White][player.index()])
    }

    fn player_name(&self, player: Player) -> &'static str {
        ["black", "white"][player.index()]
    }

    #[inline]
    fn to_move(&self) -> Option<Player> {
        if self.empty().is_empty() {
            None
        } else {
            Some(Self::mover_at(self.ply))
        }
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// Empty points from a1 upward, row by row.
    fn legal_moves(&self, moves: &mut Vec<Point>) {
        moves.clear();
        moves.extend(self.empty().points().map(|p| Point(p as u8)));
    }

    #[inline]
    fn random_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        _scratch: &mut Vec<Point>,
    ) -> Option<Point> {
        let empty = self.empty();
        let n = empty.count();
        if n == 0 {
            return None;
        }
        empty.nth(rng.random_range(0..n)).map(|p| Point(p as u8))
    }

    fn is_legal(&self, mv: Point) -> bool {
        self.point_in_board(mv) && self.empty().has(mv.0 as usize)
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Point) {
        self.place(mv.0 as usize);
    }

    fn why_illegal(&self, mv: Point) -> String {
        if !self.point_in_board(mv) {
            format!(
                "point {} is off the {}x{} board",
                self.move_text(mv),
                self.size,
                self.size
            )
        } else if self.empty().has(mv.0 as usize) {
            "the move is legal".to_string()
        } else {
            format!("point {} is occupied", self.move_text(mv))
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.empty().is_empty() {
            return None;
        }
        let (b, w) = (self.stones[0].count(), self.stones[1].count());
        Some(match b.cmp(&w) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::ZERO),
            std::cmp::Ordering::Less => Outcome::Win(Player::ONE),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn scores(&self) -> Option<[f64; 2]> {
        Some([self.stones[0].count() as f64, self.stones[1].count() as f64])
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = KEYS.phase(self.ply % 4);
        for colour in 0..2 {
            for p in self.stones[colour].points() {
                h ^= KEYS.piece(colour, p);
            }
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<Point, ParseMoveError> {
        let (col, row) = parse_point(text, self.size())?;
        Ok(Point::new(col, row))
    }

    fn move_index(&self, mv: Point) -> usize {
        mv.0 as usize
    }

    fn move_index_count(&self) -> usize {
        256
    }

    fn move_text(&self, mv: Point) -> String {
        point_name(mv.col(), mv.row())
    }

    fn write_move(&self, mv: Point, out: &mut String) {
        crate::square::write_point_name(mv.col(), mv.row(), out);
    }

    fn cell_names(&self) -> Vec<Vec<String>> {
        let n = self.size();
        (0..n)
            .rev()
            .map(|row| (0..n).map(|col| point_name(col, row)).collect())
            .collect()
    }

    fn board_rows(&self) -> Vec<String> {
        let n = self.size();
        (0..n)
            .rev()
            .map(|row| (0..n).map(|col| self.point_char(16 * row + col)).collect())
            .collect()
    }

    fn write_cells(&self, out: &mut Vec<u8>) {
        let n = self.size();
        out.clear();
        for row in (0..n).rev() {
            out.extend((0..n).map(|col| self.point_char(16 * row + col) as u8));
        }
    }

    /// Rows top to bottom, `.` empty, `B`/`X` black, `W`/`O` white; spaces are ignored. An
    /// optional line `ply N` sets the ply count (default 0), which decides who moves:
    /// Black at ply 0, 3, 4, 7, 8, …, White at 1, 2, 5, 6, …
    ///
    /// Positions with a region that a ring should already have filled are refused: play can
    /// never reach them, and the fast path relies on that.
    fn set_up(&self, text: &str) -> Result<Rin, PositionError> {
        let err = |reason: String| PositionError { reason };
        let n = self.size();
        let mut rin = Rin::new(n).map_err(|e| err(e.reason))?;
        let mut rows = Vec::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if let Some(ply) = line.strip_prefix("ply") {
                rin.ply = ply
                    .trim()
                    .parse()
                    .map_err(|_| err(format!("bad ply line '{line}'")))?;
                continue;
            }
            let row: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
            rows.push(row);
        }
        if rows.len() != n {
            return Err(err(format!("expected {n} rows, found {}", rows.len())));
        }
        for (i, row) in rows.iter().enumerate() {
            if row.len() != n {
                return Err(err(format!(
                    "row {} has {} points, expected {n}",
                    i + 1,
                    row.len()
                )));
            }
            for (col, &c) in row.iter().enumerate() {
                let p = 16 * (n - 1 - i) + col;
                match c {
                    '.' => {}
                    'B' | 'X' => rin.stones[0].insert(p),
                    'W' | 'O' => rin.stones[1].insert(p),
                    other => return Err(err(format!("unknown point character '{other}'"))),
                }
            }
        }
        for player in [Player::ZERO, Player::ONE] {
            if let Some(p) = rin.enclosed_regions(player).first() {
                return Err(err(format!(
                    "the region at {} is enclosed by {} and would already have been filled",
                    point_name(p % 16, p / 16),
                    self.player_name(player)
                )));
            }
        }
        rin.hash = rin.hash_from_scratch();
        Ok(rin)
    }
}

/// Rin's features, with the weights of `eval=rich`.
const FEATURES: [crate::Feature; 5] = [
    crate::Feature {
        name: "material",
        default_weight: 1.0,
    },
    crate::Feature {
        name: "immune",
        default_weight: 0.5,
    },
    crate::Feature {
        name: "liberties",
        default_weight: 0.1,
    },
    crate::Feature {
        name: "territory",
        default_weight: 0.25,
    },
    crate::Feature {
        name: "marked",
        default_weight: 0.25,
    },
];

impl Rin {
    /// The stones of `stones` joined to the safe zone through stones of `stones`.
    fn joined_to_safe_zone(&self, stones: Bb256) -> Bb256 {
        let mut r = stones & self.geometry().edge;
        loop {
            let grown = r.dilate() & stones;
            if grown == r {
                return r;
            }
            r = grown;
        }
    }

    /// The empty points `player`'s stones reach before the opponent's, when both grow one
    /// step at a time through empty points (points both reach in the same step are nobody's).
    fn territory(&self, player: Player) -> Bb256 {
        let empty = self.empty();
        let (mut mine, mut theirs) = (
            self.stones[player.index()],
            self.stones[player.other().index()],
        );
        let mut claimed = Bb256::EMPTY;
        let mut seen = mine | theirs;
        loop {
            let my_step = mine.dilate() & empty & !seen;
            let their_step = theirs.dilate() & empty & !seen;
            if my_step.is_empty() && their_step.is_empty() {
                return claimed;
            }
            claimed |= my_step & !their_step;
            seen |= my_step | their_step;
            mine = my_step & !their_step;
            theirs = their_step & !my_step;
        }
    }
}

impl crate::Features for Rin {
    fn feature_set(&self) -> &'static [crate::Feature] {
        &FEATURES
    }

    fn tuned_fit(&self) -> Option<&'static [f64]> {
        Some(&TUNED)
    }

    /// The net of size 10, the size it was trained and checked on (results/nets/rin/, made by
    /// `experiments/net-game.sh rin`): it beats `eval=tuned` at equal depth.
    fn shipped_net(&self) -> Option<&'static [u8]> {
        (self.size() == 10).then_some(NET)
    }

    /// - `material`: the player's stones.
    /// - `immune`: stones joined to the safe zone through stones of their own colour; they can
    ///   never be captured.
    /// - `liberties`: empty points orthogonally next to the player's stones (room to grow; the
    ///   seed's "alive" is no feature, since every ring is filled as it closes and so every
    ///   stone on the board is alive).
    /// - `territory`: empty points the player's stones reach first, growing both colours one
    ///   orthogonal step at a time through empty points: the points the player is placed to
    ///   enclose.
    /// - `marked`: stones on the eight marked points of the seed's board, (3, 6), (3, 9), (6, 12),
    ///   (9, 12), (12, 9), (12, 6), (9, 3), (6, 3) as (row from the top, column) on 16×16
    ///   (`g13`, `j13`, `m10`, `m7`, `j4`, `g4`, `d7`, `d10`); on smaller boards 6 and 9 become
    ///   `size/2 − 2` and `size/2 + 1`, and 12 becomes `size − 4`.
    fn features(&self, player: Player, out: &mut [f64; crate::MAX_FEATURES]) {
        let own = self.stones[player.index()];
        out[0] = f64::from(own.count());
        out[1] = f64::from(self.joined_to_safe_zone(own).count());
        out[2] = f64::from((own.dilate() & self.empty()).count());
        out[3] = f64::from(self.territory(player).count());
        out[4] = f64::from((own & self.geometry().marks).count());
    }
}

impl crate::options::Registered for Rin {
    const INFO: crate::options::GameInfo = crate::options::GameInfo {
        name: "rin",
        about: "Rin, Zhen Wang's ring game: B, W, W, B, B, … turns; rings fill",
        options: &[crate::options::GameOption {
            name: "size",
            kind: crate::options::OptionKind::Int { min: 6, max: 16 },
            default: Some("16"),
            help: "points on a side, an even number",
        }],
    };

    fn from_options(options: &mut crate::options::Options) -> Result<Rin, crate::GameSpecError> {
        Rin::new(options.int("size")?)
    }
}

#[cfg(test)]
mod tests;

/// The bytes of `eval=net`'s network for size 10 (`agents/src/net.rs` gives the format).
const NET: &[u8] = include_bytes!("net.rsnet");

/// The weights of `eval=tuned` (see [`crate::Features::tuned_fit`]): Texel-fitted to
/// alpha-beta self-play, `material` held at 1 (results/tuned/rin/: the command, the fit and
/// the checks against the default weights).
const TUNED: [f64; 5] = [
    1.0,
    0.46996059026944925,
    -0.010025094813841026,
    0.12918688706437167,
    0.22059124764742657,
];
