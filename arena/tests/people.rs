//! `arena play` through a pipe, and the pictures of games (`replay --svg`, `--html`).

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{ok, path, scratch, text};
use ringside_agents::LabelledSpec;
use ringside_arena::figures::picture::{html_of_game, svg_of_game};
use ringside_arena::protocols::people::{Table, play};
use ringside_engine::registry::AnyGame;

fn game(spec: &str) -> AnyGame {
    AnyGame::parse(spec).unwrap()
}
use ringside_arena::records::row::Reason;

/// Every cell of Havannah size 4, in reading order: typed one a line, they finish a game
/// whatever the agent plays (an occupied cell is refused and the next line read).
fn every_cell() -> String {
    let mut lines = String::new();
    for (row, count, first) in [
        (1, 4, 0),
        (2, 5, 0),
        (3, 6, 0),
        (4, 7, 0),
        (5, 6, 1),
        (6, 5, 2),
        (7, 4, 3),
    ] {
        for k in 0..count {
            lines.push_str(&format!("{}{row}\n", char::from(b'a' + first + k)));
        }
    }
    lines
}

#[test]
fn a_whole_game_through_a_pipe_is_saved_and_replays() {
    let dir = scratch("play-pipe");
    let csv = dir.join("games.csv");
    let run = || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args([
                "play",
                "--game",
                "havannah:size=4",
                "--agent",
                "mcts:iters=60",
                "--seed",
                "4",
            ])
            .args(["--save", path(&csv)])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(format!("zz\n{}", every_cell()).as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    let out = run();
    assert!(out.contains("illegal move 'zz'"), "a bad move is explained");
    assert!(out.contains("try again"));
    assert!(
        out.contains("you win (normal)") || out.contains("the agent wins (normal)"),
        "the game ends by the rules: {}",
        &out[out.len().saturating_sub(300)..]
    );
    assert!(
        out.contains("a1 ") && out.contains(" g4"),
        "coordinates on the edges"
    );
    // The saved game replays from the CSV and summarises like any run's.
    let replay = ok(&["replay", "--from", path(&csv), "--id", "0"]);
    assert!(text(&replay.stdout).contains("wins"));
    ok(&["summary", path(&csv)]);
    // The same seed and the same typing give the same game; a second save of it is refused.
    std::fs::rename(&csv, dir.join("first.csv")).unwrap();
    std::fs::rename(
        dir.join("games.csv.settings.json"),
        dir.join("first.csv.settings.json"),
    )
    .unwrap();
    run();
    let moves = |p: &std::path::Path| {
        let c = std::fs::read_to_string(p).unwrap();
        c.lines()
            .nth(1)
            .unwrap()
            .rsplit(',')
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(moves(&csv), moves(&dir.join("first.csv")));
}

#[test]
fn undo_takes_back_the_persons_move_and_the_agents_reply() {
    let game = AnyGame::parse("havannah:size=4").unwrap();
    let table = Table {
        game: &game,
        agent: &LabelledSpec::parse("mcts:iters=30").unwrap(),
        person_first: true,
        seed: 2,
        save: None,
    };
    let mut out = Vec::new();
    let row = play(
        &table,
        &mut "a1\nundo\nundo\nb2\nquit\n".as_bytes(),
        &mut out,
    )
    .unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("undone"));
    assert!(
        out.contains("nothing of yours to undo"),
        "a second undo has nothing left"
    );
    assert_eq!(row.reason, Reason::Resign);
    let moves: Vec<&str> = row.moves.split(' ').collect();
    assert_eq!(moves.len(), 2, "b2 and the agent's reply: {}", row.moves);
    assert_eq!(moves[0], "b2");
    // As second player the agent moves first.
    let second = Table {
        person_first: false,
        ..table
    };
    let mut out = Vec::new();
    let row = play(&second, &mut "".as_bytes(), &mut out).unwrap();
    assert_eq!(
        row.plies, 1,
        "the agent's opening move, then the input ends"
    );
    assert_eq!(row.winner_agent(), Some(1));
}

/// The `class` values of an SVG's circles.
fn circle_classes(svg: &str) -> Vec<(String, Option<String>)> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| {
            (
                n.attribute("class").unwrap_or("").to_string(),
                n.attribute("data-cell").map(str::to_string),
            )
        })
        .collect()
}

#[test]
fn an_svg_has_one_mark_a_stone_and_rings_the_last_move() {
    let svg = svg_of_game(&game("havannah:size=4"), "a1 d4 b2", None).unwrap();
    let circles = circle_classes(&svg);
    let stones: Vec<_> = circles
        .iter()
        .filter(|(c, _)| c.starts_with("stone"))
        .collect();
    assert_eq!(stones.len(), 3);
    assert_eq!(stones.iter().filter(|(c, _)| c == "stone p0").count(), 2);
    let mut cells: Vec<&str> = stones.iter().filter_map(|(_, d)| d.as_deref()).collect();
    cells.sort_unstable();
    assert_eq!(cells, ["a1", "b2", "d4"]);
    assert_eq!(circles.iter().filter(|(c, _)| c == "last").count(), 1);
    assert!(
        svg.contains(">a1</text>") && svg.contains(">g4</text>"),
        "coordinates"
    );
    assert_eq!(svg.matches("<polygon").count(), 37, "37 hexagons on size 4");
    // At --ply 1 only the first stone is drawn; a square board draws squares.
    let early = svg_of_game(&game("havannah:size=4"), "a1 d4 b2", Some(1)).unwrap();
    assert_eq!(
        circle_classes(&early)
            .iter()
            .filter(|(c, _)| c.starts_with("stone"))
            .count(),
        1
    );
    let rin = svg_of_game(&game("rin:size=6"), "a1 b2 c3", None).unwrap();
    assert_eq!(rin.matches("<rect class=\"cell\"").count(), 36);
    assert_eq!(
        circle_classes(&rin)
            .iter()
            .filter(|(c, _)| c.starts_with("stone"))
            .count(),
        3
    );
    assert!(svg_of_game(&game("havannah:size=4"), "a1 a1", None).is_err());
    assert!(svg_of_game(&game("havannah:size=4"), "a1", Some(5)).is_err());
}

#[test]
fn the_html_page_holds_every_position_and_the_games_move_list() {
    let moves = "a1 b2 c3 d4";
    let page = html_of_game(&game("rin:size=6"), moves, "a test").unwrap();
    assert!(
        !page.contains("src=\"http") && !page.contains("href=\"http"),
        "nothing is loaded from the network"
    );
    let start = page.find("id=\"game\">").unwrap() + "id=\"game\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    let data: serde_json::Value =
        serde_json::from_str(&page[start..end].replace("<\\/", "</")).unwrap();
    let listed: Vec<&str> = data["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(listed.join(" "), moves);
    let frames = data["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 5, "the start and every move");
    for f in frames {
        roxmltree::Document::parse(f.as_str().unwrap()).expect("each frame is XML");
    }
    let items: Vec<&str> = page
        .split("data-ply=\"")
        .skip(1)
        .map(|s| &s[s.find('>').unwrap() + 1..s.find("</a>").unwrap()])
        .collect();
    assert_eq!(items.join(" "), moves, "the page's move list is the game's");
}

#[test]
fn replay_writes_the_svg_and_html_files_for_a_game_of_a_csv() {
    let dir = scratch("replay-pictures");
    let csv = dir.join("g.csv");
    ok(&[
        "match",
        "--game",
        "hexxagon:side=4",
        "--agents",
        "random",
        "random",
        "--games",
        "2",
        "--out",
        path(&csv),
        "--quiet",
    ]);
    let (svg, html) = (dir.join("g.svg"), dir.join("g.html"));
    ok(&[
        "replay",
        "--from",
        path(&csv),
        "--id",
        "1",
        "--svg",
        path(&svg),
        "--html",
        path(&html),
    ]);
    roxmltree::Document::parse(&std::fs::read_to_string(&svg).unwrap()).unwrap();
    assert!(
        std::fs::read_to_string(&html)
            .unwrap()
            .contains("game 1 of")
    );
}
