//! Replaying recorded games against the rules and the plan: the start drawn from the pair's
//! seed (and the spec it gives), the random opening, the legality of every move, the number of
//! plies, and a result that agrees with the final position and the stated reason. The same
//! replay gathers what the game-design metrics need ([`crate::figures::metrics::FactsFold`]), so a
//! record read is replayed once.

use ringside_agents::alphabeta::EVAL_SCALE;
use ringside_agents::spec::AlphaBetaSpec;
use ringside_agents::{AlphaBeta, EvalSpec, Evaluator};
use ringside_engine::{Features, Game, MAX_FEATURES, Outcome, Player, seeded_rng};

use crate::figures::metrics::{FactsFold, GameFacts};
use crate::records::row::{GameRow, Reason};
use crate::run::plan::RunPlan;

/// The colour-independent opening of a pair: the start after the seed's draw, and who moves
/// first there.
pub fn pair_start<G: Game>(start: &G, seed: u64) -> (G, ringside_engine::GameRng, Player) {
    let mut rng = seeded_rng(seed, 0);
    let mut state = start.clone();
    state.randomize_start(&mut rng);
    let first = state.to_move().unwrap_or(Player::ZERO);
    (state, rng, first)
}

/// Replays one row; the error says what does not hold. With `facts`, the replay also gathers
/// the game's facts for the metrics.
pub fn replay_row<G: Game + Features>(
    start: &G,
    plan: &RunPlan,
    row: &GameRow,
    facts: bool,
) -> Result<Option<GameFacts>, String> {
    replay_gathering(
        start,
        plan,
        row,
        facts,
        Probe::default(),
        &mut Vec::new(),
        &mut Vec::new(),
    )
}

/// A short alpha-beta search from each position a tuner keeps: the position is replaced by
/// the leaf of the search's principal variation ([`AlphaBeta::principal_leaf`]), and the
/// search's value is kept beside it.
#[derive(Debug, Clone)]
pub struct LeafSearch {
    /// The search's depth in plies (1 or more).
    pub depth: u32,
    /// The evaluation it searches with.
    pub eval: EvalSpec,
}

/// What a replay records for a tuner: the positions before the moves of `plies` (sorted; ply
/// 0 is the start), each as is or replaced by its search leaf.
#[derive(Debug, Clone, Copy, Default)]
pub struct Probe<'a> {
    /// The plies before whose moves a position is recorded.
    pub plies: &'a [u32],
    /// The search whose leaf replaces each position (`None`: the position itself).
    pub leaf: Option<&'a LeafSearch>,
}

/// [`replay_row`], also appending to `features` the feature differences (`Player::ZERO`'s
/// values minus `Player::ONE`'s, one value a feature) of the positions `probe` asks for: the
/// positions a tuner fits, from the same replay. With a leaf search, the differences are the
/// leaf's and `scores` gets the search's value for `Player::ZERO`, in material units.
pub fn replay_gathering<G: Game + Features>(
    start: &G,
    plan: &RunPlan,
    row: &GameRow,
    facts: bool,
    probe: Probe<'_>,
    features: &mut Vec<f64>,
    scores: &mut Vec<f64>,
) -> Result<Option<GameFacts>, String> {
    let (mut state, mut rng, first) = pair_start(start, row.seed);
    let mut wanted = probe.plies.iter().peekable();
    let mut searcher = match probe.leaf {
        Some(leaf) if !probe.plies.is_empty() => {
            let spec = AlphaBetaSpec {
                depth: leaf.depth.max(1),
                eval: leaf.eval.clone(),
                tt_bits: 14,
                ..AlphaBetaSpec::default()
            };
            let eval = Evaluator::new(&leaf.eval, start).map_err(|e| e.reason)?;
            Some(AlphaBeta::<G>::new(spec, eval))
        }
        _ => None,
    };
    let width = start.feature_set().len();
    let (mut mine, mut theirs) = ([0.0; MAX_FEATURES], [0.0; MAX_FEATURES]);
    let mut fold = facts.then(|| FactsFold::<G>::new(first));
    if state.spec() != row.game {
        return Err(format!(
            "game '{}' is not '{}', the start drawn from the pair's seed",
            row.game,
            state.spec()
        ));
    }
    let mut scratch = Vec::new();
    let total = row.moves.split_whitespace().count();
    if total != row.plies as usize {
        return Err(format!("{} plies, but {total} moves", row.plies));
    }
    for (i, text) in row.moves.split_whitespace().enumerate() {
        let at = |reason: String| format!("move {} of {total} ('{text}'): {reason}", i + 1);
        if let Some(fold) = fold.as_mut() {
            fold.before_move(&state);
        }
        if wanted.next_if(|&&p| p == i as u32).is_some() {
            let leaf = searcher.as_mut().map(|search| {
                let (leaf, value) = search.principal_leaf(&state);
                let value = f64::from(value) / EVAL_SCALE;
                scores.push(if state.to_move() == Some(Player::ZERO) {
                    value
                } else {
                    -value
                });
                leaf
            });
            let position = leaf.as_ref().unwrap_or(&state);
            position.features(Player::ZERO, &mut mine);
            position.features(Player::ONE, &mut theirs);
            features.extend((0..width).map(|j| mine[j] - theirs[j]));
        }
        let mv = state.parse_move(text).map_err(|e| at(e.to_string()))?;
        if (i as u32) < row.opening_plies {
            let drawn = state.random_move(&mut rng, &mut scratch);
            if drawn != Some(mv) {
                return Err(at("not the opening move drawn from the pair's seed".into()));
            }
        }
        state.try_play(mv).map_err(|e| at(e.to_string()))?;
    }
    let ended_in_opening = total as u32 == row.opening_plies && state.outcome().is_some();
    if row.opening_plies > row.plies
        || (row.opening_plies < plan.opening_plies && !ended_in_opening)
    {
        return Err(format!(
            "{} opening plies of {} played, but the run's opening is {} plies",
            row.opening_plies, row.plies, plan.opening_plies
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
                return Err(format!(
                    "winner '{}' does not match the final position",
                    row.winner
                ));
            }
        }
        (Reason::Normal, None) => {
            return Err("reason 'normal', but the game is not over after its moves".into());
        }
        (_, Some(_)) => {
            return Err(format!(
                "reason '{}', but the game ended by the rules",
                row.reason
            ));
        }
        (Reason::PlyCap, None) => {
            if plan.ply_cap.is_none_or(|cap| row.plies < cap) {
                return Err(format!(
                    "reason 'ply_cap' after {} plies, below the run's cap",
                    row.plies
                ));
            }
        }
        (_, None) => {
            let mover = state.to_move().unwrap_or(first);
            if expected != Some(mover.other()) {
                return Err(format!(
                    "reason '{}' must give the game to the other side of the faulty mover",
                    row.reason
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
        return Err(format!(
            "scores {:?} do not match the final position's {:?}",
            recorded, actual
        ));
    }
    Ok(fold.map(|f| f.finish(row)))
}
