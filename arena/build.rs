//! Records the commit `arena` is built from (with `-dirty` for uncommitted changes), for the
//! settings sidecar of every run.

fn main() {
    let commit = std::process::Command::new("git")
        .args([
            "describe",
            "--always",
            "--dirty",
            "--abbrev=12",
            "--exclude",
            "*",
        ])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=RINGSIDE_COMMIT={commit}");
    // Rebuild when HEAD moves: HEAD itself, the branch file it points to, and the index.
    // Only paths that exist: cargo reruns a build script on every build while a path it
    // watches is missing, and every rerun recompiles the crate (a source tree without .git,
    // such as a release tarball or cargo-mutants' copy, would rebuild arena each time).
    println!("cargo:rerun-if-changed=build.rs");
    let mut watch = vec!["../.git/HEAD".to_string(), "../.git/index".to_string()];
    if let Ok(head) = std::fs::read_to_string("../.git/HEAD")
        && let Some(branch) = head.trim().strip_prefix("ref: ")
    {
        watch.push(format!("../.git/{branch}"));
    }
    for path in watch {
        if std::path::Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
