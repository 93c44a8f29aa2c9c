//! The report's balance part: who is favoured on the report's board (and with the swap,
//! where the game has one), asked of the balance instrument ([`crate::run::balance`]) with the
//! families and budget of [`super::Budget::balance`], and its section of the report.

use std::fmt::Write as _;
use std::path::Path;

use ringside_engine::registry::AnyGame;

use super::trace::capitalized;
use crate::error::Result;
use crate::run::balance;

/// Mixed into the report's seed for the balance part.
const BALANCE: u64 = 0xBA1A;

/// What the report's balance part plays ([`super::Budget::balance`]).
#[derive(Debug, Clone, PartialEq)]
pub struct BalanceBudget {
    /// MCTS's rungs: iterations a move, weakest first.
    pub iters: Vec<u64>,
    /// Alpha-beta's rungs: depths, weakest first.
    pub depths: Vec<u32>,
    /// Alpha-beta's most positions a move.
    pub nodes: u64,
    /// The most games a cell plays.
    pub games: u64,
    /// A cell stops undecided after this many seconds of play.
    pub cell_seconds: Option<f64>,
    /// The solver's positions for the perfect family ([`balance::Settings::perfect`]).
    pub perfect: u64,
}

/// The balance instrument's run on one board of a report.
#[derive(Debug, Clone)]
pub struct BalancePart {
    /// The board.
    pub board: AnyGame,
    /// Its folder in the report.
    pub folder: String,
    /// Every cell, first runs then replications.
    pub cells: Vec<balance::Cell>,
    /// The verdict.
    pub verdict: balance::Verdict,
}

/// Plays (or reads) the balance instrument on `game` and, where the game has one, with the
/// swap, into `dir/balance/` and `dir/balance-swap/`; each part and the seconds of play. A cell
/// whose time budget ran out is read as it stands, never extended by a later call, so the
/// report reads the same verdict every time it is rendered.
pub fn play(
    game: &AnyGame,
    dir: &Path,
    b: &BalanceBudget,
    seed: u64,
    threads: Option<usize>,
) -> Result<(Vec<BalancePart>, f64)> {
    let mut balances = Vec::new();
    let mut seconds = 0.0;
    let swapped = game.with_option("swap", "on").ok().filter(|g| g != game);
    for (board, folder) in [(game.clone(), "balance")]
        .into_iter()
        .chain(swapped.map(|g| (g, "balance-swap")))
    {
        let out = dir.join(folder);
        let settings = balance::Settings {
            game: board.clone(),
            families: balance::families(&b.iters, &b.depths, Some(b.nodes)),
            games: b.games,
            alpha: 0.05,
            margin: 0.05,
            seed: seed ^ BALANCE,
            threads,
            dir: out,
            cell_seconds: b.cell_seconds,
            play: true,
            extend: false,
            perfect: Some(b.perfect),
        };
        let (cells, verdict) = balance::run(&settings, &mut |_| {})?;
        seconds += cells.iter().map(|c| c.seconds).sum::<f64>();
        balances.push(BalancePart {
            board,
            folder: folder.to_string(),
            cells,
            verdict,
        });
    }
    Ok((balances, seconds))
}

/// The balance part's section of the report: the families, each cell, the verdict and, with
/// the swap, how the players decided it.
pub fn markdown(part: &BalancePart, b: &BalanceBudget) -> String {
    let spec = part.board.spec();
    let mut md = format!(
        "## Who is favoured on `{spec}`: the balance instrument\n\nTwo families of players, MCTS ({}) and alpha-beta with the `rich` evaluation (depths {}, at most {} positions a move, a move drawn among those within 0.05 of a stone of the best), each rung against itself from the start (`{}/`). Each cell is a sequential test: an anytime-valid confidence sequence of the first colour's score at 0.05 over the run's cells, stopping when its interval leaves out ½ (a side shown) or lies within ½ ± 0.05 (balanced), else at {} games{} (undecided). Every game counts; distinct games are shown beside, and games stopped by the ply cap are counted apart, never as draws. Each family's top rung that showed something is played again from a seed fixed before the run. A family's word is its top rung's only when the replication agrees, the rung below shows the same side, and the score does not fall toward ½ with strength; a side is *favoured* only when every family says so (the verdict is `arena balance`'s, calibrated on 34 boards of known value in `results/reports/README.md`).\n\n| family | rung | player | run | games | W-D-L | capped | distinct | first colour's score | shown | Holm p |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
        b.iters
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", ")
            + " iterations",
        b.depths
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        b.nodes,
        part.folder,
        b.games,
        b.cell_seconds
            .map_or(String::new(), |t| format!(" or {t:.0} s of play")),
    );
    for c in &part.cells {
        let f = &c.fold;
        let (lo, hi) = f.interval();
        let [w, d, l] = f.wdl;
        let _ = writeln!(
            md,
            "| {} | {} | `{}` | {} | {} | {w}-{d}-{l} | {} | {} | {:.3} [{lo:.3}, {hi:.3}] | {} | {:.4} |",
            c.family,
            c.rung,
            c.player,
            c.run.word(),
            f.counted(),
            f.capped,
            f.distinct(),
            f.score(),
            f.verdict().word(),
            c.holm,
        );
    }
    let _ = writeln!(md, "\n**Verdict: {}.**\n", part.verdict.text);
    if let Some(p) = &part.verdict.perfect {
        let _ = writeln!(md, "{}.\n", capitalized(p));
    }
    for w in &part.verdict.words {
        let _ = writeln!(md, "- {}: {}.", w.family, w.why);
    }
    if balance::has_swap(&part.board) {
        md.push_str("\nThe swap as the top rungs decided it (`swap.csv`: each first move, how often it was swapped, the first colour's score after it):\n\n");
        for (family, line) in balance::swap_lines(&part.cells) {
            let _ = writeln!(md, "- {family}: {line}.");
        }
    }
    md.push('\n');
    md
}
