//! Convolutions over a grid game's board ([`ringside_engine::Features::grid_planes`]), shared
//! by the learned move prior ([`crate::movenet`]) and the policy-value network
//! ([`crate::pvnet`]): a 3×3 kernel over the `side × side` grid with zero padding, each layer
//! `relu(conv h)`, and every layer after the first adding its input back. On a hex grid in
//! axial coordinates the kernel's corners `(1, −1)` and `(−1, 1)` are not neighbours and are
//! left out ([`HEX_TAPS`]); on a square grid all nine taps are read ([`SQUARE_TAPS`]).
//! Activations are stored cell by cell, each a run of the layer's channels; nothing is
//! allocated.

/// The hex kernel's seven taps, `(dx, dy)`: a cell and its six neighbours on the axial grid.
pub const HEX_TAPS: [(i32, i32); 7] = [(-1, -1), (0, -1), (-1, 0), (0, 0), (1, 0), (0, 1), (1, 1)];

/// The square kernel's nine taps, `(dx, dy)`, row by row.
pub const SQUARE_TAPS: [(i32, i32); 9] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (0, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// One convolution: `inputs → channels`, weights by tap, then input, then output channel.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layer {
    pub(crate) inputs: usize,
    pub(crate) weights: Vec<f32>,
    pub(crate) bias: Vec<f32>,
}

impl Layer {
    /// A layer from PyTorch's weights (`[channels][inputs][3][3]`, the taps not in `taps`
    /// ignored) and its biases.
    pub(crate) fn from_torch(
        taps: &[(i32, i32)],
        inputs: usize,
        torch: &[f32],
        bias: Vec<f32>,
    ) -> Layer {
        let channels = bias.len();
        let mut weights = vec![0.0; taps.len() * inputs * channels];
        for (t, &(dx, dy)) in taps.iter().enumerate() {
            let k = (3 * (dy + 1) + dx + 1) as usize;
            for i in 0..inputs {
                for o in 0..channels {
                    weights[(t * inputs + i) * channels + o] = torch[(o * inputs + i) * 9 + k];
                }
            }
        }
        Layer {
            inputs,
            weights,
            bias,
        }
    }
}

/// Refuses a trunk of `depth` layers of `channels` outside what a file may hold (1–64 layers
/// of 1–1,024 channels), in one phrase.
pub(crate) fn check_trunk(depth: usize, channels: usize) -> Result<(), String> {
    if depth == 0 || depth > 64 || channels == 0 || channels > 1024 {
        return Err(format!(
            "{depth} layers of {channels} channels: out of range"
        ));
    }
    Ok(())
}

/// Reads a trunk of `depth` layers of `channels` over `planes` input planes, each its
/// PyTorch weights and biases, as the networks' files hold them ("layer N" naming where a
/// file ends).
pub(crate) fn read_trunk(
    r: &mut crate::net::Named<'_>,
    taps: &[(i32, i32)],
    planes: usize,
    depth: usize,
    channels: usize,
) -> Result<Vec<Layer>, String> {
    let mut layers = Vec::with_capacity(depth);
    for l in 0..depth {
        let inputs = if l == 0 { planes } else { channels };
        let what = format!("layer {}", l + 1);
        let torch = r.f32s(channels * inputs * 9, &what)?;
        let bias = r.f32s(channels, &what)?;
        layers.push(Layer::from_torch(taps, inputs, &torch, bias));
    }
    Ok(layers)
}

/// `out = relu(conv(input))`, plus `input` with `residual`; activations cell by cell, each a
/// run of `c` channels. Widths of 16, 32 and 64 channels run with the accumulator in a fixed
/// array (kept in registers, the loops unrolled); the sums are the same, term by term, in
/// the same order, whichever runs.
pub(crate) fn conv(
    taps: &[(i32, i32)],
    layer: &Layer,
    input: &[f32],
    out: &mut [f32],
    side: usize,
    c: usize,
    residual: bool,
) {
    match c {
        16 => conv_fixed::<16>(taps, layer, input, out, side, residual),
        32 => conv_fixed::<32>(taps, layer, input, out, side, residual),
        64 => conv_fixed::<64>(taps, layer, input, out, side, residual),
        _ => conv_any(taps, layer, input, out, side, c, residual),
    }
}

/// [`conv`] for `C` channels known when compiled.
fn conv_fixed<const C: usize>(
    taps: &[(i32, i32)],
    layer: &Layer,
    input: &[f32],
    out: &mut [f32],
    side: usize,
    residual: bool,
) {
    let n = layer.inputs;
    let s = side as i32;
    let bias: [f32; C] = layer.bias[..C].try_into().expect("C biases");
    for y in 0..s {
        for x in 0..s {
            let cell = (x + s * y) as usize;
            let mut acc = bias;
            for (t, &(dx, dy)) in taps.iter().enumerate() {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= s || ny >= s {
                    continue;
                }
                let from = (nx + s * ny) as usize;
                let a = &input[from * n..(from + 1) * n];
                let w = &layer.weights[t * n * C..(t + 1) * n * C];
                for (&v, row) in a.iter().zip(w.chunks_exact(C)) {
                    if v != 0.0 {
                        for (o, &wo) in acc.iter_mut().zip(row) {
                            *o += v * wo;
                        }
                    }
                }
            }
            let dst = &mut out[cell * C..(cell + 1) * C];
            for (k, (d, o)) in dst.iter_mut().zip(acc).enumerate() {
                *d = o.max(0.0);
                if residual {
                    *d += input[cell * n + k];
                }
            }
        }
    }
}

/// [`conv`] for any number of channels.
pub(crate) fn conv_any(
    taps: &[(i32, i32)],
    layer: &Layer,
    input: &[f32],
    out: &mut [f32],
    side: usize,
    c: usize,
    residual: bool,
) {
    let n = layer.inputs;
    let s = side as i32;
    for y in 0..s {
        for x in 0..s {
            let cell = (x + s * y) as usize;
            let acc = &mut out[cell * c..(cell + 1) * c];
            acc.copy_from_slice(&layer.bias);
            for (t, &(dx, dy)) in taps.iter().enumerate() {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= s || ny >= s {
                    continue;
                }
                let from = (nx + s * ny) as usize;
                let a = &input[from * n..(from + 1) * n];
                let w = &layer.weights[t * n * c..(t + 1) * n * c];
                for (&v, row) in a.iter().zip(w.chunks_exact(c)) {
                    if v != 0.0 {
                        for (o, &wo) in acc.iter_mut().zip(row) {
                            *o += v * wo;
                        }
                    }
                }
            }
            for (k, o) in acc.iter_mut().enumerate() {
                *o = o.max(0.0);
                if residual {
                    *o += input[cell * n + k];
                }
            }
        }
    }
}

/// `Σ a·b` over the shorter of the two.
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_width_convolutions_sum_exactly_as_the_general_one_on_both_grids() {
        use rand::RngExt;
        let mut rng = ringside_engine::seeded_rng(46, 0);
        for taps in [&HEX_TAPS[..], &SQUARE_TAPS[..]] {
            for c in [16, 32, 64] {
                let inputs = c;
                let layer = Layer {
                    inputs,
                    weights: (0..taps.len() * inputs * c)
                        .map(|_| rng.random_range(-1.0f32..1.0))
                        .collect(),
                    bias: (0..c).map(|_| rng.random_range(-1.0f32..1.0)).collect(),
                };
                let side = 7;
                // Some inputs 0, as after ReLU, so the skipped terms are skipped alike.
                let input: Vec<f32> = (0..side * side * inputs)
                    .map(|_| rng.random_range(-1.0f32..1.0).max(0.0))
                    .collect();
                for residual in [false, true] {
                    let mut fixed = vec![0.0; side * side * c];
                    let mut any = vec![0.0; side * side * c];
                    conv(taps, &layer, &input, &mut fixed, side, c, residual);
                    conv_any(taps, &layer, &input, &mut any, side, c, residual);
                    assert_eq!(fixed, any, "{c} channels, residual {residual}");
                    assert!(fixed.iter().any(|&v| v > 0.0));
                }
            }
        }
    }

    #[test]
    fn a_square_kernel_reads_the_diagonal_a_hex_kernel_leaves_out() {
        // One input channel, one output: a single 1 at cell (2, 2) of a 5×5 grid, every
        // weight 1. The square kernel spreads it to all eight neighbours; the hex kernel to
        // six, missing (3, 1) and (1, 3).
        let torch = vec![1.0; 9];
        let one = |taps: &[(i32, i32)]| {
            let layer = Layer::from_torch(taps, 1, &torch, vec![0.0]);
            let mut input = vec![0.0; 25];
            input[2 + 5 * 2] = 1.0;
            let mut out = vec![0.0; 25];
            conv(taps, &layer, &input, &mut out, 5, 1, false);
            out
        };
        let (square, hex) = (one(&SQUARE_TAPS), one(&HEX_TAPS));
        assert_eq!(square.iter().sum::<f32>(), 9.0);
        assert_eq!(hex.iter().sum::<f32>(), 7.0);
        assert_eq!((square[3 + 5], hex[3 + 5]), (1.0, 0.0));
        assert_eq!((square[1 + 5 * 3], hex[1 + 5 * 3]), (1.0, 0.0));
        assert_eq!((square[3 + 5 * 3], hex[3 + 5 * 3]), (1.0, 1.0));
    }
}
