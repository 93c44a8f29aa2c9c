//! The [`Game`] trait every rules engine implements, and the small types around it.

use std::fmt;
use std::hash::Hash;

use rand::{Rng, RngExt};

use crate::error::{IllegalMove, ParseMoveError, PositionError};

/// One of the two players, by colour index: `Player(0)` is the colour a game lists first
/// (Black in Rin and the Life duel, Light in the hex games).
///
/// A `Player` is a colour, not a seat and not "whoever moves first": in some games the first
/// mover is drawn at random, and in Rin one colour moves twice in a row. Ask the state who is
/// to move ([`Game::to_move`]); never derive it from ply parity.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Player(u8);

impl Player {
    /// The first-listed colour (Black, Light).
    pub const ZERO: Player = Player(0);
    /// The second-listed colour (White, Dark).
    pub const ONE: Player = Player(1);

    /// The player with this index (0 or 1).
    ///
    /// # Panics
    /// When `index > 1`.
    #[must_use]
    pub const fn new(index: usize) -> Player {
        assert!(index < 2, "a player index is 0 or 1");
        Player(index as u8)
    }

    /// This player's index, 0 or 1, for arrays indexed by colour.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The other player.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Player {
        Player(self.0 ^ 1)
    }
}

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    #[must_use]
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }

    /// The game-theoretic value for `player`: 1 for a win, 0 for a draw, -1 for a loss.
    #[must_use]
    pub fn value_for(self, player: Player) -> i32 {
        match self {
            Outcome::Win(p) if p == player => 1,
            Outcome::Win(_) => -1,
            Outcome::Draw => 0,
        }
    }
}

/// The size of a board that comes in several sizes, and the spec option that sets it: what a
/// GTP `boardsize` command names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BoardSize {
    /// The option's key in the game's spec (`size` for Rin and Havannah, `side` for the
    /// hexagon games).
    pub option: &'static str,
    /// Its value in this game.
    pub value: usize,
}

/// The shape of a game's cells, for drawing its board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CellShape {
    /// Square cells in rows and columns (Rin, the Life duel).
    Square,
    /// Hexagons, rows offset by half a cell (the hex games); [`Game::board_rows`] indents
    /// them.
    Hex,
}

/// The colour of a player's stones where the game plays black against white (what GTP's
/// `b` and `w` name, and what a picture fills them with).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stone {
    /// Black stones.
    Black,
    /// White stones.
    White,
}

/// A rules engine: a game state that knows its own options (board size and the like).
///
/// The trait serves three users:
/// - alpha-beta search: states are cheap to copy (`Clone`, usually `Copy`-sized), so a
///   search plays a move on a copy instead of unmaking it;
/// - MCTS playouts: [`Game::random_move`] and [`Game::play_unchecked`] never allocate;
/// - the arena: move notation that parses and prints losslessly, a text board, the outcome.
///
/// # Contracts
/// - Whose turn it is comes only from [`Game::to_move`]. Players need not alternate (Rin plays
///   B, W, W, B, B, …) and games may have pass moves; code that negates a value per ply is wrong.
/// - A state whose [`Game::outcome`] is `None` has at least one legal move, and `to_move` is
///   `Some`. A finished state has no legal moves and `to_move` is `None`.
/// - [`Game::legal_moves`] lists moves in a fixed, documented order (deterministic for a state).
/// - [`Game::hash`] is maintained incrementally and always equals [`Game::hash_from_scratch`].
pub trait Game: Clone + Send + Sync + fmt::Debug + 'static {
    /// A move. Small and `Copy`; printed and parsed with [`Game::move_text`] and
    /// [`Game::parse_move`].
    type Move: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;

    /// The game's registry name, for example `"rin"`.
    fn name(&self) -> &'static str;

    /// The game with the options that differ from its defaults, in registry syntax, for
    /// example `"rin"` or `"rin:size=8"`. Parsing it with the registry gives this game's start.
    fn spec(&self) -> String;

    /// The board's size and the spec option that sets it, for games whose board comes in
    /// several sizes; `None` (the default) for a fixed board.
    fn board_size(&self) -> Option<BoardSize> {
        None
    }

    /// The shape of the board's cells. The default is square.
    fn cell_shape(&self) -> CellShape {
        CellShape::Square
    }

    /// The colour of `player`'s stones, for games of black against white; `None` (the
    /// default) for games whose colours have other names (light and dark, x and o).
    fn stone(&self, player: Player) -> Option<Stone> {
        let _ = player;
        None
    }

    /// Other notations outside programs write this game's moves in, by name (Havannah:
    /// `castro`, HavannahGui's as Castro uses it). The default knows none.
    fn notations(&self) -> &'static [&'static str] {
        &[]
    }

    /// `text` translated between this game's notation and the notation `notation` (one of
    /// [`Game::notations`]): into it when `into` is true, else back. Text that is no move
    /// (`swap`, `pass`) comes back as it is; `None` for a notation the game does not know.
    fn translate_move(&self, notation: &str, text: &str, into: bool) -> Option<String> {
        let _ = (notation, text, into);
        None
    }

    /// The name of a colour in this game, lower case (`"black"`, `"white"`, `"light"`, …).
    fn player_name(&self, player: Player) -> &'static str;

    /// The player to move, or `None` when the game is over.
    fn to_move(&self) -> Option<Player>;

    /// Moves played since the start position (passes included).
    fn ply(&self) -> u32;

    /// Clears `moves` and fills it with every legal move, in the game's fixed order.
    /// Allocates only if `moves` must grow.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// A legal move drawn uniformly at random, or `None` when the game is over.
    ///
    /// `scratch` is a buffer the game may use instead of allocating; its contents on return are
    /// unspecified. The default lists the legal moves into it and picks one; games override it
    /// with something faster that draws from the same distribution.
    fn random_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<Self::Move>,
    ) -> Option<Self::Move> {
        self.legal_moves(scratch);
        if scratch.is_empty() {
            None
        } else {
            Some(scratch[rng.random_range(0..scratch.len())])
        }
    }

    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool;

    /// Plays a move that the caller knows is legal (the fast path of search and playouts).
    /// Playing an illegal move leaves the state unspecified but memory-safe.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// Plays `mv` if it is legal; otherwise leaves the state untouched and says why.
    fn try_play(&mut self, mv: Self::Move) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        if !self.is_legal(mv) {
            return Err(IllegalMove::NotLegal {
                reason: self.why_illegal(mv),
            });
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a legal move.
    ///
    /// # Panics
    /// When `mv` is illegal; use [`Game::try_play`] for moves from outside the program.
    fn play(&mut self, mv: Self::Move) {
        if let Err(e) = self.try_play(mv) {
            panic!("illegal move {}: {e}", self.move_text(mv));
        }
    }

    /// Whether the player to move faces a decision the rules single out, one a study must
    /// leave to the players: the swap rule's offer to the second player. Random openings stop
    /// before it, so that a `swap=on` run measures the swap as players use it. The default:
    /// no such decision.
    fn rule_decision(&self) -> bool {
        false
    }

    /// Whether `player` would win at once by playing `mv` here, were it `player`'s turn, for
    /// games that can tell without playing (search uses it to find decisive moves and to
    /// block the opponent's). `None`: the game cannot tell cheaply.
    ///
    /// A game answers for the player *not* to move only when that answer survives any other
    /// move of the mover: the opponent moves next, and `mv`, if still legal, still wins (so
    /// drop games whose stones never leave, like Havannah). Search relies on it to prove that
    /// every move but the block loses. The default knows nothing.
    fn wins_at_once(&self, _player: Player, _mv: Self::Move) -> Option<bool> {
        None
    }

    /// A dense number for `mv`, below [`Game::move_index_count`]: equal moves get equal
    /// numbers and different moves different ones, in every position of this game. Search
    /// keeps per-move tables (RAVE's line, MAST) in arrays indexed by it.
    fn move_index(&self, mv: Self::Move) -> usize;

    /// One more than the largest [`Game::move_index`] of this game (with its options).
    fn move_index_count(&self) -> usize;

    /// A short explanation of why `mv` is illegal here, for error messages.
    fn why_illegal(&self, mv: Self::Move) -> String;

    /// The outcome, or `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// The score of each colour, indexed by [`Player::index`], for games that count one
    /// (stones in Rin, points in sab39's game); `None` for games without a score.
    fn scores(&self) -> Option<[f64; 2]>;

    /// The Zobrist hash of the state (position, side to move and whatever else decides the
    /// future of the game), maintained incrementally.
    fn hash(&self) -> u64;

    /// The same hash recomputed from nothing; for tests of the incremental update.
    fn hash_from_scratch(&self) -> u64;

    /// Parses a move in this game's notation. Does not check legality.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseMoveError>;

    /// Prints a move in this game's notation; `parse_move(move_text(m)) == m`.
    fn move_text(&self, mv: Self::Move) -> String;

    /// The move as OpenSpiel's `ActionToString(player, action)` names it, for the Python
    /// adapter and the differential tests. The default is [`Game::move_text`]; games whose
    /// OpenSpiel strings carry the mover's mark (`x(1,1)` in Tic-tac-toe, `o3` in Connect
    /// Four) override it. [`Game::parse_move`] reads both forms.
    fn action_string(&self, player: Player, mv: Self::Move) -> String {
        let _ = player;
        self.move_text(mv)
    }

    /// Appends a move's notation to `out` (the arena writes millions; games with a cheap
    /// notation override this to avoid the `String` of [`Game::move_text`]).
    fn write_move(&self, mv: Self::Move, out: &mut String) {
        out.push_str(&self.move_text(mv));
    }

    /// The board as text rows, top row first: one character a point or cell, `.` for empty,
    /// `B`/`W` (or the game's letters) for stones. Hex games indent rows to draw the hexagon.
    fn board_rows(&self) -> Vec<String>;

    /// The board cells as rows, top to bottom, one character a cell and nothing else
    /// (no indentation): the `board` of `arena replay --json`.
    fn board_cells(&self) -> Vec<String> {
        self.board_rows()
            .into_iter()
            .map(|row| row.chars().filter(|c| !c.is_whitespace()).collect())
            .collect()
    }

    /// The cells of [`Game::board_cells`], row after row, one ASCII byte a cell, appended to
    /// `out` (cleared first): the board for code that reads it often (an observation tensor
    /// a step). Games override the default, which goes through the text rows, with one that
    /// allocates nothing once `out` has grown; the conformance suite holds the two equal.
    fn write_cells(&self, out: &mut Vec<u8>) {
        out.clear();
        for row in self.board_cells() {
            out.extend_from_slice(row.as_bytes());
        }
    }

    /// The names of the cells of [`Game::board_cells`], row by row, left to right, as moves
    /// name them: for drawing the board with coordinates. Every registry game gives them (a
    /// conformance check holds them to `board_cells`' shape); the default is none.
    fn cell_names(&self) -> Vec<Vec<String>> {
        Vec::new()
    }

    /// Draws what the rules leave to chance before the first move (sab39's game draws who
    /// starts). The arena and `playouts` call it once per game, on the start position, with that
    /// game's seeded generator; afterwards [`Game::spec`] names the drawn choice so the game can
    /// be replayed. The default does nothing.
    fn randomize_start<R: Rng + ?Sized>(&mut self, _rng: &mut R) {}

    /// Sets up a position from text, keeping this state's options (board size and so on).
    /// The format is each game's own and documented there; it is meant for tests.
    fn set_up(&self, text: &str) -> Result<Self, PositionError>;
}

/// Plays uniformly random moves from `state` until the game ends or `max_plies` more plies
/// have been played. Returns the outcome, `None` when the cap stopped the game.
///
/// Allocates nothing once `scratch` has grown to the game's largest move list.
pub fn random_playout<G: Game, R: Rng + ?Sized>(
    state: &mut G,
    rng: &mut R,
    scratch: &mut Vec<G::Move>,
    max_plies: u32,
) -> Option<Outcome> {
    let mut played = 0;
    loop {
        if let Some(outcome) = state.outcome() {
            return Some(outcome);
        }
        if played == max_plies {
            return None;
        }
        let mv = state
            .random_move(rng, scratch)
            .expect("a state with no outcome has a legal move");
        state.play_unchecked(mv);
        played += 1;
    }
}
