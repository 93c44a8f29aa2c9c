//! Whole-number arguments, read strictly: an action, a player, a seed, a count or a cap is a
//! Python `int` or a NumPy integer, never a float that happens to truncate to one, nor a bool.
//!
//! What is not a whole number is a `TypeError`; a whole number out of the argument's range
//! (a negative ply cap, a player the game does not have, a seed beyond 64 bits) a
//! `ValueError` naming the argument.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

/// `value` as a whole number, read as Python's `operator.index` reads one: an `int`, a NumPy
/// integer, or anything else that says it is an integer (`__index__`). A `bool` is refused,
/// Python's and NumPy's alike: `bool` is a subclass of `int` only by an accident of Python's
/// history, and `True` passed for action 1 is a bug in the caller. So is a float, even `2.0`,
/// and a string: a `TypeError` naming `what`. A whole number beyond 128 bits is a
/// `ValueError`.
pub fn whole(value: &Bound<'_, PyAny>, what: &str) -> PyResult<i128> {
    let index = if value.is_exact_instance_of::<PyInt>() {
        value.clone()
    } else {
        if value.is_instance_of::<PyBool>() || is_numpy_bool(value) {
            return Err(PyTypeError::new_err(format!(
                "{what} must be an integer, not a bool ({value})"
            )));
        }
        match value.call_method0("__index__") {
            Ok(index) if index.is_instance_of::<PyInt>() => index,
            _ => {
                let kind = value
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string());
                let shown = value
                    .repr()
                    .map_or_else(|_| "?".to_string(), |r| r.to_string());
                return Err(PyTypeError::new_err(format!(
                    "{what} must be an integer (an int or a NumPy integer), not {kind} {shown}"
                )));
            }
        }
    };
    if let Ok(n) = index.extract::<i64>() {
        return Ok(n.into());
    }
    index
        .extract::<i128>()
        .map_err(|_| PyValueError::new_err(format!("{what} {index} is out of range")))
}

/// Whether `value` is NumPy's `bool` (`numpy.bool_`), which older NumPy lets pass as an index.
fn is_numpy_bool(value: &Bound<'_, PyAny>) -> bool {
    let kind = value.get_type();
    let module = kind.module().is_ok_and(|m| m == "numpy");
    module && kind.name().is_ok_and(|n| n.to_string().starts_with("bool"))
}

/// `value` (a whole number, as [`whole`] reads it) from `min` to `max`: a `ValueError`
/// saying which bound it is beyond, else the number as `T`.
pub fn bounded<T>(value: &Bound<'_, PyAny>, what: &str, min: T, max: T) -> PyResult<T>
where
    T: Copy + TryFrom<i128>,
    i128: TryFrom<T>,
{
    let n = whole(value, what)?;
    let lo = i128::try_from(min).unwrap_or(i128::MIN);
    let hi = i128::try_from(max).unwrap_or(i128::MAX);
    if n < lo {
        return Err(PyValueError::new_err(format!(
            "{what} must be at least {lo}, not {n}"
        )));
    }
    if n > hi {
        return Err(PyValueError::new_err(format!(
            "{what} must be at most {hi}, not {n}"
        )));
    }
    T::try_from(n).map_err(|_| PyValueError::new_err(format!("{what} {n} is out of range")))
}

/// A ply cap: `None` (the caller's default) or a whole number from 1 to `u32::MAX`.
pub fn ply_cap(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u32>> {
    value
        .map(|v| bounded(v, "ply_cap", 1, u32::MAX))
        .transpose()
}

/// A seed: a whole number from 0 to `u64::MAX`.
pub fn seed(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    bounded(value, "seed", 0, u64::MAX)
}

/// An action number: a `ValueError` when it is negative or beyond every action number (an
/// action no game has), a `TypeError` when it is not a whole number.
pub fn action(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    let n = whole(value, "action")?;
    if n < 0 {
        return Err(PyValueError::new_err(format!("action {n} is negative")));
    }
    usize::try_from(n).map_err(|_| PyValueError::new_err(format!("action {n} is out of range")))
}

/// A player argument: `None`, or 0, 1 or -1 (chance, which OpenSpiel counts as a player);
/// anything else is a `ValueError` (a player the game does not have), or a `TypeError` when
/// it is not a whole number.
pub fn player(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<i64>> {
    let Some(value) = value else {
        return Ok(None);
    };
    match whole(value, "player")? {
        n @ (-1..=1) => Ok(Some(n as i64)),
        n => Err(PyValueError::new_err(format!(
            "player {n}: expected 0, 1 or -1 (chance)"
        ))),
    }
}
