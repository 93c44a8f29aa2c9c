#!/usr/bin/env python3
"""Names the MCTS that played the records committed before MCTS's `order` option existed.

Until then MCTS stored a node's children in the game's move-list order; the option's default
is now a seeded random order. Every MCTS spec recorded before (a games CSV's `first_spec` and
`second_spec` columns, a settings sidecar's agent `spec`, and the MCTS specs of the
experiment files that played them) gains `,order=list` at its end, the place the canonical
spec prints the option (it is last in MCTS's table), so those games replay exactly as they
were played. Labels (the text an agent was typed as) are left alone: they are names.

Usage: tools/mark-list-order.py [FOLDER...]   (default: results experiments)
Idempotent: a spec that already names an order is left as it is.
"""

import csv
import io
import re
import sys
from pathlib import Path

SPEC_COLUMNS = ("first_spec", "second_spec")


def marked(spec: str) -> str:
    if spec.startswith("mcts:") and "order=" not in spec:
        return spec + ",order=list"
    return spec


def mark_csv(path: Path) -> bool:
    text = path.read_text()
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or not any(c in rows[0] for c in SPEC_COLUMNS):
        return False
    cols = [rows[0].index(c) for c in SPEC_COLUMNS if c in rows[0]]
    changed = False
    for row in rows[1:]:
        for c in cols:
            if c < len(row) and marked(row[c]) != row[c]:
                row[c] = marked(row[c])
                changed = True
    if changed:
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(rows)
        write(path, out.getvalue())
    return changed


SIDECAR_SPEC = re.compile(r'("spec": ")(mcts:[^"]*)(")')
TOML_AGENT = re.compile(r'"(mcts:[^"]*)"')


def mark_text(path: Path, pattern: re.Pattern, group: int) -> bool:
    text = path.read_text()

    def sub(m: re.Match) -> str:
        parts = [m.group(i) for i in range(1, (m.lastindex or 0) + 1)]
        parts[group - 1] = marked(parts[group - 1])
        return "".join(parts) if len(parts) > 1 else f'"{parts[0]}"'

    new = pattern.sub(sub, text)
    if new != text:
        write(path, new)
        return True
    return False


def write(path: Path, text: str) -> None:
    # Write-then-rename: a killed run leaves the old file or the new one, never half of one.
    tmp = path.with_name(path.name + ".marking")
    tmp.write_text(text)
    tmp.replace(path)


def main(folders: list[str]) -> None:
    counts = {"games CSVs": 0, "sidecars": 0, "experiment files": 0}
    for folder in folders or ["results", "experiments"]:
        for path in sorted(Path(folder).rglob("*")):
            if path.suffix == ".csv":
                counts["games CSVs"] += mark_csv(path)
            elif path.name.endswith(".settings.json"):
                counts["sidecars"] += mark_text(path, SIDECAR_SPEC, 2)
            elif path.suffix == ".toml":
                counts["experiment files"] += mark_text(path, TOML_AGENT, 1)
    print(", ".join(f"{n} {what} marked" for what, n in counts.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
