//! The routes: each page, script, figure and JSON view, and the security headers every
//! response carries. Handlers read files on the blocking pool; what they share is
//! [`super::Shared`].

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use axum::routing::get;
use ringside_engine::registry::{AnyGame, GameVisitor};
use ringside_engine::{Features, Game};
use serde_json::{Value, json};

use super::follow::Followed;
use super::{ANSWER_FRESH, MAX_IN_FLIGHT, Shared, api, lock, pages};
use crate::figures::picture::{VIEWER_SCRIPT, html_of_game_linked, svg_of_game};
use crate::plan::RunPlan;
use crate::records::validate::pair_start;
use crate::run::live::{self, GameInProgress};

/// How often a followed run's marker is touched (well within [`live::FRESH`]).
const TOUCH_EVERY: Duration = Duration::from_secs(2);

/// Games a page of the games list holds at most.
pub const MAX_PAGE: u64 = 500;

/// The Content-Security-Policy of pages and JSON: scripts and styles from the server only
/// (inline style attributes allowed: the viewer's SVG boards use them), images from the
/// server or `data:` URLs (a live board), no frames, no forms, no plugins.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The policy of a served SVG figure: nothing in it may run, even opened on its own.
const FIGURE_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

pub(super) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(|| async { page(pages::INDEX) }))
        .route("/run", get(|| async { page(pages::RUN) }))
        .route(
            "/static/app.js",
            get(|| async { text("text/javascript", pages::APP_JS) }),
        )
        .route(
            "/static/style.css",
            get(|| async { text("text/css", pages::STYLE_CSS) }),
        )
        .route(
            "/static/viewer.js",
            get(|| async { text("text/javascript", VIEWER_SCRIPT) }),
        )
        .route("/game", get(game_page))
        .route("/figure", get(figure))
        .route("/api/runs", get(runs))
        .route("/api/run", get(whole_run))
        .route("/api/standings", get(|s, q| view(s, q, View::Standings)))
        .route("/api/sprt", get(|s, q| view(s, q, View::Sprt)))
        .route("/api/games", get(|s, q| view(s, q, View::Games)))
        .route("/api/verdicts", get(|s, q| view(s, q, View::Verdicts)))
        .route("/api/live", get(|s, q| view(s, q, View::Live)))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page") })
        .layer(tower::limit::ConcurrencyLimitLayer::new(MAX_IN_FLIGHT))
        .layer(axum::middleware::map_response(secure))
        .with_state(shared)
}

/// Adds the security headers every response carries (a figure keeps its stricter policy).
async fn secure(mut res: Response) -> Response {
    let h = res.headers_mut();
    h.entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(CSP));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

fn respond(status: StatusCode, kind: &'static str, body: impl Into<Body>) -> Response {
    let mut res = Response::new(body.into());
    *res.status_mut() = status;
    res.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    res
}

fn page(html: &'static str) -> Response {
    respond(StatusCode::OK, "text/html; charset=utf-8", html)
}

fn text(kind: &'static str, body: &'static str) -> Response {
    respond(StatusCode::OK, kind, body)
}

fn json_ok(v: &Value) -> Response {
    respond(StatusCode::OK, "application/json", v.to_string())
}

fn error(status: StatusCode, why: &str) -> Response {
    respond(
        status,
        "application/json",
        json!({ "error": why }).to_string(),
    )
}

type Params = Query<HashMap<String, String>>;

/// Runs `work` on the blocking pool (file reads), as a response.
async fn blocking(work: impl FnOnce() -> Response + Send + 'static) -> Response {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|_| error(StatusCode::INTERNAL_SERVER_ERROR, "the request failed"))
}

/// The run `key` names, followed up to now; the response to give instead when there is none.
pub(super) fn followed(
    shared: &Shared,
    key: Option<&String>,
) -> std::result::Result<(PathBuf, Arc<Mutex<Followed>>), Response> {
    let not_found = || error(StatusCode::NOT_FOUND, "no such run");
    let path = key.and_then(|k| shared.site.run(k)).ok_or_else(not_found)?;
    let run = {
        let mut runs = lock(&shared.runs);
        match runs.get(&path) {
            Some(r) => r.clone(),
            None => {
                let opened = Followed::open(&path)
                    .map_err(|e| error(StatusCode::UNPROCESSABLE_ENTITY, &e.to_string()))?;
                let r = Arc::new(Mutex::new(opened));
                runs.insert(path.clone(), r.clone());
                r
            }
        }
    };
    lock(&run).refresh();
    Ok((path, run))
}

/// `/api/runs`: every run under the served folders.
async fn runs(State(shared): State<Arc<Shared>>) -> Response {
    blocking(move || {
        let now = std::time::SystemTime::now();
        let list: Vec<Value> = shared
            .site
            .runs()
            .into_iter()
            .map(|r| {
                let age = r.modified.and_then(|m| now.duration_since(m).ok());
                json!({
                    "key": r.key,
                    "bytes": r.bytes,
                    "seconds_since_change": age.map(|a| a.as_secs()),
                })
            })
            .collect();
        json_ok(&json!({ "runs": list }))
    })
    .await
}

/// The views of one run under `/api/`.
#[derive(Debug, Clone, Copy)]
enum View {
    Standings,
    Sprt,
    Games,
    Verdicts,
    Live,
}

/// Answers with `answer` of the run `run=` names (its CSV's path, its key, what was read of
/// it, the query), on the blocking pool; a 404 or 422 when there is no such run.
async fn with_run(
    shared: Arc<Shared>,
    q: HashMap<String, String>,
    answer: impl FnOnce(&Shared, &Path, &str, &Followed, &HashMap<String, String>) -> Response
    + Send
    + 'static,
) -> Response {
    blocking(move || {
        let (path, run) = match followed(&shared, q.get("run")) {
            Ok(r) => r,
            Err(res) => return res,
        };
        let key = q.get("run").map_or("", String::as_str);
        answer(&shared, &path, key, &lock(&run), &q)
    })
    .await
}

async fn view(State(shared): State<Arc<Shared>>, Query(q): Params, which: View) -> Response {
    with_run(shared, q, move |shared, path, key, run, q| {
        let value = match which {
            View::Standings => api::standings(key, run),
            View::Sprt => api::sprt(run),
            View::Games => {
                let count = number(q, "count").unwrap_or(50).min(MAX_PAGE);
                let from = number(q, "from").unwrap_or(run.rows().saturating_sub(count));
                match run.rows_at(from, count) {
                    Ok(rows) => api::games(run, from, &rows),
                    Err(e) => return error(StatusCode::UNPROCESSABLE_ENTITY, &e),
                }
            }
            View::Verdicts => verdicts(shared, path),
            View::Live => live_games(shared, path, run.plan()),
        };
        json_ok(&value)
    })
    .await
}

/// `/api/run?run=K&since=N`: what a run's page shows, in one answer: the standings, the SPRT,
/// the games from row `since` (the last [`MAX_PAGE`] at most), the games in progress, the
/// figures and the verdicts.
async fn whole_run(State(shared): State<Arc<Shared>>, Query(q): Params) -> Response {
    let since = number(&q, "since").unwrap_or(0);
    // Keyed by the run's key as asked, so a repeated answer costs no look at the files (only
    // keys that named a run are ever stored).
    let key = q.get("run").cloned().unwrap_or_default();
    let cached = lock(&shared.answers)
        .get(&(key, since))
        .filter(|(made, _)| made.elapsed() < ANSWER_FRESH)
        .map(|(_, body)| body.clone());
    if let Some(body) = cached {
        return respond(StatusCode::OK, "application/json", body);
    }
    with_run(shared, q, move |shared, path, key, run, _| {
        let body =
            axum::body::Bytes::from(whole_run_answer(shared, path, key, run, since).to_string());
        let mut answers = lock(&shared.answers);
        if answers.len() >= 256 {
            answers.retain(|_, (made, _)| made.elapsed() < ANSWER_FRESH);
        }
        answers.insert((key.to_string(), since), (Instant::now(), body.clone()));
        respond(StatusCode::OK, "application/json", body)
    })
    .await
}

/// The answer of `/api/run` for the rows from `since` of `run`, read up to now.
fn whole_run_answer(shared: &Shared, path: &Path, key: &str, run: &Followed, since: u64) -> Value {
    let from = since.max(run.rows().saturating_sub(MAX_PAGE));
    let games = match run.rows_at(from, MAX_PAGE) {
        Ok(rows) => api::games(run, from, &rows),
        Err(e) => json!({ "total": run.rows(), "from": from, "games": [], "error": e }),
    };
    let changed = run
        .modified()
        .and_then(|m| std::time::SystemTime::now().duration_since(m).ok())
        .map(|a| a.as_secs());
    json!({
        "standings": api::standings(key, run),
        "sprt": api::sprt(run),
        "games": games,
        "live": live_games(shared, path, run.plan()),
        "figures": shared.site.figures_beside(path),
        "verdicts": verdicts(shared, path),
        "seconds_since_change": changed,
    })
}

fn number(q: &HashMap<String, String>, name: &str) -> Option<u64> {
    q.get(name).and_then(|v| v.parse().ok())
}

/// The verdict of the report the run at `csv` belongs to, read again only when it changed.
fn verdicts(shared: &Shared, csv: &Path) -> Value {
    let site = &shared.site;
    let Some(report) = site.report_of(csv) else {
        return api::verdicts(None, None);
    };
    let meta = report.metadata().ok();
    let changed = meta.as_ref().and_then(|m| m.modified().ok());
    if let Some((when, value)) = lock(&shared.reports).get(&report)
        && *when == changed
    {
        return value.clone();
    }
    let text = meta
        .filter(|m| m.len() < (4 << 20))
        .and_then(|_| std::fs::read_to_string(&report).ok());
    let value = api::verdicts(site.key_of(&report).as_deref(), text.as_deref());
    lock(&shared.reports).insert(report, (changed, value.clone()));
    value
}

/// The games in progress of the run at `csv`, each with its board; asking keeps (or starts)
/// the run writing them.
fn live_games(shared: &Shared, csv: &Path, plan: &RunPlan) -> Value {
    {
        let mut watched = lock(&shared.watched);
        let entry = watched
            .entry(csv.to_path_buf())
            .or_insert((Instant::now(), None));
        entry.0 = Instant::now();
        if entry.1.is_none_or(|t| t.elapsed() >= TOUCH_EVERY) && live::touch_marker(csv).is_ok() {
            entry.1 = Some(Instant::now());
        }
    }
    let games: Vec<Value> = live::games_in_progress(csv, 1 << 20)
        .iter()
        .map(|g| api::live_game(plan, g, drawn(shared, csv, plan, g)))
        .collect();
    Value::Array(games)
}

/// [`board`], drawn once a position however many pages ask.
fn drawn(shared: &Shared, csv: &Path, plan: &RunPlan, g: &GameInProgress) -> Option<String> {
    let at = (csv.to_path_buf(), g.worker);
    if let Some((id, plies, svg)) = lock(&shared.boards).get(&at)
        && (*id, *plies) == (g.id, g.moves.len())
    {
        return svg.clone();
    }
    let svg = board(plan, g);
    lock(&shared.boards).insert(at, (g.id, g.moves.len(), svg.clone()));
    svg
}

/// The SVG of a game in progress now (its last move dropped if it does not replay yet).
fn board(plan: &RunPlan, g: &GameInProgress) -> Option<String> {
    let spec = spec_as_played(plan, g.id)?;
    let game = AnyGame::parse(&spec).ok()?;
    let all = g.moves.join(" ");
    svg_of_game(&game, &all, None).ok().or_else(|| {
        let shorter = g.moves[..g.moves.len().saturating_sub(1)].join(" ");
        svg_of_game(&game, &shorter, None).ok()
    })
}

/// Game `id`'s spec as played: the run's game with its pair's drawn start (the row's `game`).
fn spec_as_played(plan: &RunPlan, id: u64) -> Option<String> {
    struct Start(u64);
    impl GameVisitor for Start {
        type Output = String;
        fn visit<G: Game + Features>(self, start: G) -> String {
            pair_start(&start, self.0).0.spec()
        }
    }
    let slot = plan.slot(id)?;
    Some(plan.game.visit(Start(plan.pair_seed(slot))))
}

/// `/game?run=K&row=R`: row R of the run in the game viewer.
async fn game_page(State(shared): State<Arc<Shared>>, Query(q): Params) -> Response {
    with_run(shared, q, |_, _, key, run, q| {
        let Some(r) = number(q, "row") else {
            return error(StatusCode::BAD_REQUEST, "row= is missing");
        };
        let row = match run.rows_at(r, 1) {
            Ok(rows) => rows.into_iter().next(),
            Err(e) => return error(StatusCode::UNPROCESSABLE_ENTITY, &e),
        };
        let Some(row) = row else {
            return error(StatusCode::NOT_FOUND, "no such game");
        };
        let title = format!("{}: game {} of {key}", row.game, row.id);
        let page = AnyGame::parse(&row.game)
            .map_err(|e| e.to_string())
            .and_then(|g| {
                html_of_game_linked(&g, &row.moves, &title, "/static/viewer.js")
                    .map_err(|e| e.to_string())
            });
        match page {
            Ok(html) => respond(StatusCode::OK, "text/html; charset=utf-8", html),
            Err(e) => error(StatusCode::UNPROCESSABLE_ENTITY, &e),
        }
    })
    .await
}

/// `/figure?key=K`: an SVG figure in a served folder.
async fn figure(State(shared): State<Arc<Shared>>, Query(q): Params) -> Response {
    blocking(move || {
        let Some(path) = q.get("key").and_then(|k| shared.site.figure(k)) else {
            return error(StatusCode::NOT_FOUND, "no such figure");
        };
        let bytes = match path.metadata() {
            Ok(m) if m.len() <= (16 << 20) => std::fs::read(&path).ok(),
            _ => None,
        };
        let Some(bytes) = bytes else {
            return error(
                StatusCode::UNPROCESSABLE_ENTITY,
                "figure too large or unreadable",
            );
        };
        let mut res = respond(StatusCode::OK, "image/svg+xml", bytes);
        res.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(FIGURE_CSP),
        );
        res
    })
    .await
}
