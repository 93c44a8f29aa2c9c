//! Every game's `eval=tuned` weights are the fit committed under results/: Texel's
//! `results/tuned/GAME/weights.json`, or for Ikabegama SPSA's last iteration in
//! `results/ikabegama-spsa/spsa.csv` (its untuned features at their default weights). A
//! changed constant would silently change every tuned player's games.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ringside_engine::registry::{GAMES, GameVisitor, with_game};
use ringside_engine::{Features, Game};

fn results() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../results")
}

/// The committed fit of `game`: each tuned feature's weight by name.
fn committed(game: &str) -> BTreeMap<String, f64> {
    let weights = results().join("tuned").join(game).join("weights.json");
    if weights.exists() {
        let text = std::fs::read_to_string(&weights).unwrap();
        return serde_json::from_str(&text).unwrap();
    }
    assert_eq!(game, "ikabegama", "no committed fit for {game}");
    let text = std::fs::read_to_string(results().join("ikabegama-spsa/spsa.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let last: Vec<&str> = lines.last().unwrap().split(',').collect();
    header
        .iter()
        .zip(&last)
        .filter_map(|(h, v)| {
            let name = h.strip_prefix("w.")?;
            (!name.contains('.')).then(|| (name.to_string(), v.parse().unwrap()))
        })
        .collect()
}

/// Each feature's name, tuned weight and default weight.
struct Tuned;
impl GameVisitor for Tuned {
    type Output = Vec<(&'static str, f64, f64)>;
    fn visit<G: Game + Features>(self, start: G) -> Self::Output {
        start
            .feature_set()
            .iter()
            .zip(start.tuned_weights())
            .map(|(f, &w)| (f.name, w, f.default_weight))
            .collect()
    }
}

#[test]
fn every_games_tuned_weights_are_its_committed_fit() {
    for info in GAMES {
        let fit = committed(info.name);
        let weights = with_game(info.name, Tuned).unwrap();
        // Every fitted weight names one of the game's features.
        for name in fit.keys() {
            assert!(weights.iter().any(|w| w.0 == name), "{} {name}", info.name);
        }
        for (name, tuned, default) in weights {
            let expected = fit.get(name).copied().unwrap_or(default);
            // To the last bits a JSON reader may round differently.
            assert!(
                (tuned - expected).abs() <= 1e-12 * expected.abs().max(1.0),
                "{} {name}: {tuned} in the code, {expected} committed",
                info.name
            );
        }
    }
}
