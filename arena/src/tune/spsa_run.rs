//! `arena tune spsa`: the SPSA loop on real games, resumable, with its record, plots, a
//! verification match and a summary, all in one folder.
//!
//! Files in the folder:
//! - `spsa.settings.json`: the run's settings; a rerun with other settings is refused;
//! - `spsa.csv`: one row an iteration, appended and flushed as it ends (θ after the update,
//!   each parameter's flip, `c_k` and `a_k`, and the iteration's wins, draws and losses of θ+).
//!   A rerun replays the recorded results through the schedule, checks that each recorded θ is
//!   what they give, and continues with the next iteration: nothing is lost or repeated;
//! - `theta-NAME.svg`: each parameter's trajectory;
//! - `verify.csv` (and its sidecar): the tuned agent against the starting one, a resumable match;
//! - `summary.md`.

use crate::records::lock::OutputLock;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::Path;
use std::time::Instant;

use rand::RngExt;
use ringside_agents::{AgentSpec, WeightsError};
use ringside_engine::registry::AnyGame;
use ringside_engine::seeded_rng;

use super::spsa::{Param, Perturbation, Spsa};
use crate::error::{Error, ErrorKind, Result, Setting};
use crate::figures::plot::{Labels, Series, write_line_plot};
use crate::figures::report::elo_text;
use crate::plan::{RawAgent, RawPlan, RunPlan};
use crate::records::durable::write_atomically;
use crate::run::pool::Silent;
use crate::run::runner::{run_in_memory, run_to_csv};

/// The settings of an SPSA run (what `spsa.settings.json` records).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SpsaSettings {
    /// The game (its spec in the settings file).
    #[serde(with = "crate::plan::game_spec")]
    pub game: AnyGame,
    /// The agent being tuned, in full form.
    pub agent: String,
    /// The weights of the agent's weights file, if it names one.
    pub agent_weights: Option<BTreeMap<String, f64>>,
    /// The parameters.
    pub params: Vec<Param>,
    /// Iterations.
    pub iterations: u64,
    /// Colour-swapped pairs an iteration.
    pub pairs_per_iteration: u64,
    /// The run's seed.
    pub seed: u64,
    /// Random opening plies of every game.
    pub opening_plies: u32,
    /// The ply cap of every game.
    pub ply_cap: Option<u32>,
    /// Games of the verification match (tuned against start); 0 for none.
    pub verify_games: u64,
}

/// One finished iteration, as `spsa.csv` records it.
#[derive(Debug, Clone, PartialEq)]
pub struct IterationRecord {
    /// 1 for the first.
    pub iteration: u64,
    /// Pairs played before it.
    pub pairs_before: u64,
    /// θ+'s wins, draws, losses.
    pub wdl: (u64, u64, u64),
    /// The probe played.
    pub probe: Perturbation,
    /// θ after the update.
    pub theta: Vec<f64>,
}

/// What a finished SPSA run reports.
#[derive(Debug, Clone)]
pub struct SpsaOutcome {
    /// Every iteration, first to last.
    pub records: Vec<IterationRecord>,
    /// The final θ.
    pub theta: Vec<f64>,
    /// The tuned agent's spec.
    pub tuned: String,
    /// The starting agent's spec.
    pub start: String,
    /// The verification's score, W-D-L and Elo with its 95% interval (tuned's view).
    pub verification: Option<Verification>,
    /// Games played by the tuning (this session) and the seconds they took.
    pub games_played: (u64, f64),
}

/// The tuned agent against the start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Verification {
    /// Games.
    pub games: u64,
    /// Wins, draws, losses of the tuned agent.
    pub wdl: (u64, u64, u64),
    /// Elo and its 95% interval, from the pairs.
    pub elo: (f64, f64, f64),
}

impl SpsaSettings {
    /// Checks the settings: the agent and the parameters (each must be an option of the agent
    /// or a weight of the game, at every value of its range), the game, the counts.
    pub fn check(&self) -> Result<()> {
        if self.params.is_empty() {
            return Err(Error::about(Setting::Param, ": give at least one"));
        }
        if self.iterations == 0 {
            return Err(Error::about(Setting::Iterations, "must be at least 1"));
        }
        if self.pairs_per_iteration == 0 {
            return Err(Error::about(Setting::Pairs, "must be at least 1"));
        }
        if self.verify_games % 2 == 1 {
            return Err(Error::about(
                Setting::VerifyGames,
                format_args!(
                    "must be even (colour-swapped pairs), not {}",
                    self.verify_games
                ),
            ));
        }
        let base = self.base()?;
        for p in &self.params {
            if self.params.iter().filter(|q| q.name == p.name).count() > 1 {
                return Err(Error::setting(format!(
                    "parameter '{}' is given twice",
                    p.name
                )));
            }
            for value in [p.start, p.min, p.max] {
                base.set(&p.name, value).map_err(|e| {
                    Error::setting(format!("parameter '{}' at {value}: {e}", p.name))
                })?;
            }
        }
        let start = self.agent_at(&self.params.iter().map(|p| p.start).collect::<Vec<_>>())?;
        self.plan(&start, &start, 2, self.seed)?;
        Ok(())
    }

    fn base(&self) -> Result<AgentSpec> {
        let weights = self.agent_weights.clone();
        AgentSpec::parse_with_weights(&self.agent, &|_| {
            weights.clone().ok_or(WeightsError::NotRecorded)
        })
        .map_err(|e| Error::agent(&self.agent, e))
    }

    /// The agent with θ applied.
    pub fn agent_at(&self, theta: &[f64]) -> Result<AgentSpec> {
        let mut spec = self.base()?;
        for (p, &value) in self.params.iter().zip(theta) {
            spec = spec
                .set(&p.name, value)
                .map_err(|e| Error::setting(format!("parameter '{}': {e}", p.name)))?;
        }
        Ok(spec)
    }

    /// A colour-swapped match of `a` against `b`.
    fn plan(&self, a: &AgentSpec, b: &AgentSpec, games: u64, seed: u64) -> Result<RunPlan> {
        let raw_agent = |spec: &AgentSpec| RawAgent {
            label: spec.to_string(),
            spec: spec.to_string(),
            weights: spec.file_weights().cloned(),
        };
        // The game is read once, with the settings, not once an iteration.
        let raw = RawPlan {
            game: self.game.spec(),
            agents: vec![raw_agent(a), raw_agent(b)],
            pairings: vec![(0, 1)],
            games_per_pairing: games,
            seed,
            ply_cap: self.ply_cap,
            opening_plies: self.opening_plies,
            opening_stops: Some(true),
            time_margin_ms: None,
            sprt: None,
            shard: None,
        };
        RunPlan::from_game_and_raw(self.game.clone(), &raw)
    }

    /// The seed of iteration `iteration`'s games (1 for the first).
    fn iteration_seed(&self, iteration: u64) -> u64 {
        seeded_rng(self.seed, u64::MAX - iteration).random()
    }
}

fn csv_header(params: &[Param]) -> String {
    let mut h = "iteration,pairs_before,wins,draws,losses,result".to_string();
    for p in params {
        let _ = write!(h, ",{0},{0}.flip,{0}.c_k,{0}.a_k", p.name);
    }
    h
}

fn csv_line(r: &IterationRecord) -> String {
    let (w, d, l) = r.wdl;
    let mut line = format!(
        "{},{},{w},{d},{l},{}",
        r.iteration,
        r.pairs_before,
        w as i64 - l as i64
    );
    for (i, t) in r.theta.iter().enumerate() {
        let g = r.probe.gains[i];
        let _ = write!(line, ",{t:?},{},{:?},{:?}", r.probe.flips[i], g.c_k, g.a_k);
    }
    line
}

/// Reads `spsa.csv`, replaying its results through the schedule and checking every recorded
/// θ; a torn last line (a kill mid-write) is cut off. Returns the state after the last
/// complete iteration, and the records.
fn resume(path: &Path, settings: &SpsaSettings) -> Result<(Spsa, Vec<IterationRecord>)> {
    let total = settings.iterations * settings.pairs_per_iteration;
    let mut spsa = Spsa::new(settings.params.clone(), total, settings.seed);
    let mut records = Vec::new();
    let header = csv_header(&settings.params);
    // The lock created the file: an empty record is a new run, and gets its header in place
    // (a rename would swap the locked file for another).
    if std::fs::metadata(path).map_or(true, |m| m.len() == 0) {
        use std::io::Write;
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| {
                f.write_all(format!("{header}\n").as_bytes())?;
                f.sync_data()
            })
            .map_err(|e| Error::io("write", path, &e))?;
        return Ok((spsa, records));
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| Error::io("open", path, &e))?;
    let mut text = String::new();
    file.read_to_string(&mut text)
        .map_err(|e| Error::io("read", path, &e))?;
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    if complete < text.len() {
        file.set_len(complete as u64)
            .map_err(|e| Error::io("repair", path, &e))?;
        eprintln!(
            "{}: cut a torn last line ({} bytes) left by an interrupted write",
            path.display(),
            text.len() - complete
        );
    }
    let mut lines = text[..complete].lines();
    let corrupt =
        |n: usize, why: String| Error::corrupt(format!("{}: line {n}: {why}", path.display()));
    if lines.next() != Some(header.as_str()) {
        return Err(corrupt(1, format!("the header is not '{header}'")));
    }
    for (i, line) in lines.enumerate() {
        let n = i + 2;
        if spsa.iteration >= settings.iterations {
            return Err(corrupt(n, "more iterations than the run has".into()));
        }
        let fields: Vec<&str> = line.split(',').collect();
        let number = |k: usize| -> Result<u64> {
            fields
                .get(k)
                .and_then(|f| f.parse().ok())
                .ok_or_else(|| corrupt(n, format!("field {} is not a whole number", k + 1)))
        };
        let (w, d, l) = (number(2)?, number(3)?, number(4)?);
        if number(0)? != spsa.iteration + 1 || number(1)? != spsa.pairs_done {
            return Err(corrupt(n, "iteration or pairs out of sequence".into()));
        }
        if w + d + l != 2 * settings.pairs_per_iteration {
            return Err(corrupt(
                n,
                "wins, draws and losses do not add up to the iteration's games".into(),
            ));
        }
        let probe = spsa.probe();
        let record = step(&mut spsa, probe, (w, d, l), settings.pairs_per_iteration);
        if csv_line(&record) != line {
            return Err(corrupt(
                n,
                "θ does not follow from the recorded results (settings or file changed)".into(),
            ));
        }
        records.push(record);
    }
    Ok((spsa, records))
}

/// Applies one iteration's result to `spsa` and returns its record.
fn step(spsa: &mut Spsa, probe: Perturbation, wdl: (u64, u64, u64), pairs: u64) -> IterationRecord {
    let pairs_before = spsa.pairs_done;
    spsa.update(&probe, wdl.0 as f64 - wdl.2 as f64, pairs);
    IterationRecord {
        iteration: spsa.iteration,
        pairs_before,
        wdl,
        probe,
        theta: spsa.theta.clone(),
    }
}

fn read_settings(path: &Path) -> Result<Option<SpsaSettings>> {
    if !path.exists() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, &e))?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| Error::corrupt(format!("{}: {e}", path.display())))
}

/// Runs (or resumes) SPSA into `out`; `on_iteration` hears each finished iteration.
pub fn run_spsa(
    settings: &SpsaSettings,
    out: &Path,
    threads: Option<usize>,
    mut on_iteration: impl FnMut(&IterationRecord, &SpsaSettings),
) -> Result<SpsaOutcome> {
    settings.check()?;
    if out.is_file() {
        return Err(Error::about(
            Setting::OutFolder,
            format_args!("{} is a file; give a folder", out.display()),
        ));
    }
    std::fs::create_dir_all(out).map_err(|e| Error::io("create", out, &e))?;
    // One writer per folder: the record is locked before anything in the folder is read.
    let _lock = OutputLock::take(&out.join("spsa.csv"))?;
    let settings_path = out.join("spsa.settings.json");
    match read_settings(&settings_path)? {
        Some(recorded) if &recorded != settings => {
            return Err(Error::new(
                ErrorKind::OtherSettings,
                format!(
                    "{} holds an SPSA run with other settings; use another output folder",
                    out.display()
                ),
            ));
        }
        Some(_) => {}
        None => {
            let json = serde_json::to_string_pretty(settings).expect("settings serialise");
            write_atomically(&settings_path, format!("{json}\n").as_bytes())?;
        }
    }
    let csv_path = out.join("spsa.csv");
    let (mut spsa, mut records) = resume(&csv_path, settings)?;
    let mut csv = OpenOptions::new()
        .append(true)
        .open(&csv_path)
        .map_err(|e| Error::io("open", &csv_path, &e))?;
    let clock = Instant::now();
    let mut games = 0;
    while spsa.iteration < settings.iterations {
        let probe = spsa.probe();
        let plus = settings.agent_at(&probe.plus)?;
        let minus = settings.agent_at(&probe.minus)?;
        let seed = settings.iteration_seed(spsa.iteration + 1);
        let plan = settings.plan(&plus, &minus, 2 * settings.pairs_per_iteration, seed)?;
        let rows = run_in_memory(&plan, threads, &mut Silent)?;
        games += rows.len() as u64;
        let (mut w, mut d, mut l) = (0, 0, 0);
        for row in &rows {
            let points = row.pairing_first_points();
            if points > 0.75 {
                w += 1;
            } else if points < 0.25 {
                l += 1;
            } else {
                d += 1;
            }
        }
        let record = step(&mut spsa, probe, (w, d, l), settings.pairs_per_iteration);
        append_line(&mut csv, &csv_path, &csv_line(&record))?;
        on_iteration(&record, settings);
        records.push(record);
    }
    let seconds = clock.elapsed().as_secs_f64();
    plot_trajectories(out, settings, &records)?;
    let start_theta: Vec<f64> = settings.params.iter().map(|p| p.start).collect();
    let tuned = settings.agent_at(&spsa.theta)?;
    let start = settings.agent_at(&start_theta)?;
    let verification = if settings.verify_games > 0 {
        let plan = settings.plan(&tuned, &start, settings.verify_games, settings.seed)?;
        let report = run_to_csv(&plan, &out.join("verify.csv"), threads, &mut Silent)?;
        let summary = report.tally.pairings()[0];
        Some(Verification {
            games: summary.all.n(),
            wdl: (summary.all.w, summary.all.d, summary.all.l),
            elo: summary.penta.elo_interval(),
        })
    } else {
        None
    };
    let outcome = SpsaOutcome {
        records,
        theta: spsa.theta.clone(),
        tuned: tuned.to_string(),
        start: start.to_string(),
        verification,
        games_played: (games, seconds),
    };
    write_atomically(
        &out.join("summary.md"),
        summary_markdown(settings, &outcome).as_bytes(),
    )?;
    Ok(outcome)
}

fn append_line(file: &mut File, path: &Path, line: &str) -> Result<()> {
    let write = |file: &mut File| -> std::io::Result<()> {
        file.seek(std::io::SeekFrom::End(0))?;
        file.write_all(format!("{line}\n").as_bytes())?;
        file.flush()?;
        file.sync_data()
    };
    write(file).map_err(|e| Error::io("append to", path, &e))
}

/// The file name of parameter `name`'s trajectory plot.
#[must_use]
pub fn trajectory_file(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("theta-{safe}.svg")
}

fn plot_trajectories(
    out: &Path,
    settings: &SpsaSettings,
    records: &[IterationRecord],
) -> Result<()> {
    for (i, p) in settings.params.iter().enumerate() {
        let mut points = vec![(0.0, p.start)];
        points.extend(records.iter().map(|r| (r.iteration as f64, r.theta[i])));
        let title = format!("SPSA: {} on {}", p.name, settings.game);
        write_line_plot(
            &out.join(trajectory_file(&p.name)),
            Labels {
                title: &title,
                x: "iteration",
                y: &format!("θ ({}; range {} to {})", p.name, p.min, p.max),
            },
            &[Series {
                name: format!("θ {}", p.name),
                points,
            }],
        )?;
    }
    Ok(())
}

fn summary_markdown(s: &SpsaSettings, o: &SpsaOutcome) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# SPSA tuning on {}\n", s.game);
    let _ = writeln!(
        md,
        "Agent `{}`; {} iterations of {} colour-swapped pairs (θ+ against θ−), {} random opening plies, ply cap {}, seed {}. fishtest's schedule: α = 0.602, γ = 0.101, A = 0.1 × {} pairs.\n",
        s.agent,
        s.iterations,
        s.pairs_per_iteration,
        s.opening_plies,
        s.ply_cap.map_or("none".to_string(), |c| c.to_string()),
        s.seed,
        s.iterations * s.pairs_per_iteration
    );
    let _ = writeln!(
        md,
        "| parameter | start | tuned | range | c_end | r_end |\n|---|---|---|---|---|---|"
    );
    for (i, p) in s.params.iter().enumerate() {
        let _ = writeln!(
            md,
            "| `{}` | {} | {:.4} | [{}, {}] | {} | {} |",
            p.name, p.start, o.theta[i], p.min, p.max, p.c_end, p.r_end
        );
    }
    let _ = writeln!(md, "\nTuned: `{}`\nStart: `{}`\n", o.tuned, o.start);
    match &o.verification {
        None => {
            let _ = writeln!(
                md,
                "No verification match was asked for (0 verification games).\n"
            );
        }
        Some(v) => {
            let (w, d, l) = v.wdl;
            let (elo, lo, hi) = v.elo;
            let verdict = if lo > 0.0 {
                "The tuned agent is stronger than the start: the interval excludes zero."
            } else if hi < 0.0 {
                "The tuned agent is **weaker** than the start: tuning did not help."
            } else {
                "Not decided: the interval includes zero, so this match does not show that tuning helped."
            };
            let _ = writeln!(
                md,
                "Verification, tuned against start, {} games in colour-swapped pairs (`verify.csv`): W-D-L {w}-{d}-{l}, Elo {} (95% interval from the pairs). {verdict}\n",
                v.games,
                elo_text((elo, lo, hi)),
            );
        }
    }
    for p in &s.params {
        let _ = writeln!(md, "![{}]({})", p.name, trajectory_file(&p.name));
    }
    let _ = writeln!(md, "\nEvery iteration: `spsa.csv`.");
    md
}
