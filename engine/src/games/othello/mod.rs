//! Othello, as OpenSpiel's `othello` plays it. Rules: `RULES.md` in this folder, below.
//!
#![doc = include_str!("RULES.md")]

use crate::error::{ParseMoveError, PositionError};
use crate::game::{Game, Outcome, Player, Stone};
use crate::zobrist::Zobrist;
use crate::{Feature, Features, MAX_FEATURES};

/// OpenSpiel's action number of the pass.
pub const PASS: Square = Square(64);

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const TOP: u64 = 0xFF;
const BOTTOM: u64 = TOP << 56;
const CORNERS: u64 = 1 | 1 << 7 | 1 << 56 | 1 << 63;

/// Keys of the two colours on 64 squares; phases: Black to move, White to move.
static KEYS: Zobrist<64, 2> = Zobrist::new(0x07_11_E1);

/// A move: a square by OpenSpiel's action number (`8 × row + column`, row 0 at the top), or
/// [`PASS`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

/// The eight directions, as bit shifts that drop what leaves the board.
const DIRECTIONS: [fn(u64) -> u64; 8] = [
    |b| (b << 1) & !FILE_A,
    |b| (b >> 1) & !FILE_H,
    |b| b << 8,
    |b| b >> 8,
    |b| (b << 9) & !FILE_A,
    |b| (b << 7) & !FILE_H,
    |b| (b >> 7) & !FILE_A,
    |b| (b >> 9) & !FILE_H,
];

/// The squares where `mine` may place a disc against `theirs`.
#[inline]
fn placements(mine: u64, theirs: u64) -> u64 {
    let empty = !(mine | theirs);
    let mut out = 0;
    for shift in DIRECTIONS {
        let mut run = shift(mine) & theirs;
        for _ in 0..5 {
            run |= shift(run) & theirs;
        }
        out |= shift(run) & empty;
    }
    out
}

/// The discs of `theirs` that a disc of `mine` on `square` flips.
#[inline]
fn flips(mine: u64, theirs: u64, square: usize) -> u64 {
    let mut out = 0;
    for shift in DIRECTIONS {
        let mut run = 0;
        let mut at = shift(1 << square);
        while at & theirs != 0 {
            run |= at;
            at = shift(at);
        }
        if at & mine != 0 {
            out |= run;
        }
    }
    out
}

/// An Othello position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Othello {
    discs: [u64; 2],
    mover: Player,
    ply: u16,
    outcome: Option<Outcome>,
    hash: u64,
}

impl Default for Othello {
    fn default() -> Self {
        Othello::new()
    }
}

impl Othello {
    /// The start: White on d4 and e5, Black on e4 and d5, Black to move.
    #[must_use]
    pub fn new() -> Othello {
        let at = |r: u32, c: u32| 1u64 << (8 * r + c);
        let mut game = Othello {
            discs: [at(3, 4) | at(4, 3), at(3, 3) | at(4, 4)],
            mover: Player::ZERO,
            ply: 0,
            outcome: None,
            hash: 0,
        };
        game.hash = game.hash_from_scratch();
        game
    }

    fn placements_of(&self, player: Player) -> u64 {
        placements(
            self.discs[player.index()],
            self.discs[player.other().index()],
        )
    }

    fn counted(&self) -> Outcome {
        let (x, o) = (self.discs[0].count_ones(), self.discs[1].count_ones());
        match x.cmp(&o) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::ZERO),
            std::cmp::Ordering::Less => Outcome::Win(Player::ONE),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// Ends the game when neither side can place a disc.
    fn settle(&mut self) {
        if self.placements_of(self.mover) == 0 && self.placements_of(self.mover.other()) == 0 {
            self.outcome = Some(self.counted());
        }
    }

    fn disc(&self, square: usize) -> char {
        if self.discs[0] >> square & 1 == 1 {
            'B'
        } else if self.discs[1] >> square & 1 == 1 {
            'W'
        } else {
            '.'
        }
    }

    /// The discs of `player` that can never be flipped, found conservatively: a disc is
    /// stable when on each of the four lines through it, a neighbour on one side is off the
    /// board or a stable disc of the same colour.
    #[must_use]
    pub fn stable(&self, player: Player) -> u64 {
        let mine = self.discs[player.index()];
        let mut stable = 0u64;
        loop {
            let [e, w, s, n, se, sw, ne, nw] = DIRECTIONS.map(|shift| shift(stable));
            let across = (e | FILE_A) | (w | FILE_H);
            let down = (s | TOP) | (n | BOTTOM);
            let falling = (se | FILE_A | TOP) | (nw | FILE_H | BOTTOM);
            let rising = (sw | FILE_H | TOP) | (ne | FILE_A | BOTTOM);
            let next = stable | (mine & across & down & falling & rising);
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }
}

impl Game for Othello {
    type Move = Square;

    fn name(&self) -> &'static str {
        "othello"
    }

    fn spec(&self) -> String {
        "othello".into()
    }

    fn stone(&self, player: Player) -> Option<Stone> {
        Some([Stone::Black, Stone::White][player.index()])
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

    fn legal_moves(&self, moves: &mut Vec<Square>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        let mut rest = self.placements_of(self.mover);
        if rest == 0 {
            moves.push(PASS);
        }
        while rest != 0 {
            moves.push(Square(rest.trailing_zeros() as u8));
            rest &= rest - 1;
        }
    }

    fn is_legal(&self, mv: Square) -> bool {
        if self.outcome.is_some() || mv.0 > 64 {
            return false;
        }
        let open = self.placements_of(self.mover);
        if mv == PASS {
            open == 0
        } else {
            open >> mv.0 & 1 == 1
        }
    }

    fn play_unchecked(&mut self, mv: Square) {
        let (me, them) = (self.mover.index(), self.mover.other().index());
        if mv != PASS {
            let square = usize::from(mv.0);
            let flipped = flips(self.discs[me], self.discs[them], square);
            self.discs[me] |= flipped | 1 << square;
            self.discs[them] &= !flipped;
            self.hash ^= KEYS.piece(me, square);
            let mut rest = flipped;
            while rest != 0 {
                let s = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                self.hash ^= KEYS.piece(me, s) ^ KEYS.piece(them, s);
            }
        }
        self.hash ^= KEYS.phase(me as u32) ^ KEYS.phase(them as u32);
        self.mover = self.mover.other();
        self.ply += 1;
        self.settle();
    }

    fn move_index(&self, mv: Square) -> usize {
        usize::from(mv.0)
    }

    fn move_index_count(&self) -> usize {
        65
    }

    fn why_illegal(&self, mv: Square) -> String {
        if mv == PASS {
            "a pass is only legal with no disc to place".into()
        } else if mv.0 > 64 {
            format!("square {} is off the board", mv.0)
        } else {
            format!("{} flips nothing or is taken", self.move_text(mv))
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn scores(&self) -> Option<[f64; 2]> {
        Some([
            f64::from(self.discs[0].count_ones()),
            f64::from(self.discs[1].count_ones()),
        ])
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        KEYS.phase(self.mover.index() as u32) ^ KEYS.of_bitboards(self.discs)
    }

    /// A square (`d3`: column letter, row number from the top) or `pass`.
    fn parse_move(&self, text: &str) -> Result<Square, ParseMoveError> {
        if text == "pass" {
            return Ok(PASS);
        }
        // `parse_point` reads the number less one as the row: here, the row from the top.
        let (col, row) = crate::square::parse_point(text, 8).map_err(|_| ParseMoveError {
            text: text.to_string(),
            expected: "a square a1..h8 (column letter, then row number from the top) or pass"
                .into(),
        })?;
        Ok(Square((8 * row + col) as u8))
    }

    fn move_text(&self, mv: Square) -> String {
        let mut out = String::with_capacity(4);
        self.write_move(mv, &mut out);
        out
    }

    fn write_move(&self, mv: Square, out: &mut String) {
        if mv == PASS {
            out.push_str("pass");
        } else {
            let s = usize::from(mv.0);
            crate::square::write_point_name(s % 8, s / 8, out);
        }
    }

    fn board_rows(&self) -> Vec<String> {
        (0..8)
            .map(|r| (0..8).map(|c| self.disc(8 * r + c)).collect())
            .collect()
    }

    fn write_cells(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend((0..64).map(|s| self.disc(s) as u8));
    }

    fn cell_names(&self) -> Vec<Vec<String>> {
        (0..8)
            .map(|r| (0..8).map(|c| crate::square::point_name(c, r)).collect())
            .collect()
    }

    /// Eight rows of `B`, `W` and `.` (or OpenSpiel's `x`, `o`), top first, and an optional
    /// `to_move black|white`.
    fn set_up(&self, text: &str) -> Result<Othello, PositionError> {
        let err = |reason: String| PositionError { reason };
        let mut game = Othello {
            discs: [0, 0],
            mover: Player::ZERO,
            ply: 0,
            outcome: None,
            hash: 0,
        };
        let mut cells = Vec::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            match line.strip_prefix("to_move") {
                Some(p) => {
                    game.mover = match p.trim() {
                        "black" => Player::ZERO,
                        "white" => Player::ONE,
                        o => return Err(err(format!("to_move must be black or white, not '{o}'"))),
                    }
                }
                None => cells.extend(line.chars().filter(|c| !c.is_whitespace())),
            }
        }
        if cells.len() != 64 {
            return Err(err(format!("expected 64 squares, found {}", cells.len())));
        }
        for (s, &ch) in cells.iter().enumerate() {
            match ch {
                'B' | 'x' => game.discs[0] |= 1 << s,
                'W' | 'o' => game.discs[1] |= 1 << s,
                '.' => {}
                other => return Err(err(format!("'{other}' is not x, o or ."))),
            }
        }
        game.settle();
        game.hash = game.hash_from_scratch();
        Ok(game)
    }
}

/// Othello's features (see [`Features`]).
const FEATURES: [Feature; 4] = [
    Feature {
        name: "material",
        default_weight: 0.1,
    },
    Feature {
        name: "mobility",
        default_weight: 0.5,
    },
    Feature {
        name: "corners",
        default_weight: 3.0,
    },
    Feature {
        name: "stable",
        default_weight: 1.0,
    },
];

/// The weights of `eval=tuned` (see [`Features::tuned_fit`]): Texel-fitted to alpha-beta
/// self-play, `material` held at 0.1 (results/tuned/othello/; checked against the default
/// weights in results/reference-tuned-check/ and its replication: +32 and +37 Elo at depths
/// 2 and 3).
const TUNED: [f64; 4] = [
    0.1,
    0.633105700883063,
    2.4992414205662636,
    1.0400916949577117,
];

/// The bytes of `eval=net`'s network (`agents/src/net.rs` gives the format): distilled from
/// depth-2 searches of `eval=tuned` (results/nets/othello/; +108 and +136 Elo over
/// `eval=tuned` at depth 2 in its check and replication, results/nets/README.md).
const NET: &[u8] = include_bytes!("net.rsnet");

impl Features for Othello {
    fn feature_set(&self) -> &'static [Feature] {
        &FEATURES
    }

    fn tuned_fit(&self) -> Option<&'static [f64]> {
        Some(&TUNED)
    }

    /// The net trained and checked for Othello (results/nets/othello/, made by
    /// `experiments/net-game.sh othello`): it beats `eval=tuned` at equal depth and time.
    fn shipped_net(&self) -> Option<&'static [u8]> {
        Some(NET)
    }

    /// - `material`: the player's discs.
    /// - `mobility`: squares where the player could place a disc now.
    /// - `corners`: the player's discs on the four corners.
    /// - `stable`: the player's discs that can never be flipped ([`Othello::stable`]).
    fn features(&self, player: Player, out: &mut [f64; MAX_FEATURES]) {
        let mine = self.discs[player.index()];
        out[0] = f64::from(mine.count_ones());
        out[1] = f64::from(self.placements_of(player).count_ones());
        out[2] = f64::from((mine & CORNERS).count_ones());
        out[3] = f64::from(self.stable(player).count_ones());
    }
}

impl crate::options::Registered for Othello {
    const INFO: crate::options::GameInfo = crate::options::GameInfo {
        name: "othello",
        about: "Othello 8x8, as OpenSpiel plays it (passes are moves)",
        options: &[],
    };

    fn from_options(
        _options: &mut crate::options::Options,
    ) -> Result<Othello, crate::GameSpecError> {
        Ok(Othello::new())
    }
}

#[cfg(test)]
mod tests;
