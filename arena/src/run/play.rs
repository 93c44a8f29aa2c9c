//! Playing one game of a run: the pair's start and opening, the two agents seeded by their
//! role, the moves checked, and an agent's panic or illegal move turned into a lost game.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use ringside_agents::{Agent, AgentSpec, AnyAgent};
use ringside_engine::zobrist::splitmix64;
use ringside_engine::{Features, Game, Player};

use crate::plan::{RunPlan, Seat};
use crate::records::row::{GameRow, MoveClock, Reason, Winner};
use crate::records::sink::Watch;
use crate::records::validate::pair_start;

/// What one agent spent over a game.
#[derive(Debug, Clone, Copy, Default)]
struct Spent {
    time_ms: f64,
    nodes: u64,
    iterations: u64,
}

/// The seed of the agent in `role` (0: the pairing's first agent) of the pair seeded `pair_seed`.
///
/// Seeding by role, not by agent, keeps the two games of a self-pairing (random vs random)
/// different: the same agent on both sides must not draw the same moves.
#[must_use]
pub fn agent_seed(pair_seed: u64, role: u64) -> u64 {
    splitmix64(pair_seed ^ (role + 1))
}

/// `spec`'s agent for `game`, seeded `seed`, told every move of `history` (each with the
/// position before it): an agent rebuilt in the middle of a game (after `undo`, or after a
/// panic) that knows the game so far, as an engine over GTP must.
pub fn agent_told<G: Game + Features>(
    spec: &AgentSpec,
    game: &G,
    seed: u64,
    history: &[(G, G::Move)],
) -> Result<AnyAgent<G>, ringside_agents::SpecError> {
    let mut agent = spec.build(game, seed)?;
    for (before, mv) in history {
        agent.observe(before, *mv);
    }
    Ok(agent)
}

/// Plays game `id` of `plan` from the registry's `start` position.
///
/// # Panics
/// If `id` is not a game of the plan.
pub fn play_game<G: Game + Features>(start: &G, plan: &RunPlan, id: u64) -> GameRow {
    play_watched(start, plan, id, |_, _| ()).0
}

/// [`play_game`], showing each position where a move is played to the watch `watch` makes
/// (from the pair's start and its first mover), as a replay of the row would: what a sink
/// gathers from a game it saw played, without replaying it.
///
/// # Panics
/// If `id` is not a game of the plan.
pub fn play_watched<G: Game + Features, W: Watch<G>>(
    start: &G,
    plan: &RunPlan,
    id: u64,
    watch: impl FnOnce(&G, Player) -> W,
) -> (GameRow, W::Gathered) {
    let slot = plan
        .slot(id)
        .expect("the runner plays only the plan's games");
    let pair_seed = plan.pair_seed(slot);
    let (mut state, mut rng, first_colour) = pair_start(start, pair_seed);
    let mut watch = watch(&state, first_colour);
    let game = state.spec();
    let (first_agent, second_agent) = plan.seated_agents(slot);
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
    let role_of_colour = |colour: usize| {
        let first_agent_moves_first = slot.seat == Seat::AFirst;
        u64::from((colour == first_colour.index()) != first_agent_moves_first)
    };
    let spec_of = |colour: usize| &plan.agents[agent_of[colour]].spec;
    let build = |colour: usize| {
        spec_of(colour)
            .build(start, agent_seed(pair_seed, role_of_colour(colour)))
            .expect("the plan checked its agents against the game")
    };
    let mut players: [AnyAgent<G>; 2] = [build(0), build(1)];
    // Told only when one of them keeps its own board: two no-op calls a ply otherwise.
    let observing = players.iter().any(AnyAgent::observes);
    // Agents hear of every move, the opening's included: an engine over GTP keeps its own
    // board.
    let mut opening = 0;
    while opening < plan.opening_plies
        && state.outcome().is_none()
        && !(plan.opening_stops && state.rule_decision())
    {
        let mv = state
            .random_move(&mut rng, &mut scratch)
            .expect("a live game has a move");
        watch.before_move(&state, opening);
        record(&state, mv, &mut moves);
        watch.moved(&moves);
        for p in &mut players {
            p.observe(&state, mv);
        }
        state.play_unchecked(mv);
        opening += 1;
    }
    let timed = [
        *spec_of(0) != AgentSpec::Random,
        *spec_of(1) != AgentSpec::Random,
    ];
    // The referee checks the moves of agents that do not choose from the listed moves by
    // construction; every reader of the CSV replays all moves anyway.
    let checked = [
        !spec_of(0).chooses_listed_moves(),
        !spec_of(1).chooses_listed_moves(),
    ];
    let mut spent = [Spent::default(); 2];
    let mut clocks = [MoveClock::default(); 2];
    let budget_ms = [0, 1].map(|c| spec_of(c).move_budget().map(|t| t.as_secs_f64() * 1000.0));
    let margin_ms = plan.time_margin.map(|m| m.as_secs_f64() * 1000.0);
    let cap = plan.ply_cap.unwrap_or(u32::MAX);

    // One unwind guard around the whole game rather than one a decision: a guard a ply would
    // keep the agent's choice from being inlined into this loop. `deciding` says who was
    // choosing when a panic came.
    let mut deciding = None;
    let mut fault = None;
    let played = catch_unwind(AssertUnwindSafe(|| {
        loop {
            // `to_move` is None exactly when the game is over (a Game contract).
            let Some(mover) = state.to_move() else {
                return (state.outcome().and_then(|o| o.winner()), Reason::Normal);
            };
            if state.ply() - start.ply() >= cap {
                return (None, Reason::PlyCap);
            }
            let c = mover.index();
            deciding = Some(mover);
            let clock = timed[c].then(Instant::now);
            let decision = match players[c].try_choose(&state) {
                Ok(decision) => decision,
                Err(f) => {
                    let reason = Reason::of_fault(f.kind);
                    fault = Some(format!(
                        "{} ({}) at ply {}: {}: {}",
                        plan.agents[agent_of[c]].label,
                        state.player_name(mover),
                        state.ply() - start.ply() + 1,
                        reason,
                        f.message
                    ));
                    return (Some(mover.other()), reason);
                }
            };
            let ms = clock.map_or(0.0, |t| t.elapsed().as_secs_f64() * 1000.0);
            spent[c].time_ms += ms;
            clocks[c].add(ms, budget_ms[c]);
            if let (Some(budget), Some(margin)) = (budget_ms[c], margin_ms)
                && ms > budget + margin
            {
                fault = Some(format!(
                    "{} ({}) at ply {}: time_forfeit: {ms:.1} ms, over its {budget} ms and the run's {margin} ms margin",
                    plan.agents[agent_of[c]].label,
                    state.player_name(mover),
                    state.ply() - start.ply() + 1,
                ));
                return (Some(mover.other()), Reason::TimeForfeit);
            }
            spent[c].nodes += decision.stats.nodes;
            spent[c].iterations += decision.stats.iterations;
            if checked[c] && !state.is_legal(decision.mv) {
                return (Some(mover.other()), Reason::IllegalMove);
            }
            debug_assert!(state.is_legal(decision.mv), "a listed move is legal");
            watch.before_move(&state, state.ply() - start.ply());
            record(&state, decision.mv, &mut moves);
            watch.moved(&moves);
            if observing {
                for p in &mut players {
                    p.observe(&state, decision.mv);
                }
            }
            state.play_unchecked(decision.mv);
        }
    }));
    let (winner_colour, reason): (Option<Player>, Reason) = match played {
        Ok(result) => result,
        Err(_) => {
            let mover = deciding.expect("only an agent's decision can panic");
            (Some(mover.other()), Reason::AgentPanic)
        }
    };

    let (f, s) = (first_colour.index(), first_colour.other().index());
    let scores = state.scores();
    let row = GameRow {
        id,
        slot,
        game,
        seed: pair_seed,
        opening_plies: opening,
        first_agent,
        second_agent,
        winner: match winner_colour {
            None => Winner::Draw,
            Some(p) if p == first_colour => Winner::First,
            Some(_) => Winner::Second,
        },
        reason,
        plies: state.ply() - start.ply(),
        first_score: scores.map(|x| x[f]),
        second_score: scores.map(|x| x[s]),
        first_time_ms: spent[f].time_ms,
        second_time_ms: spent[s].time_ms,
        first_nodes: spent[f].nodes,
        second_nodes: spent[s].nodes,
        first_iterations: spent[f].iterations,
        second_iterations: spent[s].iterations,
        first_clock: Some(clocks[f]),
        second_clock: Some(clocks[s]),
        moves,
        fault,
    };
    let gathered = watch.finish(&state, &row);
    (row, gathered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::metrics::{FactsFold, MetricsSink};
    use crate::plan::PlanBuilder;
    use crate::records::validate::replay_row;
    use ringside_engine::registry::GameVisitor;

    /// Every game of `plan`, played with the metrics watching, against the same row replayed:
    /// the facts must be the same.
    fn facts_while_played_match_the_replay(plan: &RunPlan) -> usize {
        struct Visit<'a>(&'a RunPlan);
        impl GameVisitor for Visit<'_> {
            type Output = usize;
            fn visit<G: Game + Features>(self, start: G) -> usize {
                let plan = self.0;
                let mut faults = 0;
                for id in 0..plan.games_in_shard() {
                    let (row, played) =
                        play_watched(&start, plan, id, |_, first| FactsFold::new(first));
                    let replayed = replay_row(&start, plan, &row, &MetricsSink).unwrap();
                    assert!(played.is_some());
                    assert_eq!(played, replayed, "game {id}: {}", row.moves);
                    faults += usize::from(row.reason.is_fault());
                }
                faults
            }
        }
        plan.game.visit(Visit(plan))
    }

    #[test]
    fn facts_gathered_while_playing_are_the_facts_of_the_replay() {
        let plan = PlanBuilder::new("havannah:size=4")
            .pairing("mcts:iters=30", "random")
            .pairing("faulty:illegal_at=3", "random")
            .pairing("faulty:panic_at=4", "alphabeta:depth=1")
            .games(4)
            .opening_plies(2)
            .seed(11)
            .build()
            .unwrap();
        // Most faulty games end by the fault (a few are won before it comes).
        assert!(facts_while_played_match_the_replay(&plan) >= 4);
        let capped = PlanBuilder::new("rin:size=6")
            .pairing("random", "random")
            .games(6)
            .ply_cap(Some(9))
            .build()
            .unwrap();
        assert_eq!(facts_while_played_match_the_replay(&capped), 0);
    }
}
