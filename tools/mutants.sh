#!/usr/bin/env bash
# Mutation testing with cargo-mutants (crates.io: `cargo install cargo-mutants`), one area at
# a time, sized for this 2-core machine: each mutant is built once and tested with nextest
# (which stops at the first failing test), one mutant at a time, with a time-out per mutant.
# Not part of CI. Outcomes go to target/mutants/AREA/mutants.out/ (outcomes.json,
# caught.txt, missed.txt, timeout.txt, unviable.txt), which git ignores.
#
#   tools/mutants.sh rules|stats|search [more cargo-mutants options, e.g. --list or -f FILE]
#
# Areas (issue 28):
#   rules   the rules of every game: engine/src/games/**, hex.rs, bitboard.rs, square.rs,
#           tested by the engine's tests (the conformance suite and each game's own);
#   stats   the arena's statistics: the summary's figures, the SPRT, Bradley-Terry, the
#           metrics and their intervals, tested by the arena's tests;
#   search  the agents' backup and scoring: alpha-beta, MCTS (its backup, solver and
#           score=moves), tested by the agents' tests.
# Survivors judged equivalent (no observable change) are listed, one line of reason each, in
# tools/mutants-equivalent.txt.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
area="${1:?usage: tools/mutants.sh rules|stats|search [cargo-mutants options]}"
shift
case "$area" in
  rules)
    files=(-f 'engine/src/games/**/*.rs' -f engine/src/hex.rs -f engine/src/bitboard.rs
           -f engine/src/square.rs)
    package=ringside-engine
    targets=() ;;
  stats)
    files=(-f arena/src/figures/stats.rs -f arena/src/figures/sprt.rs
           -f arena/src/figures/summary.rs -f arena/src/figures/metrics.rs)
    package=ringside-arena
    # The arena's unit tests and the test files that check figures; not its process, lock,
    # GTP and Slurm tests, which take a minute and check no statistic.
    targets=(--cargo-test-arg=--lib)
    for t in streaming tournament study report issue10; do
      targets+=(--cargo-test-arg=--test="$t")
    done ;;
  search)
    files=(-f agents/src/alphabeta.rs -f 'agents/src/mcts/**/*.rs')
    package=ringside-agents
    targets=() ;;
  *) echo "unknown area '$area': rules, stats or search" >&2; exit 2 ;;
esac
command -v cargo-mutants >/dev/null || { echo "cargo-mutants is not installed: cargo install cargo-mutants" >&2; exit 2; }
cd "$root"
# The nextest profile in .config/nextest.toml: stop at the first failure, skip the minute-long
# strength tests.
export NEXTEST_PROFILE=mutants
mkdir -p "target/mutants/$area"
exec cargo mutants --package "$package" "${files[@]}" \
  --test-tool nextest --test-workspace=false --jobs 1 --timeout 300 --build-timeout 600 \
  --exclude '**/tests.rs' \
  --output "target/mutants/$area" "${targets[@]}" "$@"
