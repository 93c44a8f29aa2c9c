//! The summary of a games CSV: per pairing results with intervals, pentanomial figures, a
//! rating table, and the game-design figures (first-player advantage, draws, caps, lengths).

use std::collections::HashMap;
use std::fmt::Write;

use crate::record::{GameRow, Settings};
use crate::stats::{
    PairingResult, Penta, Wdl, Z95, bradley_terry, elo_interval, gsprt_llr, los, percentile,
    sprt_bounds, wilson,
};

/// Figures of one pairing, from its first agent's view (agent `a` against agent `b`).
#[derive(Debug, Clone, PartialEq)]
pub struct PairingSummary {
    /// Pairing index.
    pub pairing: usize,
    /// First agent of the pairing.
    pub a: usize,
    /// Second agent.
    pub b: usize,
    /// All games, `a`'s view.
    pub all: Wdl,
    /// Games where `a` had the first colour.
    pub a_first: Wdl,
    /// Games where `a` had the second colour.
    pub a_second: Wdl,
    /// Complete colour-swapped pairs, `a`'s points.
    pub penta: Penta,
    /// Games won by the first colour, drawn, lost.
    pub first_player: Wdl,
    /// Games stopped by the ply cap.
    pub capped: u64,
    /// Games lost by an agent fault.
    pub faults: u64,
    /// Sorted game lengths.
    pub lengths: Vec<u32>,
}

/// Builds the summaries of every pairing that has games.
#[must_use]
pub fn pairings(settings: &Settings, rows: &[GameRow]) -> Vec<PairingSummary> {
    let mut out: Vec<PairingSummary> = settings
        .pairings
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| PairingSummary {
            pairing: i,
            a,
            b,
            all: Wdl::default(),
            a_first: Wdl::default(),
            a_second: Wdl::default(),
            penta: Penta::default(),
            first_player: Wdl::default(),
            capped: 0,
            faults: 0,
            lengths: Vec::new(),
        })
        .collect();
    let mut halves: HashMap<(usize, u64), f64> = HashMap::new();
    for row in rows {
        let Some(p) = out.get_mut(row.pairing) else {
            continue;
        };
        let points = row.pairing_first_points();
        p.all.add(points);
        if row.id % 2 == 0 {
            p.a_first.add(points)
        } else {
            p.a_second.add(points)
        }
        p.first_player.add(row.first_points());
        p.capped += u64::from(row.reason == "ply_cap");
        p.faults += u64::from(row.reason == "agent_panic" || row.reason == "illegal_move");
        p.lengths.push(row.plies);
        match halves.remove(&(row.pairing, row.pair)) {
            Some(other) => p.penta.add(points + other),
            None => {
                halves.insert((row.pairing, row.pair), points);
            }
        }
    }
    for p in &mut out {
        p.lengths.sort_unstable();
    }
    out.retain(|p| p.all.n() > 0);
    out
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn elo_text(e: (f64, f64, f64)) -> String {
    let f = |x: f64| {
        if x.is_finite() {
            format!("{x:+.1}")
        } else if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    };
    format!("{} [{}, {}]", f(e.0), f(e.1), f(e.2))
}

/// The summary as Markdown.
#[must_use]
pub fn markdown(settings: &Settings, rows: &[GameRow], title: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# {title}\n");
    let _ = writeln!(
        md,
        "Game `{}`, seed {}, {} games a pairing in colour-swapped pairs, ply cap {}, {} random opening plies. {} games in the file.\n",
        settings.game,
        settings.seed,
        settings.games_per_pairing,
        settings
            .ply_cap
            .map_or("none".to_string(), |c| c.to_string()),
        settings.opening_plies,
        rows.len()
    );
    let _ = writeln!(
        md,
        "Intervals are 95%. Score: Wilson interval. Elo: logistic, normal approximation of the mean score (trinomial per game; pentanomial per colour-swapped pair). LOS: likelihood of superiority.\n"
    );
    for p in pairings(settings, rows) {
        let (a, b) = (&settings.agents[p.a], &settings.agents[p.b]);
        let n = p.all.n() as f64;
        let (lo, hi) = wilson(p.all.score(), n, Z95);
        let _ = writeln!(md, "## Pairing {}: `{a}` vs `{b}`\n", p.pairing);
        let _ = writeln!(md, "| figure | value |\n|---|---|");
        let _ = writeln!(md, "| games | {} |", p.all.n());
        let _ = writeln!(
            md,
            "| W-D-L of `{a}` | {}-{}-{} |",
            p.all.w, p.all.d, p.all.l
        );
        let _ = writeln!(
            md,
            "| as first colour | {}-{}-{} |",
            p.a_first.w, p.a_first.d, p.a_first.l
        );
        let _ = writeln!(
            md,
            "| as second colour | {}-{}-{} |",
            p.a_second.w, p.a_second.d, p.a_second.l
        );
        let _ = writeln!(
            md,
            "| score | {} [{}, {}] |",
            pct(p.all.score()),
            pct(lo),
            pct(hi)
        );
        let _ = writeln!(md, "| Elo | {} |", elo_text(elo_interval(&p.all)));
        let _ = writeln!(md, "| LOS | {} |", pct(los(p.all.w, p.all.l)));
        let _ = writeln!(md, "| pairs scoring 0, ½, 1, 1½, 2 | {:?} |", p.penta.0);
        let _ = writeln!(
            md,
            "| Elo from pairs | {} |",
            elo_text(p.penta.elo_interval())
        );
        if let (Some([e0, e1, alpha, beta]), 0) = (settings.sprt, p.pairing) {
            let (lower, upper) = sprt_bounds(alpha, beta);
            let _ = writeln!(
                md,
                "| SPRT [{e0}, {e1}] | LLR {:.3} (bounds {:.3}, {:.3}) |",
                gsprt_llr(&p.penta, e0, e1),
                lower,
                upper
            );
        }
        let (flo, fhi) = wilson(p.first_player.score(), n, Z95);
        let _ = writeln!(
            md,
            "| first-colour score | {} [{}, {}] (W-D-L {}-{}-{}) |",
            pct(p.first_player.score()),
            pct(flo),
            pct(fhi),
            p.first_player.w,
            p.first_player.d,
            p.first_player.l
        );
        let _ = writeln!(md, "| draw rate | {} |", pct(p.all.d as f64 / n));
        let _ = writeln!(md, "| ply-cap rate | {} |", pct(p.capped as f64 / n));
        if p.faults > 0 {
            let _ = writeln!(md, "| games lost by agent faults | {} |", p.faults);
        }
        let mean = p.lengths.iter().map(|&x| f64::from(x)).sum::<f64>() / n;
        let _ = writeln!(
            md,
            "| plies: mean, median, 90th percentile | {mean:.1}, {}, {} |\n",
            percentile(&p.lengths, 0.5),
            percentile(&p.lengths, 0.9)
        );
    }
    if settings.agents.len() >= 3 {
        let _ = writeln!(
            md,
            "## Ratings (Bradley–Terry maximum likelihood, mean 0)\n\n| agent | Elo | games |\n|---|---|---|"
        );
        let (ratings, games) = ratings(settings, rows);
        let mut order: Vec<usize> = (0..settings.agents.len()).collect();
        order.sort_by(|&x, &y| ratings[y].total_cmp(&ratings[x]));
        for i in order {
            let _ = writeln!(
                md,
                "| `{}` | {:+.1} | {} |",
                settings.agents[i], ratings[i], games[i]
            );
        }
        md.push('\n');
    }
    md
}

/// Bradley–Terry ratings of every agent, and the games each played.
#[must_use]
pub fn ratings(settings: &Settings, rows: &[GameRow]) -> (Vec<f64>, Vec<u64>) {
    let mut results = Vec::new();
    let mut games = vec![0; settings.agents.len()];
    for p in pairings(settings, rows) {
        if p.a != p.b {
            results.push(PairingResult {
                a: p.a,
                b: p.b,
                a_points: p.all.w as f64 + p.all.d as f64 / 2.0,
                games: p.all.n() as f64,
            });
            games[p.a] += p.all.n();
            games[p.b] += p.all.n();
        }
    }
    (bradley_terry(settings.agents.len(), &results), games)
}

/// The summary as CSV: one row a pairing.
#[must_use]
pub fn csv(settings: &Settings, rows: &[GameRow]) -> String {
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
    ]);
    for p in pairings(settings, rows) {
        let n = p.all.n() as f64;
        let (lo, hi) = wilson(p.all.score(), n, Z95);
        let e = elo_interval(&p.all);
        let pe = p.penta.elo_interval();
        let (flo, fhi) = wilson(p.first_player.score(), n, Z95);
        let mean = p.lengths.iter().map(|&x| f64::from(x)).sum::<f64>() / n;
        let mut record: Vec<String> = vec![
            p.pairing.to_string(),
            settings.agents[p.a].clone(),
            settings.agents[p.b].clone(),
            p.all.n().to_string(),
            p.all.w.to_string(),
            p.all.d.to_string(),
            p.all.l.to_string(),
        ];
        record.extend(
            [p.all.score(), lo, hi, e.0, e.1, e.2, los(p.all.w, p.all.l)]
                .map(|x| format!("{x:.6}")),
        );
        record.extend(p.penta.0.map(|x| x.to_string()));
        record.extend(
            [
                pe.0,
                pe.1,
                pe.2,
                p.first_player.score(),
                flo,
                fhi,
                p.all.d as f64 / n,
                p.capped as f64 / n,
                mean,
            ]
            .map(|x| format!("{x:.6}")),
        );
        record.push(percentile(&p.lengths, 0.5).to_string());
        record.push(percentile(&p.lengths, 0.9).to_string());
        let _ = w.write_record(&record);
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("UTF-8 CSV")
}
