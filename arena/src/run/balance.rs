//! The balance instrument: who is favoured in a game, asked of two families of players and
//! answered only where they agree.
//!
//! A *family* is a kind of player at rungs of rising strength (MCTS by its iterations,
//! alpha-beta by its depth). Each rung plays itself from the start, no random opening: MCTS
//! draws from its seed, alpha-beta plays `near=` (a move drawn among those within a margin
//! of the best, [`ringside_agents::spec::AlphaBetaSpec::near`]), so every game is an
//! independent draw and counts; distinct games are counted beside it.
//!
//! A *cell* (a rung against itself) is a sequential test: after each game, in the order of
//! the games' ids whatever the thread count, the first colour's score feeds an anytime-valid
//! confidence sequence ([`crate::figures::confseq`]) at `alpha / cells` (Bonferroni's
//! spending over the run's cells, stated before it is played). The cell stops when the
//! interval leaves out ½ (a side *shown*) or lies within ½ ± `margin` (*balanced*), else at
//! its budget of games (*undecided*, with the interval it reached). Games stopped by the ply
//! cap are counted apart, never as draws, and a cell with more than 10% of them is
//! *unfinished*.
//!
//! The family's word is its top rung's, and only when (1) the top rung's replication, from a
//! seed fixed before the run, shows the same, (2) for a side, the rung below the top shows it
//! too (a side seen only at the top is not yet seen to hold with strength), and (3) the first
//! colour's score does not move toward ½ with strength over the family's rungs (a weighted
//! least-squares slope over the rungs whose 95% interval lies on ½'s side is a fall). Rule (2)
//! was added after the first calibration pass on boards of known value, where without it two
//! draws (Connect Four 4 × 7 and the m,n,k (5,5,4) board) were called first-player wins. The game's verdict: `+` (first
//! player) or `-` (second) when every family says so; `=` (*drawn under strong play*) when
//! every family's top rung is balanced and draws at least [`DRAWN`] of its games; *balanced*
//! when every family is balanced with fewer draws; *the players disagree* when one family
//! shows a side and another the other; else *undecided*.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ringside_engine::registry::AnyGame;

use crate::error::{Error, Result};
use crate::figures::confseq::ConfSeq;
use crate::figures::stats::holm;
use crate::plan::builder::PlanBuilder;
use crate::records::durable::write_atomically;
use crate::records::games_csv::read_games_with;
use crate::records::row::{GameRow, Reason};
use crate::run::pool::Observer;
use crate::run::runner::run_to_csv;

/// The share of a top rung's games that must be draws for *drawn under strong play*.
pub const DRAWN: f64 = 0.9;
/// A cell with more than this share of its games stopped by the ply cap is unfinished.
pub const UNFINISHED: f64 = 0.1;
/// The ply cap of the instrument's games: the design reports'.
pub use crate::run::design::PLY_CAP;
/// Mixed into the seed of the replications (fixed before any game is played).
pub const REPLICATION: u64 = 0x005E_ED0F_A6A1;

/// A kind of player at rungs of rising strength.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Family {
    /// Its name (`mcts`, `alphabeta`).
    pub name: String,
    /// Agent specs, weakest first.
    pub rungs: Vec<String>,
}

/// The default families: plain MCTS at `iters`, and alpha-beta with the `rich` evaluation at
/// `depths`, at most `nodes` positions a move (so a deep rung stays affordable on a large
/// board: the last finished iteration's move is played), choosing among moves within 0.05 of
/// a stone of the best (`near=0.05`).
#[must_use]
pub fn families(iters: &[u64], depths: &[u32], nodes: Option<u64>) -> Vec<Family> {
    let cap = nodes.map_or(String::new(), |n| format!(",nodes={n}"));
    let mut out = Vec::new();
    if !iters.is_empty() {
        out.push(Family {
            name: "mcts".to_string(),
            rungs: iters.iter().map(|i| format!("mcts:iters={i}")).collect(),
        });
    }
    if !depths.is_empty() {
        out.push(Family {
            name: "alphabeta".to_string(),
            rungs: depths
                .iter()
                .map(|d| format!("alphabeta:depth={d}{cap},eval=rich,near=0.05"))
                .collect(),
        });
    }
    out
}

/// What a cell shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// The first colour is favoured (the interval lies above ½).
    First,
    /// The second colour (below ½).
    Second,
    /// The score lies within ½ ± the margin.
    Balanced,
    /// The budget ran out first.
    Undecided,
    /// Too many games stopped by the ply cap.
    Unfinished,
}

impl Shown {
    /// The word in files.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Shown::First => "first",
            Shown::Second => "second",
            Shown::Balanced => "balanced",
            Shown::Undecided => "undecided",
            Shown::Unfinished => "unfinished",
        }
    }

    fn of(interval: (f64, f64), margin: f64) -> Shown {
        let (lo, hi) = interval;
        if lo > 0.5 {
            Shown::First
        } else if hi < 0.5 {
            Shown::Second
        } else if lo >= 0.5 - margin && hi <= 0.5 + margin {
            Shown::Balanced
        } else {
            Shown::Undecided
        }
    }
}

/// The games of a cell, fed to its test in the order of their ids, up to its decision.
#[derive(Debug, Clone)]
pub struct Fold {
    cs: ConfSeq,
    margin: f64,
    next: u64,
    waiting: BTreeMap<u64, (Option<f64>, u64, Opening, f64)>,
    /// Wins, draws and losses of the first colour over the counted games.
    pub wdl: [u64; 3],
    /// Counted games stopped by the ply cap.
    pub capped: u64,
    distinct: HashSet<u64>,
    /// Each counted game's result for the first colour, in id order: `+`, `=`, `-`, or `c`
    /// for the cap.
    pub sequence: String,
    /// What the test showed when it stopped (`Undecided` while it runs).
    pub shown: Shown,
    /// By first move, over the counted games that ended: games, how many the second player
    /// answered with the swap, and the first colour's points.
    pub openings: BTreeMap<String, (u64, u64, f64)>,
    /// Both players' thinking time over the counted games, in seconds, as their rows record
    /// it (a cost that survives resuming and recomputing).
    pub thinking: f64,
}

/// A game's first move and whether the reply was the swap.
type Opening = Option<(String, bool)>;

/// The opening of a recorded game: its first move and whether the second was `swap`.
fn opening_of(moves: &str) -> Opening {
    let mut it = moves.split_whitespace();
    let first = it.next()?;
    Some((first.to_string(), it.next() == Some("swap")))
}

impl Fold {
    /// A cell's fold, testing at `alpha` with the balanced margin `margin`.
    #[must_use]
    pub fn new(alpha: f64, margin: f64) -> Fold {
        Fold {
            cs: ConfSeq::new(alpha),
            margin,
            next: 0,
            waiting: BTreeMap::new(),
            wdl: [0; 3],
            capped: 0,
            distinct: HashSet::new(),
            sequence: String::new(),
            shown: Shown::Undecided,
            openings: BTreeMap::new(),
            thinking: 0.0,
        }
    }

    /// Whether the test has stopped.
    #[must_use]
    pub fn decided(&self) -> bool {
        self.shown != Shown::Undecided
    }

    /// Offers a finished game; it is counted when every game of a smaller id has been, and
    /// only while the test runs.
    pub fn offer(&mut self, row: &GameRow) {
        let x = (row.reason != Reason::PlyCap).then(|| row.first_points());
        let key = row.moves_key();
        let seconds = (row.first_time_ms + row.second_time_ms) / 1000.0;
        self.take(row.id, x, key, opening_of(&row.moves), seconds);
    }

    /// Game `id`'s result (`None`: stopped by the cap) and its moves' hash, counted in id
    /// order while the test runs.
    fn take(&mut self, id: u64, x: Option<f64>, key: u64, opening: Opening, seconds: f64) {
        self.waiting.insert(id, (x, key, opening, seconds));
        while let Some((x, key, opening, seconds)) = self.waiting.remove(&self.next) {
            self.next += 1;
            if self.decided() {
                continue;
            }
            self.thinking += seconds;
            if let (Some(x), Some((first, swapped))) = (x, opening) {
                let o = self.openings.entry(first).or_default();
                o.0 += 1;
                o.1 += u64::from(swapped);
                o.2 += x;
            }
            self.count(x, key);
        }
    }

    /// Counts one game.
    fn count(&mut self, x: Option<f64>, moves: u64) {
        self.distinct.insert(moves);
        match x {
            None => {
                self.capped += 1;
                self.sequence.push('c');
            }
            Some(x) => {
                self.cs.push(x);
                let (i, c) = if x > 0.75 {
                    (0, '+')
                } else if x < 0.25 {
                    (2, '-')
                } else {
                    (1, '=')
                };
                self.wdl[i] += 1;
                self.sequence.push(c);
            }
        }
        if let Some(interval) = self.cs.interval() {
            self.shown = Shown::of(interval, self.margin);
        }
    }

    /// Games counted (capped ones included).
    #[must_use]
    pub fn counted(&self) -> u64 {
        self.wdl.iter().sum::<u64>() + self.capped
    }

    /// Distinct games among the counted.
    #[must_use]
    pub fn distinct(&self) -> usize {
        self.distinct.len()
    }

    /// The test's interval now.
    #[must_use]
    pub fn interval(&self) -> (f64, f64) {
        self.cs.interval().unwrap_or((0.5, 0.5))
    }

    /// The anytime p-value of "the score is ½".
    #[must_use]
    pub fn p_half(&self) -> f64 {
        self.cs.p_value(0.5)
    }

    /// The first colour's mean score over the counted games that ended.
    #[must_use]
    pub fn score(&self) -> f64 {
        self.cs.mean()
    }

    /// What the cell shows at its end: unfinished over the cap's share, else the test's.
    #[must_use]
    pub fn verdict(&self) -> Shown {
        if self.capped as f64 > UNFINISHED * self.counted() as f64 {
            Shown::Unfinished
        } else {
            self.shown
        }
    }
}

/// Stops a run once its fold has decided, or its time is up.
struct Stopper<'a> {
    fold: &'a mut Fold,
    until: Option<Instant>,
}

impl Observer for Stopper<'_> {
    fn finished(&mut self, row: &GameRow) {
        self.fold.offer(row);
    }
    fn interrupted(&self) -> bool {
        self.fold.decided() || self.until.is_some_and(|t| Instant::now() >= t)
    }
}

/// The run a cell belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Run {
    /// The first run.
    First,
    /// The replication, from its seed fixed beforehand.
    Replication,
}

impl Run {
    /// The word in files and folders.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Run::First => "first",
            Run::Replication => "replication",
        }
    }
}

/// One cell's result.
#[derive(Debug, Clone)]
pub struct Cell {
    /// The family's name.
    pub family: String,
    /// The rung, 1 the weakest.
    pub rung: usize,
    /// The player (agent spec).
    pub player: String,
    /// Its run.
    pub run: Run,
    /// The level its test was run at.
    pub alpha: f64,
    /// Games in its file (some may have finished after the decision and are not counted).
    pub played: u64,
    /// The fold at its end.
    pub fold: Fold,
    /// Holm's adjustment of its p-value over the run's cells.
    pub holm: f64,
    /// Seconds this call spent playing it (none when it played nothing).
    pub seconds: f64,
}

impl Cell {
    /// A line for people: the cell, what it showed after how many games, its results and
    /// interval.
    #[must_use]
    pub fn line(&self) -> String {
        let f = &self.fold;
        let (lo, hi) = f.interval();
        let [w, d, l] = f.wdl;
        format!(
            "{} rung {} ({}) {}: {} after {} games (W-D-L {w}-{d}-{l}, capped {}, distinct {}), score {:.3} [{lo:.3}, {hi:.3}], {:.1} s",
            self.family,
            self.rung,
            self.player,
            self.run.word(),
            f.verdict().word(),
            f.counted(),
            f.capped,
            f.distinct(),
            f.score(),
            self.seconds
        )
    }

    /// Its line of `cells.csv`.
    fn csv(&self) -> String {
        let f = &self.fold;
        let (lo, hi) = f.interval();
        format!(
            "{},{},\"{}\",{},{:.5},{},{},{},{},{},{},{},{:.4},{:.4},{:.4},{:.3e},{:.3e},{},{:.1},{}",
            self.family,
            self.rung,
            self.player,
            self.run.word(),
            self.alpha,
            self.played,
            f.counted(),
            f.wdl[0],
            f.wdl[1],
            f.wdl[2],
            f.capped,
            f.distinct(),
            f.score(),
            lo,
            hi,
            f.p_half(),
            self.holm,
            f.verdict().word(),
            f.thinking,
            f.sequence
        )
    }
}

/// The header of `cells.csv`.
pub const CELLS_HEADER: &str = "family,rung,player,run,alpha,played,counted,wins,draws,losses,capped,distinct,score,low,high,p_half,holm,shown,thinking_s,sequence";

/// What a run is asked.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The board.
    pub game: AnyGame,
    /// The families, each with its rungs.
    pub families: Vec<Family>,
    /// The most games a cell plays (even).
    pub games: u64,
    /// The family-wise error of the run's tests.
    pub alpha: f64,
    /// The balanced margin around ½.
    pub margin: f64,
    /// The run's seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: Option<usize>,
    /// The folder of the cells' games and the results.
    pub dir: PathBuf,
    /// A cell stops undecided after this many seconds of play in one call (`None`: only
    /// `games` stops it). The games it counted are in its file and its sequence; which games
    /// those are then depends on the machine's speed.
    pub cell_seconds: Option<f64>,
    /// Play the games a cell still needs (`false`: only read what the cells' files hold and
    /// write the results from them).
    pub play: bool,
    /// Whether a cell whose time budget ran out in an earlier call plays on for another
    /// `cell_seconds` (`arena balance`, where each call is a budget), or is read as it stands
    /// (a design report, which must read the same verdict every time it is rendered).
    pub extend: bool,
    /// The perfect player as a third family, where the solver solves the start within this
    /// many positions ([`PERFECT`]): `solver:nodes=N` against itself. `None`: no such family
    /// (calibration measures the instrument without it).
    pub perfect: Option<u64>,
}

/// The name of the perfect player's family.
pub const PERFECT: &str = "perfect";

/// A cell's file saying its time budget ran out (the seconds played): such a cell plays on
/// only when [`Settings::extend`] says so.
const TIME_SPENT: &str = "time-spent";

/// Plays (or resumes) one cell into `dir/games.csv` and folds it.
fn cell(
    s: &Settings,
    (family, rung, player): (&str, usize, &str),
    run: Run,
    alpha: f64,
) -> Result<Cell> {
    let started = Instant::now();
    let dir = s.dir.join(format!("{family}-{rung}")).join(run.word());
    std::fs::create_dir_all(&dir).map_err(|e| Error::io("create", &dir, &e))?;
    let seed = match run {
        Run::First => s.seed,
        Run::Replication => s.seed ^ REPLICATION,
    };
    let plan = PlanBuilder::for_game(s.game.clone())
        .pairing(player, player)
        .games(s.games)
        .seed(seed)
        .ply_cap(Some(PLY_CAP))
        .opening_plies(0)
        .build()?;
    let path = dir.join("games.csv");
    let mut fold = Fold::new(alpha, s.margin);
    let mut played = 0;
    if path.exists() {
        // Streamed, a chunk at a time: memory follows the chunk, not the file.
        read_games_with(&path, &plan, &(), &mut |chunk| {
            played += chunk.len() as u64;
            for r in chunk {
                fold.offer(&r.row);
            }
            Ok(())
        })?;
    }
    let spent = dir.join(TIME_SPENT);
    let mut playing = false;
    if s.play && !fold.decided() && played < s.games && (s.extend || !spent.exists()) {
        let mut stopper = Stopper {
            fold: &mut fold,
            until: s
                .cell_seconds
                .map(|t| started + std::time::Duration::from_secs_f64(t)),
        };
        let report = run_to_csv(&plan, &path, s.threads, &mut stopper)?;
        played += report.played;
        playing = report.played > 0;
        if !fold.decided() && played < s.games {
            let text = format!("{:.1}\n", started.elapsed().as_secs_f64());
            write_atomically(&spent, text.as_bytes())?;
        }
    }
    Ok(Cell {
        family: family.to_string(),
        rung,
        player: player.to_string(),
        run,
        alpha,
        played,
        fold,
        holm: 1.0,
        seconds: if playing {
            started.elapsed().as_secs_f64()
        } else {
            0.0
        },
    })
}

/// A family's word on the game.
#[derive(Debug, Clone)]
pub struct Word {
    /// The family.
    pub family: String,
    /// What it says: its top rung's result when replicated and not falling with strength.
    pub says: Shown,
    /// The top rung's draw share.
    pub draws: f64,
    /// The score's slope per rung and its 95% interval, over the rungs that ended games.
    pub trend: Option<(f64, f64, f64)>,
    /// Why, in a few words.
    pub why: String,
}

/// The weighted least-squares slope of score on rung, with its 95% interval: each rung
/// weighted by its games over the variance of its results (at least that of a score of
/// 0.5 ± 0.05, so a rung of all draws does not weigh without bound).
#[must_use]
pub fn trend(points: &[(f64, f64, f64)]) -> Option<(f64, f64, f64)> {
    // (rung, score, weight)
    if points.len() < 2 {
        return None;
    }
    let sw: f64 = points.iter().map(|p| p.2).sum();
    let mx = points.iter().map(|p| p.0 * p.2).sum::<f64>() / sw;
    let my = points.iter().map(|p| p.1 * p.2).sum::<f64>() / sw;
    let sxx: f64 = points.iter().map(|p| p.2 * (p.0 - mx).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let slope = points
        .iter()
        .map(|p| p.2 * (p.0 - mx) * (p.1 - my))
        .sum::<f64>()
        / sxx;
    let se = (1.0 / sxx).sqrt();
    Some((slope, slope - 1.96 * se, slope + 1.96 * se))
}

/// The family's word from its cells (first run, weakest first) and its top rung's
/// replication.
#[must_use]
pub fn word(family: &str, cells: &[&Cell], replication: Option<&Cell>) -> Word {
    let top = cells.last().expect("a family has a rung");
    let shown = top.fold.verdict();
    let n = top.fold.counted().max(1) as f64;
    let draws = top.fold.wdl[1] as f64 / n;
    let points: Vec<(f64, f64, f64)> = cells
        .iter()
        .filter(|c| c.fold.counted() > c.fold.capped)
        .map(|c| {
            let f = &c.fold;
            let ended = (f.counted() - f.capped) as f64;
            let mean = f.score();
            let var = (f.wdl[0] as f64 * (1.0 - mean).powi(2)
                + f.wdl[1] as f64 * (0.5 - mean).powi(2)
                + f.wdl[2] as f64 * mean.powi(2))
                / ended;
            (c.rung as f64, mean, ended / var.max(0.0025))
        })
        .collect();
    let t = trend(&points);
    let (says, why) = match shown {
        Shown::First | Shown::Second | Shown::Balanced => {
            let again = replication.map(|r| r.fold.verdict());
            let falls = match (shown, t) {
                (Shown::First, Some((_, _, hi))) => hi < 0.0,
                (Shown::Second, Some((_, lo, _))) => lo > 0.0,
                _ => false,
            };
            if again != Some(shown) {
                (
                    Shown::Undecided,
                    format!(
                        "its top rung showed {} but the replication {}",
                        shown.word(),
                        again.map_or("was not played", Shown::word)
                    ),
                )
            } else if matches!(shown, Shown::First | Shown::Second)
                && cells.len() >= 2
                && cells[cells.len() - 2].fold.verdict() != shown
            {
                (
                    Shown::Undecided,
                    format!(
                        "its top rung shows {} (replicated) but the rung below does not: not yet seen to hold with strength",
                        shown.word()
                    ),
                )
            } else if falls {
                (
                    Shown::Undecided,
                    format!(
                        "its top rung shows {} (replicated) but the score moves toward ½ with strength",
                        shown.word()
                    ),
                )
            } else {
                (shown, format!("{} (replicated)", shown.word()))
            }
        }
        other => {
            let (lo, hi) = top.fold.interval();
            (
                other,
                format!(
                    "its top rung is {} after {} games (score {:.3}, interval [{lo:.3}, {hi:.3}]: a side needs the interval clear of ½)",
                    other.word(),
                    top.fold.counted(),
                    top.fold.score()
                ),
            )
        }
    };
    Word {
        family: family.to_string(),
        says,
        draws,
        trend: t,
        why,
    }
}

/// The game's verdict.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// `+`, `-`, `=`, or `undecided` (the calibration's words).
    pub sign: &'static str,
    /// The sentence.
    pub text: String,
    /// Each family's word.
    pub words: Vec<Word>,
    /// What perfect play says, where the run asked the solver ([`Settings::perfect`]).
    pub perfect: Option<String>,
}

/// The verdict from the families' words.
#[must_use]
pub fn verdict(words: Vec<Word>) -> Verdict {
    let all = |s: Shown| !words.is_empty() && words.iter().all(|w| w.says == s);
    let any = |s: Shown| words.iter().any(|w| w.says == s);
    let (sign, text) = if all(Shown::First) {
        (
            "+",
            "the first player is favoured: every family agrees".to_string(),
        )
    } else if all(Shown::Second) {
        (
            "-",
            "the second player is favoured: every family agrees".to_string(),
        )
    } else if all(Shown::Balanced) && words.iter().all(|w| w.draws >= DRAWN) {
        (
            "=",
            format!(
                "drawn under strong play: every family's top rung is balanced and draws at least {:.0}% of its games",
                100.0 * DRAWN
            ),
        )
    } else if all(Shown::Balanced) {
        (
            "undecided",
            "balanced: every family's top rung scores within the margin of ½".to_string(),
        )
    } else if any(Shown::First) && any(Shown::Second) {
        (
            "undecided",
            "the players disagree: one family favours the first player, another the second"
                .to_string(),
        )
    } else if words
        .iter()
        .all(|w| !matches!(w.says, Shown::First | Shown::Second | Shown::Balanced))
    {
        (
            "undecided",
            "undecided: no family's top rung decided (within its budget, replicated and held with strength)"
                .to_string(),
        )
    } else {
        (
            "undecided",
            if words.len() > 2 {
                "undecided: some families decided, others did not".to_string()
            } else {
                "undecided: one family decided, the other did not".to_string()
            },
        )
    };
    Verdict {
        sign,
        text: text.to_string(),
        words,
        perfect: None,
    }
}

/// The run's families: the settings' and, where [`Settings::perfect`] asks for it and the
/// solver solves the start within its positions, the perfect player's; with the sentence on
/// perfect play (what the solver found, or that it did not solve). The solver's answer is
/// kept in the run's folder, which must exist.
fn with_perfect(s: &Settings) -> Result<(Vec<Family>, Option<String>)> {
    let mut families = s.families.clone();
    let Some(nodes) = s.perfect else {
        return Ok((families, None));
    };
    let budget = ringside_agents::solve::Budget {
        time: None,
        nodes: Some(nodes),
        memory: 64 << 20,
        exact: false,
        method: ringside_agents::solve::Method::default(),
    };
    // The start's value and the positions it took, by the agents' solver.
    struct Start<'a>(&'a ringside_agents::solve::Budget);
    impl ringside_engine::registry::GameVisitor for Start<'_> {
        type Output = (Option<ringside_agents::solve::Value>, u64);
        fn visit<G: ringside_engine::Game + ringside_engine::Features>(
            self,
            start: G,
        ) -> Self::Output {
            let s = ringside_agents::solve::solve(&start, self.0);
            (s.value, s.nodes)
        }
    }
    let (value, positions) = match read_perfect(&s.dir, &s.game.spec(), nodes) {
        Some(known) => known,
        None => {
            let (value, positions) = s.game.visit(Start(&budget));
            let word = value.map(ringside_agents::solve::Value::word);
            write_atomically(
                &s.dir.join(PERFECT_FILE),
                perfect_text(&s.game.spec(), nodes, word, positions).as_bytes(),
            )?;
            (word, positions)
        }
    };
    let note = match value {
        Some(value) => {
            families.push(Family {
                name: PERFECT.to_string(),
                rungs: vec![format!("solver:nodes={nodes}")],
            });
            format!(
                "perfect play: the solver finds the start a {} for the first player ({} positions); its family is the solver against itself",
                value, positions
            )
        }
        None => format!(
            "perfect play: the solver does not solve the start within {nodes} positions, so no perfect family"
        ),
    };
    Ok((families, Some(note)))
}

/// The file in a run's folder that keeps the solver's answer on the start, so that a report
/// rendered again does not solve it again (the solver's answer within a count of positions
/// is the same every time).
pub const PERFECT_FILE: &str = "perfect.txt";

/// The text of [`PERFECT_FILE`]: the board, the positions allowed, the start's value for the
/// first player (`win`, `draw`, `loss`, or `unsolved`) and the positions the solver took.
fn perfect_text(game: &str, nodes: u64, word: Option<&str>, positions: u64) -> String {
    format!(
        "game={game}\nnodes={nodes}\nvalue={}\npositions={positions}\n",
        word.unwrap_or("unsolved")
    )
}

/// The solver's answer kept in `dir` for `game` within `nodes` positions: the value's word
/// (`None`: unsolved) and the positions; `None` when no file keeps this board and budget.
fn read_perfect(dir: &Path, game: &str, nodes: u64) -> Option<(Option<&'static str>, u64)> {
    let text = std::fs::read_to_string(dir.join(PERFECT_FILE)).ok()?;
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix('='))
    };
    if field("game")? != game || field("nodes")?.parse::<u64>().ok()? != nodes {
        return None;
    }
    let positions = field("positions")?.parse().ok()?;
    let word = match field("value")? {
        "win" => Some("win"),
        "draw" => Some("draw"),
        "loss" => Some("loss"),
        "unsolved" => None,
        _ => return None,
    };
    Some((word, positions))
}

/// Runs the instrument: every rung of every family (first run), then the replication of
/// each family's top rung that showed something, and writes `cells.csv` and `verdict.txt`
/// into the run's folder. `report` hears each cell as it ends.
pub fn run(s: &Settings, report: &mut dyn FnMut(&Cell)) -> Result<(Vec<Cell>, Verdict)> {
    if s.games < 2 || !s.games.is_multiple_of(2) {
        return Err(Error::setting(format!(
            "--games {} must be an even number of at least 2",
            s.games
        )));
    }
    // The folder first: the perfect player's answer is kept in it.
    std::fs::create_dir_all(&s.dir).map_err(|e| Error::io("create", &s.dir, &e))?;
    let (families, perfect) = with_perfect(s)?;
    let k: usize = families.iter().map(|f| f.rungs.len()).sum();
    if k == 0 {
        return Err(Error::setting(
            "no player to play: give a family at least one rung",
        ));
    }
    let alpha = s.alpha / k as f64;
    let mut cells = Vec::new();
    for f in &families {
        for (i, p) in f.rungs.iter().enumerate() {
            let c = cell(s, (&f.name, i + 1, p), Run::First, alpha)?;
            report(&c);
            cells.push(c);
            write_cells(&s.dir, &cells)?;
        }
    }
    // The replications: each family's top rung that showed a side or balance.
    let tops: Vec<usize> = families
        .iter()
        .filter_map(|f| {
            cells.iter().rposition(|c| c.family == f.name).filter(|&i| {
                matches!(
                    cells[i].fold.verdict(),
                    Shown::First | Shown::Second | Shown::Balanced
                )
            })
        })
        .collect();
    let mut again = Vec::new();
    for &i in &tops {
        let c = &cells[i];
        let r = cell(
            s,
            (&c.family, c.rung, &c.player),
            Run::Replication,
            s.alpha / tops.len() as f64,
        )?;
        report(&r);
        again.push(r);
    }
    let adjusted = holm(&cells.iter().map(|c| c.fold.p_half()).collect::<Vec<_>>());
    for (c, h) in cells.iter_mut().zip(adjusted) {
        c.holm = h;
    }
    let adjusted = holm(&again.iter().map(|c| c.fold.p_half()).collect::<Vec<_>>());
    for (c, h) in again.iter_mut().zip(adjusted) {
        c.holm = h;
    }
    let words: Vec<Word> = families
        .iter()
        .map(|f| {
            let own: Vec<&Cell> = cells.iter().filter(|c| c.family == f.name).collect();
            let rep = again.iter().find(|c| c.family == f.name);
            word(&f.name, &own, rep)
        })
        .collect();
    let mut v = verdict(words);
    v.perfect = perfect;
    cells.extend(again);
    write_cells(&s.dir, &cells)?;
    if has_swap(&s.game) {
        write_swaps(&s.dir, &cells)?;
    }
    write_atomically(
        &s.dir.join("verdict.txt"),
        describe_with_swaps(s, &v, &cells).as_bytes(),
    )?;
    Ok((cells, v))
}

fn write_cells(dir: &Path, cells: &[Cell]) -> Result<()> {
    let mut text = format!("{CELLS_HEADER}\n");
    for c in cells {
        let _ = writeln!(text, "{}", c.csv());
    }
    write_atomically(&dir.join("cells.csv"), text.as_bytes())
}

/// Whether the board is played with the swap rule.
#[must_use]
pub fn has_swap(game: &AnyGame) -> bool {
    crate::run::design::sides::swap_of(game) == Some(true)
}

/// The header of `swap.csv`.
pub const SWAP_HEADER: &str = "family,rung,run,opening,games,swapped,first_score";

/// `swap.csv`: every cell's openings, each with its games, how often the second player
/// swapped, and the first colour's score after it.
fn write_swaps(dir: &Path, cells: &[Cell]) -> Result<()> {
    let mut text = format!("{SWAP_HEADER}\n");
    for c in cells {
        for (mv, (n, swapped, points)) in &c.fold.openings {
            let _ = writeln!(
                text,
                "{},{},{},{mv},{n},{swapped},{:.4}",
                c.family,
                c.rung,
                c.run.word(),
                points / *n as f64
            );
        }
    }
    write_atomically(&dir.join("swap.csv"), text.as_bytes())
}

/// The swap as a cell's player decided it: how many first stones were swapped, and the best
/// opening for the first player (over openings of at least 5 games) with its score after
/// the swap decision.
#[must_use]
pub fn swap_line(c: &Cell) -> String {
    let o = &c.fold.openings;
    let games: u64 = o.values().map(|v| v.0).sum();
    let swapped: u64 = o.values().map(|v| v.1).sum();
    let best = o
        .iter()
        .filter(|(_, v)| v.0 >= 5)
        .map(|(m, v)| (m, v.2 / v.0 as f64, v.0))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    format!(
        "{} swapped {swapped} of {games} first stones{}",
        c.player,
        best.map_or(String::new(), |(m, score, n)| format!(
            "; the first player's best opening {m} scores {score:.3} after the swap decision ({n} games)"
        ))
    )
}

/// The verdict in a few lines: the sign, the sentence, each family's word.
#[must_use]
pub fn describe(s: &Settings, v: &Verdict) -> String {
    let mut out = format!(
        "game={} verdict={} alpha={} margin={} games_per_cell={}{} seed={}\n{}\n",
        s.game.spec(),
        v.sign,
        s.alpha,
        s.margin,
        s.games,
        s.cell_seconds
            .map_or(String::new(), |t| format!(" seconds_per_cell={t}")),
        s.seed,
        v.text
    );
    if let Some(p) = &v.perfect {
        let _ = writeln!(out, "{p}");
    }
    for w in &v.words {
        let trend = w.trend.map_or(String::from("–"), |(b, lo, hi)| {
            format!("{b:+.3} per rung [{lo:+.3}, {hi:+.3}]")
        });
        let _ = writeln!(
            out,
            "{}: {} (top rung draws {:.0}%; score trend {trend}): {}",
            w.family,
            w.says.word(),
            100.0 * w.draws,
            w.why
        );
    }
    out
}

/// [`describe`], with the swap's line for each family's top rung where the board has it.
#[must_use]
pub fn describe_with_swaps(s: &Settings, v: &Verdict, cells: &[Cell]) -> String {
    let mut out = describe(s, v);
    if has_swap(&s.game) {
        for (family, line) in swap_lines(cells) {
            let _ = writeln!(out, "swap, {family}: {line}");
        }
    }
    out
}

/// [`swap_line`] for each family's top rung of the first run, one a family, in the order the
/// families first appear in `cells`.
#[must_use]
pub fn swap_lines(cells: &[Cell]) -> Vec<(&str, String)> {
    let mut names: Vec<&str> = Vec::new();
    for c in cells {
        if !names.contains(&c.family.as_str()) {
            names.push(&c.family);
        }
    }
    names
        .into_iter()
        .filter_map(|name| {
            let top = cells
                .iter()
                .rfind(|c| c.family == name && c.run == Run::First)?;
            Some((name, swap_line(top)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(c: char) -> Option<f64> {
        match c {
            '+' => Some(1.0),
            '=' => Some(0.5),
            '-' => Some(0.0),
            _ => None,
        }
    }

    fn fed(results: &str) -> Fold {
        let mut f = Fold::new(0.05, 0.05);
        for (i, c) in results.chars().enumerate() {
            f.take(i as u64, result(c), i as u64, None, 0.0);
        }
        f
    }

    #[test]
    fn a_cell_stops_at_its_decision_counts_nothing_after_and_in_id_order() {
        let games = "++-+".repeat(200);
        let f = fed(&games);
        assert_eq!(f.verdict(), Shown::First);
        assert!(f.counted() < 800, "stopped early: {}", f.counted());
        assert_eq!(f.sequence, games[..f.counted() as usize]);
        // The same games offered last first: counted in id order, the same decision.
        let mut g = Fold::new(0.05, 0.05);
        for (i, c) in games
            .chars()
            .enumerate()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
        {
            g.take(i as u64, result(c), i as u64, None, 0.0);
        }
        assert_eq!(g.sequence, f.sequence);
        assert_eq!(g.shown, f.shown);
    }

    #[test]
    fn the_swap_table_counts_each_opening_its_swaps_and_the_first_colours_score() {
        let mut f = Fold::new(0.05, 0.05);
        let games = [
            ("b2 swap a1", 0.0),
            ("b2 swap c3", 1.0),
            ("a1 c3", 0.0),
            ("b2 a1", 1.0),
        ];
        for (i, (moves, x)) in games.iter().enumerate() {
            f.take(i as u64, Some(*x), i as u64, opening_of(moves), 0.0);
        }
        assert_eq!(f.openings["b2"], (3, 2, 2.0));
        assert_eq!(f.openings["a1"], (1, 0, 0.0));
        assert_eq!(opening_of(""), None);
    }

    #[test]
    fn all_draws_are_balanced_and_capped_games_are_not_draws() {
        let f = fed(&"=".repeat(200));
        assert_eq!(f.verdict(), Shown::Balanced);
        assert_eq!(f.wdl, [0, f.counted(), 0]);
        let capped = fed(&"=c".repeat(100));
        assert_eq!(capped.verdict(), Shown::Unfinished);
        assert_eq!(capped.wdl[1] + capped.capped, capped.counted());
        assert!(capped.capped > 0);
    }

    #[test]
    fn an_even_split_is_undecided_within_a_small_budget() {
        let f = fed(&"+-".repeat(30));
        assert_eq!(f.verdict(), Shown::Undecided);
    }

    #[test]
    fn the_trend_is_the_least_squares_slope_worked_by_hand() {
        // Equal weights, scores 0.8, 0.7, 0.6 at rungs 1..3: slope −0.1; Σw(x − x̄)² = 2w.
        let t = trend(&[(1.0, 0.8, 100.0), (2.0, 0.7, 100.0), (3.0, 0.6, 100.0)]).unwrap();
        assert!((t.0 + 0.1).abs() < 1e-12);
        assert!((t.2 - t.0 - 1.96 * (1.0f64 / 200.0).sqrt()).abs() < 1e-12);
        assert!(trend(&[(1.0, 0.5, 1.0)]).is_none());
    }

    fn cell_of(rung: usize, results: &str, run: Run) -> Cell {
        Cell {
            family: "f".to_string(),
            rung,
            player: format!("p{rung}"),
            run,
            alpha: 0.05,
            played: results.len() as u64,
            fold: fed(results),
            holm: 1.0,
            seconds: 0.0,
        }
    }

    #[test]
    fn a_family_shows_a_side_only_replicated_held_by_the_rung_below_and_not_falling() {
        let strong = "++-+".repeat(100);
        let even = "+-".repeat(100);
        let top = cell_of(3, &strong, Run::First);
        let again = cell_of(3, &strong, Run::Replication);
        let below = cell_of(2, &strong, Run::First);
        let flat = cell_of(2, &even, Run::First);
        assert_eq!(word("f", &[&below, &top], Some(&again)).says, Shown::First);
        // Not replicated, or replicated by a run that shows nothing.
        assert_eq!(word("f", &[&below, &top], None).says, Shown::Undecided);
        let undecided = cell_of(3, &even, Run::Replication);
        assert_eq!(
            word("f", &[&below, &top], Some(&undecided)).says,
            Shown::Undecided
        );
        // Seen only at the top.
        let w = word("f", &[&flat, &top], Some(&again));
        assert_eq!(w.says, Shown::Undecided);
        assert!(w.why.contains("rung below"), "{}", w.why);
        // Falling toward ½ with strength: three rungs at 1.0, 0.9, 0.8 of the first colour.
        let falls = [
            cell_of(1, &"+".repeat(200), Run::First),
            cell_of(2, &"+++++++++-".repeat(20), Run::First),
            cell_of(3, &"++++-".repeat(40), Run::First),
        ];
        let again = cell_of(3, &"++++-".repeat(40), Run::Replication);
        let refs: Vec<&Cell> = falls.iter().collect();
        let w = word("f", &refs, Some(&again));
        assert_eq!(w.says, Shown::Undecided, "{}", w.why);
        assert!(w.why.contains("toward ½"), "{}", w.why);
    }

    fn word_of(says: Shown, draws: f64) -> Word {
        Word {
            family: String::new(),
            says,
            draws,
            trend: None,
            why: String::new(),
        }
    }

    #[test]
    fn a_side_needs_every_family_and_a_draw_needs_draws() {
        use Shown::*;
        let v = |w: Vec<Word>| verdict(w).sign;
        assert_eq!(v(vec![word_of(First, 0.0), word_of(First, 0.1)]), "+");
        assert_eq!(v(vec![word_of(Second, 0.0), word_of(Second, 0.0)]), "-");
        assert_eq!(
            v(vec![word_of(First, 0.0), word_of(Undecided, 0.0)]),
            "undecided"
        );
        assert!(
            verdict(vec![word_of(First, 0.0), word_of(Undecided, 0.0)])
                .text
                .contains("one family decided")
        );
        assert!(
            verdict(vec![word_of(Undecided, 0.0), word_of(Unfinished, 0.0)])
                .text
                .contains("no family")
        );
        assert_eq!(
            v(vec![word_of(Balanced, 0.95), word_of(Balanced, 0.99)]),
            "="
        );
        assert_eq!(
            v(vec![word_of(Balanced, 0.95), word_of(Balanced, 0.5)]),
            "undecided"
        );
        let split = verdict(vec![word_of(First, 0.0), word_of(Second, 0.0)]);
        assert!(split.text.contains("disagree"));
    }

    fn settings(dir: &Path, cell_seconds: Option<f64>, extend: bool) -> Settings {
        Settings {
            game: "tic_tac_toe".parse().unwrap(),
            // Perfect play draws every game, so the score never leaves ½ (no side) and its
            // interval never fits within ½ ± 10⁻⁶ (never balanced): the cell cannot decide,
            // however many games a moment gives it.
            families: families(&[], &[9], None),
            games: 400,
            alpha: 0.05,
            margin: 1e-6,
            seed: 7,
            threads: Some(1),
            dir: dir.to_path_buf(),
            cell_seconds,
            play: true,
            extend,
            perfect: None,
        }
    }

    #[test]
    fn the_kept_answer_of_the_solver_is_read_only_for_its_board_and_positions() {
        let dir = std::env::temp_dir().join(format!("ringside-kept-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let write = |text: String| std::fs::write(dir.join(PERFECT_FILE), text).unwrap();
        write(perfect_text("hex:size=3", 100, Some("win"), 42));
        assert_eq!(
            read_perfect(&dir, "hex:size=3", 100),
            Some((Some("win"), 42))
        );
        assert_eq!(read_perfect(&dir, "hex:size=3", 101), None);
        assert_eq!(read_perfect(&dir, "hex:size=4", 100), None);
        write(perfect_text("hex:size=9", 100, None, 100));
        assert_eq!(read_perfect(&dir, "hex:size=9", 100), Some((None, 100)));
        write("game=hex:size=9\nnodes=100\nvalue=maybe\npositions=1\n".to_string());
        assert_eq!(read_perfect(&dir, "hex:size=9", 100), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_cell_whose_time_ran_out_plays_on_only_when_the_call_extends_it() {
        let dir = std::env::temp_dir().join(format!("ringside-spent-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let played = |s: &Settings| {
            let (cells, _) = run(s, &mut |_| {}).unwrap();
            (cells[0].played, cells[0].fold.decided())
        };
        // No time at all: the cell stops at once, undecided, and says its time ran out.
        let (first, decided) = played(&settings(&dir, Some(0.0), false));
        assert!(!decided && first < 400, "{first}");
        let spent = dir.join("alphabeta-1").join("first").join(TIME_SPENT);
        assert!(spent.exists());
        // A report's call reads it as it stands, even with time to spare now.
        assert_eq!(played(&settings(&dir, None, false)).0, first);
        // `arena balance`'s call plays on, to its decision or its games.
        let (more, decided) = played(&settings(&dir, None, true));
        assert!(more > first && (decided || more == 400), "{first} {more}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
