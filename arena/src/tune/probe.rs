//! The positions a tuner fits, taken from recorded games as the reader replays them: a
//! [`Probe`] is a [`Sink`] that records, at the plies it chooses, each position's feature
//! differences (and its cells, for a network), as is or replaced by the leaf of a short
//! alpha-beta search ([`LeafSearch`]) whose value it keeps too.

use rand::RngExt;
use ringside_agents::alphabeta::EVAL_SCALE;
use ringside_agents::spec::AlphaBetaSpec;
use ringside_agents::{AlphaBeta, EvalSpec, Evaluator};
use ringside_engine::{Features, Game, MAX_FEATURES, Player, seeded_rng};

use crate::records::fault::{RowFault, RowFaultKind};
use crate::records::row::GameRow;
use crate::records::sink::{Sink, Watch};

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

/// Which of a game's positions a tuner keeps, and where they go.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Selection {
    /// Whether the game's positions are held out for validation.
    pub validation: bool,
    /// Whether they are held out for the test (never with `validation`).
    pub test: bool,
    /// The plies whose positions are kept (sorted; a position is taken before the ply's move).
    pub plies: Vec<u32>,
}

/// Which plies of a row to record the positions at (sorted; ply 0 is the start), and
/// whether the row is held out.
pub(crate) type Select<'a> = &'a (dyn Fn(&GameRow) -> Selection + Sync);

/// What a tuner records from each replay: the positions before the moves of the plies
/// `select` chooses, each as is or replaced by its search leaf.
#[derive(Clone, Copy)]
pub struct Probe<'a> {
    /// The plies before whose moves a position is recorded, and whether the game is held out.
    pub(crate) select: Select<'a>,
    /// The search whose leaf replaces each position (`None`: the position itself).
    pub leaf: Option<&'a LeafSearch>,
    /// Record each position's cells too ([`Probed::cells`]), for a network's inputs.
    pub cells: bool,
}

/// What a replay recorded at the positions a [`Probe`] asked for, position after position.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Probed {
    /// Whether the game is held out for validation (as the probe's selection said).
    pub validation: bool,
    /// Whether it is held out for the test.
    pub test: bool,
    /// Feature differences (`Player::ZERO`'s values minus `Player::ONE`'s), one row of the
    /// game's features a position.
    pub features: Vec<f64>,
    /// With a leaf search, its value for `Player::ZERO` at each position, in material units.
    pub scores: Vec<f64>,
    /// With [`Probe::cells`], each position's cells ([`Game::write_cells`]) followed by one
    /// byte: the index of the player to move (2 when the game is over).
    pub cells: Vec<u8>,
}

/// A [`Probe`] watching one replay.
pub struct ProbeWatch<'a, G: Game> {
    probe: Probe<'a>,
    plies: Vec<u32>,
    next: usize,
    seed: u64,
    searcher: Option<AlphaBeta<G>>,
    width: usize,
    values: [[f64; MAX_FEATURES]; 2],
    scratch: Vec<G::Move>,
    cell_buf: Vec<u8>,
    out: Probed,
}

impl<'a> Sink for Probe<'a> {
    type Gathered = Probed;
    type Watch<G: Game + Features> = ProbeWatch<'a, G>;

    fn watch<G: Game + Features>(
        &self,
        start: &G,
        row: &GameRow,
        _: Player,
    ) -> Result<ProbeWatch<'a, G>, RowFault> {
        let Selection {
            validation,
            test,
            plies,
        } = (self.select)(row);
        let searcher = match self.leaf {
            Some(leaf) if !plies.is_empty() => {
                let spec = AlphaBetaSpec {
                    depth: leaf.depth.max(1),
                    eval: leaf.eval.clone(),
                    tt_bits: 14,
                    ..AlphaBetaSpec::default()
                };
                let eval = Evaluator::new(&leaf.eval, start)
                    .map_err(|e| RowFault::new(RowFaultKind::Watch, e.reason))?;
                Some(AlphaBeta::<G>::new(spec, eval))
            }
            _ => None,
        };
        Ok(ProbeWatch {
            probe: *self,
            plies,
            next: 0,
            seed: row.seed,
            searcher,
            width: start.feature_set().len(),
            values: [[0.0; MAX_FEATURES]; 2],
            scratch: Vec::new(),
            cell_buf: Vec::new(),
            out: Probed {
                validation,
                test,
                ..Probed::default()
            },
        })
    }
}

impl<G: Game + Features> ProbeWatch<'_, G> {
    /// The positions searched from `state` at `ply`: its children drawn from the game's seed
    /// and the ply when the leaf search asks for children, else `state` itself.
    fn searched(&mut self, state: &G, ply: u32) -> Vec<G> {
        match self.probe.leaf {
            Some(leaf) if leaf.children > 0 => {
                let mut child_rng = seeded_rng(self.seed ^ 0x0063_6869_6c64, u64::from(ply));
                let scratch = &mut self.scratch;
                state.legal_moves(scratch);
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
            _ => vec![state.clone()],
        }
    }

    /// Records `position` (or its search leaf, with the search's value).
    fn record(&mut self, searched: &G) {
        let out = &mut self.out;
        let leaf = self.searcher.as_mut().map(|search| {
            let (leaf, value) = search.principal_leaf(searched);
            let value = f64::from(value) / EVAL_SCALE;
            out.scores
                .push(if searched.to_move() == Some(Player::ZERO) {
                    value
                } else {
                    -value
                });
            leaf
        });
        let keep = self.probe.leaf.is_some_and(|l| l.keep_searched);
        let position = match &leaf {
            Some(leaf) if !keep => leaf,
            _ => searched,
        };
        let [mine, theirs] = &mut self.values;
        position.features(Player::ZERO, mine);
        position.features(Player::ONE, theirs);
        out.features
            .extend((0..self.width).map(|j| mine[j] - theirs[j]));
        if self.probe.cells {
            position.write_cells(&mut self.cell_buf);
            out.cells.extend_from_slice(&self.cell_buf);
            out.cells
                .push(position.to_move().map_or(2, |p| p.index() as u8));
        }
    }
}

impl<G: Game + Features> Watch<G> for ProbeWatch<'_, G> {
    type Gathered = Probed;

    fn before_move(&mut self, state: &G, ply: u32) {
        if self.plies.get(self.next) != Some(&ply) {
            return;
        }
        self.next += 1;
        for searched in self.searched(state, ply) {
            self.record(&searched);
        }
    }

    fn finish(self, _: &G, _: &GameRow) -> Probed {
        self.out
    }
}
