//! A run's stopping rule: fishtest's sequential probability ratio test, as settings.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, Setting};

/// How Elo is measured by the SPRT's hypotheses (fishtest's two models).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic Elo: an expected score `1 / (1 + 10^(−elo/400))`.
    Logistic,
    /// Normalized Elo: the score's distance from ½ in standard deviations of a game, × 800/ln 10.
    Normalized,
}

/// An SPRT: H0 Elo = `elo0` against H1 Elo = `elo1`, with error rates `alpha` and `beta`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtConfig {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// The Elo model of `elo0` and `elo1`.
    pub model: EloModel,
}

impl SprtConfig {
    /// Parses `elo0,elo1,alpha,beta[,logistic|normalized]` (logistic by default).
    pub fn parse(text: &str) -> Result<SprtConfig> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let shape = || {
            Error::about(
                Setting::Sprt,
                format_args!("'{text}' is not elo0,elo1,alpha,beta[,logistic|normalized]"),
            )
        };
        if !(4..=5).contains(&parts.len()) {
            return Err(shape());
        }
        let mut numbers = [0.0; 4];
        for (n, p) in numbers.iter_mut().zip(&parts) {
            *n = p.parse().map_err(|_| shape())?;
        }
        let model = match parts.get(4).copied() {
            None | Some("logistic") => EloModel::Logistic,
            Some("normalized") => EloModel::Normalized,
            Some(other) => {
                return Err(Error::about(
                    Setting::Sprt,
                    format_args!(": the Elo model must be logistic or normalized, not '{other}'"),
                ));
            }
        };
        let [elo0, elo1, alpha, beta] = numbers;
        SprtConfig {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        }
        .checked()
    }

    /// The same configuration if its numbers make sense: finite, `elo0 < elo1`, and
    /// `0 < alpha, beta < 0.5`.
    pub fn checked(self) -> Result<SprtConfig> {
        let numbers = [self.elo0, self.elo1, self.alpha, self.beta];
        if numbers.iter().any(|x| !x.is_finite()) {
            return Err(Error::about(
                Setting::Sprt,
                ": elo0, elo1, alpha and beta must be finite numbers",
            ));
        }
        let rate = |x: f64| x > 0.0 && x < 0.5;
        if self.elo0 >= self.elo1 || !rate(self.alpha) || !rate(self.beta) {
            return Err(Error::about(
                Setting::Sprt,
                ": need elo0 < elo1 and 0 < alpha, beta < 0.5",
            ));
        }
        Ok(self)
    }
}
