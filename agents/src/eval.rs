//! Weighted evaluations over the engine's [`Features`].
//!
//! An evaluation from player P's view is `Σ wᵢ · (fᵢ(P) − fᵢ(opponent))` over the game's
//! features. `eval=material` weights `material` 1 and the rest 0; `eval=rich` starts from
//! [`RICH_WEIGHTS`]; a weights file then overrides any named feature.

use ringside_engine::{Features, MAX_FEATURES, Player};

use crate::spec::{EvalKind, EvalSpec, SpecError};

/// Default weights of `eval=rich`, by feature name (features a game lacks are ignored).
pub const RICH_WEIGHTS: &[(&str, f64)] = &[
    ("material", 1.0),
    // Rin: stones that can never be captured, and stones not yet cut off.
    ("immune", 0.5),
    ("alive", 0.25),
    // Ikabegamá: one step nearer the enemy nest is worth two tokens.
    ("nest_distance", 2.0),
];

/// A weighted evaluation for one game.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluator {
    weights: [f64; MAX_FEATURES],
    count: usize,
}

impl Evaluator {
    /// The evaluation `spec` describes for the game of `state`. Weights naming a feature the
    /// game does not have are refused, with the game's feature names.
    pub fn new<G: Features>(spec: &EvalSpec, state: &G) -> Result<Evaluator, SpecError> {
        let names = state.feature_names();
        let mut weights = [0.0; MAX_FEATURES];
        for (i, name) in names.iter().enumerate() {
            weights[i] = match spec.kind {
                EvalKind::Material => f64::from(u8::from(*name == "material")),
                EvalKind::Rich => RICH_WEIGHTS
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or(0.0, |(_, w)| *w),
            };
        }
        for (name, &w) in &spec.weights {
            let i = names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| SpecError {
                    reason: format!(
                        "weights: {} has no feature '{name}'; its features: {}",
                        state.name(),
                        names.join(", ")
                    ),
                })?;
            weights[i] = w;
        }
        Ok(Evaluator {
            weights,
            count: names.len(),
        })
    }

    /// The value of `state` for `player`, in material units (one stone or token is 1).
    #[inline]
    #[must_use]
    pub fn evaluate<G: Features>(&self, state: &G, player: Player) -> f64 {
        let (mut mine, mut theirs) = ([0.0; MAX_FEATURES], [0.0; MAX_FEATURES]);
        state.features(player, &mut mine);
        state.features(player.other(), &mut theirs);
        (0..self.count)
            .map(|i| self.weights[i] * (mine[i] - theirs[i]))
            .sum()
    }
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
        // Black: 1 stone, immune (on the edge), alive. White: 1 stone, not immune, alive.
        let weights = BTreeMap::from([("immune".to_string(), 10.0), ("material".to_string(), 0.0)]);
        let spec = EvalSpec {
            kind: EvalKind::Rich,
            weights_file: None,
            weights,
        };
        let e = Evaluator::new(&spec, &rin).unwrap();
        assert_eq!(e.evaluate(&rin, Player::ZERO), 10.0);
        let bad = EvalSpec {
            kind: EvalKind::Material,
            weights_file: None,
            weights: BTreeMap::from([("nest_distance".to_string(), 1.0)]),
        };
        let err = Evaluator::new(&bad, &rin).unwrap_err().reason;
        assert_eq!(
            err,
            "weights: rin has no feature 'nest_distance'; its features: material, immune, alive"
        );
    }
}
