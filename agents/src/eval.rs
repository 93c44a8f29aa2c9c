//! Weighted evaluations over the engine's [`Features`].
//!
//! An evaluation from player P's view is `Σ wᵢ · (fᵢ(P) − fᵢ(opponent))` over the game's
//! features. `eval=material` weights `material` 1 and the rest 0; `eval=rich` starts from the
//! default weights the game gives its features ([`ringside_engine::Feature`]), `eval=tuned` from
//! the weights tuned for the game ([`Features::tuned_fit`]); then a weights
//! file, and after it any `w.NAME=F` option of the agent spec, override named features.
//! `eval=net` is a network ([`crate::net`]) instead: the game's shipped net, or `net=FILE`.

use std::sync::Arc;

use ringside_engine::{Features, MAX_FEATURES, Player};

use crate::net::{Net, NetEvaluator, content_id};
use crate::spec::{EvalKind, EvalSpec, SpecError, SpecErrorKind};

/// An evaluation for one game: weighted features, or a network.
#[derive(Debug, Clone)]
pub struct Evaluator {
    weights: [f64; MAX_FEATURES],
    count: usize,
    /// The features weighted other than 0, bit `i` for feature `i`: the only ones read.
    wanted: u32,
    net: Option<NetEvaluator>,
}

impl Evaluator {
    /// The evaluation `spec` describes for the game of `state`. Weights naming a feature the
    /// game does not have are refused, with the game's feature names.
    pub fn new<G: Features>(spec: &EvalSpec, state: &G) -> Result<Evaluator, SpecError> {
        if spec.kind == EvalKind::Net {
            let net = resolve_net(spec, state)?;
            let net = NetEvaluator::new(&net, state).map_err(|e| SpecError {
                kind: SpecErrorKind::Net,
                reason: e.to_string(),
            })?;
            return Ok(Evaluator {
                weights: [0.0; MAX_FEATURES],
                count: 0,
                wanted: 0,
                net: Some(net),
            });
        }
        let set = state.feature_set();
        let mut weights = [0.0; MAX_FEATURES];
        for (i, feature) in set.iter().enumerate() {
            weights[i] = match spec.kind {
                EvalKind::Material => f64::from(u8::from(feature.name == "material")),
                EvalKind::Rich => feature.default_weight,
                EvalKind::Tuned => state.tuned_weight(i),
                EvalKind::Net => unreachable!("a net evaluator returned above"),
            };
        }
        for (name, &w) in spec.weights.iter().chain(&spec.overrides) {
            let i =
                set.iter()
                    .position(|f| f.name == name)
                    .ok_or_else(|| crate::spec::SpecError {
                        kind: crate::spec::SpecErrorKind::Weights,
                        reason: format!(
                            "weights: {} has no feature '{name}'; its features: {}",
                            state.name(),
                            state.feature_names().collect::<Vec<_>>().join(", ")
                        ),
                    })?;
            weights[i] = w;
        }
        let wanted = (0..set.len())
            .filter(|&i| weights[i] != 0.0)
            .fold(0, |mask, i| mask | 1 << i);
        Ok(Evaluator {
            weights,
            count: set.len(),
            wanted,
            net: None,
        })
    }

    /// The weights, one per feature of the game, in the game's order (none for a net).
    #[must_use]
    pub fn weights(&self) -> &[f64] {
        &self.weights[..self.count]
    }

    /// The value of `state` for `player`, in material units (one stone or token is 1).
    #[inline]
    #[must_use]
    pub fn evaluate<G: Features>(&self, state: &G, player: Player) -> f64 {
        if let Some(net) = &self.net {
            return net.evaluate(state, player);
        }
        // Only the weighted features are read (the rest stay 0, and are weighted 0):
        // `eval=material` on Havannah skips the 22 board searches of its two needs.
        let (mut mine, mut theirs) = ([0.0; MAX_FEATURES], [0.0; MAX_FEATURES]);
        state.features_wanted(player, self.wanted, &mut mine);
        state.features_wanted(player.other(), self.wanted, &mut theirs);
        (0..self.count)
            .map(|i| self.weights[i] * (mine[i] - theirs[i]))
            .sum()
    }
}

/// The net `spec` names for the game of `state`: its file's, or the game's shipped one, whose
/// content must be the one the spec recorded (`net_id`), if it recorded one.
fn resolve_net<G: Features>(spec: &EvalSpec, state: &G) -> Result<Arc<Net>, SpecError> {
    let refused = |reason: String| SpecError {
        kind: SpecErrorKind::Net,
        reason,
    };
    let wanted = spec.net.as_ref().and_then(|r| r.id);
    if let Some(net) = spec.net.as_ref().and_then(|r| r.net.clone()) {
        return Ok(net);
    }
    let file = spec.net.as_ref().and_then(|r| r.file.as_deref());
    let missing = |shipped: String| {
        refused(match (file, wanted) {
            (Some(file), Some(wanted)) => format!(
                "eval=net: net file {file} (content {wanted:016x}) cannot be read here, and {shipped}"
            ),
            _ => format!("eval=net: {shipped}"),
        })
    };
    let bytes = state.shipped_net().ok_or_else(|| {
        missing(format!(
            "{} has no shipped net; train one with `arena tune net` and give net=FILE",
            state.spec()
        ))
    })?;
    let id = content_id(bytes);
    if let Some(wanted) = wanted.filter(|&w| w != id) {
        return Err(missing(format!(
            "the shipped net of {} is {id:016x}, not {wanted:016x}, the one this spec names; give that net as net=FILE",
            state.spec()
        )));
    }
    Net::from_bytes(bytes)
        .map(Arc::new)
        .map_err(|e| refused(format!("the shipped net of {}: {e}", state.spec())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ringside_engine::Game;
    use ringside_engine::games::rin::Rin;
    use std::collections::BTreeMap;

    #[test]
    fn material_is_own_stones_minus_the_opponents() {
        let rin = Rin::new(8).unwrap().set_up("........\n........\n...B....\n..BW....\n........\n.....B..\n........\n........\nply 4").unwrap();
        let spec = EvalSpec {
            kind: EvalKind::Material,
            weights_file: None,
            net: None,
            overrides: BTreeMap::new(),
            weights: BTreeMap::new(),
        };
        let e = Evaluator::new(&spec, &rin).unwrap();
        assert_eq!(e.evaluate(&rin, Player::ZERO), 2.0);
        assert_eq!(e.evaluate(&rin, Player::ONE), -2.0);
    }

    #[test]
    fn weights_override_and_unknown_features_are_refused() {
        let rin = Rin::new(8)
            .unwrap()
            .set_up(
                "B.......\n........\n........\n...W....\n........\n........\n........\n........",
            )
            .unwrap();
        // Black: 1 stone, immune (on the edge). White: 1 stone, not immune.
        let weights = BTreeMap::from([("immune".to_string(), 10.0), ("material".to_string(), 0.0)]);
        let spec = EvalSpec {
            kind: EvalKind::Material,
            weights_file: None,
            net: None,
            overrides: BTreeMap::new(),
            weights,
        };
        let e = Evaluator::new(&spec, &rin).unwrap();
        assert_eq!(e.evaluate(&rin, Player::ZERO), 10.0);
        let bad = EvalSpec {
            kind: EvalKind::Material,
            weights_file: None,
            net: None,
            overrides: BTreeMap::new(),
            weights: BTreeMap::from([("nest_distance".to_string(), 1.0)]),
        };
        let err = Evaluator::new(&bad, &rin).unwrap_err().reason;
        assert_eq!(
            err,
            "weights: rin has no feature 'nest_distance'; its features: material, immune, liberties, territory, marked"
        );
    }

    #[test]
    fn rich_starts_from_the_games_defaults_and_spec_weights_beat_the_files() {
        let rin = Rin::new(8).unwrap();
        let file = BTreeMap::from([("immune".to_string(), 3.0), ("liberties".to_string(), 2.0)]);
        let spec = EvalSpec {
            kind: EvalKind::Rich,
            weights_file: Some("w.json".into()),
            net: None,
            weights: file,
            overrides: BTreeMap::from([("immune".to_string(), 7.0)]),
        };
        let e = Evaluator::new(&spec, &rin).unwrap();
        let defaults: Vec<f64> = rin.feature_set().iter().map(|f| f.default_weight).collect();
        assert_eq!(e.weights()[0], defaults[0]);
        assert_eq!(
            e.weights()[1],
            7.0,
            "the spec's w.immune wins over the file's"
        );
        assert_eq!(
            e.weights()[2],
            2.0,
            "the file's liberties win over the default"
        );
        assert_eq!(e.weights()[3..], defaults[3..]);
    }

    #[test]
    fn every_evaluation_of_havannah_is_the_full_weighted_sum_though_it_reads_only_its_features() {
        // The evaluator reads only the features it weights; its value must still be the sum
        // over every feature, each weighted, as read in full by `features`.
        use ringside_engine::games::havannah::Havannah;
        let mut state = Havannah::new(6, false).unwrap();
        let mut rng = ringside_engine::seeded_rng(3, 0);
        let mut scratch = Vec::new();
        let kinds = [EvalKind::Material, EvalKind::Rich, EvalKind::Tuned];
        let evaluators: Vec<Evaluator> = kinds
            .iter()
            .map(|&kind| {
                let spec = EvalSpec {
                    kind,
                    ..EvalSpec::default()
                };
                Evaluator::new(&spec, &state).unwrap()
            })
            .collect();
        let mut checked = 0;
        while state.outcome().is_none() {
            for e in &evaluators {
                for p in [Player::ZERO, Player::ONE] {
                    let (mut mine, mut theirs) = ([0.0; MAX_FEATURES], [0.0; MAX_FEATURES]);
                    state.features(p, &mut mine);
                    state.features(p.other(), &mut theirs);
                    let full: f64 = (0..e.weights().len())
                        .map(|i| e.weights()[i] * (mine[i] - theirs[i]))
                        .sum();
                    assert_eq!(e.evaluate(&state, p), full, "at ply {}", state.ply());
                    checked += 1;
                }
            }
            let mv = state.random_move(&mut rng, &mut scratch).unwrap();
            state.play_unchecked(mv);
        }
        assert!(checked > 60, "a game of some length: {checked}");
        // Material reads the stones alone; the tuned fit weights the needs too.
        assert_eq!(evaluators[0].wanted, 1);
        assert_eq!(evaluators[2].wanted & 0b11_0000, 0b11_0000);
    }
}
