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

/// The figures derived from one pairing's counts, computed once for the Markdown and the CSV.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    /// 95% Wilson interval of the first agent's score.
    pub score_interval: (f64, f64),
    /// Elo with its 95% interval, per game.
    pub elo: (f64, f64, f64),
    /// Likelihood of superiority.
    pub los: f64,
    /// Elo with its 95% interval, per colour-swapped pair.
    pub pair_elo: (f64, f64, f64),
    /// 95% Wilson interval of the first colour's score.
    pub first_interval: (f64, f64),
    /// Share of drawn games.
    pub draw_rate: f64,
    /// Share of games stopped by the ply cap.
    pub cap_rate: f64,
    /// Mean game length in plies.
    pub mean_plies: f64,
    /// Median game length.
    pub median_plies: u32,
    /// 90th percentile of game length.
    pub p90_plies: u32,
}

impl PairingSummary {
    /// The figures of this pairing (it has at least one game).
    #[must_use]
    pub fn figures(&self) -> Figures {
        let n = self.all.n() as f64;
        Figures {
            score_interval: wilson(self.all.score(), n, Z95),
            elo: elo_interval(&self.all),
            los: los(self.all.w, self.all.l),
            pair_elo: self.penta.elo_interval(),
            first_interval: wilson(self.first_player.score(), n, Z95),
            draw_rate: self.all.d as f64 / n,
            cap_rate: self.capped as f64 / n,
            mean_plies: self.lengths.iter().map(|&x| f64::from(x)).sum::<f64>() / n,
            median_plies: percentile(&self.lengths, 0.5),
            p90_plies: percentile(&self.lengths, 0.9),
        }
    }
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
    let summaries = pairings(settings, rows);
    for p in &summaries {
        let (a, b) = (&settings.agents[p.a], &settings.agents[p.b]);
        let f = p.figures();
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
            pct(f.score_interval.0),
            pct(f.score_interval.1)
        );
        let _ = writeln!(md, "| Elo | {} |", elo_text(f.elo));
        let _ = writeln!(md, "| LOS | {} |", pct(f.los));
        let _ = writeln!(md, "| pairs scoring 0, ½, 1, 1½, 2 | {:?} |", p.penta.0);
        let _ = writeln!(md, "| Elo from pairs | {} |", elo_text(f.pair_elo));
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
        let fp = &p.first_player;
        let _ = writeln!(
            md,
            "| first-colour score | {} [{}, {}] (W-D-L {}-{}-{}) |",
            pct(fp.score()),
            pct(f.first_interval.0),
            pct(f.first_interval.1),
            fp.w,
            fp.d,
            fp.l
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
    }
    if settings.agents.len() >= 3 {
        let _ = writeln!(
            md,
            "## Ratings (Bradley–Terry maximum likelihood, mean 0)\n\n| agent | Elo | games |\n|---|---|---|"
        );
        let (ratings, games) = ratings(settings.agents.len(), &summaries);
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

/// Bradley–Terry ratings of `agents` agents from their pairings, and the games each played.
#[must_use]
pub fn ratings(agents: usize, pairings: &[PairingSummary]) -> (Vec<f64>, Vec<u64>) {
    let mut results = Vec::new();
    let mut games = vec![0; agents];
    for p in pairings {
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
    (bradley_terry(agents, &results), games)
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
        let f = p.figures();
        let mut record: Vec<String> = vec![
            p.pairing.to_string(),
            settings.agents[p.a].clone(),
            settings.agents[p.b].clone(),
            p.all.n().to_string(),
            p.all.w.to_string(),
            p.all.d.to_string(),
            p.all.l.to_string(),
        ];
        let (score, (lo, hi), e) = (p.all.score(), f.score_interval, f.elo);
        record.extend([score, lo, hi, e.0, e.1, e.2, f.los].map(|x| format!("{x:.6}")));
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
            .map(|x| format!("{x:.6}")),
        );
        record.push(f.median_plies.to_string());
        record.push(f.p90_plies.to_string());
        let _ = w.write_record(&record);
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("UTF-8 CSV")
}
