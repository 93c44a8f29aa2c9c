//! Named measures of a position, per player, with the default weights of a "rich" evaluation.
//!
//! The engine measures and proposes starting weights; evaluators (in the agents crate) weight
//! the difference between the two players' measures, and tuners (`arena tune`) change the
//! weights without touching rules. Every game lists the feature `material` first: its stones,
//! tokens or points, the count the seeds' "material balance" evaluation uses. Each game documents
//! its features, in its own words, on its [`Features`] implementation.

use crate::{Game, Player};

/// The most features a game may have.
pub const MAX_FEATURES: usize = 8;

/// The input planes a game writes for a convolutional move predictor
/// ([`Features::grid_planes`]).
pub const GRID_PLANES: usize = 7;

/// Where [`Features::ring_permanence`] counts a ring's stones from before the playout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PermanentIn {
    /// In the group the ring's last stone joins: at least the ring's own count, and more
    /// when the ring is built of new stones on an old group.
    #[default]
    Group,
    /// In the ring itself, as Castro counts them: some loop through the last stone, walked
    /// turning at most 60° a step, holds them.
    Ring,
}

/// One feature of a game: its name and its default weight.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Feature {
    /// The name, in the game's own words (`immune`, `nest_distance`); weights files use it.
    pub name: &'static str,
    /// The weight `eval=rich` gives it, in material units (one stone or token is 1).
    pub default_weight: f64,
}

/// Per-player measures of a position.
pub trait Features: Game {
    /// The game's features, `material` first, at most [`MAX_FEATURES`].
    fn feature_set(&self) -> &'static [Feature];

    /// Writes each feature's value for `player` into `out[..feature_set().len()]`. Values are
    /// the player's own measure; evaluators weight the difference between the two players.
    /// Never allocates.
    fn features(&self, player: Player, out: &mut [f64; MAX_FEATURES]);

    /// Writes the features whose bit is set in `wanted` (bit `i` for feature `i` of
    /// [`Features::feature_set`]) as [`Features::features`] does; the others may be left as
    /// they were or written. An evaluation that weights a feature 0 need not pay for it: the
    /// default writes them all, and a game with a dear feature skips it when it is not
    /// wanted. Never allocates.
    fn features_wanted(&self, player: Player, _wanted: u32, out: &mut [f64; MAX_FEATURES]) {
        self.features(player, out);
    }

    /// The weights `eval=tuned` gives the features, in the order of [`Features::feature_set`],
    /// when the game has a tuned fit: fitted to the game's own alpha-beta self-play and checked
    /// in matches against the default weights (each game says where; the results are in
    /// `results/tuned/`). `None` (the default) for a game without one: `eval=tuned` then
    /// plays the `rich` weights, and `arena features` says so. A run records the weights in
    /// full in its agents' specs, so a later retuning never changes what a committed spec
    /// plays.
    fn tuned_fit(&self) -> Option<&'static [f64]> {
        None
    }

    /// The bytes of the network `eval=net` plays for this game (the file format of the agents
    /// crate's `net` module), when a net was trained and checked for it (each game says
    /// where; the nets and their checks are in `results/nets/`). `None` (the default): the
    /// game has none, and `eval=net` needs `net=FILE`. A run records the net's content id, so
    /// a later net shipped under the name is refused, not played, by an old spec.
    fn shipped_net(&self) -> Option<&'static [u8]> {
        None
    }

    /// The weight `eval=tuned` gives feature `i`: the tuned fit's, or the default weight of a
    /// game without a fit.
    ///
    /// # Panics
    /// When `i` is not below `feature_set().len()`.
    fn tuned_weight(&self, i: usize) -> f64 {
        self.tuned_fit()
            .map_or(self.feature_set()[i].default_weight, |w| w[i])
    }

    /// The names of the features, in order.
    fn feature_names(&self) -> impl Iterator<Item = &'static str> {
        self.feature_set().iter().map(|f| f.name)
    }

    /// The value of the feature called `name` for `player`, if the game has one.
    fn feature(&self, player: Player, name: &str) -> Option<f64> {
        let i = self.feature_set().iter().position(|f| f.name == name)?;
        let mut out = [0.0; MAX_FEATURES];
        self.features(player, &mut out);
        Some(out[i])
    }

    /// Cheap knowledge of how promising `mv` looks for the player to move, read from the
    /// position without playing it: 0 when nothing is known (the default), larger for better
    /// moves, in reward units (a won playout is 1, a lost one −1). Search trees add it to a
    /// new child's value and let it fade as the child's own visits grow (MCTS `know=W`), so
    /// it must cost far less than a playout: no copy, no search, no allocation.
    fn move_knowledge(&self, _mv: Self::Move) -> f64 {
        0.0
    }

    /// Relaxes the rules of this copy of the position for a playout that starts here: a win
    /// that random play makes too often stops counting after a share `depth` (0 to 1) of the
    /// empty cells is filled. Havannah's rings (Ewalds 2012, "ring depth": random playouts
    /// close small rings that real play blocks; counting rings only until 70% of the empty
    /// cells are filled scored 68% against the plain rollouts on size 6). MCTS calls it on its
    /// playout's copy (`ring_depth=F`), never on a position of the game. Default: nothing.
    fn ring_depth(&mut self, _depth: f64) {}

    /// Relaxes this copy of the position for a playout that starts here, as
    /// [`Features::ring_depth`] does: a ring made in the playout wins only when it holds at
    /// least `stones` stones from before the playout (Ewalds 2012, "permanent stones": 3 gained
    /// 50 to 100 Elo on every board size, and removing it hurt the combination most), counted
    /// where `counted` says. Default: nothing.
    fn ring_permanence(&mut self, _stones: u32, _counted: PermanentIn) {}

    /// The names of the separate terms of move knowledge the game offers, which a search
    /// weighs one by one (MCTS `know.NAME=W`); none by default.
    fn knowledge_terms(&self) -> &'static [&'static str] {
        &[]
    }

    /// Term `k` (an index into [`Features::knowledge_terms`]) of the knowledge of `mv` for
    /// the player to move, read as [`Features::move_knowledge`] is: no copy, no allocation.
    fn knowledge_term(&self, _mv: Self::Move, _k: usize) -> f64 {
        0.0
    }

    /// Term `k` of every move in `moves` at once, into `out` (cleared first, then one value a
    /// move, each what [`Features::knowledge_term`] would give), for a term read from the whole
    /// position that `knowledge_term` would work out again for each move (Havannah's
    /// `distance`, a flood of the board). Returns whether it filled `out`; `false`, the
    /// default, means the term is read move by move. Allocates nothing once `out` has grown.
    fn knowledge_term_all(&self, _moves: &[Self::Move], _k: usize, _out: &mut Vec<f64>) -> bool {
        false
    }

    /// The local shape around `mv` for the player to move, as a number that is the same for
    /// every symmetry of the shape: what `arena tune shapes` fits a strength to from the moves
    /// strong players chose. `None` (the default) when the game has no shapes or `mv` is not
    /// a legal move. Read without playing: no copy, no allocation.
    fn move_shape(&self, _mv: Self::Move) -> Option<u32> {
        None
    }

    /// The wide shape around `mv` for the player to move, a number below
    /// [`crate::shapes::WIDE_CONTEXT_UNIT`] that is the same for every symmetry of the shape
    /// and holds [`Features::move_shape`]'s places and more (Havannah's: the 18 cells within
    /// distance 2). A shapes file's wide shapes refine its shapes ([`crate::shapes`]). `None`
    /// (the default) when the game has no wide shapes or `mv` is not a legal move. Read
    /// without playing: no copy, no allocation.
    fn move_wide_shape(&self, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// What `mv`'s shape ([`Features::move_shape`]) is seen beside, a number below 256 that a
    /// shapes file fitted in context keys each shape by ([`crate::shapes::key`]): Havannah,
    /// the distance from `mv` to the last stone placed, 3 for 3 and more (0 before the first
    /// stone). 0, the default, where the game gives no context. Read without playing: no
    /// copy, no allocation.
    fn shape_context(&self, _mv: Self::Move) -> u32 {
        0
    }

    /// What [`Features::shape_context`] counts, for a fit's record: a phrase and a one-word
    /// name for the number (Havannah: `the distance to the last stone (1, 2, or 3 for 3 and
    /// more)` and `distance`); `None`, the default, where the game gives no context.
    fn shape_context_names(&self) -> Option<(&'static str, &'static str)> {
        None
    }

    /// A move the player to move should answer the last move with at once in a playout, read
    /// from the position without playing anything: Havannah saves a two-cell link the last
    /// stone broke into. `None` (the default) leaves the choice to the playout policy.
    /// When several moves qualify, the scan starts at `start` (any number; the game reduces
    /// it), so a caller that varies it shares the choice out. Called at every playout ply
    /// (MCTS `pattern=on`): no copy, no allocation, a handful of lookups.
    fn playout_reply(&self, _start: usize) -> Option<Self::Move> {
        None
    }

    /// The legal moves near the last move, into `out` (cleared first), and how many legal
    /// moves lie elsewhere: where a playout policy that weighs moves by their knowledge
    /// looks (MCTS `roll.NAME=W`). Havannah: the empty cells among the last stone's six
    /// neighbours and six cells a bridge away. The default (and a game that cannot tell):
    /// nothing near, 0 elsewhere. Called at playout plies: no allocation once `out` has
    /// grown, a handful of lookups.
    fn near_last_move(&self, out: &mut Vec<Self::Move>) -> usize {
        out.clear();
        0
    }

    /// The side of the square grid a convolutional move predictor reads the board in (the
    /// agents crate's `policy` module, trained by `tools/policy_net.py`), where the game has
    /// one: cell `x + side·y` of [`Features::grid_planes`]. Havannah: the board's diameter,
    /// its cells in axial coordinates (neighbours at `(±1, 0)`, `(0, ±1)`, `±(1, 1)`). `None`,
    /// the default, for a game without a grid.
    fn grid_side(&self) -> Option<usize> {
        None
    }

    /// Writes the position as [`GRID_PLANES`] planes of `side²` cells (`side` from
    /// [`Features::grid_side`]), plane by plane, each cell 1 or 0, for the player to move:
    /// its stones, the opponent's, the empty cells, the board's cells, the last move's cell,
    /// the edges' cells (corners not among them), the corners. `out` holds at least
    /// `GRID_PLANES · side²` values; nothing is allocated. The default writes nothing.
    fn grid_planes(&self, _out: &mut [f32]) {}

    /// The board's symmetries on the grid of [`Features::grid_planes`], each as the cell
    /// every grid cell goes to (cells off the board to themselves): a position mapped so is
    /// one of the same value, whose moves are the images of its moves. The identity is not
    /// listed; the default, none, suits a board without a symmetry or a game without a grid.
    /// Self-play training sees each position under one drawn at random.
    fn grid_symmetries(&self) -> Vec<Vec<usize>> {
        Vec::new()
    }

    /// The grid cell a predictor scores `mv` by: Havannah, the empty cell it takes; `None`
    /// (the default) for a move that is not placed on an empty cell (Havannah's swap).
    fn grid_cell(&self, _mv: Self::Move) -> Option<usize> {
        None
    }
}
