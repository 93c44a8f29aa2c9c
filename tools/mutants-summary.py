#!/usr/bin/env python3
"""The figure of one mutation-testing area: mutants tried, caught, timed out, unviable and
missed, and which missed mutants tools/mutants-equivalent.txt explains.

    tools/mutants-summary.py AREA        (after tools/mutants.sh AREA [--iterate])
    tools/mutants-summary.py AREA-NAME   (outcomes written with --output target/mutants/AREA-NAME)

Reads target/mutants/AREA/mutants.out/ (and the previously caught list an --iterate run
keeps), prints one line of counts, then every survivor not listed as equivalent.
"""
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent
if len(sys.argv) != 2 or sys.argv[1].split("-")[0] not in ("rules", "stats", "search"):
    print("usage: tools/mutants-summary.py rules|stats|search[-NAME]", file=sys.stderr)
    sys.exit(2)
out = root / "target" / "mutants" / sys.argv[1] / "mutants.out"
if not out.is_dir():
    print(f"no outcomes in {out}: run tools/mutants.sh {sys.argv[1]} first", file=sys.stderr)
    sys.exit(2)


def lines(name):
    path = out / name
    return [l for l in path.read_text().splitlines() if l.strip()] if path.exists() else []


caught = set(lines("caught.txt")) | set(lines("previously_caught.txt"))
missed = lines("missed.txt")
timeout = lines("timeout.txt")
unviable = lines("unviable.txt")
# Each line: FILE: MUTATION in FUNCTION [(`code` on the mutated line, where a function has
# several alike)]: reason.
equivalent = []
for line in (root / "tools" / "mutants-equivalent.txt").read_text().splitlines():
    if line and not line.startswith("#"):
        file, mutation, _reason = line.split(": ", 2)
        equivalent.append(f"{file}: {mutation}")


def key(mutant):
    """FILE: MUTATION in FUNCTION, without the line and column (they move with edits)."""
    file, _, rest = mutant.partition(":")
    rest = rest.split(":", 2)[-1].strip()
    return f"{file}: {rest}"


def source_line(mutant):
    file, line = mutant.split(":")[:2]
    try:
        return (root / file).read_text().splitlines()[int(line) - 1]
    except (OSError, IndexError, ValueError):
        return ""


def listed(mutant):
    """Listed as equivalent: the same mutation, and the entry's `code`, if any, on its line."""
    k = key(mutant)
    for e in equivalent:
        if e == k:
            return True
        if e.startswith(k + " (`"):
            code = e[len(k) + 3 :].split("`")[0]
            if code in source_line(mutant):
                return True
    return False


explained = [m for m in missed if listed(m)]
unexplained = [m for m in missed if not listed(m)]
viable = len(caught) + len(missed) + len(timeout)
stopped = len(caught) + len(timeout)
share = 100.0 * stopped / viable if viable else 0.0
# Equivalent mutants are not faults: the target counts the others.
faults = viable - len(explained)
fault_share = 100.0 * stopped / faults if faults else 0.0
print(
    f"{sys.argv[1]}: {viable + len(unviable)} tried, {len(unviable)} unviable, "
    f"{len(caught)} caught, {len(timeout)} timed out, {len(missed)} missed "
    f"({len(explained)} equivalent, {len(unexplained)} unexplained); "
    f"{share:.1f}% of viable mutants caught or timed out, "
    f"{fault_share:.1f}% of those not equivalent"
)
for m in unexplained:
    print("  " + m)
