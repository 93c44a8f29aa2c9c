//! `arena report`: a design report on a tiny budget, its ladder's order where it is known, its
//! SkillTrace and figures as data, and a report re-run that resumes to the same games.

use crate::common;

use std::path::Path;

use common::{ok, path, refused, scratch, text};

/// The rows of a games CSV without the decision times, sorted by id.
fn games(file: &Path) -> Vec<Vec<String>> {
    common::untimed_rows(file)
}

fn report(dir: &Path) -> String {
    let o = ok(&[
        "report",
        "--game",
        "rin:size=6",
        "--budget",
        "tiny",
        "--seed",
        "3",
        "--out",
        path(dir),
        "--quiet",
    ]);
    text(&o.stdout)
}

#[test]
fn a_tiny_report_ranks_random_below_depth_one_below_depth_three_and_traces_skill() {
    let dir = scratch("report");
    let md = report(&dir);
    // The ladder, weakest first: random, then alpha-beta at depth 1, then at depth 3.
    let rank = |agent: &str| {
        md.lines()
            .find(|l| l.contains(&format!("| `{agent}` |")))
            .and_then(|l| l.split('|').nth(1))
            .map(|n| n.trim().parse::<usize>().unwrap())
            .unwrap_or_else(|| panic!("{agent} not in the ladder:\n{md}"))
    };
    let (random, d1, d3) = (
        rank("random"),
        rank("alphabeta:depth=1,eval=rich"),
        rank("alphabeta:depth=3,eval=rich"),
    );
    assert!(random < d1 && d1 < d3, "{md}");
    // Random is the bottom rung; depth 3 is the top, and its step up is real: shown (Holm p
    // ≤ 0.05) and shown again by its replication, whose games are on file.
    assert_eq!((random, d3), (1, 4), "{md}");
    let step = md
        .lines()
        .find(|l| l.contains("| `alphabeta:depth=3,eval=rich` |"))
        .unwrap();
    assert!(step.ends_with("| real (replicated) |"), "{step}");
    assert!(dir.join("ladder-replication").join("games.csv").exists());
    // SkillTrace: k = 4, 8, 16 against 8, 16, 32, 4 games each; four games a step test
    // nothing, so the report claims no plateau.
    for (k, two_k) in [(4, 8), (8, 16), (16, 32)] {
        assert!(md.contains(&format!("| {k} | {two_k} | 4 |")), "{md}");
    }
    assert!(md.contains("too few decisive games to test"), "{md}");
    assert!(!md.contains("Levels off"), "{md}");
    // The verdict opens the report.
    let verdict = md.find("## Verdict").unwrap();
    assert!(verdict < md.find("## Skill ladder").unwrap());
    assert!(
        md.contains("- **Under the ladder's players** on `rin:size=6`:"),
        "{md}"
    );
    // Who is favoured comes first, from the balance instrument: both families' rungs against
    // themselves, each cell's games on file, its verdict in the report and in `verdict.txt`.
    let favoured = md
        .lines()
        .find(|l| l.starts_with("- **Who is favoured** on `rin:size=6`"))
        .unwrap_or_else(|| panic!("{md}"));
    assert!(md.find(favoured).unwrap() < md.find("- **Under the ladder's players**").unwrap());
    let verdict = std::fs::read_to_string(dir.join("balance").join("verdict.txt")).unwrap();
    let sentence = verdict.lines().nth(1).unwrap();
    assert!(
        favoured.contains(&format!("**{sentence}**")),
        "{favoured}\n{verdict}"
    );
    assert!(md.contains("## Who is favoured on `rin:size=6`: the balance instrument"));
    for cell in ["mcts-1", "mcts-2", "alphabeta-1", "alphabeta-2"] {
        let games = dir
            .join("balance")
            .join(cell)
            .join("first")
            .join("games.csv");
        assert!(games.exists(), "{}", games.display());
    }
    // Rin has no swap rule: no second balance part.
    assert!(!dir.join("balance-swap").exists());
    // The figures carry one marker a rung and one a step.
    let circles = |file: &str| {
        let svg = std::fs::read_to_string(dir.join(file)).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        doc.descendants()
            .filter(|n| n.tag_name().name() == "circle")
            .count()
    };
    // One dot a rung (4 agents) plus the legend's marker.
    assert_eq!(circles("ladder.svg"), 4 + 1);
    // The first-player part plays the ladder's rungs but random (three here), each against
    // itself on the report's board and the next size, with no random opening: MCTS draws its
    // choices from its seed, and alpha-beta breaks its ties at random there.
    for board in ["rin:size=6", "rin:size=8"] {
        for player in [
            "mcts:iters=30",
            "alphabeta:depth=1,eval=rich,ties=random",
            "alphabeta:depth=3,eval=rich,ties=random",
        ] {
            let row = format!("| `{board}` | – | `{player}` (");
            let line = md
                .lines()
                .find(|l| l.starts_with(&row))
                .unwrap_or_else(|| panic!("{row}\n{md}"));
            let cols: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!((cols[4], cols[5]), ("0", "4"), "{line}");
            let wdl: u64 = cols[6].split('-').map(|x| x.parse::<u64>().unwrap()).sum();
            assert_eq!(wdl, 4, "{line}");
        }
        let folder = dir.join("first-player").join(board.replace(':', "_"));
        assert!(folder.join("openings-0").join("games.csv").exists());
    }
    // Three players, one series a board: a dot a cell and a legend marker a board.
    assert_eq!(circles("first-player.svg"), 6 + 2);
    // The profile of the report's board: a column a player, Ludii's and the state-evaluation
    // metrics among its rows, and a length histogram a player.
    assert!(
        md.contains(
            "| measure | `alphabeta:depth=1,eval=rich,ties=random` | `mcts:iters=30` | `alphabeta:depth=3,eval=rich,ties=random` |"
        ),
        "{md}"
    );
    for measure in [
        "| DurationMoves |",
        "| Drama |",
        "| ClarityNarrowness |",
        "| DecisivenessMoves |",
    ] {
        assert!(md.contains(measure), "{measure}\n{md}");
    }
    // Intervals count distinct games, not games: no more of them than games.
    let counts = md
        .lines()
        .find(|l| l.starts_with("| games (distinct) |"))
        .unwrap_or_else(|| panic!("{md}"));
    for cell in counts
        .split('|')
        .map(str::trim)
        .skip(2)
        .filter(|c| !c.is_empty())
    {
        let n: Vec<u64> = cell
            .split([' ', '(', ')'])
            .filter_map(|x| x.parse().ok())
            .collect();
        assert!(
            matches!(n[..], [games, distinct] if distinct >= 1 && distinct <= games),
            "{cell}"
        );
    }
    // K is fitted on one half of the clusters and scores the other.
    assert!(
        md.contains("with `K` fitted on held-out games") || md.contains("too few distinct games"),
        "{md}"
    );
    let lengths = std::fs::read_to_string(dir.join("lengths.svg")).unwrap();
    assert!(lengths.contains("mcts:iters=30") && lengths.contains("alphabeta:depth=3,eval=rich"));
    assert_eq!(std::fs::read_to_string(dir.join("report.md")).unwrap(), md);
}

#[test]
fn a_report_run_again_or_after_a_kill_resumes_to_the_same_games() {
    let dir = scratch("report-resume");
    let (fresh, again) = (dir.join("fresh"), dir.join("again"));
    let first = report(&fresh);
    report(&again);
    // Cut the ladder's file as a kill would: the header, two games and a torn third.
    let ladder = again.join("ladder").join("games.csv");
    let content = std::fs::read_to_string(&ladder).unwrap();
    let lines: Vec<&str> = content.lines().collect();
    std::fs::write(
        &ladder,
        format!(
            "{}\n{}\n{}\n{}",
            lines[0],
            lines[1],
            lines[2],
            &lines[3][..15]
        ),
    )
    .unwrap();
    std::fs::remove_file(again.join("skilltrace").join("games.csv")).unwrap();
    std::fs::remove_file(again.join("skilltrace").join("games.csv.settings.json")).unwrap();
    let resumed = report(&again);
    for part in [
        "ladder",
        "skilltrace",
        "first-player/rin_size=6/openings-0",
        "first-player/rin_size=8/openings-0",
    ] {
        let file = |root: &Path| root.join(part).join("games.csv");
        assert_eq!(games(&file(&fresh)), games(&file(&again)), "{part}");
    }
    // The same report but for the line that says what this run cost.
    let strip = |md: &str| {
        md.lines()
            .filter(|l| !l.starts_with("Budget"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&first), strip(&resumed));
}

#[test]
fn a_bad_budget_or_game_is_one_line_and_exit_2() {
    let dir = scratch("report-bad");
    refused(
        &[
            "report",
            "--game",
            "rin:size=6",
            "--budget",
            "huge",
            "--out",
            path(&dir),
        ],
        "budget must be tiny, light or standard",
    );
    refused(&["report", "--game", "chess", "--out", path(&dir)], "chess");
}
