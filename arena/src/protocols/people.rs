//! A person against an agent (`arena play`): the board with coordinates after every move,
//! moves typed in the game's notation, `undo`, `hint`, `quit`. It reads lines from any
//! reader, so a pipe of moves (one a line) plays a whole game, and tests drive it so.
//!
//! The game is game 0 (the person moves first) or 1 (second) of a one-pair run of the
//! pairing `human` against the agent, with the run's seed: the start, the agent's seed and
//! the saved row are what `arena match` would give that seat. With `--save FILE` the game is
//! appended to a games CSV (with its sidecar) that `summary` and `replay --from FILE --id N`
//! read. `quit`, or the end of the input before the end of the game, resigns it.

use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Instant;

use ringside_agents::{Agent, AgentSpec, LabelledSpec};
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game, Outcome};

use crate::error::{Error, ErrorKind, Result};
use crate::figures::picture::board_text;
use crate::plan::{PlanBuilder, RunPlan};
use crate::records::games_csv::RowWriter;
use crate::records::row::{GameRow, Reason, Winner};
use crate::records::validate::pair_start;
use crate::run::play::{agent_seed, agent_told};
use crate::run::runner::open_games;

/// What `arena play` needs.
#[derive(Debug, Clone)]
pub struct Table<'a> {
    /// The game.
    pub game: &'a AnyGame,
    /// The agent the person plays against.
    pub agent: &'a LabelledSpec,
    /// Whether the person moves first.
    pub person_first: bool,
    /// The run's seed.
    pub seed: u64,
    /// A games CSV to append the finished game to.
    pub save: Option<&'a Path>,
}

/// Plays one game between the person typing on `input` and the agent, writing the board and
/// messages to `output`. Returns the finished game's row.
pub fn play(table: &Table<'_>, input: &mut dyn BufRead, output: &mut dyn Write) -> Result<GameRow> {
    if table.agent.spec == ringside_agents::AgentSpec::Human {
        return Err(Error::setting(format!(
            "agent '{}': you play the person's side; the agent must be a program",
            table.agent.label
        )));
    }
    let plan = PlanBuilder::for_game(table.game.clone())
        .pairing("human", table.agent)
        .games(2)
        .seed(table.seed)
        .build()?;
    let id = u64::from(!table.person_first);
    // The file is opened (and locked) before the game, so that a game that could not be saved
    // is refused before anyone plays it, and a second writer is refused for as long as it lasts.
    let saving = match table.save {
        Some(path) => {
            let existing = open_games(&plan, path)?;
            if existing.ids.contains(id) {
                return Err(Error::setting(format!(
                    "{} already holds game {id} of this run; save to another file or use another seed",
                    path.display()
                )));
            }
            Some((RowWriter::open(path, &plan, &existing.tail)?, existing.lock))
        }
        None => None,
    };
    let row = plan.game.visit(Session {
        plan: &plan,
        id,
        input,
        output,
    })?;
    if let Some((mut writer, _lock)) = saving {
        writer.write(&row)?;
        writer.flush()?;
    }
    Ok(row)
}

struct Session<'a> {
    plan: &'a RunPlan,
    id: u64,
    input: &'a mut dyn BufRead,
    output: &'a mut dyn Write,
}

fn io(e: std::io::Error) -> Error {
    Error::new(ErrorKind::Io, format!("arena play: {e}"))
}

impl GameVisitor for Session<'_> {
    type Output = Result<GameRow>;
    fn visit<G: Game + Features>(self, start: G) -> Result<GameRow> {
        let plan = self.plan;
        let slot = plan.slot(self.id).expect("game 0 and 1 are in the plan");
        let pair_seed = plan.pair_seed(slot);
        let (first_state, _, first_colour) = pair_start(&start, pair_seed);
        let (first_agent, second_agent) = plan.seated_agents(slot);
        let person = if first_agent == 0 {
            first_colour
        } else {
            first_colour.other()
        };
        let spec: &AgentSpec = &plan.agents[1].spec;
        let seed = agent_seed(pair_seed, 1);
        let build = |history: &[(G, G::Move)]| {
            agent_told(spec, &start, seed, history).expect("the plan checked the agent")
        };
        let mut agent = build(&[]);
        // Every move played, with the position before it.
        let mut history: Vec<(G, G::Move)> = Vec::new();
        let mut state = first_state.clone();
        let mut spent = [0.0f64; 2];
        let mut nodes = [0u64; 2];
        let mut iterations = [0u64; 2];
        let mut hints = 0u64;
        let out = self.output;
        let label = &plan.agents[1].label;
        writeln!(
            out,
            "{}: you play {}, the agent ({label}) plays {}. Type a move, undo, hint or quit.",
            first_state.spec(),
            state.player_name(person),
            state.player_name(person.other())
        )
        .map_err(io)?;
        let mut line = String::new();
        let (winner, reason) = loop {
            let Some(mover) = state.to_move() else {
                break (state.outcome().and_then(Outcome::winner), Reason::Normal);
            };
            write!(out, "\n{}", board_text(&state)).map_err(io)?;
            if mover != person {
                let clock = Instant::now();
                match agent.try_choose(&state) {
                    Ok(d) => {
                        spent[mover.index()] += clock.elapsed().as_secs_f64() * 1000.0;
                        nodes[mover.index()] += d.stats.nodes;
                        iterations[mover.index()] += d.stats.iterations;
                        let text = state.move_text(d.mv);
                        writeln!(out, "{} (agent) plays {text}", state.player_name(mover))
                            .map_err(io)?;
                        agent.observe(&state, d.mv);
                        history.push((state.clone(), d.mv));
                        state.play_unchecked(d.mv);
                    }
                    Err(f) => {
                        writeln!(out, "the agent failed: {f}").map_err(io)?;
                        break (Some(person), Reason::of_fault(f.kind));
                    }
                }
                continue;
            }
            write!(out, "{} (you) to move> ", state.player_name(mover)).map_err(io)?;
            out.flush().map_err(io)?;
            let clock = Instant::now();
            line.clear();
            if self.input.read_line(&mut line).map_err(io)? == 0 {
                writeln!(out, "\nend of input: you resign").map_err(io)?;
                break (Some(person.other()), Reason::Resign);
            }
            spent[mover.index()] += clock.elapsed().as_secs_f64() * 1000.0;
            let text = line.trim();
            match text {
                "" => {}
                "quit" => {
                    writeln!(out, "you resign").map_err(io)?;
                    break (Some(person.other()), Reason::Resign);
                }
                "hint" => {
                    hints += 1;
                    let mut helper = spec
                        .build(&start, seed ^ hints.wrapping_mul(0x9E37_79B9_7F4A_7C15))
                        .expect("the plan checked the agent");
                    match helper.try_choose(&state) {
                        Ok(d) => writeln!(out, "hint: {}", state.move_text(d.mv)).map_err(io)?,
                        Err(f) => writeln!(out, "no hint: {f}").map_err(io)?,
                    }
                }
                "undo" => {
                    // Back to the person's previous turn: the agent's replies, then the
                    // person's own move.
                    let Some(yours) = history
                        .iter()
                        .rposition(|(before, _)| before.to_move() == Some(person))
                    else {
                        writeln!(out, "nothing of yours to undo").map_err(io)?;
                        continue;
                    };
                    state = history[yours].0.clone();
                    history.truncate(yours);
                    agent = build(&history);
                    writeln!(out, "undone").map_err(io)?;
                }
                text => match state
                    .parse_move(text)
                    .map_err(|e| e.to_string())
                    .and_then(|mv| {
                        let mut next = state.clone();
                        next.try_play(mv).map(|()| mv).map_err(|e| e.to_string())
                    }) {
                    Ok(mv) => {
                        agent.observe(&state, mv);
                        history.push((state.clone(), mv));
                        state.play_unchecked(mv);
                    }
                    Err(why) => {
                        writeln!(out, "illegal move '{text}': {why}; try again").map_err(io)?;
                    }
                },
            }
        };
        write!(out, "\n{}", board_text(&state)).map_err(io)?;
        let result = match winner {
            Some(p) if p == person => "you win".to_string(),
            Some(_) => "the agent wins".to_string(),
            None => "a draw".to_string(),
        };
        writeln!(out, "{result} ({reason}) after {} plies", history.len()).map_err(io)?;
        let (f, s) = (first_colour.index(), first_colour.other().index());
        let scores = state.scores();
        let mut moves = String::new();
        for (before, mv) in &history {
            if !moves.is_empty() {
                moves.push(' ');
            }
            before.write_move(*mv, &mut moves);
        }
        Ok(GameRow {
            id: self.id,
            slot,
            game: first_state.spec(),
            seed: pair_seed,
            opening_plies: 0,
            first_agent,
            second_agent,
            winner: match winner {
                None => Winner::Draw,
                Some(p) if p == first_colour => Winner::First,
                Some(_) => Winner::Second,
            },
            reason,
            plies: history.len() as u32,
            first_score: scores.map(|x| x[f]),
            second_score: scores.map(|x| x[s]),
            first_time_ms: spent[f],
            second_time_ms: spent[s],
            first_nodes: nodes[f],
            second_nodes: nodes[s],
            first_iterations: iterations[f],
            second_iterations: iterations[s],
            // With undo and a person thinking at a prompt, moves a side are not counted.
            first_clock: None,
            second_clock: None,
            moves,
            fault: None,
        })
    }
}
