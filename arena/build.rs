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
    // Rebuild when HEAD moves: HEAD itself, and the branch file it points to.
    println!("cargo:rerun-if-changed=../.git/HEAD");
    if let Ok(head) = std::fs::read_to_string("../.git/HEAD")
        && let Some(branch) = head.trim().strip_prefix("ref: ")
    {
        println!("cargo:rerun-if-changed=../.git/{branch}");
    }
    println!("cargo:rerun-if-changed=../.git/index");
}
