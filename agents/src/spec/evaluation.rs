//! The evaluation's options, which alpha-beta and MCTS share: `eval`, `weights`, `net` and
//! `net_id` are rows of each kind's table ([`super::options`]), made here once; the table
//! stores what they say, and [`finish`] then reads the files they name (through the spec
//! reader's [`WeightsSource`]) and checks that they go together. `w.FEATURE=F` is a family of
//! keys, not one, and is read beside the table.

use std::collections::BTreeMap;

use super::options::{Fallback, OptionDef, Takes};
use super::{
    AlphaBetaSpec, EvalKind, EvalSpec, MctsSpec, NetRef, SpecError, SpecErrorKind, WeightsSource,
    error, error_of, eval_text,
};

/// A spec with an evaluation.
pub(super) trait HasEval {
    /// Its evaluation.
    fn eval(&self) -> &EvalSpec;
    /// Its evaluation, to change.
    fn eval_mut(&mut self) -> &mut EvalSpec;
}

impl HasEval for AlphaBetaSpec {
    fn eval(&self) -> &EvalSpec {
        &self.eval
    }
    fn eval_mut(&mut self) -> &mut EvalSpec {
        &mut self.eval
    }
}

impl HasEval for MctsSpec {
    fn eval(&self) -> &EvalSpec {
        &self.eval
    }
    fn eval_mut(&mut self) -> &mut EvalSpec {
        &mut self.eval
    }
}

/// The evaluations' names, in [`EvalKind`]'s order.
const KINDS: &[&str] = &["material", "rich", "tuned", "net"];

/// The `eval` row, with the kind's words for what the evaluation is for. It prints the
/// whole evaluation (weights file, net, content id, `w.` weights), so the other rows print
/// nothing and a spec prints as it did before they were rows.
pub(super) const fn eval_row<S: HasEval>(help: &'static str) -> OptionDef<S> {
    OptionDef {
        key: "eval",
        takes: Takes::Choice(KINDS),
        default: Fallback::Unset("material"),
        help,
        source: "",
        set: set_kind::<S>,
        print: print_eval::<S>,
    }
}

/// The `weights` row: a JSON file of feature weights.
pub(super) const fn weights_row<S: HasEval>() -> OptionDef<S> {
    OptionDef {
        key: "weights",
        takes: Takes::Text("FILE.json"),
        default: Fallback::Unset(""),
        help: "the evaluation's weights from a file (eval=material|rich|tuned)",
        source: "",
        set: set_weights_file::<S>,
        print: print_nothing::<S>,
    }
}

/// The `net` row: a net file (`eval=net`, which it implies when `eval` is not given).
pub(super) const fn net_row<S: HasEval>() -> OptionDef<S> {
    OptionDef {
        key: "net",
        takes: Takes::Text("FILE"),
        default: Fallback::Unset("the game's shipped net"),
        help: "eval=net's net from a file (`arena tune net` writes them)",
        source: "",
        set: set_net_file::<S>,
        print: print_nothing::<S>,
    }
}

/// The `net_id` row: the content id a recorded spec names its net by.
pub(super) const fn net_id_row<S: HasEval>() -> OptionDef<S> {
    OptionDef {
        key: "net_id",
        takes: Takes::Hex,
        default: Fallback::Unset(""),
        help: "the net's content id, as runs record it: a changed file is refused",
        source: "",
        set: set_net_id::<S>,
        print: print_nothing::<S>,
    }
}

fn set_kind<S: HasEval>(s: &mut S, v: super::options::Value) {
    s.eval_mut().kind = match v.word() {
        "rich" => EvalKind::Rich,
        "tuned" => EvalKind::Tuned,
        "net" => EvalKind::Net,
        _ => EvalKind::Material,
    };
}

fn set_weights_file<S: HasEval>(s: &mut S, v: super::options::Value) {
    s.eval_mut().weights_file = Some(v.text().to_string());
}

fn net_ref<S: HasEval>(s: &mut S) -> &mut NetRef {
    s.eval_mut().net.get_or_insert_with(unnamed)
}

fn set_net_file<S: HasEval>(s: &mut S, v: super::options::Value) {
    net_ref(s).file = Some(v.text().to_string());
}

fn set_net_id<S: HasEval>(s: &mut S, v: super::options::Value) {
    net_ref(s).id = Some(v.whole());
}

fn print_eval<S: HasEval>(s: &S) -> Option<String> {
    Some(eval_text(s.eval()))
}

fn print_nothing<S>(_: &S) -> Option<String> {
    None
}

/// The evaluation once its rows are read: `eval` given or not (`net=FILE` alone means
/// `eval=net`), the weights file read through `weights`, the `w.` weights `overrides`, the
/// net file read and checked against `net_id`. The error names agent `kind`.
pub(super) fn finish(
    kind: &str,
    eval: &mut EvalSpec,
    eval_given: bool,
    overrides: BTreeMap<String, f64>,
    weights: WeightsSource<'_>,
) -> Result<(), SpecError> {
    if eval.net.is_some() && eval.kind != EvalKind::Net {
        if eval_given {
            return Err(error(format!(
                "{kind}: net=FILE and net_id= go with eval=net"
            )));
        }
        eval.kind = EvalKind::Net;
    }
    if let Some(path) = &eval.weights_file {
        eval.weights = weights(path).map_err(|e| {
            error_of(
                SpecErrorKind::Weights,
                format!("{kind}: weights file {path}: {e}"),
            )
        })?;
    }
    eval.overrides = overrides;
    if eval.kind != EvalKind::Net {
        return Ok(());
    }
    if eval.weights_file.is_some() || !eval.overrides.is_empty() {
        return Err(error(format!(
            "{kind}: a net has no feature weights: weights= and w.FEATURE= go with eval=material|rich|tuned"
        )));
    }
    read_net(kind, eval.net.get_or_insert_with(unnamed))
}

/// A net not named yet: the game's shipped one unless a file or id is given.
fn unnamed() -> NetRef {
    NetRef {
        file: None,
        id: None,
        net: None,
    }
}

/// Reads `net`'s file, if it names one, checked against its `net_id` if it has one.
fn read_net(kind: &str, net: &mut NetRef) -> Result<(), SpecError> {
    let Some(path) = net.file.clone() else {
        return Ok(());
    };
    let refused = |reason: String| {
        error_of(
            SpecErrorKind::Net,
            format!("{kind}: net file {path}: {reason}"),
        )
    };
    let Some((bytes, found)) = super::read_named(&path, net.id, "net", refused)? else {
        // Named by content and not here: building the agent finds the net by its id among
        // the shipped ones or says which file is missing.
        return Ok(());
    };
    let read = crate::net::Net::from_bytes(&bytes).map_err(|e| refused(e.to_string()))?;
    net.id = Some(found);
    net.net = Some(std::sync::Arc::new(read));
    Ok(())
}
