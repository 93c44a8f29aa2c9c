#!/usr/bin/env bash
# Writes the guide's generated reference pages, book/src/reference/, from the code: the
# command line from clap, every agent's options from the option tables, a page a game from its
# declaration (including its RULES.md and quoting its design report's verdict). Run it after
# changing any of those; `cargo test --workspace --release` fails while a committed page is
# stale (arena/tests/book.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin arena
rm -rf book/src/reference
target/release/arena reference --out book/src/reference --root .
echo "wrote book/src/reference/"
