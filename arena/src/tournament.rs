//! Playing a run: the plan of games, one game with its faults, and the parallel loop that
//! appends rows, resumes, shards and stops on an SPRT decision.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use ringside_agents::{Agent, AgentSpec, AnyAgent};
use ringside_engine::registry::{GameVisitor, with_game};
use ringside_engine::zobrist::splitmix64;
use ringside_engine::{Features, Game, Player, seeded_rng};

use crate::error::CliError;
use crate::record::{GameRow, RowWriter, Settings, read_rows, read_sidecar, write_sidecar};
use crate::stats::{Penta, gsprt_llr, sprt_bounds};

/// How often the writer collects finished games.
const POLL: std::time::Duration = std::time::Duration::from_millis(3);

/// Where game `id` sits in the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// The pairing.
    pub pairing: usize,
    /// The pair within the pairing.
    pub pair: u64,
    /// 0: the pairing's first agent plays the first colour; 1: seats exchanged.
    pub seat: u64,
}

impl Settings {
    /// Colour-swapped pairs in each pairing.
    #[must_use]
    pub fn pairs_per_pairing(&self) -> u64 {
        self.games_per_pairing / 2
    }

    /// Games in the whole run (all shards).
    #[must_use]
    pub fn total_games(&self) -> u64 {
        self.pairings.len() as u64 * self.games_per_pairing
    }

    /// Where game `id` sits.
    #[must_use]
    pub fn slot(&self, id: u64) -> Slot {
        let pair_index = id / 2;
        Slot {
            pairing: (pair_index / self.pairs_per_pairing()) as usize,
            pair: pair_index % self.pairs_per_pairing(),
            seat: id % 2,
        }
    }

    /// The seed of a pair: both its games draw their start and opening from it.
    #[must_use]
    pub fn pair_seed(&self, slot: Slot) -> u64 {
        let pair_index = slot.pairing as u64 * self.pairs_per_pairing() + slot.pair;
        splitmix64(self.seed ^ splitmix64(pair_index.wrapping_add(0x7061_6972)))
    }

    /// Whether game `id` belongs to this file's shard. Shards split by pair, so both games of
    /// a pair land in the same shard.
    #[must_use]
    pub fn in_shard(&self, id: u64) -> bool {
        match self.shard {
            None => true,
            Some((i, n)) => (id / 2) % n == i - 1,
        }
    }
}

/// What one agent spent over a game.
#[derive(Debug, Clone, Copy, Default)]
struct Spent {
    time_ms: f64,
    nodes: u64,
    iterations: u64,
}

/// Plays game `id` of the run from `start`.
pub fn play_game<G: Game + Features>(
    start: &G,
    settings: &Settings,
    agents: &[AgentSpec],
    id: u64,
) -> GameRow {
    let slot = settings.slot(id);
    let (a, b) = settings.pairings[slot.pairing];
    let (first_agent, second_agent) = if slot.seat == 0 { (a, b) } else { (b, a) };
    let pair_seed = settings.pair_seed(slot);
    let mut rng = seeded_rng(pair_seed, 0);
    let mut state = start.clone();
    state.randomize_start(&mut rng);
    let game = state.spec();
    let first_colour = state.to_move().unwrap_or(Player::ZERO);
    let mut agent_of = [first_agent; 2];
    agent_of[first_colour.other().index()] = second_agent;

    let mut moves = String::with_capacity(1024);
    let mut scratch = Vec::new();
    let record = |state: &G, mv: G::Move, moves: &mut String| {
        if !moves.is_empty() {
            moves.push(' ');
        }
        state.write_move(mv, moves);
    };
    let mut opening = 0;
    while opening < settings.opening_plies && state.outcome().is_none() {
        let mv = state
            .random_move(&mut rng, &mut scratch)
            .expect("a live game has a move");
        record(&state, mv, &mut moves);
        state.play_unchecked(mv);
        opening += 1;
    }

    // Each player is seeded by the pair and by its role in the pair: role 0 is the pairing's
    // first agent, which takes the first colour in the pair's even game and the second colour
    // in the odd one. Seeding by role, not by agent, keeps the two games of a self-pairing
    // (random vs random) different: the same agent on both sides must not draw the same moves.
    let role_of_colour =
        |colour: usize| u64::from((colour == first_colour.index()) == (slot.seat == 1));
    let build = |colour: usize| {
        agents[agent_of[colour]]
            .build(start, splitmix64(pair_seed ^ (role_of_colour(colour) + 1)))
            .expect("agents were checked against the game")
    };
    let mut players: [AnyAgent<G>; 2] = [build(0), build(1)];
    let timed = [
        agents[agent_of[0]] != AgentSpec::Random,
        agents[agent_of[1]] != AgentSpec::Random,
    ];
    let mut spent = [Spent::default(); 2];
    let cap = settings.ply_cap.unwrap_or(u32::MAX);

    let (winner_colour, reason): (Option<Player>, &str) = loop {
        // `to_move` is None exactly when the game is over (a Game contract).
        let Some(mover) = state.to_move() else {
            break (state.outcome().and_then(|o| o.winner()), "normal");
        };
        if state.ply() - start.ply() >= cap {
            break (None, "ply_cap");
        }
        let c = mover.index();
        let clock = timed[c].then(Instant::now);
        let choice = catch_unwind(AssertUnwindSafe(|| players[c].choose(&state)));
        if let Some(t) = clock {
            spent[c].time_ms += t.elapsed().as_secs_f64() * 1000.0;
        }
        let decision = match choice {
            Ok(d) => d,
            Err(_) => break (Some(mover.other()), "agent_panic"),
        };
        spent[c].nodes += decision.stats.nodes;
        spent[c].iterations += decision.stats.iterations;
        if !state.is_legal(decision.mv) {
            break (Some(mover.other()), "illegal_move");
        }
        record(&state, decision.mv, &mut moves);
        state.play_unchecked(decision.mv);
    };

    let (f, s) = (first_colour.index(), first_colour.other().index());
    let scores = state.scores();
    GameRow {
        id,
        pairing: slot.pairing,
        pair: slot.pair,
        game,
        seed: pair_seed,
        opening_plies: opening,
        first_agent,
        first_spec: settings.agents[first_agent].clone(),
        second_agent,
        second_spec: settings.agents[second_agent].clone(),
        winner: match winner_colour {
            None => "draw".to_string(),
            Some(p) if p == first_colour => "first".to_string(),
            Some(_) => "second".to_string(),
        },
        winner_agent: winner_colour.map(|p| agent_of[p.index()]),
        reason: reason.to_string(),
        plies: state.ply() - start.ply(),
        first_score: scores.map(|x| x[f]),
        second_score: scores.map(|x| x[s]),
        first_time_ms: spent[f].time_ms,
        second_time_ms: spent[s].time_ms,
        first_nodes: spent[f].nodes,
        second_nodes: spent[s].nodes,
        first_iterations: spent[f].iterations,
        second_iterations: spent[s].iterations,
        moves,
    }
}

/// Parses the agent specs of `settings` and checks that each can be built for its game.
pub fn check_agents(settings: &Settings) -> Result<Vec<AgentSpec>, CliError> {
    struct Check<'a>(&'a [AgentSpec]);
    impl GameVisitor for Check<'_> {
        type Output = Result<(), CliError>;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            for spec in self.0 {
                spec.build(&start, 0)
                    .map_err(|e| CliError(format!("agent '{spec}': {e}")))?;
            }
            Ok(())
        }
    }
    let agents = settings
        .agents
        .iter()
        .map(|s| AgentSpec::parse(s).map_err(|e| CliError(format!("agent '{s}': {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    with_game(&settings.game, Check(&agents))??;
    Ok(agents)
}

/// The SPRT of a two-agent run, fed pair by pair.
struct Sprt {
    elo0: f64,
    elo1: f64,
    bounds: (f64, f64),
    penta: Penta,
    /// Points of the pairing's first agent in the pairs seen so far, by pair.
    halves: std::collections::HashMap<u64, f64>,
}

impl Sprt {
    fn new(settings: &Settings) -> Option<Sprt> {
        let [elo0, elo1, alpha, beta] = settings.sprt?;
        Some(Sprt {
            elo0,
            elo1,
            bounds: sprt_bounds(alpha, beta),
            penta: Penta::default(),
            halves: Default::default(),
        })
    }

    fn add(&mut self, row: &GameRow) {
        let points = row.pairing_first_points();
        match self.halves.remove(&row.pair) {
            Some(other) => self.penta.add(points + other),
            None => {
                self.halves.insert(row.pair, points);
            }
        }
    }

    fn decided(&self) -> Option<&'static str> {
        let llr = gsprt_llr(&self.penta, self.elo0, self.elo1);
        if llr >= self.bounds.1 {
            Some("H1 accepted")
        } else if llr <= self.bounds.0 {
            Some("H0 accepted")
        } else {
            None
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    /// Games already in the file when the run started.
    pub resumed: usize,
    /// Games played now.
    pub played: usize,
    /// The SPRT's decision, if it made one.
    pub sprt: Option<&'static str>,
    /// Seconds spent playing and writing the new games.
    pub seconds: f64,
}

/// Plays the games of `settings` that `out` lacks, on `threads` threads, appending rows.
pub fn run(
    settings: &Settings,
    out: &Path,
    threads: Option<usize>,
    progress: bool,
) -> Result<RunReport, CliError> {
    let agents = check_agents(settings)?;
    let mut done = BTreeSet::new();
    let mut sprt = Sprt::new(settings);
    if out.exists() && std::fs::metadata(out).map(|m| m.len() > 0).unwrap_or(false) {
        let previous = read_sidecar(out)?;
        if previous.settings != *settings {
            return Err(CliError(format!(
                "{} was made with other settings ({}); use another --out file or the same settings",
                out.display(),
                settings_difference(&previous.settings, settings)
            )));
        }
        for row in read_rows(out)? {
            if let Some(s) = sprt.as_mut() {
                s.add(&row);
            }
            done.insert(row.id);
        }
    } else {
        write_sidecar(out, settings)?;
    }
    let resumed = done.len();
    let pending: Vec<u64> = (0..settings.total_games())
        .filter(|&id| settings.in_shard(id) && !done.contains(&id))
        .collect();
    if let Some(decision) = sprt.as_ref().and_then(Sprt::decided) {
        return Ok(RunReport {
            resumed,
            played: 0,
            sprt: Some(decision),
            seconds: 0.0,
        });
    }
    let started = Instant::now();
    let mut writer = RowWriter::open(out)?;
    let bar = progress_bar(pending.len() as u64, progress);
    let pool = crate::playouts::thread_pool(threads)?;
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<GameRow>();
    let mut played = 0;
    let mut decision = None;
    let mut tally = [0u64; 3];
    let result: Result<(), CliError> = std::thread::scope(|scope| {
        let stop = &stop;
        let agents = &agents;
        let pending = &pending;
        scope.spawn(move || {
            pool.install(|| {
                struct Play<'a> {
                    settings: &'a Settings,
                    agents: &'a [AgentSpec],
                    pending: &'a [u64],
                    stop: &'a AtomicBool,
                    tx: mpsc::Sender<GameRow>,
                }
                impl GameVisitor for Play<'_> {
                    type Output = ();
                    fn visit<G: Game + Features>(self, start: G) {
                        self.pending
                            .iter()
                            .par_bridge()
                            .for_each_with(self.tx, |tx, &id| {
                                if !self.stop.load(Ordering::Relaxed) {
                                    let _ =
                                        tx.send(play_game(&start, self.settings, self.agents, id));
                                }
                            });
                    }
                }
                let play = Play {
                    settings,
                    agents,
                    pending,
                    stop,
                    tx,
                };
                with_game(&settings.game, play).expect("the game was checked");
            });
        });
        // The writer polls every few milliseconds instead of blocking on the channel: a
        // blocked receiver costs the workers a wake-up syscall per game. Each poll writes every
        // finished row and flushes once, so a crash loses at most the games of the last few
        // milliseconds besides those in flight.
        // A failed write stops the workers too, so the error is reported after the games in
        // flight rather than after the whole run.
        let mut write_rows = || -> Result<(), CliError> {
            let mut open = true;
            while open {
                std::thread::sleep(POLL);
                let mut any = false;
                loop {
                    let row = match rx.try_recv() {
                        Ok(row) => row,
                        Err(mpsc::TryRecvError::Empty) => break,
                        Err(mpsc::TryRecvError::Disconnected) => {
                            open = false;
                            break;
                        }
                    };
                    any = true;
                    writer.write(&row)?;
                    played += 1;
                    if row.pairing == 0 {
                        tally[(2.0 - 2.0 * row.pairing_first_points()) as usize] += 1;
                    }
                    if let Some(s) = sprt.as_mut() {
                        s.add(&row);
                        if decision.is_none() {
                            decision = s.decided();
                            if decision.is_some() {
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                }
                if any {
                    writer.flush()?;
                    bar.set_message(format!("W-D-L {}-{}-{}", tally[0], tally[1], tally[2]));
                    bar.set_position(played as u64);
                }
            }
            Ok(())
        };
        let written = write_rows();
        if written.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        written
    });
    result?;
    writer.finish()?;
    bar.finish_and_clear();
    Ok(RunReport {
        resumed,
        played,
        sprt: decision,
        seconds: started.elapsed().as_secs_f64(),
    })
}

fn settings_difference(old: &Settings, new: &Settings) -> String {
    let mut diffs = Vec::new();
    if old.game != new.game {
        diffs.push(format!("game {} vs {}", old.game, new.game));
    }
    if old.agents != new.agents || old.pairings != new.pairings {
        diffs.push(format!("agents {:?} vs {:?}", old.agents, new.agents));
    }
    if old.games_per_pairing != new.games_per_pairing {
        diffs.push(format!(
            "games {} vs {}",
            old.games_per_pairing, new.games_per_pairing
        ));
    }
    if old.seed != new.seed {
        diffs.push(format!("seed {} vs {}", old.seed, new.seed));
    }
    if old.ply_cap != new.ply_cap || old.opening_plies != new.opening_plies {
        diffs.push("ply cap or opening plies".to_string());
    }
    if old.sprt != new.sprt || old.shard != new.shard {
        diffs.push("sprt or shard".to_string());
    }
    diffs.join(", ")
}

fn progress_bar(len: u64, visible: bool) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(len),
        if visible {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, ETA {eta}  {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}
