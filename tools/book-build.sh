#!/usr/bin/env bash
# Builds the guide (book/) into target/book/ with mdBook, failing on any warning or error it
# prints, then puts the Python API reference beside it (target/book/python-api/, from
# target/python-docs/, which python/docs.sh writes). With --python-docs, runs python/docs.sh
# first. Without mdBook it says how to install it and exits with code 2.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v mdbook >/dev/null; then
    echo "tools/book-build.sh: mdbook is not installed (cargo install mdbook)" >&2
    exit 2
fi
if [ "${1:-}" = "--python-docs" ]; then
    python/docs.sh
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
mdbook build book 2>&1 | tee "$log"
# mdBook reports a missing include or a bad SUMMARY.md entry as a WARN or ERROR line and may
# still exit with 0: any such line fails the build. Links between pages are checked by
# arena/tests/book.rs.
if grep -Eq '(WARN|ERROR)' "$log"; then
    echo "tools/book-build.sh: mdbook printed warnings or errors (above)" >&2
    exit 1
fi
if [ -f target/python-docs/ringside.html ]; then
    rm -rf target/book/python-api
    cp -r target/python-docs target/book/python-api
    echo "with the Python API reference (target/book/python-api/)"
else
    echo "without the Python API reference: python/docs.sh writes it, or run with --python-docs"
fi
echo "the guide: target/book/index.html"
