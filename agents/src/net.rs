//! Network evaluations: one hidden layer over the board's cells, in NNUE's two-perspective
//! form, evaluated incrementally.
//!
//! # The network
//! The input is the board as [`Game::write_cells`] writes it, one byte a cell: a colour's
//! initial in upper case is its stone, in lower case a mark it owns (a nest, a ring's inside),
//! anything else is empty. Input `p · cells + i` is 1 when cell `i` holds plane `p`: Player
//! ZERO's stones (plane 0), Player ONE's (1), then, for games with marks, ZERO's marks (2) and
//! ONE's (3). Empty cells have no input.
//!
//! Two accumulators of `H + 1` lanes, one for each colour's view, each with its own weights
//! (`W₀`, `W₁`: a colour's view need not mirror the other's, as in games whose pieces move
//! one way): `aᶜ = bᶜ + Σ Wᶜ[f]` over the active inputs `f`. Lanes `0..H` are hidden units;
//! lane `H` is a linear value of the inputs that goes straight to the output (Stockfish's
//! PSQT accumulator: what a piece-square table or material count says needs no hidden unit,
//! which would saturate summing dozens of stones). The output, for the player to move `m`
//! and the other `o`, is
//!
//! ```text
//! v = w₂ · [crelu(aᵐ₀..H), crelu(aᵒ₀..H)] + b₂ + (aᵐ_H − aᵒ_H) / 2,   crelu(x) = min(max(x, 0), 1)
//! ```
//!
//! (NNUE's order: the mover's accumulator first, so the output weights serve both colours).
//! A net may also read the game's features ([`ringside_engine::Features`]): then
//! `u · (f(m) − f(o))` is added, `u` trained with the rest (started at a linear evaluation's
//! weights, so that training starts from that evaluation and learns what it misses).
//! `v` is the value for the mover in material units, trained so that `σ(K v)` is the mover's
//! chance to win with the game's Texel `K` ([`Net::k`]): the same scale as the linear
//! evaluations, so it drops into every place they go (alpha-beta's horizon, MCTS's `bias` and
//! `playout=K`).
//!
//! # Incremental evaluation
//! An evaluator keeps the cells and accumulators of the last position it evaluated and, for
//! the next, subtracts the weights of the cells that changed and adds their new ones. Search
//! evaluates neighbouring positions one after another (siblings differ in two cells), so a
//! step costs a few columns of `H` additions where a full one costs a column per stone. The
//! first-layer weights are held as integers (`round(w · 2¹²)`) and the accumulators sum them
//! exactly, so an incremental value equals a fresh one bit for bit, whatever the order of
//! evaluation.
//!
//! # The file
//! Little-endian, in this order: the 8 bytes `RSNET\0\0\1` (format version 1); the game's spec
//! (a u32 length, then UTF-8); u32 cells, planes (2 or 4) and hidden width `H`; the four plane
//! letters (ZERO's stone, ONE's stone, ZERO's mark, ONE's mark); f32 `K`; then f32 arrays:
//! `W₀` and `W₁` (`planes · cells` rows of `H + 1` lanes, input by input), `b₀`, `b₁`
//! (`H + 1` each), `w₂` (`2H`: the mover's half first), `b₂`; then a u32 count of the game's
//! features the net reads (0 or all of them) and their f32 weights `u`. A net is named by the FNV-1a hash of its bytes
//! ([`content_id`]).

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use rand::{Rng, RngExt};
use ringside_engine::{Features, Game, MAX_FEATURES, Player};

/// The first bytes of a net file: the format's name and version.
pub const MAGIC: [u8; 8] = *b"RSNET\0\0\x01";

/// The fixed-point scale of the first layer's weights at evaluation time.
const QUANTUM: f32 = 4096.0;

/// The largest value a fixed-point accumulator lane may reach: half of `i32`'s range, so that
/// the difference of the two views' linear lanes cannot overflow either.
const ACC_LIMIT: i32 = i32::MAX / 2;

/// The widest hidden layer a net may have.
pub const MAX_HIDDEN: usize = 1024;

/// The shape of a network: what it reads and how wide it is.
#[derive(Debug, Clone, PartialEq)]
pub struct NetShape {
    /// The spec of the game it reads (`havannah:size=6`).
    pub game: String,
    /// Cells of [`Game::write_cells`].
    pub cells: usize,
    /// Planes a cell: 2 (stones) or 4 (stones and marks).
    pub planes: usize,
    /// Hidden units of each accumulator (`H`).
    pub hidden: usize,
    /// The cell letters of the planes: ZERO's stone, ONE's stone, ZERO's mark, ONE's mark.
    pub letters: [u8; 4],
    /// The game's features the net reads besides the cells: 0 (none) or all of them.
    pub features: usize,
}

impl NetShape {
    /// The shape of a net for the game of `state` with `hidden` units, reading marks or not.
    #[must_use]
    pub fn of<G: Game>(state: &G, hidden: usize, marks: bool) -> NetShape {
        let mut cells = Vec::new();
        state.write_cells(&mut cells);
        let initial = |p: Player| state.player_name(p).bytes().next().unwrap_or(b'?');
        let [zero, one] = [Player::ZERO, Player::ONE].map(initial);
        NetShape {
            game: state.spec(),
            cells: cells.len(),
            planes: if marks { 4 } else { 2 },
            hidden,
            features: 0,
            letters: [
                zero.to_ascii_uppercase(),
                one.to_ascii_uppercase(),
                zero.to_ascii_lowercase(),
                one.to_ascii_lowercase(),
            ],
        }
    }

    /// Inputs of each accumulator: `planes · cells`.
    #[must_use]
    pub fn inputs(&self) -> usize {
        self.planes * self.cells
    }

    /// Lanes of each accumulator: the hidden units and the linear lane.
    #[must_use]
    pub fn lanes(&self) -> usize {
        self.hidden + 1
    }

    /// The active inputs of a position's cells, appended to `out` (cleared first), in cell
    /// order.
    pub fn active_inputs(&self, cells: &[u8], out: &mut Vec<u16>) {
        let table = self.plane_table();
        out.clear();
        for (i, &c) in cells.iter().enumerate() {
            let p = table[usize::from(c)];
            if p > 0 {
                out.push((usize::from(p - 1) * self.cells + i) as u16);
            }
        }
    }

    /// The plane of each cell byte, plus one (0: no input).
    fn plane_table(&self) -> [u8; 256] {
        let mut table = [0u8; 256];
        for (p, &letter) in self.letters.iter().take(self.planes).enumerate() {
            table[usize::from(letter)] = p as u8 + 1;
        }
        table
    }
}

/// A trained network: its shape and weights (see the module's documentation).
#[derive(Clone, PartialEq)]
pub struct Net {
    /// What it reads.
    pub shape: NetShape,
    /// The Texel `K` it was trained with: `σ(K v)` is the mover's chance.
    pub k: f32,
    /// First-layer weights: colour ZERO's view, then ONE's, each `inputs` rows of `lanes`.
    pub w1: Vec<f32>,
    /// First-layer biases: ZERO's view, then ONE's, `lanes` each.
    pub b1: Vec<f32>,
    /// Output weights: `hidden` for the mover's accumulator, then `hidden` for the other's.
    pub w2: Vec<f32>,
    /// Output bias.
    pub b2: f32,
    /// Weights of the game's feature differences (`shape.features` of them).
    pub u: Vec<f32>,
}

impl fmt::Debug for Net {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Net({}: {}×{}→{}×2→1)",
            self.shape.game, self.shape.planes, self.shape.cells, self.shape.hidden
        )
    }
}

impl Net {
    /// Refuses first-layer weights that some position could sum past [`ACC_LIMIT`] in fixed
    /// point: a lane's bias plus, for each cell, its largest weight over the planes (a cell
    /// holds at most one plane's piece), in absolute value. Such a net would wrap the
    /// accumulator and flip the sign of its value.
    fn check_accumulator(&self) -> Result<(), NetError> {
        let (cells, planes, lanes) = (self.shape.cells, self.shape.planes, self.shape.lanes());
        let inputs = self.shape.inputs();
        let q = f64::from(QUANTUM);
        for view in 0..2 {
            for lane in 0..lanes {
                let mut bound = f64::from(self.b1[view * lanes + lane].abs()) * q;
                for cell in 0..cells {
                    let largest = (0..planes)
                        .map(|p| self.w1[(view * inputs + p * cells + cell) * lanes + lane].abs())
                        .fold(0.0f32, f32::max);
                    bound += f64::from(largest) * q;
                }
                if bound > f64::from(ACC_LIMIT) {
                    return Err(NetError::Overflow {
                        view,
                        lane,
                        bound: bound as u64,
                    });
                }
            }
        }
        Ok(())
    }

    /// A net of `shape` with small random weights drawn from `rng` (uniform in
    /// `±1/(expected active inputs)` for the hidden lanes, so that units start unsaturated,
    /// `±1/√(2H)` for the output; the linear lane starts at 0), the start of training.
    pub fn random<R: Rng + ?Sized>(shape: NetShape, k: f32, rng: &mut R) -> Net {
        let (n, h, lanes) = (shape.inputs(), shape.hidden, shape.lanes());
        let first = 1.0 / (shape.cells as f32 / 2.0).max(1.0);
        let second = 1.0 / ((2 * h) as f32).sqrt();
        let mut draw = |scale: f32| (rng.random::<f32>() * 2.0 - 1.0) * scale;
        let mut lane = |i: usize, scale: f32, start: f32| {
            if i % lanes == h {
                0.0
            } else {
                start + draw(scale)
            }
        };
        let w1 = (0..2 * n * lanes).map(|i| lane(i, first, 0.0)).collect();
        let b1 = (0..2 * lanes).map(|i| lane(i, 0.1, 0.5)).collect();
        let w2 = (0..2 * h).map(|_| draw(second)).collect();
        let u = vec![0.0; shape.features];
        Net {
            shape,
            k,
            w1,
            b1,
            w2,
            b2: 0.0,
            u,
        }
    }

    /// The value for the mover (`mover`: 0 or 1) of the position with these active inputs
    /// and feature differences from the mover's view (`shape.features` of them), in floating
    /// point (what training computes); `acc` (`2 · lanes` long) receives the two accumulators
    /// before the clip, the mover's first, for the gradient.
    pub fn forward(&self, active: &[u16], mover: usize, features: &[f32], acc: &mut [f32]) -> f32 {
        let (h, lanes) = (self.shape.hidden, self.shape.lanes());
        let n = self.shape.inputs();
        for view in 0..2 {
            let slot = if view == mover { 0 } else { lanes };
            let a = &mut acc[slot..slot + lanes];
            a.copy_from_slice(&self.b1[view * lanes..(view + 1) * lanes]);
            for &f in active {
                let row = (view * n + usize::from(f)) * lanes;
                for (x, w) in a.iter_mut().zip(&self.w1[row..row + lanes]) {
                    *x += w;
                }
            }
        }
        let hidden = |slot: usize, w2: &[f32]| {
            acc[slot..slot + h]
                .iter()
                .zip(w2)
                .map(|(&a, &w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>()
        };
        let linear: f32 = self.u.iter().zip(features).map(|(u, d)| u * d).sum();
        self.b2
            + hidden(0, &self.w2[..h])
            + hidden(lanes, &self.w2[h..])
            + (acc[h] - acc[lanes + h]) / 2.0
            + linear
    }

    /// The net in its file format.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let s = &self.shape;
        let mut out = Vec::with_capacity(64 + 4 * (self.w1.len() + 4 * s.hidden));
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&(s.game.len() as u32).to_le_bytes());
        out.extend_from_slice(s.game.as_bytes());
        for v in [s.cells, s.planes, s.hidden] {
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
        out.extend_from_slice(&s.letters);
        out.extend_from_slice(&self.k.to_le_bytes());
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out.extend_from_slice(&(self.u.len() as u32).to_le_bytes());
        for v in &self.u {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// Reads a net from its file format, checking its shape and that every weight is finite.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        let mut r = Reader::new(bytes);
        if r.take(8)? != MAGIC {
            return Err(NetError::NotANet);
        }
        let len = r.u32()? as usize;
        let game = String::from_utf8(r.take(len)?.to_vec()).map_err(|_| NetError::GameNotText)?;
        if game.chars().any(char::is_control) {
            return Err(NetError::GameNotText);
        }
        let (cells, planes, hidden) = (r.u32()? as usize, r.u32()? as usize, r.u32()? as usize);
        if cells == 0 || cells * 4 > usize::from(u16::MAX) || !(planes == 2 || planes == 4) {
            return Err(NetError::Board { cells, planes });
        }
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        let letters: [u8; 4] = r.take(4)?.try_into().expect("four bytes");
        let k = r.f32()?;
        let mut shape = NetShape {
            game,
            cells,
            planes,
            hidden,
            letters,
            features: 0,
        };
        let mut floats = |n: usize| (0..n).map(|_| r.f32()).collect::<Result<Vec<f32>, _>>();
        let w1 = floats(2 * shape.inputs() * shape.lanes())?;
        let b1 = floats(2 * shape.lanes())?;
        let w2 = floats(2 * hidden)?;
        let b2 = r.f32()?;
        shape.features = r.u32()? as usize;
        if shape.features > ringside_engine::MAX_FEATURES {
            return Err(NetError::Features(shape.features));
        }
        let u = (0..shape.features)
            .map(|_| r.f32())
            .collect::<Result<Vec<f32>, _>>()?;
        if r.left() != 0 {
            return Err(NetError::Trailing(r.left()));
        }
        let net = Net {
            shape,
            k,
            w1,
            b1,
            w2,
            b2,
            u,
        };
        let all = net.w1.iter().chain(&net.b1).chain(&net.w2).chain(&net.u);
        if !k.is_finite() || k <= 0.0 || !b2.is_finite() || !all.into_iter().all(|w| w.is_finite())
        {
            return Err(NetError::NotFinite);
        }
        net.check_accumulator()?;
        Ok(net)
    }
}

/// Why a net file or a net was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// The bytes do not start with [`MAGIC`].
    NotANet,
    /// The file ends before the net does.
    EndsEarly,
    /// Bytes follow the net's last weight.
    Trailing(usize),
    /// The game's spec in the file is not UTF-8.
    GameNotText,
    /// A board of this many cells and planes (cells 1 to 16383, planes 2 or 4).
    Board {
        /// Cells the file names.
        cells: usize,
        /// Input planes the file names.
        planes: usize,
    },
    /// A hidden layer of this width (1 to [`MAX_HIDDEN`]).
    Hidden(usize),
    /// More features than [`MAX_FEATURES`].
    Features(usize),
    /// A weight, or K, that is not a finite number (K must also be above 0).
    NotFinite,
    /// First-layer weights whose sum over a position could leave the fixed-point accumulator.
    Overflow {
        /// The view (0 or 1).
        view: usize,
        /// The lane (hidden unit; the last is the linear lane).
        lane: usize,
        /// The largest sum a position could give, in fixed point.
        bound: u64,
    },
    /// The net reads another game or board than the one it is to evaluate.
    OtherGame {
        /// The game the net reads.
        net_game: String,
        /// Its cells.
        net_cells: usize,
        /// The game to evaluate.
        game: String,
        /// Its cells.
        cells: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NotANet => write!(
                f,
                "not a Ringside net (version 1): the file does not start with RSNET"
            ),
            NetError::EndsEarly => write!(f, "the net file ends early"),
            NetError::Trailing(n) => write!(f, "{n} bytes after the net's last weight"),
            NetError::GameNotText => write!(
                f,
                "the game's spec is not UTF-8 text on one line (no control characters)"
            ),
            NetError::Overflow { view, lane, bound } => write!(
                f,
                "first-layer weights too large: hidden unit {lane} of view {view} could sum to {bound:.3e} in fixed point, past the accumulator's ±{:.3e}",
                f64::from(ACC_LIMIT)
            ),
            NetError::Board { cells, planes } => write!(
                f,
                "a net of {cells} cells and {planes} planes (cells 1 to 16383, planes 2 or 4)"
            ),
            NetError::Hidden(h) => write!(f, "a hidden width of {h} (1 to {MAX_HIDDEN})"),
            NetError::Features(n) => write!(f, "{n} features (at most {MAX_FEATURES})"),
            NetError::NotFinite => write!(f, "a weight or K is not a finite number"),
            NetError::OtherGame {
                net_game,
                net_cells,
                game,
                cells,
            } => write!(
                f,
                "the net reads {net_game} ({net_cells} cells), not {game} ({cells} cells)"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// Reads little-endian values from a byte slice (net and move-prior files).
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    /// The bytes not yet read.
    pub(crate) fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&[u8], NetError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(NetError::EndsEarly)?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    pub(crate) fn u32(&mut self) -> Result<u32, NetError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }

    pub(crate) fn f32(&mut self) -> Result<f32, NetError> {
        Ok(f32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }
}

/// A [`Reader`] whose errors are phrases naming what the file ended inside (`"the file ends
/// inside layer 2"`), and that refuses numbers that are not finite: what the convolutional
/// networks' files (`movenet`, `pvnet`) read through.
pub(crate) struct Named<'a>(pub(crate) Reader<'a>);

impl Named<'_> {
    fn ended(what: &str) -> impl Fn(NetError) -> String + '_ {
        move |_| format!("the file ends inside {what}")
    }

    /// The next `n` bytes, inside `what`.
    pub(crate) fn take(&mut self, n: usize, what: &str) -> Result<&[u8], String> {
        self.0.take(n).map_err(Self::ended(what))
    }

    /// The next u32, inside `what`.
    pub(crate) fn u32(&mut self, what: &str) -> Result<usize, String> {
        self.0.u32().map(|v| v as usize).map_err(Self::ended(what))
    }

    /// The next `n` f32s, inside `what`, every one finite.
    pub(crate) fn f32s(&mut self, n: usize, what: &str) -> Result<Vec<f32>, String> {
        let v: Vec<f32> = (0..n)
            .map(|_| self.0.f32())
            .collect::<Result<_, _>>()
            .map_err(Self::ended(what))?;
        if v.iter().all(|x| x.is_finite()) {
            Ok(v)
        } else {
            Err(format!("{what} holds a value that is not finite"))
        }
    }

    /// The bytes not yet read.
    pub(crate) fn left(&self) -> usize {
        self.0.left()
    }
}

/// The FNV-1a hash of a net file's bytes: the name specs record a net by.
#[must_use]
pub fn content_id(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A net ready to evaluate positions of its game: the first layer in fixed point, and the
/// last position's cells and accumulators for the next evaluation's update.
#[derive(Debug, Clone)]
pub struct NetEvaluator {
    net: Arc<Quantized>,
    last: RefCell<Last>,
}

/// The first layer in fixed point, with the plane of each cell byte.
#[derive(Debug)]
struct Quantized {
    hidden: usize,
    lanes: usize,
    cells: usize,
    inputs: usize,
    table: [u8; 256],
    w1: Vec<i32>,
    b1: Vec<i32>,
    w2: Vec<f32>,
    b2: f32,
    u: Vec<f64>,
}

/// The last position evaluated: its cells and the two views' accumulators, with room for the
/// next position's cells and the cells that differ.
#[derive(Debug, Clone, Default)]
struct Last {
    cells: Vec<u8>,
    fresh: Vec<u8>,
    changed: Vec<u16>,
    acc: Vec<i32>,
}

/// Gathers into `changed` (cleared first) the cells where `old` and `new`, of one length,
/// differ, comparing eight at a time; false, with `changed` incomplete, once more than `most`
/// differ (a fresh start is then cheaper than the changes). Allocates nothing once `changed`
/// has grown.
fn changed_cells(old: &[u8], new: &[u8], most: usize, changed: &mut Vec<u16>) -> bool {
    changed.clear();
    if old.len() > usize::from(u16::MAX) + 1 {
        return false;
    }
    let mut differ = |at: usize, a: &[u8], b: &[u8]| {
        for (j, (x, y)) in a.iter().zip(b).enumerate() {
            if x != y {
                changed.push((at + j) as u16);
            }
        }
        changed.len() <= most
    };
    let (olds, news) = (old.chunks_exact(8), new.chunks_exact(8));
    let tail = olds.remainder().len();
    for (c, (a, b)) in olds.zip(news).enumerate() {
        let word = |w: &[u8]| u64::from_ne_bytes(w.try_into().expect("eight bytes"));
        if word(a) != word(b) && !differ(c * 8, a, b) {
            return false;
        }
    }
    let at = old.len() - tail;
    differ(at, &old[at..], &new[at..])
}

impl NetEvaluator {
    /// An evaluator of `net` for the game of `state`; refused when the net reads another game
    /// or another board.
    pub fn new<G: Features>(net: &Net, state: &G) -> Result<NetEvaluator, NetError> {
        let expected = NetShape::of(state, net.shape.hidden, net.shape.planes == 4);
        let features = state.feature_set().len();
        if expected.game != net.shape.game
            || !(net.shape.features == 0 || net.shape.features == features)
            || expected.cells != net.shape.cells
            || expected.letters[..net.shape.planes] != net.shape.letters[..net.shape.planes]
        {
            return Err(NetError::OtherGame {
                net_game: net.shape.game.clone(),
                net_cells: net.shape.cells,
                game: expected.game,
                cells: expected.cells,
            });
        }
        let fixed = |w: &f32| (w * QUANTUM).round() as i32;
        let quantized = Quantized {
            hidden: net.shape.hidden,
            lanes: net.shape.lanes(),
            cells: net.shape.cells,
            inputs: net.shape.inputs(),
            table: net.shape.plane_table(),
            w1: net.w1.iter().map(fixed).collect(),
            b1: net.b1.iter().map(fixed).collect(),
            w2: net.w2.iter().map(|w| w / QUANTUM).collect(),
            b2: net.b2,
            u: net.u.iter().map(|&u| f64::from(u)).collect(),
        };
        Ok(NetEvaluator {
            net: Arc::new(quantized),
            last: RefCell::new(Last::default()),
        })
    }

    /// The value of `state` for `player`, in material units: the net's value for the mover,
    /// negated for the other (for a finished state, `player` is taken as the mover).
    #[must_use]
    pub fn evaluate<G: Features>(&self, state: &G, player: Player) -> f64 {
        let net = &self.net;
        let mut last = self.last.borrow_mut();
        let last = &mut *last;
        state.write_cells(&mut last.fresh);
        if last.cells.len() == last.fresh.len()
            && changed_cells(&last.cells, &last.fresh, net.cells / 4, &mut last.changed)
        {
            for &i in &last.changed {
                let i = usize::from(i);
                net.replace(i, last.cells[i], last.fresh[i], &mut last.acc);
            }
        } else {
            net.refresh(&last.fresh, &mut last.acc);
        }
        std::mem::swap(&mut last.cells, &mut last.fresh);
        let mover = state.to_move().unwrap_or(player);
        let mut v = f64::from(net.output(&last.acc, mover.index()));
        if !net.u.is_empty() {
            let (mut mine, mut theirs) = ([0.0; MAX_FEATURES], [0.0; MAX_FEATURES]);
            state.features(mover, &mut mine);
            state.features(mover.other(), &mut theirs);
            for (i, u) in net.u.iter().enumerate() {
                v += u * f64::from((mine[i] - theirs[i]) as f32);
            }
        }
        if mover == player { v } else { -v }
    }
}

impl Quantized {
    /// Both views' accumulators from nothing.
    fn refresh(&self, cells: &[u8], acc: &mut Vec<i32>) {
        acc.clear();
        acc.extend_from_slice(&self.b1);
        for (i, &c) in cells.iter().enumerate() {
            self.change(i, c, 1, acc);
        }
    }

    /// Replaces, in both views, the input of cell `i` holding byte `old` by that of `new`.
    #[inline]
    fn replace(&self, i: usize, old: u8, new: u8, acc: &mut [i32]) {
        let (p, q) = (self.table[usize::from(old)], self.table[usize::from(new)]);
        if p == 0 || q == 0 {
            self.change(i, old, -1, acc);
            self.change(i, new, 1, acc);
            return;
        }
        let (from, to) = (
            usize::from(p - 1) * self.cells + i,
            usize::from(q - 1) * self.cells + i,
        );
        let lanes = self.lanes;
        for view in 0..2 {
            let (from, to) = (
                (view * self.inputs + from) * lanes,
                (view * self.inputs + to) * lanes,
            );
            let a = &mut acc[view * lanes..(view + 1) * lanes];
            let (gone, come) = (&self.w1[from..from + lanes], &self.w1[to..to + lanes]);
            for ((x, &g), &c) in a.iter_mut().zip(gone).zip(come) {
                *x += c - g;
            }
        }
    }

    /// Adds (`sign` 1) or removes (−1) the input of cell `i` holding byte `c`, in both views.
    #[inline]
    fn change(&self, i: usize, c: u8, sign: i32, acc: &mut [i32]) {
        let p = self.table[usize::from(c)];
        if p == 0 {
            return;
        }
        let f = usize::from(p - 1) * self.cells + i;
        let lanes = self.lanes;
        for view in 0..2 {
            let row = (view * self.inputs + f) * lanes;
            let a = &mut acc[view * lanes..(view + 1) * lanes];
            for (x, &w) in a.iter_mut().zip(&self.w1[row..row + lanes]) {
                *x += sign * w;
            }
        }
    }

    /// The output for mover `mover` from the accumulators.
    #[inline]
    fn output(&self, acc: &[i32], mover: usize) -> f32 {
        let h = self.hidden;
        let (zero, one) = acc.split_at(self.lanes);
        let (mine, theirs) = if mover == 0 { (zero, one) } else { (one, zero) };
        let clip = |a: &i32| (*a).clamp(0, QUANTUM as i32) as f32;
        let first: f32 = mine[..h]
            .iter()
            .map(clip)
            .zip(&self.w2[..h])
            .map(|(a, w)| a * w)
            .sum();
        let second: f32 = theirs[..h]
            .iter()
            .map(clip)
            .zip(&self.w2[h..])
            .map(|(a, w)| a * w)
            .sum();
        let linear = (mine[h] - theirs[h]) as f32 / (2.0 * QUANTUM);
        self.b2 + first + second + linear
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ringside_engine::games::havannah::Havannah;
    use ringside_engine::seeded_rng;

    fn small_net<G: Game>(state: &G) -> Net {
        let shape = NetShape::of(state, 8, false);
        Net::random(shape, 0.5, &mut seeded_rng(3, 0))
    }

    #[test]
    fn a_net_reads_back_from_its_bytes_exactly() {
        let game = Havannah::new(4, false).unwrap();
        let net = small_net(&game);
        let bytes = net.to_bytes();
        let back = Net::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(content_id(&back.to_bytes()), content_id(&bytes));
        let mut other = net.clone();
        other.b2 = 0.5;
        assert_ne!(content_id(&other.to_bytes()), content_id(&bytes));
    }

    #[test]
    fn broken_net_files_are_refused_with_a_reason() {
        let game = Havannah::new(4, false).unwrap();
        let bytes = small_net(&game).to_bytes();
        let short = Net::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
        assert_eq!(short, NetError::EndsEarly);
        assert!(short.to_string().contains("ends early"), "{short}");
        let long = Net::from_bytes(&[bytes.as_slice(), &[0]].concat()).unwrap_err();
        assert_eq!(long, NetError::Trailing(1));
        let wrong = Net::from_bytes(b"PK\x03\x04 not a net").unwrap_err();
        assert!(wrong.to_string().contains("not a Ringside net"), "{wrong}");
        let mut nan = small_net(&game);
        nan.w2[3] = f32::NAN;
        let nan = Net::from_bytes(&nan.to_bytes()).unwrap_err();
        assert_eq!(nan, NetError::NotFinite);
        // A game name on two lines would make a two-line error of every message naming it.
        let mut two_lines = small_net(&game);
        two_lines.shape.game = "havannah:size=4\nsecond line".into();
        let err = Net::from_bytes(&two_lines.to_bytes()).unwrap_err();
        assert_eq!(err, NetError::GameNotText);
    }

    #[test]
    fn first_layer_weights_that_could_wrap_the_accumulator_are_refused() {
        let game = Havannah::new(4, false).unwrap();
        let lanes = small_net(&game).shape.lanes();
        // 8e4 in fixed point is 3.3e8 a cell: 37 cells of it pass the accumulator's limit
        // (2^30), and would wrap it; 5e3 a cell (7.6e8 in all) does not.
        for (w, refused) in [(8e4f32, true), (5e3, false)] {
            let mut net = small_net(&game);
            for (i, x) in net.w1.iter_mut().enumerate() {
                if i % lanes == 2 {
                    *x = w;
                }
            }
            let read = Net::from_bytes(&net.to_bytes());
            assert_eq!(read.is_err(), refused, "{w}: {read:?}");
            if let Err(e) = read {
                assert!(matches!(e, NetError::Overflow { lane: 2, .. }), "{e}");
                assert!(e.to_string().contains("too large"), "{e}");
            }
        }
    }

    #[test]
    fn a_net_for_another_board_is_refused() {
        let net = small_net(&Havannah::new(4, false).unwrap());
        let err = NetEvaluator::new(&net, &Havannah::new(5, false).unwrap()).unwrap_err();
        assert!(
            matches!(&err, NetError::OtherGame { net_cells: 37, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("havannah:size=4"), "{err}");
    }

    #[test]
    fn the_evaluation_is_the_float_forward_pass_for_the_mover_and_its_negation_for_the_other() {
        let game = Havannah::new(4, false).unwrap();
        let mut net = small_net(&game);
        // Give the linear lane weights, which a fresh net has not.
        let lanes = net.shape.lanes();
        for (i, w) in net
            .w1
            .iter_mut()
            .enumerate()
            .filter(|(i, _)| i % lanes == 8)
        {
            *w = (i % 7) as f32 / 10.0 - 0.3;
        }
        let eval = NetEvaluator::new(&net, &game).unwrap();
        let (mut state, mut rng, mut scratch) = (game.clone(), seeded_rng(8, 0), Vec::new());
        let (mut cells, mut active, mut acc) = (Vec::new(), Vec::new(), vec![0.0; 18]);
        while let Some(mover) = state.to_move() {
            state.write_cells(&mut cells);
            net.shape.active_inputs(&cells, &mut active);
            let float = f64::from(net.forward(&active, mover.index(), &[], &mut acc));
            let fixed = eval.evaluate(&state, mover);
            assert!((float - fixed).abs() < 1e-3, "{float} against {fixed}");
            assert_eq!(eval.evaluate(&state, mover.other()), -fixed);
            let mv = state.random_move(&mut rng, &mut scratch).unwrap();
            state.play(mv);
        }
    }

    #[test]
    fn an_incremental_evaluation_equals_a_fresh_one_bit_for_bit() {
        let game = Havannah::new(5, false).unwrap();
        let net = small_net(&game);
        let running = NetEvaluator::new(&net, &game).unwrap();
        let (mut rng, mut scratch) = (seeded_rng(9, 0), Vec::new());
        let mut positions = vec![game.clone()];
        let mut state = game.clone();
        while let Some(mv) = state.random_move(&mut rng, &mut scratch) {
            state.play(mv);
            positions.push(state.clone());
        }
        // In game order (one cell a step), then jumping about (many cells at once).
        let jumps = (0..positions.len()).map(|i| (i * 7) % positions.len());
        for i in (0..positions.len()).chain(jumps) {
            let p = &positions[i];
            let fresh = NetEvaluator::new(&net, &game).unwrap();
            assert_eq!(
                running.evaluate(p, Player::ZERO).to_bits(),
                fresh.evaluate(p, Player::ZERO).to_bits(),
                "position {i}"
            );
        }
    }

    #[test]
    fn the_changed_cells_are_those_that_differ_and_too_many_ask_for_a_fresh_start() {
        let mut rng = seeded_rng(11, 0);
        let mut changed = Vec::new();
        for len in [0, 1, 7, 8, 9, 61, 64, 361] {
            for flips in [0, 1, 3, len / 4, len].into_iter().filter(|&f| f <= len) {
                let old: Vec<u8> = (0..len).map(|_| b".BW"[rng.random_range(0..3)]).collect();
                let mut new = old.clone();
                for _ in 0..flips {
                    let i = rng.random_range(0..len);
                    new[i] = if new[i] == b'.' { b'B' } else { b'.' };
                }
                let differ: Vec<u16> = (0..len)
                    .filter(|&i| old[i] != new[i])
                    .map(|i| i as u16)
                    .collect();
                let most = len / 4;
                let complete = changed_cells(&old, &new, most, &mut changed);
                assert_eq!(
                    complete,
                    differ.len() <= most,
                    "length {len}, {flips} flips"
                );
                if complete {
                    assert_eq!(changed, differ, "length {len}, {flips} flips");
                }
            }
        }
    }
}
