//! A learned move prior: a small hex-convolutional network that scores every cell of a grid
//! game's board ([`Features::grid_planes`]) as the next move, trained by `tools/policy_net.py`
//! to predict a strong player's moves. MCTS reads it as a prior probability (`movenet=FILE`).
//!
//! # The network
//! The input is [`GRID_PLANES`] planes of the `side × side` grid. Each layer is a 3×3
//! convolution (zero padding) whose corners `(dx, dy) = (1, −1)` and `(−1, 1)` are zero, so
//! that on Havannah's axial grid it reads a cell and its six neighbours; ReLU follows each,
//! and every layer after the first adds its input back (`h ← h + relu(conv h)`). A 1×1
//! convolution then gives one logit a cell. The prior of a legal move is its cell's softmax
//! share over the legal moves' cells. The whole square is computed, cells off the board
//! included, as the trainer (PyTorch's `conv2d`) computes it, so the logits agree with it.
//!
//! # The file
//! Little-endian: the 8 bytes `RSPOL\0\0\1` (format version 1); u32 planes, layers and
//! channels `C`; for each layer its f32 weights in PyTorch's order (`[C][inputs][3][3]`, the
//! corners included and ignored) and its `C` biases; then the head's `C` weights and its bias.
//! A file is named by the FNV-1a hash of its bytes ([`crate::net::content_id`]).

use ringside_engine::{Features, GRID_PLANES};

/// The first bytes of a move-prior file: the format's name and version.
pub const MAGIC: [u8; 8] = *b"RSPOL\0\0\x01";

use crate::conv::{HEX_TAPS, Layer, check_trunk, conv, dot, read_trunk};

/// A move-prior network read from a file.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveNet {
    channels: usize,
    layers: Vec<Layer>,
    head: Vec<f32>,
    head_bias: f32,
}

impl MoveNet {
    /// Reads a move-prior file's bytes; an error says what is wrong in one phrase.
    pub fn read(bytes: &[u8]) -> Result<MoveNet, String> {
        let mut r = crate::net::Named(crate::net::Reader::new(bytes));
        if r.take(8, "the header")? != MAGIC {
            return Err("not a move-prior network (RSPOL version 1)".into());
        }
        let planes = r.u32("the header")?;
        let depth = r.u32("the header")?;
        let channels = r.u32("the header")?;
        if planes != GRID_PLANES {
            return Err(format!(
                "{planes} input planes, not the {GRID_PLANES} games write"
            ));
        }
        check_trunk(depth, channels)?;
        let layers = read_trunk(&mut r, &HEX_TAPS, planes, depth, channels)?;
        let head = r.f32s(channels, "the head")?;
        let head_bias = r.f32s(1, "the head")?[0];
        if r.left() > 0 {
            return Err(format!("{} bytes after the head", r.left()));
        }
        Ok(MoveNet {
            channels,
            layers,
            head,
            head_bias,
        })
    }

    /// The number of convolutions and their channels.
    pub fn shape(&self) -> (usize, usize) {
        (self.layers.len(), self.channels)
    }
}

/// The buffers of one evaluator: grown to a board's size once, then reused.
#[derive(Debug, Clone, Default)]
pub struct MoveNetEval {
    /// The grid cells and channels the buffers are sized for.
    sized_for: (usize, usize),
    input: Vec<f32>,
    planes: Vec<f32>,
    h: Vec<f32>,
    next: Vec<f32>,
    logits: Vec<f32>,
}

impl MoveNetEval {
    /// The logit of every grid cell of `state` (`x + side·y`), or `None` for a game
    /// without a grid. Allocates only when the grid's side or the network's width changes.
    pub fn logits<G: Features>(&mut self, net: &MoveNet, state: &G) -> Option<&[f32]> {
        let side = state.grid_side()?;
        let cells = side * side;
        let c = net.channels;
        if self.sized_for != (cells, c) {
            self.sized_for = (cells, c);
            self.input.resize(GRID_PLANES * cells, 0.0);
            self.planes.resize(GRID_PLANES * cells, 0.0);
            self.h.resize(cells * c, 0.0);
            self.next.resize(cells * c, 0.0);
            self.logits.resize(cells, 0.0);
        }
        state.grid_planes(&mut self.input);
        // The planes cell by cell, as the first layer reads them.
        for p in 0..GRID_PLANES {
            for cell in 0..cells {
                self.planes[cell * GRID_PLANES + p] = self.input[p * cells + cell];
            }
        }
        conv(
            &HEX_TAPS,
            &net.layers[0],
            &self.planes,
            &mut self.h,
            side,
            c,
            false,
        );
        for layer in &net.layers[1..] {
            conv(&HEX_TAPS, layer, &self.h, &mut self.next, side, c, true);
            std::mem::swap(&mut self.h, &mut self.next);
        }
        for cell in 0..cells {
            let h = &self.h[cell * c..(cell + 1) * c];
            self.logits[cell] = net.head_bias + dot(&net.head, h);
        }
        Some(&self.logits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ringside_engine::Game;
    use ringside_engine::games::havannah::Havannah;

    const FIXTURE: &[u8] = include_bytes!("../tests/data/movenet-fixture.rspol");
    const EXPECTED: &str = include_str!("../tests/data/movenet-fixture.txt");

    #[test]
    fn logits_equal_pytorchs_for_every_cell_of_the_fixture_positions() {
        // The fixture: a random net exported by tools/policy_net.py and PyTorch's logits of
        // every grid cell in four positions on sizes 4 and 5 (python/tests checks the same
        // file against the trainer's model).
        let net = MoveNet::read(FIXTURE).unwrap();
        assert_eq!(net.shape(), (3, 5));
        let mut eval = MoveNetEval::default();
        let mut checked = 0;
        for line in EXPECTED.lines().filter(|l| !l.starts_with('#')) {
            let (position, logits) = line.split_once('|').unwrap();
            let mut words = position.split_whitespace();
            let base: usize = words.next().unwrap().parse().unwrap();
            let mut game = Havannah::new(base, false).unwrap();
            for m in words {
                let mv = game.parse_move(m).unwrap();
                game.play(mv);
            }
            let want: Vec<f32> = logits
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect();
            let got = eval.logits(&net, &game).unwrap();
            assert_eq!(got.len(), (2 * base - 1).pow(2));
            assert_eq!(got.len(), want.len());
            for (cell, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    (g - w).abs() < 1e-4 * w.abs().max(1.0),
                    "cell {cell}: {g} against {w}"
                );
            }
            checked += 1;
        }
        assert_eq!(checked, 4);
    }

    #[test]
    fn a_damaged_file_is_refused_saying_what_is_wrong() {
        let err = |bytes: &[u8]| MoveNet::read(bytes).unwrap_err();
        assert!(err(b"RSNET\0\0\x01").contains("not a move-prior network"));
        assert!(err(&FIXTURE[..FIXTURE.len() - 2]).contains("ends inside the head"));
        assert!(err(&FIXTURE[..100]).contains("ends inside layer 1"));
        let mut longer = FIXTURE.to_vec();
        longer.push(0);
        assert!(err(&longer).contains("1 bytes after the head"));
        let mut planes = FIXTURE.to_vec();
        planes[8] = 8;
        assert!(err(&planes).contains("8 input planes"));
        let mut nan = FIXTURE.to_vec();
        nan[20..24].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(err(&nan).contains("not finite"));
        // Layers and channels out of range are refused by the header; the largest in range
        // pass it and fail where the file ends instead.
        let header = |depth: u32, channels: u32| {
            let mut h = FIXTURE[..12].to_vec();
            h.extend_from_slice(&depth.to_le_bytes());
            h.extend_from_slice(&channels.to_le_bytes());
            err(&h)
        };
        for (depth, channels) in [(0, 16), (65, 16), (3, 0), (3, 1025)] {
            let message = header(depth, channels);
            assert!(
                message.contains(&format!(
                    "{depth} layers of {channels} channels: out of range"
                )),
                "{message}"
            );
        }
        for (depth, channels) in [(64, 16), (1, 1024)] {
            assert!(header(depth, channels).contains("ends inside layer 1"));
        }
    }

    /// A network of `depth` layers of `channels` whose numbers follow a fixed pattern.
    fn patterned(depth: u32, channels: u32) -> MoveNet {
        let mut bytes = MAGIC.to_vec();
        for v in [GRID_PLANES as u32, depth, channels] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        let c = channels as usize;
        let mut count = c;
        for l in 0..depth as usize {
            count += c * (if l == 0 { GRID_PLANES } else { c }) * 9 + c;
        }
        for i in 0..count + 1 {
            let v = ((i * 37) % 11) as f32 / 10.0 - 0.5;
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        MoveNet::read(&bytes).unwrap()
    }

    #[test]
    fn one_evaluator_reused_across_boards_and_widths_gives_a_fresh_ones_logits() {
        let nets = [patterned(3, 2), patterned(2, 3), patterned(2, 16)];
        let boards = [
            Havannah::new(4, false).unwrap(),
            Havannah::new(5, false).unwrap(),
        ];
        let mut shared = MoveNetEval::default();
        // Widths growing on one board, then a larger board, then back: buffers too small for
        // the next call would fail it.
        for round in 0..2 {
            for board in &boards {
                for (n, net) in nets.iter().enumerate() {
                    let fresh = MoveNetEval::default().logits(net, board).unwrap().to_vec();
                    let reused = shared.logits(net, board).unwrap();
                    assert_eq!(reused, &fresh[..], "round {round}, net {n}");
                }
            }
        }
    }

    #[test]
    fn a_game_without_a_grid_has_no_logits() {
        let net = MoveNet::read(FIXTURE).unwrap();
        let game = ringside_engine::games::rin::Rin::default();
        assert!(MoveNetEval::default().logits(&net, &game).is_none());
    }
}
