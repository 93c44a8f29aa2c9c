//! The figures of a run's games: per pairing results with intervals, pentanomial figures, a
//! rating table by connected group, and the game-design figures (first-player advantage,
//! draws, caps, lengths). [`crate::report`] renders them as Markdown and CSV.

use crate::plan::{RunPlan, Seat};
use crate::row::{GameRow, Reason};
use crate::stats::{
    PairFold, PairingResult, Penta, RatingGroup, Wdl, Z95, elo_interval, los, percentile,
    rate_groups, wilson,
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
pub fn pairings(plan: &RunPlan, rows: &[GameRow]) -> Vec<PairingSummary> {
    let mut out: Vec<PairingSummary> = plan
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
    let mut fold = PairFold::default();
    for row in rows {
        let Some(p) = out.get_mut(row.slot.pairing) else {
            continue;
        };
        let points = row.pairing_first_points();
        p.all.add(points);
        match row.slot.seat {
            Seat::AFirst => p.a_first.add(points),
            Seat::BFirst => p.a_second.add(points),
        }
        p.first_player.add(row.first_points());
        p.capped += u64::from(row.reason == Reason::PlyCap);
        p.faults += u64::from(row.reason.is_fault());
        p.lengths.push(row.plies);
        if let Some(pair_points) = fold.add(row) {
            p.penta.add(pair_points);
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

/// The rating groups of a run's agents from its pairings' results: Bradley–Terry ratings with
/// 95% intervals, each group on its own scale (agents that never met another are in none).
#[must_use]
pub fn ratings(agents: usize, pairings: &[PairingSummary]) -> Vec<RatingGroup> {
    let results: Vec<PairingResult> = pairings
        .iter()
        .map(|p| PairingResult {
            a: p.a,
            b: p.b,
            a_points: p.all.w as f64 + p.all.d as f64 / 2.0,
            games: p.all.n() as f64,
        })
        .collect();
    rate_groups(agents, &results)
}
