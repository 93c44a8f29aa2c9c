//! Training a network evaluation ([`ringside_agents::net`]) on recorded positions.
//!
//! The loss is Texel's: the mean of `(σ(K v) − y)²` over the positions, `v` the net's value
//! for the player to move and `y` that player's label (the result, or its blend with a
//! search's value, as [`super::texel::blend_labels`] makes it), with the game's `K` fixed
//! beforehand so that the net keeps the linear evaluations' material units.
//!
//! Minibatch gradient descent with Adam (Kingma and Ba, 2015: `β₁ = 0.9`, `β₂ = 0.999`,
//! `ε = 10⁻⁸`; lazily in the first layer: only the rows a batch touched step) over the positions in a seeded random order each epoch. The gradient of a
//! batch is summed over a fixed number of slices (in parallel, added in slice order), so a
//! run gives the same net whatever the thread count. With `g = 2 (p − y) p (1 − p) K / B`
//! for a position of the batch of `B` (`p = σ(K v)`):
//!
//! ```text
//! ∂/∂w₂ⱼ = g · crelu(aⱼ)      ∂/∂b₂ = g      ∂/∂aⱼ = g · w₂ⱼ · [0 < aⱼ < 1] (hidden lanes)
//! ∂/∂aᵐ_H = g / 2,  ∂/∂aᵒ_H = −g / 2 (the linear lane)
//! ∂/∂Wᶜ[f] = ∂/∂aᶜ for each active input f of the view c,   ∂/∂bᶜ = ∂/∂aᶜ
//! ```
//!
//! After each epoch the validation loss is measured; the net with the lowest is kept. When an
//! epoch does not lower it, the step size halves; after `patience` such epochs in a row, or
//! `epochs` in all, training stops.
//!
//! The first layer's gradient is sparse (a position touches the rows of its stones only), so
//! the forward and backward passes cost `O(active inputs × H)` a position where a dense
//! library's cost `O(inputs × H)`: the reason this loop is written out rather than built on
//! a tensor library (the note of issue 45 measures it against PyTorch).

use rand::RngExt;
use rayon::prelude::*;
use ringside_agents::net::Net;
use ringside_engine::seeded_rng;

use super::texel::{Inputs, Positions};

/// Slices a batch's gradient is summed over (fixed, so the sum does not depend on threads).
const SLICES: usize = 4;

/// Positions as a net trains on them: inputs, and the mover's label.
#[derive(Debug, Clone, Default)]
pub struct NetData {
    /// The positions' inputs.
    pub inputs: Inputs,
    /// The label of the player to move: 1 a win, 0 a loss (or a blend).
    pub labels: Vec<f32>,
    /// Features a position in `features` (0: the net reads none).
    pub width: usize,
    /// The game's feature differences from the mover's view, `width` a position.
    pub features: Vec<f32>,
}

impl NetData {
    /// The positions of `positions` that have a player to move, each labelled for that player
    /// (the label of `Player::ZERO` as it is for ZERO, one minus it for ONE), with their
    /// feature differences from the mover's view when `features` is on.
    #[must_use]
    pub fn from_positions(positions: &Positions, features: bool) -> NetData {
        let width = if features { positions.width } else { 0 };
        let mut data = NetData {
            width,
            ..NetData::default()
        };
        let inputs = &positions.inputs;
        for (i, (&mover, &y)) in inputs.movers.iter().zip(&positions.labels).enumerate() {
            if mover > 1 {
                continue;
            }
            data.inputs.active.extend_from_slice(inputs.of(i));
            data.inputs.ends.push(data.inputs.active.len() as u32);
            data.inputs.movers.push(mover);
            data.labels.push(if mover == 0 { y } else { 1.0 - y });
            let sign = if mover == 0 { 1.0 } else { -1.0 };
            let diffs = &positions.diffs[i * positions.width..][..width];
            data.features.extend(diffs.iter().map(|d| sign * d));
        }
        data
    }

    /// The feature differences of position `i`.
    #[must_use]
    pub fn features_of(&self, i: usize) -> &[f32] {
        &self.features[i * self.width..(i + 1) * self.width]
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }
}

/// What training minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loss {
    /// Texel's: `(σ(K v) − y)²`, the error in the chance to win.
    Chance,
    /// The error in logits: `(K v − clamp(logit y, ±6))²`. A decided position's error is not
    /// flattened by the logistic's tails, so the net keeps the scale of values a search
    /// compares (for labels from a search's values).
    Logit,
}

/// The settings of training.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainOptions {
    /// What training minimises.
    pub loss: Loss,
    /// Most passes over the training positions.
    pub epochs: u32,
    /// Positions a step.
    pub batch: usize,
    /// Adam's step size at the start.
    pub rate: f32,
    /// Epochs in a row without a lower validation loss before training stops.
    pub patience: u32,
    /// The seed of the order of positions (the start's weights come with the net).
    pub seed: u64,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            loss: Loss::Chance,
            epochs: 30,
            batch: 256,
            rate: 0.002,
            patience: 3,
            seed: 1,
        }
    }
}

/// One epoch's record (losses in the training's [`Loss`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Epoch {
    /// The epoch, from 1 (0: the start, before any step).
    pub epoch: u32,
    /// The mean training loss over the epoch's steps (at the start: over all positions).
    pub train_loss: f64,
    /// The validation loss after the epoch.
    pub validation_loss: f64,
    /// The step size the epoch used.
    pub rate: f32,
    /// Whether this epoch's net is the best so far (the one kept).
    pub best: bool,
}

/// The loss of one position of value `v` and label `y`, and its derivative in `v`.
#[inline]
fn position_loss(loss: Loss, k: f32, v: f32, y: f32) -> (f32, f32) {
    match loss {
        Loss::Chance => {
            let p = sigmoid(k * v);
            let r = p - y;
            (r * r, 2.0 * r * p * (1.0 - p) * k)
        }
        Loss::Logit => {
            let y = y.clamp(1e-6, 1.0 - 1e-6);
            let target = (y / (1.0 - y)).ln().clamp(-LOGIT_BOUND, LOGIT_BOUND);
            let r = k * v - target;
            (r * r, 2.0 * r * k)
        }
    }
}

/// The largest logit a label is taken as under [`Loss::Logit`] (a chance of 0.9975).
const LOGIT_BOUND: f32 = 6.0;

/// The mean of `(σ(K v) − y)²` over `data` (Texel's loss, whatever training minimises).
#[must_use]
pub fn loss(net: &Net, data: &NetData) -> f64 {
    loss_of(Loss::Chance, net, data)
}

/// The mean loss of `net` over `data`.
#[must_use]
pub fn loss_of(kind: Loss, net: &Net, data: &NetData) -> f64 {
    if data.is_empty() {
        return f64::NAN;
    }
    let chunk = 4096;
    let sums: Vec<f64> = (0..data.len().div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut acc = vec![0.0; 2 * net.shape.lanes()];
            (c * chunk..((c + 1) * chunk).min(data.len()))
                .map(|i| {
                    let v = net.forward(
                        data.inputs.of(i),
                        usize::from(data.inputs.movers[i]),
                        data.features_of(i),
                        &mut acc,
                    );
                    f64::from(position_loss(kind, net.k, v, data.labels[i]).0)
                })
                .sum()
        })
        .collect();
    sums.iter().sum::<f64>() / data.len() as f64
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The gradient of one slice of a batch, laid out as the net's weights.
#[derive(Debug, Clone)]
struct Gradient {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    u: Vec<f32>,
    /// The first-layer rows touched (only they are non-zero), in the order first touched.
    rows: Vec<usize>,
    /// Whether each first-layer row is in `rows`.
    touched: Vec<bool>,
    loss: f64,
}

impl Gradient {
    fn new(net: &Net) -> Gradient {
        Gradient {
            w1: vec![0.0; net.w1.len()],
            b1: vec![0.0; net.b1.len()],
            w2: vec![0.0; net.w2.len()],
            b2: 0.0,
            u: vec![0.0; net.u.len()],
            rows: Vec::new(),
            touched: vec![false; 2 * net.shape.inputs()],
            loss: 0.0,
        }
    }

    fn clear(&mut self, lanes: usize) {
        for &row in &self.rows {
            self.w1[row * lanes..(row + 1) * lanes].fill(0.0);
            self.touched[row] = false;
        }
        self.rows.clear();
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2 = 0.0;
        self.u.fill(0.0);
        self.loss = 0.0;
    }

    /// Adds the gradient of positions `batch` (indices into `data`), each weighted `1/scale`.
    fn add(
        &mut self,
        net: &Net,
        data: &NetData,
        (batch, kind): (&[u32], Loss),
        scale: f32,
        acc: &mut [f32],
    ) {
        let (h, lanes) = (net.shape.hidden, net.shape.lanes());
        let n = net.shape.inputs();
        let mut delta = vec![0.0f32; 2 * lanes];
        for &i in batch {
            let i = i as usize;
            let (active, mover) = (data.inputs.of(i), usize::from(data.inputs.movers[i]));
            let features = data.features_of(i);
            let v = net.forward(active, mover, features, acc);
            let (loss, slope) = position_loss(kind, net.k, v, data.labels[i]);
            self.loss += f64::from(loss);
            let g = slope / scale;
            self.b2 += g;
            for (u, d) in self.u.iter_mut().zip(features) {
                *u += g * d;
            }
            for (half, side) in [(0, 1.0), (1, -1.0)] {
                for j in 0..h {
                    let a = acc[half * lanes + j];
                    self.w2[half * h + j] += g * a.clamp(0.0, 1.0);
                    delta[half * lanes + j] = if a > 0.0 && a < 1.0 {
                        g * net.w2[half * h + j]
                    } else {
                        0.0
                    };
                }
                delta[half * lanes + h] = side * g / 2.0;
            }
            for view in 0..2 {
                let half = if view == mover { 0 } else { lanes };
                let d = &delta[half..half + lanes];
                for (b, x) in self.b1[view * lanes..(view + 1) * lanes].iter_mut().zip(d) {
                    *b += x;
                }
                for &f in active {
                    let row = view * n + usize::from(f);
                    if !self.touched[row] {
                        self.touched[row] = true;
                        self.rows.push(row);
                    }
                    let w = &mut self.w1[row * lanes..(row + 1) * lanes];
                    for (w, x) in w.iter_mut().zip(d) {
                        *w += x;
                    }
                }
            }
        }
    }
}

/// Adam's moments for every weight, in the order w1, b1, w2, b2.
///
/// The first layer is updated lazily, as TensorFlow's `LazyAdam` does: only the rows a batch
/// touched (the inputs of its positions) step, their moments decaying then; an input absent
/// from a batch keeps its weights and moments. The other layers step every batch.
#[derive(Debug, Clone)]
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
    /// The first-layer rows of the batch, and whether each is among them.
    rows: Vec<usize>,
    marked: Vec<bool>,
}

impl Adam {
    const B1: f32 = 0.9;
    const B2: f32 = 0.999;

    fn new(net: &Net) -> Adam {
        let len = net.w1.len() + net.b1.len() + net.w2.len() + 1 + net.u.len();
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
            rows: Vec::new(),
            marked: vec![false; 2 * net.shape.inputs()],
        }
    }

    /// Moves weight `w` (moment slot `at`) along gradient `g`.
    #[inline]
    fn move_one(&mut self, at: usize, w: &mut f32, g: f32, rate: f32, c1: f32, c2: f32) {
        let (m, v) = (&mut self.m[at], &mut self.v[at]);
        *m = Self::B1 * *m + (1.0 - Self::B1) * g;
        *v = Self::B2 * *v + (1.0 - Self::B2) * g * g;
        *w -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
    }

    /// One step along the gradients summed over the slices (in slice order).
    fn step(&mut self, net: &mut Net, grads: &[Gradient], rate: f32) {
        self.t += 1;
        let c1 = 1.0 - Self::B1.powi(self.t);
        let c2 = 1.0 - Self::B2.powi(self.t);
        let lanes = net.shape.lanes();
        self.rows.clear();
        for grad in grads {
            for &row in &grad.rows {
                if !self.marked[row] {
                    self.marked[row] = true;
                    self.rows.push(row);
                }
            }
        }
        let rows = std::mem::take(&mut self.rows);
        for &row in &rows {
            self.marked[row] = false;
            for k in row * lanes..(row + 1) * lanes {
                let g: f32 = grads.iter().map(|s| s.w1[k]).sum();
                self.move_one(k, &mut net.w1[k], g, rate, c1, c2);
            }
        }
        self.rows = rows;
        let mut at = net.w1.len();
        for k in 0..net.b1.len() {
            let g: f32 = grads.iter().map(|s| s.b1[k]).sum();
            self.move_one(at + k, &mut net.b1[k], g, rate, c1, c2);
        }
        at += net.b1.len();
        for k in 0..net.w2.len() {
            let g: f32 = grads.iter().map(|s| s.w2[k]).sum();
            self.move_one(at + k, &mut net.w2[k], g, rate, c1, c2);
        }
        at += net.w2.len();
        let g: f32 = grads.iter().map(|s| s.b2).sum();
        let mut b2 = net.b2;
        self.move_one(at, &mut b2, g, rate, c1, c2);
        net.b2 = b2;
        at += 1;
        for k in 0..net.u.len() {
            let g: f32 = grads.iter().map(|s| s.u[k]).sum();
            self.move_one(at + k, &mut net.u[k], g, rate, c1, c2);
        }
    }
}

/// Trains `net` on `train`, keeping the weights with the lowest loss on `validation`;
/// returns the epochs, the start first. `progress` hears each epoch as it ends.
pub fn train(
    net: &mut Net,
    train: &NetData,
    validation: &NetData,
    options: &TrainOptions,
    mut progress: impl FnMut(&Epoch),
) -> Vec<Epoch> {
    let start = Epoch {
        epoch: 0,
        train_loss: loss_of(options.loss, net, train),
        validation_loss: loss_of(options.loss, net, validation),
        rate: options.rate,
        best: true,
    };
    progress(&start);
    let mut epochs = vec![start];
    if train.is_empty() {
        return epochs;
    }
    let mut adam = Adam::new(net);
    let mut grads = vec![Gradient::new(net); SLICES];
    let mut best = (start.validation_loss, net.clone());
    let (mut rate, mut stale) = (options.rate, 0);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = seeded_rng(options.seed, 0);
    let lanes = net.shape.lanes();
    let batch = options.batch.max(1);
    for epoch in 1..=options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        let mut total = 0.0;
        for positions in order.chunks(batch) {
            let per = positions.len().div_ceil(SLICES);
            let scale = positions.len() as f32;
            let shared: &Net = net;
            grads.par_iter_mut().enumerate().for_each(|(s, grad)| {
                grad.clear(lanes);
                let slice = positions.chunks(per).nth(s).unwrap_or(&[]);
                let mut acc = vec![0.0; 2 * lanes];
                grad.add(shared, train, (slice, options.loss), scale, &mut acc);
            });
            total += grads.iter().map(|g| g.loss).sum::<f64>();
            adam.step(net, &grads, rate);
        }
        let validation_loss = loss_of(options.loss, net, validation);
        let improved = validation_loss < best.0 || validation.is_empty();
        let record = Epoch {
            epoch,
            train_loss: total / train.len() as f64,
            validation_loss,
            rate,
            best: improved,
        };
        progress(&record);
        epochs.push(record);
        if improved {
            best = (validation_loss, net.clone());
            stale = 0;
        } else {
            stale += 1;
            rate /= 2.0;
            if stale >= options.patience {
                break;
            }
        }
    }
    *net = best.1;
    epochs
}

#[cfg(test)]
mod tests {
    use super::*;
    use ringside_agents::net::NetShape;

    /// A one-cell "game": the label is 0.9 when the cell holds ZERO's stone and ZERO moves.
    fn toy() -> (Net, NetData) {
        let shape = NetShape {
            game: "toy".into(),
            cells: 3,
            planes: 2,
            hidden: 4,
            letters: *b"XOxo",
            features: 1,
        };
        let mut net = Net::random(shape, 1.0, &mut seeded_rng(1, 0));
        net.u[0] = 0.2;
        let mut data = NetData {
            width: 1,
            ..NetData::default()
        };
        for i in 0..64u32 {
            let (stone, mover) = ((i % 3) as u16, (i / 3 % 2) as u8);
            data.inputs.active.push(stone);
            data.inputs.ends.push(data.inputs.active.len() as u32);
            data.inputs.movers.push(mover);
            data.labels
                .push(if stone == 0 && mover == 0 { 0.9 } else { 0.3 });
            data.features.push(f32::from(stone) - 1.0);
        }
        (net, data)
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let (net, data) = toy();
        let batch: Vec<u32> = (0..data.len() as u32).collect();
        let mut grad = Gradient::new(&net);
        let mut acc = vec![0.0; 10];
        grad.add(
            &net,
            &data,
            (&batch, Loss::Chance),
            data.len() as f32,
            &mut acc,
        );
        let eps = 1e-3;
        let numeric = |change: &dyn Fn(&mut Net, f32)| {
            let (mut up, mut down) = (net.clone(), net.clone());
            change(&mut up, eps);
            change(&mut down, -eps);
            ((loss(&up, &data) - loss(&down, &data)) / (2.0 * f64::from(eps))) as f32
        };
        let checks: [(f32, f32); 6] = [
            (grad.w2[1], numeric(&|n, e| n.w2[1] += e)),
            (grad.b2, numeric(&|n, e| n.b2 += e)),
            (grad.b1[5], numeric(&|n, e| n.b1[5] += e)),
            (grad.w1[2], numeric(&|n, e| n.w1[2] += e)),
            (grad.w1[4], numeric(&|n, e| n.w1[4] += e)),
            (grad.u[0], numeric(&|n, e| n.u[0] += e)),
        ];
        for (analytic, numeric) in checks {
            assert!(
                (analytic - numeric).abs() < 1e-3 * (1.0 + numeric.abs()),
                "{analytic} against {numeric}"
            );
        }
        assert!(checks.iter().any(|(a, _)| a.abs() > 1e-4), "{checks:?}");
    }

    #[test]
    fn training_lowers_the_loss_and_is_the_same_on_one_thread_and_several() {
        let (start, data) = toy();
        let options = TrainOptions {
            loss: Loss::Chance,
            epochs: 40,
            batch: 16,
            rate: 0.02,
            patience: 40,
            seed: 3,
        };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut net = start.clone();
            let epochs = pool.install(|| train(&mut net, &data, &data, &options, |_| {}));
            (net, epochs)
        };
        let (one, epochs) = run(1);
        let first = epochs[0].validation_loss;
        let last = epochs
            .iter()
            .map(|e| e.validation_loss)
            .fold(f64::MAX, f64::min);
        assert!(last < first / 4.0, "{first} → {last}");
        assert_eq!(run(2).0, one);
    }

    #[test]
    fn training_stops_after_patience_epochs_without_progress_and_keeps_the_best() {
        let (start, data) = toy();
        let options = TrainOptions {
            loss: Loss::Chance,
            epochs: 50,
            batch: 64,
            rate: 5.0,
            patience: 2,
            seed: 3,
        };
        let mut net = start.clone();
        let epochs = train(&mut net, &data, &data, &options, |_| {});
        assert!(epochs.len() < 51, "{} epochs", epochs.len());
        let tail = &epochs[epochs.len() - 2..];
        assert!(tail.iter().all(|e| !e.best), "{tail:?}");
        let best = epochs
            .iter()
            .map(|e| e.validation_loss)
            .fold(f64::MAX, f64::min);
        assert_eq!(loss(&net, &data), best);
    }
}
