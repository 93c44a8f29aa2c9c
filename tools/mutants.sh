#!/usr/bin/env bash
# Mutation testing with cargo-mutants (crates.io: `cargo install cargo-mutants`), one area at
# a time, sized for this 2-core machine: each mutant is built once and tested with nextest
# (which stops at the first failing test), one mutant at a time, with a time-out per mutant.
# Not part of CI. Outcomes go to target/mutants/AREA/mutants.out/ (outcomes.json,
# caught.txt, missed.txt, timeout.txt, unviable.txt), which git ignores.
#
#   tools/mutants.sh rules|stats|search [more cargo-mutants options, e.g. --list or -f FILE]
#   tools/mutants.sh AREA-NAME [options]   (outcomes in target/mutants/AREA-NAME/, to keep
#                                           runs apart: a sample with --shard K/N, say)
#
# A whole area takes hours here (5 to 9 s a mutant; rules 2,086 mutants, stats 888, search
# 636). Run it in pieces with --iterate: each run skips the mutants earlier runs caught or
# found unviable (target/mutants/AREA/mutants.out/caught.txt, previously_caught.txt,
# unviable.txt, which cargo-mutants appends to as it goes, so a killed run keeps what it
# did) and re-tries the missed ones, so `tools/mutants.sh AREA --iterate` again resumes,
# and after new tests checks the survivors. Edits that move lines of the mutated files make
# their mutants new (they are named by line and column).
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
name="${1:?usage: tools/mutants.sh rules|stats|search[-NAME] [cargo-mutants options]}"
shift
area="${name%%-*}"
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
    # Given to the build as well as the test run (--cargo-arg), so a mutant builds only these.
    targets=(--cargo-arg=--lib)
    for t in streaming tournament study report issue10; do
      targets+=(--cargo-arg=--test="$t")
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
# strength tests. The cargo profile `mutants` (Cargo.toml) is the test profile without debug
# information: a mutant's build links in about half the time.
export NEXTEST_PROFILE=mutants
mkdir -p "target/mutants/$name"
exec cargo mutants --package "$package" "${files[@]}" \
  --test-tool nextest --test-workspace=false --jobs 1 --timeout 300 --build-timeout 600 \
  --profile mutants \
  --exclude '**/tests.rs' \
  --output "target/mutants/$name" "${targets[@]}" "$@"
