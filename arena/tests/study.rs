//! Design studies: sweep expansion and resume, the metrics against hand-worked values and
//! direct counts, the figures as data, and bad grids refused.

use crate::common;

use std::path::Path;

use common::{ok, path, refused, scratch, text};
use ringside_arena::figures::metrics::{
    GameFacts, Metric, estimates, game_facts, number, quantile,
};
use ringside_arena::figures::plot::{
    Bars, Bounds, Dot, Labels, dot_plot_svg, histogram_series, interval_plot_svg,
};
use ringside_arena::plan::Seat;
use ringside_arena::plan::sweep::{AxisKind, cell_seed};
use ringside_arena::records::games_csv::read_games;
use ringside_arena::records::row::{Reason, Winner};
use ringside_arena::run::experiment;
use ringside_engine::registry::{GameVisitor, with_game};
use ringside_engine::{Features, Game};

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const SWEEP: &str = r#"
name = "s"
game = "ikabegama:side=5"
seed = 9
games = 4
ply_cap = 200
[grid]
distance = [2, 3]
iters = [5, 20]
[[match]]
agents = ["mcts:iters={iters}", "random"]
[[match]]
agents = ["random", "random"]
"#;

#[test]
fn a_grid_expands_into_cells_in_written_order_with_label_seeds() {
    let dir = scratch("sweep-expand");
    let exp = experiment::read(&write(&dir, "s.toml", SWEEP)).unwrap();
    let sweep = exp.sweep.expect("a grid makes a sweep");
    let kinds: Vec<AxisKind> = sweep.axes.iter().map(|a| a.kind).collect();
    assert_eq!(kinds, [AxisKind::GameOption, AxisKind::Agent]);
    let labels: Vec<&str> = sweep.cells.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "distance=2,iters=5",
            "distance=2,iters=20",
            "distance=3,iters=5",
            "distance=3,iters=20"
        ]
    );
    let c = &sweep.cells[3];
    assert_eq!(c.plan.game.to_string(), "ikabegama:side=5,distance=3");
    assert_eq!(c.plan.agents[0].label, "mcts:iters=20");
    assert_eq!(c.plan.pairings.len(), 2);
    assert_eq!(c.plan.seed, cell_seed(9, "distance=3,iters=20"));
    assert_eq!(
        sweep.match_names,
        ["mcts:iters={iters} vs random", "random (self-play)"]
    );
    // Adding a value does not move the other cells' seeds.
    let wider = SWEEP.replace("distance = [2, 3]", "distance = [1, 2, 3]");
    let wider = experiment::read(&write(&dir, "w.toml", &wider)).unwrap();
    let same = wider
        .sweep
        .unwrap()
        .cells
        .into_iter()
        .find(|x| x.label == c.label)
        .unwrap();
    assert_eq!(same.plan, c.plan);
}

#[test]
fn a_partly_played_sweep_resumes_to_the_games_of_a_fresh_run() {
    let dir = scratch("sweep-resume");
    let file = write(&dir, "s.toml", SWEEP);
    let (fresh, resumed) = (dir.join("fresh"), dir.join("resumed"));
    ok(&["run", path(&file), "--results", path(&fresh), "--quiet"]);
    // A partial run: the last cell's file cut after its first two games and a torn third,
    // the second cell's file missing.
    let cells = |root: &Path| root.join("s").join("cells");
    ok(&["run", path(&file), "--results", path(&resumed), "--quiet"]);
    let last = cells(&resumed)
        .join("distance=3,iters=20")
        .join("games.csv");
    let content = std::fs::read_to_string(&last).unwrap();
    let lines: Vec<&str> = content.lines().collect();
    let cut = format!(
        "{}\n{}\n{}\n{}",
        lines[0],
        lines[1],
        lines[2],
        &lines[3][..20]
    );
    std::fs::write(&last, cut).unwrap();
    let second = cells(&resumed).join("distance=2,iters=20");
    std::fs::remove_file(second.join("games.csv")).unwrap();
    std::fs::remove_file(second.join("games.csv.settings.json")).unwrap();
    let o = ok(&["run", path(&file), "--results", path(&resumed), "--quiet"]);
    let err = text(&o.stderr);
    assert!(
        err.contains("14 games played, 18 already recorded, in 4 cells"),
        "{err}"
    );
    let exp = experiment::read(&file).unwrap();
    for cell in &exp.sweep.unwrap().cells {
        let read = |root: &Path| {
            read_games(
                &cells(root).join(&cell.folder).join("games.csv"),
                &cell.plan,
            )
            .unwrap()
            .rows
        };
        let (mut a, mut b) = (read(&fresh), read(&resumed));
        a.sort_by_key(|r| r.id);
        b.sort_by_key(|r| r.id);
        assert_eq!(a.len(), 8, "{}", cell.label);
        for (x, y) in a.iter().zip(&b) {
            assert!(x.differences(y).is_empty(), "{}: game {}", cell.label, x.id);
        }
    }
    let metrics = std::fs::read_to_string(resumed.join("s").join("metrics.csv")).unwrap();
    assert!(
        metrics
            .starts_with("cell,distance,iters,match,games,distinct_games,metric,value,low,high\n")
    );
    // Four cells, two matches, at least the eleven metrics every match defines.
    assert!(metrics.lines().count() > 4 * 2 * 11, "{metrics}");
    let summary = std::fs::read_to_string(resumed.join("s").join("summary.md")).unwrap();
    assert!(summary.contains("![FirstScore](metric-FirstScore.svg)"));
    // The figure holds a line a match and value of the second key, a marker a cell and match.
    let svg = std::fs::read_to_string(resumed.join("s").join("metric-FirstScore.svg")).unwrap();
    let doc = parse_svg(&svg);
    assert_eq!(count(&doc, "circle"), 4 * 2);
    let t = texts(&doc);
    for line in [
        "mcts:iters={iters} vs random (iters=5)",
        "mcts:iters={iters} vs random (iters=20)",
        "random (self-play) (iters=5)",
        "random (self-play) (iters=20)",
    ] {
        assert!(t.iter().any(|x| x == line), "{line} missing from {t:?}");
    }
    // The y axis names the metric's unit.
    let unit = "first colour's score (points a game)";
    assert!(t.iter().any(|x| x == unit), "{unit} missing from {t:?}");
}

#[test]
fn metrics_are_plotted_from_0_and_up_to_1_exactly_when_they_cannot_exceed_it() {
    let dir = scratch("metric-bounds");
    let csv = dir.join("g.csv");
    let agents = ["--agents", "random", "random", "--games", "6"];
    ok(&[
        &[
            "match",
            "--game",
            "rin:size=6",
            "--out",
            path(&csv),
            "--quiet",
        ],
        &agents[..],
    ]
    .concat());
    let (plan, _) = ringside_arena::records::sidecar::read_sidecar(&csv).unwrap();
    let rows = read_games(&csv, &plan).unwrap().rows;
    let facts = game_facts(&plan, &rows).unwrap();
    let facts: Vec<&GameFacts> = facts.iter().collect();
    let mut units = std::collections::HashSet::new();
    for m in Metric::ALL {
        let bounds = m.bounds();
        // No metric is negative; a length or a count of moves passes 1 in any real game.
        assert_eq!(bounds.low, Some(0.0), "{}", m.name());
        // Every metric is defined: each agent won some of the six games.
        let value = m.value(&facts).unwrap();
        assert!(value >= 0.0, "{}: {value}", m.name());
        match bounds.high {
            Some(high) => assert!(value <= high, "{}: {value}", m.name()),
            None => assert!(value > 1.0, "{}: {value} is bounded", m.name()),
        }
        // Each axis label says what its metric measures, in its own words.
        assert!(
            m.unit().contains(' ') && units.insert(m.unit()),
            "{}",
            m.name()
        );
    }
}

#[test]
fn bad_grids_are_one_line_and_exit_2() {
    let dir = scratch("sweep-bad");
    for (name, from, to, says) in [
        (
            "unknown",
            "distance = [2, 3]",
            "colour = [1]",
            "grid cell colour=1",
        ),
        (
            "empty",
            "distance = [2, 3]",
            "distance = []",
            "has no values",
        ),
        (
            "range",
            "distance = [2, 3]",
            "distance = [2, 99]",
            "grid cell distance=99",
        ),
        (
            "agent",
            "iters = [5, 20]",
            "iters = [5, -3]",
            "grid cell distance=2,iters=-3",
        ),
        (
            "placeholder",
            "\"mcts:iters={iters}\"",
            "\"mcts:iters={n}\"",
            "placeholder",
        ),
    ] {
        let file = write(&dir, &format!("{name}.toml"), &SWEEP.replace(from, to));
        let results = dir.join(name);
        refused(&["run", path(&file), "--results", path(&results)], says);
        assert!(
            !results.join("s").join("cells").exists(),
            "{name}: nothing is played"
        );
    }
}

fn facts(pair: u64, winner: Winner, reason: Reason, a_first: bool, plies: u32) -> GameFacts {
    let a_won = match winner {
        Winner::Draw => None,
        Winner::First => Some(a_first),
        Winner::Second => Some(!a_first),
    };
    GameFacts {
        pair: (0, pair),
        winner,
        reason,
        a_won,
        plies,
        turns: plies / 2 + 1,
        branching: f64::from(plies),
        decisions: 0.5,
        lead_changes: 0.1 * pair as f64,
        drama: (winner != Winner::Draw).then_some(0.25 * pair as f64),
    }
}

#[test]
fn every_metric_matches_a_hand_worked_table() {
    // Three pairs; in each, A moves first in the first game.
    //   pair 0: first colour wins (A, 10 plies); first colour wins (B, 20 plies)
    //   pair 1: second colour wins (B, 30); draw by the rules (40)
    //   pair 2: ply cap (100); first colour wins (B, 60)
    let games = vec![
        facts(0, Winner::First, Reason::Normal, true, 10),
        facts(0, Winner::First, Reason::Normal, false, 20),
        facts(1, Winner::Second, Reason::Normal, true, 30),
        facts(1, Winner::Draw, Reason::Normal, false, 40),
        facts(2, Winner::Draw, Reason::PlyCap, true, 100),
        facts(2, Winner::First, Reason::Normal, false, 60),
    ];
    let all: Vec<&GameFacts> = games.iter().collect();
    let v = |m: Metric| m.value(&all).unwrap();
    let close = |m: Metric, want: f64| assert!((v(m) - want).abs() < 1e-12, "{m:?}: {}", v(m));
    close(Metric::AdvantageP1, 3.0 / 6.0);
    close(Metric::FirstScore, (3.0 + 0.5 + 0.5) / 6.0);
    close(Metric::Balance, 1.0 - (3.0f64 / 6.0 - 1.0 / 6.0).abs());
    close(Metric::Completion, 4.0 / 6.0);
    close(Metric::Drawishness, 1.0 / 6.0);
    close(Metric::Timeouts, 1.0 / 6.0);
    // The draw by the rules and the capped game are told apart, not merely counted once each.
    assert_eq!(Metric::Drawishness.value(&all[3..4]), Some(1.0));
    assert_eq!(Metric::Drawishness.value(&all[4..5]), Some(0.0));
    assert_eq!(Metric::Timeouts.value(&all[3..4]), Some(0.0));
    close(Metric::DurationMoves, 260.0 / 6.0);
    // Turns: 6 + 11 + 16 + 21 + 51 + 31.
    close(Metric::DurationTurns, 136.0 / 6.0);
    close(Metric::BranchingFactor, 260.0 / 6.0);
    close(Metric::DecisionMoves, 0.5);
    close(
        Metric::LeadChange,
        (0.0 + 0.0 + 0.1 + 0.1 + 0.2 + 0.2) / 6.0,
    );
    // Drama over the four decided games: 0, 0, 0.25, 0.5.
    close(Metric::Drama, 0.75 / 4.0);
    // A: win (first, 10), loss (20), loss (first, the second colour won: 30), draw, draw,
    // loss (60).
    close(Metric::ScoreA, 2.0 / 6.0);
    close(Metric::WonLengthA, 10.0);
    close(Metric::WonLengthB, (20.0 + 30.0 + 60.0) / 3.0);
    assert_eq!(Metric::WonLengthA.value(&all[3..5]), None);
    // No games: every metric undefined, none a 0 / 0.
    for m in Metric::ALL {
        assert_eq!(m.value(&[]), None, "{}", m.name());
    }
    // Intervals hold their value, and the same games give the same intervals.
    let e = estimates(&games);
    assert_eq!(e, estimates(&games));
    for x in &e {
        assert!(x.low <= x.value && x.value <= x.high, "{x:?}");
    }
    assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.5), 3.0);
    assert_eq!(quantile(&[0.0, 10.0], 0.25), 2.5);
}

#[test]
fn metric_tables_print_three_decimals_below_10_and_one_from_10() {
    for (x, printed) in [
        (0.5, "0.500"),
        (9.9994, "9.999"),
        (10.0, "10.0"),
        (-10.0, "-10.0"),
        (-9.5, "-9.500"),
        (123.456, "123.5"),
    ] {
        assert_eq!(number(x), printed);
    }
}

#[test]
fn the_bootstrap_interval_of_a_rate_agrees_with_the_normal_formula() {
    // 300 pairs, 2 games each; the first colour wins 3 of every 10 games.
    let games: Vec<GameFacts> = (0..600u64)
        .map(|i| {
            let w = if i % 10 < 3 {
                Winner::First
            } else {
                Winner::Second
            };
            facts(i / 2, w, Reason::Normal, i % 2 == 0, 10)
        })
        .collect();
    let e = estimates(&games);
    let adv = e.iter().find(|x| x.metric == Metric::AdvantageP1).unwrap();
    assert!((adv.value - 0.3).abs() < 1e-12);
    let half = 1.96 * (0.3f64 * 0.7 / 600.0).sqrt();
    assert!((adv.low - (0.3 - half)).abs() < 0.01, "{adv:?} vs ±{half}");
    assert!((adv.high - (0.3 + half)).abs() < 0.01, "{adv:?} vs ±{half}");
}

/// What a replayed game is counted to be, directly.
struct Direct {
    branching: f64,
    decisions: f64,
    /// Positions with exactly one legal move (no decision, but a position).
    forced: usize,
    turns: u32,
    /// Changes of the sign of the first mover's evaluation lead, per position.
    lead_changes: f64,
    /// Positions where the first mover's evaluation was behind and ahead, per position.
    behind: f64,
    ahead: f64,
}

/// Branching factor, decision share, turns, lead changes and who led where, of each replayed
/// game, counted directly; the evaluation is the default-weighted feature difference, the
/// first mover's minus the other colour's, feature by feature; within 1e-9 of 0 is no lead.
fn direct_counts(game: &str, moves: &str) -> Direct {
    struct Count<'a>(&'a str);
    impl GameVisitor for Count<'_> {
        type Output = Direct;
        fn visit<G: Game + Features>(self, start: G) -> Self::Output {
            let mut state = start;
            let first = state.to_move().unwrap();
            let (mut legal, mut decisions, mut n, mut turns) = (0usize, 0usize, 0usize, 0u32);
            let mut forced = 0;
            let (mut changes, mut behind, mut ahead) = (0usize, 0usize, 0usize);
            let mut previous = None;
            let mut lead_before: Option<f64> = None;
            let mut list = Vec::new();
            for text in self.0.split_whitespace() {
                list.clear();
                state.legal_moves(&mut list);
                legal += list.len();
                decisions += usize::from(list.len() > 1);
                forced += usize::from(list.len() == 1);
                n += 1;
                if state.to_move() != previous {
                    turns += 1;
                    previous = state.to_move();
                }
                let mut diff = 0.0;
                for f in state.feature_set() {
                    let mine = state.feature(first, f.name).unwrap();
                    let theirs = state.feature(first.other(), f.name).unwrap();
                    diff += f.default_weight * (mine - theirs);
                }
                let lead = if diff > 1e-9 {
                    1.0
                } else if diff < -1e-9 {
                    -1.0
                } else {
                    0.0
                };
                if lead_before.is_some_and(|l| l != lead) {
                    changes += 1;
                }
                lead_before = Some(lead);
                behind += usize::from(lead < 0.0);
                ahead += usize::from(lead > 0.0);
                let mv = state.parse_move(text).unwrap();
                state.play(mv);
            }
            let per = |x: usize| x as f64 / n as f64;
            Direct {
                branching: per(legal),
                decisions: per(decisions),
                forced,
                turns,
                lead_changes: per(changes),
                behind: per(behind),
                ahead: per(ahead),
            }
        }
    }
    with_game(game, Count(moves)).unwrap()
}

#[test]
fn branching_turns_lead_changes_drama_and_the_winning_agent_match_a_direct_count_on_replayed_games()
{
    let dir = scratch("metrics-direct");
    let mut forced = 0;
    for game in ["rin:size=6", "hexxagon:side=3", "havannah:size=4"] {
        let csv = dir.join(format!("{}.csv", game.replace([':', '='], "_")));
        ok(&[
            "match",
            "--game",
            game,
            "--agents",
            "random",
            "random",
            "--games",
            "4",
            "--out",
            path(&csv),
            "--quiet",
        ]);
        let (plan, _) = ringside_arena::records::sidecar::read_sidecar(&csv).unwrap();
        let rows = read_games(&csv, &plan).unwrap().rows;
        let facts = game_facts(&plan, &rows).unwrap();
        let (mut changed, mut decided) = (0, 0);
        for (row, f) in rows.iter().zip(&facts) {
            let d = direct_counts(&row.game, &row.moves);
            forced += d.forced;
            assert!(
                (f.branching - d.branching).abs() < 1e-9,
                "{game} {}",
                row.id
            );
            assert!(
                (f.decisions - d.decisions).abs() < 1e-9,
                "{game} {}",
                row.id
            );
            assert_eq!(f.turns, d.turns, "{game} {}", row.id);
            assert_eq!(f.plies, row.plies);
            // The pairing's first agent won when it held the winning colour's seat (random
            // against random is one agent in both seats: the seat tells them apart).
            let a_won = match (row.slot.seat, row.winner) {
                (_, Winner::Draw) => None,
                (Seat::AFirst, Winner::First) | (Seat::BFirst, Winner::Second) => Some(true),
                _ => Some(false),
            };
            assert_eq!(f.a_won, a_won, "{game} {}", row.id);
            decided += usize::from(f.a_won.is_some());
            assert!(
                (f.lead_changes - d.lead_changes).abs() < 1e-9,
                "{game} {}: {} vs {} ({} plies)",
                row.id,
                f.lead_changes,
                d.lead_changes,
                row.plies
            );
            changed += usize::from(d.lead_changes > 0.0);
            // Drama: the share of positions where the winner trailed.
            let drama = match row.winner {
                Winner::First => Some(d.behind),
                Winner::Second => Some(d.ahead),
                Winner::Draw => None,
            };
            match (f.drama, drama) {
                (Some(a), Some(b)) => assert!((a - b).abs() < 1e-9, "{game} {}", row.id),
                (a, b) => assert_eq!(a, b, "{game} {}", row.id),
            }
        }
        // The games are long enough for the lead to change: the count is tested, not just 0.
        assert!(changed > 0, "{game}: no lead ever changed");
        assert!(decided > 0, "{game}: no game decided");
        if game.starts_with("rin") {
            // Rin: B, then W W, B B, …: a turn of one stone, then turns of two.
            for f in &facts {
                assert_eq!(f.turns, 1 + (f.plies - 1).div_ceil(2), "{f:?}");
            }
        } else {
            assert!(facts.iter().all(|f| f.turns == f.plies));
        }
    }
    // Some position had one legal move: a decision share that counted it would differ.
    assert!(forced > 0, "no position with a single legal move");
}

#[test]
fn summary_prints_the_metrics_of_any_games_csv() {
    let dir = scratch("metrics-summary");
    let csv = dir.join("g.csv");
    ok(&[
        "match",
        "--game",
        "rin:size=6",
        "--agents",
        "random",
        "mcts:iters=30",
        "--games",
        "10",
        "--out",
        path(&csv),
        "--quiet",
    ]);
    let o = ok(&["summary", path(&csv), "--out-dir", path(&dir.join("out"))]);
    let out = text(&o.stdout);
    // AdvantageP1 from the CSV's winner column, counted here.
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let column = reader
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "winner")
        .unwrap();
    let winners: Vec<String> = reader
        .records()
        .map(|r| r.unwrap()[column].to_string())
        .collect();
    let first = winners.iter().filter(|w| *w == "first").count();
    let want = format!(
        "| AdvantageP1 | {:.3} |",
        first as f64 / winners.len() as f64
    );
    assert!(out.contains(&want), "{want} not in {out}");
    assert!(out.contains("| BranchingFactor |"));
    assert!(dir.join("out").join("lengths.svg").exists());
}

fn parse_svg(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).expect("the SVG is well-formed XML")
}

fn count(doc: &roxmltree::Document<'_>, tag: &str) -> usize {
    doc.descendants().filter(|n| n.has_tag_name(tag)).count()
}

fn texts(doc: &roxmltree::Document<'_>) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect()
}

#[test]
fn interval_plots_are_xml_with_one_marker_a_point_and_every_series_named() {
    let series = vec![
        Bars {
            name: "random vs random".into(),
            points: vec![
                (1.0, 0.5, 0.4, 0.6),
                (2.0, 0.6, 0.5, 0.7),
                (3.0, 0.7, 0.6, 0.8),
            ],
            ..Bars::default()
        },
        Bars {
            name: "mcts vs mcts".into(),
            points: vec![(1.0, 0.9, 0.8, 1.0), (3.0, 0.2, 0.1, 0.3)],
            ..Bars::default()
        },
    ];
    let labels = Labels {
        title: "t: FirstScore against distance",
        x: "distance",
        y: "first colour's score (points a game)",
    };
    let svg = interval_plot_svg(labels, &series, None, Bounds::SHARE).unwrap();
    let doc = parse_svg(&svg);
    assert_eq!(
        count(&doc, "circle"),
        5 + 2,
        "one marker a point and one a legend entry"
    );

    let t = texts(&doc);
    for want in [
        labels.title,
        labels.x,
        labels.y,
        "random vs random",
        "mcts vs mcts",
    ] {
        assert!(t.iter().any(|x| x == want), "{want} missing from {t:?}");
    }
    // Names on the x axis for an axis of words.
    let names = vec!["havannah:size=5".to_string(), "rin:size=6".to_string()];
    let words = vec![Bars {
        name: "s".into(),
        points: vec![(0.0, 0.5, 0.4, 0.6), (1.0, 0.5, 0.4, 0.6)],
        ..Bars::default()
    }];
    let svg = interval_plot_svg(labels, &words, Some(&names), Bounds::SHARE).unwrap();
    let t = texts(&parse_svg(&svg));
    assert!(t.iter().any(|x| x == "rin:size=6"), "{t:?}");
    // A share's axis runs from 0 to 1 whatever the data (here 0.4 to 0.6), and no further:
    // on an axis of words, the only numbers are the y ticks.
    let ticks: Vec<f64> = t.iter().filter_map(|x| x.parse().ok()).collect();
    assert!(ticks.contains(&0.0) && ticks.contains(&1.0), "{ticks:?}");
    assert!(ticks.iter().all(|y| (0.0..=1.0).contains(y)), "{ticks:?}");
    // A length's axis starts at 0 and follows the data up.
    let lengths = vec![Bars {
        name: "s".into(),
        points: vec![(0.0, 40.0, 35.0, 45.0), (1.0, 60.0, 50.0, 70.0)],
        ..Bars::default()
    }];
    let svg = interval_plot_svg(labels, &lengths, Some(&names), Bounds::NON_NEGATIVE).unwrap();
    let ticks: Vec<f64> = texts(&parse_svg(&svg))
        .iter()
        .filter_map(|x| x.parse().ok())
        .collect();
    assert!(ticks.contains(&0.0), "{ticks:?}");
    assert!(ticks.iter().all(|&y| y <= 75.0), "{ticks:?}");
}

#[test]
fn replications_are_triangles_beside_their_first_runs_and_named_in_the_key() {
    let labels = Labels {
        title: "first colour's score in self-play",
        x: "player",
        y: "first colour's score",
    };
    let names = vec!["ab1".to_string(), "ab3".to_string()];
    let first = Bars {
        name: "size 4".into(),
        points: vec![(0.0, 0.9, 0.8, 0.95), (1.0, 0.5, 0.4, 0.6)],
        again: vec![(0.0, 0.85, 0.75, 0.92)],
        ..Bars::default()
    };
    let svg = interval_plot_svg(labels, &[first], Some(&names), Bounds::SCORE).unwrap();
    let doc = parse_svg(&svg);
    assert_eq!(
        count(&doc, "polygon"),
        2,
        "one triangle for the replicated cell and one in the key"
    );
    assert_eq!(count(&doc, "circle"), 2 + 1, "first runs keep their discs");
    assert!(
        texts(&doc)
            .iter()
            .any(|x| x.starts_with("triangle: the replication")),
        "the key names the triangles"
    );
    // The plot's triangle (the rightmost; the key's sits at the key's left edge) is just right
    // of its first run's disc, not on it.
    let disc_x: Vec<f64> = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .filter_map(|n| n.attribute("cx")?.parse().ok())
        .collect();
    let triangle_x = doc
        .descendants()
        .filter(|n| n.has_tag_name("polygon"))
        .filter_map(|n| {
            let xs: Vec<f64> = n
                .attribute("points")?
                .split(' ')
                .filter_map(|p| p.split(',').next()?.parse().ok())
                .collect();
            Some(xs.iter().sum::<f64>() / xs.len() as f64)
        })
        .fold(f64::NEG_INFINITY, f64::max);
    let gap = disc_x
        .iter()
        .map(|d| triangle_x - d)
        .filter(|g| *g > -1.0)
        .fold(f64::INFINITY, f64::min);
    assert!(
        (3.0..40.0).contains(&gap),
        "triangle at {triangle_x}, discs at {disc_x:?}"
    );
    // Without replications, no triangles and no key line for them.
    let plain = Bars {
        name: "size 4".into(),
        points: vec![(0.0, 0.9, 0.8, 0.95)],
        ..Bars::default()
    };
    let svg = interval_plot_svg(labels, &[plain], Some(&names), Bounds::SCORE).unwrap();
    assert_eq!(count(&parse_svg(&svg), "polygon"), 0);
}

#[test]
fn cells_whose_games_repeat_get_open_markers_and_crowded_plots_become_panels() {
    let labels = Labels {
        title: "t: FirstScore against distance",
        x: "distance",
        y: "first colour's score (points a game)",
    };
    let bars = |name: &str, open_at: Vec<f64>| Bars {
        name: name.into(),
        points: vec![(1.0, 1.0, 1.0, 1.0), (2.0, 0.4, 0.3, 0.5)],
        open_at,
        ..Bars::default()
    };
    let svg = interval_plot_svg(labels, &[bars("a", vec![1.0])], None, Bounds::SHARE).unwrap();
    let doc = parse_svg(&svg);
    let t = texts(&doc);
    assert!(
        t.iter()
            .any(|x| x.starts_with("open marker: the cell's games repeat")),
        "{t:?}"
    );
    // The open marker: a white disc under a ring of the series' colour.
    let white = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle") && n.attribute("fill") == Some("#FFFFFF"))
        .count();
    assert_eq!(white, 1, "one open marker");
    // Without repeats, no note and no open marker.
    let plain = interval_plot_svg(labels, &[bars("a", vec![])], None, Bounds::SHARE).unwrap();
    assert!(
        !texts(&parse_svg(&plain))
            .iter()
            .any(|x| x.starts_with("open marker"))
    );
    // Four series: four panels, each captioned by its series, and no legend of names.
    let four: Vec<Bars> = ["w", "x", "y", "z"]
        .iter()
        .map(|n| bars(n, vec![]))
        .collect();
    let svg = interval_plot_svg(labels, &four, None, Bounds::SHARE).unwrap();
    let doc = parse_svg(&svg);
    assert_eq!(
        count(&doc, "circle"),
        8,
        "two markers a panel, no legend markers"
    );
    let t = texts(&doc);
    for name in ["w", "x", "y", "z"] {
        assert_eq!(
            t.iter().filter(|x| *x == name).count(),
            1,
            "{name} in {t:?}"
        );
    }
}

#[test]
fn dot_plots_and_histograms_carry_their_data() {
    let dots = vec![
        Dot {
            name: "mcts".into(),
            value: 120.0,
            low: 80.0,
            high: 160.0,
        },
        Dot {
            name: "alphabeta".into(),
            value: 0.0,
            low: -30.0,
            high: 30.0,
        },
        Dot {
            name: "random".into(),
            value: -120.0,
            low: -170.0,
            high: -70.0,
        },
    ];
    let labels = Labels {
        title: "Ratings",
        x: "rating (Elo, mean 0)",
        y: "agent",
    };
    let svg = dot_plot_svg(labels, &dots).unwrap();
    let doc = parse_svg(&svg);
    // A dot an agent, and one in the legend.
    assert_eq!(count(&doc, "circle"), 4);
    let t = texts(&doc);
    for d in &dots {
        assert!(t.contains(&d.name), "{} missing", d.name);
    }
    let h = histogram_series("lengths", &[1.0, 2.0, 2.5, 9.0], 0.0, 10.0, 5);
    // Shares of the bins [0,2) [2,4) [4,6) [6,8) [8,10): 1/4, 2/4, 0, 0, 1/4.
    let shares: Vec<f64> = h.points[1..h.points.len() - 1]
        .iter()
        .step_by(2)
        .map(|p| p.1)
        .collect();
    assert_eq!(shares, [0.25, 0.5, 0.0, 0.0, 0.25]);
}

#[test]
fn a_tournament_experiment_draws_its_rating_table_as_a_dot_plot() {
    let dir = scratch("ratings-plot");
    let file = write(
        &dir,
        "t.toml",
        "name = \"t\"\ngame = \"rin:size=6\"\nseed = 2\ngames = 4\nagents = [\"random\", \"mcts:iters=20\", \"mcts:iters=200\"]\n",
    );
    ok(&["run", path(&file), "--results", path(&dir), "--quiet"]);
    let svg = std::fs::read_to_string(dir.join("t").join("ratings.svg")).unwrap();
    let doc = parse_svg(&svg);
    let t = texts(&doc);
    for agent in ["random", "mcts:iters=20", "mcts:iters=200"] {
        assert!(t.iter().any(|x| x == agent), "{agent} missing from {t:?}");
    }
    assert_eq!(
        count(&doc, "circle"),
        4,
        "a dot an agent and one in the legend"
    );
    let md = std::fs::read_to_string(dir.join("t").join("summary.md")).unwrap();
    assert!(md.contains("![Ratings](ratings.svg)") && md.contains("| DecisionMoves |"));
}

/// A front end that asks the run to stop once `after` games have finished.
struct StopAfter {
    after: u64,
    seen: u64,
}

impl ringside_arena::run::pool::Observer for StopAfter {
    fn finished(&mut self, _row: &ringside_arena::records::row::GameRow) {
        self.seen += 1;
    }
    fn interrupted(&self) -> bool {
        self.seen >= self.after
    }
}

impl ringside_arena::run::conduct::Conductor for StopAfter {}

#[test]
fn an_interrupted_sweep_stops_between_cells_and_resumes_to_the_same_games() {
    use ringside_arena::run::conduct::{Conduct, conduct};
    let dir = scratch("conduct-interrupt");
    let exp = experiment::parse(SWEEP, Path::new("s.toml")).unwrap();
    let how = |results: &Path| Conduct {
        results: results.to_path_buf(),
        threads: Some(1),
        verify: true,
    };
    let mut stop = StopAfter { after: 1, seen: 0 };
    let first = conduct(&exp, &how(&dir.join("a")), &mut stop).unwrap();
    assert!(first.markdown.contains("interrupted"), "{}", first.markdown);
    assert!(first.played < 32, "{} games of 32", first.played);
    assert!(!dir.join("a").join("s").join("metrics.csv").exists());
    let mut silent = StopAfter {
        after: u64::MAX,
        seen: 0,
    };
    let resumed = conduct(&exp, &how(&dir.join("a")), &mut silent).unwrap();
    assert_eq!(resumed.played + resumed.resumed, 32);
    assert_eq!(resumed.resumed, first.played);
    let mut whole = StopAfter {
        after: u64::MAX,
        seen: 0,
    };
    conduct(&exp, &how(&dir.join("b")), &mut whole).unwrap();
    for cell in &exp.sweep.as_ref().unwrap().cells {
        let games = |root: &str| {
            let path = dir.join(root).join("s").join("cells").join(&cell.folder);
            common::untimed_rows(&path.join("games.csv"))
        };
        assert_eq!(games("a"), games("b"), "{}", cell.label);
    }
}

#[test]
fn deterministic_self_play_is_counted_as_one_distinct_game_and_marked() {
    let dir = scratch("distinct");
    let file = write(
        &dir,
        "d.toml",
        "name = \"d\"\ngame = \"rin\"\nseed = 5\ngames = 8\n\n[grid]\nsize = [6, 8]\n\n[[match]]\nagents = [\"alphabeta:depth=1\", \"alphabeta:depth=1\"]\n\n[[match]]\nagents = [\"random\", \"random\"]\n",
    );
    ok(&["run", path(&file), "--results", path(&dir), "--quiet"]);
    let study = dir.join("d");
    let metrics = std::fs::read_to_string(study.join("metrics.csv")).unwrap();
    let mut r = csv::Reader::from_reader(metrics.as_bytes());
    let h = r.headers().unwrap().clone();
    let at = |name: &str| h.iter().position(|x| x == name).unwrap();
    let (m, distinct) = (at("match"), at("distinct_games"));
    for row in r.records().map(Result::unwrap) {
        let want = if row[m].starts_with("alphabeta") {
            "1"
        } else {
            "8"
        };
        assert_eq!(&row[distinct], want, "{row:?}");
    }
    let summary = std::fs::read_to_string(study.join("summary.md")).unwrap();
    assert!(
        summary.contains("**2 of 4 cells repeat their games**"),
        "{summary}"
    );
    // Self-play tests nothing of A against B: no test, no row.
    assert!(summary.contains("No tests: every match is a self-play."));
    let tests = std::fs::read_to_string(study.join("tests.csv")).unwrap();
    assert_eq!(tests.lines().count(), 1, "{tests}");
    assert_eq!(
        summary.matches("| 1 of 8 *repeats* |").count(),
        2,
        "{summary}"
    );
    assert_eq!(summary.matches("| 8 of 8 |").count(), 2, "{summary}");
    // Each cell's own summary says it too, in the Markdown and in summary.csv.
    let cell = study.join("cells").join("size=6");
    let md = std::fs::read_to_string(cell.join("summary.md")).unwrap();
    assert!(md.contains("| distinct games | 1 |"), "{md}");
    assert!(
        md.contains("**Games repeat:** only 1 distinct games among 8"),
        "{md}"
    );
    let mut r = csv::Reader::from_path(cell.join("summary.csv")).unwrap();
    let at = r
        .headers()
        .unwrap()
        .iter()
        .position(|x| x == "distinct_games")
        .unwrap();
    let counts: Vec<String> = r.records().map(|x| x.unwrap()[at].to_string()).collect();
    assert_eq!(counts, ["1", "8"]);
    // The figures draw the repeated cells with open markers and say what they mean.
    let svg = std::fs::read_to_string(study.join("metric-FirstScore.svg")).unwrap();
    assert!(svg.contains("open marker: the cell"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_test_of_a_study_gets_its_pair_p_value_and_the_holm_adjustment_over_all_tests() {
    let dir = scratch("study-tests");
    let file = write(
        &dir,
        "t.toml",
        "name = \"t\"\ngame = \"rin\"\nseed = 3\ngames = 24\n\n[grid]\nsize = [6, 8]\n\n[[match]]\nagents = [\"mcts:iters=60\", \"random\"]\n\n[[match]]\nagents = [\"random\", \"mcts:iters=2\"]\n",
    );
    ok(&["run", path(&file), "--results", path(&dir), "--quiet"]);
    let study = dir.join("t");
    let mut r = csv::Reader::from_path(study.join("tests.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    assert_eq!(
        h.iter().collect::<Vec<_>>(),
        [
            "cell", "size", "match", "pairs", "elo", "elo_lo", "elo_hi", "p", "holm_p"
        ]
    );
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 4);
    let num = |row: &csv::StringRecord, i: usize| row[i].parse::<f64>().unwrap();
    for row in &rows {
        // The p-value from the cell's own pentanomial counts (summary.csv), worked out here:
        // z = (mean − ½) / √(var / pairs) on the per-game pair scores, p = 1 − erf(|z|/√2).
        let pairing = if row[2].starts_with("mcts") { 0 } else { 1 };
        let cell = study.join("cells").join(&row[0]);
        let mut s = csv::Reader::from_path(cell.join("summary.csv")).unwrap();
        let sh = s.headers().unwrap().clone();
        let srow = s.records().map(Result::unwrap).nth(pairing).unwrap();
        let counts: Vec<f64> = ["pairs_0", "pairs_half", "pairs_1", "pairs_1half", "pairs_2"]
            .iter()
            .map(|k| {
                srow[sh.iter().position(|x| x == *k).unwrap()]
                    .parse()
                    .unwrap()
            })
            .collect();
        let n: f64 = counts.iter().sum();
        assert_eq!(n, 12.0);
        let x = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean = counts.iter().zip(x).map(|(c, x)| c * x).sum::<f64>() / n;
        let var = counts
            .iter()
            .zip(x)
            .map(|(c, x)| c * (x - mean).powi(2))
            .sum::<f64>()
            / n;
        let expected = if var == 0.0 {
            if mean == 0.5 {
                1.0
            } else {
                (2.0 * 0.5f64.powi(12)).min(1.0)
            }
        } else {
            let z = ((mean - 0.5) / (var / n).sqrt()).abs();
            1.0 - ringside_arena::figures::stats::erf(z / std::f64::consts::SQRT_2)
        };
        assert!((num(row, 7) - expected).abs() < 1e-6, "{row:?}: {expected}");
    }
    // Holm over the four: the k-th smallest p times 4 − k + 1, the running maximum, capped.
    let mut order: Vec<usize> = (0..4).collect();
    order.sort_by(|&a, &b| num(&rows[a], 7).total_cmp(&num(&rows[b], 7)));
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((4 - k) as f64 * num(&rows[i], 7)).min(1.0));
        assert!((num(&rows[i], 8) - running).abs() < 1e-5, "{:?}", rows[i]);
    }
    // MCTS with 60 iterations against random wins every pair on Rin: significant after the
    // adjustment, and said so in the summary.
    let summary = std::fs::read_to_string(study.join("summary.md")).unwrap();
    assert!(summary.contains("## A against B: 4 tests"), "{summary}");
    assert!(summary.contains("**significant**"), "{summary}");
}
