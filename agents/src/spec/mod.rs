//! Agent specs: `kind[:key=value,…]`, parsed into a checked [`AgentSpec`] and printed back in
//! full (every option, defaults included), so a CSV row names exactly what played.
//!
//! Every option is declared once, one row an option ([`options::OptionDef`]), in the
//! kind's table: [`alphabeta`], [`mcts`], [`gtp`], [`faulty`]; the evaluation's rows
//! (`eval`, `weights`, `net`, `net_id`), which alpha-beta and MCTS share, are made in one
//! place (`evaluation`), which also reads the files they name. Parsing, checking, printing,
//! help and the typed setter [`AgentSpec::set`] all read those rows. Two things are not
//! rows: key families (`w.FEATURE=F`, `know.TERM=W`), read beside the table, and presets
//! (`preset=strong`), which stand for options and are expanded before the table reads them.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use ringside_engine::PermanentIn;
use ringside_engine::spec_text::{ItemsFault, key_values, quote_item};

pub mod alphabeta;
mod evaluation;
pub mod faulty;
mod files;
pub mod gtp;
mod kinds;
pub mod mcts;
pub mod options;
mod presets;
pub mod solver;

use files::read_named;
pub use files::{
    MoveNetRef, NetFileRef, NetRef, PvNetRef, ShapeWeights, ShapesRef, WeightsError, WeightsSource,
    read_regular_file, read_weights,
};
pub use kinds::{KeyFamily, KindDoc, agent_docs, agent_kinds};
use presets::preset_names;
pub use presets::*;

/// A spec that cannot be read: names the kind or key at fault and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SpecError {
    /// What kind of mistake it is: what tests and callers match.
    pub kind: SpecErrorKind,
    /// What is wrong and what is allowed, for people.
    pub reason: String,
}

/// The kinds of [`SpecError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SpecErrorKind {
    /// No agent of that name.
    UnknownAgent,
    /// An option that is not `key=value`, or an unclosed quote.
    Malformed,
    /// A key given twice.
    Repeated,
    /// A key the agent does not have.
    UnknownKey,
    /// A value of the wrong type or out of its range, or options that do not go together.
    BadValue,
    /// A required key is missing.
    Missing,
    /// A weights file that cannot be read, or a weight for a feature the game lacks.
    Weights,
    /// A net file that cannot be read or is for another game, or a net a spec names by
    /// content that is not the one found.
    Net,
    /// A shapes file (`shapes=FILE`) that cannot be read, or not the one a spec names by
    /// content (`shapes_id=`).
    Shapes,
    /// A move-prior network (`movenet=FILE`) that cannot be read, or not the one a spec names by
    /// content (`movenet_id=`), or one for a game without a grid.
    MoveNet,
    /// The agent cannot play this game (a notation the game does not know).
    WrongGame,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for SpecError {}

fn error(reason: String) -> SpecError {
    error_of(SpecErrorKind::BadValue, reason)
}

pub(crate) fn error_of(kind: SpecErrorKind, reason: String) -> SpecError {
    SpecError { kind, reason }
}

/// How a search scores a finished game (see the crate docs for the formulas).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scoring {
    /// A win is a win, whenever it comes.
    Win,
    /// Win in as few moves as possible, lose in as many as possible.
    Moves,
}

/// Where MCTS looks for moves that win at once (and for the opponent's, to block).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decisive {
    /// Nowhere: wins are found by visiting them.
    Off,
    /// When a node is expanded: its winning children are proven, and when the opponent
    /// threatens a win every other child is proven lost (where the game can tell).
    Tree,
    /// In the tree and at every ply of every playout.
    On,
}

/// How MCTS picks playout moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly at random.
    Random,
    /// ε-greedy on the move averages of earlier iterations (MAST).
    Mast,
    /// ε-greedy on the averages of the move and of the move after the one before it
    /// (N-gram selection, NST, with N up to 2).
    Ngram,
    /// ε-greedy on the evaluation after the move.
    Eval,
}

impl Policy {
    /// Whether the policy learns from every iteration's line (MAST and NST keep tables).
    #[must_use]
    pub fn learns(self) -> bool {
        matches!(self, Policy::Mast | Policy::Ngram)
    }
}

/// Whether MCTS playouts answer the previous move with the reply that last won after it
/// (last good reply).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// No reply table.
    Off,
    /// LGR-1: the winner's replies are stored, and kept until replaced.
    Lgr,
    /// LGRF-1: also forgotten when the loser played them.
    Forget,
}

/// How MCTS chooses the move to play among the root's unproven children.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinalChoice {
    /// The most visited child ("robust child"), ties to the best mean.
    Visits,
    /// The child with the most won playouts, `(n + ΣR)/2` for rewards in [−1, 1] (Castro's
    /// default, `msrave=-2`), ties to the most visits.
    Wins,
}

/// The order in which MCTS stores a node's children, and so which unvisited child it tries
/// first and which of equal children it prefers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChildOrder {
    /// A uniformly random order drawn from the agent's generator at each expansion, then,
    /// with `know` or `bias` on, the highest knowledge first (OpenSpiel's `MCTSBot` shuffles
    /// its children the same way).
    Random,
    /// The game's move list (every MCTS before this option existed): at small budgets the
    /// player prefers the first listed moves.
    List,
}

/// How MCTS uses more than one thread (`threads=N`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parallelism {
    /// Root parallelism: `N` trees search the same position, their root statistics summed.
    Root,
    /// Tree parallelism: one tree; each round descends `batch` times under virtual loss and
    /// plays the leaves' playouts on `N` threads.
    Tree,
}

/// Which weights an evaluation starts from before a weights file overrides them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalKind {
    /// Only `material` (weight 1): the seeds' material balance.
    Material,
    /// Every feature the game measures, with the default weights the game gives them.
    Rich,
    /// Every feature, with the weights tuned for the game
    /// ([`ringside_engine::Features::tuned_fit`]). A run writes them out in full in the
    /// spec ([`AgentSpec::spell_out_weights`]), so what it played stays fixed.
    Tuned,
    /// A network ([`crate::net`]): `net=FILE`, or the game's shipped net
    /// ([`ringside_engine::Features::shipped_net`]). A run records the net's content id.
    Net,
}

/// The settings of an evaluation: its kind and any weights read from a file.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalSpec {
    /// The starting weights.
    pub kind: EvalKind,
    /// The weights file, if one was given (kept for printing the spec).
    pub weights_file: Option<String>,
    /// Weights from the file, by feature name.
    pub weights: BTreeMap<String, f64>,
    /// Weights given in the spec itself (`w.NAME=F`), applied after the file's.
    pub overrides: BTreeMap<String, f64>,
    /// The net of `eval=net` (`None` for weighted evaluations, and for `eval=net` with nothing
    /// said about which: the game's shipped net).
    pub net: Option<NetRef>,
}

impl Default for EvalSpec {
    /// `eval=material`, no weights.
    fn default() -> EvalSpec {
        EvalSpec {
            kind: EvalKind::Material,
            weights_file: None,
            weights: BTreeMap::new(),
            overrides: BTreeMap::new(),
            net: None,
        }
    }
}

/// Alpha-beta settings.
#[derive(Debug, Clone, PartialEq)]
pub struct AlphaBetaSpec {
    /// Deepest iteration of iterative deepening.
    pub depth: u32,
    /// Stop after this many nodes (the last finished iteration's move is played).
    pub nodes: Option<u64>,
    /// Stop after this much time.
    pub time: Option<Duration>,
    /// The evaluation at the horizon.
    pub eval: EvalSpec,
    /// Win or move-count scoring.
    pub score: Scoring,
    /// log2 of the transposition table's entries.
    pub tt_bits: u8,
    /// Break ties among equally valued root moves at random from the agent's seed (the root's
    /// moves are shuffled before ordering), so that the agent plays distinct games against
    /// itself; off, the first in the move list's order wins.
    pub random_ties: bool,
    /// With `near=M`: play a move drawn from the seed among the root moves whose value, at
    /// the depth searched, is within `M` evaluation units (a stone is 1) of the best's, so
    /// that a deterministic search plays distinct games against itself by its own choice
    /// among near-best moves; `None` plays the best.
    pub near: Option<f64>,
    /// The plies of the game (counted from its start) at which `near` applies; `None`:
    /// every ply.
    pub near_plies: Option<u32>,
}

/// The perfect player's settings ([`crate::perfect`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SolverSpec {
    /// Give up a position's solve after this many positions.
    pub nodes: Option<u64>,
    /// Give up a position's solve after this much time.
    pub time: Option<Duration>,
    /// Megabytes of the transposition table.
    pub memory_mb: u32,
    /// Iterations of the default MCTS that moves when a solve gives up.
    pub fallback_iters: u64,
}

/// MCTS settings.
#[derive(Debug, Clone, PartialEq)]
pub struct MctsSpec {
    /// Iterations per move.
    pub iterations: Option<u64>,
    /// Time per move.
    pub time: Option<Duration>,
    /// UCT exploration constant.
    pub c: f64,
    /// Cut playouts after this many plies and score them by the evaluation; `None` plays
    /// them to the end, but at most [`crate::mcts::FULL_PLAYOUT_PLIES`].
    pub playout_cap: Option<u32>,
    /// The evaluation of cut playouts.
    pub eval: EvalSpec,
    /// Win or move-count rewards.
    pub score: Scoring,
    /// MCTS-Solver on or off.
    pub solver: bool,
    /// Keep the subtree of the position reached between moves.
    pub reuse: bool,
    /// The largest bonus of move-count rewards (`a` of the formula).
    pub bonus: f64,
    /// The steepness of the move-count bonus (`k` of the formula).
    pub steepness: f64,
    /// Most tree nodes kept (the tree stops growing there).
    pub max_nodes: u32,
    /// RAVE's equivalence parameter `K`, if RAVE is on.
    pub rave: Option<f64>,
    /// How RAVE's weight falls with a child's visits.
    pub rave_form: RaveForm,
    /// Added to RAVE's `K` for each move available at the parent (Castro's 200: more
    /// moves left, longer trust in AMAF).
    pub rave_grow: f64,
    /// Decisive and anti-decisive moves.
    pub decisive: Decisive,
    /// With `decisive=on`: decisive moves only in a playout's first this many plies
    /// (Ewalds 2012's mate-in-one early in rollouts); `None`: at every ply.
    pub decisive_plies: Option<u32>,
    /// Playout pruning (Duguépéroux et al. 2016): before each playout, the cells whose AMAF
    /// mean at the deepest well-visited node of the line is this much (rewards in [-1, 1])
    /// below the average of its children's are left out of the playout's random moves;
    /// `None`: off.
    pub prune: Option<f64>,
    /// PoolRave (Rimmel, Teytaud and Teytaud 2010): the size of the pool of moves with the
    /// best AMAF means at the deepest node of the line with 50 visits, from which a playout
    /// move is drawn with probability [`MctsSpec::pool_p`] (0: off).
    pub pool: u32,
    /// PoolRave: the probability that a playout ply draws its move from the pool.
    pub pool_p: f64,
    /// GRAVE (Cazenave 2015): a node with fewer than this many visits ranks its children by
    /// the AMAF statistics of the closest node above it on the path with this many visits
    /// and the same mover (0: off).
    pub grave: u32,
    /// Progressive widening (Coulom 2007): a node with `n` visits offers selection only its
    /// first `2 + ⌊log₁.₄(n/T)⌋` children that are not proven lost (2 below `T` visits), in
    /// stored order, knowledge first; `T` is this (0: off).
    pub widen: u32,
    /// First-play urgency: the value of a child never visited (`None`: visit it first).
    pub fpu: Option<f64>,
    /// Weight of progressive bias from the evaluation after each move (0: off).
    pub bias: f64,
    /// Weight of the game's cheap move knowledge ([`ringside_engine::Features::move_knowledge`]),
    /// fading as `1/√n`, or as `1/n^F` with [`MctsSpec::know_fade`] (0: off).
    pub know: f64,
    /// How knowledge fades with a child's visits `n`: as `1/n^F` (Castro's `F` = ½).
    pub know_fade: f64,
    /// The playout policy.
    pub policy: Policy,
    /// Play the game's answer to the last move in playouts
    /// ([`ringside_engine::Features::playout_reply`]) before the policy's move.
    pub pattern: bool,
    /// Last good reply in playouts, before the policy's move.
    pub reply: Reply,
    /// How the root's move is chosen among unproven children.
    pub final_choice: FinalChoice,
    /// The share of random moves of the ε-greedy playout policies.
    pub epsilon: f64,
    /// Threads searching one move (root parallelism, or tree parallelism with `parallel`).
    pub threads: u32,
    /// How the threads share the search.
    pub parallel: Parallelism,
    /// Tree parallelism: descents a round, whose playouts the threads share.
    pub batch: u32,
    /// Tree parallelism: a descent's virtual loss is also laid on the AMAF statistics of
    /// its path's moves (`vloss=amaf`), so RAVE's blended value sees it, not only the
    /// nodes' own statistics (`vloss=node`, the default).
    pub vloss_amaf: bool,
    /// The order of a node's children: random (the default), or the move list's.
    pub order: ChildOrder,
    /// `iters` counts a legal move: the search runs `iters` × the legal moves at the root
    /// (Ludii's SkillTrace gives its UCT players that many).
    pub per_move: bool,
    /// Playouts from each new leaf, each backed up on its own (Castro's `rollouts`).
    pub rollouts: u32,
    /// The game's relaxed playout rule ([`ringside_engine::Features::ring_depth`]): Havannah's
    /// rings stop winning once this share of the empty cells is filled in a playout.
    pub ring_depth: Option<f64>,
    /// The game's relaxed playout rule ([`ringside_engine::Features::ring_permanence`]):
    /// Havannah's rings made in a playout win only with this many stones from before it
    /// (0: off).
    pub ring_perm: u32,
    /// Where `ring_perm`'s stones are counted: in the ring's group, or in the ring itself as
    /// Castro counts them.
    pub ring_perm_in: PermanentIn,
    /// Weights of the game's named knowledge terms (`know.NAME=W`,
    /// [`ringside_engine::Features::knowledge_terms`]), added to `know`'s.
    pub know_terms: BTreeMap<String, f64>,
    /// Weights of the game's named knowledge terms read as a prior probability
    /// (`prob.NAME=W`, MoHex 2.0's prior term): each child's share of its siblings under
    /// the term, `exp T(m) / Σ exp T`, added to selection as `W·ρ(m)/√(n + 1)`.
    pub prob_terms: BTreeMap<String, f64>,
    /// Weights of the game's named knowledge terms read by the playouts (`roll.NAME=W`,
    /// MoHex 2.0's playout policy in the small): a playout move is drawn with weight
    /// `exp Σ W·T(m)` among the moves near the last move
    /// ([`ringside_engine::Features::near_last_move`]) and one move drawn from elsewhere,
    /// standing for them all.
    pub roll_terms: BTreeMap<String, f64>,
    /// With `roll.NAME`: the weighed draw only in a playout's first this many plies.
    pub roll_plies: Option<u32>,
    /// With RAVE: only a playout's first this many plies credit AMAF statistics
    /// (Helmbold and Parker-Wood's cutoff-AMAF); the tree's moves always do.
    pub amaf_plies: Option<u32>,
    /// With `decisive=tree` and the solver: a node with this many visits is searched once
    /// for a mate in three, a move after which the mover wins at once against every reply
    /// (`mate_at=N`; [`crate::mcts`] docs).
    pub mate_at: Option<u32>,
    /// The shapes read for the term `shape` in place of the game's shipped ones
    /// (`shapes=FILE`).
    pub shapes: Option<ShapesRef>,
    /// A learned move prior (`movenet=FILE`, [`crate::movenet`]): its share `ρ(m)` of a
    /// node's children, weighed by `movenet_w`, is added to their prior term once the node
    /// has `movenet_at` visits.
    pub movenet: Option<MoveNetRef>,
    /// The weight of the network's prior (`movenet_w=W`).
    pub movenet_w: f64,
    /// The visits a node has before its children get the network's prior (`movenet_at=N`).
    pub movenet_at: u32,
    /// The weight of the network's logits as move knowledge (`movenet_know=W`): `W·(ℓ(m) −
    /// ℓ̄)`, the logit less its mean over the children, added to each child's knowledge when
    /// the network scores them.
    pub movenet_know: f64,
    /// A policy-value network (`pv=FILE`, [`crate::pvnet`]): PUCT search, the network's
    /// prior in selection and its value in place of playouts (the [`crate::mcts`] docs).
    pub pv: Option<PvNetRef>,
    /// PUCT's exploration constant (`puct=C`, with `pv=FILE`).
    pub puct: f64,
    /// The share ε of Dirichlet noise in the root's prior (`pv_noise=E`, with `pv=FILE`):
    /// self-play's exploration.
    pub pv_noise: f64,
    /// The noise's Dirichlet α (`pv_alpha=A`).
    pub pv_alpha: f64,
}

impl MctsSpec {
    /// Whether children carry move knowledge (`know`, `know.NAME` or `movenet_know`).
    pub fn knows(&self) -> bool {
        self.know > 0.0 || self.weighs_knowledge()
    }

    /// Whether a child's stored knowledge is the whole weighted sum (`know·K + Σ W·T`), as
    /// with named terms or the network's knowledge, rather than the game's `K` alone.
    pub fn weighs_knowledge(&self) -> bool {
        !self.know_terms.is_empty() || self.movenet_know > 0.0
    }

    /// Whether a node's children are sorted at expansion by the term selection gives an
    /// unvisited child, `know·K + bias·H + Σ W·ρ`, highest first: with `order=random` and
    /// knowledge, a prior or progressive bias on (the order `widen` opens them in).
    pub fn sorts_children(&self) -> bool {
        self.order == ChildOrder::Random && (self.bias > 0.0 || self.knows() || self.has_prior())
    }

    /// Whether children carry a prior probability (`prob.NAME`, `movenet=FILE`, `pv=FILE`).
    pub fn has_prior(&self) -> bool {
        !self.prob_terms.is_empty() || self.movenet.is_some() || self.pv.is_some()
    }

    /// Whether playouts weigh the moves near the last one by knowledge (`roll.NAME`).
    pub fn rolls_by_knowledge(&self) -> bool {
        !self.roll_terms.is_empty()
    }
}

/// Whether `w` can weigh a prior probability (`prob.NAME=W`): finite and above 0.
fn prior_weight(w: f64) -> bool {
    w.is_finite() && w > 0.0
}

/// A named-term prefix of an MCTS spec, what its weight must satisfy and how an error says it.
struct TermPrefix {
    prefix: &'static str,
    allowed: fn(f64) -> bool,
    wants: &'static str,
}

/// `know.NAME` and `roll.NAME` take any finite weight, `prob.NAME` one above 0.
const TERM_PREFIXES: [TermPrefix; 3] = [
    TermPrefix {
        prefix: KNOW_PREFIX,
        allowed: f64::is_finite,
        wants: "a finite weight",
    },
    TermPrefix {
        prefix: PROB_PREFIX,
        allowed: prior_weight,
        wants: "a finite weight above 0",
    },
    TermPrefix {
        prefix: ROLL_PREFIX,
        allowed: f64::is_finite,
        wants: "a finite weight",
    },
];

/// Checks a named term's weight, `key` (`know.shape`) being `prefix` and a name, the same
/// whether the spec is parsed or set (`arena tune`).
fn check_term(key: &str, w: f64, prefix: &str) -> Result<(), SpecError> {
    let t = (TERM_PREFIXES.iter())
        .find(|t| t.prefix == prefix)
        .expect("a named-term prefix");
    if (t.allowed)(w) && key.len() > prefix.len() {
        Ok(())
    } else {
        Err(error(format!(
            "mcts: {key} needs a term's name and {}",
            t.wants
        )))
    }
}

/// The prefix of a knowledge term's weight: `know.reply=0.05`.
pub const KNOW_PREFIX: &str = "know.";

/// The prefix of a knowledge term's weight as a prior probability: `prob.shape=1`.
pub const PROB_PREFIX: &str = "prob.";

/// The prefix of a knowledge term's weight in playouts: `roll.shape=1`.
pub const ROLL_PREFIX: &str = "roll.";

/// RAVE's schedule: the weight `β` of a child's AMAF mean against its own mean, for `n`
/// visits, `ñ` AMAF visits and equivalence `K`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RaveForm {
    /// `β = √(K / (3n + K))` (Gelly and Silver, 2007).
    Sqrt,
    /// `β = K / (K + n)` (Castro's).
    Hyperbolic,
    /// `β = ñ / (n + ñ + n·ñ/K)` for `ñ` AMAF visits (Gelly and Silver's minimum-MSE
    /// schedule, 2011, with `4b² = 1/K`).
    MinimumMse,
}

/// A checked agent spec.
#[derive(Debug, Clone, PartialEq)]
#[expect(
    clippy::large_enum_variant,
    reason = "a spec is parsed once an agent and moved a handful of times; boxing MCTS's would buy nothing"
)]
pub enum AgentSpec {
    /// Uniformly random moves.
    Random,
    /// Alpha-beta search.
    AlphaBeta(AlphaBetaSpec),
    /// Monte Carlo tree search.
    Mcts(MctsSpec),
    /// The perfect player: a move of the best exact value, or MCTS when the solve gives up.
    Solver(SolverSpec),
    /// An engine outside the process, over GTP.
    Gtp(crate::gtp::GtpSpec),
    /// A person at `arena play`, whose moves are read, never chosen; it names that seat in a
    /// saved game. The arena refuses it in matches.
    Human,
    /// An agent the embedding program registered under this name ([`crate::host`]).
    Host(String),
    /// Random moves, then a planned fault at decision `at` (for testing harnesses).
    Faulty {
        /// What goes wrong.
        fault: crate::faulty::Fault,
        /// At which decision, from 1.
        at: u32,
    },
}

/// The prefix of a weight given in the spec: `w.immune=0.7` sets feature `immune`'s weight.
pub const WEIGHT_PREFIX: &str = "w.";

/// Reads the `key=value` options of one kind; each read consumes its key.
struct Options<'w> {
    kind: &'static str,
    items: Vec<(String, String)>,
    weights: WeightsSource<'w>,
}

impl Options<'_> {
    fn take(&mut self, key: &str) -> Option<String> {
        let i = self.items.iter().position(|(k, _)| k == key)?;
        Some(self.items.remove(i).1)
    }

    fn number<T: std::str::FromStr>(
        &mut self,
        key: &str,
        what: &str,
    ) -> Result<Option<T>, SpecError> {
        match self.take(key) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| error(format!("{}: {key} takes {what}, not '{v}'", self.kind))),
        }
    }

    /// Whether the spec gives `key`.
    fn has(&self, key: &str) -> bool {
        self.items.iter().any(|(k, _)| k == key)
    }

    /// [`Options::table`] for a kind with an evaluation: the `w.` weights and the table read
    /// into `spec`, then the evaluation finished ([`evaluation::finish`]: files read, options
    /// checked together). Whether `eval` was given is seen before the table takes it.
    fn evaluated_table<S: evaluation::HasEval>(
        &mut self,
        table: &[options::OptionDef<S>],
        spec: &mut S,
    ) -> Result<(), SpecError> {
        let eval_given = self.has("eval");
        let overrides = self.weight_overrides()?;
        self.table(table, spec)?;
        evaluation::finish(
            self.kind,
            spec.eval_mut(),
            eval_given,
            overrides,
            self.weights,
        )
    }

    /// The `w.FEATURE=F` weights given in the spec, each a finite number.
    fn weight_overrides(&mut self) -> Result<BTreeMap<String, f64>, SpecError> {
        let agent = self.kind;
        self.prefixed(WEIGHT_PREFIX, |key, w| {
            if w.is_finite() {
                Ok(())
            } else {
                Err(error(format!(
                    "{agent}: {key} must be a finite number, not {w}"
                )))
            }
        })
    }

    /// Takes every item whose key starts with `prefix` (`w.`, `know.`), each value read as a
    /// number and passed to `check` with its key, in the order given: the numbers by the
    /// rest of their keys.
    fn prefixed(
        &mut self,
        prefix: &str,
        check: impl Fn(&str, f64) -> Result<(), SpecError>,
    ) -> Result<BTreeMap<String, f64>, SpecError> {
        let keys: Vec<String> = self
            .items
            .iter()
            .filter(|(k, _)| k.starts_with(prefix))
            .map(|(k, _)| k.clone())
            .collect();
        let mut numbers = BTreeMap::new();
        for key in keys {
            let w: f64 = self.number(&key, "a number")?.unwrap_or_default();
            check(&key, w)?;
            numbers.insert(key[prefix.len()..].to_string(), w);
        }
        Ok(numbers)
    }

    /// Reads every option of `table` that was given into `spec`, checked.
    fn table<S>(&mut self, table: &[options::OptionDef<S>], spec: &mut S) -> Result<(), SpecError> {
        for def in table {
            if let Some(text) = self.take(def.key) {
                let value = def.read(self.kind, &text)?;
                (def.set)(spec, value);
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<(), SpecError> {
        match self.items.first() {
            None => Ok(()),
            Some((key, _)) => {
                let allowed = agent_kinds()
                    .into_iter()
                    .find(|(k, _)| *k == self.kind)
                    .map_or(String::new(), |(_, a)| a);
                Err(error_of(
                    SpecErrorKind::UnknownKey,
                    format!("{}: unknown key '{key}'; allowed: {allowed}", self.kind),
                ))
            }
        }
    }
}

/// An agent as a person typed it, read: the text (trimmed) names the agent in tables and
/// messages, the spec builds and records it. Front ends (the command line's flags) read
/// agents into these, so nothing behind them parses agent text again.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledSpec {
    /// The text as typed, trimmed: `mcts:iters=500`.
    pub label: String,
    /// The text read (a `weights=FILE` read from disk).
    pub spec: AgentSpec,
}

impl LabelledSpec {
    /// Reads `text` with [`AgentSpec::parse`], keeping the text as the label.
    pub fn parse(text: &str) -> Result<LabelledSpec, SpecError> {
        let label = text.trim().to_string();
        let spec = AgentSpec::parse(&label)?;
        Ok(LabelledSpec { label, spec })
    }
}

impl fmt::Display for LabelledSpec {
    /// The label: the agent as typed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label)
    }
}

impl AgentSpec {
    /// Parses a spec such as `random`, `alphabeta:depth=3,eval=material` or
    /// `mcts:iters=2000,c=1.4,score=moves`. A `weights=FILE` is read from disk.
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        AgentSpec::parse_with_weights(text, &read_weights)
    }

    /// Parses a spec, taking the weights of a `weights=FILE` from `weights` instead of the
    /// disk: a run's recorded settings hold the weights as they were when it started, so a
    /// reader needs neither the file nor its current content.
    pub fn parse_with_weights(
        text: &str,
        weights: WeightsSource<'_>,
    ) -> Result<AgentSpec, SpecError> {
        let text = text.trim();
        let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
        let known = agent_kinds();
        let kinds = || known.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ");
        let kind: &'static str = known
            .iter()
            .map(|(k, _)| *k)
            .find(|k| *k == kind)
            .ok_or_else(|| {
                error_of(
                    SpecErrorKind::UnknownAgent,
                    format!("unknown agent '{kind}'; agents: {}", kinds()),
                )
            })?;
        let items = key_values(kind, rest).map_err(|e| {
            let fault = match e.fault {
                ItemsFault::Malformed => SpecErrorKind::Malformed,
                ItemsFault::Repeated => SpecErrorKind::Repeated,
            };
            error_of(fault, e.reason)
        })?;
        let mut o = Options {
            kind,
            items,
            weights,
        };
        let spec = match kind {
            "random" => AgentSpec::Random,
            "human" => AgentSpec::Human,
            "host" => AgentSpec::Host(o.take("name").ok_or_else(|| {
                error_of(SpecErrorKind::Missing, "host: name=NAME is required".into())
            })?),
            "alphabeta" => {
                let mut spec = AlphaBetaSpec::default();
                o.evaluated_table(alphabeta::OPTIONS, &mut spec)?;
                AgentSpec::AlphaBeta(spec)
            }
            "mcts" => {
                if let Some(preset) = o.take("preset") {
                    let Some(&(_, options)) = PRESETS.iter().find(|(name, _)| *name == preset)
                    else {
                        return Err(error(format!(
                            "mcts: preset must be {}, not '{preset}'",
                            preset_names(", ", " or ")
                        )));
                    };
                    for item in options.split(',') {
                        let (k, v) = item.split_once('=').expect("the preset is key=value");
                        if !o.has(k) {
                            o.items.push((k.to_string(), v.to_string()));
                        }
                    }
                }
                let named = |prefix: &'static str| move |key: &str, w| check_term(key, w, prefix);
                let know_terms = o.prefixed(KNOW_PREFIX, named(KNOW_PREFIX))?;
                let prob_terms = o.prefixed(PROB_PREFIX, named(PROB_PREFIX))?;
                let roll_terms = o.prefixed(ROLL_PREFIX, named(ROLL_PREFIX))?;
                let mut spec = MctsSpec {
                    know_terms,
                    prob_terms,
                    roll_terms,
                    ..MctsSpec::default()
                };
                o.evaluated_table(mcts::OPTIONS, &mut spec)?;
                mcts::finish(&mut spec)?;
                AgentSpec::Mcts(spec)
            }
            "gtp" => {
                let given = o.has("cmd");
                let mut spec = gtp::blank();
                o.table(gtp::OPTIONS, &mut spec)?;
                gtp::finish(&mut spec, given)?;
                AgentSpec::Gtp(spec)
            }
            "solver" => {
                let mut spec = SolverSpec::default();
                o.table(solver::OPTIONS, &mut spec)?;
                AgentSpec::Solver(spec)
            }
            "faulty" => {
                let mut plan = faulty::Plan::default();
                o.table(faulty::OPTIONS, &mut plan)?;
                let (fault, at) = plan.finish()?;
                AgentSpec::Faulty { fault, at }
            }
            _ => unreachable!("kinds come from agent_kinds()"),
        };
        o.finish()?;
        Ok(spec)
    }

    /// The kind's name.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            AgentSpec::Random => "random",
            AgentSpec::AlphaBeta(_) => "alphabeta",
            AgentSpec::Mcts(_) => "mcts",
            AgentSpec::Solver(_) => "solver",
            AgentSpec::Faulty { .. } => "faulty",
            AgentSpec::Gtp(_) => "gtp",
            AgentSpec::Human => "human",
            AgentSpec::Host(_) => "host",
        }
    }

    /// The weights read from the spec's `weights=FILE`, if it names one: part of what the
    /// agent is, so a run records them beside the spec.
    #[must_use]
    pub fn file_weights(&self) -> Option<&BTreeMap<String, f64>> {
        let eval = match self {
            AgentSpec::AlphaBeta(s) => &s.eval,
            AgentSpec::Mcts(s) => &s.eval,
            AgentSpec::Random
            | AgentSpec::Solver(_)
            | AgentSpec::Faulty { .. }
            | AgentSpec::Gtp(_)
            | AgentSpec::Human
            | AgentSpec::Host(_) => {
                return None;
            }
        };
        eval.weights_file.as_ref().map(|_| &eval.weights)
    }

    /// The same agent with every weight of an `eval=tuned` evaluation written out as a
    /// `w.NAME=F` option (a weight from a file or already in the spec is kept), for the game
    /// of `state`: the printed spec then says in full what the agent plays, whatever later
    /// tuning ships under the name. An `eval=net` of the game's shipped net gets the net's
    /// content id (`net_id=`), so a later net shipped under the name is refused rather than
    /// played. Other agents and evaluations are returned unchanged.
    #[must_use]
    pub fn spell_out_weights<G: ringside_engine::Features>(&self, state: &G) -> AgentSpec {
        let mut spec = self.clone();
        let eval = match &mut spec {
            AgentSpec::AlphaBeta(s) => &mut s.eval,
            AgentSpec::Mcts(s) => &mut s.eval,
            AgentSpec::Random
            | AgentSpec::Solver(_)
            | AgentSpec::Faulty { .. }
            | AgentSpec::Gtp(_)
            | AgentSpec::Human
            | AgentSpec::Host(_) => {
                return spec;
            }
        };
        if eval.kind == EvalKind::Net {
            let shipped = state.shipped_net().map(crate::net::content_id);
            if let Some(net) = eval
                .net
                .as_mut()
                .filter(|n| n.file.is_none() && n.id.is_none())
            {
                net.id = shipped;
            }
        }
        if eval.kind == EvalKind::Tuned {
            for (i, f) in state.feature_set().iter().enumerate() {
                if !eval.weights.contains_key(f.name) {
                    let w = state.tuned_weight(i);
                    eval.overrides.entry(f.name.to_string()).or_insert(w);
                }
            }
        }
        spec
    }

    /// The same agent with option `key` set to `value` (rounded for whole-number options such
    /// as `depth` or `playout`): any numeric option of the spec, or a feature weight
    /// `w.NAME`. The result is checked as a parsed spec is (an unknown key, a value out of
    /// range, options that do not go together); a weights file keeps the content already read.
    /// Alpha-beta and MCTS set the typed field through their option tables; the others go
    /// through their text.
    pub fn set(&self, key: &str, value: f64) -> Result<AgentSpec, SpecError> {
        match self {
            AgentSpec::AlphaBeta(s) => {
                let mut s = s.clone();
                let eval: fn(&mut AlphaBetaSpec) -> &mut EvalSpec = |s| &mut s.eval;
                set_in(
                    "alphabeta",
                    alphabeta::OPTIONS,
                    &mut s,
                    key,
                    value,
                    Some(eval),
                )?;
                Ok(AgentSpec::AlphaBeta(s))
            }
            AgentSpec::Mcts(s) => {
                let mut s = s.clone();
                let prefix = TERM_PREFIXES
                    .iter()
                    .map(|t| t.prefix)
                    .find(|p| key.starts_with(p));
                if let Some(prefix) = prefix {
                    check_term(key, value, prefix)?;
                    let terms = match prefix {
                        KNOW_PREFIX => &mut s.know_terms,
                        PROB_PREFIX => &mut s.prob_terms,
                        _ => &mut s.roll_terms,
                    };
                    terms.insert(key[prefix.len()..].to_string(), value);
                    mcts::finish(&mut s)?;
                    return Ok(AgentSpec::Mcts(s));
                }
                let eval: fn(&mut MctsSpec) -> &mut EvalSpec = |s| &mut s.eval;
                set_in("mcts", mcts::OPTIONS, &mut s, key, value, Some(eval))?;
                mcts::finish(&mut s)?;
                Ok(AgentSpec::Mcts(s))
            }
            AgentSpec::Gtp(s) => {
                let mut s = s.clone();
                set_in("gtp", gtp::OPTIONS, &mut s, key, value, None)?;
                Ok(AgentSpec::Gtp(s))
            }
            AgentSpec::Solver(s) => {
                let mut s = s.clone();
                set_in("solver", solver::OPTIONS, &mut s, key, value, None)?;
                Ok(AgentSpec::Solver(s))
            }
            AgentSpec::Faulty { fault, at } => {
                let mut plan = faulty::Plan::of(*fault, *at);
                set_in("faulty", faulty::OPTIONS, &mut plan, key, value, None)?;
                let (fault, at) = plan.finish()?;
                Ok(AgentSpec::Faulty { fault, at })
            }
            AgentSpec::Random | AgentSpec::Human | AgentSpec::Host(_) => Err(error_of(
                SpecErrorKind::UnknownKey,
                format!(
                    "{}: unknown key '{key}' (it has no numeric options)",
                    self.kind()
                ),
            )),
        }
    }

    /// [`AgentSpec::set`]; the name tuners have used.
    pub fn with_number(&self, key: &str, value: f64) -> Result<AgentSpec, SpecError> {
        self.set(key, value)
    }

    /// Whether the agent chooses only among the moves the game lists (random, alpha-beta and
    /// MCTS do, by construction; their tests check it). A referee needs to check the moves of
    /// the others, such as `faulty`.
    #[must_use]
    pub fn chooses_listed_moves(&self) -> bool {
        !matches!(
            self,
            AgentSpec::Faulty { .. } | AgentSpec::Gtp(_) | AgentSpec::Human | AgentSpec::Host(_)
        )
    }

    /// Whether the agent draws its choices from its seed (random moves, MCTS's playouts and
    /// child order, alpha-beta's `ties=random` and `near=`), so that it plays distinct games against
    /// itself with no random opening. Alpha-beta is otherwise deterministic; an engine over
    /// GTP is taken to be.
    #[must_use]
    pub fn varies_with_seed(&self) -> bool {
        match self {
            AgentSpec::Random | AgentSpec::Mcts(_) | AgentSpec::Faulty { .. } => true,
            // Ties among the best moves are drawn from the seed.
            AgentSpec::Solver(_) => true,
            AgentSpec::AlphaBeta(s) => s.random_ties || s.near.is_some(),
            AgentSpec::Gtp(_) | AgentSpec::Human | AgentSpec::Host(_) => false,
        }
    }

    /// The wall-clock time the agent is given a move, if it plays to a clock: alpha-beta's and
    /// MCTS's `time_ms`, and an engine's over GTP (which forfeits past it and its margin).
    /// The perfect player's `time_ms` bounds its solve, after which its fallback searches by
    /// iterations, so it has no budget a move.
    #[must_use]
    pub fn move_budget(&self) -> Option<Duration> {
        match self {
            AgentSpec::AlphaBeta(s) => s.time,
            AgentSpec::Mcts(s) => s.time,
            AgentSpec::Gtp(s) => Some(s.time),
            _ => None,
        }
    }

    /// Whether the agent's moves depend on the clock (and so are not reproducible).
    #[must_use]
    pub fn uses_time(&self) -> bool {
        match self {
            AgentSpec::Random | AgentSpec::Faulty { .. } => false,
            AgentSpec::Gtp(_) | AgentSpec::Human | AgentSpec::Host(_) => true,
            AgentSpec::AlphaBeta(s) => s.time.is_some(),
            AgentSpec::Mcts(s) => s.time.is_some(),
            AgentSpec::Solver(s) => s.time.is_some(),
        }
    }
}

/// Sets option `key` (or weight `w.NAME`) of the typed spec `spec` of agent `kind` to `value`,
/// checked by its row of `table`.
fn set_in<S>(
    kind: &str,
    table: &[options::OptionDef<S>],
    spec: &mut S,
    key: &str,
    value: f64,
    eval: Option<fn(&mut S) -> &mut EvalSpec>,
) -> Result<(), SpecError> {
    if let (Some(name), Some(eval)) = (key.strip_prefix(WEIGHT_PREFIX), eval) {
        if !value.is_finite() {
            return Err(error(format!(
                "{kind}: {key} must be a finite number, not {value}"
            )));
        }
        eval(spec).overrides.insert(name.to_string(), value);
        return Ok(());
    }
    let def = table
        .iter()
        .find(|d| {
            d.key == key
                && matches!(
                    d.takes,
                    options::Takes::Whole { .. } | options::Takes::Number(_)
                )
        })
        .ok_or_else(|| {
            error_of(
                SpecErrorKind::UnknownKey,
                format!("{kind}: unknown key '{key}' (not a numeric option, nor a weight w.NAME)"),
            )
        })?;
    let typed = if def.is_whole() {
        if !(value.is_finite() && value.round() >= 0.0) {
            return Err(error(format!(
                "{kind}: {key} takes {}, not {value}",
                def.what()
            )));
        }
        options::Value::Whole(value.round() as u64)
    } else {
        options::Value::Number(value)
    };
    let checked = def.check(kind, typed)?;
    (def.set)(spec, checked);
    Ok(())
}

fn eval_text(e: &EvalSpec) -> String {
    let kind = match e.kind {
        EvalKind::Material => "material",
        EvalKind::Rich => "rich",
        EvalKind::Tuned => "tuned",
        EvalKind::Net => "net",
    };
    let mut text = match &e.weights_file {
        Some(f) => format!("eval={kind},weights={f}"),
        None => format!("eval={kind}"),
    };
    if let Some(net) = &e.net {
        if let Some(file) = &net.file {
            text.push(',');
            text.push_str(&quote_item(&format!("net={file}")));
        }
        if let Some(id) = net.id {
            text.push_str(&format!(",net_id={id:016x}"));
        }
    }
    for (name, w) in &e.overrides {
        text.push_str(&format!(",{WEIGHT_PREFIX}{name}={w}"));
    }
    text
}

fn score_text(s: Scoring) -> &'static str {
    match s {
        Scoring::Win => "win",
        Scoring::Moves => "moves",
    }
}

impl fmt::Display for AgentSpec {
    /// The full spec, every option written out; parsing it gives the same spec.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Human => f.write_str("human"),
            AgentSpec::Host(name) => write!(f, "host:{}", quote_item(&format!("name={name}"))),
            AgentSpec::Gtp(s) => write!(f, "gtp:{}", options::print(gtp::OPTIONS, s)),
            AgentSpec::Solver(s) => write!(f, "solver:{}", options::print(solver::OPTIONS, s)),
            AgentSpec::Faulty { fault, at } => write!(
                f,
                "faulty:{}",
                options::print(faulty::OPTIONS, &faulty::Plan::of(*fault, *at))
            ),
            AgentSpec::AlphaBeta(s) => {
                write!(f, "alphabeta:{}", options::print(alphabeta::OPTIONS, s))
            }
            AgentSpec::Mcts(s) => {
                write!(f, "mcts:{}", options::print(mcts::OPTIONS, s))?;
                for (name, w) in &s.know_terms {
                    write!(f, ",{KNOW_PREFIX}{name}={w}")?;
                }
                for (name, w) in &s.prob_terms {
                    write!(f, ",{PROB_PREFIX}{name}={w}")?;
                }
                for (name, w) in &s.roll_terms {
                    write!(f, ",{ROLL_PREFIX}{name}={w}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests;
