//! Replaying recorded games against the rules and the plan: the start drawn from the pair's
//! seed (and the spec it gives), the random opening, the legality of every move, the number of
//! plies, and a result that agrees with the final position and the stated reason. The same
//! replay gathers what the game-design metrics need ([`crate::figures::metrics::FactsFold`]), so a
//! record read is replayed once.

use rand::RngExt;
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
        &mut Probed::default(),
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
    /// Search from this many children of each position instead (0: the position itself),
    /// by distinct legal moves drawn at random from the game's seed and the ply (all of them
    /// when there are fewer): positions off the game's path, as a search meets them.
    pub children: u32,
    /// Keep the searched position itself (with the search's value) rather than the leaf.
    pub keep_searched: bool,
}

impl LeafSearch {
    /// A depth-`depth` search with `eval` whose leaf replaces each position.
    #[must_use]
    pub fn leaf(depth: u32, eval: EvalSpec) -> LeafSearch {
        LeafSearch {
            depth,
            eval,
            children: 0,
            keep_searched: false,
        }
    }
}

/// What a replay records for a tuner: the positions before the moves of `plies` (sorted; ply
/// 0 is the start), each as is or replaced by its search leaf.
#[derive(Debug, Clone, Copy, Default)]
pub struct Probe<'a> {
    /// The plies before whose moves a position is recorded.
    pub plies: &'a [u32],
    /// The search whose leaf replaces each position (`None`: the position itself).
    pub leaf: Option<&'a LeafSearch>,
    /// Record each position's cells too ([`Probed::cells`]), for a network's inputs.
    pub cells: bool,
}

/// What a replay recorded at the positions a [`Probe`] asked for, position after position.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Probed {
    /// Feature differences (`Player::ZERO`'s values minus `Player::ONE`'s), one row of the
    /// game's features a position.
    pub features: Vec<f64>,
    /// With a leaf search, its value for `Player::ZERO` at each position, in material units.
    pub scores: Vec<f64>,
    /// With [`Probe::cells`], each position's cells ([`Game::write_cells`]) followed by one
    /// byte: the index of the player to move (2 when the game is over).
    pub cells: Vec<u8>,
}

/// [`replay_row`], also appending to `out` what `probe` asks for at its positions (the
/// positions a tuner fits, from the same replay). With a leaf search, what is recorded is the
/// leaf's, and the search's value too.
pub fn replay_gathering<G: Game + Features>(
    start: &G,
    plan: &RunPlan,
    row: &GameRow,
    facts: bool,
    probe: Probe<'_>,
    out: &mut Probed,
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
    let (mut scratch, mut cells) = (Vec::new(), Vec::new());
    let total = row.moves.split_whitespace().count();
    if total != row.plies as usize {
        return Err(format!("{} plies, but {total} moves", row.plies));
    }
    for (i, text) in row.moves.split_whitespace().enumerate() {
        let at = |reason: String| format!("move {} of {total} ('{text}'): {reason}", i + 1);
        if let Some(fold) = fold.as_mut() {
            fold.before_move(&state);
        }
        let wanted_here = wanted.next_if(|&&p| p == i as u32).is_some();
        let searched = match probe.leaf {
            Some(leaf) if wanted_here && leaf.children > 0 => {
                let mut child_rng = seeded_rng(row.seed ^ 0x0063_6869_6c64, u64::from(i as u32));
                state.legal_moves(&mut scratch);
                let n = (leaf.children as usize).min(scratch.len());
                for k in 0..n {
                    let j = child_rng.random_range(k..scratch.len());
                    scratch.swap(k, j);
                }
                scratch[..n]
                    .iter()
                    .map(|&mv| {
                        let mut child = state.clone();
                        child.play_unchecked(mv);
                        child
                    })
                    // A child that ends the game is no position to evaluate.
                    .filter(|child| child.outcome().is_none())
                    .collect()
            }
            _ if wanted_here => vec![state.clone()],
            _ => Vec::new(),
        };
        for searched in searched {
            let leaf = searcher.as_mut().map(|search| {
                let (leaf, value) = search.principal_leaf(&searched);
                let value = f64::from(value) / EVAL_SCALE;
                out.scores
                    .push(if searched.to_move() == Some(Player::ZERO) {
                        value
                    } else {
                        -value
                    });
                leaf
            });
            let keep = probe.leaf.is_some_and(|l| l.keep_searched);
            let position = match &leaf {
                Some(leaf) if !keep => leaf,
                _ => &searched,
            };
            position.features(Player::ZERO, &mut mine);
            position.features(Player::ONE, &mut theirs);
            out.features.extend((0..width).map(|j| mine[j] - theirs[j]));
            if probe.cells {
                position.write_cells(&mut cells);
                out.cells.extend_from_slice(&cells);
                out.cells
                    .push(position.to_move().map_or(2, |p| p.index() as u8));
            }
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
