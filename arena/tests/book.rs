//! The guide (`book/`) against the code (issue 103): its reference pages are what `arena
//! reference` generates now, its five-minute tour prints what the guide shows, and every link
//! and include between its pages resolves.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use ringside_agents::gtp::split_command;

use crate::common::{files_under, ok, path, scratch, text};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The guide's sources.
fn book_src() -> PathBuf {
    root().join("book").join("src")
}

/// Every file under `dir`, by its path relative to `dir`, with its bytes.
fn files_by_name(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files_under(dir, "")
        .into_iter()
        .map(|file| {
            let name = file
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read(&file).unwrap())
        })
        .collect()
}

#[test]
fn the_committed_reference_pages_are_what_the_code_generates() {
    let fresh = scratch("book-reference");
    ok(&["reference", "--out", path(&fresh), "--root", path(&root())]);
    let generated = files_by_name(&fresh);
    let committed = files_by_name(&book_src().join("reference"));
    let names = |files: &BTreeMap<String, Vec<u8>>| files.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&committed),
        names(&generated),
        "book/src/reference/ holds other pages than `arena reference` writes: run tools/book-generate.sh"
    );
    for (name, bytes) in &generated {
        assert!(
            committed[name] == *bytes,
            "book/src/reference/{name} is stale: run tools/book-generate.sh"
        );
    }
    // The pages carry what the tables say, not a fixed text: MCTS's first option, every
    // game, every subcommand.
    let page = |name: &str| String::from_utf8(generated[name].clone()).unwrap();
    assert!(page("agents.md").contains("| `iters` | a whole number |"));
    assert!(page("agents.md").contains("| `strong8` |"));
    assert_eq!(page("games.md").matches("](games/").count(), 12);
    for command in ["match", "tune texel", "balance", "reference"] {
        assert!(
            page("cli.md").contains(&format!("`arena {command}`")),
            "{command}"
        );
    }
    assert!(page("games/hex.md").contains("| `size` | 3 to 19 | `11` |"));
}

/// Output with its clock readings masked: the value of `time_ms=` and of any `…_per_s=`, a
/// number before `ms`, and the seconds and rate of a run's closing line, which differ from
/// run to run; everything else (moves, counts, results, intervals) must match.
fn without_clocks(output: &str) -> String {
    output
        .lines()
        .map(|line| {
            let tokens: Vec<&str> = line.split(' ').collect();
            let masked: Vec<String> = tokens
                .iter()
                .enumerate()
                .map(|(i, token)| {
                    let next = tokens.get(i + 1).copied().unwrap_or("");
                    match token.split_once('=') {
                        Some((key, _)) if key == "time_ms" || key.ends_with("_per_s") => {
                            format!("{key}=*")
                        }
                        _ if token.parse::<f64>().is_ok()
                            && (next.starts_with("ms") || next.starts_with("games/s")) =>
                        {
                            "*".to_string()
                        }
                        _ => (*token).to_string(),
                    }
                })
                .collect();
            masked.join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The tour's steps: each `$ arena ...` line of a ```console block in `page`, with the lines
/// after it, up to the next command or the block's end, as its expected standard output.
fn console_steps(page: &str) -> Vec<(String, String)> {
    let mut steps: Vec<(String, String)> = Vec::new();
    let mut in_block = false;
    for line in page.lines() {
        if line.starts_with("```console") {
            in_block = true;
        } else if line.starts_with("```") {
            in_block = false;
        } else if in_block {
            if let Some(command) = line.strip_prefix("$ ") {
                steps.push((command.to_string(), String::new()));
            } else if let Some((_, expected)) = steps.last_mut() {
                expected.push_str(line);
                expected.push('\n');
            }
        }
    }
    steps
}

#[test]
fn the_five_minute_tour_prints_what_the_guide_shows() {
    let page = std::fs::read_to_string(book_src().join("getting-started.md")).unwrap();
    let steps = console_steps(&page);
    assert!(steps.len() >= 5, "the tour has {} commands", steps.len());
    let dir = scratch("book-tour");
    for (command, expected) in steps {
        // The guide's commands are read as the GTP agent reads an engine's command line:
        // words at spaces, single quotes grouping, as a shell does for these.
        let words = split_command(&command).unwrap();
        assert_eq!(words[0], "arena", "the tour runs arena only: {command}");
        let o = Command::new(env!("CARGO_BIN_EXE_arena"))
            .current_dir(&dir)
            .args(&words[1..])
            .output()
            .unwrap();
        assert!(o.status.success(), "{command}: {}", text(&o.stderr));
        assert_eq!(
            without_clocks(text(&o.stdout).trim_end()),
            without_clocks(expected.trim_end()),
            "the guide's output of `{command}` is stale (book/src/getting-started.md)"
        );
    }
}

#[test]
fn clock_readings_are_masked_and_nothing_else() {
    assert_eq!(
        without_clocks("move=e time_ms=1.4 nodes_per_s=26 value=0.27"),
        "move=e time_ms=* nodes_per_s=* value=0.27"
    );
    assert_eq!(
        without_clocks("| `a` | none | 312 | 0.43 ms | 12.34 ms | – |"),
        "| `a` | none | 312 | * ms | * ms | – |"
    );
    assert_ne!(without_clocks("nodes=3788"), without_clocks("nodes=3789"));
}

/// mdBook's anchor for a heading: lower case, letters, digits, `-` and `_` kept, spaces as
/// `-`, anything else dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_lowercase().next()?),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings, outside code blocks.
fn anchors(page: &str) -> Vec<String> {
    let mut fenced = false;
    page.lines()
        .filter(|line| {
            if line.starts_with("```") {
                fenced = !fenced;
            }
            !fenced
        })
        .filter_map(|line| {
            line.trim_start_matches('#')
                .strip_prefix(' ')
                .filter(|_| line.starts_with('#'))
        })
        .map(anchor)
        .collect()
}

/// The targets of a page's Markdown links and images (`](target)`), outside code blocks
/// and code spans.
fn link_targets(page: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut fenced = false;
    for line in page.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans are dropped: `[a](b)` inside backticks is no link.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            targets.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    targets
}

#[test]
fn every_link_and_include_in_the_guide_and_its_readmes_resolves() {
    let src = book_src();
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    let pages = files_under(&src, ".md");
    assert!(pages.len() > 20, "{} pages", pages.len());
    let mut broken = Vec::new();
    for page in &pages {
        let name = page
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if name != "SUMMARY.md" && !summary.contains(&format!("]({name})")) {
            broken.push(format!("{name}: not in SUMMARY.md, so never built"));
        }
        let mut body = std::fs::read_to_string(page).unwrap();
        let dir = page.parent().unwrap();
        // An included file's links are read from the including page's place, as mdBook
        // renders them, so they are checked with the page's.
        let includes: Vec<String> = body
            .split("{{#include ")
            .skip(1)
            .map(|include| {
                let file = include.split("}}").next().unwrap();
                file.split(':').next().unwrap().trim().to_string()
            })
            .collect();
        for file in includes {
            match std::fs::read_to_string(dir.join(&file)) {
                Ok(included) => body.push_str(&included),
                Err(_) => broken.push(format!("{name}: includes {file}, which is not there")),
            }
        }
        for target in link_targets(&body) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            // The Python API reference is pdoc's, copied beside the built guide by
            // tools/book-build.sh.
            if target.contains("python-api/") {
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let linked = if file.is_empty() {
                page.clone()
            } else {
                dir.join(file)
            };
            if !linked.is_file() {
                broken.push(format!("{name}: links to {target}, which is not there"));
                continue;
            }
            if !fragment.is_empty() && linked.extension().is_some_and(|e| e == "md") {
                let headings = anchors(&std::fs::read_to_string(&linked).unwrap());
                if !headings.iter().any(|a| a == fragment) {
                    broken.push(format!("{name}: links to {target}, a heading not there"));
                }
            }
        }
    }
    // The READMEs link into the guide: those links are checked too.
    for readme in [
        root().join("README.md"),
        root().join("python").join("README.md"),
    ] {
        let body = std::fs::read_to_string(&readme).unwrap();
        for target in link_targets(&body) {
            let file = target.split('#').next().unwrap();
            if !target.contains("://") && !readme.parent().unwrap().join(file).exists() {
                broken.push(format!("{}: links to {target}", readme.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken:\n{}", broken.join("\n"));
}

#[test]
fn a_broken_link_is_seen() {
    assert_eq!(
        link_targets("see [a](x.md#b), not `[c](d)`, and ![e](f.svg)"),
        ["x.md#b", "f.svg"]
    );
    assert_eq!(
        anchor("Balance: who is favoured"),
        "balance-who-is-favoured"
    );
    assert_eq!(anchors("# A b\n```\n# not\n```\n## C-d"), ["a-b", "c-d"]);
}

#[test]
fn reference_without_the_reports_is_one_line_and_exit_code_2() {
    let out = scratch("book-reference-no-root");
    let nowhere = out.join("no-such-repository");
    let o = crate::common::arena(&["reference", "--out", path(&out), "--root", path(&nowhere)]);
    assert_eq!(o.status.code(), Some(2));
    let message = text(&o.stderr);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.starts_with("error: cannot read ") && message.contains("no-such-repository"),
        "{message}"
    );
}
