//! A policy-value network for PUCT search (`mcts:pv=FILE`, issue 102): for a grid game's
//! position ([`Features::grid_planes`]) a logit for every grid cell (the move that fills it),
//! a logit for the one move that fills no cell (Havannah's and Hex's swap, Othello's pass),
//! and the position's value for the player to move in `[−1, 1]`. Trained in PyTorch by
//! `python/py/ringside/zero.py` on self-play games; this module only evaluates it.
//!
//! # The network
//! A trunk of [`crate::conv`] layers over the [`GRID_PLANES`] input planes: 3×3 convolutions
//! with seven taps on a hex grid and nine on a square one, ReLU, and every layer after the
//! first adding its input back. Then three heads on the trunk's output `h`:
//! - **policy**: a 1×1 convolution, one logit a cell, `w_p·h(cell) + b_p`;
//! - **the other move**: `w_o·m + b_o`, with `m` the mean of `h` over the board's cells
//!   (input plane 3);
//! - **value**: `tanh(w_2·relu(W_1·m + b_1) + b_2)`.
//!
//! The whole square grid is computed, cells off the board included, as PyTorch computes it.
//!
//! # The file
//! Little-endian: the 8 bytes `RSPVN\0\0\1` (format version 1); u32 planes, taps (7 or 9),
//! layers, channels `C` and the value head's hidden width `H`; for each layer its f32 weights
//! in PyTorch's order (`[C][inputs][3][3]`, taps not read included) and its `C` biases; the
//! policy head's `C` weights and bias; the other move's `C` weights and bias; `W_1` (`[H][C]`),
//! `b_1` (`H`), `w_2` (`H`) and `b_2`. A file is named by the FNV-1a hash of its bytes
//! ([`crate::net::content_id`]).

use ringside_engine::{CellShape, Features, GRID_PLANES, Game};

use crate::conv::{HEX_TAPS, Layer, SQUARE_TAPS, check_trunk, conv, dot, read_trunk};

/// The first bytes of a policy-value file: the format's name and version.
pub const MAGIC: [u8; 8] = *b"RSPVN\0\0\x01";

/// A policy-value network read from a file.
#[derive(Debug, Clone, PartialEq)]
pub struct PvNet {
    hex: bool,
    channels: usize,
    hidden: usize,
    layers: Vec<Layer>,
    policy: Vec<f32>,
    policy_bias: f32,
    other: Vec<f32>,
    other_bias: f32,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl PvNet {
    /// Reads a policy-value file's bytes; an error says what is wrong in one phrase.
    pub fn read(bytes: &[u8]) -> Result<PvNet, String> {
        let mut r = crate::net::Named(crate::net::Reader::new(bytes));
        if r.take(8, "the header").ok() != Some(&MAGIC[..]) {
            return Err("not a policy-value network (RSPVN version 1)".into());
        }
        let planes = r.u32("the header")?;
        let taps = r.u32("the header")?;
        let depth = r.u32("the header")?;
        let channels = r.u32("the header")?;
        let hidden = r.u32("the header")?;
        if planes != GRID_PLANES {
            return Err(format!(
                "{planes} input planes, not the {GRID_PLANES} games write"
            ));
        }
        let hex = match taps {
            7 => true,
            9 => false,
            _ => return Err(format!("{taps} taps a kernel: 7 (hex) or 9 (square)")),
        };
        check_trunk(depth, channels)?;
        if hidden == 0 || hidden > 4096 {
            return Err(format!("a value head of {hidden}: out of range"));
        }
        let tap_list: &[(i32, i32)] = if hex { &HEX_TAPS } else { &SQUARE_TAPS };
        let layers = read_trunk(&mut r, tap_list, planes, depth, channels)?;
        let policy = r.f32s(channels, "the policy head")?;
        let policy_bias = r.f32s(1, "the policy head")?[0];
        let other = r.f32s(channels, "the other move's head")?;
        let other_bias = r.f32s(1, "the other move's head")?[0];
        let w1 = r.f32s(hidden * channels, "the value head")?;
        let b1 = r.f32s(hidden, "the value head")?;
        let w2 = r.f32s(hidden, "the value head")?;
        let b2 = r.f32s(1, "the value head")?[0];
        if r.left() > 0 {
            return Err(format!("{} bytes after the value head", r.left()));
        }
        Ok(PvNet {
            hex,
            channels,
            hidden,
            layers,
            policy,
            policy_bias,
            other,
            other_bias,
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// The number of trunk layers and their channels.
    pub fn shape(&self) -> (usize, usize) {
        (self.layers.len(), self.channels)
    }

    /// Why this network cannot play `state`'s game, if it cannot: a game without a grid, or
    /// a kernel for the other kind of cell.
    pub fn refuses<G: Game + Features>(&self, state: &G) -> Option<String> {
        if state.grid_side().is_none() {
            return Some(format!("{} has no grid for a network", state.name()));
        }
        let hex = state.cell_shape() == CellShape::Hex;
        (hex != self.hex).then(|| {
            format!(
                "the network's kernel is for {} cells, {}'s are {}",
                if self.hex { "hex" } else { "square" },
                state.name(),
                if hex { "hex" } else { "square" }
            )
        })
    }
}

/// What the network says of a position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PvOutput<'a> {
    /// The logit of every grid cell (`x + side·y`).
    pub cells: &'a [f32],
    /// The logit of the move that fills no cell.
    pub other: f32,
    /// The position's value for the player to move, in `[−1, 1]`.
    pub value: f32,
}

/// The buffers of one evaluator: grown to a board's size once, then reused.
#[derive(Debug, Clone, Default)]
pub struct PvEval {
    /// The grid cells and channels the buffers are sized for.
    sized_for: (usize, usize, usize),
    input: Vec<f32>,
    planes: Vec<f32>,
    h: Vec<f32>,
    next: Vec<f32>,
    logits: Vec<f32>,
    pooled: Vec<f32>,
    hidden: Vec<f32>,
}

impl PvEval {
    /// The network's output for `state`, or `None` for a game without a grid. Allocates
    /// only when the grid's side or the network's widths change.
    pub fn evaluate<'a, G: Features>(&'a mut self, net: &PvNet, state: &G) -> Option<PvOutput<'a>> {
        let side = state.grid_side()?;
        let cells = side * side;
        let c = net.channels;
        if self.sized_for != (cells, c, net.hidden) {
            self.sized_for = (cells, c, net.hidden);
            self.input.resize(GRID_PLANES * cells, 0.0);
            self.planes.resize(GRID_PLANES * cells, 0.0);
            self.h.resize(cells * c, 0.0);
            self.next.resize(cells * c, 0.0);
            self.logits.resize(cells, 0.0);
            self.pooled.resize(c, 0.0);
            self.hidden.resize(net.hidden, 0.0);
        }
        state.grid_planes(&mut self.input);
        // The planes cell by cell, as the first layer reads them.
        for p in 0..GRID_PLANES {
            for cell in 0..cells {
                self.planes[cell * GRID_PLANES + p] = self.input[p * cells + cell];
            }
        }
        let taps: &[(i32, i32)] = if net.hex { &HEX_TAPS } else { &SQUARE_TAPS };
        conv(
            taps,
            &net.layers[0],
            &self.planes,
            &mut self.h,
            side,
            c,
            false,
        );
        for layer in &net.layers[1..] {
            conv(taps, layer, &self.h, &mut self.next, side, c, true);
            std::mem::swap(&mut self.h, &mut self.next);
        }
        self.pooled.fill(0.0);
        let mut on_board = 0.0f32;
        for cell in 0..cells {
            let h = &self.h[cell * c..(cell + 1) * c];
            self.logits[cell] = net.policy_bias + dot(&net.policy, h);
            if self.input[3 * cells + cell] != 0.0 {
                on_board += 1.0;
                for (m, &v) in self.pooled.iter_mut().zip(h) {
                    *m += v;
                }
            }
        }
        for m in &mut self.pooled {
            *m /= on_board.max(1.0);
        }
        for (j, z) in self.hidden.iter_mut().enumerate() {
            *z = (net.b1[j] + dot(&net.w1[j * c..(j + 1) * c], &self.pooled)).max(0.0);
        }
        Some(PvOutput {
            cells: &self.logits,
            other: net.other_bias + dot(&net.other, &self.pooled),
            value: (net.b2 + dot(&net.w2, &self.hidden)).tanh(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ringside_engine::games::connect_four::{ConnectFour, Shape};
    use ringside_engine::games::havannah::Havannah;

    /// Connect Four of a spec `connect_four[:rows=R,columns=C]`.
    fn connect_four(spec: &str) -> ConnectFour {
        let mut shape = (6, 7);
        for option in spec.split(&[':', ','][..]).skip(1) {
            let (key, value) = option.split_once('=').unwrap();
            match key {
                "rows" => shape.0 = value.parse().unwrap(),
                "columns" => shape.1 = value.parse().unwrap(),
                _ => unreachable!("{key}"),
            }
        }
        ConnectFour::with_shape(Shape::new(shape.0, shape.1, 4).unwrap())
    }

    const SQUARE: &[u8] = include_bytes!("../tests/data/pvnet-fixture-square.rspvn");
    const SQUARE_EXPECTED: &str = include_str!("../tests/data/pvnet-fixture-square.txt");
    const HEX: &[u8] = include_bytes!("../tests/data/pvnet-fixture-hex.rspvn");
    const HEX_EXPECTED: &str = include_str!("../tests/data/pvnet-fixture-hex.txt");

    /// Checks every line of a fixture: the position (a game spec and its moves), then
    /// PyTorch's value, other-move logit and cell logits. Returns the positions checked.
    fn check<G: Game + Features>(net: &PvNet, expected: &str, game: impl Fn(&str) -> G) -> usize {
        let mut eval = PvEval::default();
        let mut checked = 0;
        for line in expected.lines().filter(|l| !l.starts_with('#')) {
            let (position, numbers) = line.split_once('|').unwrap();
            let mut words = position.split_whitespace();
            let mut state = game(words.next().unwrap());
            assert!(net.refuses(&state).is_none());
            for m in words {
                let mv = state.parse_move(m).unwrap();
                state.play(mv);
            }
            let want: Vec<f32> = numbers
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect();
            let got = eval.evaluate(net, &state).unwrap();
            let close = |g: f32, w: f32, what: &str| {
                assert!(
                    (g - w).abs() < 1e-4 * w.abs().max(1.0),
                    "{position}: {what} {g} against {w}"
                );
            };
            close(got.value, want[0], "value");
            close(got.other, want[1], "other");
            assert_eq!(got.cells.len(), want.len() - 2);
            for (cell, (&g, &w)) in got.cells.iter().zip(&want[2..]).enumerate() {
                close(g, w, &format!("cell {cell}"));
            }
            checked += 1;
        }
        checked
    }

    #[test]
    fn outputs_equal_pytorchs_on_connect_four_boards_and_havannah_boards() {
        // tools/pvnet-fixture.py: random networks, PyTorch's outputs (python/tests checks
        // the same files against the trainer's model).
        let square = PvNet::read(SQUARE).unwrap();
        assert_eq!(square.shape(), (3, 5));
        assert_eq!(check(&square, SQUARE_EXPECTED, connect_four), 4);
        let hex = PvNet::read(HEX).unwrap();
        let havannah = |spec: &str| {
            let size = spec
                .strip_prefix("havannah:size=")
                .unwrap()
                .parse()
                .unwrap();
            Havannah::new(size, false).unwrap()
        };
        assert_eq!(check(&hex, HEX_EXPECTED, havannah), 4);
    }

    #[test]
    fn a_network_refuses_a_game_of_the_other_cells_or_without_a_grid() {
        let square = PvNet::read(SQUARE).unwrap();
        let hex = PvNet::read(HEX).unwrap();
        let havannah = Havannah::new(4, false).unwrap();
        let c4 = ConnectFour::new();
        assert!(
            square
                .refuses(&havannah)
                .unwrap()
                .contains("for square cells")
        );
        assert!(hex.refuses(&c4).unwrap().contains("for hex cells"));
        let rin = ringside_engine::games::rin::Rin::default();
        assert!(square.refuses(&rin).unwrap().contains("no grid"));
        assert!(PvEval::default().evaluate(&square, &rin).is_none());
    }

    #[test]
    fn a_damaged_file_is_refused_saying_what_is_wrong() {
        let err = |bytes: &[u8]| PvNet::read(bytes).unwrap_err();
        assert!(err(b"RSPOL\0\0\x01").contains("not a policy-value network"));
        assert!(err(&SQUARE[..SQUARE.len() - 2]).contains("ends inside the value head"));
        assert!(err(&SQUARE[..100]).contains("ends inside layer 1"));
        let mut longer = SQUARE.to_vec();
        longer.push(0);
        assert!(err(&longer).contains("1 bytes after the value head"));
        let patched = |at: usize, v: u32| {
            let mut b = SQUARE.to_vec();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            err(&b)
        };
        assert!(patched(8, 8).contains("8 input planes"));
        assert!(patched(12, 8).contains("8 taps a kernel"));
        assert!(patched(16, 0).contains("0 layers of 5 channels: out of range"));
        assert!(patched(20, 1025).contains("3 layers of 1025 channels: out of range"));
        assert!(patched(24, 0).contains("a value head of 0: out of range"));
        let mut nan = SQUARE.to_vec();
        nan[40..44].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(err(&nan).contains("layer 1 holds a value that is not finite"));
    }

    #[test]
    fn one_evaluator_reused_across_boards_gives_a_fresh_ones_outputs() {
        let net = PvNet::read(SQUARE).unwrap();
        let boards = [
            "connect_four",
            "connect_four:rows=4,columns=5",
            "connect_four:rows=9,columns=9",
        ]
        .map(connect_four);
        let mut shared = PvEval::default();
        for _ in 0..2 {
            for b in &boards {
                let mut fresh = PvEval::default();
                let want = fresh.evaluate(&net, b).unwrap();
                let (cells, other, value) = (want.cells.to_vec(), want.other, want.value);
                let got = shared.evaluate(&net, b).unwrap();
                assert_eq!(
                    (got.cells, got.other, got.value),
                    (&cells[..], other, value)
                );
            }
        }
    }
}
