//! Advance: sab39's game of advancing, attacking and sacrificing tokens on a hex board.
//! Rules: `RULES.md` in this folder, below.
//!
#![doc = include_str!("RULES.md")]

use rand::{Rng, RngExt};

use crate::bitboard::Bb256;
use crate::error::{GameSpecError, ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player};
use crate::hex::{self, HexGrid};
use crate::zobrist::Zobrist;

/// The default side: 91 cells.
pub const DEFAULT_SIDE: usize = 6;
/// The default distance of each start cell from the centre.
pub const DEFAULT_OFFSET: usize = 3;
/// A player wins when their score exceeds the other's by more than this.
pub const WINNING_MARGIN: f64 = 10.0;

/// A move of Advance. Cells are [`HexGrid`] indices, directions index [`hex::DIRECTIONS`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AdvanceMove {
    /// Remove the token on `from` and put tokens on its neighbours in directions `dir` and
    /// `dir + 1` (mod 6): the three cells are mutually adjacent.
    Advance {
        /// The token removed.
        from: u8,
        /// The first of the two consecutive directions.
        dir: u8,
    },
    /// The tokens on `from` and the next cell in `dir` attack the enemy token beyond them.
    Attack {
        /// P1, the rear token.
        from: u8,
        /// The direction from P1 through P2 to P3.
        dir: u8,
    },
    /// Remove one of your own tokens.
    Sacrifice(u8),
}

/// Who starts: fixed by the spec, or drawn from the game's seed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum First {
    Drawn,
    Fixed,
}

static KEYS: Zobrist<256, 2> = Zobrist::new(0x41_44_56);
/// Keys for the captured counts (0..=255 each colour), so the hash covers the score.
static CAPTURE_KEYS: Zobrist<256, 0> = Zobrist::new(0x43_41_50);

/// An Advance position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Advance {
    tokens: [Bb256; 2],
    captured: [u8; 2],
    hash: u64,
    ply: u32,
    side: u8,
    start_cells: [u8; 2],
    starter: Player,
    first: First,
    to_move: Player,
}

impl Default for Advance {
    fn default() -> Self {
        Advance::with_offset(DEFAULT_SIDE, DEFAULT_OFFSET).expect("defaults are valid")
    }
}

fn spec_error(reason: String) -> GameSpecError {
    GameSpecError {
        kind: crate::error::SpecErrorKind::BadValue,
        reason: format!("advance: {reason}"),
    }
}

impl Advance {
    /// The letter of cell `c` in the drawn board.
    fn cell_char(&self, c: usize) -> char {
        if self.tokens[0].has(c) {
            'X'
        } else if self.tokens[1].has(c) {
            'O'
        } else {
            '.'
        }
    }
}

impl Advance {
    /// Start cells on the horizontal axis, `offset` cells left (X) and right (O) of the centre.
    /// The first player is drawn by [`Game::randomize_start`]; until then X is to move.
    pub fn with_offset(side: usize, offset: usize) -> Result<Advance, GameSpecError> {
        check_side(side)?;
        if offset == 0 || offset >= side {
            return Err(spec_error(format!(
                "offset must be from 1 to {} on side {side}, not {offset}",
                side - 1
            )));
        }
        let grid = hex::grid(side);
        let x = grid.cell_at(-(offset as i32), 0).expect("on the axis") as usize;
        let o = grid.cell_at(offset as i32, 0).expect("on the axis") as usize;
        Ok(Self::with_cells(side, [x, o]))
    }

    /// Start cells given in the hex notation, X's first.
    pub fn with_start_cells(side: usize, x: &str, o: &str) -> Result<Advance, GameSpecError> {
        check_side(side)?;
        let grid = hex::grid(side);
        let cell = |t: &str| {
            grid.parse_cell(t)
                .map_err(|e| spec_error(format!("start cell '{t}': {}", e.expected)))
        };
        let (x, o) = (cell(x)?, cell(o)?);
        if x == o {
            return Err(spec_error("the two start cells must differ".into()));
        }
        Ok(Self::with_cells(side, [x, o]))
    }

    fn with_cells(side: usize, cells: [usize; 2]) -> Advance {
        let mut tokens = [Bb256::EMPTY; 2];
        tokens[0].insert(cells[0]);
        tokens[1].insert(cells[1]);
        let mut a = Advance {
            tokens,
            captured: [0; 2],
            hash: 0,
            ply: 0,
            side: side as u8,
            start_cells: [cells[0] as u8, cells[1] as u8],
            starter: Player::ZERO,
            first: First::Drawn,
            to_move: Player::ZERO,
        };
        a.hash = a.hash_from_scratch();
        a
    }

    /// Fixes who moves first instead of drawing it.
    #[must_use]
    pub fn with_first(mut self, starter: Player) -> Advance {
        self.starter = starter;
        self.to_move = starter;
        self.first = First::Fixed;
        self.hash = self.hash_from_scratch();
        self
    }

    #[inline]
    fn grid(&self) -> &'static HexGrid {
        hex::grid(self.side as usize)
    }

    /// The player who moved first (the other one gets the half point).
    #[must_use]
    pub fn starter(&self) -> Player {
        self.starter
    }

    /// The tokens of `player` on the board.
    #[must_use]
    pub fn tokens(&self, player: Player) -> Bb256 {
        self.tokens[player.index()]
    }

    /// The enemy tokens `player` has captured.
    #[must_use]
    pub fn captured(&self, player: Player) -> u32 {
        u32::from(self.captured[player.index()])
    }

    /// `player`'s score: tokens on the board plus tokens captured, plus 0.5 for the player who
    /// moved second.
    #[must_use]
    pub fn score(&self, player: Player) -> f64 {
        let bonus = if player == self.starter { 0.0 } else { 0.5 };
        f64::from(self.tokens[player.index()].count()) + self.captured(player) as f64 + bonus
    }

    /// Whether `from` has an advance in direction `dir`: the cells at `dir` and `dir + 1` around
    /// it (mutually adjacent) are both empty.
    #[inline]
    fn advance_at(grid: &HexGrid, empty: Bb256, from: usize, dir: usize) -> bool {
        matches!(
            (grid.step(from, dir), grid.step(from, (dir + 1) % 6)),
            (Some(b), Some(c)) if empty.has(b) && empty.has(c)
        )
    }

    /// Whether `me`'s token on `from` attacks in direction `dir`: the next cell holds `me`'s
    /// token and the one after it an enemy token.
    #[inline]
    fn attack_at(&self, grid: &HexGrid, me: usize, from: usize, dir: usize) -> bool {
        matches!(
            grid.line3(from, dir),
            Some([_, p2, p3]) if self.tokens[me].has(p2) && self.tokens[me ^ 1].has(p3)
        )
    }

    /// The empty cells of the board.
    fn empty(&self) -> Bb256 {
        self.grid().all() & !(self.tokens[0] | self.tokens[1])
    }

    /// Lists the advances and attacks of `me` into `out` (not cleared).
    fn list_active(&self, me: usize, out: &mut Vec<AdvanceMove>) {
        let (grid, empty) = (self.grid(), self.empty());
        for from in self.tokens[me].points() {
            for dir in (0..6).filter(|&dir| Self::advance_at(grid, empty, from, dir)) {
                out.push(AdvanceMove::Advance {
                    from: from as u8,
                    dir: dir as u8,
                });
            }
        }
        for from in self.tokens[me].points() {
            for dir in (0..6).filter(|&dir| self.attack_at(grid, me, from, dir)) {
                out.push(AdvanceMove::Attack {
                    from: from as u8,
                    dir: dir as u8,
                });
            }
        }
    }

    fn has_active(&self, me: usize) -> bool {
        let (grid, empty) = (self.grid(), self.empty());
        self.tokens[me].points().any(|from| {
            (0..6).any(|dir| {
                Self::advance_at(grid, empty, from, dir) || self.attack_at(grid, me, from, dir)
            })
        })
    }

    fn sacrifice_allowed(&self, me: usize) -> bool {
        self.tokens[me].count() > 1 || !self.has_active(me)
    }

    fn toggle(&mut self, colour: usize, cell: usize) {
        self.tokens[colour] ^= Bb256::from_point(cell);
        self.hash ^= KEYS.piece(colour, cell);
    }

    fn set_captured(&mut self, colour: usize, value: u8) {
        self.hash ^= CAPTURE_KEYS.piece(colour, self.captured[colour] as usize)
            ^ CAPTURE_KEYS.piece(colour, value as usize);
        self.captured[colour] = value;
    }

    fn cell_text(&self, cell: usize) -> String {
        if cell < self.grid().cells() {
            self.grid().cell_name(cell)
        } else {
            format!("#{cell}")
        }
    }
}

fn check_side(side: usize) -> Result<(), GameSpecError> {
    if (3..=hex::MAX_SIDE).contains(&side) {
        Ok(())
    } else {
        Err(spec_error(format!(
            "side must be from 3 to {}, not {side}",
            hex::MAX_SIDE
        )))
    }
}

impl Game for Advance {
    type Move = AdvanceMove;

    fn name(&self) -> &'static str {
        "advance"
    }

    fn board_size(&self) -> Option<crate::BoardSize> {
        Some(crate::BoardSize {
            option: "side",
            value: self.side as usize,
        })
    }

    fn spec(&self) -> String {
        let grid = self.grid();
        let mut options = Vec::new();
        if self.side as usize != DEFAULT_SIDE {
            options.push(format!("side={}", self.side));
        }
        let [x, o] = self.start_cells.map(|c| c as usize);
        let (qx, rx) = grid.coords(x);
        let (qo, ro) = grid.coords(o);
        if !(rx == 0 && ro == 0 && qx == -qo && qx < 0) {
            options.push(format!("x={},o={}", grid.cell_name(x), grid.cell_name(o)));
        } else if qo as usize != DEFAULT_OFFSET {
            options.push(format!("offset={qo}"));
        }
        if self.first == First::Fixed {
            options.push(format!("first={}", ["x", "o"][self.starter.index()]));
        }
        if options.is_empty() {
            "advance".into()
        } else {
            format!("advance:{}", options.join(","))
        }
    }

    fn cell_shape(&self) -> crate::CellShape {
        crate::CellShape::Hex
    }

    fn player_name(&self, player: Player) -> &'static str {
        ["x", "o"][player.index()]
    }

    fn to_move(&self) -> Option<Player> {
        self.outcome().is_none().then_some(self.to_move)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// Advances (by token, then direction), attacks (likewise), then the allowed sacrifices.
    fn legal_moves(&self, moves: &mut Vec<AdvanceMove>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        let me = self.to_move.index();
        self.list_active(me, moves);
        if self.tokens[me].count() > 1 || moves.is_empty() {
            moves.extend(
                self.tokens[me]
                    .points()
                    .map(|c| AdvanceMove::Sacrifice(c as u8)),
            );
        }
    }

    fn randomize_start<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        if self.first == First::Drawn && self.ply == 0 {
            let starter = Player::new(rng.random_range(0..2));
            *self = self.with_first(starter);
        }
    }

    fn is_legal(&self, mv: AdvanceMove) -> bool {
        if self.outcome().is_some() {
            return false;
        }
        let grid = self.grid();
        let me = self.to_move.index();
        let on_board = |c: u8| (c as usize) < grid.cells();
        match mv {
            AdvanceMove::Advance { from, dir } => {
                on_board(from)
                    && dir < 6
                    && self.tokens[me].has(from as usize)
                    && Self::advance_at(grid, self.empty(), from as usize, dir as usize)
            }
            AdvanceMove::Attack { from, dir } => {
                on_board(from)
                    && dir < 6
                    && self.tokens[me].has(from as usize)
                    && self.attack_at(grid, me, from as usize, dir as usize)
            }
            AdvanceMove::Sacrifice(c) => {
                on_board(c) && self.tokens[me].has(c as usize) && self.sacrifice_allowed(me)
            }
        }
    }

    fn play_unchecked(&mut self, mv: AdvanceMove) {
        let me = self.to_move.index();
        let grid = self.grid();
        match mv {
            AdvanceMove::Advance { from, dir } => {
                let b = grid
                    .step(from as usize, dir as usize)
                    .expect("legal advance");
                let c = grid
                    .step(from as usize, (dir as usize + 1) % 6)
                    .expect("legal advance");
                self.toggle(me, from as usize);
                self.toggle(me, b);
                self.toggle(me, c);
            }
            AdvanceMove::Attack { from, dir } => {
                let [_, p2, p3] = grid
                    .line3(from as usize, dir as usize)
                    .expect("legal attack");
                self.toggle(me ^ 1, p3);
                self.toggle(me, p2);
                self.toggle(me, p3);
                self.set_captured(me, self.captured[me].saturating_add(1));
            }
            AdvanceMove::Sacrifice(c) => self.toggle(me, c as usize),
        }
        self.hash ^= KEYS.phase(0) ^ KEYS.phase(1);
        self.to_move = self.to_move.other();
        self.ply += 1;
    }

    fn why_illegal(&self, mv: AdvanceMove) -> String {
        let me = self.to_move.index();
        match mv {
            AdvanceMove::Advance { from, .. }
            | AdvanceMove::Attack { from, .. }
            | AdvanceMove::Sacrifice(from)
                if !self.tokens[me].has(from as usize) =>
            {
                format!(
                    "cell {} holds no token of yours",
                    self.cell_text(from as usize)
                )
            }
            AdvanceMove::Advance { .. } => "both cells of an advance must be empty".to_string(),
            AdvanceMove::Attack { .. } => {
                "an attack needs two of your tokens and then an enemy token in a line".to_string()
            }
            AdvanceMove::Sacrifice(_) => {
                "you may sacrifice your last token only when you have no other move".to_string()
            }
        }
    }

    /// A player with no token on the board has lost (forced to sacrifice the last one, or had it
    /// captured); otherwise a lead of more than 10 points wins.
    fn outcome(&self) -> Option<Outcome> {
        for p in [Player::ZERO, Player::ONE] {
            if self.tokens[p.index()].is_empty() {
                return Some(Outcome::Win(p.other()));
            }
        }
        let diff = self.score(Player::ZERO) - self.score(Player::ONE);
        if diff > WINNING_MARGIN {
            Some(Outcome::Win(Player::ZERO))
        } else if -diff > WINNING_MARGIN {
            Some(Outcome::Win(Player::ONE))
        } else {
            None
        }
    }

    fn scores(&self) -> Option<[f64; 2]> {
        Some([self.score(Player::ZERO), self.score(Player::ONE)])
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = KEYS.phase(self.to_move.index() as u32);
        for colour in 0..2 {
            for c in self.tokens[colour].points() {
                h ^= KEYS.piece(colour, c);
            }
            h ^= CAPTURE_KEYS.piece(colour, self.captured[colour] as usize);
        }
        h
    }

    /// Advance `A>B+C` (B and C in reading order), attack `P1xP3`, sacrifice `-A`.
    fn parse_move(&self, text: &str) -> Result<AdvanceMove, ParseMoveError> {
        let grid = self.grid();
        let err = |why: &str| ParseMoveError {
            text: text.to_string(),
            expected: format!("an advance (e5>e6+f6), an attack (e5xe7) or a sacrifice (-e5){why}"),
        };
        let cell = |t: &str| {
            grid.parse_cell(t)
                .map_err(|e| err(&format!(": {}", e.expected)))
        };
        if let Some(c) = text.strip_prefix('-') {
            return Ok(AdvanceMove::Sacrifice(cell(c)? as u8));
        }
        if let Some((a, rest)) = text.split_once('>') {
            let (b, c) = rest.split_once('+').ok_or_else(|| err(""))?;
            let (a, b, c) = (cell(a)?, cell(b)?, cell(c)?);
            return (0..6)
                .find(|&d| {
                    let pair = (grid.step(a, d), grid.step(a, (d + 1) % 6));
                    pair == (Some(b), Some(c)) || pair == (Some(c), Some(b))
                })
                .map(|d| AdvanceMove::Advance {
                    from: a as u8,
                    dir: d as u8,
                })
                .ok_or_else(|| err(": the three cells must be mutually adjacent"));
        }
        if let Some((p1, p3)) = text.split_once('x') {
            let (p1, p3) = (cell(p1)?, cell(p3)?);
            return (0..6)
                .find(|&d| grid.line3(p1, d).map(|l| l[2]) == Some(p3))
                .map(|d| AdvanceMove::Attack {
                    from: p1 as u8,
                    dir: d as u8,
                })
                .ok_or_else(|| err(": the cells must be two apart on a straight line"));
        }
        Err(err(""))
    }

    /// Advances by (from, dir), then attacks by (from, dir), then sacrifices by cell.
    fn move_index(&self, mv: AdvanceMove) -> usize {
        match mv {
            AdvanceMove::Advance { from, dir } => 6 * from as usize + dir as usize,
            AdvanceMove::Attack { from, dir } => 6 * 256 + 6 * from as usize + dir as usize,
            AdvanceMove::Sacrifice(c) => 12 * 256 + c as usize,
        }
    }

    fn move_index_count(&self) -> usize {
        13 * 256
    }

    fn move_text(&self, mv: AdvanceMove) -> String {
        let grid = self.grid();
        let name = |c: usize| self.cell_text(c);
        match mv {
            AdvanceMove::Advance { from, dir } => {
                let step = |d: usize| grid.step(from as usize, d % 6).map_or(usize::MAX, |c| c);
                let (b, c) = (step(dir as usize), step(dir as usize + 1));
                let (b, c) = (b.min(c), b.max(c));
                format!("{}>{}+{}", name(from as usize), name(b), name(c))
            }
            AdvanceMove::Attack { from, dir } => {
                let p3 = grid
                    .line3(from as usize, dir as usize % 6)
                    .map_or(usize::MAX, |l| l[2]);
                format!("{}x{}", name(from as usize), name(p3))
            }
            AdvanceMove::Sacrifice(c) => format!("-{}", name(c as usize)),
        }
    }

    fn cell_names(&self) -> Vec<Vec<String>> {
        self.grid().row_names()
    }

    fn board_rows(&self) -> Vec<String> {
        self.grid().draw(|c| self.cell_char(c))
    }

    fn write_cells(&self, out: &mut Vec<u8>) {
        self.grid().write_cells(|c| self.cell_char(c), out);
    }

    /// The hexagon (`X`, `O`, `.`; spaces ignored), then optional lines `to_move x|o`,
    /// `starter x|o` (who moved first; default X) and `captured N M`.
    fn set_up(&self, text: &str) -> Result<Advance, PositionError> {
        let err = |reason: String| PositionError { reason };
        let mut state = Advance {
            ply: 0,
            captured: [0; 2],
            first: First::Fixed,
            ..*self
        };
        let player = |t: &str| match t.trim() {
            "x" => Ok(Player::ZERO),
            "o" => Ok(Player::ONE),
            other => Err(err(format!("expected x or o, not '{other}'"))),
        };
        let mut board = String::new();
        state.starter = Player::ZERO;
        state.to_move = Player::ZERO;
        for line in text.lines() {
            let l = line.trim();
            if let Some(p) = l.strip_prefix("to_move") {
                state.to_move = player(p)?;
            } else if let Some(p) = l.strip_prefix("starter") {
                state.starter = player(p)?;
            } else if let Some(counts) = l.strip_prefix("captured") {
                let n: Vec<u8> = counts
                    .split_whitespace()
                    .map(str::parse)
                    .collect::<Result<_, _>>()
                    .map_err(|_| err(format!("bad line '{l}'")))?;
                state.captured = n
                    .try_into()
                    .map_err(|_| err(format!("'{l}' needs two counts")))?;
            } else {
                board.push_str(line);
                board.push('\n');
            }
        }
        let cells = self.grid().read_drawing(&board)?;
        state.tokens = [Bb256::EMPTY; 2];
        for (c, ch) in cells.into_iter().enumerate() {
            match ch {
                '.' => {}
                'X' => state.tokens[0].insert(c),
                'O' => state.tokens[1].insert(c),
                other => return Err(err(format!("unknown cell character '{other}'"))),
            }
        }
        state.hash = state.hash_from_scratch();
        Ok(state)
    }
}

/// Advance's features, with the weights of `eval=rich`.
const FEATURES: [crate::Feature; 4] = [
    crate::Feature {
        name: "material",
        default_weight: 1.0,
    },
    crate::Feature {
        name: "tokens",
        default_weight: 0.25,
    },
    crate::Feature {
        name: "attacks",
        default_weight: 0.5,
    },
    crate::Feature {
        name: "advances",
        default_weight: 0.05,
    },
];

impl Advance {
    /// `me`'s advances and attacks available, counted as [`Advance::list_active`] lists them.
    fn active_counts(&self, me: usize) -> (u32, u32) {
        let (grid, empty) = (self.grid(), self.empty());
        let (mut advances, mut attacks) = (0, 0);
        for from in self.tokens[me].points() {
            for dir in 0..6 {
                advances += u32::from(Self::advance_at(grid, empty, from, dir));
                attacks += u32::from(self.attack_at(grid, me, from, dir));
            }
        }
        (advances, attacks)
    }
}

impl crate::Features for Advance {
    fn feature_set(&self) -> &'static [crate::Feature] {
        &FEATURES
    }

    fn tuned_fit(&self) -> Option<&'static [f64]> {
        Some(&TUNED)
    }

    /// The net of the default game (side 6, offset 3, drawn first player), the one it was
    /// trained and checked on (results/nets/advance/, made by `experiments/net-game.sh
    /// advance`): it beats `eval=tuned` at equal depth.
    fn shipped_net(&self) -> Option<&'static [u8]> {
        (self.spec() == "advance").then_some(NET)
    }

    /// - `material`: the score (tokens on the board, tokens captured, the half point).
    /// - `tokens`: tokens on the board (the score without captures).
    /// - `attacks`: attacks the player has: two of its tokens in a line with an enemy token
    ///   next in that line (each one a capture the player could make if it were to move).
    /// - `advances`: advances the player has (a token with two mutually adjacent empty cells).
    fn features(&self, player: Player, out: &mut [f64; crate::MAX_FEATURES]) {
        let (advances, attacks) = self.active_counts(player.index());
        out[0] = self.score(player);
        out[1] = f64::from(self.tokens[player.index()].count());
        out[2] = f64::from(attacks);
        out[3] = f64::from(advances);
    }
}

impl crate::options::Registered for Advance {
    const INFO: crate::options::GameInfo = crate::options::GameInfo {
        name: "advance",
        about: "sab39's hex game of advance, attack and sacrifice (seed 003)",
        options: &[
            crate::options::GameOption {
                name: "side",
                kind: crate::options::OptionKind::Int { min: 3, max: 9 },
                default: Some("6"),
                help: "cells on a side of the hexagon",
            },
            crate::options::GameOption {
                name: "offset",
                kind: crate::options::OptionKind::Int { min: 1, max: 8 },
                default: Some("3"),
                help: "the start cells' offset from the centre, below the side",
            },
            crate::options::GameOption {
                name: "x",
                kind: crate::options::OptionKind::Cell,
                default: None,
                help: "x's start cell, instead of an offset (with o=)",
            },
            crate::options::GameOption {
                name: "o",
                kind: crate::options::OptionKind::Cell,
                default: None,
                help: "o's start cell, instead of an offset (with x=)",
            },
            crate::options::GameOption {
                name: "first",
                kind: crate::options::OptionKind::Choice(&["random", "x", "o"]),
                default: Some("random"),
                help: "who moves first: drawn from each game's seed, or fixed",
            },
        ],
    };

    fn from_options(options: &mut crate::options::Options) -> Result<Advance, GameSpecError> {
        let side = options.int("side")?;
        let offset = options.int("offset")?;
        let cells = (options.text("x"), options.text("o"));
        let first = options.choice("first")?;
        let mut game = match cells {
            (None, None) => Advance::with_offset(side, offset)?,
            (Some(x), Some(o)) => Advance::with_start_cells(side, &x, &o)?,
            _ => {
                return Err(GameSpecError::new(
                    crate::error::SpecErrorKind::Incomplete,
                    "advance: give both x= and o= start cells, or neither",
                ));
            }
        };
        match first {
            "x" => game = game.with_first(Player::ZERO),
            "o" => game = game.with_first(Player::ONE),
            _ => {}
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests;

/// The bytes of `eval=net`'s network for the default game (`agents/src/net.rs` gives the
/// format).
const NET: &[u8] = include_bytes!("net.rsnet");

/// The weights of `eval=tuned` (see [`crate::Features::tuned_fit`]): Texel-fitted to
/// alpha-beta self-play, `material` held at 1 (results/tuned/advance/: the command, the fit and
/// the checks against the default weights).
const TUNED: [f64; 4] = [
    1.0,
    0.19526615691768245,
    0.4417476849431297,
    0.044074584290067276,
];
