#!/usr/bin/env bash
# Re-issues the committed design reports (results/reports/<game>/) with the release `arena`:
# each report resumes, so parts already played are read, not replayed, and only what a new
# rule added is played (issue 100: the balance instrument on each board, and with the swap
# where the game has one). Most important first, so a run cut short still leaves the reports
# that matter most re-issued. Usage: tools/reports-reissue.sh [GAME...] (default: all nine).
set -euo pipefail
cd "$(dirname "$0")/.."
arena="${ARENA:-target/release/arena}"
[ -x "$arena" ] || cargo build --release --bin arena
declare -A budget=(
    ["havannah:size=5"]=standard ["hex:size=4"]=standard ["rin:size=6"]=standard
    ["hexxagon:side=4"]=standard ["ikabegama:distance=6"]=standard
    ["advance:side=4"]=light ["life"]=light ["tic_tac_toe"]=standard
    ["connect_four"]=standard
)
order=(havannah:size=5 hex:size=4 rin:size=6 hexxagon:side=4 ikabegama:distance=6
    advance:side=4 tic_tac_toe life connect_four)
[ $# -gt 0 ] && order=("$@")
for game in "${order[@]}"; do
    b="${budget[$game]:?no committed report for $game}"
    dir="results/reports/$(echo "$game" | tr ':,' '__')"
    echo "== $(date +%T) $game ($b)"
    "$arena" report --game "$game" --budget "$b" --out "$dir" --quiet > /dev/null
    sed -n '/^## Verdict/,/^- \*\*Under/p' "$dir/report.md" | head -4
done
