//! `arena tune zero`: AlphaZero's loop (Silver et al. 2018, as OpenSpiel's `alpha_zero` runs
//! it) on this machine, resumable, every generation kept in its own folder.
//!
//! Generation `g` self-plays with the best network so far (PUCT, Dirichlet noise at the
//! root, moves drawn by visits for the first plies; [`super::zero`]); the next network is
//! trained in PyTorch (`python -m ringside.zero train`) on the samples of the last `window`
//! generations, starting from generation `g`'s network, each position under a symmetry of the
//! board drawn afresh; then it plays the best network in a colour-swapped gate match and
//! becomes the best when it scores at least the gate's threshold; and it plays the reference
//! agent, if one is given, for the strength-by-generation figure.
//!
//! Files in the folder:
//! - `zero.settings.json`: the run's settings; a rerun with other settings is refused, but for
//!   the number of generations, which a rerun may raise to continue the run;
//! - `gen-NNN/`: `net.rspvn` (play it with `mcts:pv=FILE`), `net.pt` and `train.json` (the
//!   trainer's losses); `selfplay.samples` and `selfplay.csv` (its self-play games, played by
//!   the best network, named there by content id); `gate.csv` and `reference.csv` (the
//!   matches, with their sidecars);
//! - `generations.csv`: one row a finished generation;
//! - `losses.svg`, `strength.svg`; `summary.md`.
//!
//! Each step writes its output whole (write-then-rename; the matches are resumable runs), and a
//! rerun starts at the first step whose output is missing: a run killed anywhere resumes to
//! the same networks, since every draw is seeded and the trainer is too.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use rayon::prelude::*;
use ringside_agents::AgentSpec;
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{CellShape, Features, Game, Outcome};

use super::zero::{Resigned, SelfPlay, samples_header, self_play_game, write_sample};
use crate::error::{Error, ErrorKind, Result, Setting};
use crate::figures::plot::{Bars, Bounds, Labels, Series, interval_plot_svg, write_line_plot};
use crate::figures::sprt::Decision;
use crate::figures::stats::wilson;
use crate::plan::{RawAgent, RawPlan, RunPlan, SprtConfig};
use crate::records::durable::write_atomically;
use crate::records::lock::OutputLock;
use crate::run::pool::Silent;
use crate::run::runner::run_to_csv;

/// The settings of a run (what `zero.settings.json` records).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ZeroSettings {
    /// The game (its spec in the settings file).
    #[serde(with = "crate::plan::game_spec")]
    pub game: AnyGame,
    /// The run's seed.
    pub seed: u64,
    /// Generations of self-play and training.
    pub generations: u32,
    /// Self-play games a generation.
    pub games: u32,
    /// PUCT's simulations a move, in self-play and in the matches.
    pub iters: u32,
    /// PUCT's exploration constant.
    pub puct: f64,
    /// The share of Dirichlet noise in the root's prior in self-play, and its α.
    pub noise: f64,
    /// The noise's Dirichlet α.
    pub alpha: f64,
    /// Plies whose moves are drawn in proportion to the visits.
    pub temperature_plies: u32,
    /// The most plies of a self-play game.
    pub ply_cap: u32,
    /// The network: trunk layers, channels and the value head's width.
    pub layers: u32,
    /// The trunk's channels.
    pub channels: u32,
    /// The value head's hidden width.
    pub hidden: u32,
    /// Passes over the samples a generation.
    pub epochs: u32,
    /// Positions a training step.
    pub batch: u32,
    /// Adam's step size.
    pub lr: f64,
    /// Generations of samples trained on (the replay buffer).
    pub window: u32,
    /// Games of each gate match (colour-swapped pairs); 0: every new network is taken.
    pub gate_games: u64,
    /// The score the new network needs against the best to become it.
    pub gate_score: f64,
    /// An SPRT that decides the gate before its games run out (`elo0,elo1,alpha,beta`, as
    /// `arena match --sprt` takes it): H1 takes the new network, H0 keeps the best; undecided
    /// at `gate_games`, the score decides.
    #[serde(default)]
    pub gate_sprt: Option<String>,
    /// Random opening plies of the matches' games (the networks' search is deterministic).
    pub opening_plies: u32,
    /// The agent every generation's network plays for the strength figure, if any.
    pub reference: Option<String>,
    /// Games of each reference match.
    pub reference_games: u64,
    /// Resignation: the value below which a self-play player resigns (`None`: never).
    #[serde(default)]
    pub resign: Option<f64>,
    /// The share of self-play games played out past a resignation, to count false ones.
    #[serde(default)]
    pub resign_check: f64,
}

impl ZeroSettings {
    /// Refuses settings that cannot run, in one line.
    pub fn check(&self) -> Result<()> {
        let positive = [
            (self.games, "--games"),
            (self.iters, "--iters"),
            (self.layers, "--layers"),
            (self.channels, "--channels"),
            (self.hidden, "--hidden"),
            (self.epochs, "--epochs"),
            (self.batch, "--batch"),
            (self.window, "--window"),
            (self.ply_cap, "--ply-cap"),
        ];
        if let Some((_, name)) = positive.iter().find(|(v, _)| *v == 0) {
            return Err(Error::setting(format!("{name} must be at least 1")));
        }
        for (games, name) in [
            (self.gate_games, "--gate-games"),
            (self.reference_games, "--reference-games"),
        ] {
            if games % 2 == 1 {
                return Err(Error::about(
                    Setting::Games,
                    format_args!("{name} must be even (colour-swapped pairs), not {games}"),
                ));
            }
        }
        let unit = [
            (self.noise, "--noise"),
            (self.gate_score, "--gate-score"),
            (self.resign_check, "--resign-check"),
        ];
        if let Some((v, name)) = unit.iter().find(|(v, _)| !(0.0..=1.0).contains(v)) {
            return Err(Error::setting(format!(
                "{name} must be from 0 to 1, not {v}"
            )));
        }
        let above = [
            (self.puct, "--puct"),
            (self.alpha, "--alpha"),
            (self.lr, "--lr"),
        ];
        if let Some((v, name)) = above.iter().find(|(v, _)| !(*v > 0.0 && v.is_finite())) {
            return Err(Error::setting(format!(
                "{name} must be a positive number, not {v}"
            )));
        }
        if let Some(v) = self.resign.filter(|v| !(-1.0..=1.0).contains(v)) {
            return Err(Error::setting(format!(
                "--resign must be a value from -1 to 1, not {v}"
            )));
        }
        if let Some(text) = &self.gate_sprt {
            SprtConfig::parse(text)?;
            if self.gate_games == 0 {
                return Err(Error::setting("--gate-sprt needs --gate-games above 0"));
            }
        }
        if let Some(r) = &self.reference {
            AgentSpec::parse(r).map_err(|e| Error::setting(format!("--reference: {e}")))?;
        }
        struct Grid;
        impl GameVisitor for Grid {
            type Output = bool;
            fn visit<G: Game + Features>(self, start: G) -> bool {
                start.grid_side().is_some()
            }
        }
        if !self.game.clone().visit(Grid) {
            return Err(Error::setting(format!(
                "{} has no grid for a network (grid_planes)",
                self.game
            )));
        }
        Ok(())
    }

    /// The spec of generation `g`'s network as a player, with self-play's noise or without.
    fn player(&self, out: &Path, g: u32, noise: bool) -> String {
        let mut spec = format!(
            "mcts:pv={},iters={},puct={},reuse=off",
            net_path(out, g).display(),
            self.iters,
            self.puct
        );
        if noise && self.noise > 0.0 {
            let _ = write!(spec, ",pv_noise={},pv_alpha={}", self.noise, self.alpha);
        }
        spec
    }

    /// A colour-swapped match of `a` against `b`, seeded for generation `g` and `what`,
    /// stopped by `sprt` where it decides.
    fn plan(
        &self,
        (a, b): (&str, &str),
        games: u64,
        (g, what): (u32, u64),
        sprt: Option<SprtConfig>,
    ) -> Result<RunPlan> {
        let raw_agent = |spec: &str| -> Result<RawAgent> {
            let parsed = AgentSpec::parse(spec).map_err(|e| Error::setting(e.to_string()))?;
            Ok(RawAgent {
                label: spec.to_string(),
                spec: parsed.to_string(),
                weights: None,
            })
        };
        let raw = RawPlan {
            game: self.game.spec(),
            agents: vec![raw_agent(a)?, raw_agent(b)?],
            pairings: vec![(0, 1)],
            games_per_pairing: games,
            seed: self.seed_of(g, what),
            ply_cap: Some(self.ply_cap),
            opening_plies: self.opening_plies,
            opening_stops: Some(true),
            time_margin_ms: None,
            sprt,
            shard: None,
        };
        RunPlan::from_game_and_raw(self.game.clone(), &raw)
    }

    /// A seed for generation `g`'s step `what`, fixed by the run's seed.
    fn seed_of(&self, g: u32, what: u64) -> u64 {
        ringside_engine::zobrist::splitmix64(
            self.seed ^ (u64::from(g) << 8) ^ what.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        )
    }
}

/// Three counts: wins, draws and losses, or resignations as [`Generation::resigns`] has them.
type Counts = (u64, u64, u64);

/// Generation `g`'s folder.
fn gen_dir(out: &Path, g: u32) -> PathBuf {
    out.join(format!("gen-{g:03}"))
}

/// Generation `g`'s network, as the agents read it.
fn net_path(out: &Path, g: u32) -> PathBuf {
    gen_dir(out, g).join("net.rspvn")
}

/// What a generation did: one row of `generations.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct Generation {
    /// Its number (1 for the first trained network).
    pub generation: u32,
    /// The network that played its self-play (the best before it).
    pub played_by: u32,
    /// Its network's content id.
    pub net_id: u64,
    /// Self-play games and their first player's wins, draws (the ply cap's included) and
    /// losses.
    pub selfplay: (u64, u64, u64),
    /// Self-play games resigned; check games whose player would have resigned; and of
    /// those the ones it did not lose (false resignations).
    pub resigns: (u64, u64, u64),
    /// Samples the network was trained on.
    pub samples: u64,
    /// The last epoch's training losses (policy, value) and held-out ones, if any.
    pub losses: (f64, f64, Option<(f64, f64)>),
    /// The gate: the new network's wins, draws and losses against the best, and whether it
    /// became the best.
    pub gate: Option<((u64, u64, u64), bool)>,
    /// The new network's wins, draws and losses against the reference agent.
    pub reference: Option<(u64, u64, u64)>,
}

/// What the loop tells its watcher.
#[derive(Debug, Clone, PartialEq)]
pub enum ZeroEvent {
    /// A step begins: its generation and what it is.
    Step(u32, &'static str),
    /// A generation ended.
    Done(Generation),
}

/// Runs (or resumes) the loop into `out`, training with `python` (`PY -m ringside.zero`),
/// self-play on `threads` threads; `watch` hears each step.
pub fn run_zero(
    settings: &ZeroSettings,
    out: &Path,
    python: &str,
    threads: Option<usize>,
    mut watch: impl FnMut(&ZeroEvent),
) -> Result<Vec<Generation>> {
    settings.check()?;
    if out.is_file() {
        return Err(Error::about(
            Setting::OutFolder,
            format_args!("{} is a file; give a folder", out.display()),
        ));
    }
    std::fs::create_dir_all(out).map_err(|e| Error::io("create", out, &e))?;
    let _lock = OutputLock::take(&out.join("generations.csv"))?;
    let settings_path = out.join("zero.settings.json");
    if settings_path.exists() {
        let text = std::fs::read_to_string(&settings_path)
            .map_err(|e| Error::io("read", &settings_path, &e))?;
        let recorded: ZeroSettings = serde_json::from_str(&text)
            .map_err(|e| Error::corrupt(format!("{}: {e}", settings_path.display())))?;
        // More (or fewer) generations continue the same run; without resignation its
        // check share means nothing (a run recorded before resignation has none).
        let same = ZeroSettings {
            generations: settings.generations,
            resign_check: if recorded.resign.is_none() && settings.resign.is_none() {
                settings.resign_check
            } else {
                recorded.resign_check
            },
            ..recorded
        };
        if &same != settings {
            return Err(Error::new(
                ErrorKind::OtherSettings,
                format!(
                    "{} holds a run with other settings; give another --out or the same settings",
                    out.display()
                ),
            ));
        }
    }
    let json = serde_json::to_string_pretty(settings).expect("settings serialise");
    write_atomically(&settings_path, format!("{json}\n").as_bytes())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::setting(format!("threads: {e}")))?;
    if !net_path(out, 0).exists() {
        watch(&ZeroEvent::Step(0, "a network of random weights"));
        let hex = is_hex(&settings.game);
        let mut args = vec![
            "init".to_string(),
            "--out".into(),
            path_text(&gen_dir(out, 0)),
            "--layers".into(),
            settings.layers.to_string(),
            "--channels".into(),
            settings.channels.to_string(),
            "--hidden".into(),
            settings.hidden.to_string(),
            "--seed".into(),
            settings.seed.to_string(),
        ];
        if hex {
            args.push("--hex".into());
        }
        trainer(python, &args)?;
    }
    let mut best = 0;
    let mut done = Vec::new();
    for g in 0..settings.generations {
        let dir = gen_dir(out, g);
        let samples = dir.join("selfplay.samples");
        if !samples.exists() {
            watch(&ZeroEvent::Step(g, "self-play"));
            let play = SelfPlay {
                agent: AgentSpec::parse(&settings.player(out, best, true))
                    .map_err(|e| Error::setting(e.to_string()))?,
                temperature_plies: settings.temperature_plies,
                ply_cap: settings.ply_cap,
                resign: settings.resign,
            };
            let seed = settings.seed_of(g, 1);
            let net_id = content_id(&net_path(out, best))?;
            let batch = Batch {
                play: &play,
                seed,
                games: settings.games,
                check: settings.resign_check,
                played_by: best,
                net_id,
            };
            pool.install(|| self_play(&settings.game, &batch, &dir))?;
        }
        let next = g + 1;
        let next_dir = gen_dir(out, next);
        if !net_path(out, next).exists() {
            watch(&ZeroEvent::Step(next, "training"));
            let first = (g + 1).saturating_sub(settings.window);
            let mut args = vec![
                "train".to_string(),
                "--init".into(),
                path_text(&dir.join("net.pt")),
                "--out".into(),
                path_text(&next_dir),
                "--epochs".into(),
                settings.epochs.to_string(),
                "--batch".into(),
                settings.batch.to_string(),
                "--lr".into(),
                settings.lr.to_string(),
                "--seed".into(),
                settings.seed_of(next, 2).to_string(),
                "--threads".into(),
                threads.unwrap_or(0).to_string(),
                "--samples".into(),
            ];
            args.extend((first..=g).map(|k| path_text(&gen_dir(out, k).join("selfplay.samples"))));
            trainer(python, &args)?;
        }
        let gate = if settings.gate_games > 0 {
            watch(&ZeroEvent::Step(next, "gate match"));
            let sprt = settings
                .gate_sprt
                .as_deref()
                .map(SprtConfig::parse)
                .transpose()?;
            let plan = settings.plan(
                (
                    &settings.player(out, next, false),
                    &settings.player(out, best, false),
                ),
                settings.gate_games,
                (next, 3),
                sprt,
            )?;
            let (wdl, decision) = match_wdl(&plan, &next_dir.join("gate.csv"), threads)?;
            let taken = match decision {
                Some(Decision::H1) => true,
                Some(Decision::H0) => false,
                None => score(wdl).0 >= settings.gate_score,
            };
            Some((wdl, taken))
        } else {
            None
        };
        let played_by = best;
        if gate.is_none_or(|(_, taken)| taken) {
            best = next;
        }
        let reference = match &settings.reference {
            Some(r) if settings.reference_games > 0 => {
                watch(&ZeroEvent::Step(next, "reference match"));
                let plan = settings.plan(
                    (&settings.player(out, next, false), r),
                    settings.reference_games,
                    (next, 4),
                    None,
                )?;
                Some(match_wdl(&plan, &next_dir.join("reference.csv"), threads)?.0)
            }
            _ => None,
        };
        let games = selfplay_results(&dir.join("selfplay.csv"))?;
        let row = Generation {
            generation: next,
            played_by,
            net_id: content_id(&net_path(out, next))?,
            selfplay: games.0,
            resigns: games.1,
            samples: 0,
            losses: (0.0, 0.0, None),
            gate,
            reference,
        };
        let row = with_training(row, &next_dir.join("train.json"))?;
        watch(&ZeroEvent::Done(row.clone()));
        done.push(row);
        write_records(out, settings, &done)?;
    }
    Ok(done)
}

/// Whether the game's cells are hexagons (the network's kernel).
fn is_hex(game: &AnyGame) -> bool {
    struct Shape;
    impl GameVisitor for Shape {
        type Output = bool;
        fn visit<G: Game + Features>(self, start: G) -> bool {
            start.cell_shape() == CellShape::Hex
        }
    }
    game.clone().visit(Shape)
}

fn path_text(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn content_id(path: &Path) -> Result<u64> {
    let bytes = std::fs::read(path).map_err(|e| Error::io("read", path, &e))?;
    Ok(ringside_agents::net::content_id(&bytes))
}

/// Runs `PY -m ringside.zero ARGS`; its failure is one line.
fn trainer(python: &str, args: &[String]) -> Result<()> {
    let output = Command::new(python)
        .args(["-m", "ringside.zero"])
        .args(args)
        .output()
        .map_err(|e| Error::setting(format!("--python {python}: {e}")))?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no message");
    Err(Error::setting(format!(
        "the trainer ({python} -m ringside.zero {}) failed: {line}",
        args.first().map_or("", String::as_str)
    )))
}

/// A generation's self-play: how each game is played, how many, from which seed, the share
/// of resignation checks, and the network that plays them (its generation and content id).
struct Batch<'a> {
    play: &'a SelfPlay,
    seed: u64,
    games: u32,
    check: f64,
    played_by: u32,
    net_id: u64,
}

/// Plays a generation's self-play games on the current pool and writes its samples and games.
fn self_play(game: &AnyGame, batch: &Batch<'_>, dir: &Path) -> Result<()> {
    struct Play<'a> {
        batch: &'a Batch<'a>,
        dir: &'a Path,
    }
    impl GameVisitor for Play<'_> {
        type Output = Result<()>;
        fn visit<G: Game + Features>(self, start: G) -> Result<()> {
            let b = self.batch;
            let results: Vec<_> = (0..b.games)
                .into_par_iter()
                .map(|i| {
                    let seed = ringside_engine::zobrist::splitmix64(b.seed ^ u64::from(i));
                    // Whether this game checks resignation, drawn from its own seed.
                    let check = b.play.resign.is_some()
                        && ((seed >> 11) as f64 / (1u64 << 53) as f64) < b.check;
                    self_play_game(&start, b.play, seed, i, check)
                })
                .collect::<Result<_>>()?;
            let mut samples = samples_header(&start);
            let mut csv = String::from("game,played_by,net_id,plies,result,resigned,moves\n");
            for (i, g) in results.iter().enumerate() {
                for s in &g.samples {
                    write_sample(s, &mut samples);
                }
                let result = match g.outcome {
                    Some(Outcome::Win(p)) if p.index() == 0 => "1-0",
                    Some(Outcome::Win(_)) => "0-1",
                    Some(Outcome::Draw) => "draw",
                    None => "capped",
                };
                let resigned = match g.resigned {
                    Resigned::No => String::new(),
                    Resigned::Resigned(p) => format!("resigned {}", p.index()),
                    Resigned::Would(p, lost) => {
                        format!(
                            "would {} {}",
                            p.index(),
                            if lost { "lost" } else { "wrongly" }
                        )
                    }
                };
                let _ = writeln!(
                    csv,
                    "{i},{},{:016x},{},{result},{resigned},{}",
                    b.played_by,
                    b.net_id,
                    g.samples.len(),
                    g.moves
                );
            }
            write_atomically(&self.dir.join("selfplay.csv"), csv.as_bytes())?;
            // Last: its presence says the step is done.
            write_atomically(&self.dir.join("selfplay.samples"), &samples)
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, &e))?;
    game.clone().visit(Play { batch, dir })
}

/// Plays (or resumes) `plan` into `path`: the first agent's wins, draws and losses, and the
/// SPRT's decision where the plan has one and it decided.
fn match_wdl(
    plan: &RunPlan,
    path: &Path,
    threads: Option<usize>,
) -> Result<(Counts, Option<Decision>)> {
    let report = run_to_csv(plan, path, threads, &mut Silent)?;
    let summary = report.tally.pairings()[0];
    Ok(((summary.all.w, summary.all.d, summary.all.l), report.sprt))
}

/// A self-play record read back: the first player's wins, draws (and capped games) and
/// losses; games resigned; check games whose player would have resigned, and of those the
/// ones it did not lose.
fn selfplay_results(path: &Path) -> Result<(Counts, Counts)> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, &e))?;
    let header = text.lines().next().unwrap_or("");
    // Records written before resignation have no resigned column.
    let resign_column = header.split(',').position(|h| h == "resigned");
    let (mut wdl, mut resigns) = ((0, 0, 0), (0, 0, 0));
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        match fields.get(4) {
            Some(&"1-0") => wdl.0 += 1,
            Some(&"0-1") => wdl.2 += 1,
            Some(_) => wdl.1 += 1,
            None => return Err(Error::corrupt(format!("{}: a short row", path.display()))),
        }
        let resigned = resign_column
            .and_then(|k| fields.get(k))
            .copied()
            .unwrap_or("");
        if resigned.starts_with("resigned") {
            resigns.0 += 1;
        } else if resigned.starts_with("would") {
            resigns.1 += 1;
            if resigned.ends_with("wrongly") {
                resigns.2 += 1;
            }
        }
    }
    Ok((wdl, resigns))
}

/// `row` with the samples and last losses of the trainer's record.
fn with_training(mut row: Generation, path: &Path) -> Result<Generation> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, &e))?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Error::corrupt(format!("{}: {e}", path.display())))?;
    row.samples = json["samples"].as_u64().unwrap_or(0);
    if let Some(last) = json["epochs"].as_array().and_then(|e| e.last()) {
        let f = |k: &str| last[k].as_f64();
        row.losses = (
            f("policy").unwrap_or(f64::NAN),
            f("value").unwrap_or(f64::NAN),
            f("held_policy").zip(f("held_value")),
        );
    }
    Ok(row)
}

/// Score and 95% Wilson interval of wins, draws and losses (a draw half a point).
fn score(wdl: (u64, u64, u64)) -> (f64, f64, f64) {
    let n = (wdl.0 + wdl.1 + wdl.2) as f64;
    let s = (wdl.0 as f64 + 0.5 * wdl.1 as f64) / n.max(1.0);
    let (lo, hi) = wilson(s, n, 1.96);
    (s, lo, hi)
}

/// Rewrites `generations.csv`, the figures and `summary.md` from the finished generations.
fn write_records(out: &Path, s: &ZeroSettings, rows: &[Generation]) -> Result<()> {
    let mut csv = String::from(
        "generation,net_id,played_by,selfplay_first_wins,selfplay_draws,selfplay_first_losses,resigned,resign_checks,false_resigns,samples,policy_loss,value_loss,held_policy_loss,held_value_loss,gate_wins,gate_draws,gate_losses,gate_taken,reference_wins,reference_draws,reference_losses\n",
    );
    let opt = |v: Option<f64>| v.map_or(String::new(), |x| format!("{x:.5}"));
    for r in rows {
        let (gw, gd, gl, taken) = match r.gate {
            Some(((w, d, l), t)) => (w.to_string(), d.to_string(), l.to_string(), t.to_string()),
            None => Default::default(),
        };
        let (rw, rd, rl) = match r.reference {
            Some((w, d, l)) => (w.to_string(), d.to_string(), l.to_string()),
            None => Default::default(),
        };
        let _ = writeln!(
            csv,
            "{},{:016x},{},{},{},{},{},{},{},{},{:.5},{:.5},{},{},{gw},{gd},{gl},{taken},{rw},{rd},{rl}",
            r.generation,
            r.net_id,
            r.played_by,
            r.selfplay.0,
            r.selfplay.1,
            r.selfplay.2,
            r.resigns.0,
            r.resigns.1,
            r.resigns.2,
            r.samples,
            r.losses.0,
            r.losses.1,
            opt(r.losses.2.map(|h| h.0)),
            opt(r.losses.2.map(|h| h.1)),
        );
    }
    write_atomically(&out.join("generations.csv"), csv.as_bytes())?;
    let x = |r: &Generation| f64::from(r.generation);
    let mut series = vec![
        Series {
            name: "policy (training)".into(),
            points: rows.iter().map(|r| (x(r), r.losses.0)).collect(),
        },
        Series {
            name: "value (training)".into(),
            points: rows.iter().map(|r| (x(r), r.losses.1)).collect(),
        },
    ];
    if rows.iter().all(|r| r.losses.2.is_some()) {
        series.push(Series {
            name: "policy (held out)".into(),
            points: rows
                .iter()
                .filter_map(|r| Some((x(r), r.losses.2?.0)))
                .collect(),
        });
        series.push(Series {
            name: "value (held out)".into(),
            points: rows
                .iter()
                .filter_map(|r| Some((x(r), r.losses.2?.1)))
                .collect(),
        });
    }
    let title = format!("tune zero on {}: losses by generation", s.game);
    write_line_plot(
        &out.join("losses.svg"),
        Labels {
            title: &title,
            x: "generation",
            y: "loss (last epoch)",
        },
        &series,
    )?;
    let mut bars = Vec::new();
    let gate: Vec<_> = rows
        .iter()
        .filter_map(|r| {
            let (v, lo, hi) = score(r.gate?.0);
            Some((x(r), v, lo, hi))
        })
        .collect();
    if !gate.is_empty() {
        bars.push(Bars {
            name: "against the best before it".into(),
            points: gate,
            open_at: Vec::new(),
            again: Vec::new(),
        });
    }
    let reference: Vec<_> = rows
        .iter()
        .filter_map(|r| {
            let (v, lo, hi) = score(r.reference?);
            Some((x(r), v, lo, hi))
        })
        .collect();
    if !reference.is_empty() {
        bars.push(Bars {
            name: format!("against {}", s.reference.as_deref().unwrap_or("")),
            points: reference,
            open_at: Vec::new(),
            again: Vec::new(),
        });
    }
    if !bars.is_empty() {
        // One series has no legend: the title names its opponent.
        let title = match &bars[..] {
            [one] => format!(
                "tune zero on {}: each generation's score {} (95% interval)",
                s.game, one.name
            ),
            _ => format!(
                "tune zero on {}: each generation's score (95% interval)",
                s.game
            ),
        };
        let svg = interval_plot_svg(
            Labels {
                title: &title,
                x: "generation",
                y: "score of the generation's network",
            },
            &bars,
            None,
            Bounds::SCORE,
        )?;
        write_atomically(&out.join("strength.svg"), svg.as_bytes())?;
    }
    write_atomically(&out.join("summary.md"), summary(s, rows).as_bytes())
}

fn summary(s: &ZeroSettings, rows: &[Generation]) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# tune zero on {}\n", s.game);
    let _ = writeln!(
        md,
        "Self-play {} games a generation by PUCT at {} simulations a move (puct {}, root noise {} with α {}, moves drawn by visits for {} plies); a network of {} layers of {} channels (value head {}); {} epochs a generation on the last {} generations' samples, each position under a symmetry of the board drawn afresh.\n",
        s.games,
        s.iters,
        s.puct,
        s.noise,
        s.alpha,
        s.temperature_plies,
        s.layers,
        s.channels,
        s.hidden,
        s.epochs,
        s.window
    );
    if let Some(v) = s.resign {
        let (resigned, checks, wrong): (u64, u64, u64) = rows.iter().fold((0, 0, 0), |a, r| {
            (a.0 + r.resigns.0, a.1 + r.resigns.1, a.2 + r.resigns.2)
        });
        let rate = if checks > 0 {
            format!(", {:.1}%", 100.0 * wrong as f64 / checks as f64)
        } else {
            String::new()
        };
        let _ = writeln!(
            md,
            "Resignation below {v}: {resigned} games resigned; in the {:.0}% of games played out to check, {checks} players would have resigned and {wrong} of them did not lose (false resignations{rate}).\n",
            100.0 * s.resign_check
        );
    }
    let _ = writeln!(
        md,
        "| generation | played by | samples | policy loss | value loss | held out | gate | reference |\n|---|---|---|---|---|---|---|---|"
    );
    for r in rows {
        let held = r
            .losses
            .2
            .map_or(String::from("—"), |(p, v)| format!("{p:.3} / {v:.3}"));
        let gate = r.gate.map_or(String::from("—"), |((w, d, l), t)| {
            format!("{w}-{d}-{l}{}", if t { ", taken" } else { "" })
        });
        let reference = r.reference.map_or(String::from("—"), |(w, d, l)| {
            format!("{w}-{d}-{l} ({:.3})", score((w, d, l)).0)
        });
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.3} | {:.3} | {held} | {gate} | {reference} |",
            r.generation, r.played_by, r.samples, r.losses.0, r.losses.1
        );
    }
    md
}
