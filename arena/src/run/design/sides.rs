//! The report's first-player part: how much moving first is worth across board sizes, with and
//! without the swap rule where the game has one, at several rungs of the skill ladder up to its
//! strongest two players, whatever their family.
//!
//! Each board and player is a cell: the player against itself. Players whose choices come
//! from their seed (MCTS, random, and alpha-beta, which plays here with `ties=random`) play
//! with no random opening, which would otherwise decide some games before the players do;
//! deterministic ones (an engine over GTP) play from the fewest random plies that give the
//! pairs distinct openings ([`distinct_opening_plies`]). A game played again move for move is
//! one observation: each cell's results are over its distinct games
//! ([`crate::figures::summary::Distinct::first`]). Openings stop before the swap's decision,
//! which the players make. The first colour's score has a 95% Wilson interval; each cell's "no advantage" is
//! tested by the exact sign test on the first colour's wins and losses (draws set aside),
//! adjusted by Holm–Bonferroni over every cell of the part, and each cell states its power:
//! the share of decisive games the first colour must win for the test to find it with 80%
//! probability at Holm's first threshold ([`detectable_share`]). A cell shown is played again
//! from a fresh seed fixed before the run (`first-player-replication/`), with Holm over the
//! replicated cells; a side is called *favoured* only when the replication shows the same
//! side. A cell with more than 10% of its games stopped by the ply cap is *unfinished*: its
//! games did not end, so it says nothing of who is favoured.

use std::fmt::Write as _;
use std::path::Path;

use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game};

use crate::error::Result;
use crate::figures::plot::{Bars, Bounds, Labels, interval_plot_svg};
use crate::figures::stats::{Wdl, Z95, detectable_share, holm, sign_test, wilson};
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
    /// The player's place on the skill ladder, weakest first (`None` off the ladder).
    pub rung: Option<usize>,
    /// Random opening plies of its games (at most; they stop before the swap's decision).
    pub opening: u32,
    /// Games played.
    pub games: u64,
    /// The first colour's wins, draws and losses over the distinct games (a game repeated
    /// move for move is one observation, not several).
    pub first: Wdl,
    /// Games stopped by the ply cap (as draws), of all played.
    pub capped: u64,
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

/// A player of the part: its label, its rung on the ladder, and whether it draws its choices
/// from its seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SidePlayer {
    /// The agent spec as typed.
    pub label: String,
    /// Its place on the ladder, weakest first.
    pub rung: Option<usize>,
    /// Whether it plays distinct games against itself with no random opening.
    pub seeded: bool,
}

/// The cells of one board's run of `players` (pairing `i` is `players[i]` against itself),
/// played with `opening` random plies. A cell's results are over its distinct games
/// ([`crate::figures::summary::Distinct::first`]): a game played again move for move (as a
/// player that draws little from its seed does, against itself) counts once, so a cell of
/// few distinct games tests as the few games it is.
#[must_use]
pub fn cells(
    board: &AnyGame,
    players: &[SidePlayer],
    opening: u32,
    tally: &Tally,
) -> Vec<SideCell> {
    players
        .iter()
        .enumerate()
        .filter_map(|(i, player)| {
            let p = tally.pairing(i)?;
            let first = p.distinct.first();
            Some(SideCell {
                game: board.spec(),
                size: board.board_size().map(|b| b.value),
                swap: swap_of(board),
                player: player.label.clone(),
                rung: player.rung,
                opening,
                games: p.first_player.n(),
                first,
                capped: p.capped,
                p: sign_test(first.w, first.l),
                holm: 1.0,
                replication: None,
            })
        })
        .collect()
}

/// The fewest random opening plies (at least 1, at most 8) for which `pairs` openings drawn
/// at random are expected to be 90% distinct, counting the lines of that many plies from the
/// start as if each were drawn uniformly: `L · (1 − (1 − 1/L)^pairs) ≥ 0.9 · pairs`.
#[must_use]
pub fn distinct_opening_plies(game: &AnyGame, pairs: u64) -> u32 {
    struct Lines {
        plies: u32,
        cap: f64,
    }
    impl GameVisitor for Lines {
        type Output = f64;
        fn visit<G: Game + Features>(self, start: G) -> f64 {
            fn count<G: Game>(state: &G, left: u32, cap: f64) -> f64 {
                if left == 0 || state.outcome().is_some() {
                    return 1.0;
                }
                let mut moves = Vec::new();
                state.legal_moves(&mut moves);
                let mut total = 0.0;
                for mv in moves {
                    let mut next = state.clone();
                    next.play_unchecked(mv);
                    total += count(&next, left - 1, cap);
                    if total >= cap {
                        break;
                    }
                }
                total
            }
            count(&start, self.plies, self.cap)
        }
    }
    let n = pairs.max(1) as f64;
    (1..=8)
        .find(|&plies| {
            let lines = game.visit(Lines {
                plies,
                cap: 100.0 * n,
            });
            lines * (1.0 - (1.0 - 1.0 / lines).powf(n)) >= 0.9 * n
        })
        .unwrap_or(8)
}

/// The share of a cell's games the ply cap stopped, above which it is unfinished.
pub const UNFINISHED: f64 = 0.10;

/// Whether a cell's games did not end: more than [`UNFINISHED`] stopped by the cap.
#[must_use]
pub fn unfinished(cell: &SideCell) -> bool {
    cell.games > 0 && cell.capped as f64 > UNFINISHED * cell.games as f64
}

/// The cell's power: the share of its decisive games the first colour must win (or lose) for
/// its test to find the advantage with 80% probability at Holm's first threshold over `tests`
/// cells (0.05 / tests).
#[must_use]
pub fn power(cell: &SideCell, tests: usize) -> Option<f64> {
    detectable_share(cell.first.w + cell.first.l, 0.05 / tests.max(1) as f64, 0.8)
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
    if unfinished(cell) {
        return "unfinished (games stopped by the cap)";
    }
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

/// The part's section of the report, and its figures in `dir`: `first-player.svg` (the boards
/// without the swap, or every board of a game without one) and `first-player-swap.svg`.
pub fn markdown(dir: &Path, cells: &[SideCell], games: u64) -> Result<String> {
    let tests = cells.len();
    let replicated = cells.iter().filter(|c| c.replication.is_some()).count();
    let mut md = format!(
        "## First-player advantage at strength, across board sizes

Each board with each player against itself (`first-player/<board>/<openings>/games.csv`), {games} games a cell. Players that draw their choices from their seed (MCTS, random, and alpha-beta, which breaks its ties at random here: `ties=random`) play with no random opening, which would decide some games before the players do; deterministic players would play from the fewest random plies that give the pairs distinct openings. A game played again move for move counts once: a cell's results are over its distinct games (alpha-beta, whose ties are rare, may play few). Openings stop before the swap's decision. The first colour's score (over the distinct games) with its 95% Wilson interval; the exact sign test of \"no advantage\" on its wins and losses (draws set aside), adjusted by Holm–Bonferroni over the {tests} cells; *finds* is the cell's power: the share of decisive games the first colour must win (or lose) for the test to find it with 80% probability at Holm's first threshold (0.05/{tests}). Each cell shown is played again from a fresh seed fixed before the run (`first-player-replication/`), with Holm over the {replicated} replicated cells; a side is *favoured* only when both runs show it. A cell with more than 10% of its games stopped by the ply cap is *unfinished*.\n\n| board | swap | player (rung) | opening plies | games | first colour W-D-L | first colour's score | capped | Holm p | finds | replication W-D-L | its Holm p | verdict |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    );
    for c in cells {
        let n = c.first.n() as f64;
        let (lo, hi) = wilson(c.first.score(), n, Z95);
        let _ = writeln!(
            md,
            "| `{}` | {} | `{}` ({}) | {} | {} | {}-{}-{} | {:.3} [{:.3}, {:.3}] | {} | {:.4} | {} | {} | {} | {} |",
            c.game,
            match c.swap {
                None => "–",
                Some(true) => "on",
                Some(false) => "off",
            },
            c.player,
            c.rung.map_or("–".to_string(), |r| (r + 1).to_string()),
            c.opening,
            if c.first.n() < c.games {
                format!("{} distinct of {}", c.first.n(), c.games)
            } else {
                c.games.to_string()
            },
            c.first.w,
            c.first.d,
            c.first.l,
            c.first.score(),
            lo,
            hi,
            c.capped,
            c.holm,
            power(c, tests).map_or("nothing (too few decisive games)".to_string(), |q| format!(
                "≥ {q:.3}"
            )),
            c.replication.map_or("–".to_string(), |r| format!(
                "{}-{}-{}",
                r.first.w, r.first.d, r.first.l
            )),
            c.replication
                .map_or("–".to_string(), |r| format!("{:.4}", r.holm)),
            verdict(c)
        );
    }
    for (swap, file, title) in [
        (
            false,
            "first-player.svg",
            "first colour's score in self-play",
        ),
        (
            true,
            "first-player-swap.svg",
            "first colour's score in self-play, swap rule on",
        ),
    ] {
        let shown: Vec<&SideCell> = cells
            .iter()
            .filter(|c| c.swap.unwrap_or(false) == swap)
            .collect();
        if shown.is_empty() {
            continue;
        }
        write_figure(&dir.join(file), title, &shown)?;
        let _ = writeln!(md, "\n![{title}]({file})");
    }
    md.push('\n');
    Ok(md)
}

/// One figure: x the players, weakest first; one series a board, each replicated cell's
/// replication beside its first run.
fn write_figure(path: &Path, title: &str, cells: &[&SideCell]) -> Result<()> {
    let mut players: Vec<(Option<usize>, &str)> =
        cells.iter().map(|c| (c.rung, c.player.as_str())).collect();
    players.sort();
    players.dedup();
    let names: Vec<String> = players.iter().map(|p| short(p.1)).collect();
    let mut series: Vec<Bars> = Vec::new();
    for c in cells {
        let name = c
            .size
            .map_or_else(|| "the board".to_string(), |n| format!("size {n}"));
        let x = players.iter().position(|p| p.1 == c.player).unwrap_or(0) as f64;
        let (lo, hi) = wilson(c.first.score(), c.first.n() as f64, Z95);
        let point = (x, c.first.score(), lo, hi);
        let again = c.replication.map(|r| {
            let (lo, hi) = wilson(r.first.score(), r.first.n() as f64, Z95);
            (x, r.first.score(), lo, hi)
        });
        let s = match series.iter().position(|s| s.name == name) {
            Some(i) => &mut series[i],
            None => {
                series.push(Bars {
                    name,
                    ..Bars::default()
                });
                series.last_mut().expect("just pushed")
            }
        };
        s.points.push(point);
        s.again.extend(again);
    }
    let labels = Labels {
        title,
        x: "player against itself, weakest first",
        y: "first colour's score",
    };
    write_atomically(
        path,
        interval_plot_svg(labels, &series, Some(&names), Bounds::SCORE)?.as_bytes(),
    )
}

/// A short name for an agent spec on an axis: `ab3 rich`, `MCTS 1000`, `MCTS strong`.
#[must_use]
pub fn short(label: &str) -> String {
    if let Some(rest) = label.strip_prefix("alphabeta:") {
        let depth = rest
            .split(',')
            .find_map(|kv| kv.strip_prefix("depth="))
            .unwrap_or("?");
        let eval = rest
            .split(',')
            .find_map(|kv| kv.strip_prefix("eval="))
            .unwrap_or("material");
        format!("ab{depth} {eval}")
    } else if let Some(rest) = label.strip_prefix("mcts:") {
        if rest.contains("preset=strong") {
            "MCTS strong".to_string()
        } else {
            let iters = rest
                .split(',')
                .find_map(|kv| kv.strip_prefix("iters="))
                .unwrap_or("?");
            format!("MCTS {iters}")
        }
    } else {
        label.to_string()
    }
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
            rung: None,
            opening: 0,
            games: w + l,
            first: Wdl { w, d: 0, l },
            capped: 0,
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

    #[test]
    fn a_cell_whose_games_hit_the_cap_is_unfinished_never_balanced() {
        let mut c = SideCell {
            game: "advance:side=5".into(),
            size: Some(5),
            swap: None,
            player: "mcts:iters=300".into(),
            rung: Some(3),
            opening: 0,
            games: 40,
            // 32 of 40 games stopped by the cap, as draws: "no side favoured" would be wrong.
            first: Wdl { w: 4, d: 32, l: 4 },
            capped: 32,
            p: 1.0,
            holm: 1.0,
            replication: None,
        };
        assert!(unfinished(&c));
        assert_eq!(verdict(&c), "unfinished (games stopped by the cap)");
        // 4 of 40 (10%) is not more than a tenth.
        c.capped = 4;
        assert!(!unfinished(&c));
        assert_eq!(verdict(&c), "not shown");
        // Its power: 8 decisive games at 0.05 / 12 find nothing.
        assert_eq!(power(&c, 12), None);
        c.first = Wdl { w: 50, d: 0, l: 50 };
        let q = power(&c, 12).unwrap();
        assert!((q - 0.684).abs() < 0.001, "{q}");
    }

    #[test]
    fn openings_are_the_fewest_plies_that_give_the_pairs_distinct_lines() {
        let plies =
            |game: &str, pairs| distinct_opening_plies(&AnyGame::parse(game).unwrap(), pairs);
        // Tic-tac-toe, 50 pairs: 9 lines (1 ply), 72 (2: 72·(1 − (71/72)^50) = 36.2, below
        // 45), 504 (3: 47.6). Two pairs: 9·(1 − (8/9)²) = 1.89 of 2 from one ply.
        assert_eq!(plies("tic_tac_toe", 50), 3);
        assert_eq!(plies("tic_tac_toe", 2), 1);
        // Havannah 5, 61 cells: 61 lines give 50 pairs only 34 expected distinct; 3,660 do.
        assert_eq!(plies("havannah:size=5", 50), 2);
    }

    #[test]
    fn a_game_played_again_move_for_move_counts_once() {
        use crate::plan::PlanBuilder;
        use crate::run::pool::Silent;
        use crate::run::runner::run_to_csv;
        // Deterministic alpha-beta against itself from one random ply: each pair's two games
        // are one game, and pairs whose opening cell coincides repeat each other too.
        let plan = PlanBuilder::new("tic_tac_toe")
            .pairing("alphabeta:depth=1", "alphabeta:depth=1")
            .pairing("random", "random")
            .games(20)
            .opening_plies(1)
            .build()
            .unwrap();
        let dir = std::env::temp_dir().join(format!("ringside-distinct-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.csv");
        let _ = std::fs::remove_file(&path);
        let run = run_to_csv(&plan, &path, Some(1), &mut Silent).unwrap();
        let distinct: Vec<Wdl> = (0..2)
            .map(|i| run.tally.pairing(i).unwrap().distinct.first())
            .collect();
        let all = run.tally.pairing(0).unwrap().first_player;
        assert_eq!(all.n(), 20);
        assert!(
            distinct[0].n() <= 10,
            "at most one game a pair: {:?}",
            distinct[0]
        );
        assert!(distinct[0].n() >= 2);
        // Random play repeats nothing here.
        assert_eq!(distinct[1].n(), 20);
        let board = AnyGame::parse("tic_tac_toe").unwrap();
        let player = |label: &str| SidePlayer {
            label: label.into(),
            rung: None,
            seeded: false,
        };
        let cells = cells(
            &board,
            &[player("alphabeta:depth=1"), player("random")],
            1,
            &run.tally,
        );
        assert_eq!(cells[0].games, 20);
        assert_eq!(cells[0].first, distinct[0]);
        assert_eq!(cells[0].p, sign_test(distinct[0].w, distinct[0].l));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
