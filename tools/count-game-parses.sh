#!/usr/bin/env bash
# How many times one `arena` command reads a game spec from text: a gdb breakpoint on the
# engine's two spec readers (AnyGame::parse, GameSpec::parse) in the debug binary, counted.
# Issue 44's "game-spec parses per arena run" figure:
#   tools/count-game-parses.sh run DIR/exp.toml --results DIR/res --quiet
# Needs gdb; builds target/debug/arena (ARENA=path to use another debug build).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
arena="${ARENA:-$root/target/debug/arena}"
[ -n "${ARENA:-}" ] || cargo build -q -p ringside-arena --bin arena --manifest-path "$root/Cargo.toml"
script="$(mktemp)"
trap 'rm -f "$script"' EXIT
cat > "$script" <<'GDB'
set pagination off
set breakpoint pending on
break ringside_engine::registry::AnyGame::parse
break ringside_engine::registry::GameSpec::parse
commands 1 2
silent
continue
end
run
info breakpoints
GDB
gdb -q -batch -x "$script" --args "$arena" "$@" 2>&1 \
  | awk '/^[0-9]+ +breakpoint/ { for (i = 1; i < NF; i++) if ($i == "in") name = $(i + 1) }
         /already hit/ { print name ": " $4 }'
