//! The pages: plain HTML, one small script and one style sheet, served from these strings
//! (no build step, no network). The script builds every element with `textContent` and
//! attributes, never markup from text, and reports its own errors into the page's `errors`
//! region (which a headless browser's dump of the page can read). Boards arrive as SVG text
//! and are shown as images (`data:` URLs), where nothing can run.

/// `/`: the runs under the served folders.
pub const INDEX: &str = r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ringside runs</title><link rel="stylesheet" href="/static/style.css"></head>
<body data-page="index">
<header><h1>Ringside runs</h1><p id="status" role="status" aria-live="polite">Loading…</p></header>
<div id="errors" role="alert" hidden></div>
<main><section aria-labelledby="runs-h"><h2 id="runs-h">Runs</h2>
<label class="filter">Filter <input id="filter" type="search" autocomplete="off"></label>
<div class="scroll"><table id="runs"><caption class="sr">Games files with their settings, newest change first</caption>
<thead><tr><th scope="col">Run</th><th scope="col">Size</th><th scope="col">Last change</th></tr></thead><tbody></tbody></table></div>
</section></main>
<script src="/static/app.js"></script></body></html>
"#;

/// `/run?run=KEY`: one run, kept up to date.
pub const RUN: &str = r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ringside run</title><link rel="stylesheet" href="/static/style.css"></head>
<body data-page="run">
<header><p><a href="/">All runs</a></p><h1 id="title">Run</h1>
<p id="status" role="status" aria-live="polite">Loading…</p></header>
<div id="errors" role="alert" hidden></div>
<main>
<section id="sprt-section" aria-labelledby="sprt-h" hidden><h2 id="sprt-h">SPRT</h2><div id="sprt"></div></section>
<section aria-labelledby="standings-h"><h2 id="standings-h">Standings</h2><div id="standings" class="scroll"></div></section>
<section id="ratings-section" aria-labelledby="ratings-h" hidden><h2 id="ratings-h">Ratings</h2><div id="ratings" class="scroll"></div></section>
<section id="clocks-section" aria-labelledby="clocks-h" hidden><h2 id="clocks-h">Clocks</h2><div id="clocks" class="scroll"></div></section>
<section aria-labelledby="live-h"><h2 id="live-h">Games in progress</h2><div id="live" class="boards"></div></section>
<section id="verdicts-section" aria-labelledby="verdicts-h" hidden><h2 id="verdicts-h">Verdict of the report</h2><ul id="verdicts"></ul></section>
<section id="figures-section" aria-labelledby="figures-h" hidden><h2 id="figures-h">Figures</h2><div id="figures" class="figures"></div></section>
<section aria-labelledby="games-h"><h2 id="games-h">Games</h2>
<div class="scroll"><table id="games"><caption class="sr">Finished games, newest first; each opens in the game viewer</caption>
<thead><tr><th scope="col">Row</th><th scope="col">Game</th><th scope="col">First</th><th scope="col">Second</th><th scope="col">Result</th><th scope="col">Reason</th><th scope="col">Plies</th></tr></thead>
<tbody></tbody></table></div></section>
</main>
<script src="/static/app.js"></script></body></html>
"#;

/// The style sheet: readable on a phone (tables scroll sideways), contrast above WCAG AA.
pub const STYLE_CSS: &str = r#"*{box-sizing:border-box}
body{font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#fbfaf7;color:#1b1b1b}
header,main{max-width:1100px;margin:0 auto;padding:0 14px}
header{padding-top:10px}
h1{font-size:1.35rem;margin:.3em 0;overflow-wrap:anywhere}
h2{font-size:1.1rem;margin:1.2em 0 .4em;border-bottom:2px solid #d9d4c7;padding-bottom:2px}
a{color:#0b57a4}
a:focus,button:focus,input:focus{outline:3px solid #c2410c;outline-offset:1px}
#status{color:#333;margin:.2em 0}
.badge{display:inline-block;border-radius:3px;padding:0 6px;font-size:.85rem;font-weight:600}
.writing{background:#14642e;color:#fff}.idle{background:#e3e0d8;color:#1b1b1b}
#errors{background:#fde8e8;border:1px solid #a61b1b;color:#7a1010;padding:6px 10px;margin:8px auto;max-width:1100px}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-size:.92rem;min-width:100%}
th,td{padding:4px 8px;border-bottom:1px solid #e3e0d8;text-align:left;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
thead th{background:#efece4}
tbody tr:nth-child(even){background:#f6f4ee}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.boards{display:flex;flex-wrap:wrap;gap:14px}
.board{background:#fff;border:1px solid #d9d4c7;border-radius:6px;padding:8px;width:min(100%,340px)}
.board img{width:100%;height:auto;display:block}
.board p{margin:.3em 0;font-size:.9rem;overflow-wrap:anywhere}
.moves{font-family:ui-monospace,Menlo,Consolas,monospace;color:#333}
.figures{display:flex;flex-wrap:wrap;gap:14px}
figure{margin:0;width:min(100%,520px)}figure img{width:100%;height:auto;background:#fff;border:1px solid #e3e0d8}
figcaption{font-size:.85rem;color:#333}
meter{width:min(100%,420px);height:1.2em}
.meter{display:flex;align-items:center;gap:.4em;max-width:480px}.meter meter{flex:1}
.filter{display:block;margin:.3em 0 .6em}
input{font:inherit;padding:3px 6px}
.empty{color:#555;font-style:italic}
tr.new{animation:flash 1.5s}
@keyframes flash{from{background:#fff3b0}to{background:transparent}}
@media (prefers-reduced-motion:reduce){tr.new{animation:none}}
"#;

/// The pages' script.
pub const APP_JS: &str = r#"'use strict';
const errorBox = document.getElementById('errors');
function reportError(message) {
  errorBox.hidden = false;
  const p = document.createElement('p');
  p.textContent = message;
  errorBox.append(p);
}
window.addEventListener('error', e => reportError('Script error: ' + e.message));
window.addEventListener('unhandledrejection', e => reportError('Script error: ' + e.reason));

// An element with attributes and children; text children are text nodes, never markup.
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === 'class') node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}
function table(head, rows, numeric) {
  const t = el('table');
  t.append(el('thead', {}, el('tr', {}, ...head.map((h, i) => el('th', {scope: 'col', class: numeric && numeric[i] ? 'num' : null}, h)))));
  const body = el('tbody');
  for (const r of rows) body.append(el('tr', {}, ...r.map((c, i) => el('td', {class: numeric && numeric[i] ? 'num' : null}, c))));
  t.append(body);
  return t;
}
const pct = x => (100 * x).toFixed(1) + '%';
const fixed = (x, d) => (x === null || x === undefined) ? '–' : Number(x).toFixed(d);
const wdl = r => r.w + '-' + r.d + '-' + r.l;
function ago(seconds) {
  if (seconds === null || seconds === undefined) return 'unknown';
  if (seconds < 60) return seconds + ' s ago';
  if (seconds < 3600) return Math.round(seconds / 60) + ' min ago';
  if (seconds < 86400) return Math.round(seconds / 3600) + ' h ago';
  return Math.round(seconds / 86400) + ' days ago';
}
function bytes(n) {
  if (n < 1024) return n + ' B';
  if (n < 1 << 20) return (n / 1024).toFixed(1) + ' KiB';
  if (n < 1 << 30) return (n / (1 << 20)).toFixed(1) + ' MiB';
  return (n / (1 << 30)).toFixed(2) + ' GiB';
}
function fill(id, ...nodes) { document.getElementById(id).replaceChildren(...nodes); }
function show(id, on) { document.getElementById(id).hidden = !on; }
async function getJson(url) {
  const res = await fetch(url, {cache: 'no-store'});
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}
const WRITING = 60;

// The index.
async function loadIndex() {
  const status = document.getElementById('status');
  let runs = [];
  try {
    runs = (await getJson('/api/runs')).runs;
  } catch (e) {
    status.textContent = 'Cannot list the runs: ' + e.message;
    return;
  }
  runs.sort((a, b) => (a.seconds_since_change ?? 1e12) - (b.seconds_since_change ?? 1e12));
  const body = document.querySelector('#runs tbody');
  const render = () => {
    const words = document.getElementById('filter').value.toLowerCase().split(/\s+/).filter(w => w);
    body.replaceChildren(...runs.filter(r => words.every(w => r.key.toLowerCase().includes(w))).map(r => {
      const writing = r.seconds_since_change !== null && r.seconds_since_change < WRITING;
      return el('tr', {},
        el('td', {}, el('a', {href: '/run?run=' + encodeURIComponent(r.key)}, r.key), ' ',
          writing ? el('span', {class: 'badge writing'}, 'writing') : null),
        el('td', {class: 'num'}, bytes(r.bytes)),
        el('td', {}, ago(r.seconds_since_change)));
    }));
  };
  document.getElementById('filter').addEventListener('input', render);
  render();
  status.textContent = runs.length + ' runs';
}

// One run.
const key = new URLSearchParams(location.search).get('run') || '';
let since = 0;
let polling = false;
// Rows that arrive after the first answer are marked new (and flash).
let loaded = false;

function renderStandings(s) {
  const rows = s.pairings.map(p => [
    p.a_label + ' vs ' + p.b_label, p.games, wdl(p.all),
    pct(p.score) + ' [' + pct(p.score_interval[0]) + ', ' + pct(p.score_interval[1]) + ']',
    p.elo.text, pct(p.los), p.pentanomial.join(' '), p.pair_elo.text, pct(p.draw_rate),
    wdl(p.a_first), wdl(p.a_second), fixed(p.mean_plies, 1)]);
  fill('standings', rows.length ? table(
    ['Pairing', 'Games', 'W-D-L', 'Score [95%]', 'Elo [95%]', 'LOS', 'Pairs 0 ½ 1 1½ 2', 'Elo from pairs', 'Draws', 'W-D-L as first', 'W-D-L as second', 'Mean plies'],
    rows, [false, true, true, true, true, true, true, true, true, true, true, true]) : el('p', {class: 'empty'}, 'No games yet.'));
  const ratingRows = [];
  s.ratings.forEach((g, k) => g.members.forEach((m, i) => ratingRows.push([
    s.ratings.length > 1 ? 'group ' + (k + 1) : '', s.agents[m].label,
    fixed(g.ratings[i], 1) + ' ± ' + fixed(g.half_widths[i], 1)])));
  show('ratings-section', ratingRows.length > 0);
  fill('ratings', table(['Group', 'Agent', 'Elo ± 95%'], ratingRows, [false, false, true]));
  show('clocks-section', s.clocks.length > 0);
  fill('clocks', table(['Agent', 'Budget a move', 'Moves', 'Mean a move', 'Longest', 'Over budget'],
    s.clocks.map(c => [c.label, c.budget_ms === null ? 'none' : c.budget_ms + ' ms', c.moves,
      fixed(c.mean_ms, 2) + ' ms', fixed(c.max_ms, 2) + ' ms',
      c.budget_ms === null ? '–' : c.overruns + ' (' + pct(c.overruns / c.moves) + ')']),
    [false, true, true, true, true, true]));
}

function renderSprt(t) {
  show('sprt-section', t !== null);
  if (t === null) return;
  const meter = el('meter', {id: 'llr', min: t.lower, max: t.upper, low: t.lower / 2, high: t.upper / 2, value: Math.max(t.lower, Math.min(t.upper, t.llr))});
  fill('sprt',
    el('p', {}, 'H0: Elo ' + t.elo0 + ', H1: Elo ' + t.elo1 + ' (' + t.model + '), α ' + t.alpha + ', β ' + t.beta + '; ' + t.pairs + ' pairs, counts ' + t.pentanomial.join(' ')),
    el('p', {}, el('label', {for: 'llr'}, 'LLR ' + fixed(t.llr, 3) + ' between ' + fixed(t.lower, 3) + ' (H0) and ' + fixed(t.upper, 3) + ' (H1)')),
    el('p', {class: 'meter'}, el('span', {'aria-hidden': 'true'}, 'H0 '), meter, el('span', {'aria-hidden': 'true'}, ' H1')),
    el('p', {}, el('strong', {}, t.decision || 'undecided')));
}

// Plies last drawn a game in progress; `data-moves-seen` on the body counts the boards that
// moved while the page was open.
const pliesShown = new Map();
function renderLive(games) {
  for (const g of games) {
    const before = pliesShown.get(g.id);
    if (before !== undefined && g.plies > before && g.svg) {
      document.body.dataset.movesSeen = String(Number(document.body.dataset.movesSeen || 0) + 1);
    }
    if (g.svg) pliesShown.set(g.id, g.plies);
  }
  fill('live', ...(games.length ? games.map(g => {
    const last = g.moves.slice(-10).join(' ');
    const img = g.svg ? el('img', {src: 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(g.svg),
      alt: 'Board of game ' + g.id + ' after ' + g.plies + ' moves'}) : null;
    return el('div', {class: 'board', 'data-game': g.id, 'data-plies': g.plies},
      img, el('p', {}, 'Game ' + g.id + ': ' + (g.first || '?') + ' (first) vs ' + (g.second || '?')),
      el('p', {}, g.plies + ' moves' + (last ? ': ' : ''), el('span', {class: 'moves'}, (g.moves.length > 10 ? '… ' : '') + last)));
  }) : [el('p', {class: 'empty'}, 'None being played, or the run is not writing.')]));
}

function renderVerdicts(v) {
  show('verdicts-section', v.verdicts.length > 0);
  fill('verdicts', ...v.verdicts.map(i => el('li', {}, i.topic ? el('strong', {}, i.topic + ': ') : null, i.text)));
}

let figuresShown = '';
function renderFigures(keys) {
  show('figures-section', keys.length > 0);
  const joined = keys.join('\n');
  if (joined === figuresShown) return;
  figuresShown = joined;
  fill('figures', ...keys.map(k => {
    const name = k.split('/').pop();
    return el('figure', {}, el('img', {src: '/figure?key=' + encodeURIComponent(k), alt: 'Figure ' + name, loading: 'lazy'}), el('figcaption', {}, name));
  }));
}

function addGames(list) {
  const body = document.querySelector('#games tbody');
  for (const g of list.games) {
    if (g.row < since) continue;
    const result = g.winner === 'draw' ? 'draw' : (g.winner_label || g.winner) + ' won';
    const link = el('a', {href: '/game?run=' + encodeURIComponent(key) + '&row=' + g.row}, '#' + g.id);
    body.prepend(el('tr', {class: loaded ? 'new' : null, 'data-row': g.row},
      el('td', {class: 'num'}, g.row), el('td', {}, link), el('td', {}, g.first), el('td', {}, g.second),
      el('td', {}, result), el('td', {}, g.reason), el('td', {class: 'num'}, g.plies)));
  }
  while (body.rows.length > 500) body.deleteRow(body.rows.length - 1);
  since = Math.max(since, list.total);
  loaded = true;
}

async function poll() {
  if (polling) return;
  polling = true;
  const status = document.getElementById('status');
  try {
    const r = await getJson('/api/run?run=' + encodeURIComponent(key) + '&since=' + since);
    const s = r.standings;
    document.getElementById('title').textContent = key;
    document.title = key + ' – Ringside';
    const writing = r.seconds_since_change !== null && r.seconds_since_change < WRITING;
    status.replaceChildren(el('span', {class: 'badge ' + (writing ? 'writing' : 'idle')}, writing ? 'writing' : 'idle'),
      ' ' + s.game + ', ' + s.games + ' of ' + s.planned + ' games, last change ' + ago(r.seconds_since_change));
    if (s.error) status.append(el('strong', {}, ' Stopped reading: ' + s.error));
    renderStandings(s);
    renderSprt(r.sprt);
    renderLive(r.live);
    renderVerdicts(r.verdicts);
    renderFigures(r.figures);
    addGames(r.games);
  } catch (e) {
    status.textContent = 'Cannot read the run: ' + e.message;
  } finally {
    polling = false;
  }
}

if (document.body.dataset.page === 'index') loadIndex();
if (document.body.dataset.page === 'run') { poll(); setInterval(poll, 500); }
"#;
