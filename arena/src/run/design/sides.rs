//! The report's first-player part: how much moving first is worth across board sizes, with and
//! without the swap rule where the game has one, under a weak and a strong player.
//!
//! Each board is a run of its own (`first-player/<spec>/games.csv`) with two self-play
//! pairings, the weak player against itself and the strong one against itself. The first
//! colour's score has a 95% Wilson interval; each cell's "no advantage" is tested by the
//! exact sign test on the first colour's wins and losses (draws set aside; the two games of a
//! pair share their random opening, which this test ignores), and the p-values are adjusted
//! by Holm–Bonferroni over every cell of the part. A cell that shows an advantage is played
//! again from a fresh seed fixed before the run (`first-player-replication/<board>/`), tested
//! the same way with Holm over the replicated cells; a side is called *favoured* only when the
//! replication shows the same side.

use std::fmt::Write as _;
use std::path::Path;

use ringside_engine::registry::AnyGame;

use crate::error::Result;
use crate::figures::plot::{Bars, Bounds, Labels, interval_plot_svg};
use crate::figures::stats::{Wdl, Z95, holm, sign_test, wilson};
use crate::figures::summary::Tally;
use crate::records::durable::write_atomically;

/// The boards of the part: up to `count` admissible sizes around the report's own (one below
/// it where there is one, then upward), each without and, where the game has a swap rule,
/// with it, smallest first. A game with one board gives that board (and its swap variants).
#[must_use]
pub fn boards(game: &AnyGame, count: usize) -> Vec<AnyGame> {
    let sized: Vec<AnyGame> = match game.board_size() {
        None => vec![game.clone()],
        Some(own) => {
            let all: Vec<AnyGame> = (1..=32)
                .filter_map(|n| game.with_board_size(n).ok())
                .collect();
            let at = all
                .iter()
                .position(|g| g.board_size().map(|b| b.value) == Some(own.value))
                .unwrap_or(0);
            let start = at.saturating_sub(1).min(all.len().saturating_sub(count));
            all.into_iter().skip(start).take(count).collect()
        }
    };
    sized
        .iter()
        .flat_map(
            |g| match (g.with_option("swap", "off"), g.with_option("swap", "on")) {
                (Ok(off), Ok(on)) => vec![off, on],
                _ => vec![g.clone()],
            },
        )
        .collect()
}

/// The swap rule of a board: `None` when the game has none.
#[must_use]
pub fn swap_of(game: &AnyGame) -> Option<bool> {
    let on = game.with_option("swap", "on").ok()?;
    Some(&on == game)
}

/// One cell: a board and a player against itself.
#[derive(Debug, Clone, PartialEq)]
pub struct SideCell {
    /// The board's spec.
    pub game: String,
    /// Its board size, if it has a size option.
    pub size: Option<usize>,
    /// Its swap rule, if it has one.
    pub swap: Option<bool>,
    /// The player (agent spec) on both sides.
    pub player: String,
    /// The first colour's wins, draws and losses.
    pub first: Wdl,
    /// The sign test's p-value of "no first-player advantage".
    pub p: f64,
    /// `p` adjusted by Holm–Bonferroni over the part's cells (set by [`adjust`]).
    pub holm: f64,
    /// The replication, played when this run shows an advantage.
    pub replication: Option<Replication>,
}

/// A cell played again from a fresh seed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Replication {
    /// The first colour's wins, draws and losses.
    pub first: Wdl,
    /// The sign test's p-value.
    pub p: f64,
    /// `p` adjusted by Holm–Bonferroni over the replicated cells (set by [`adjust`]).
    pub holm: f64,
}

impl Replication {
    /// The replication's results, with its sign test (Holm's adjustment is set by [`adjust`]).
    #[must_use]
    pub fn of(first: Wdl) -> Replication {
        Replication {
            first,
            p: sign_test(first.w, first.l),
            holm: 1.0,
        }
    }
}

/// The side a test shows favoured at family-wise 5%: `Some(true)` the first colour,
/// `Some(false)` the second, `None` neither.
#[must_use]
pub fn shown(first: Wdl, holm: f64) -> Option<bool> {
    (holm <= 0.05 && first.w != first.l).then_some(first.w > first.l)
}

/// The cells of one board's run: pairing `i` is `players[i]` against itself.
#[must_use]
pub fn cells(board: &AnyGame, players: &[&str], tally: &Tally) -> Vec<SideCell> {
    players
        .iter()
        .enumerate()
        .filter_map(|(i, player)| {
            let first = tally.pairing(i)?.first_player;
            Some(SideCell {
                game: board.spec(),
                size: board.board_size().map(|b| b.value),
                swap: swap_of(board),
                player: (*player).to_string(),
                first,
                p: sign_test(first.w, first.l),
                holm: 1.0,
                replication: None,
            })
        })
        .collect()
}

/// Sets each cell's Holm-adjusted p over all `cells`, and each replication's over the
/// replicated cells.
pub fn adjust(cells: &mut [SideCell]) {
    let p: Vec<f64> = cells.iter().map(|c| c.p).collect();
    for (c, h) in cells.iter_mut().zip(holm(&p)) {
        c.holm = h;
    }
    let p: Vec<f64> = cells
        .iter()
        .filter_map(|c| c.replication.map(|r| r.p))
        .collect();
    let mut adjusted = holm(&p).into_iter();
    for r in cells.iter_mut().filter_map(|c| c.replication.as_mut()) {
        r.holm = adjusted.next().unwrap_or(1.0);
    }
}

/// What a cell shows: the favoured side when the run and its replication both show it, "did
/// not replicate" when only the run does.
#[must_use]
pub fn verdict(cell: &SideCell) -> &'static str {
    let Some(side) = shown(cell.first, cell.holm) else {
        return "not shown";
    };
    match cell.replication.and_then(|r| shown(r.first, r.holm)) {
        Some(again) if again == side => {
            if side {
                "first player"
            } else {
                "second player"
            }
        }
        _ => "did not replicate",
    }
}

/// The part's section of the report, and its figure `first-player.svg` in `dir`.
pub fn markdown(dir: &Path, cells: &[SideCell], games: u64) -> Result<String> {
    let mut md = format!(
        "## First-player advantage across board sizes\n\nEach board (`first-player/<board>/games.csv`) with each player against itself, {games} games a cell: the first colour's score with its 95% Wilson interval, and the exact sign test of \"no advantage\" on its wins and losses (draws set aside), adjusted by Holm–Bonferroni over the {} cells. Each cell whose adjusted p is at most 0.05 is played again, {games} games from a fresh seed fixed before the run (`first-player-replication/<board>/games.csv`), and tested the same way with Holm over the {} replicated cells. A side is *favoured* only when both runs show it.\n\n| board | swap | player | first colour W-D-L | first colour's score | p | Holm p | replication W-D-L | its Holm p | favoured |\n|---|---|---|---|---|---|---|---|---|---|\n",
        cells.len(),
        cells.iter().filter(|c| c.replication.is_some()).count()
    );
    for c in cells {
        let n = c.first.n() as f64;
        let (lo, hi) = wilson(c.first.score(), n, Z95);
        let _ = writeln!(
            md,
            "| `{}` | {} | `{}` | {}-{}-{} | {:.3} [{:.3}, {:.3}] | {:.4} | {:.4} | {} | {} | {} |",
            c.game,
            match c.swap {
                None => "–",
                Some(true) => "on",
                Some(false) => "off",
            },
            c.player,
            c.first.w,
            c.first.d,
            c.first.l,
            c.first.score(),
            lo,
            hi,
            c.p,
            c.holm,
            c.replication.map_or("–".to_string(), |r| format!(
                "{}-{}-{}",
                r.first.w, r.first.d, r.first.l
            )),
            c.replication
                .map_or("–".to_string(), |r| format!("{:.4}", r.holm)),
            verdict(c)
        );
    }
    // One series a player and swap rule, x the board sizes.
    let mut sizes: Vec<Option<usize>> = cells.iter().map(|c| c.size).collect();
    sizes.dedup();
    let names: Vec<String> = sizes
        .iter()
        .map(|s| s.map_or_else(|| "the board".to_string(), |n| n.to_string()))
        .collect();
    let mut series: Vec<Bars> = Vec::new();
    for c in cells {
        let name = match c.swap {
            Some(true) => format!("{} (swap)", c.player),
            _ => c.player.clone(),
        };
        let x = sizes.iter().position(|s| *s == c.size).unwrap_or(0) as f64;
        let (lo, hi) = wilson(c.first.score(), c.first.n() as f64, Z95);
        let point = (x, c.first.score(), lo, hi);
        match series.iter_mut().find(|s| s.name == name) {
            Some(s) => s.points.push(point),
            None => series.push(Bars {
                name,
                points: vec![point],
                open_at: Vec::new(),
            }),
        }
    }
    let labels = Labels {
        title: "first colour's score in self-play",
        x: "board size",
        y: "first colour's score",
    };
    write_atomically(
        &dir.join("first-player.svg"),
        interval_plot_svg(labels, &series, Some(&names), Bounds::SHARE)?.as_bytes(),
    )?;
    md.push_str("\n![first-player advantage](first-player.svg)\n\n");
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs(game: &str, count: usize) -> Vec<String> {
        boards(&AnyGame::parse(game).unwrap(), count)
            .iter()
            .map(AnyGame::spec)
            .collect()
    }

    #[test]
    fn boards_surround_the_reports_size_and_add_the_swap_rule_where_there_is_one() {
        assert_eq!(
            specs("havannah:size=5", 3),
            [
                "havannah:size=4",
                "havannah:size=4,swap=on",
                "havannah:size=5",
                "havannah:size=5,swap=on",
                "havannah:size=6",
                "havannah:size=6,swap=on"
            ]
        );
        // Rin's smallest board starts the window; its sizes go in steps of two.
        assert_eq!(
            specs("rin:size=6", 3),
            ["rin:size=6", "rin:size=8", "rin:size=10"]
        );
        // At the largest board the window ends there.
        assert_eq!(
            specs("rin", 2),
            ["rin:size=14", "rin"] // 16 is the default, so its spec has no size.
        );
        // One board: itself.
        assert_eq!(specs("life", 3), ["life"]);
    }

    #[test]
    fn a_cell_is_favoured_only_when_its_adjusted_test_says_so() {
        let cell = |w, l| SideCell {
            game: "rin".into(),
            size: Some(16),
            swap: None,
            player: "random".into(),
            first: Wdl { w, d: 0, l },
            p: sign_test(w, l),
            holm: 1.0,
            replication: None,
        };
        let again = |c: &mut SideCell, w, l| {
            c.replication = Some(Replication::of(Wdl { w, d: 0, l }));
        };
        // 9-1 alone: p = 22/1024 ≈ 0.021; with a second cell (p 1) Holm doubles it: 0.043.
        let mut cells = vec![cell(9, 1), cell(5, 5)];
        adjust(&mut cells);
        assert!((cells[0].holm - 44.0 / 1024.0).abs() < 1e-12);
        // Shown, but without a replication it is no verdict.
        assert_eq!(shown(cells[0].first, cells[0].holm), Some(true));
        assert_eq!(verdict(&cells[0]), "did not replicate");
        assert_eq!(verdict(&cells[1]), "not shown");
        // Replicated 10-0 (p 2/1024, the only replicated cell): favoured.
        again(&mut cells[0], 10, 0);
        adjust(&mut cells);
        assert_eq!(verdict(&cells[0]), "first player");
        // A replication that leans the other way, or not far enough, does not confirm it.
        again(&mut cells[0], 0, 10);
        adjust(&mut cells);
        assert_eq!(verdict(&cells[0]), "did not replicate");
        again(&mut cells[0], 7, 3);
        adjust(&mut cells);
        assert_eq!(verdict(&cells[0]), "did not replicate");
        // A third cell at 1-9 makes three tests: 0.021 × 3 = 0.064, no longer shown.
        let mut cells = vec![cell(9, 1), cell(5, 5), cell(1, 9)];
        adjust(&mut cells);
        assert_eq!(verdict(&cells[0]), "not shown");
        let mut cells = vec![cell(1, 19), cell(5, 5)];
        again(&mut cells[0], 2, 18);
        adjust(&mut cells);
        assert_eq!(verdict(&cells[0]), "second player");
    }
}
