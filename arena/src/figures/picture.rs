//! Pictures of positions and games: a board with coordinates for the terminal, an SVG of one
//! position, and one self-contained HTML page that steps through a whole game.
//!
//! Every registry game is drawn by the same code, from what the [`Game`] trait gives: the
//! board's text rows ([`Game::board_rows`]: a hex board's rows are indented, a square board's
//! are not) and its cell names ([`Game::cell_names`]). A stone's letter is its colour's
//! initial (`B`/`W`, `L`/`D`, `X`/`O`); a lower-case initial is an empty cell that belongs to
//! that colour (an Ikabegamá nest).
//!
//! Layout, in cell units: on a square board a cell is at (column, row); on a hex board two
//! text columns are one cell, and rows are √3/2 apart, so the cells are pointy-top hexagons
//! of width 1.

use std::fmt::Write as _;

use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{CellShape, Features, Game, Player, Stone};

use crate::error::Result;
use crate::records::row::play_listed;

/// One cell of a drawing.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnCell {
    /// Its name in the game's notation.
    pub name: String,
    /// Its centre, in cell units from the top left.
    pub x: f64,
    /// Its centre's height, downwards.
    pub y: f64,
    /// Its row, from the top.
    pub row: usize,
    /// The stone on it, by colour.
    pub stone: Option<Player>,
    /// The colour an empty cell belongs to (a nest).
    pub marked: Option<Player>,
}

/// A position's board as cells.
#[derive(Debug, Clone, PartialEq)]
pub struct Board {
    /// Hexagonal cells, or square.
    pub hex: bool,
    /// Every cell, row by row.
    pub cells: Vec<DrawnCell>,
}

/// The colour whose initial is `c` (either case).
fn colour_of<G: Game>(state: &G, c: char) -> Option<Player> {
    [Player::ZERO, Player::ONE].into_iter().find(|&p| {
        state
            .player_name(p)
            .chars()
            .next()
            .is_some_and(|i| i.eq_ignore_ascii_case(&c))
    })
}

/// The board of `state` as cells.
#[must_use]
pub fn board<G: Game>(state: &G) -> Board {
    let rows = state.board_rows();
    let names = state.cell_names();
    let hex = state.cell_shape() == CellShape::Hex;
    let mut cells = Vec::new();
    for (row, text) in rows.iter().enumerate() {
        let mut place = 0;
        for (column, c) in text.chars().enumerate() {
            if c.is_whitespace() {
                continue;
            }
            let name = names
                .get(row)
                .and_then(|r| r.get(place))
                .cloned()
                .unwrap_or_default();
            place += 1;
            let (x, y) = if hex {
                (column as f64 / 2.0, row as f64 * 3f64.sqrt() / 2.0)
            } else {
                (column as f64, row as f64)
            };
            let colour = colour_of(state, c);
            cells.push(DrawnCell {
                name,
                x,
                y,
                row,
                stone: colour.filter(|_| c.is_ascii_uppercase()),
                marked: colour.filter(|_| c.is_ascii_lowercase()),
            });
        }
    }
    Board { hex, cells }
}

/// The cell names a move's text mentions (`e3`; `c3-e4` names two).
#[must_use]
pub fn cells_of_move(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let digits = word.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        if !digits.is_empty()
            && digits.len() < word.len()
            && digits.bytes().all(|b| b.is_ascii_digit())
        {
            out.push(word.to_string());
        }
    }
    out
}

/// The board for a terminal: each row between the names of its first and last cells (so
/// the coordinates run along both edges), cells separated by spaces.
#[must_use]
pub fn board_text<G: Game>(state: &G) -> String {
    let rows = state.board_rows();
    let names = state.cell_names();
    let hex = state.cell_shape() == CellShape::Hex;
    let width = names.iter().flatten().map(String::len).max().unwrap_or(0);
    let mut out = String::new();
    for (row, text) in rows.iter().enumerate() {
        let drawn = if hex {
            text.clone()
        } else {
            let cells: Vec<String> = text.chars().map(String::from).collect();
            cells.join(" ")
        };
        let first = names
            .get(row)
            .and_then(|r| r.first())
            .map_or("", String::as_str);
        let last = names
            .get(row)
            .and_then(|r| r.last())
            .map_or("", String::as_str);
        let _ = writeln!(out, "{first:>width$}  {drawn}  {last}");
    }
    out
}

/// Fill colours: black and white where the game plays with black and white stones, else red
/// and blue.
fn fill<G: Game>(state: &G, p: Player) -> &'static str {
    match state.stone(p) {
        Some(Stone::Black) => "#1b1b1b",
        Some(Stone::White) => "#f4f4f4",
        None if p == Player::ZERO => "#d03a2f",
        None => "#2f5fd0",
    }
}

/// Pixels a cell unit.
const UNIT: f64 = 36.0;
/// Margin for coordinates, in cell units.
const MARGIN: f64 = 1.6;

/// The outline of a cell centred at (cx, cy) pixels.
fn cell_shape(hex: bool, cx: f64, cy: f64) -> String {
    if hex {
        let r = UNIT / 3f64.sqrt();
        let points: Vec<String> = (0..6)
            .map(|k| {
                let a = std::f64::consts::PI / 3.0 * f64::from(k) + std::f64::consts::PI / 6.0;
                format!("{:.1},{:.1}", cx + r * a.cos(), cy + r * a.sin())
            })
            .collect();
        format!("<polygon class=\"cell\" points=\"{}\"/>", points.join(" "))
    } else {
        let h = UNIT / 2.0;
        format!(
            "<rect class=\"cell\" x=\"{:.1}\" y=\"{:.1}\" width=\"{UNIT}\" height=\"{UNIT}\"/>",
            cx - h,
            cy - h
        )
    }
}

/// An SVG of `state`, titled `title`, with the cells of `last_move` ringed.
#[must_use]
pub fn svg<G: Game>(state: &G, title: &str, last_move: Option<&str>) -> String {
    let b = board(state);
    let max_x = b.cells.iter().map(|c| c.x).fold(0.0, f64::max);
    let max_y = b.cells.iter().map(|c| c.y).fold(0.0, f64::max);
    let px = |v: f64| (v + MARGIN) * UNIT;
    let (width, height) = (px(max_x) + MARGIN * UNIT, px(max_y) + MARGIN * UNIT);
    let ringed = last_move.map(cells_of_move).unwrap_or_default();
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\">\n\
         <style>.cell{{fill:#e8c98f;stroke:#7a5a2a;stroke-width:1}}\
         .coord{{font-size:11px;fill:#555}}.last{{fill:none;stroke:#e0218a;stroke-width:3}}\
         .nest{{fill:none;stroke-width:3;stroke-dasharray:4 3}}</style>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#fffdf6\"/>\n\
         <text x=\"{:.0}\" y=\"18\" font-size=\"14\">{}</text>\n",
        UNIT * 0.3,
        escape(title)
    );
    for c in &b.cells {
        s.push_str(&cell_shape(b.hex, px(c.x), px(c.y)));
        s.push('\n');
    }
    // Coordinates: the first and last cell names of every row, outside the board.
    let rows = b.cells.last().map_or(0, |c| c.row + 1);
    for row in 0..rows {
        let in_row: Vec<&DrawnCell> = b.cells.iter().filter(|c| c.row == row).collect();
        for (cell, dx, anchor) in [
            (in_row[0], -0.75, "end"),
            (in_row[in_row.len() - 1], 0.75, "start"),
        ] {
            let _ = writeln!(
                s,
                "<text class=\"coord\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"{anchor}\">{}</text>",
                px(cell.x + dx),
                px(cell.y) + 4.0,
                escape(&cell.name)
            );
        }
    }
    for c in &b.cells {
        if let Some(p) = c.marked {
            let _ = writeln!(
                s,
                "<circle class=\"nest p{}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" stroke=\"{}\"/>",
                p.index(),
                px(c.x),
                px(c.y),
                UNIT * 0.3,
                fill(state, p)
            );
        }
        if let Some(p) = c.stone {
            let _ = writeln!(
                s,
                "<circle class=\"stone p{}\" data-cell=\"{}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" \
                 fill=\"{}\" stroke=\"#333\"/>",
                p.index(),
                escape(&c.name),
                px(c.x),
                px(c.y),
                UNIT * 0.4,
                fill(state, p)
            );
        }
        if ringed.contains(&c.name) {
            let _ = writeln!(
                s,
                "<circle class=\"last\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\"/>",
                px(c.x),
                px(c.y),
                UNIT * 0.46
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// `&`, `<`, `>` and `"` escaped for XML and HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The title line of a position: the game, the ply, who moves or the result.
fn caption<G: Game>(state: &G, ply: usize) -> String {
    let status = match (state.to_move(), state.outcome()) {
        (Some(p), _) => format!("{} to move", state.player_name(p)),
        (None, Some(ringside_engine::Outcome::Win(p))) => format!("{} won", state.player_name(p)),
        _ => "draw".into(),
    };
    format!("{} · ply {ply} · {status}", state.spec())
}

/// The SVG of the position after `ply` moves (all, if `None`) of `moves` on `game`. Every
/// move is checked, those after `ply` too (an error names the first bad one).
pub fn svg_of_game(game: &AnyGame, moves: &str, ply: Option<usize>) -> Result<String> {
    let texts: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
    let ply = ply.unwrap_or(texts.len());
    if ply > texts.len() {
        return Err(crate::Error::about(
            crate::Setting::Ply,
            format_args!("{ply}: the game has {} plies", texts.len()),
        ));
    }
    game.visit(Draw { moves: &texts, ply })
}

struct Draw<'a> {
    moves: &'a [String],
    ply: usize,
}

impl GameVisitor for Draw<'_> {
    type Output = Result<String>;
    fn visit<G: Game + Features>(self, start: G) -> Result<String> {
        let total = self.moves.len();
        let mut state = start;
        let mut drawn = None;
        for (i, text) in self.moves.iter().enumerate() {
            if i == self.ply {
                drawn = Some(state.clone());
            }
            state = play_listed(state, text, i, total)?;
        }
        let at = drawn.unwrap_or(state);
        let last = self.ply.checked_sub(1).map(|i| self.moves[i].as_str());
        Ok(svg(&at, &caption(&at, self.ply), last))
    }
}

/// One self-contained HTML page (no network) that steps through `moves` on `game`: the
/// board as SVG, buttons and the arrow keys (Home/End too) to move, and the move list, each
/// move a link to its position. The game's data is in a `<script type="application/json"
/// id="game">` block: `moves`, and `frames`, the SVG of every position from the start.
pub fn html_of_game(game: &AnyGame, moves: &str, title: &str) -> Result<String> {
    viewer_page(
        game,
        moves,
        title,
        &format!("<script>\n{VIEWER_SCRIPT}</script>"),
    )
}

/// [`html_of_game`] with its script loaded from `script_url` instead of written into the
/// page (which must then serve [`VIEWER_SCRIPT`] there): for a server whose
/// Content-Security-Policy allows no inline script.
pub fn html_of_game_linked(
    game: &AnyGame,
    moves: &str,
    title: &str,
    script_url: &str,
) -> Result<String> {
    let tag = format!("<script src=\"{}\"></script>", escape(script_url));
    viewer_page(game, moves, title, &tag)
}

/// The viewer page of `moves` on `game` with `script` (a script element) at its end.
fn viewer_page(game: &AnyGame, moves: &str, title: &str, script: &str) -> Result<String> {
    let texts: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
    struct Page<'a> {
        moves: &'a [String],
        title: &'a str,
        script: &'a str,
    }
    impl GameVisitor for Page<'_> {
        type Output = Result<String>;
        fn visit<G: Game + Features>(self, start: G) -> Result<String> {
            let mut state = start;
            let mut frames = vec![svg(&state, &caption(&state, 0), None)];
            let total = self.moves.len();
            for (i, text) in self.moves.iter().enumerate() {
                state = play_listed(state, text, i, total)?;
                frames.push(svg(&state, &caption(&state, i + 1), Some(text)));
            }
            let data = serde_json::json!({ "moves": self.moves, "frames": frames });
            // `</` inside a script block would end it early.
            let data = data.to_string().replace("</", "<\\/");
            let mut list = String::new();
            for (i, m) in self.moves.iter().enumerate() {
                let _ = write!(
                    list,
                    "<li><a href=\"#\" data-ply=\"{}\">{}</a></li>",
                    i + 1,
                    escape(m)
                );
            }
            Ok(PAGE
                .replace("{title}", &escape(self.title))
                .replace("{list}", &list)
                .replace("{data}", &data)
                .replace("{script}", self.script))
        }
    }
    game.visit(Page {
        moves: &texts,
        title,
        script,
    })
}

/// The viewer page; `{title}`, `{list}`, `{data}` and `{script}` are filled in.
const PAGE: &str = r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>
<style>
body{font-family:sans-serif;margin:16px;background:#fffdf6;color:#222}
#wrap{display:flex;gap:24px;align-items:flex-start;flex-wrap:wrap}
#board svg{max-width:100%;height:auto}
#moves{max-height:80vh;overflow:auto;margin:0;padding-left:3.5em;min-width:9em}
#moves a{color:#222;text-decoration:none;padding:0 4px}
#moves a.now{background:#e0218a;color:#fff;border-radius:3px}
button{font-size:18px;min-width:44px}
</style></head><body>
<h1 style="font-size:18px">{title}</h1>
<div><button id="first" title="start (Home)">|&lt;</button> <button id="prev" title="back (&#x2190;)">&#x25C0;</button>
<button id="next" title="forward (&#x2192;)">&#x25B6;</button> <button id="last" title="end (End)">&gt;|</button>
<span id="where"></span></div>
<div id="wrap"><div id="board"></div><ol id="moves">{list}</ol></div>
<script type="application/json" id="game">{data}</script>
{script}</body></html>
"#;

/// The viewer's script: it reads the game from the page's `game` data block.
pub const VIEWER_SCRIPT: &str = r#"const game = JSON.parse(document.getElementById('game').textContent);
let ply = game.moves.length;
function show(k) {
  ply = Math.max(0, Math.min(game.moves.length, k));
  // Parsed as SVG, never as HTML: nothing in a frame can run.
  const svg = new DOMParser().parseFromString(game.frames[ply], 'image/svg+xml').documentElement;
  document.getElementById('board').replaceChildren(document.importNode(svg, true));
  document.getElementById('where').textContent = ' ply ' + ply + ' of ' + game.moves.length;
  document.querySelectorAll('#moves a').forEach(a => a.classList.toggle('now', +a.dataset.ply === ply));
}
document.getElementById('first').onclick = () => show(0);
document.getElementById('prev').onclick = () => show(ply - 1);
document.getElementById('next').onclick = () => show(ply + 1);
document.getElementById('last').onclick = () => show(game.moves.length);
document.querySelectorAll('#moves a').forEach(a => a.onclick = e => { e.preventDefault(); show(+a.dataset.ply); });
document.addEventListener('keydown', e => {
  const to = {ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: game.moves.length}[e.key];
  if (to !== undefined) { e.preventDefault(); show(to); }
});
show(ply);
"#;
