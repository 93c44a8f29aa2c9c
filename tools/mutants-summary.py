#!/usr/bin/env python3
"""The figure of one mutation-testing area: mutants tried, caught, timed out, unviable and
missed, and which missed mutants tools/mutants-equivalent.txt explains.

    tools/mutants-summary.py AREA        (after tools/mutants.sh AREA [--iterate])
    tools/mutants-summary.py AREA-NAME   (outcomes written with --output target/mutants/AREA-NAME)
    tools/mutants-summary.py AREA-A AREA-B ...   (several runs merged, in order: a mutant's
                                                  outcome is the one of the last run that tried it)
    tools/mutants-summary.py --within LIST NAME...   (only the mutants LIST names, one a line:
                                                  `tools/mutants.sh AREA --list > LIST` is the
                                                  area's whole list as the source stands, so
                                                  runs merged from pieces give the full figure,
                                                  and the line says how many are not yet tried)

Reads target/mutants/NAME/mutants.out/ (and the previously caught list an --iterate run
keeps), prints one line of counts with the Wilson 95% interval of the share caught (the
share of a sample, such as a --shard of the area, estimates the area's), then every
survivor not listed as equivalent.
"""
import math
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent
args = sys.argv[1:]
within = None
if args[:1] == ["--within"] and len(args) >= 2:
    try:
        within = {line for line in pathlib.Path(args[1]).read_text().splitlines() if line.strip()}
    except OSError as e:
        print(f"cannot read the list {args[1]}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    args = args[2:]
names = args
if not names or any(n.split("-")[0] not in ("rules", "stats", "search") for n in names):
    print("usage: tools/mutants-summary.py [--within LIST] rules|stats|search[-NAME] ...", file=sys.stderr)
    sys.exit(2)
outcome = {}
folders = []
for name in names:
    out = root / "target" / "mutants" / name / "mutants.out"
    if not out.is_dir():
        print(f"no outcomes in {out}: run tools/mutants.sh {name.split('-')[0]} first", file=sys.stderr)
        sys.exit(2)
    folders.append(out)


def lines(path):
    return [line for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def test_timeouts(out):
    """Mutants whose tests failed only by nextest's time limit (a `TIMEOUT` in their log):
    cargo-mutants counts them as caught, but they are stopped, not caught by an assertion."""
    stopped = set()
    for log in (out / "log").glob("*.log"):
        text = log.read_text(errors="replace")
        head = text.lstrip()
        if head.startswith("*** ") and "     TIMEOUT [" in text and "        FAIL [" not in text:
            stopped.add(head[4:].split("\n", 1)[0])
    return stopped


# previously_caught.txt is what an --iterate run skipped: every earlier run's caught and
# unviable mutants (cargo-mutants lists both there), not an outcome of this run. It fills in
# only mutants no run's own lists name.
carried = {m for out in folders for m in lines(out / "previously_caught.txt")}
for out in folders:
    for kind, file in [
        ("caught", "caught.txt"),
        ("missed", "missed.txt"),
        ("timeout", "timeout.txt"),
        ("unviable", "unviable.txt"),
    ]:
        for line in lines(out / file):
            outcome[line] = kind
    for m in test_timeouts(out):
        if outcome.get(m) == "caught":
            outcome[m] = "timeout"
for m in carried - outcome.keys():
    outcome[m] = "caught"
untried = 0
if within is not None:
    outcome = {m: k for m, k in outcome.items() if m in within}
    untried = len(within) - len(outcome)

caught = [m for m, k in outcome.items() if k == "caught"]
missed = sorted(m for m, k in outcome.items() if k == "missed")
timeout = [m for m, k in outcome.items() if k == "timeout"]
unviable = [m for m, k in outcome.items() if k == "unviable"]
# Each line: FILE: MUTATION in FUNCTION [(`code` on the mutated line, where a function has
# several alike)]: reason.
equivalent = []
for line in (root / "tools" / "mutants-equivalent.txt").read_text().splitlines():
    if line and not line.startswith("#"):
        file, mutation, _reason = line.split(": ", 2)
        equivalent.append(f"{file}: {mutation}")


def wilson(k, n, z=1.959964):
    """The Wilson score interval of k successes in n trials."""
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z / d * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


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
# Stopped by the time limit but listed as equivalent: they only slow a test down.
slow = [m for m in timeout if listed(m)]
viable = len(caught) + len(missed) + len(timeout)
stopped = len(caught) + len(timeout)
share = 100.0 * stopped / viable if viable else 0.0
# Equivalent mutants are not faults: the target counts the others.
faults = viable - len(explained) - len(slow)
fault_share = 100.0 * (stopped - len(slow)) / faults if faults else 0.0
low, high = wilson(stopped, viable) if viable else (0.0, 0.0)
print(
    f"{' + '.join(names)}: {viable + len(unviable)} tried, {len(unviable)} unviable, "
    f"{len(caught)} caught, {len(timeout)} timed out ({len(slow)} equivalent), "
    f"{len(missed)} missed ({len(explained)} equivalent, {len(unexplained)} unexplained); "
    f"{share:.1f}% of viable mutants caught or timed out (95% {100 * low:.1f}-{100 * high:.1f}%), "
    f"{fault_share:.1f}% of those not equivalent"
    + (f"; {untried} of the list's {len(within)} not yet tried" if within is not None else "")
)
for m in unexplained:
    print("  " + m)
