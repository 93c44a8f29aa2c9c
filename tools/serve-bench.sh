#!/bin/sh
# The two targets of issue 104 (`arena serve`), measured on this machine; run it idle.
#   1. A 10^7-row games CSV opens its standings in under 2 s from the server's start
#      (the file, about 2.3 GB of random Rin 6x6 games, is played once into
#      target/serve-bench/ and kept; SERVE_BENCH_ROWS changes its size).
#   2. 50 open pages on a running 2-thread match slow it by at most 2% (SERVE_BENCH_GAMES,
#      SERVE_BENCH_ROUNDS change the match and the number of alternated rounds).
# Both are ignored tests of arena/tests/serve.rs, run here one at a time in release.
set -eu
cd "$(dirname "$0")/.."
cargo test --release -p ringside-arena --test all serve::bench_ -- --ignored --nocapture --test-threads 1
