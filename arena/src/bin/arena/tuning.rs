//! `arena tune texel|net|spsa|shapes`: the tuners' flags into their settings, their progress onto a
//! bar, their outcome into a few lines.

use ringside_arena::Error;
use ringside_arena::figures::report;
use ringside_arena::run::pool::thread_count;

use crate::cli::{NetArgs, ShapesArgs, SpsaArgs, TexelArgs, ZeroArgs};
use crate::output::print;
use crate::progress::steps_bar;

type Result<T> = std::result::Result<T, Error>;

/// Runs `work` on a pool of `threads` workers (default: one per core).
fn on_threads<T: Send>(threads: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T> {
    let n = thread_count(threads)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| Error::setting(format!("cannot start {n} threads: {e}")))?;
    Ok(pool.install(work))
}

/// The weights `--fix` holds, `material` first unless `--free-material`.
fn texel_fixes(args: &TexelArgs) -> Result<Vec<(String, Option<f64>)>> {
    let mut fixes: Vec<(String, Option<f64>)> = Vec::new();
    for item in &args.fix {
        let (name, value) = match item.split_once('=') {
            None => (item.trim(), None),
            Some((name, v)) => match v.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => (name.trim(), Some(v)),
                _ => {
                    return Err(Error::setting(format!(
                        "--fix {item}: the value must be a finite number"
                    )));
                }
            },
        };
        if name.is_empty() || fixes.iter().any(|(n, _)| n == name) {
            return Err(Error::setting(format!(
                "--fix {item}: give each feature once, as NAME or NAME=VALUE"
            )));
        }
        fixes.push((name.to_string(), value));
    }
    if !args.free_material && !fixes.iter().any(|(n, _)| n == "material") {
        fixes.insert(0, ("material".to_string(), None));
    }
    Ok(fixes)
}

/// The positions a tuner keeps, from its flags and seed.
fn position_filter(
    p: &crate::cli::PositionArgs,
    seed: u64,
    net: bool,
) -> Result<ringside_arena::tune::texel::PositionFilter> {
    use ringside_arena::tune::texel::Split;
    let split = match p.split.as_deref() {
        None if net => Split::Distinct,
        None | Some("id") => Split::Id,
        Some("distinct") => Split::Distinct,
        Some(other) => {
            return Err(Error::setting(format!(
                "--split must be id or distinct, not '{other}'"
            )));
        }
    };
    Ok(ringside_arena::tune::texel::PositionFilter {
        skip_plies: p.skip_plies,
        per_game: p.per_game,
        drop_decided: p.drop_decided,
        validation_share: p.validation,
        seed,
        split,
        test_share: p.test.unwrap_or(if net { 0.1 } else { 0.0 }),
    })
}

/// The linear evaluation `--eval` names.
fn linear_eval(name: &str) -> Result<ringside_agents::EvalKind> {
    use ringside_agents::EvalKind;
    match name {
        "material" => Ok(EvalKind::Material),
        "rich" => Ok(EvalKind::Rich),
        "tuned" => Ok(EvalKind::Tuned),
        other => Err(Error::setting(format!(
            "--eval must be material, rich or tuned, not '{other}'"
        ))),
    }
}

/// Runs `arena tune texel`.
pub fn tune_texel(args: &TexelArgs) -> Result<()> {
    use ringside_agents::{EvalSpec, read_weights};
    use ringside_arena::tune::texel::FitOptions;
    use ringside_arena::tune::texel_run::{TexelRun, run_texel};
    let kind = linear_eval(&args.eval)?;
    let weights = match &args.weights {
        None => Default::default(),
        Some(path) => {
            read_weights(path).map_err(|e| Error::setting(format!("--weights {path}: {e}")))?
        }
    };
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(Error::setting(format!(
            "--l2 must be a finite number from 0 up, not {}",
            args.l2
        )));
    }
    let run = TexelRun {
        files: args.files.clone(),
        filter: position_filter(&args.positions, args.seed, false)?,
        eval: EvalSpec {
            kind,
            weights_file: args.weights.clone(),
            weights,
            overrides: Default::default(),
            net: None,
        },
        fit: FitOptions {
            iterations: args.iterations,
            l2: args.l2,
            scale: !args.no_scale,
            ..FitOptions::default()
        },
        leaf_depth: args.leaf_depth,
        lambda: args.lambda,
        fix: texel_fixes(args)?,
        out: args.out.clone(),
    };
    let outcome = on_threads(args.threads, || {
        run_texel(&run, |step| {
            eprintln!(
                "iteration {:>3}: training {:.6}, validation {:.6}",
                step.iteration, step.train_loss, step.validation_loss
            );
        })
    })??;
    let last = outcome.steps.last().expect("a fit has its start");
    let weights: Vec<String> = outcome
        .names
        .iter()
        .zip(&last.weights)
        .map(|(n, w)| format!("{n}={w:.4}"))
        .collect();
    print(&format!(
        "positions={} validation_positions={} k={:.4} train_loss={:.6} validation_loss={:.6} extract_s={:.2} fit_s={:.2} weights: {}\nwrote {}\n",
        outcome.positions.0,
        outcome.positions.1,
        outcome.k,
        last.train_loss,
        last.validation_loss,
        outcome.seconds.0,
        outcome.seconds.1,
        weights.join(" "),
        args.out.join("weights.json").display()
    ))
}

/// Runs `arena tune shapes`.
pub fn tune_shapes(args: &ShapesArgs) -> Result<()> {
    use ringside_arena::tune::shapes::{ShapeRun, run_shapes};
    let run = ShapeRun {
        files: args.files.clone(),
        filter: position_filter(&args.positions, args.seed, false)?,
        learn: args.learn.clone(),
        iterations: args.iterations,
        min_seen: args.min_seen,
        context: args.context,
        wide: args.wide,
        over: args.over.clone(),
        out: args.out.clone(),
    };
    let outcome = on_threads(args.threads, || {
        run_shapes(&run, |step| {
            eprintln!(
                "step {:>3}: training {:.4}, held out {:.4}, strongest chosen {:.1}%",
                step.iteration,
                step.train_log_p,
                step.validation_log_p,
                100.0 * step.validation_top
            );
        })
    })??;
    let last = outcome.steps.last().expect("a fit has its start");
    print(&format!(
        "games={} positions={} validation_positions={} shapes={} written={} train_log_p={:.4} validation_log_p={:.4} validation_top={:.4}\nwrote {}\n",
        outcome.games.1,
        outcome.positions.0,
        outcome.positions.1,
        outcome.shapes.0,
        outcome.shapes.1,
        last.train_log_p,
        last.validation_log_p,
        last.validation_top,
        args.out.join("shapes.txt").display()
    ))?;
    Ok(())
}

/// Runs `arena tune net`.
pub fn tune_net(args: &NetArgs) -> Result<()> {
    use ringside_agents::EvalSpec;
    use ringside_arena::tune::net::{Loss, TrainOptions};
    use ringside_arena::tune::net_run::{NET_FILE, NetRun, run_net};
    let kind = linear_eval(&args.eval)?;
    let run = NetRun {
        files: args.files.clone(),
        filter: position_filter(&args.positions, args.seed, true)?,
        eval: EvalSpec {
            kind,
            ..EvalSpec::default()
        },
        leaf_depth: args.leaf_depth,
        lambda: args.lambda,
        hidden: args.hidden,
        features: args.features,
        children: args.children,
        keep_searched: args.keep_searched,
        write_anyway: args.write_anyway,
        train: TrainOptions {
            loss: match args.loss.as_str() {
                "chance" => Loss::Chance,
                "logit" => Loss::Logit,
                other => {
                    return Err(Error::setting(format!(
                        "--loss must be chance or logit, not '{other}'"
                    )));
                }
            },
            epochs: args.epochs,
            batch: args.batch,
            rate: args.rate,
            patience: args.patience,
            seed: args.seed,
        },
        out: args.out.clone(),
    };
    let bar = steps_bar(
        args.quiet,
        u64::from(args.epochs),
        "{bar:30} {pos}/{len} epochs eta {eta} {msg}",
    );
    bar.set_message("extracting positions");
    let outcome = on_threads(args.threads, || {
        run_net(&run, |epoch| {
            bar.set_position(u64::from(epoch.epoch));
            bar.set_message(format!(
                "training {:.6}, validation {:.6}",
                epoch.train_loss, epoch.validation_loss
            ));
        })
    })??;
    bar.finish_and_clear();
    let best = outcome
        .epochs
        .iter()
        .rfind(|e| e.best)
        .expect("the start counts as best");
    print(&format!(
        "positions={} validation_positions={} bytes_per_position={:.1} k={:.4} epochs={} best_epoch={} train_loss={:.6} validation_loss={:.6} start_validation_loss={:.6} net_texel_validation_loss={:.6} linear_validation_loss={:.6} extract_s={:.2} train_s={:.2}\nwrote {}\n",
        outcome.positions.0,
        outcome.positions.1,
        outcome.bytes_per_position,
        outcome.k,
        outcome.epochs.len() - 1,
        best.epoch,
        best.train_loss,
        best.validation_loss,
        outcome.epochs[0].validation_loss,
        outcome.net_loss.1,
        outcome.linear_loss.1,
        outcome.seconds.0,
        outcome.seconds.1,
        args.out.join(NET_FILE).display()
    ))
}

/// Runs `arena tune spsa`.
pub fn tune_spsa(args: &SpsaArgs) -> Result<()> {
    use ringside_arena::tune::spsa::Param;
    use ringside_arena::tune::spsa_run::{SpsaSettings, run_spsa};
    let agent = &args.agent.spec;
    let params = args
        .params
        .iter()
        .map(|p| Param::parse(p))
        .collect::<Result<Vec<_>>>()?;
    let settings = SpsaSettings {
        game: args.game.clone(),
        agent: agent.to_string(),
        agent_weights: agent.file_weights().cloned(),
        params,
        iterations: args.iterations,
        pairs_per_iteration: args.pairs,
        seed: args.seed,
        opening_plies: args.opening_plies,
        ply_cap: args.ply_cap,
        verify_games: args.verify_games,
    };
    let bar = steps_bar(
        args.quiet,
        args.iterations,
        "{bar:30} {pos}/{len} iterations {per_sec} eta {eta} θ: {msg}",
    );
    let outcome = run_spsa(&settings, &args.out, args.threads, |record, s| {
        let theta: Vec<String> = s
            .params
            .iter()
            .zip(&record.theta)
            .map(|(p, t)| format!("{}={t:.4}", p.name))
            .collect();
        bar.set_position(record.iteration);
        bar.set_message(theta.join(" "));
    })?;
    bar.finish_and_clear();
    let (games, seconds) = outcome.games_played;
    let theta: Vec<String> = settings
        .params
        .iter()
        .zip(&outcome.theta)
        .map(|(p, t)| format!("{}={t:.4}", p.name))
        .collect();
    let mut text = format!(
        "iterations={} games={games} games_per_s={:.1} theta: {}\ntuned: {}\n",
        outcome.records.len(),
        games as f64 / seconds.max(1e-9),
        theta.join(" "),
        outcome.tuned
    );
    if let Some(v) = outcome.verification {
        let (w, d, l) = v.wdl;
        text.push_str(&format!(
            "verification: {} games, tuned W-D-L {w}-{d}-{l}, Elo {}\n",
            v.games,
            report::elo_text(v.elo)
        ));
    }
    text.push_str(&format!(
        "wrote {}\n",
        args.out.join("summary.md").display()
    ));
    print(&text)
}

/// `arena tune zero`.
pub fn tune_zero(args: &ZeroArgs) -> Result<()> {
    use ringside_arena::tune::zero_run::{ZeroEvent, ZeroSettings, run_zero};
    let settings = ZeroSettings {
        game: args.game.clone(),
        seed: args.seed,
        generations: args.generations,
        games: args.games,
        iters: args.iters,
        puct: args.puct,
        noise: args.noise,
        alpha: args.alpha,
        temperature_plies: args.temperature_plies,
        ply_cap: args.ply_cap,
        layers: args.layers,
        channels: args.channels,
        hidden: args.hidden,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        window: args.window,
        gate_games: args.gate_games,
        gate_score: args.gate_score,
        gate_sprt: args.gate_sprt.clone(),
        opening_plies: args.opening_plies,
        reference: args.reference.clone(),
        reference_games: args.reference_games,
        resign: args.resign,
        resign_check: args.resign_check,
    };
    let started = std::time::Instant::now();
    let rows = run_zero(&settings, &args.out, &args.python, args.threads, |event| {
        if args.quiet {
            return;
        }
        let at = started.elapsed().as_secs_f64();
        match event {
            ZeroEvent::Step(g, what) => eprintln!("[{at:7.1} s] generation {g}: {what}"),
            ZeroEvent::Done(r) => eprintln!(
                "[{at:7.1} s] generation {} done: losses {:.3} / {:.3}, gate {}, reference {}",
                r.generation,
                r.losses.0,
                r.losses.1,
                r.gate.map_or("—".into(), |((w, d, l), t)| format!(
                    "{w}-{d}-{l}{}",
                    if t { " taken" } else { "" }
                )),
                r.reference
                    .map_or("—".into(), |(w, d, l)| format!("{w}-{d}-{l}")),
            ),
        }
    })?;
    let last = rows.last();
    print(&format!(
        "generations={} best_net={} summary={}\n",
        rows.len(),
        last.map_or(String::from("-"), |r| format!("{:016x}", r.net_id)),
        args.out.join("summary.md").display()
    ))
}
