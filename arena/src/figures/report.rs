//! The summary rendered: Markdown for people (`summary.md`, and what `arena match` prints)
//! and one CSV row a pairing (`summary.csv`). Agents are shown by the labels they were typed
//! as; their full specs are listed once, and are in the games CSV and the sidecar.

use std::fmt::Write;

use crate::figures::sprt::{bounds, llr};
use crate::figures::stats::{Wdl, Z95, wilson};
use crate::figures::summary::{PairingSummary, Tally, ratings};
use crate::plan::RunPlan;
use crate::plan::published::Published;

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A signed number with one decimal; zero prints as `+0.0`, never `-0.0`.
#[must_use]
pub fn signed(x: f64) -> String {
    let rounded = (x * 10.0).round() / 10.0;
    format!("{:+.1}", if rounded == 0.0 { 0.0 } else { rounded })
}

/// An Elo estimate and its 95% interval. At a score of 0% or 100% the estimate is infinite and
/// only the inner bound is finite: the text says so instead of printing infinities.
#[must_use]
pub fn elo_text((elo, lo, hi): (f64, f64, f64)) -> String {
    if elo == f64::INFINITY {
        format!("above {} (every point won; 95% lower bound)", signed(lo))
    } else if elo == f64::NEG_INFINITY {
        format!("below {} (every point lost; 95% upper bound)", signed(hi))
    } else {
        format!("{} [{}, {}]", signed(elo), signed(lo), signed(hi))
    }
}

/// The summary as Markdown. `notes` are extra lines under the heading (a partial merge, say).
#[must_use]
pub fn markdown(plan: &RunPlan, tally: &Tally, title: &str, notes: &[String]) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# {title}\n");
    let _ = writeln!(
        md,
        "Game `{}`, seed {}, {} games a pairing in colour-swapped pairs, ply cap {}, {} random opening plies. {} of {} planned games in the file{}.\n",
        plan.game,
        plan.seed,
        plan.games_per_pairing,
        plan.ply_cap.map_or("none".to_string(), |c| c.to_string()),
        plan.opening_plies,
        tally.games(),
        plan.games_in_shard(),
        plan.shard
            .map_or(String::new(), |s| format!(" (shard {s})")),
    );
    for note in notes {
        let _ = writeln!(md, "{note}\n");
    }
    let _ = writeln!(md, "| agent | full spec |\n|---|---|");
    for a in &plan.agents {
        let _ = writeln!(md, "| `{}` | `{}` |", a.label, a.full);
    }
    md.push('\n');
    let _ = writeln!(
        md,
        "Intervals are 95%. Score: Wilson interval. Elo: logistic, normal approximation of the mean score (trinomial per game; pentanomial per colour-swapped pair); at 0% or 100% only the Wilson bound is finite. LOS: likelihood of superiority.\n"
    );
    let summaries = tally.pairings();
    for p in &summaries {
        pairing_section(&mut md, plan, p);
    }
    if plan.agents.len() >= 3 {
        rating_section(&mut md, plan, &summaries);
    }
    clock_section(&mut md, plan, tally);
    md
}

/// Each agent's time a move against its budget, as cutechess-cli and fastchess report it: the
/// mean over its moves, the longest, and the moves over budget. Random agents are not timed.
fn clock_section(md: &mut String, plan: &RunPlan, tally: &Tally) {
    let clocks = tally.clocks();
    let kept = tally.clocked_games();
    if kept == 0 {
        return;
    }
    let _ = writeln!(
        md,
        "## Clocks
"
    );
    let _ = writeln!(
        md,
        "| agent | budget a move | moves | mean a move | longest | over budget |\n|---|---|---|---|---|---|"
    );
    for (agent, c) in plan.agents.iter().zip(clocks) {
        if c.moves == 0 {
            continue;
        }
        let budget = agent.spec.move_budget();
        let over = match budget {
            Some(_) => format!(
                "{} ({})",
                c.overruns,
                pct(c.overruns as f64 / c.moves as f64)
            ),
            None => "–".to_string(),
        };
        let _ = writeln!(
            md,
            "| `{}` | {} | {} | {:.2} ms | {:.2} ms | {over} |",
            agent.label,
            budget.map_or("none".to_string(), |b| format!("{} ms", b.as_millis())),
            c.moves,
            c.mean_ms(),
            c.max_ms,
        );
    }
    md.push('\n');
    if kept < tally.games() {
        let _ = writeln!(
            md,
            "Clocks of {kept} of {} games: the others' rows were written without the clock columns.\n",
            tally.games()
        );
    }
}

fn pairing_section(md: &mut String, plan: &RunPlan, p: &PairingSummary) {
    let (a, b) = (&plan.agents[p.a].label, &plan.agents[p.b].label);
    let f = p.figures();
    let wdl = |r: &Wdl| format!("{}-{}-{}", r.w, r.d, r.l);
    let _ = writeln!(md, "## Pairing {}: `{a}` vs `{b}`\n", p.pairing);
    let _ = writeln!(md, "| figure | value |\n|---|---|");
    let _ = writeln!(md, "| games | {} |", p.all.n());
    let _ = writeln!(md, "| distinct games | {} |", p.distinct.text());
    let _ = writeln!(md, "| W-D-L of `{a}` | {} |", wdl(&p.all));
    let _ = writeln!(md, "| as first colour | {} |", wdl(&p.a_first));
    let _ = writeln!(md, "| as second colour | {} |", wdl(&p.a_second));
    let _ = writeln!(
        md,
        "| score | {} [{}, {}] |",
        pct(p.all.score()),
        pct(f.score_interval.0),
        pct(f.score_interval.1)
    );
    let _ = writeln!(md, "| Elo | {} |", elo_text(f.elo));
    let _ = writeln!(md, "| LOS | {} |", pct(f.los));
    let _ = writeln!(md, "| pairs scoring 0, ½, 1, 1½, 2 | {:?} |", p.penta.0);
    let _ = writeln!(md, "| Elo from pairs | {} |", elo_text(f.pair_elo));
    if let (Some(s), 0) = (plan.sprt, p.pairing) {
        let (lower, upper) = bounds(s.alpha, s.beta);
        let model = match s.model {
            crate::plan::EloModel::Logistic => "logistic",
            crate::plan::EloModel::Normalized => "normalized",
        };
        let _ = writeln!(
            md,
            "| SPRT [{}, {}] {model} | LLR {:.3} (bounds {:.3}, {:.3}) |",
            s.elo0,
            s.elo1,
            llr(&p.penta, s.elo0, s.elo1, s.model),
            lower,
            upper
        );
    }
    let fp = &p.first_player;
    let _ = writeln!(
        md,
        "| first-colour score | {} [{}, {}] (W-D-L {}) |",
        pct(fp.score()),
        pct(f.first_interval.0),
        pct(f.first_interval.1),
        wdl(fp)
    );
    let _ = writeln!(md, "| draw rate | {} |", pct(f.draw_rate));
    let _ = writeln!(md, "| ply-cap rate | {} |", pct(f.cap_rate));
    if p.faults > 0 {
        let _ = writeln!(md, "| games lost by agent faults | {} |", p.faults);
    }
    let _ = writeln!(
        md,
        "| plies: mean, median, 90th percentile | {:.1}, {}, {} |\n",
        f.mean_plies, f.median_plies, f.p90_plies
    );
    if p.distinct.repeats(p.all.n()) {
        let _ = writeln!(md, "{}\n", repeats_note(p.distinct.count(), p.all.n()));
    }
}

/// The warning under a pairing (or a cell) whose games repeat.
#[must_use]
pub fn repeats_note(distinct: u64, games: u64) -> String {
    format!(
        "**Games repeat:** only {distinct} distinct games among {games}, as deterministic agents without random openings give. The intervals count {games} independent games, so they are far too narrow: these figures describe {distinct} game(s), not a sample."
    )
}

fn rating_section(md: &mut String, plan: &RunPlan, summaries: &[&PairingSummary]) {
    let groups = ratings(plan.agents.len(), summaries.iter().copied());
    let _ = writeln!(
        md,
        "## Ratings (Bradley–Terry maximum likelihood, mean 0 within each group)\n"
    );
    if groups.len() > 1 {
        let _ = writeln!(
            md,
            "The agents fall into {} groups that never played each other; ratings compare only within a group.\n",
            groups.len()
        );
    }
    for (g, group) in groups.iter().enumerate() {
        if groups.len() > 1 {
            let _ = writeln!(md, "Group {}:\n", g + 1);
        }
        let _ = writeln!(
            md,
            "| agent | Elo | 95% interval | games |\n|---|---|---|---|"
        );
        let mut order: Vec<usize> = (0..group.members.len()).collect();
        order.sort_by(|&x, &y| group.ratings[y].total_cmp(&group.ratings[x]));
        for i in order {
            let agent = group.members[i];
            let games: u64 = summaries
                .iter()
                .filter(|p| p.a != p.b && (p.a == agent || p.b == agent))
                .map(|p| p.all.n())
                .sum();
            let (r, w) = (group.ratings[i], group.half_widths[i]);
            let _ = writeln!(
                md,
                "| `{}` | {} | [{}, {}] | {games} |",
                plan.agents[agent].label,
                signed(r),
                signed(r - w),
                signed(r + w)
            );
        }
        md.push('\n');
    }
    let unrated: Vec<&str> = (0..plan.agents.len())
        .filter(|i| !groups.iter().any(|g| g.members.contains(i)))
        .map(|i| plan.agents[i].label.as_str())
        .collect();
    if !unrated.is_empty() {
        let _ = writeln!(
            md,
            "Not rated (no games against another agent yet): `{}`.\n",
            unrated.join("`, `")
        );
    }
}

/// The summary as CSV: one row a pairing that has games. Elo columns are empty where the
/// estimate is infinite (a score of 0% or 100%). `distinct_games` counts different games up to
/// [`crate::figures::summary::Distinct::CAP`] (a value at the cap means at least that many). `missing_shards` are the shards a merged file
/// lacks (its sidecar's record): the `missing_shards` column lists them, space-separated, on
/// every row, so a partial file's figures cannot be taken for the whole run's.
#[must_use]
pub fn csv(plan: &RunPlan, tally: &Tally, missing_shards: &[u64]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "pairing",
        "agent_a",
        "agent_b",
        "games",
        "a_wins",
        "draws",
        "a_losses",
        "a_score",
        "a_score_lo",
        "a_score_hi",
        "elo",
        "elo_lo",
        "elo_hi",
        "los",
        "pairs_0",
        "pairs_half",
        "pairs_1",
        "pairs_1half",
        "pairs_2",
        "pair_elo",
        "pair_elo_lo",
        "pair_elo_hi",
        "first_score",
        "first_score_lo",
        "first_score_hi",
        "draw_rate",
        "cap_rate",
        "mean_plies",
        "median_plies",
        "p90_plies",
        "label_a",
        "label_b",
        "distinct_games",
        "missing_shards",
    ]);
    let number = |x: f64| {
        if x.is_finite() {
            format!("{x:.6}")
        } else {
            String::new()
        }
    };
    let missing: String = missing_shards
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    for p in tally.pairings() {
        let f = p.figures();
        let mut record: Vec<String> = vec![
            p.pairing.to_string(),
            plan.agents[p.a].full.clone(),
            plan.agents[p.b].full.clone(),
            p.all.n().to_string(),
            p.all.w.to_string(),
            p.all.d.to_string(),
            p.all.l.to_string(),
        ];
        let (score, (lo, hi), e) = (p.all.score(), f.score_interval, f.elo);
        record.extend([score, lo, hi, e.0, e.1, e.2, f.los].map(number));
        record.extend(p.penta.0.map(|x| x.to_string()));
        let (pe, (flo, fhi)) = (f.pair_elo, f.first_interval);
        let first = p.first_player.score();
        record.extend(
            [
                pe.0,
                pe.1,
                pe.2,
                first,
                flo,
                fhi,
                f.draw_rate,
                f.cap_rate,
                f.mean_plies,
            ]
            .map(number),
        );
        record.push(f.median_plies.to_string());
        record.push(f.p90_plies.to_string());
        record.push(plan.agents[p.a].label.clone());
        record.push(plan.agents[p.b].label.clone());
        record.push(p.distinct.count().to_string());
        record.push(missing.clone());
        let _ = w.write_record(&record);
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("UTF-8 CSV")
}

/// A table setting each published result beside ours: the match's first agent playing the
/// first colour against its second agent, as the published table seats them.
#[must_use]
pub fn published_comparison(plan: &RunPlan, tally: &Tally, published: &[Published]) -> String {
    let mut md = String::from("## Beside the published figures\n\n");
    md.push_str("Each line compares the first agent of the match, playing the first colour, against the second (as the published table seats them): wins of the first agent, with 95% Wilson intervals. In a self-pairing every game counts, from its first mover's side.\n\n");
    md.push_str("| match | source | published W-D-L | published first-agent wins | ours W-D-L (first agent moving first) | our first-agent wins | all our games of the pairing (first agent's view) |\n|---|---|---|---|---|---|---|\n");
    for p in published {
        let (a, b) = plan.pairings[p.match_index];
        let (seated, all) = match tally.pairing(p.match_index) {
            // A self-pairing: the "first agent moving first" is every game's first mover.
            Some(s) if a == b => (s.first_player, s.first_player),
            Some(s) => (s.a_first, s.all),
            None => (Wdl::default(), Wdl::default()),
        };
        let rate = |w: u64, n: u64| {
            let (lo, hi) = wilson(w as f64 / n.max(1) as f64, n as f64, Z95);
            format!(
                "{:.1}% [{:.1}, {:.1}]",
                100.0 * w as f64 / n.max(1) as f64,
                100.0 * lo,
                100.0 * hi
            )
        };
        let _ = writeln!(
            md,
            "| {} `{}` vs `{}` | {} | {}-{}-{} | {} | {}-{}-{} | {} | {}-{}-{}, score {:.1}% |",
            p.match_index,
            plan.agents[a].label,
            plan.agents[b].label,
            p.source,
            p.first_wins,
            p.draws,
            p.second_wins,
            rate(p.first_wins, p.games),
            seated.w,
            seated.d,
            seated.l,
            rate(seated.w, seated.n()),
            all.w,
            all.d,
            all.l,
            100.0 * all.score()
        );
    }
    md.push('\n');
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_numbers_never_print_minus_zero() {
        assert_eq!(signed(-0.0), "+0.0");
        assert_eq!(signed(-0.04), "+0.0");
        assert_eq!(signed(-0.06), "-0.1");
        assert_eq!(signed(12.34), "+12.3");
    }

    #[test]
    fn infinite_elo_is_said_in_words_with_its_finite_bound() {
        assert_eq!(
            elo_text((f64::INFINITY, 166.54, f64::INFINITY)),
            "above +166.5 (every point won; 95% lower bound)"
        );
        assert!(
            elo_text((f64::NEG_INFINITY, f64::NEG_INFINITY, -166.5)).starts_with("below -166.5")
        );
        assert_eq!(elo_text((0.0, -10.0, 10.0)), "+0.0 [-10.0, +10.0]");
    }
}
