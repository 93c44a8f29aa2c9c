//! The JSON of each view, built from the summary's own folds ([`Tally`], [`PairingSummary`]'s
//! figures, [`ratings`], [`Sprt`]) and nothing computed here. Numbers that are infinite (an
//! Elo at 0% or 100%) are `null`, with the summary's own text beside them. The fields are
//! documented in `book/src/serve.md`.

use serde_json::{Value, json};

use crate::figures::report::elo_text;
use crate::figures::sprt::bounds;
use crate::figures::stats::Wdl;
use crate::figures::summary::{PairingSummary, ratings};
use crate::plan::{EloModel, RunPlan};
use crate::records::row::GameRow;
use crate::run::live::GameInProgress;
use crate::serve::follow::Followed;

fn wdl(r: &Wdl) -> Value {
    json!({ "w": r.w, "d": r.d, "l": r.l })
}

fn elo((est, lo, hi): (f64, f64, f64)) -> Value {
    json!({ "elo": finite(est), "low": finite(lo), "high": finite(hi), "text": elo_text((est, lo, hi)) })
}

fn finite(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

fn pairing(plan: &RunPlan, p: &PairingSummary) -> Value {
    let f = p.figures();
    json!({
        "pairing": p.pairing,
        "a": p.a,
        "b": p.b,
        "a_label": plan.agents[p.a].label,
        "b_label": plan.agents[p.b].label,
        "games": p.all.n(),
        "distinct_games": p.distinct.text(),
        "all": wdl(&p.all),
        "a_first": wdl(&p.a_first),
        "a_second": wdl(&p.a_second),
        "score": p.all.score(),
        "score_interval": [f.score_interval.0, f.score_interval.1],
        "elo": elo(f.elo),
        "los": f.los,
        "pentanomial": p.penta.0,
        "pair_elo": elo(f.pair_elo),
        "first_player": wdl(&p.first_player),
        "first_interval": [f.first_interval.0, f.first_interval.1],
        "draw_rate": f.draw_rate,
        "cap_rate": f.cap_rate,
        "faults": p.faults,
        "mean_plies": f.mean_plies,
        "median_plies": f.median_plies,
        "p90_plies": f.p90_plies,
    })
}

/// `/api/standings`: the run's settings in brief, every pairing with games, the rating groups
/// (three agents or more) and each agent's clock.
#[must_use]
pub fn standings(key: &str, run: &Followed) -> Value {
    let (plan, tally) = (run.plan(), run.tally());
    let pairings = tally.pairings();
    let groups: Vec<Value> = if plan.agents.len() >= 3 {
        ratings(plan.agents.len(), pairings.iter().copied())
            .into_iter()
            .map(|g| json!({ "members": g.members, "ratings": g.ratings, "half_widths": g.half_widths }))
            .collect()
    } else {
        Vec::new()
    };
    json!({
        "run": key,
        "game": plan.game.spec(),
        "seed": plan.seed,
        "games": tally.games(),
        "planned": plan.games_in_shard(),
        "agents": plan.agents.iter().map(|a| json!({ "label": a.label, "spec": a.full })).collect::<Vec<_>>(),
        "pairings": pairings.iter().map(|p| pairing(plan, p)).collect::<Vec<_>>(),
        "ratings": groups,
        "clocks": clocks(plan, run),
        "clocked_games": tally.clocked_games(),
        "error": run.error(),
    })
}

/// Each agent's clock as the summary's Clocks table gives it (agents without timed moves
/// left out): budget, moves, mean and longest move, moves over budget.
fn clocks(plan: &RunPlan, run: &Followed) -> Vec<Value> {
    plan.agents
        .iter()
        .zip(run.tally().clocks())
        .enumerate()
        .filter(|(_, (_, c))| c.moves > 0)
        .map(|(i, (a, c))| {
            json!({
                "agent": i,
                "label": a.label,
                "budget_ms": a.spec.move_budget().map(|b| b.as_millis() as u64),
                "moves": c.moves,
                "time_ms": c.time_ms,
                "mean_ms": c.mean_ms(),
                "max_ms": c.max_ms,
                "overruns": c.overruns,
            })
        })
        .collect()
}

/// `/api/sprt`: the run's SPRT on its first pairing's pairs (`null` without one): its
/// settings, the log-likelihood ratio now, its bounds and any decision.
#[must_use]
pub fn sprt(run: &Followed) -> Value {
    let (Some(config), Some(s)) = (run.plan().sprt, run.sprt()) else {
        return Value::Null;
    };
    let (lower, upper) = bounds(config.alpha, config.beta);
    json!({
        "elo0": config.elo0,
        "elo1": config.elo1,
        "alpha": config.alpha,
        "beta": config.beta,
        "model": match config.model { EloModel::Logistic => "logistic", EloModel::Normalized => "normalized" },
        "llr": s.llr(),
        "lower": lower,
        "upper": upper,
        "pentanomial": s.penta().0,
        "pairs": s.penta().pairs(),
        "decision": s.decision().map(|d| d.to_string()),
    })
}

/// One game of the games list: what a row of the page shows; `row` is its place in the file.
#[must_use]
pub fn game(plan: &RunPlan, row_number: u64, row: &GameRow) -> Value {
    json!({
        "row": row_number,
        "id": row.id,
        "pairing": row.slot.pairing,
        "first": plan.agents[row.first_agent].label,
        "second": plan.agents[row.second_agent].label,
        "winner": row.winner.as_str(),
        "winner_label": row.winner_agent().map(|a| plan.agents[a].label.clone()),
        "reason": row.reason.as_str(),
        "plies": row.plies,
        "first_time_ms": row.first_time_ms,
        "second_time_ms": row.second_time_ms,
    })
}

/// `/api/games`: rows `from..from + rows.len()` of the file and how many it holds.
#[must_use]
pub fn games(run: &Followed, from: u64, rows: &[GameRow]) -> Value {
    json!({
        "total": run.rows(),
        "from": from,
        "games": rows.iter().enumerate().map(|(k, r)| game(run.plan(), from + k as u64, r)).collect::<Vec<_>>(),
    })
}

/// One game in progress with the SVG of its position now (`svg` is `null` when its moves do
/// not replay, a line caught mid-write).
#[must_use]
pub fn live_game(plan: &RunPlan, g: &GameInProgress, svg: Option<String>) -> Value {
    let seats = plan
        .slot(g.id)
        .map(|slot| plan.seated_agents(slot))
        .map(|(f, s)| (plan.agents[f].label.clone(), plan.agents[s].label.clone()));
    json!({
        "worker": g.worker,
        "id": g.id,
        "first": seats.as_ref().map(|s| &s.0),
        "second": seats.as_ref().map(|s| &s.1),
        "plies": g.moves.len(),
        "moves": g.moves,
        "svg": svg,
    })
}

/// The verdict of a design report's `report.md`: the bullet items of its `## Verdict`
/// section, each as `topic` (its bold opening) and `text`, Markdown marks taken out.
#[must_use]
pub fn verdicts(report_key: Option<&str>, markdown: Option<&str>) -> Value {
    let items: Vec<Value> = markdown
        .map(verdict_items)
        .unwrap_or_default()
        .into_iter()
        .map(|(topic, text)| json!({ "topic": topic, "text": text }))
        .collect();
    json!({ "report": report_key, "verdicts": items })
}

/// `(topic, text)` of each bullet under `## Verdict`.
fn verdict_items(md: &str) -> Vec<(String, String)> {
    let mut items: Vec<(String, String)> = Vec::new();
    let mut inside = false;
    for line in md.lines() {
        if line.starts_with("## ") {
            inside = line.trim() == "## Verdict";
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(item) = line.strip_prefix("- ") {
            let plain = item.replace("**", "").replace('`', "");
            let (topic, text) = match plain.split_once(':') {
                Some((t, rest)) if t.len() < 40 => (t.trim().to_string(), rest.trim().to_string()),
                _ => (String::new(), plain.trim().to_string()),
            };
            items.push((topic, text));
        } else if line.starts_with("  ")
            && let Some(last) = items.last_mut()
        {
            last.1.push(' ');
            last.1
                .push_str(line.trim().replace("**", "").replace('`', "").as_str());
        }
    }
    items
}

#[cfg(test)]
mod tests {
    use super::verdict_items;

    #[test]
    fn verdict_items_are_the_bullets_of_the_verdict_section_without_markdown() {
        let md = "# R\n\n## Verdict\n\n- **Balance** on `x`: even.\n  More.\n- **Draws:** few.\n\nText.\n\n## Other\n\n- not a verdict\n";
        let items = verdict_items(md);
        assert_eq!(
            items,
            [
                ("Balance on x".to_string(), "even. More.".to_string()),
                ("Draws".to_string(), "few.".to_string())
            ]
        );
    }
}
