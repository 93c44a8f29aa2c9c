//! The arena library's layers import one way (the crate docs' "The house"): the plan
//! vocabulary (`plan/`, with `error`) at the bottom, then `records`, `figures`, the rest of
//! `run`, and on top `tune`, `protocols` and `explore`. A module may import its own layer or any
//! below it, never one above, and no two modules may import each other.
//!
//! The test reads `crate::` paths in each file's code (before its
//! tests) and fails, naming them, on any import of a higher layer and any two modules that
//! import each other.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use common::files_under;

/// The layer of a module path under src/ (`plan` is the ground floor).
fn layer(module: &str) -> usize {
    let top = module.split('/').next().unwrap_or(module);
    match top {
        "plan" | "error" => 0,
        "records" => 1,
        "figures" => 2,
        "run" => 3,
        "tune" | "protocols" | "explore" | "serve" => 4,
        other => panic!("no layer for {other}: add it to the house's order"),
    }
}

/// Every `.rs` file under `root`, as a path relative to it without `.rs` (`x/mod` as `x`),
/// with its text.
fn modules(root: &Path) -> Vec<(String, String)> {
    files_under(root, ".rs")
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let name = rel
                .trim_end_matches(".rs")
                .trim_end_matches("/mod")
                .to_string();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// The modules `text` imports by `crate::a::b` paths outside comments and before its tests,
/// each as `a/b` (or `a` alone).
fn imports(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    let mut out = BTreeSet::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for (i, _) in line.match_indices("crate::") {
            let rest = &line[i + "crate::".len()..];
            let mut parts = rest.split("::").map(|s| {
                s.split(|c: char| !(c.is_ascii_lowercase() || c == '_'))
                    .next()
                    .unwrap_or("")
            });
            let a = parts.next().unwrap_or("");
            if a.is_empty() {
                continue;
            }
            match parts.next().filter(|b| !b.is_empty()) {
                // `crate::x::y` where y is a module (lower case) of x; an item of x is x.
                Some(b) if rest[a.len()..].starts_with(&format!("::{b}::")) => {
                    out.insert(format!("{a}/{b}"))
                }
                _ => out.insert(a.to_string()),
            };
        }
    }
    out
}

#[test]
fn no_module_imports_a_layer_above_its_own_or_a_module_that_imports_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = modules(&src);
    found.retain(|(name, _)| !name.starts_with("bin") && name != "lib");
    assert!(found.len() > 30, "{} modules", found.len());
    let names: BTreeSet<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    let mut edges = BTreeSet::new();
    let mut upward = BTreeSet::new();
    for (name, text) in &found {
        for target in imports(text) {
            if target == *name {
                continue;
            }
            assert!(
                names.contains(target.as_str()),
                "{name} imports {target}, which is no module: the reader misread a path"
            );
            if layer(&target) > layer(name) {
                upward.insert(format!("{name} → {target}"));
            }
            edges.insert((name.clone(), target));
        }
    }
    let cycles: BTreeSet<String> = edges
        .iter()
        .filter(|(a, b)| a < b && edges.contains(&(b.clone(), a.clone())))
        .map(|(a, b)| format!("{a} ↔ {b}"))
        .collect();
    assert!(
        upward.is_empty(),
        "modules import a layer above their own: {upward:?}"
    );
    assert!(cycles.is_empty(), "modules import each other: {cycles:?}");
}

#[test]
fn the_import_reader_sees_module_paths_and_skips_comments_and_tests() {
    let text = "use crate::figures::metrics::{A, B};\nuse crate::error::Result;\n// crate::tune::spsa in a comment\nfn f() { crate::plan::builder::x(); }\n#[cfg(test)]\nmod tests { use crate::explore::think; }\n";
    let got: Vec<String> = imports(text).into_iter().collect();
    assert_eq!(got, ["error", "figures/metrics", "plan/builder"]);
    assert_eq!(layer("plan/sweep"), 0);
    assert!(layer("records/row") < layer("figures/summary"));
    assert!(layer("run/runner") > layer("figures/summary"));
}
