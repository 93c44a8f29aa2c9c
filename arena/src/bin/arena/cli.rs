//! The command line, as clap derive types. Doc comments are the `--help` text.

use clap::{Args, Parser, Subcommand};
use ringside_agents::LabelledSpec;
use ringside_agents::gtp::Coords;
use ringside_arena::plan::{Shard, SprtConfig};
use ringside_engine::registry::{AnyGame, GAMES};

/// Ringside's arena: tournaments between agents into CSV, with statistics; replays; random
/// playouts.
///
/// Games are named by a spec: the name, then optionally ':' and key=value options, for
/// example `rin`, `rin:size=8` or `ikabegama:distance=6,side=9`. `arena games` lists them.
/// Agents are specs too: `random`, `alphabeta:depth=3,eval=material`,
/// `mcts:iters=2000,c=1.4,score=moves`; `arena agents` lists their keys.
#[derive(Debug, Parser)]
#[command(name = "arena", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a list of moves from the start position and print the final position.
    ///
    /// An illegal or malformed move stops the replay with an error that names the move's
    /// number (1 for the first move) and the reason, and exit code 2.
    Replay(ReplayArgs),
    /// Play uniformly random games and count who wins.
    ///
    /// The last line reads `games=N first=.. second=.. draws=.. mean_plies=.. playouts_per_s=..`,
    /// where `first` counts wins of the player who moves first. Game i draws its moves from its
    /// own generator seeded by (seed, i), so the counts are the same for any thread count.
    Playouts(PlayoutsArgs),
    /// Play a match (two agents) or a tournament (more) into a games CSV, then print its summary.
    ///
    /// Games come in colour-swapped pairs: both games of a pair share a seed and opening, with
    /// the seats exchanged. Game i's result depends only on the settings and i, never on the
    /// thread count (agents with a time budget excepted). Running the same command again on
    /// the same --out file resumes it: finished games are kept, missing ones played.
    Match(MatchArgs),
    /// Run an experiment file into `results/NAME/` (games.csv, summary.csv, summary.md).
    ///
    /// Without a file, runs the shipped experiment experiments/life-seed-tables.toml. Running it
    /// again resumes it; on a finished run it first re-plays every recorded game and checks that
    /// it reproduces its row exactly (all columns but the times), unless --no-verify.
    Run(RunArgs),
    /// Recompute the summary of a games CSV (merged and resumed files included).
    Summary(SummaryArgs),
    /// Read games CSVs as one family of tests: each pairing's Elo from its colour-swapped
    /// pairs, the p-value of "equal", that p adjusted by Holm over every pairing of every file,
    /// and the smallest difference each test would find 80% of the time (its power).
    ///
    /// Give a run's checks together, and their replications together in a second call.
    Verdicts(VerdictsArgs),
    /// Write a design report for one game into `results/reports/GAME/`: a verdict in plain
    /// language, a skill ladder (random, alpha-beta and MCTS with Bradley–Terry ratings; a
    /// step is real only when its replication agrees), a skill curve (MCTS 2k against k, Holm
    /// over the doublings, its plateau replicated) and Ludii's own SkillTrace, the first-player
    /// advantage at strength across board sizes and with the swap, and length, draws and
    /// decisiveness, with figures.
    ///
    /// Each part is a resumable run of its own; running the command again resumes it.
    Report(ReportArgs),
    /// Join shard CSVs of one run into one file, refusing duplicates and other settings.
    Merge(MergeArgs),
    /// Print this Slurm array task's shard as `i/n`, the same on a later resubmission of the
    /// task (`sbatch --array=K`) as in the first array (tools/slurm/match.sbatch uses it).
    ///
    /// The first array's layout (SLURM_ARRAY_TASK_MIN and _COUNT) is written to --record; a
    /// later task is placed in that layout by its SLURM_ARRAY_TASK_ID.
    SlurmShard(SlurmShardArgs),
    /// Let one agent choose a move in a position and print what the decision cost.
    ///
    /// The last line reads `move=.. iterations=.. nodes=.. depth=.. time_ms=..
    /// iterations_per_s=.. nodes_per_s=..`, then `value=..` when the agent has one: the
    /// search's value for the mover (MCTS: the chosen move's mean reward, in [−1, 1];
    /// alpha-beta: its score; the perfect player: 1, 0 or −1, with `depth` the plies to the
    /// end), and for the perfect player `exact=true|false` (false: its solve gave up and MCTS
    /// chose).
    Think(ThinkArgs),
    /// The exact value of a position for the player to move, by search to the end.
    ///
    /// Prints one line: `value=win|draw|loss` (or `unknown` when the budget ran out first,
    /// never a guess), `plies=` (the distance to the end under best play), `best=` (every
    /// move that keeps the value), then `mover= nodes= time_ms= nodes_per_s= table=used/size
    /// table_mib= method=`. Connect Four with four to win on boards up to 64 bits takes its own
    /// search (`method=connect_four`), every other game alpha-beta with a transposition table
    /// (`method=alphabeta`). Memory: the table (--memory) plus a few kilobytes.
    Solve(SolveArgs),
    /// How often a player's moves change the exact value of the position (a won position
    /// thrown to a draw or a loss, a drawn one to a loss), over the positions of games it plays.
    ///
    /// Plays --games games of --agent against itself (or --opponent, whose moves are not
    /// judged) after --opening-plies random moves, solves the position before and after each
    /// judged move, and prints `decisions= solved= unsolved= errors= rate= low= high=` (Wilson
    /// 95%), the rate over decisions where an error was possible, and the errors by kind.
    /// Positions that do not solve within --solve-nodes or --solve-time are counted as
    /// unsolved, never as right or wrong. --out writes every judged decision (game, ply,
    /// value before and after for the mover) as CSV.
    Errors(Box<ErrorsArgs>),
    /// Who is favoured in a game, asked of two families of players and answered only where
    /// they agree: each rung (MCTS by --mcts iterations, alpha-beta by --depths, both drawing
    /// distinct games from their seeds) plays itself in a sequential test (an anytime-valid
    /// confidence sequence of the first colour's score at --alpha over the run's cells) that
    /// stops when the score's interval leaves out ½ or lies within ½ ± --margin, or at --games;
    /// each family's top rung that showed something is played again from a seed fixed before
    /// the run. Prints a line a cell and the verdict (`+`, `-`, `=` or `undecided`); writes
    /// `cells.csv` (every counted game's result in order, so each decision recomputes) and
    /// `verdict.txt` into --out, with each cell's games; a second call resumes.
    Balance(Box<BalanceArgs>),
    /// Tune an agent: `texel` fits evaluation weights to recorded games, `spsa` tunes any
    /// numeric option or weight by playing games.
    #[command(subcommand)]
    Tune(TuneCommand),
    /// Speak GTP v2 on stdin/stdout as an engine playing --agent, for GTP tools (GoGui's
    /// gogui-twogtp, HavannahGui) or another arena's `gtp:cmd=...` agent.
    ///
    /// Commands: protocol_version, name, version, known_command, list_commands, boardsize,
    /// clear_board, komi (ignored), play, genmove, undo, showboard, final_score,
    /// ringside-game SPEC (switch game), quit. Errors answer `?` with a reason.
    Gtp(GtpArgs),
    /// Play against an agent yourself: the board is redrawn after every move with
    /// coordinates on its edges; type moves in the game's notation, `undo`, `hint` or `quit`.
    ///
    /// Reads one line a move, so a pipe plays too. `quit` (or the end of the input) resigns.
    /// With --save, the game is appended to a games CSV that `replay --from` reads.
    Play(PlayArgs),
    /// List a game's evaluation features and their default weights (and, with --moves, their
    /// values for both colours after those moves).
    Features(FeaturesArgs),
    /// Serve the runs under some folders as web pages, kept up to date while they are written.
    ///
    /// Lists the runs (games CSVs with their settings sidecar) under the folders given
    /// (default: results/) and shows each one's standings with Elo and intervals, its SPRT
    /// against its bounds, pentanomial counts, clocks against budgets, figures, a design
    /// report's verdict, its games (each in the game viewer) and the games being played, move
    /// by move. Every view is JSON under /api/ too (book/src/serve.md). Read-only: the only file
    /// it writes is a run's marker `games.csv.live-wanted` while a page follows that run,
    /// which asks the run to write its games in progress. Ctrl-C stops it.
    #[cfg(feature = "serve")]
    Serve(ServeArgs),
    /// List the games and their options.
    Games,
    /// List the agents and their keys.
    Agents,
    /// Write the guide's reference pages (agents, games, this command line) from the code:
    /// `tools/book-generate.sh` runs it, and a test fails when a committed page differs.
    Reference(ReferenceArgs),
}

/// Arguments of `arena reference`.
#[derive(Debug, Args)]
pub struct ReferenceArgs {
    /// The folder the pages go into.
    #[arg(long, default_value = "book/src/reference")]
    pub out: std::path::PathBuf,
    /// The repository's root, whose design reports (results/reports/) the game pages quote.
    #[arg(long, default_value = ".")]
    pub root: std::path::PathBuf,
}

/// Arguments of `arena match`.
#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
pub struct MatchArgs {
    /// The game spec, for example `life` or `ikabegama:distance=6,side=9`.
    #[arg(long, value_parser = parse_game)]
    pub game: AnyGame,
    /// Two agent specs for a match; three or more for a round robin (or --gauntlet).
    #[arg(long, num_args = 2.., required = true, value_parser = parse_agent)]
    pub agents: Vec<LabelledSpec>,
    /// Games for each pairing: an even number from 2 to 10^12 (colour-swapped pairs).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The games CSV to write or resume (a FILE.settings.json sidecar goes beside it).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Stop games after this many plies and score them as draws (reason ply_cap).
    #[arg(long)]
    pub ply_cap: Option<u32>,
    /// Uniformly random moves, drawn from each pair's seed, before the agents take over.
    #[arg(long, default_value_t = 0)]
    pub opening_plies: u32,
    /// With three or more agents: the first plays each of the others (instead of all pairs).
    #[arg(long)]
    pub gauntlet: bool,
    /// A move of an agent with a time budget (`time_ms=`) that runs this many milliseconds
    /// past it loses the game on time (reason time_forfeit), as fastchess's timemargin.
    /// Without it no agent in the process loses on time; the summary's clock table shows
    /// every agent's moves over budget either way.
    #[arg(long)]
    pub time_margin_ms: Option<u64>,
    /// Stop a two-agent match once an SPRT on colour-swapped pairs decides:
    /// elo0,elo1,alpha,beta[,logistic|normalized] (logistic Elo by default), as fishtest
    /// computes it.
    #[arg(long, value_parser = parse_sprt)]
    pub sprt: Option<SprtConfig>,
    /// Play only shard i of n (1-based), splitting by pairs; `auto` takes it from a Slurm job
    /// array (SLURM_ARRAY_TASK_ID, _COUNT, _MIN) as submitted; a task resubmitted alone is then
    /// shard 1 of 1, so tools/slurm/match.sbatch takes `arena slurm-shard`'s recorded answer
    /// instead. Join shards with `arena merge`.
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<ShardArg>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `arena think`.
#[derive(Debug, Args)]
pub struct ThinkArgs {
    /// The game spec.
    #[arg(long, value_parser = parse_game)]
    pub game: AnyGame,
    /// The agent spec, for example `mcts:iters=10000`.
    #[arg(long, value_parser = parse_agent)]
    pub agent: LabelledSpec,
    /// Moves to play from the start first (default: none).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub moves: String,
    /// The agent's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Arguments of `arena solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The game spec.
    #[arg(long, value_parser = parse_game)]
    pub game: AnyGame,
    /// Moves to play from the start first (default: none).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub moves: String,
    /// Stop after this many seconds (default: no limit) and print `value=unknown`.
    #[arg(long, value_parser = parse_seconds)]
    pub time: Option<f64>,
    /// Stop after searching this many positions (default: no limit).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Megabytes of the transposition table (rounded down to a power of two entries).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub memory: u64,
    /// Find only win, draw or loss and one move that keeps it, not the distance and every
    /// best move (faster).
    #[arg(long)]
    pub sign_only: bool,
    /// The search: `auto` (Connect Four's own where it applies, else alpha-beta), `alphabeta`,
    /// or `dfpn` (proof-number search, no distances: for wide games such as Hex).
    #[arg(long, default_value = "auto", value_parser = ["auto", "alphabeta", "dfpn"])]
    pub method: String,
}

/// The solver's method named by `--method`.
#[must_use]
pub fn solve_method(name: &str) -> ringside_agents::solve::Method {
    use ringside_agents::solve::Method;
    match name {
        "alphabeta" => Method::AlphaBeta,
        "dfpn" => Method::ProofNumber,
        _ => Method::Auto,
    }
}

/// Arguments of `arena errors`.
#[derive(Debug, Args)]
pub struct ErrorsArgs {
    /// The game spec.
    #[arg(long, value_parser = parse_game)]
    pub game: AnyGame,
    /// The player whose moves are judged.
    #[arg(long, value_parser = parse_agent)]
    pub agent: LabelledSpec,
    /// Its opponent (default: itself, both sides judged).
    #[arg(long, value_parser = parse_agent)]
    pub opponent: Option<LabelledSpec>,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Uniformly random moves first, not judged (distinct games for deterministic players).
    #[arg(long, default_value_t = 0)]
    pub opening_plies: u32,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Give up solving a position after this many positions searched (default: no limit).
    #[arg(long)]
    pub solve_nodes: Option<u64>,
    /// Give up solving a position after this many seconds (default: no limit).
    #[arg(long, value_parser = parse_seconds)]
    pub solve_time: Option<f64>,
    /// Megabytes of the solver's table, kept for the whole run.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub memory: u64,
    /// Write every judged decision here as CSV (game,ply,before,after,error).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// The solver's search, as `arena solve --method` takes it.
    #[arg(long, default_value = "auto", value_parser = ["auto", "alphabeta", "dfpn"])]
    pub method: String,
}

/// Arguments of `arena balance`.
#[derive(Debug, Args)]
pub struct BalanceArgs {
    /// The game spec.
    #[arg(long, value_parser = parse_game)]
    pub game: AnyGame,
    /// The folder of the cells' games, `cells.csv` and `verdict.txt`.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// The most games a cell plays (even).
    #[arg(long, default_value_t = 2000)]
    pub games: u64,
    /// MCTS's rungs: iterations, weakest first, comma-separated ("" for none).
    #[arg(long, default_value = "1000,8000,64000", value_parser = parse_rungs)]
    pub mcts: Rungs,
    /// Alpha-beta's rungs: depths, weakest first, comma-separated ("" for none).
    #[arg(long, default_value = "2,4,6", value_parser = parse_rungs)]
    pub depths: Rungs,
    /// Alpha-beta's most positions a move at every rung (0: no limit).
    #[arg(long, default_value_t = 50_000)]
    pub ab_nodes: u64,
    /// A cell stops undecided after this many seconds of play (default: only --games stops it).
    #[arg(long, value_parser = parse_seconds)]
    pub cell_seconds: Option<f64>,
    /// The family-wise error of the run's tests (spent equally over its cells).
    #[arg(long, default_value_t = 0.05, value_parser = parse_probability)]
    pub alpha: f64,
    /// A score within ½ ± this is balanced.
    #[arg(long, default_value_t = 0.05, value_parser = parse_probability)]
    pub margin: f64,
    /// Add the perfect player as a third family where the solver solves the start within
    /// this many positions (`solver:nodes=N` against itself); calibration leaves it out
    #[arg(long)]
    pub perfect: Option<u64>,
    /// Play nothing: read the cells' games already in --out and write the results from them.
    #[arg(long)]
    pub read_only: bool,
    /// The run's seed (the replication's is fixed from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// A list of whole numbers, weakest rung first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rungs(pub Vec<u64>);

fn parse_rungs(text: &str) -> Result<Rungs, String> {
    if text.trim().is_empty() {
        return Ok(Rungs(Vec::new()));
    }
    text.split(',')
        .map(|t| match t.trim().parse::<u64>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!("'{t}' is not a whole number of at least 1")),
        })
        .collect::<Result<Vec<u64>, String>>()
        .map(Rungs)
}

/// A number strictly between 0 and 1.
fn parse_probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if p > 0.0 && p < 1.0 => Ok(p),
        _ => Err(format!("'{text}' is not a number between 0 and 1")),
    }
}

/// A positive, finite number of seconds.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err(format!("'{text}' is not a positive number of seconds")),
    }
}

/// Arguments of `arena play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game spec.
    #[arg(long, value_parser = parse_game)]
    pub game: AnyGame,
    /// The agent to play against.
    #[arg(long, value_parser = parse_agent)]
    pub agent: LabelledSpec,
    /// You move first (the default).
    #[arg(long, conflicts_with = "second")]
    pub first: bool,
    /// The agent moves first.
    #[arg(long)]
    pub second: bool,
    /// The seed (the start, the agent's choices).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Append the finished game to this games CSV (game 0 if you moved first, 1 if second).
    #[arg(long)]
    pub save: Option<std::path::PathBuf>,
}

/// Arguments of `arena gtp`.
#[derive(Debug, Args)]
pub struct GtpArgs {
    /// The game spec to start with (`boardsize` and `ringside-game` change it).
    #[arg(long, value_parser = parse_game, default_value = "havannah")]
    pub game: AnyGame,
    /// The agent spec that answers `genmove`.
    #[arg(long, value_parser = parse_agent)]
    pub agent: LabelledSpec,
    /// The agent's seed (it is built afresh with it at every `clear_board`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The notation moves are read and answered in: `ringside`, or one the game knows
    /// (`hexgui` for Hex, as HexGui, Benzene and MoHex write moves; `castro` for Havannah).
    #[arg(long, default_value = "ringside", value_parser = parse_coords)]
    pub coords: Coords,
}

/// The tuning methods.
#[derive(Debug, Subcommand)]
pub enum TuneCommand {
    /// Texel tuning: fit the weights so that σ(K·eval) predicts the results of recorded games.
    ///
    /// Reads games CSVs (with their sidecars; every game is replayed and checked), keeps the
    /// positions the options select, fits K with the starting weights and then the weights
    /// (Levenberg–Marquardt) on a training split, reporting a held-out validation split.
    /// Writes weights.json (load it with `weights=FILE`), tune.csv, summary.md and losses.svg
    /// into --out.
    Texel(TexelArgs),
    /// A network evaluation: one hidden layer over the board's cells (two accumulators, one
    /// a colour's view, NNUE's form), trained so that σ(K·v) predicts the positions' labels.
    ///
    /// Reads games CSVs as `texel` does (every game replayed and checked), replaces each
    /// kept position by the leaf of a short search with --eval, fits K with --eval's weights
    /// (so the net keeps their material units), blends the labels, and trains with Adam on a
    /// training split, keeping the net with the lowest loss on the held-out games. Writes
    /// net.rsnet (play it with `eval=net,net=FILE`), tune.csv, summary.md and losses.svg into
    /// --out.
    Net(NetArgs),
    /// SPSA as fishtest runs it: θ+ against θ− in colour-swapped pairs, θ stepped by the
    /// result; resumable; ends with a match of the tuned agent against the start.
    ///
    /// Writes spsa.settings.json, spsa.csv (one row an iteration), theta-NAME.svg,
    /// verify.csv and summary.md into --out. Running the same command again resumes it.
    Spsa(Box<SpsaArgs>),
    /// Move shapes: the Bradley–Terry strength of each local shape around a move, fitted
    /// (minorization–maximization, Coulom's prior) to the moves recorded players chose.
    ///
    /// Reads games CSVs as `texel` does (every game replayed and checked); at each kept
    /// position whose mover is learned from, the chosen move's shape contests its legal
    /// moves' shapes. Writes shapes.txt (`shape ln_gamma chosen offered` lines after a `#`
    /// header, the format Havannah's shipped `shape` knowledge term reads) and summary.md
    /// (each step's log-probability of the chosen moves, training and held out) into --out.
    /// An MCTS agent plays the fit with `shapes=OUT/shapes.txt` beside `know.shape=W`.
    Shapes(ShapesArgs),
    /// AlphaZero's loop: PUCT self-play with a policy-value network, the next network trained
    /// in PyTorch on the games' visits and results, a gate match against the best.
    ///
    /// Generation g self-plays with the best network so far (Dirichlet noise at the root,
    /// moves drawn by visits for the first plies); `PY -m ringside.zero train` (the Python
    /// package with its `learn` extra) trains the next on the last --window generations'
    /// samples, each position under a symmetry of the board; it then plays the best in a
    /// colour-swapped gate match and, if given, the --reference agent. Writes gen-NNN/
    /// (net.rspvn: play it with `mcts:pv=FILE`), generations.csv, losses.svg, strength.svg and
    /// summary.md into --out. Running the same command again resumes it.
    Zero(Box<ZeroArgs>),
}

/// Which recorded positions a tuner keeps (`tune texel`, `tune net`).
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// Skip positions before this ply (the random opening's).
    #[arg(long, default_value_t = 0)]
    pub skip_plies: u32,
    /// Keep at most N positions a game, drawn from the seed (default: all).
    #[arg(long)]
    pub per_game: Option<u32>,
    /// Drop positions within D plies of the game's end.
    #[arg(long, default_value_t = 0)]
    pub drop_decided: u32,
    /// The share of games held out for validation.
    #[arg(long, default_value_t = 0.2)]
    pub validation: f64,
    /// How games are held out: `id`, each game by its id; or `distinct`, every copy of a
    /// game (a deterministic self-play twin) on the same side. Default: `distinct` for `tune
    /// net`, `id` for the others (what their committed results used).
    #[arg(long)]
    pub split: Option<String>,
    /// The share of games held out for the test, beside validation: scored once, by the
    /// kept result. Default: 0.1 for `tune net`, 0 for the others.
    #[arg(long)]
    pub test: Option<f64>,
}

/// Arguments of `arena tune texel`.
#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
pub struct TexelArgs {
    /// Games CSVs of one game (each with its FILE.settings.json sidecar).
    #[arg(required = true)]
    pub files: Vec<std::path::PathBuf>,
    /// The folder for the outputs.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// The evaluation to start from: material or rich.
    #[arg(long, default_value = "rich")]
    pub eval: String,
    /// A weights file applied over --eval's weights.
    #[arg(long)]
    pub weights: Option<String>,
    /// Which positions of the games are kept, and the validation split.
    #[command(flatten)]
    pub positions: PositionArgs,
    /// Most Levenberg–Marquardt iterations.
    #[arg(long, default_value_t = 100)]
    pub iterations: u32,
    /// L2 penalty λ on the weights' moves from the start: λ Σ (K sⱼ)² (wⱼ − w⁰ⱼ)².
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Measure the penalty plainly (sⱼ = 1), not in units of each feature's standard deviation.
    #[arg(long)]
    pub no_scale: bool,
    /// Hold a weight fixed: NAME=VALUE, or NAME at its start. Repeat for more. `material` is
    /// held at its start unless --free-material.
    #[arg(long = "fix")]
    pub fix: Vec<String>,
    /// Let `material` move too (then only K and the other weights' ratios carry the scale).
    #[arg(long)]
    pub free_material: bool,
    /// Replace each position by the leaf of a depth-D alpha-beta search from it, with the
    /// starting evaluation (0: the positions as recorded).
    #[arg(long, default_value_t = 0)]
    pub leaf_depth: u32,
    /// The label's blend: λ × result + (1 − λ) × σ(K × the leaf search's value); needs
    /// --leaf-depth when below 1.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// The seed of the sampling and the split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Arguments of `arena tune shapes`.
#[derive(Debug, Args)]
pub struct ShapesArgs {
    /// Games CSVs of one game (each with its FILE.settings.json sidecar).
    #[arg(required = true)]
    pub files: Vec<std::path::PathBuf>,
    /// The folder for the outputs.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Learn only the moves of agents whose label contains TEXT (default: every agent's).
    /// A label is the agent's spec as given, file paths and all; `summary.md` lists the
    /// agents matched.
    #[arg(long, value_name = "TEXT")]
    pub learn: Option<String>,
    /// Minorization–maximization steps.
    #[arg(long, default_value_t = 40)]
    pub iterations: u32,
    /// Write only the shapes offered at least N times in training.
    #[arg(long, default_value_t = 1)]
    pub min_seen: u64,
    /// Fit each shape once for each context the game gives it (Havannah: the distance to the
    /// last stone, 1, 2 or 3 and more); the file's keys are then `shape + 16777216 × context`.
    #[arg(long)]
    pub context: bool,
    /// Fit the wide shapes (Havannah: the 18 cells within distance 2) in place of the shapes;
    /// keys are then 2^48 + wide shape (+ 2^40 × context).
    #[arg(long)]
    pub wide: bool,
    /// Fit over this shapes file, as a residual: each move's strength is FILE's (as a player
    /// reads it) times its shape's; writes FILE's lines with the fit's. --iterations 0 scores
    /// FILE as played.
    #[arg(long, value_name = "FILE")]
    pub over: Option<std::path::PathBuf>,
    /// Which positions of the games are kept, and the validation split.
    #[command(flatten)]
    pub positions: PositionArgs,
    /// The seed of the sampling and the split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads for the replays (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Arguments of `arena tune net`.
#[derive(Debug, Args)]
pub struct NetArgs {
    /// Games CSVs of one game (each with its FILE.settings.json sidecar).
    #[arg(required = true)]
    pub files: Vec<std::path::PathBuf>,
    /// The folder for the outputs.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// The linear evaluation whose K sets the net's scale, and the leaf search's: material,
    /// rich or tuned.
    #[arg(long, default_value = "tuned")]
    pub eval: String,
    /// Hidden units of each colour's accumulator.
    #[arg(long, default_value_t = 64)]
    pub hidden: usize,
    /// Read the game's features too, starting from --eval's weights for them: the net starts
    /// as that evaluation and learns what it misses.
    #[arg(long)]
    pub features: bool,
    /// Which positions of the games are kept, and the validation split.
    #[command(flatten)]
    pub positions: PositionArgs,
    /// Replace each position by the leaf of a depth-D alpha-beta search from it, with --eval
    /// (0: the positions as recorded).
    #[arg(long, default_value_t = 1)]
    pub leaf_depth: u32,
    /// The label's blend: λ × result + (1 − λ) × σ(K × the leaf search's value).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Search from N children of each kept position by distinct random legal moves (drawn
    /// from the game's seed; all when fewer): positions off the game's path, the siblings a
    /// search compares. 0: the position itself.
    #[arg(long, default_value_t = 0)]
    pub children: u32,
    /// Keep the searched position itself, labelled with the search's value, not its leaf: the
    /// net learns what the search sees one step further.
    #[arg(long)]
    pub keep_searched: bool,
    /// Write the net even when training learned nothing (K fitted to 0 with λ = 0, or no
    /// epoch below the start's validation loss), which otherwise exits 2 writing nothing.
    #[arg(long)]
    pub write_anyway: bool,
    /// What training minimises: `chance`, Texel's (σ(K·v) − y)²; or `logit`, the error in
    /// logits (K·v − clamp(logit y, ±6))², which keeps the scale of decided positions (for
    /// labels from a search).
    #[arg(long, default_value = "chance")]
    pub loss: String,
    /// Most passes over the training positions.
    #[arg(long, default_value_t = 30)]
    pub epochs: u32,
    /// Positions a step.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Adam's step size at the start (halved after each epoch without progress).
    #[arg(long, default_value_t = 0.002)]
    pub rate: f32,
    /// Epochs without a lower validation loss before training stops.
    #[arg(long, default_value_t = 3)]
    pub patience: u32,
    /// The seed of the sampling, the split, the starting weights and the order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `arena tune spsa`.
#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
pub struct SpsaArgs {
    /// The game spec.
    #[arg(long, value_parser = parse_game)]
    pub game: AnyGame,
    /// The agent to tune, for example `mcts:iters=300` or `alphabeta:depth=2,eval=rich`.
    #[arg(long, value_parser = parse_agent)]
    pub agent: LabelledSpec,
    /// A parameter, fishtest's format: `name,start,min,max,c_end[,r_end]`. The name is an option
    /// of the agent (c, a, k, playout, depth, ...) or a weight w.FEATURE. Repeat for more.
    #[arg(long = "param", required = true)]
    pub params: Vec<String>,
    /// SPSA iterations.
    #[arg(long, default_value_t = 100)]
    pub iterations: u64,
    /// Colour-swapped game pairs an iteration (θ+ against θ−), played in parallel.
    #[arg(long, default_value_t = 4)]
    pub pairs: u64,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random opening plies of every game.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Stop games after this many plies (scored as draws).
    #[arg(long)]
    pub ply_cap: Option<u32>,
    /// Games of the final match of the tuned agent against the start (even; 0 for none).
    #[arg(long, default_value_t = 200)]
    pub verify_games: u64,
    /// The folder for the outputs (rerun to resume).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `arena tune zero`.
#[derive(Debug, Args)]
pub struct ZeroArgs {
    /// The game spec (a game with a grid: Connect Four, Hex, Havannah).
    #[arg(long, value_parser = parse_game)]
    pub game: AnyGame,
    /// Generations.
    #[arg(long, default_value_t = 10)]
    pub generations: u32,
    /// Self-play games a generation.
    #[arg(long, default_value_t = 200)]
    pub games: u32,
    /// PUCT's simulations a move (self-play and matches).
    #[arg(long, default_value_t = 200)]
    pub iters: u32,
    /// PUCT's exploration constant (OpenSpiel's uct_c).
    #[arg(long, default_value_t = 2.0)]
    pub puct: f64,
    /// The share of Dirichlet noise in the root's prior in self-play (OpenSpiel's
    /// policy_epsilon).
    #[arg(long, default_value_t = 0.25)]
    pub noise: f64,
    /// The noise's Dirichlet α (OpenSpiel's policy_alpha).
    #[arg(long, default_value_t = 1.0)]
    pub alpha: f64,
    /// Plies whose moves are drawn in proportion to the visits (OpenSpiel's
    /// temperature_drop).
    #[arg(long, default_value_t = 10)]
    pub temperature_plies: u32,
    /// The most plies of a game (a stopped game counts as drawn).
    #[arg(long, default_value_t = 1000)]
    pub ply_cap: u32,
    /// Trunk layers of the network.
    #[arg(long, default_value_t = 4)]
    pub layers: u32,
    /// Channels of the trunk.
    #[arg(long, default_value_t = 32)]
    pub channels: u32,
    /// Hidden width of the value head.
    #[arg(long, default_value_t = 32)]
    pub hidden: u32,
    /// Passes over the samples a generation.
    #[arg(long, default_value_t = 2)]
    pub epochs: u32,
    /// Positions a training step.
    #[arg(long, default_value_t = 128)]
    pub batch: u32,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f64,
    /// Generations of samples trained on (the replay buffer).
    #[arg(long, default_value_t = 4)]
    pub window: u32,
    /// Games of each gate match, new network against the best (even; 0: take every new
    /// network).
    #[arg(long, default_value_t = 40)]
    pub gate_games: u64,
    /// The score the new network needs in the gate to become the best.
    #[arg(long, default_value_t = 0.5)]
    pub gate_score: f64,
    /// An SPRT deciding the gate early, `elo0,elo1,alpha,beta[,logistic|normalized]` as
    /// `arena match --sprt` takes it: H1 takes the new network, H0 keeps the best, and a gate
    /// undecided after --gate-games is decided by --gate-score.
    #[arg(long)]
    pub gate_sprt: Option<String>,
    /// Random opening plies of the matches' games.
    #[arg(long, default_value_t = 2)]
    pub opening_plies: u32,
    /// An agent every generation's network plays, for the strength figure.
    #[arg(long)]
    pub reference: Option<String>,
    /// Games of each reference match (even).
    #[arg(long, default_value_t = 40)]
    pub reference_games: u64,
    /// Resign a self-play game when the mover's search values its move below this (a mean
    /// reward from -1 to 1; AlphaGo Zero's v_resign); default: play every game out.
    #[arg(long, allow_hyphen_values = true)]
    pub resign: Option<f64>,
    /// The share of self-play games played out past a resignation, to count false ones.
    #[arg(long, default_value_t = 0.1)]
    pub resign_check: f64,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The Python that trains (with the ringside package and PyTorch).
    #[arg(long, default_value = "python3")]
    pub python: String,
    /// The folder for the outputs (rerun to resume).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress lines.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `arena features`.
#[derive(Debug, Args)]
pub struct FeaturesArgs {
    /// The game spec.
    #[arg(long, value_parser = parse_game)]
    pub game: AnyGame,
    /// Moves to play from the start first; then the values are printed too.
    #[arg(long, allow_hyphen_values = true)]
    pub moves: Option<String>,
}

/// Arguments of `arena run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The experiment file.
    #[arg(default_value = "experiments/life-seed-tables.toml")]
    pub experiment: std::path::PathBuf,
    /// The folder that receives `NAME/`.
    #[arg(long, default_value = "results")]
    pub results: std::path::PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// On a finished run, do not re-play its games to check that they reproduce.
    #[arg(long)]
    pub no_verify: bool,
}

/// Arguments of `arena report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The game spec, for example `hexxagon:side=4`.
    #[arg(long, value_parser = parse_game)]
    pub game: AnyGame,
    /// `standard` (the committed reports), `light` (fewer games and a shorter skill curve, for
    /// games whose MCTS games run to hundreds of plies) or `tiny` (a few games, a first look).
    #[arg(long, default_value = "standard")]
    pub budget: String,
    /// The report's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The report's folder (default: results/reports/GAME, the spec with `:` and `,` as `_`).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `arena summary`.
#[derive(Debug, Args)]
pub struct SummaryArgs {
    /// The games CSV (its settings sidecar must be beside it).
    pub csv: std::path::PathBuf,
    /// Also write summary.md and summary.csv into this folder.
    #[arg(long)]
    pub out_dir: Option<std::path::PathBuf>,
}

/// Arguments of `arena verdicts`.
#[derive(Debug, Args)]
pub struct VerdictsArgs {
    /// The games CSVs (each with its settings sidecar beside it).
    #[arg(required = true, num_args = 1..)]
    pub csvs: Vec<std::path::PathBuf>,
}

/// Arguments of `arena merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard CSVs.
    #[arg(required = true, num_args = 1..)]
    pub inputs: Vec<std::path::PathBuf>,
    /// The merged CSV to write (it must not exist yet, unless --replace). Written under a
    /// temporary name and renamed into place, so a kill leaves either nothing or the whole file.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Replace --out if it exists (merging again once a missing shard is played). The old file
    /// stays whole until the new one is complete, so a merge that fails keeps it.
    #[arg(long)]
    pub replace: bool,
}

/// Arguments of `arena slurm-shard`.
#[derive(Debug, Args)]
pub struct SlurmShardArgs {
    /// The array record: written by the first array's tasks, read by later ones (one per
    /// match; tools/slurm/match.sbatch keeps it as OUT_DIR/array.json).
    #[arg(long)]
    pub record: std::path::PathBuf,
}

/// A game spec read into its game: clap reports a spec that does not parse, as one line.
fn parse_game(text: &str) -> Result<AnyGame, String> {
    AnyGame::parse(text).map_err(|e| e.to_string())
}

/// An agent spec read (a `weights=FILE` read from disk), its text kept as its label.
fn parse_agent(text: &str) -> Result<LabelledSpec, String> {
    LabelledSpec::parse(text).map_err(|e| e.to_string())
}

/// A notation's name read into the notation.
fn parse_coords(text: &str) -> Result<Coords, String> {
    Coords::from_name(text).ok_or_else(|| format!("must be one of {}", Coords::NAMES.join("|")))
}

/// What `--shard` says: a shard, or `auto` (the Slurm job array's task, read when the run
/// starts).
#[derive(Debug, Clone, Copy)]
pub enum ShardArg {
    /// `auto`.
    Auto,
    /// `i/n`.
    Given(Shard),
}

fn parse_shard(text: &str) -> Result<ShardArg, String> {
    match text {
        "auto" => Ok(ShardArg::Auto),
        _ => Shard::parse(text)
            .map(ShardArg::Given)
            .map_err(|e| e.message),
    }
}

fn parse_sprt(text: &str) -> Result<SprtConfig, String> {
    SprtConfig::parse(text).map_err(|e| e.message)
}

/// Arguments of `arena replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The game spec, for example `rin` or `rin:size=8`.
    #[arg(long, value_parser = parse_game, required_unless_present = "from", conflicts_with = "from")]
    pub game: Option<AnyGame>,
    /// The moves in the game's notation, separated by spaces (for Rin: `j9 b6 c10`).
    #[arg(
        long,
        allow_hyphen_values = true,
        required_unless_present = "from",
        conflicts_with = "from"
    )]
    pub moves: Option<String>,
    /// Replay a game of a games CSV instead (with --id).
    #[arg(long, requires = "id")]
    pub from: Option<std::path::PathBuf>,
    /// The game's id in the CSV.
    #[arg(long, requires = "from")]
    pub id: Option<u64>,
    /// Print the position after every ply, not only the last.
    #[arg(long)]
    pub every: bool,
    /// Print one JSON object: game, plies, to_move, board (rows top to bottom), result, score.
    #[arg(long)]
    pub json: bool,
    /// Also draw the final position (or the one at --ply) as an SVG file, with coordinates
    /// and the last move ringed.
    #[arg(long)]
    pub svg: Option<std::path::PathBuf>,
    /// The position to draw with --svg: after K moves.
    #[arg(long, requires = "svg")]
    pub ply: Option<usize>,
    /// Also write one self-contained HTML page that steps through the whole game (buttons,
    /// arrow keys, the move list).
    #[arg(long)]
    pub html: Option<std::path::PathBuf>,
}

/// Arguments of `arena playouts`.
#[derive(Debug, Args)]
pub struct PlayoutsArgs {
    /// The game spec, for example `rin` or `rin:size=8`.
    #[arg(long, value_parser = parse_game)]
    pub game: AnyGame,
    /// How many games to play.
    #[arg(short = 'n', long = "games", default_value_t = 10_000)]
    pub games: u64,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Stop a game after this many plies and count it as capped (games that never end).
    #[arg(long)]
    pub max_plies: Option<u32>,
}

/// The agent kinds, for `arena agents`.
pub fn agents_text() -> String {
    let mut out = String::new();
    for (kind, keys) in ringside_agents::spec::agent_kinds() {
        out.push_str(&format!("{kind:<10} {keys}\n"));
    }
    out
}

/// The registry's games, for `arena games`.
pub fn games_text() -> String {
    let mut out = String::new();
    for g in GAMES {
        out.push_str(&format!("{:<12} {}\n", g.name, g.about));
        if g.options.is_empty() {
            out.push_str(&format!("{:<12} options: none\n", ""));
        }
        for option in g.options {
            out.push_str(&format!(
                "{:<12} {:<28} {}\n",
                "",
                option.synopsis(),
                option.help
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}

/// Arguments of `arena serve`.
#[cfg(feature = "serve")]
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The folders whose runs to show.
    #[arg(default_value = "results")]
    pub folders: Vec<std::path::PathBuf>,
    /// The address to listen on: 127.0.0.1 (this machine only) unless another is given,
    /// such as 0.0.0.0 to let other machines see the pages.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// The port (0: any free port, printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
}
