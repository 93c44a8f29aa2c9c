//! `arena tune net`: extract positions, fit K, train a network, and write the net, the record,
//! the summary and the plot into one folder.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ringside_agents::EvalSpec;
use ringside_agents::net::{Net, NetShape, content_id};
use ringside_engine::registry::GameVisitor;
use ringside_engine::{Features, Game, seeded_rng};

use super::net::{Epoch, NetData, TrainOptions, train};
use super::texel::{PositionFilter, blend_labels, extract, fit_k};
use super::texel_run::start_weights;
use crate::error::{Error, Result, Setting};
use crate::figures::plot::{Labels, Series, write_line_plot};
use crate::records::durable::{write_atomically, write_with};
use crate::records::sidecar::read_sidecar;
use crate::tune::probe::LeafSearch;

/// The net file's name in the output folder.
pub const NET_FILE: &str = "net.rsnet";

/// Everything a net's training needs.
#[derive(Debug, Clone)]
pub struct NetRun {
    /// The games CSVs (each with its sidecar).
    pub files: Vec<PathBuf>,
    /// Which positions to keep, and the split.
    pub filter: PositionFilter,
    /// The linear evaluation whose K the net keeps (and the leaf search's).
    pub eval: EvalSpec,
    /// The depth of the leaf search that replaces each position (0: none).
    pub leaf_depth: u32,
    /// The label's blend λ: 1 is the game's result alone.
    pub lambda: f64,
    /// Search from this many random children of each kept position (positions off the
    /// game's path; 0: the position itself).
    pub children: u32,
    /// Keep the searched position, labelled with the search's value, rather than its leaf.
    pub keep_searched: bool,
    /// Write the net even when training learned nothing.
    pub write_anyway: bool,
    /// Hidden units of each of the two accumulators.
    pub hidden: usize,
    /// Read the game's features too, starting from `eval`'s weights for them (the net then
    /// starts as that evaluation and learns what it misses).
    pub features: bool,
    /// The training's settings (its seed also draws the starting weights).
    pub train: TrainOptions,
    /// The folder for the net, `tune.csv`, `summary.md` and `losses.svg`.
    pub out: PathBuf,
}

/// What a net's training found.
#[derive(Debug, Clone)]
pub struct NetOutcome {
    /// The game's spec.
    pub game: String,
    /// The K the net is trained with (fitted to the results with the linear evaluation).
    pub k: f64,
    /// The epochs, the start first.
    pub epochs: Vec<Epoch>,
    /// Games read and used.
    pub games: (usize, usize),
    /// Training and validation positions.
    pub positions: (usize, usize),
    /// Bytes a training position takes (inputs and label).
    pub bytes_per_position: f64,
    /// The linear evaluation's loss on the same training and validation positions and
    /// labels: the mark the net must beat.
    pub linear_loss: (f64, f64),
    /// The kept net's Texel loss (`(σ(K v) − y)²`) on the training and validation positions,
    /// to set beside the linear evaluation's, whatever loss training minimised.
    pub net_loss: (f64, f64),
    /// The test (games held out of training and of the choice of epoch, scored once by the
    /// kept net): its positions, the kept net's Texel loss and the linear evaluation's.
    pub test: Option<(usize, f64, f64)>,
    /// The trained net.
    pub net: Net,
    /// Seconds spent extracting and training.
    pub seconds: (f64, f64),
}

/// The shape of a net for the game of the first file, with marks' planes.
fn shape_of(file: &Path, hidden: usize) -> Result<NetShape> {
    struct Shape(usize);
    impl GameVisitor for Shape {
        type Output = NetShape;
        fn visit<G: Game + Features>(self, start: G) -> NetShape {
            NetShape::of(&start, self.0, true)
        }
    }
    let (plan, _) = read_sidecar(file)?;
    Ok(plan.game.visit(Shape(hidden)))
}

/// Trains a net and writes its four files; `progress` hears each epoch.
pub fn run_net(run: &NetRun, mut progress: impl FnMut(&Epoch)) -> Result<NetOutcome> {
    if run.out.is_file() {
        return Err(Error::about(
            Setting::OutFolder,
            format_args!("{} is a file; give a folder", run.out.display()),
        ));
    }
    if !(1..=ringside_agents::net::MAX_HIDDEN).contains(&run.hidden) {
        return Err(Error::about(
            Setting::HiddenWidth,
            format_args!(
                "must be from 1 to {}, not {}",
                ringside_agents::net::MAX_HIDDEN,
                run.hidden
            ),
        ));
    }
    let t = &run.train;
    if !(t.rate > 0.0 && t.rate.is_finite()) {
        return Err(Error::about(
            Setting::StepSize,
            format_args!("must be a positive number, not {}", t.rate),
        ));
    }
    if t.batch == 0 {
        return Err(Error::about(Setting::Batch, "must be at least 1 position"));
    }
    if run.eval.kind == ringside_agents::EvalKind::Net {
        return Err(Error::about(
            Setting::Eval,
            "must be a linear one (material, rich or tuned): its K sets the net's scale",
        ));
    }
    let first = run
        .files
        .first()
        .ok_or_else(|| Error::setting("give at least one games CSV"))?;
    let clock = Instant::now();
    let mut shape = shape_of(first, run.hidden)?;
    let leaf = (run.leaf_depth > 0).then(|| LeafSearch {
        children: run.children,
        keep_searched: run.keep_searched,
        ..LeafSearch::leaf(run.leaf_depth, run.eval.clone())
    });
    if (run.children > 0 || run.keep_searched) && leaf.is_none() {
        return Err(Error::about(
            Setting::LeafDepth,
            ": searching children or keeping the searched position needs a depth of 1 or more",
        ));
    }
    let mut data = extract(&run.files, &run.filter, leaf.as_ref(), Some(&shape))?;
    let linear = start_weights(&data.game_start, &run.eval)?;
    let nothing = |why: String| {
        Error::setting(format!(
            "nothing to learn: {why}; no net written (--write-anyway writes one)"
        ))
    };
    if data.validation.is_empty() {
        return Err(Error::setting(
            "no validation positions (--validation 0, or too few games): training stops on the validation loss",
        ));
    }
    let k = fit_k(&data.train, &linear)?;
    if k < 1e-4 && run.lambda == 0.0 && !run.write_anyway {
        return Err(nothing(format!(
            "K is fitted to {k:.4} ({} games), so every label σ(K · value) is ½: the evaluation does not predict these games' results (too few games, or an evaluation blind to them; λ > 0 labels with the results too)",
            data.games.1
        )));
    }
    blend_labels(&mut data.train, k, run.lambda)?;
    blend_labels(&mut data.validation, k, run.lambda)?;
    blend_labels(&mut data.test, k, run.lambda)?;
    let linear_test = super::texel::loss(&data.test, &linear, k);
    let linear_loss = (
        super::texel::loss(&data.train, &linear, k),
        super::texel::loss(&data.validation, &linear, k),
    );
    let marks = [&data.train, &data.validation, &data.test]
        .iter()
        .flat_map(|p| &p.inputs.active)
        .any(|&f| usize::from(f) >= 2 * shape.cells);
    if !marks {
        shape.planes = 2;
    }
    if run.features {
        shape.features = linear.len();
    }
    let train_data = NetData::from_positions(&data.train, run.features);
    let validation = NetData::from_positions(&data.validation, run.features);
    let test = NetData::from_positions(&data.test, run.features);
    drop(data.train);
    drop(data.validation);
    drop(data.test);
    let extracted = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let mut net = Net::random(shape, k as f32, &mut seeded_rng(run.train.seed, 1));
    if run.features {
        // Start as the linear evaluation: its weights, and no say for the hidden units yet.
        net.u = linear.iter().map(|&w| w as f32).collect();
        net.w2.fill(0.0);
    }
    let epochs = train(
        &mut net,
        &train_data,
        &validation,
        &run.train,
        &mut progress,
    );
    let trained = clock.elapsed().as_secs_f64();
    // Asked for no epochs (a net that starts as the linear evaluation), it is what it is.
    if run.train.epochs > 0 && !epochs.iter().skip(1).any(|e| e.best) && !run.write_anyway {
        return Err(nothing(format!(
            "no epoch of {} lowered the validation loss below the start's ({:.6})",
            epochs.len() - 1,
            epochs[0].validation_loss
        )));
    }
    let net_loss = (
        super::net::loss(&net, &train_data),
        super::net::loss(&net, &validation),
    );
    let test = (!test.is_empty()).then(|| (test.len(), super::net::loss(&net, &test), linear_test));
    let outcome = NetOutcome {
        test,
        game: net.shape.game.clone(),
        k,
        epochs,
        games: data.games,
        positions: (train_data.len(), validation.len()),
        bytes_per_position: (train_data.inputs.bytes() + 4 * train_data.len()) as f64
            / train_data.len().max(1) as f64,
        linear_loss,
        net_loss,
        net,
        seconds: (extracted, trained),
    };
    std::fs::create_dir_all(&run.out).map_err(|e| Error::io("create", &run.out, &e))?;
    write_atomically(&run.out.join(NET_FILE), &outcome.net.to_bytes())?;
    write_tune_csv(&run.out.join("tune.csv"), &outcome.epochs)?;
    // The start's loss (often several times the trained one) would flatten the curves: it is
    // named in the title instead, and the axis follows the epochs'.
    let points = |f: fn(&Epoch) -> f64| {
        outcome
            .epochs
            .iter()
            .filter(|e| e.epoch > 0 || outcome.epochs.len() == 1)
            .map(|e| (f64::from(e.epoch), f(e)))
            .collect()
    };
    let series = vec![
        Series {
            name: "training (mean over the epoch's steps)".into(),
            points: points(|e| e.train_loss),
        },
        Series {
            name: "validation (after the epoch)".into(),
            points: points(|e| e.validation_loss),
        },
    ];
    write_line_plot(
        &run.out.join("losses.svg"),
        Labels {
            title: &format!(
                "Training a net for {}: loss by epoch (at the start: {:.4} on validation)",
                outcome.game, outcome.epochs[0].validation_loss
            ),
            x: "epoch",
            y: "loss (the training's: Texel's or the logit error)",
        },
        &series,
    )?;
    let summary = summary_markdown(run, &outcome);
    write_atomically(&run.out.join("summary.md"), summary.as_bytes())?;
    Ok(outcome)
}

fn write_tune_csv(path: &Path, epochs: &[Epoch]) -> Result<()> {
    write_with(path, |file| {
        use std::io::Write;
        writeln!(file, "epoch,train_loss,validation_loss,rate,best")?;
        for e in epochs {
            writeln!(
                file,
                "{},{:?},{:?},{:?},{}",
                e.epoch, e.train_loss, e.validation_loss, e.rate, e.best
            )?;
        }
        Ok(())
    })
}

fn summary_markdown(run: &NetRun, o: &NetOutcome) -> String {
    let s = &o.net.shape;
    let start = &o.epochs[0];
    let best = o
        .epochs
        .iter()
        .rfind(|e| e.best)
        .expect("the start counts as best");
    let files: Vec<String> = run
        .files
        .iter()
        .map(|f| format!("`{}`", f.display()))
        .collect();
    let t = &run.train;
    let mut md = String::new();
    let _ = writeln!(md, "# A net for {}\n", o.game);
    let _ = writeln!(
        md,
        "Positions from {} ({} games read, {} used). Kept: {}. Training positions: {}; validation positions: {} ({:.1} bytes a training position in memory).\n",
        files.join(", "),
        o.games.0,
        o.games.1,
        run.filter.describe(),
        o.positions.0,
        o.positions.1,
        o.bytes_per_position
    );
    let leaf = if run.leaf_depth > 0 {
        let from = if run.children > 0 {
            format!(
                "{} children of each recorded position (distinct legal moves drawn at random)",
                run.children
            )
        } else {
            "each recorded position".to_string()
        };
        let kept = if run.keep_searched {
            "the searched position itself is kept, labelled with the search's value"
        } else {
            "its principal leaf replaces it"
        };
        format!(
            "A depth-{} alpha-beta search with `{}` from {from}; {kept}.",
            run.leaf_depth,
            eval_name(&run.eval)
        )
    } else {
        "Positions as recorded.".to_string()
    };
    let _ = writeln!(
        md,
        "Net: {} cells × {} planes → {} hidden units a colour's view (two views, clipped ReLU) → 1, the mover's accumulator first ({} weights). {leaf} K = {:.4}, fitted to the results with `{}` so that the net keeps that evaluation's units. The label is {} × the result + {} × σ(K · the search's value). Adam from step size {} in batches of {}, at most {} epochs, stopping after {} without a lower validation loss (seed {}).\n",
        s.cells,
        s.planes,
        s.hidden,
        o.net.w1.len() + o.net.b1.len() + o.net.w2.len() + 1 + o.net.u.len(),
        o.k,
        eval_name(&run.eval),
        run.lambda,
        1.0 - run.lambda,
        t.rate,
        t.batch,
        t.epochs,
        t.patience,
        t.seed
    );
    if s.features > 0 {
        let _ = writeln!(
            md,
            "The net also reads the game's {} features (their differences, the mover's minus the other's), their weights started at `{}`'s: it starts as that evaluation.\n",
            s.features,
            eval_name(&run.eval)
        );
    }
    let _ = writeln!(
        md,
        "| loss | start | kept (epoch {}) | kept net, Texel's loss | `{}` (linear), Texel's loss |\n|---|---|---|---|---|\n| training | {:.6} | {:.6} | {:.6} | {:.6} |\n| validation | {:.6} | {:.6} | {:.6} | {:.6} |\n\nTraining minimised {}.\n",
        best.epoch,
        eval_name(&run.eval),
        start.train_loss,
        best.train_loss,
        o.net_loss.0,
        o.linear_loss.0,
        start.validation_loss,
        best.validation_loss,
        o.net_loss.1,
        o.linear_loss.1,
        match t.loss {
            super::net::Loss::Chance => "Texel's loss, (σ(K·v) − y)²",
            super::net::Loss::Logit => "the error in logits, (K·v − clamp(logit y, ±6))²",
        }
    );
    if let Some((n, net, linear)) = o.test {
        let _ = writeln!(
            md,
            "**The test**, {n} positions of games held out of training and of the choice of epoch, scored once: the kept net's Texel loss {net:.6}, `{}`'s {linear:.6}.\n",
            eval_name(&run.eval)
        );
    }
    let _ = writeln!(
        md,
        "Extraction (replay, leaf searches) took {:.1} s, training {:.1} s ({} epochs). The net's content id is `{:016x}`.\n\nA lower error is not yet a stronger player: check with a match (`alphabeta:eval=net,net={}` against `eval=tuned`).\n\n![Losses](losses.svg)\n\nFiles: `{NET_FILE}` (load with `eval=net,net=FILE`), `tune.csv` (every epoch), `losses.svg`.",
        o.seconds.0,
        o.seconds.1,
        o.epochs.len() - 1,
        content_id(&o.net.to_bytes()),
        run.out.join(NET_FILE).display()
    );
    md
}

fn eval_name(eval: &EvalSpec) -> &'static str {
    match eval.kind {
        ringside_agents::EvalKind::Material => "eval=material",
        ringside_agents::EvalKind::Rich => "eval=rich",
        ringside_agents::EvalKind::Tuned => "eval=tuned",
        ringside_agents::EvalKind::Net => "eval=net",
    }
}
