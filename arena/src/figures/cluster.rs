//! Games that are not independent draws, grouped so that an interval counts them once.
//!
//! A deterministic player plays the same game again whenever its opening repeats: alpha-beta
//! against itself gave 7 distinct games of Tic-tac-toe in 100. An interval that counts each of
//! those 100 games as a draw of its own is as narrow as 100 draws would make it while it has
//! seen 7. A *cluster* here is a distinct game of a pairing: every game with the same moves
//! ([`clusters`]). Resampling whole clusters ([`bootstrap_mean`]) gives the interval of what
//! was seen, and splitting by cluster ([`halves`]) keeps a game and its copies on one side of a
//! held-out split. (The two games of a colour-swapped pair are not joined: where no random
//! opening is played, as in a report's first-player part, they share nothing but a seed.)

use rand::RngExt;
use ringside_engine::seeded_rng;

use crate::figures::metrics::BOOTSTRAP_SAMPLES;

/// What makes two games one: their pairing and their moves' hash
/// ([`crate::records::row::GameRow::moves_key`]).
pub type Ties = (usize, u64);

/// The cluster of each game of `ties` (the same order): the distinct games, numbered from 0 in
/// the order each was first seen. A key is [`Ties`] or anything that also says where the game
/// was played (a report keys each run's pairing apart).
#[must_use]
pub fn clusters<K: std::hash::Hash + Eq + Copy>(ties: &[K]) -> Vec<usize> {
    let mut number: std::collections::HashMap<K, usize> = std::collections::HashMap::new();
    ties.iter()
        .map(|t| {
            let next = number.len();
            *number.entry(*t).or_insert(next)
        })
        .collect()
}

/// The half (0 or 1) of each cluster number: clusters alternate in the order of their first
/// game, so the halves hold as many clusters each, give or take one.
#[must_use]
pub fn halves(clusters: &[usize]) -> Vec<usize> {
    clusters.iter().map(|c| c % 2).collect()
}

/// The mean of `values` `(cluster, value)` with its 95% percentile-bootstrap interval over
/// clusters: [`BOOTSTRAP_SAMPLES`] resamples of as many clusters as were seen, drawn with
/// replacement from a fixed seed, each resample's mean the sum of its clusters' values over
/// their count of values. `None` without values; with one cluster the interval is the point.
#[must_use]
pub fn bootstrap_mean(values: &[(usize, f64)]) -> Option<(f64, f64, f64)> {
    if values.is_empty() {
        return None;
    }
    let n = values.iter().map(|v| v.0).max().map_or(0, |m| m + 1);
    let mut sums = vec![(0.0f64, 0u32); n];
    for &(c, v) in values {
        sums[c].0 += v;
        sums[c].1 += 1;
    }
    // Cluster numbers without values (a measure defined on some games only) are dropped.
    sums.retain(|s| s.1 > 0);
    let total: f64 = values.iter().map(|v| v.1).sum();
    let mean = total / values.len() as f64;
    if sums.len() < 2 {
        return Some((mean, mean, mean));
    }
    let mut rng = seeded_rng(0x0063_6c75_7374_6572, 0);
    let mut means = Vec::with_capacity(BOOTSTRAP_SAMPLES);
    for _ in 0..BOOTSTRAP_SAMPLES {
        let (mut s, mut k) = (0.0, 0u32);
        for _ in 0..sums.len() {
            let c = sums[rng.random_range(0..sums.len())];
            s += c.0;
            k += c.1;
        }
        means.push(s / f64::from(k));
    }
    means.sort_by(f64::total_cmp);
    let at = |q: f64| means[((means.len() - 1) as f64 * q).round() as usize];
    Some((mean, at(0.025).min(mean), at(0.975).max(mean)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_is_a_distinct_game_of_a_pairing_and_halves_alternate() {
        // Game 2 repeats game 0; game 4 has game 0's moves but in another pairing (another
        // player): a game of its own.
        let ties = [(0, 10), (0, 11), (0, 10), (0, 12), (1, 10), (0, 11)];
        let c = clusters(&ties);
        assert_eq!(c, vec![0, 1, 0, 2, 3, 1]);
        // Copies of a game always fall in one half.
        assert_eq!(halves(&c), vec![0, 1, 0, 0, 1, 1]);
    }

    #[test]
    fn repeats_of_few_games_give_the_interval_of_those_games_not_of_their_copies() {
        // Ten distinct values played ten times each: the cluster bootstrap sees ten draws;
        // counting every copy as a draw of its own narrows the interval about √10 times.
        let repeated: Vec<(usize, f64)> = (0..100).map(|i| (i % 10, (i % 10) as f64)).collect();
        let independent: Vec<(usize, f64)> = repeated
            .iter()
            .enumerate()
            .map(|(i, &(_, v))| (i, v))
            .collect();
        let (m, lo, hi) = bootstrap_mean(&repeated).unwrap();
        let (m2, lo2, hi2) = bootstrap_mean(&independent).unwrap();
        assert!((m - 4.5).abs() < 1e-12 && (m2 - 4.5).abs() < 1e-12);
        let (wide, narrow) = (hi - lo, hi2 - lo2);
        assert!(
            wide > 2.5 * narrow && wide < 4.0 * narrow,
            "{wide} {narrow}"
        );
        // The ten means alone: sd 2.87, so the 95% interval's half-width is about
        // 1.96 · 2.87 / √10 = 1.78.
        assert!((wide / 2.0 - 1.78).abs() < 0.25, "{wide}");
    }

    #[test]
    fn one_cluster_gives_the_point_and_no_values_give_nothing() {
        assert_eq!(bootstrap_mean(&[(0, 1.0), (0, 3.0)]), Some((2.0, 2.0, 2.0)));
        assert_eq!(bootstrap_mean(&[]), None);
        // Cluster numbers that hold no value do not count as clusters.
        assert_eq!(bootstrap_mean(&[(3, 1.0), (3, 1.0)]), Some((1.0, 1.0, 1.0)));
    }
}
