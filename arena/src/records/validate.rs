//! Replaying recorded games against the rules and the plan: the start drawn from the pair's
//! seed (and the spec it gives), the random opening, the legality of every move, the number of
//! plies, and a result that agrees with the final position and the stated reason. The same
//! replay shows every position to a [`Sink`] (the metrics' facts, a tuner's positions),
//! so a record read is replayed once.

use ringside_engine::{Features, Game, Outcome, Player, seeded_rng};

use crate::plan::RunPlan;
use crate::records::fault::{RowFault, RowFaultKind};
use crate::records::row::{GameRow, Reason};
use crate::records::sink::{Sink, Watch};

/// The colour-independent opening of a pair: the start after the seed's draw, and who moves
/// first there.
pub fn pair_start<G: Game>(start: &G, seed: u64) -> (G, ringside_engine::GameRng, Player) {
    let mut rng = seeded_rng(seed, 0);
    let mut state = start.clone();
    state.randomize_start(&mut rng);
    let first = state.to_move().unwrap_or(Player::ZERO);
    (state, rng, first)
}

/// Replays one row, showing each position to a watch `sink` makes for it; the error
/// says what does not hold. What the watch gathered is returned once the row checks out.
pub fn replay_row<G: Game + Features, S: Sink>(
    start: &G,
    plan: &RunPlan,
    row: &GameRow,
    sink: &S,
) -> Result<S::Gathered, RowFault> {
    let (mut state, mut rng, first) = pair_start(start, row.seed);
    if state.spec() != row.game {
        return Err(RowFault::new(
            RowFaultKind::Start,
            format!(
                "game '{}' is not '{}', the start drawn from the pair's seed",
                row.game,
                state.spec()
            ),
        ));
    }
    let mut watch = sink.watch(&state, row, first)?;
    let mut scratch = Vec::new();
    let total = row.moves.split_whitespace().count();
    if total != row.plies as usize {
        return Err(RowFault::column(format!(
            "{} plies, but {total} moves",
            row.plies
        )));
    }
    // Whether the position after the recorded opening awaits a decision the rules single out
    // (the swap's offer), where a plan whose opening stops there ends it early.
    let mut at_decision = false;
    for (i, text) in row.moves.split_whitespace().enumerate() {
        if i as u32 == row.opening_plies {
            at_decision = state.rule_decision();
        }
        let at = |reason: String| {
            RowFault::new(
                RowFaultKind::Move,
                format!("move {} of {total} ('{text}'): {reason}", i + 1),
            )
        };
        watch.before_move(&state, i as u32);
        let mv = state.parse_move(text).map_err(|e| at(e.to_string()))?;
        if plan.opening_stops && (i as u32) < row.opening_plies && state.rule_decision() {
            return Err(RowFault::new(
                RowFaultKind::Result,
                format!(
                    "the random opening of {} plies runs through a decision at ply {}, where the run's openings stop",
                    row.opening_plies,
                    i + 1
                ),
            ));
        }
        if (i as u32) < row.opening_plies {
            let drawn = state.random_move(&mut rng, &mut scratch);
            if drawn != Some(mv) {
                return Err(at("not the opening move drawn from the pair's seed".into()));
            }
        }
        state.try_play(mv).map_err(|e| at(e.to_string()))?;
    }
    let ended_in_opening = total as u32 == row.opening_plies && state.outcome().is_some();
    if total as u32 == row.opening_plies {
        at_decision = state.rule_decision();
    }
    let stopped_for_decision = plan.opening_stops && at_decision;
    if row.opening_plies > row.plies
        || (row.opening_plies < plan.opening_plies && !ended_in_opening && !stopped_for_decision)
    {
        return Err(RowFault::new(
            RowFaultKind::Result,
            format!(
                "{} opening plies of {} played, but the run's opening is {} plies",
                row.opening_plies, row.plies, plan.opening_plies
            ),
        ));
    }
    let expected = row.winner.player(first);
    match (row.reason, state.outcome()) {
        (Reason::Normal, Some(outcome)) => {
            let actual = match outcome {
                Outcome::Win(p) => Some(p),
                Outcome::Draw => None,
            };
            if actual != expected {
                return Err(RowFault::new(
                    RowFaultKind::Result,
                    format!("winner '{}' does not match the final position", row.winner),
                ));
            }
        }
        (Reason::Normal, None) => {
            return Err(RowFault::new(
                RowFaultKind::Result,
                "reason 'normal', but the game is not over after its moves",
            ));
        }
        (_, Some(_)) => {
            return Err(RowFault::new(
                RowFaultKind::Result,
                format!("reason '{}', but the game ended by the rules", row.reason),
            ));
        }
        (Reason::PlyCap, None) => {
            if plan.ply_cap.is_none_or(|cap| row.plies < cap) {
                return Err(RowFault::new(
                    RowFaultKind::Result,
                    format!(
                        "reason 'ply_cap' after {} plies, below the run's cap",
                        row.plies
                    ),
                ));
            }
        }
        (_, None) => {
            let mover = state.to_move().unwrap_or(first);
            if expected != Some(mover.other()) {
                return Err(RowFault::new(
                    RowFaultKind::Result,
                    format!(
                        "reason '{}' must give the game to the other side of the faulty mover",
                        row.reason
                    ),
                ));
            }
        }
    }
    let scores = state.scores();
    let recorded = (row.first_score, row.second_score);
    let actual = (
        scores.map(|s| s[first.index()]),
        scores.map(|s| s[first.other().index()]),
    );
    if recorded != actual {
        return Err(RowFault::new(
            RowFaultKind::Result,
            format!(
                "scores {:?} do not match the final position's {:?}",
                recorded, actual
            ),
        ));
    }
    Ok(watch.finish(&state, row))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::PlanBuilder;
    use crate::records::row::Winner;
    use crate::run::pool::Silent;
    use crate::run::runner::run_in_memory;
    use ringside_engine::games::rin::Rin;

    #[test]
    fn a_row_that_does_not_hold_is_refused_with_the_kind_of_its_fault() {
        let plan = PlanBuilder::new("rin:size=6")
            .pairing("random", "random")
            .games(2)
            .seed(3)
            .build()
            .unwrap();
        let rows = run_in_memory(&plan, Some(1), &mut Silent).unwrap();
        let start = Rin::new(6).unwrap();
        let row = &rows[0];
        assert!(replay_row(&start, &plan, row, &()).is_ok());
        let kind = |row: &GameRow| replay_row(&start, &plan, row, &()).unwrap_err().kind;

        let mut moved = row.clone();
        let mut moves: Vec<&str> = row.moves.split(' ').collect();
        moves[1] = moves[0];
        moved.moves = moves.join(" ");
        assert_eq!(kind(&moved), RowFaultKind::Move, "a stone on a taken point");

        let mut short = row.clone();
        short.plies -= 1;
        assert_eq!(
            kind(&short),
            RowFaultKind::Column,
            "plies and moves disagree"
        );

        let mut won = row.clone();
        won.winner = match row.winner {
            Winner::First => Winner::Second,
            _ => Winner::First,
        };
        assert_eq!(kind(&won), RowFaultKind::Result, "the other side won");

        let mut elsewhere = row.clone();
        elsewhere.game = "rin:size=8".into();
        assert_eq!(kind(&elsewhere), RowFaultKind::Start);
    }

    #[test]
    fn an_opening_stops_at_the_swap_when_its_plan_says_so_and_not_past_it() {
        use ringside_engine::registry::AnyGame;
        let build = |through: bool| {
            PlanBuilder::new("hex:size=4,swap=on")
                .pairing("random", "random")
                .games(2)
                .seed(5)
                .opening_plies(2)
                .opening_through_decisions(through)
                .build()
                .unwrap()
        };
        let (stops, through) = (build(false), build(true));
        assert!(stops.opening_stops && !through.opening_stops);
        let AnyGame::Hex(boxed) = AnyGame::parse("hex:size=4,swap=on").unwrap() else {
            panic!("a hex board")
        };
        let start = *boxed;
        // Stopped at the swap's offer after one ply: read back under the plan that stops.
        let stopped = &run_in_memory(&stops, Some(1), &mut Silent).unwrap()[0];
        assert_eq!(stopped.opening_plies, 1);
        assert!(replay_row(&start, &stops, stopped, &()).is_ok());
        // A row whose opening ran through the offer (as an old plan's did) matches the seed's
        // draws, but not a plan whose openings stop there.
        let ran = &run_in_memory(&through, Some(1), &mut Silent).unwrap()[0];
        assert_eq!(ran.opening_plies, 2);
        assert!(replay_row(&start, &through, ran, &()).is_ok());
        let fault = replay_row(&start, &stops, ran, &()).unwrap_err();
        assert_eq!(fault.kind, RowFaultKind::Result, "{}", fault.reason);
    }
}
