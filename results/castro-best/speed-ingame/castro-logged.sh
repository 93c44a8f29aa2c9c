#!/bin/sh
# Castro (CASTRO_BIN, default /tmp/castro/castro from tools/castro-build.sh) with its stderr,
# where `verbose 1` writes "Finished N runs in M msec" after each move, appended to the file
# named by the first argument: how castro-t1-t2.csv's games were logged (run from a copy in
# /tmp/cscale, as its sidecar names it).
log=$1
shift
exec "${CASTRO_BIN:-/tmp/castro/castro}" "$@" 2>>"$log"
