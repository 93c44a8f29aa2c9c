//! The report's verdict, in plain language at the top: balance at strength (and with the swap
//! where the game has one), draws, length, skill depth, and what would change the verdict.
//! Every sentence is read off the parts below it; none says more than its replicated tests.

use std::fmt::Write as _;

use ringside_engine::registry::AnyGame;

use super::BalancePart;
use super::ladder::Rung;
use super::profile::Column;
use super::sides::{self, SideCell, short};
use super::trace::TraceVerdict;

/// What the verdict is read from.
#[derive(Debug)]
pub struct Facts<'a> {
    /// The report's game.
    pub game: &'a AnyGame,
    /// The ladder, weakest first, if its results connect every agent.
    pub rungs: Option<&'a [Rung]>,
    /// The skill curve (SkillTrace by doubling).
    pub trace: &'a TraceVerdict,
    /// Ludii's SkillTrace number, if any level was played.
    pub ludii: Option<f64>,
    /// The first-player part's cells (Holm and replications set).
    pub cells: &'a [SideCell],
    /// The balance instrument on the report's board and, where the game has one, with the
    /// swap: who is favoured, asked of two families.
    pub balances: &'a [BalancePart],
    /// The profile of the report's own board, weakest player first.
    pub profiles: &'a [Column],
    /// Games a pairing of the ladder.
    pub ladder_games: u64,
}

/// The cells of `spec`, weakest player first.
fn board_cells<'a>(cells: &'a [SideCell], spec: &str) -> Vec<&'a SideCell> {
    let mut out: Vec<&SideCell> = cells.iter().filter(|c| c.game == spec).collect();
    out.sort_by_key(|c| c.rung);
    out
}

/// The power of a board's balance at strength: the largest share of decisive games either of
/// its two strongest cells needs to find an advantage (the weaker of their two tests), if
/// either can find one.
fn top_power(cells: &[&SideCell], tests: usize) -> Option<f64> {
    cells
        .iter()
        .rev()
        .take(2)
        .filter_map(|c| sides::power(c, tests))
        .reduce(f64::max)
}

/// A sentence on the balance of one board at strength.
#[must_use]
pub fn balance(cells: &[&SideCell], tests: usize) -> String {
    if cells.is_empty() {
        return "not measured".to_string();
    }
    let top: Vec<&&SideCell> = cells.iter().rev().take(2).collect();
    let name = |c: &SideCell| format!("`{}`", short(&c.player));
    let unfinished: Vec<String> = top
        .iter()
        .filter(|c| sides::unfinished(c))
        .map(|c| {
            format!(
                "{} ({} of {} games stopped by the cap)",
                name(c),
                c.capped,
                c.first.n()
            )
        })
        .collect();
    if !unfinished.is_empty() {
        return format!(
            "**unfinished** at strength: {}; no side can be called favoured there",
            unfinished.join(", ")
        );
    }
    let favoured: Vec<(&SideCell, &str)> = top
        .iter()
        .map(|c| (**c, sides::verdict(c)))
        .filter(|(_, v)| *v == "first player" || *v == "second player")
        .collect();
    let scores = top
        .iter()
        .rev()
        .map(|c| format!("{} {:.3}", name(c), c.first.score()))
        .collect::<Vec<_>>()
        .join(", ");
    let power = top_power(cells, tests).map_or(
        "too few decisive games to find any advantage".to_string(),
        |q| {
            format!(
                "these games find only an advantage where one colour wins {q:.3} of the decisive games or more (80% power); a smaller one may be there"
            )
        },
    );
    if favoured.is_empty() {
        let unreplicated = top.iter().any(|c| sides::verdict(c) == "did not replicate");
        format!(
            "**no side shown favoured** at strength (first colour's score {scores}){}; {power}",
            if unreplicated {
                "; one run showed a side that its replication did not confirm"
            } else {
                ""
            }
        )
    } else {
        let side = favoured[0].1;
        let agree = favoured.iter().all(|(_, v)| *v == side);
        let who = favoured
            .iter()
            .map(|(c, _)| name(c))
            .collect::<Vec<_>>()
            .join(" and ");
        if agree {
            format!(
                "**the {side} is favoured** at strength, replicated under {who} (first colour's score {scores})"
            )
        } else {
            format!(
                "**the strongest players disagree** on who is favoured (first colour's score {scores})"
            )
        }
    }
}

/// Ludii's number, for the verdict's sentence on skill.
fn ludii_text(n: Option<f64>) -> String {
    n.map_or(String::new(), |n| {
        format!(" Ludii's SkillTrace: {n:.3} (0 to 1; higher, more skill to gain).")
    })
}

/// The verdict's section.
#[must_use]
pub fn markdown(f: &Facts<'_>) -> String {
    let spec = f.game.spec();
    let tests = f.cells.len();
    let mut md = String::from("## Verdict\n\n");
    let own = board_cells(f.cells, &spec);
    for part in f.balances {
        let words = part
            .verdict
            .words
            .iter()
            .map(|w| format!("{}: {}", w.family, w.why))
            .collect::<Vec<_>>()
            .join("; ");
        let _ = writeln!(
            md,
            "- **Who is favoured** on `{}`, asked of {} families of players (the balance instrument): **{}** ({words}){}.",
            part.board.spec(),
            ["no", "one", "two", "three"]
                .get(part.verdict.words.len())
                .copied()
                .unwrap_or("several"),
            part.verdict.text,
            part.verdict
                .perfect
                .as_ref()
                .map_or(String::new(), |p| format!("; {p}"))
        );
    }
    let _ = writeln!(
        md,
        "- **Under the ladder's players** on `{spec}`: {}.",
        balance(&own, tests)
    );
    let below: Vec<String> = own
        .iter()
        .rev()
        .skip(2)
        .filter_map(|c| {
            let v = sides::verdict(c);
            (v == "first player" || v == "second player").then(|| {
                format!(
                    "the {v} is favoured under `{}` ({:.3}, replicated)",
                    short(&c.player),
                    c.first.score()
                )
            })
        })
        .collect();
    if !below.is_empty() {
        let _ = writeln!(md, "  Lower on the ladder, {}.", below.join("; "));
    }
    if own.len() > 1 {
        let trend = own
            .iter()
            .map(|c| format!("`{}` {:.3}", short(&c.player), c.first.score()))
            .collect::<Vec<_>>()
            .join(" → ");
        let _ = writeln!(
            md,
            "  The first colour's score from the weakest player to the strongest: {trend}."
        );
    }
    if let Ok(swapped) = f.game.with_option("swap", "on")
        && &swapped != f.game
    {
        let cells = board_cells(f.cells, &swapped.spec());
        let _ = writeln!(
            md,
            "- **Under the ladder's players with the swap rule** (`{}`, the swap decided by the players): {}.",
            swapped.spec(),
            balance(&cells, tests)
        );
    }
    let own_swap = f.game.with_option("swap", "on").ok().map(|g| g.spec());
    let others: Vec<String> = {
        let mut specs: Vec<&str> = f
            .cells
            .iter()
            .map(|c| c.game.as_str())
            .filter(|g| *g != spec && Some(*g) != own_swap.as_deref())
            .collect();
        specs.dedup();
        specs
            .into_iter()
            .map(|g| {
                let cells = board_cells(f.cells, g);
                let top = cells.last().map_or("–", |c| sides::verdict(c));
                format!("`{g}`: {top}")
            })
            .collect()
    };
    if !others.is_empty() {
        let _ = writeln!(
            md,
            "- **Other boards**, under the strongest player: {}.",
            others.join("; ")
        );
    }
    if let Some(top) = f.profiles.last() {
        // Every game, the draws by the rules apart from the games the ply cap stopped.
        let all = top.summary.first_player;
        let capped = top.summary.capped;
        let drawn = all.d.saturating_sub(capped);
        let drawn_at_strength = f.balances.first().is_some_and(|b| b.verdict.sign == "=");
        let _ = writeln!(
            md,
            "- **Draws:** the strongest player (`{}`) against itself draws {drawn} of {} games by the rules ({:.0}%){}{}.",
            short(&top.player),
            all.n(),
            100.0 * drawn as f64 / all.n().max(1) as f64,
            if capped > 0 {
                format!("; {capped} more were stopped by the ply cap, unfinished, not drawn")
            } else {
                String::new()
            },
            if drawn_at_strength {
                "; the balance instrument finds the game drawn under strong play"
            } else {
                ""
            }
        );
        let l = &top.summary.lengths;
        let _ = writeln!(
            md,
            "- **Length:** its games last {} plies at the median, {} at the 90th percentile.",
            l.percentile(0.5),
            l.percentile(0.9)
        );
    }
    match f.rungs {
        Some(rungs) => {
            let real = rungs
                .iter()
                .filter(|r| r.step.is_some_and(|s| s.real()))
                .count();
            let reversed = rungs
                .iter()
                .filter(|r| r.step.is_some_and(|s| s.first.reversed()))
                .count();
            let _ = writeln!(
                md,
                "- **Skill depth:** the ladder of {} players has {real} replicated real step(s) up{}; its top is `{}`. Skill curve: {}{}",
                rungs.len(),
                if reversed > 0 {
                    format!(" and {reversed} reversed step(s) (non-transitive results)")
                } else {
                    String::new()
                },
                rungs.last().map_or("–", |r| r.agent.as_str()),
                f.trace.sentence(),
                ludii_text(f.ludii)
            );
        }
        None => {
            let _ = writeln!(
                md,
                "- **Skill depth:** the ladder's results do not connect every agent. Skill curve: {}{}",
                f.trace.sentence(),
                ludii_text(f.ludii)
            );
        }
    }
    let mut change = Vec::new();
    if let Some(q) = top_power(&own, tests) {
        change.push(format!(
            "more games (the balance test cannot see a first-colour share of decisive games below {q:.3})"
        ));
    }
    if own.len() >= 2 {
        let (lo, hi) = (own[0].first.score(), own[own.len() - 1].first.score());
        if (hi - lo).abs() >= 0.1 {
            change.push(format!(
                "stronger players (the first colour's score moved from {lo:.3} to {hi:.3} up the ladder)"
            ));
        }
    }
    if f.trace.levels_off().is_none() {
        change.push(
            "deeper search (the skill curve has not levelled off: stronger play may see more)"
                .to_string(),
        );
    }
    if !change.is_empty() {
        let _ = writeln!(
            md,
            "- **What would change the verdict:** {}.",
            change.join("; ")
        );
    }
    md.push('\n');
    md
}
