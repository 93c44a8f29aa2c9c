//! Every game's `eval=tuned` weights are the fit committed under results/: Texel's
//! `results/tuned/GAME/weights.json`, or for Ikabegama SPSA's last iteration in
//! `results/ikabegama-spsa/spsa.csv` (its untuned features at their default weights). A
//! changed constant would silently change every tuned player's games. Likewise the
//! `eval=rich` weights are the start each Texel fit reports in its summary.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ringside_engine::registry::{GAMES, GameVisitor, with_game};
use ringside_engine::{Features, Game};

fn results() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../results")
}

/// The committed fit of `game`: each tuned feature's weight by name; `None` when nothing is
/// committed.
fn committed(game: &str) -> Option<BTreeMap<String, f64>> {
    let weights = results().join("tuned").join(game).join("weights.json");
    if weights.exists() {
        let text = std::fs::read_to_string(&weights).unwrap();
        return Some(serde_json::from_str(&text).unwrap());
    }
    if game != "ikabegama" {
        return None;
    }
    let text = std::fs::read_to_string(results().join("ikabegama-spsa/spsa.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let last: Vec<&str> = lines.last().unwrap().split(',').collect();
    let fit = header
        .iter()
        .zip(&last)
        .filter_map(|(h, v)| {
            let name = h.strip_prefix("w.")?;
            (!name.contains('.')).then(|| (name.to_string(), v.parse().unwrap()))
        })
        .collect();
    Some(fit)
}

/// Each feature's name, tuned weight and default weight, and whether the game has a fit.
struct Tuned;
impl GameVisitor for Tuned {
    type Output = (Vec<(&'static str, f64, f64)>, bool);
    fn visit<G: Game + Features>(self, start: G) -> Self::Output {
        let weights = start
            .feature_set()
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name, start.tuned_weight(i), f.default_weight))
            .collect();
        (weights, start.tuned_fit().is_some())
    }
}

#[test]
fn every_games_tuned_weights_are_its_committed_fit() {
    let mut fits = 0;
    for info in GAMES {
        let (weights, has_fit) = with_game(info.name, Tuned).unwrap();
        // A game ships a fit exactly when one is committed; without one it plays rich.
        let Some(fit) = committed(info.name) else {
            assert!(!has_fit, "{}: a fit in the code, none committed", info.name);
            assert!(weights.iter().all(|w| w.1 == w.2), "{}", info.name);
            continue;
        };
        assert!(has_fit, "{}: a fit committed, none in the code", info.name);
        fits += 1;
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
    assert_eq!(
        fits, 8,
        "the six seed games' fits, Breakthrough's and Othello's"
    );
}

/// The starting weights a Texel fit's summary table reports (to four decimals), by name.
fn texel_start(game: &str) -> Option<BTreeMap<String, f64>> {
    let summary = results().join("tuned").join(game).join("summary.md");
    let text = std::fs::read_to_string(summary).ok()?;
    let rows = text
        .lines()
        .skip_while(|l| !l.starts_with("| feature | start |"));
    Some(
        rows.skip(2)
            .take_while(|l| l.starts_with("| `"))
            .map(|l| {
                let cells: Vec<&str> = l.split('|').map(str::trim).collect();
                (
                    cells[1].trim_matches('`').to_string(),
                    cells[2].parse().unwrap(),
                )
            })
            .collect(),
    )
}

#[test]
fn every_games_rich_weights_are_where_its_texel_fit_started() {
    let mut fits = 0;
    for info in GAMES {
        let Some(start) = texel_start(info.name) else {
            continue;
        };
        fits += 1;
        let (weights, _) = with_game(info.name, Tuned).unwrap();
        assert_eq!(start.len(), weights.len(), "{}", info.name);
        for (name, _, default) in weights {
            let reported = start[name];
            assert!(
                (default - reported).abs() < 5e-5,
                "{} {name}: {default} in the code, {reported} reported",
                info.name
            );
        }
    }
    assert_eq!(
        fits, 7,
        "Texel fits of Rin, Life, Advance, Hexxagon, Havannah, Breakthrough and Othello"
    );
}
