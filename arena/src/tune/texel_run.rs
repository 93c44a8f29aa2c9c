//! `arena tune texel`: extract, fit, and write the weights, the record, the summary and the
//! plot into one folder.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ringside_agents::{EvalSpec, Evaluator};
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game};

use super::texel::{FitOptions, FitStep, PositionFilter, blend_labels, extract, fit, fit_k};
use crate::error::{Error, Result, Setting};
use crate::figures::plot::{Labels, Series, write_line_plot};
use crate::records::durable::{write_atomically, write_with};
use crate::tune::probe::LeafSearch;

/// Everything a Texel run needs.
#[derive(Debug, Clone)]
pub struct TexelRun {
    /// The games CSVs (each with its sidecar).
    pub files: Vec<PathBuf>,
    /// Which positions to keep, and the split.
    pub filter: PositionFilter,
    /// The evaluation to start from.
    pub eval: EvalSpec,
    /// The fit's settings (its fixed weights come from `fix`).
    pub fit: FitOptions,
    /// The depth of the leaf search that replaces each position (0: none).
    pub leaf_depth: u32,
    /// The label's blend λ: 1 is the game's result alone (see [`blend_labels`]).
    pub lambda: f64,
    /// Weights held fixed, by feature name: at this value, or at the start (`None`).
    pub fix: Vec<(String, Option<f64>)>,
    /// The folder for `weights.json`, `tune.csv`, `summary.md` and `losses.svg`.
    pub out: PathBuf,
}

/// What a Texel run found.
#[derive(Debug, Clone)]
pub struct TexelOutcome {
    /// The feature names.
    pub names: Vec<&'static str>,
    /// The fitted K.
    pub k: f64,
    /// The fit's steps, the start first.
    pub steps: Vec<FitStep>,
    /// Training and validation positions.
    pub positions: (usize, usize),
    /// Seconds spent extracting and fitting.
    pub seconds: (f64, f64),
}

impl TexelOutcome {
    /// The tuned weights by feature name.
    #[must_use]
    pub fn weights(&self) -> BTreeMap<String, f64> {
        let last = self.steps.last().expect("a fit has its start");
        self.names
            .iter()
            .zip(&last.weights)
            .map(|(n, w)| ((*n).to_string(), *w))
            .collect()
    }
}

/// The weights `eval` gives the game: the start of a fit, and the linear evaluation whose K a
/// net keeps.
pub(crate) fn start_weights(game: &AnyGame, eval: &EvalSpec) -> Result<Vec<f64>> {
    struct Weights<'a>(&'a EvalSpec);
    impl GameVisitor for Weights<'_> {
        type Output = Result<Vec<f64>>;
        fn visit<G: Game + Features>(self, start: G) -> Result<Vec<f64>> {
            Evaluator::new(self.0, &start)
                .map(|e| e.weights().to_vec())
                .map_err(|e| Error::setting(e.reason))
        }
    }
    game.visit(Weights(eval))
}

/// Runs Texel tuning and writes its four files; `progress` hears each step.
pub fn run_texel(run: &TexelRun, mut progress: impl FnMut(&FitStep)) -> Result<TexelOutcome> {
    if run.out.is_file() {
        return Err(Error::about(
            Setting::OutFolder,
            format_args!("{} is a file; give a folder", run.out.display()),
        ));
    }
    let clock = Instant::now();
    let leaf = (run.leaf_depth > 0).then(|| LeafSearch::leaf(run.leaf_depth, run.eval.clone()));
    let mut data = extract(&run.files, &run.filter, leaf.as_ref(), None)?;
    let mut start = start_weights(&data.game_start, &run.eval)?;
    let mut options = run.fit.clone();
    options.fixed = vec![false; start.len()];
    for (name, value) in &run.fix {
        let j = data.names.iter().position(|n| n == name).ok_or_else(|| {
            Error::about(
                Setting::FixedWeight,
                format_args!(
                    "{name}: {} has no such feature; its features: {}",
                    data.game,
                    data.names.join(", ")
                ),
            )
        })?;
        options.fixed[j] = true;
        if let Some(v) = value {
            start[j] = *v;
        }
    }
    let extracted = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let k = fit_k(&data.train, &start)?;
    options.refit_k = options.fixed.iter().any(|&f| f);
    blend_labels(&mut data.train, k, run.lambda)?;
    blend_labels(&mut data.validation, k, run.lambda)?;
    let steps = fit(
        &data.train,
        &data.validation,
        &start,
        k,
        &options,
        &mut progress,
    );
    let fitted = clock.elapsed().as_secs_f64();
    let outcome = TexelOutcome {
        names: data.names.clone(),
        k,
        steps,
        positions: (data.train.len(), data.validation.len()),
        seconds: (extracted, fitted),
    };
    std::fs::create_dir_all(&run.out).map_err(|e| Error::io("create", &run.out, &e))?;
    let json = serde_json::to_string_pretty(&outcome.weights()).expect("weights serialise");
    write_atomically(
        &run.out.join("weights.json"),
        format!("{json}\n").as_bytes(),
    )?;
    write_tune_csv(&run.out.join("tune.csv"), &outcome)?;
    let series = vec![
        Series {
            name: "training".into(),
            points: outcome
                .steps
                .iter()
                .map(|s| (f64::from(s.iteration), s.train_loss))
                .collect(),
        },
        Series {
            name: "validation".into(),
            points: outcome
                .steps
                .iter()
                .map(|s| (f64::from(s.iteration), s.validation_loss))
                .collect(),
        },
    ];
    write_line_plot(
        &run.out.join("losses.svg"),
        Labels {
            title: &format!("Texel tuning of {}: mean squared error", data.game),
            x: "iteration (Levenberg–Marquardt step)",
            y: "mean squared error of σ(K·eval) against the result",
        },
        &series,
    )?;
    let summary = summary_markdown(run, data.game, data.games, &outcome);
    write_atomically(&run.out.join("summary.md"), summary.as_bytes())?;
    Ok(outcome)
}

fn write_tune_csv(path: &Path, outcome: &TexelOutcome) -> Result<()> {
    write_with(path, |file| {
        use std::io::Write;
        let mut header = "iteration,train_loss,validation_loss,k,damping".to_string();
        for n in &outcome.names {
            header.push_str(&format!(",w.{n}"));
        }
        writeln!(file, "{header}")?;
        for s in &outcome.steps {
            let mut line = format!(
                "{},{:?},{:?},{:?},{:?}",
                s.iteration, s.train_loss, s.validation_loss, s.k, s.damping
            );
            for w in &s.weights {
                line.push_str(&format!(",{w:?}"));
            }
            writeln!(file, "{line}")?;
        }
        Ok(())
    })
}

fn summary_markdown(run: &TexelRun, game: &str, games: (usize, usize), o: &TexelOutcome) -> String {
    let first = &o.steps[0];
    let last = o.steps.last().expect("a fit has its start");
    let mut md = String::new();
    let _ = writeln!(md, "# Texel tuning of {game}\n");
    let files: Vec<String> = run
        .files
        .iter()
        .map(|f| format!("`{}`", f.display()))
        .collect();
    let _ = writeln!(
        md,
        "Positions from {} ({} games read, {} used; games lost by a fault are left out). Kept: {}. Training positions: {}; validation positions: {}.\n",
        files.join(", "),
        games.0,
        games.1,
        run.filter.describe(),
        o.positions.0,
        o.positions.1
    );
    let _ = writeln!(
        md,
        "Model: the result for the first-listed colour is predicted as σ(K · Σ wⱼ (fⱼ(first) − fⱼ(second))), σ the logistic function. {} {} K = {:.4}, fitted with the starting weights ({:.4} at the end: refitted whenever the weights settle, while a weight is held fixed); then the weights by Levenberg–Marquardt (L2 penalty λ = {} toward the start{}; held fixed: {}), {} kept steps. Extraction took {:.1} s, the fit {:.1} s.\n",
        if run.leaf_depth > 0 {
            format!(
                "Each position is the leaf of a depth-{} alpha-beta search from the recorded one (its principal variation, with the starting weights).",
                run.leaf_depth
            )
        } else {
            "Positions as recorded.".to_string()
        },
        if run.lambda < 1.0 {
            format!(
                "The label is {} × the game's result + {} × σ(K · the search's value).",
                run.lambda,
                1.0 - run.lambda
            )
        } else {
            "The label is the game's result.".to_string()
        },
        o.k,
        last.k,
        run.fit.l2,
        if run.fit.scale {
            ", each weight's move in units of its feature's standard deviation"
        } else {
            ""
        },
        if run.fix.is_empty() {
            "none".to_string()
        } else {
            run.fix
                .iter()
                .map(|(n, v)| match v {
                    Some(v) => format!("`{n}` = {v}"),
                    None => format!("`{n}` at its start"),
                })
                .collect::<Vec<_>>()
                .join(", ")
        },
        o.steps.len() - 1,
        o.seconds.0,
        o.seconds.1
    );
    let _ = writeln!(md, "| feature | start | tuned |\n|---|---|---|");
    for (i, n) in o.names.iter().enumerate() {
        let _ = writeln!(
            md,
            "| `{n}` | {:.4} | {:.4} |",
            first.weights[i], last.weights[i]
        );
    }
    let _ = writeln!(
        md,
        "\n| mean squared error | start | tuned |\n|---|---|---|\n| training | {:.6} | {:.6} |\n| validation | {:.6} | {:.6} |\n",
        first.train_loss, last.train_loss, first.validation_loss, last.validation_loss
    );
    let verdict = if last.validation_loss < first.validation_loss {
        "The tuned weights predict the held-out games' results better than the start."
    } else {
        "The tuned weights do **not** predict the held-out games better than the start: the fit learned nothing that carries over."
    };
    let _ = writeln!(
        md,
        "{verdict} A lower error is not yet a stronger player: check with a match (`alphabeta:weights=weights.json` against the start).\n\n![Losses](losses.svg)\n\nFiles: `weights.json` (load with `weights=FILE`), `tune.csv` (every step), `losses.svg`."
    );
    md
}
