//! `arena tune shapes`: the strength of each local shape ([`Features::move_shape`]) fitted
//! to the moves strong players chose, as Coulom fitted Go patterns ("Computing Elo ratings of
//! move patterns in the game of Go", ICGA Journal 2007) and MoHex 2.0 Hex patterns (Huang,
//! Arneson, Hayward, Müller, Pawlewicz, "MoHex 2.0", CG 2013).
//!
//! Each recorded position is a contest among its legal moves, each move standing for its
//! shape: shape `i` has strength `γᵢ`, and a move is chosen with probability `γ` of its shape
//! over the sum of the candidates'. The strengths are the Bradley–Terry fit by
//! minorization–maximization with a prior after Coulom's (each shape also plays a virtual
//! shape as strong as the average candidate once won and once lost), in units where the
//! average candidate (over every legal move of every training position) has strength 1:
//!
//! ```text
//! γᵢ ← (Wᵢ + 1) / (Σⱼ Cᵢⱼ / Eⱼ + 2 / (γᵢ + 1)),   then every γ divided by Σⱼ Σᵢ Cᵢⱼ γᵢ / Σⱼ Σᵢ Cᵢⱼ
//! ```
//!
//! where `Wᵢ` counts the positions whose chosen move had shape `i`, `Cᵢⱼ` the candidates of
//! position `j` with shape `i`, and `Eⱼ = Σᵢ Cᵢⱼ γᵢ`. Coulom's virtual shape has strength 1
//! in the fit's own scale; where most candidates are rarely chosen (most legal moves of a
//! Havannah position are), that makes a shape seen a few times look far stronger than a
//! common one, so here the virtual shape is the average candidate, and a shape seen too
//! rarely to tell stays near it. The weight written for a shape is `ln γ`: 0 is the average
//! candidate, as is a shape never seen.
//!
//! `--wide` fits the wide shapes ([`Features::move_wide_shape`]: Havannah's 18 cells within
//! distance 2) in place of the shapes. `--over FILE` fits **over** a shapes file, as a
//! residual: each candidate's strength is `oⱼ γᵢ`, `oⱼ` the strength FILE gives the move as a
//! player reads it ([`ringside_engine::shapes::ShapeReader`]) and `γᵢ` its own shape's, so the
//! fit learns what FILE misses. That is Coulom's team form with one team-mate fixed: the step
//! above counts each candidate at its offset, `Cᵢⱼ → Σ o` over shape `i`'s candidates of
//! position `j`, and the average candidate is reckoned with the offsets. The file written is
//! FILE's lines with each shape the fit writes (`ln(o γ)`) added, or put in place of FILE's.
//! A player reads a wide shape where the file has one and its shape where not, so a wide fit
//! over a file of shapes refines it, and a shape the fit does not write reads as FILE gives it.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use ringside_engine::registry::GameVisitor;
use ringside_engine::{Features, Game, Player};

use ringside_engine::shapes::ShapeReader;

use crate::error::{Error, Result, Setting};
use crate::records::durable::write_atomically;
use crate::records::fault::{RowFault, RowFaultKind};
use crate::records::games_csv::read_games_with;
use crate::records::row::GameRow;
use crate::records::sidecar::read_sidecar;
use crate::records::sink::{Sink, Watch};
use crate::tune::probe::Selection;
use crate::tune::texel::{PositionFilter, selection};

/// Positions as contests among their candidates' shapes: position `j`'s candidates are
/// `entries[ends[j-1]..ends[j]]`, each a shape's index with how many legal moves have it, and
/// `chosen[j]` is the index of the shape of the move played.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Contests {
    /// (shape index, number of candidates with that shape), position after position.
    pub entries: Vec<(u32, u32)>,
    /// Where each position's entries end.
    pub ends: Vec<u32>,
    /// The shape index of the move chosen in each position.
    pub chosen: Vec<u32>,
}

impl Contests {
    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.chosen.len()
    }

    /// Whether there are no positions.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.chosen.is_empty()
    }

    /// Adds a position whose legal moves have shapes `candidates` (indices, in any order,
    /// repeats allowed) and whose chosen move has shape `chosen`, one of them.
    pub fn push(&mut self, candidates: &mut [u32], chosen: u32) {
        candidates.sort_unstable();
        for run in candidates.chunk_by(|a, b| a == b) {
            self.entries.push((run[0], run.len() as u32));
        }
        self.ends.push(self.entries.len() as u32);
        self.chosen.push(chosen);
    }

    /// Each position's entries and chosen shape.
    fn positions(&self) -> impl Iterator<Item = (&[(u32, u32)], u32)> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .zip(&self.chosen)
            .map(|((a, &b), &c)| (&self.entries[a as usize..b as usize], c))
    }
}

/// How well strengths `gamma` predict `contests`: the mean log-probability of the chosen
/// moves, and the share of positions whose chosen move had the strongest shape (a tie among
/// `t` moves counts `1/t`).
#[must_use]
pub fn prediction(contests: &Contests, gamma: &[f64]) -> (f64, f64) {
    if contests.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let (mut log_p, mut top) = (0.0, 0.0);
    for (entries, chosen) in contests.positions() {
        let sum: f64 = entries
            .iter()
            .map(|&(i, c)| f64::from(c) * gamma[i as usize])
            .sum();
        log_p += (gamma[chosen as usize] / sum).ln();
        let best = entries
            .iter()
            .map(|&(i, _)| gamma[i as usize])
            .fold(f64::MIN, f64::max);
        if gamma[chosen as usize] >= best {
            let tied: u32 = entries
                .iter()
                .filter(|&&(i, _)| gamma[i as usize] >= best)
                .map(|&(_, c)| c)
                .sum();
            top += 1.0 / f64::from(tied);
        }
    }
    let n = contests.len() as f64;
    (log_p / n, top / n)
}

/// One iteration of the fit, for the record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapeStep {
    /// The iteration (0: the start, every `γ = 1`).
    pub iteration: u32,
    /// Mean log-probability of the chosen moves on the training positions.
    pub train_log_p: f64,
    /// The same on the held-out positions.
    pub validation_log_p: f64,
    /// The share of held-out positions whose chosen move had the strongest shape.
    pub validation_top: f64,
}

/// Fits the strengths of the shapes to `train` by `iterations` steps of
/// minorization–maximization (see the module's docs), recording each step's prediction of
/// `train` and `validation`. `offsets` holds each shape's fixed team-mate `o` (1 throughout
/// for a plain fit, a strength a fit over a file gives it otherwise; one a shape), and its
/// length is the number of shapes. Returns `γ` by shape index; the moves' strengths are
/// `o γ`.
pub fn fit_shapes(
    train: &Contests,
    validation: &Contests,
    offsets: &[f64],
    iterations: u32,
    mut progress: impl FnMut(&ShapeStep),
) -> (Vec<f64>, Vec<ShapeStep>) {
    let shapes = offsets.len();
    let mut gamma = vec![1.0; shapes];
    let mut wins = vec![0.0f64; shapes];
    for &c in &train.chosen {
        wins[c as usize] += 1.0;
    }
    let mut strength = vec![0.0; shapes];
    let mut record = |iteration: u32, gamma: &[f64]| {
        for ((s, g), o) in strength.iter_mut().zip(gamma).zip(offsets) {
            *s = g * o;
        }
        let (train_log_p, _) = prediction(train, &strength);
        let (validation_log_p, validation_top) = prediction(validation, &strength);
        ShapeStep {
            iteration,
            train_log_p,
            validation_log_p,
            validation_top,
        }
    };
    let mut steps = vec![record(0, &gamma)];
    progress(&steps[0]);
    let mut denominators = vec![0.0f64; shapes];
    // Each entry's candidates counted at their offset's strength: Cᵢⱼ oᵢ.
    let counted = |(i, c): (u32, u32)| f64::from(c) * offsets[i as usize];
    let offered: f64 = train.entries.iter().map(|&e| counted(e)).sum();
    for iteration in 1..=iterations {
        denominators.fill(0.0);
        for (entries, _) in train.positions() {
            let sum: f64 = entries
                .iter()
                .map(|&e| counted(e) * gamma[e.0 as usize])
                .sum();
            for &e in entries {
                denominators[e.0 as usize] += counted(e) / sum;
            }
        }
        for ((g, w), d) in gamma.iter_mut().zip(&wins).zip(&denominators) {
            *g = (w + 1.0) / (d + 2.0 / (*g + 1.0));
        }
        let mean = train
            .entries
            .iter()
            .map(|&e| counted(e) * gamma[e.0 as usize])
            .sum::<f64>()
            / offered;
        for g in &mut gamma {
            *g /= mean;
        }
        let step = record(iteration, &gamma);
        progress(&step);
        steps.push(step);
    }
    (gamma, steps)
}

/// Everything a shapes run needs.
#[derive(Debug, Clone)]
pub struct ShapeRun {
    /// The games CSVs (each with its sidecar), all of one game.
    pub files: Vec<PathBuf>,
    /// Which plies are kept, and the games held out.
    pub filter: PositionFilter,
    /// Learn only the moves of agents whose label (the spec as given, file paths and all)
    /// contains this (every agent's if `None`).
    pub learn: Option<String>,
    /// Minorization–maximization steps.
    pub iterations: u32,
    /// Write only shapes offered at least this many times in training.
    pub min_seen: u64,
    /// Fit each shape once for each context ([`Features::shape_context`]), keyed
    /// [`ringside_engine::shapes::key`]: a shapes file fitted in context.
    pub context: bool,
    /// Fit the wide shapes ([`Features::move_wide_shape`]), keyed
    /// [`ringside_engine::shapes::wide_key`], in place of the shapes.
    pub wide: bool,
    /// Fit over this shapes file (see the module's docs), and write it with the fit's shapes.
    pub over: Option<PathBuf>,
    /// The folder for `shapes.txt` and `summary.md`.
    pub out: PathBuf,
}

/// What a shapes run found.
#[derive(Debug, Clone)]
pub struct ShapeOutcome {
    /// The game's name.
    pub game: &'static str,
    /// Games read and games whose moves were learned from.
    pub games: (usize, usize),
    /// The labels of the agents whose moves were learned from, each once, in the order the
    /// files name them: what `--learn` matched, for a reader to check.
    pub learned_from: Vec<String>,
    /// Training and held-out positions.
    pub positions: (usize, usize),
    /// Distinct shapes offered, and those written.
    pub shapes: (usize, usize),
    /// The fit's steps, the start first.
    pub steps: Vec<ShapeStep>,
    /// For a fit in context, what the context counts: a phrase and the number's name.
    pub context: Option<(&'static str, &'static str)>,
    /// The held-out prediction (mean log-probability, strongest chosen) of the file written,
    /// as a player reads it: a shape not written reads as the file fitted over gives it (the
    /// average candidate without one), where the fit's last step counts every shape's `γ`.
    pub as_played: (f64, f64),
}

/// What one replay gathered: at each kept position, the shapes of its legal moves and of the
/// move played.
#[derive(Debug, Clone, Default)]
pub struct ShapesSeen {
    /// Whether the game is held out for validation.
    validation: bool,
    candidates: Vec<u64>,
    /// Each candidate's weight (`ln o`) in the file fitted over (none without one).
    offsets: Vec<f32>,
    ends: Vec<u32>,
    chosen: Vec<u64>,
}

/// Gathers [`ShapesSeen`] from the plies the filter keeps, where the mover is one of the
/// agents learned from.
struct ShapeProbe<'a> {
    filter: &'a PositionFilter,
    learned: &'a [bool],
    keys: Keys,
}

/// How a shapes run keys each move, and what it fits over.
#[derive(Debug, Clone)]
struct Keys {
    /// Whether each shape is keyed with its context.
    context: bool,
    /// Whether the wide shapes are fitted.
    wide: bool,
    /// The file fitted over.
    over: Option<std::sync::Arc<ShapeReader>>,
}

impl Keys {
    /// The key of `mv`'s shape (or wide shape) at `state`, as the run fits it.
    fn of<G: Features>(&self, state: &G, mv: G::Move) -> Option<u64> {
        if self.wide {
            ringside_engine::shapes::move_wide_key(state, mv, self.context)
        } else {
            ringside_engine::shapes::move_key(state, mv, self.context).map(u64::from)
        }
    }
}

struct ShapeWatch<G: Game> {
    plies: Vec<u32>,
    next: usize,
    moves: Vec<String>,
    /// Which player's moves are learned from.
    learned: [bool; 2],
    keys: Keys,
    scratch: Vec<G::Move>,
    out: ShapesSeen,
}

impl Sink for ShapeProbe<'_> {
    type Gathered = ShapesSeen;
    type Watch<G: Game + Features> = ShapeWatch<G>;

    fn watch<G: Game + Features>(
        &self,
        _: &G,
        row: &GameRow,
        first: Player,
    ) -> std::result::Result<ShapeWatch<G>, RowFault> {
        let agent = |i: usize| {
            self.learned.get(i).copied().ok_or_else(|| {
                RowFault::new(RowFaultKind::Watch, format!("no agent {i} in the plan"))
            })
        };
        let (a, b) = (agent(row.first_agent)?, agent(row.second_agent)?);
        let mut learned = [false; 2];
        learned[first.index()] = a;
        learned[1 - first.index()] = b;
        // A game held out for the test is held out here too.
        let Selection {
            validation,
            test,
            plies,
        } = selection(row, self.filter);
        let validation = validation || test;
        Ok(ShapeWatch {
            plies,
            next: 0,
            moves: row.moves.split_whitespace().map(str::to_string).collect(),
            learned,
            keys: self.keys.clone(),
            scratch: Vec::new(),
            out: ShapesSeen {
                validation,
                ..ShapesSeen::default()
            },
        })
    }
}

impl<G: Game + Features> Watch<G> for ShapeWatch<G> {
    type Gathered = ShapesSeen;

    fn before_move(&mut self, state: &G, ply: u32) {
        if self.plies.get(self.next) != Some(&ply) {
            return;
        }
        self.next += 1;
        let Some(mover) = state.to_move() else { return };
        if !self.learned[mover.index()] {
            return;
        }
        let keys = &self.keys;
        let keyed = |mv: G::Move| keys.of(state, mv);
        // The replay checks the move after this; a move it cannot read is its fault to report.
        let Some(played) = self
            .moves
            .get(ply as usize)
            .and_then(|m| state.parse_move(m).ok())
            .and_then(keyed)
        else {
            return;
        };
        state.legal_moves(&mut self.scratch);
        let before = self.out.candidates.len();
        for &mv in &self.scratch {
            let Some(key) = keyed(mv) else { continue };
            self.out.candidates.push(key);
            if let Some(over) = &keys.over {
                self.out.offsets.push(over.weight(state, mv).unwrap_or(0.0));
            }
        }
        if self.out.candidates.len() == before {
            return;
        }
        self.out.ends.push(self.out.candidates.len() as u32);
        self.out.chosen.push(played);
    }

    fn finish(self, _: &G, _: &GameRow) -> ShapesSeen {
        self.out
    }
}

/// The contests a shapes run fits, as [`gather`] read them.
struct Gathered {
    /// Training positions, over shape indices.
    train: Contests,
    /// Held-out positions, over the same indices.
    validation: Contests,
    /// The shapes' keys, by index.
    shapes: Vec<u64>,
    /// Each shape's fixed team-mate `o` (1 without a file to fit over), by index.
    offsets: Vec<f64>,
    /// The game's name.
    game: &'static str,
    /// Games read, and games whose moves were learned from.
    games: (usize, usize),
    /// The labels of the agents learned from, each once.
    learned_from: Vec<String>,
    /// What the game's shape context counts ([`Features::shape_context_names`]).
    context_names: Option<(&'static str, &'static str)>,
    /// The text of the file fitted over (`--over`), as read once and checked.
    over_text: Option<String>,
}

/// The file a run fits over (`--over`), read: its text and its reader; `None` without one.
/// Refused: a file that cannot be read, one fitted in context when the run is not or the
/// other way round (the offsets would not be a shape's), and one holding wide shapes for a
/// fit of shapes (a shape's offset would depend on its wide shape).
fn read_over(run: &ShapeRun) -> Result<Option<(String, ShapeReader)>> {
    let Some(path) = &run.over else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, &e))?;
    let weights = ringside_engine::shapes::parse_shape_weights(&text)
        .map_err(|e| Error::setting(format!("--over {}: {e}", path.display())))?;
    let reader = ShapeReader::new(&weights);
    if reader.in_context() != run.context {
        let (is, give) = if run.context {
            ("not fitted in context", "drop --context")
        } else {
            ("fitted in context", "give --context")
        };
        return Err(Error::setting(format!(
            "--over {}: the file is {is}; {give} to fit over it",
            path.display()
        )));
    }
    if reader.has_wide() && !run.wide {
        return Err(Error::setting(format!(
            "--over {}: the file holds wide shapes, so a fit over it must be of wide shapes (give --wide)",
            path.display()
        )));
    }
    Ok(Some((text, reader)))
}

/// Reads the files' kept positions into training and held-out contests over shape indices,
/// numbering the shapes as they are first met.
fn gather(run: &ShapeRun) -> Result<Gathered> {
    if run.files.is_empty() {
        return Err(Error::setting("give at least one games CSV"));
    }
    if !(0.0..1.0).contains(&run.filter.validation_share) {
        return Err(Error::setting(format!(
            "the validation share must be from 0 to below 1, not {}",
            run.filter.validation_share
        )));
    }
    let (over_text, over) = read_over(run)?.unzip();
    let keys = Keys {
        context: run.context,
        wide: run.wide,
        over: over.map(std::sync::Arc::new),
    };
    let (mut train, mut validation) = (Contests::default(), Contests::default());
    let mut index: HashMap<u64, u32> = HashMap::new();
    let mut shapes = Vec::new();
    let mut offsets = Vec::new();
    let mut game = None;
    let mut games = (0, 0);
    let mut scratch = Vec::new();
    let mut context_names = None;
    let mut learned_from: Vec<String> = Vec::new();
    for file in &run.files {
        let (plan, _) = read_sidecar(file)?;
        let name = plan.game.name();
        if *game.get_or_insert(name) != name {
            return Err(Error::setting(format!(
                "{}: a run of {name}, not {}",
                file.display(),
                game.unwrap_or(name)
            )));
        }
        struct HasShapes;
        impl GameVisitor for HasShapes {
            type Output = (bool, bool, Option<(&'static str, &'static str)>);
            fn visit<G: Game + Features>(self, start: G) -> Self::Output {
                let mut moves = Vec::new();
                start.legal_moves(&mut moves);
                let shapes = moves.iter().any(|&mv| start.move_shape(mv).is_some());
                let wide = moves.iter().any(|&mv| start.move_wide_shape(mv).is_some());
                (shapes, wide, start.shape_context_names())
            }
        }
        let (has_shapes, has_wide, context) = plan.game.visit(HasShapes);
        if !has_shapes {
            return Err(Error::setting(format!(
                "{name} has no move shapes to fit (only games that define Features::move_shape do)"
            )));
        }
        if run.wide && !has_wide {
            return Err(Error::setting(format!(
                "{name} has no wide shapes to fit (--wide needs Features::move_wide_shape)"
            )));
        }
        if run.context && context.is_none() {
            return Err(Error::setting(format!(
                "{name} gives its shapes no context to fit them in (--context needs Features::shape_context)"
            )));
        }
        context_names = context;
        let learned: Vec<bool> = plan
            .agents
            .iter()
            .map(|a| {
                run.learn
                    .as_ref()
                    .is_none_or(|t| a.label.contains(t.as_str()))
            })
            .collect();
        for (agent, _) in plan.agents.iter().zip(&learned).filter(|(_, l)| **l) {
            if !learned_from.contains(&agent.label) {
                learned_from.push(agent.label.clone());
            }
        }
        let probe = ShapeProbe {
            filter: &run.filter,
            learned: &learned,
            keys: keys.clone(),
        };
        read_games_with(file, &plan, &probe, &mut |chunk| {
            for r in chunk {
                games.0 += 1;
                let seen = &r.gathered;
                if r.row.reason.is_fault() || seen.chosen.is_empty() {
                    continue;
                }
                games.1 += 1;
                let into = if seen.validation {
                    &mut validation
                } else {
                    &mut train
                };
                // A shape's offset is the same wherever it is met: the file fitted over is
                // read by the shape's key (or by a wide shape's, which fixes its shape), in
                // the same context (`read_over` checks both).
                let mut number = |shape: u64, offset: Option<f32>| {
                    *index.entry(shape).or_insert_with(|| {
                        shapes.push(shape);
                        offsets.push(offset.map_or(1.0, |w| f64::from(w).exp()));
                        shapes.len() as u32 - 1
                    })
                };
                let mut start = 0;
                for (&end, &chosen) in seen.ends.iter().zip(&seen.chosen) {
                    scratch.clear();
                    for at in start..end as usize {
                        let offset = seen.offsets.get(at).copied();
                        scratch.push(number(seen.candidates[at], offset));
                    }
                    // The move played is one of the candidates, numbered just now.
                    into.push(&mut scratch, number(chosen, None));
                    start = end as usize;
                }
            }
            Ok(())
        })?;
    }
    if train.is_empty() {
        return Err(Error::setting(format!(
            "no training positions in {} game(s): check --learn, the plies skipped and the validation share",
            games.0
        )));
    }
    Ok(Gathered {
        train,
        validation,
        shapes,
        offsets,
        game: game.expect("a file was read"),
        games,
        learned_from,
        context_names,
        over_text,
    })
}

/// Runs the fit and writes `shapes.txt` (`shape ln_gamma chosen offered` a line, sorted by
/// shape, after a `#` header) and `summary.md` into the run's folder; `progress` hears each
/// step.
pub fn run_shapes(run: &ShapeRun, progress: impl FnMut(&ShapeStep)) -> Result<ShapeOutcome> {
    if run.out.is_file() {
        return Err(Error::about(
            Setting::OutFolder,
            format_args!("{} is a file; give a folder", run.out.display()),
        ));
    }
    let Gathered {
        train,
        validation,
        shapes,
        offsets,
        game,
        games,
        learned_from,
        context_names,
        over_text,
    } = gather(run)?;
    let (mut chosen, mut offered) = (vec![0u64; shapes.len()], vec![0u64; shapes.len()]);
    for &c in &train.chosen {
        chosen[c as usize] += 1;
    }
    for &(i, c) in &train.entries {
        offered[i as usize] += u64::from(c);
    }
    let mut rows: Vec<usize> = (0..shapes.len())
        .filter(|&i| offered[i] >= run.min_seen.max(1))
        .collect();
    if rows.is_empty() {
        return Err(Error::setting(format!(
            "nothing to learn: no shape of the {} offered in the training positions was offered {} times or more (--min-seen); nothing written",
            shapes.len(),
            run.min_seen
        )));
    }
    rows.sort_unstable_by_key(|&i| shapes[i]);
    let (gamma, steps) = fit_shapes(&train, &validation, &offsets, run.iterations, progress);
    let mut played: Vec<f64> = offsets.clone();
    for &i in &rows {
        played[i] *= gamma[i];
    }
    let outcome = ShapeOutcome {
        game,
        games,
        positions: (train.len(), validation.len()),
        shapes: (shapes.len(), rows.len()),
        steps,
        context: context_names.filter(|_| run.context),
        as_played: prediction(&validation, &played),
        learned_from,
    };
    // The fit's lines, and the lines of the file fitted over whose keys the fit does not
    // write, in the order of their keys.
    let mut lines: Vec<(u64, String)> = rows
        .iter()
        .map(|&i| {
            let weight = (offsets[i] * gamma[i]).ln();
            let line = format!("{} {weight:.4} {} {}", shapes[i], chosen[i], offered[i]);
            (shapes[i], line)
        })
        .collect();
    let carried = match &over_text {
        Some(text) => {
            let written: std::collections::HashSet<u64> = lines.iter().map(|l| l.0).collect();
            let before = lines.len();
            lines.extend(over_lines(text).filter(|l| !written.contains(&l.0)));
            lines.len() - before
        }
        None => 0,
    };
    lines.sort_unstable_by_key(|l| l.0);
    let mut text = header(run, &outcome, carried);
    for (_, line) in &lines {
        let _ = writeln!(text, "{line}");
    }
    std::fs::create_dir_all(&run.out).map_err(|e| Error::io("create", &run.out, &e))?;
    write_atomically(&run.out.join("shapes.txt"), text.as_bytes())?;
    write_atomically(
        &run.out.join("summary.md"),
        summary_markdown(run, &outcome, carried).as_bytes(),
    )?;
    Ok(outcome)
}

/// The shape lines of a shapes file (read and checked once already), each with its key.
fn over_lines(text: &str) -> impl Iterator<Item = (u64, String)> + '_ {
    text.lines().map(str::trim).filter_map(|line| {
        let key = line.split_whitespace().next()?.parse().ok()?;
        Some((key, line.to_string()))
    })
}

/// The `#` lines that open `shapes.txt`: what was fitted, from what, and how well it predicts;
/// `carried` counts the lines of the file fitted over that the fit did not replace.
fn header(run: &ShapeRun, o: &ShapeOutcome, carried: usize) -> String {
    let last = o.steps.last().expect("a fit has its start");
    let mut h = String::new();
    let _ = writeln!(
        h,
        "# Shape strengths of {} (ln γ), fitted by `arena tune shapes` ({} MM steps; 0 is the average candidate).",
        o.game, run.iterations
    );
    if run.wide {
        let _ = writeln!(
            h,
            "# Wide shapes (Features::move_wide_shape): a key is {} + wide shape{}.",
            ringside_engine::shapes::WIDE,
            if o.context.is_some() {
                format!(
                    " + {} × context",
                    ringside_engine::shapes::WIDE_CONTEXT_UNIT
                )
            } else {
                String::new()
            }
        );
    }
    if let Some((phrase, name)) = o.context {
        let _ = writeln!(
            h,
            "# Context: each shape seen beside {phrase}; a key is shape + {} × {name}.",
            ringside_engine::shapes::CONTEXT_UNIT
        );
    }
    if let Some(over) = &run.over {
        let _ = writeln!(
            h,
            "# Fitted over {}: each move's strength is that file's (as a player reads it) times its shape's γ; the weights written are ln of the product, with that file's {carried} other lines.",
            over.display()
        );
    }
    let names: Vec<String> = run.files.iter().map(|f| file_name(f).to_string()).collect();
    let _ = writeln!(h, "# Games: {}", names.join(" "));
    let _ = writeln!(
        h,
        "# Moves of: {}; {}.",
        run.learn.as_deref().unwrap_or("every agent"),
        run.filter.describe()
    );
    let _ = writeln!(
        h,
        "# {} games learned from ({} read), {} training and {} held-out positions; {} shapes offered, {} written (offered {} times or more).",
        o.games.1, o.games.0, o.positions.0, o.positions.1, o.shapes.0, o.shapes.1, run.min_seen
    );
    let _ = writeln!(
        h,
        "# Held out: mean log-probability of the chosen move {:.4} ({}: {:.4}), chosen move the strongest shape {:.1}%.",
        last.validation_log_p,
        if run.over.is_some() {
            "the file fitted over, as played"
        } else {
            "uniform"
        },
        o.steps[0].validation_log_p,
        100.0 * last.validation_top
    );
    let _ = writeln!(
        h,
        "# As played (a shape not written reads as {}): held-out mean log-probability {:.4}, strongest chosen {:.1}%.",
        if run.over.is_some() {
            "the file fitted over gives it"
        } else {
            "the average candidate"
        },
        o.as_played.0,
        100.0 * o.as_played.1
    );
    let _ = writeln!(h, "# shape ln_gamma chosen offered");
    h
}

fn file_name(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("?")
}

fn summary_markdown(run: &ShapeRun, o: &ShapeOutcome, carried: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Shape strengths of {}\n", o.game);
    // The header's last line names the table's columns, which the summary does not hold.
    let header = header(run, o, carried);
    let lines: Vec<&str> = header.lines().collect();
    for line in &lines[..lines.len() - 1] {
        let _ = writeln!(s, "{}\n", line.trim_start_matches("# "));
    }
    // What `--learn` matched, since a label holds the whole spec (a file path in it can
    // match too).
    let _ = writeln!(s, "Agents learned from ({}):\n", o.learned_from.len());
    for label in &o.learned_from {
        let _ = writeln!(s, "- `{label}`");
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "| step | training log-probability | held-out log-probability | held-out strongest chosen |"
    );
    let _ = writeln!(s, "|---|---|---|---|");
    for step in &o.steps {
        let _ = writeln!(
            s,
            "| {} | {:.4} | {:.4} | {:.1}% |",
            step.iteration,
            step.train_log_p,
            step.validation_log_p,
            100.0 * step.validation_top
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions offering shapes 0 and 1 once each, shape 0 chosen `a` times and 1 `b` times.
    fn pairs(a: usize, b: usize) -> Contests {
        let mut c = Contests::default();
        for k in 0..a + b {
            c.push(&mut [1, 0], u32::from(k >= a));
        }
        c
    }

    #[test]
    fn a_shape_always_offered_alone_is_the_average_candidate_and_an_unseen_one_too() {
        let mut c = Contests::default();
        for _ in 0..10 {
            c.push(&mut [0, 0, 0], 0);
        }
        let (gamma, _) = fit_shapes(&c, &Contests::default(), &[1.0; 2], 50, |_| {});
        assert!((gamma[0] - 1.0).abs() < 1e-12, "{}", gamma[0]);
        assert_eq!(gamma[1], 1.0);
    }

    #[test]
    fn the_fit_meets_the_prior_s_stationary_equations_and_nears_the_plain_ratio_with_many_games() {
        for (a, b) in [(3, 1), (30, 10), (3000, 1000)] {
            let c = pairs(a, b);
            let (g, steps) = fit_shapes(&c, &c, &[1.0; 2], 2000, |_| {});
            // Every candidate offered equally often: the average strength is 1.
            assert!(((g[0] + g[1]) / 2.0 - 1.0).abs() < 1e-12);
            // Stationary up to the common scale: γᵢ (n/S + 2/(γᵢ + 1)) / (Wᵢ + 1) the same
            // for both shapes, with S = γ₀ + γ₁ and n = a + b positions.
            let n = (a + b) as f64;
            let s = g[0] + g[1];
            let scale: Vec<f64> = g
                .iter()
                .zip([a, b])
                .map(|(gi, w)| gi * (n / s + 2.0 / (gi + 1.0)) / (w as f64 + 1.0))
                .collect();
            assert!((scale[0] - scale[1]).abs() < 1e-9, "{a} {b}: {scale:?}");
            // The ratio lies between 1 (the prior's pull) and a/b = 3 (the data's).
            let ratio = g[0] / g[1];
            assert!(ratio > 1.0 && ratio < 3.0, "{ratio}");
            if a == 3000 {
                assert!((ratio - 3.0).abs() < 0.01, "{ratio}");
            }
            assert!(steps.last().unwrap().train_log_p > steps[0].train_log_p);
        }
    }

    #[test]
    fn a_rare_shape_stays_near_the_average_candidate_while_a_common_unchosen_one_sinks() {
        // Every position offers shape 0 ten times and shape 1 once and chooses shape 1; shape
        // 2 is offered in one position only, and not chosen.
        let mut c = Contests::default();
        for _ in 0..200 {
            c.push(&mut [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 1);
        }
        c.push(&mut [0, 2, 1], 1);
        let (g, _) = fit_shapes(&c, &Contests::default(), &[1.0; 3], 500, |_| {});
        assert!(g[0] < 0.2, "{g:?}");
        assert!(g[1] > 5.0, "{g:?}");
        assert!(g[2] > g[0] && g[2] < g[1], "{g:?}");
        assert!(g[2].ln().abs() < 1.5, "{g:?}");
    }

    #[test]
    fn a_fit_over_offsets_learns_what_they_miss_and_none_where_they_are_right() {
        // Shape 0 chosen 3,000 times, shape 1 1,000 times, both offered once a position.
        let c = pairs(3000, 1000);
        // Offsets that already say 3 to 1: the fit leaves both shapes level, and the moves'
        // strengths o·γ keep the 3 to 1.
        let (g, steps) = fit_shapes(&c, &c, &[3.0, 1.0], 2000, |_| {});
        assert!((g[0] / g[1] - 1.0).abs() < 0.01, "{g:?}");
        // No step improves on offsets that were right already.
        assert!((steps.last().unwrap().train_log_p - steps[0].train_log_p).abs() < 1e-4);
        // Offsets that say 1 to 3: the fit turns them round to 3 to 1 (γ ratio near 9).
        let (g, steps) = fit_shapes(&c, &c, &[1.0, 3.0], 2000, |_| {});
        let strength = g[0] / (3.0 * g[1]);
        assert!((strength - 3.0).abs() < 0.05, "{g:?}");
        assert!(steps.last().unwrap().train_log_p > steps[0].train_log_p + 0.1);
        // Step 0 scores the offsets alone: P(shape 0) = 1/4 where it is chosen.
        let want = (3000.0 * 0.25f64.ln() + 1000.0 * 0.75f64.ln()) / 4000.0;
        assert!((steps[0].train_log_p - want).abs() < 1e-12);
        // γ averages 1 over the candidates, each counted at its offset's strength.
        assert!(((g[0] + 3.0 * g[1]) / 4.0 - 1.0).abs() < 1e-12, "{g:?}");
    }

    #[test]
    fn prediction_scores_the_chosen_moves_probability_and_shares_ties() {
        // Position 1: shapes 0 (twice) and 1; 0 chosen. Position 2: shapes 0 and 1; 1 chosen.
        let mut c = Contests::default();
        c.push(&mut [0, 1, 0], 0);
        c.push(&mut [1, 0], 1);
        // γ = (2, 1): P = 2/5 and 1/3; top: position 1 has two moves of the strongest shape
        // (½), position 2 chose the weaker (0).
        let (log_p, top) = prediction(&c, &[2.0, 1.0]);
        let want = ((2.0f64 / 5.0).ln() + (1.0f64 / 3.0).ln()) / 2.0;
        assert!((log_p - want).abs() < 1e-12);
        assert!((top - 0.25).abs() < 1e-12, "{top}");
        // Equal strengths: every move ties, 1/3 and 1/2.
        let (_, top) = prediction(&c, &[1.0, 1.0]);
        assert!((top - (1.0 / 3.0 + 0.5) / 2.0).abs() < 1e-12);
    }
}
