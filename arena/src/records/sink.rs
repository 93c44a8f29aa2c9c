//! What a replay reports to: the reader checks and replays each row and shows every position
//! to a [`Sink`] (through a [`Watch`] it makes for that row), then keeps what the
//! watch gathered beside the row. Records know no consumer: the game-design metrics
//! (`figures::metrics`) and a tuner's positions (`tune::probe`) implement these traits, as a
//! ripgrep searcher reports to a `Sink` and knows nothing of the printer.

use ringside_engine::{Features, Game, Player};

use crate::records::fault::RowFault;
use crate::records::row::GameRow;

/// A consumer of replayed games. The reader calls [`Sink::watch`] once a row (from any
/// thread: a sink is shared), and the watch it returns sees that row's replay.
pub trait Sink: Sync {
    /// What one row's replay gathers (the default: before its replay).
    type Gathered: Send + Default;
    /// The watch of one replay of a game of type `G`.
    type Watch<G: Game + Features>: Watch<G, Gathered = Self::Gathered>;

    /// A watch for the replay of `row` from `start` (the position after the pair's draw,
    /// before any move), whose first mover is `first`. The error says why this row cannot be
    /// watched; the read reports it as the row's.
    fn watch<G: Game + Features>(
        &self,
        start: &G,
        row: &GameRow,
        first: Player,
    ) -> Result<Self::Watch<G>, RowFault>;
}

/// One row's replay, as a [`Sink`] sees it.
pub trait Watch<G> {
    /// What the replay gathers.
    type Gathered;

    /// Sees the position `state` before the move at `ply` (0 is the first move) is checked
    /// and played.
    fn before_move(&mut self, state: &G, ply: u32);

    /// Sees the game's moves so far, as the row will record them, after each move played
    /// (a game being played, not a replay: a follower of games in progress listens here).
    #[inline]
    fn moved(&mut self, _moves: &str) {}

    /// The replay of `row` checked out, ending at `end`: what it gathered.
    fn finish(self, end: &G, row: &GameRow) -> Self::Gathered;
}

/// Nothing is gathered: the replay only checks.
impl Sink for () {
    type Gathered = ();
    type Watch<G: Game + Features> = ();

    fn watch<G: Game + Features>(&self, _: &G, _: &GameRow, _: Player) -> Result<(), RowFault> {
        Ok(())
    }
}

impl<G> Watch<G> for () {
    type Gathered = ();

    fn before_move(&mut self, _: &G, _: u32) {}

    fn finish(self, _: &G, _: &GameRow) {}
}

/// A sink that may be absent (`None`: nothing gathered, its rows keep the default).
impl<S: Sink> Sink for Option<S> {
    type Gathered = S::Gathered;
    type Watch<G: Game + Features> = Option<S::Watch<G>>;

    fn watch<G: Game + Features>(
        &self,
        start: &G,
        row: &GameRow,
        first: Player,
    ) -> Result<Self::Watch<G>, RowFault> {
        self.as_ref()
            .map(|o| o.watch(start, row, first))
            .transpose()
    }
}

impl<G, W: Watch<G>> Watch<G> for Option<W>
where
    W::Gathered: Default,
{
    type Gathered = W::Gathered;

    fn before_move(&mut self, state: &G, ply: u32) {
        if let Some(w) = self {
            w.before_move(state, ply);
        }
    }

    fn finish(self, end: &G, row: &GameRow) -> W::Gathered {
        self.map(|w| w.finish(end, row)).unwrap_or_default()
    }
}
