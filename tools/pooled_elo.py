#!/usr/bin/env python3
"""Pools the colour-swapped pairs of several games CSVs into one Elo with its 95% interval:
the score of the agent whose full spec holds KEY, pair by pair (pentanomial, as `arena
summary`'s "Elo from pairs"), over every pair of the files in which it meets an agent whose
spec holds AGAINST (default: any other).

    python3 tools/pooled_elo.py KEY [--against TEXT] FILE...

For one file it gives `arena summary`'s "Elo from pairs"; over a first run and its
replication it gives the two together (each run's own test is still the one a verdict
reads: pooling is for the size of an effect, not for a second chance at significance).
"""

import csv
import math
import sys


def pair_scores(key, against, files):
    """The mean score of each complete colour-swapped pair for the agent holding `key`."""
    pairs = {}
    for index, path in enumerate(files):
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                first, second = row["first_spec"], row["second_spec"]
                if (key in first) == (key in second):
                    continue
                mine_first = key in first
                other = second if mine_first else first
                if against and against not in other:
                    continue
                winner = row["winner"]
                score = 0.5 if winner == "draw" else float((winner == "first") == mine_first)
                pairs.setdefault((index, row["pairing"], row["pair"]), []).append(score)
    return [sum(s) / 2 for s in pairs.values() if len(s) == 2]


def elo(score):
    """The Elo difference of a mean score strictly between 0 and 1 (logistic)."""
    return -400 * math.log10(1 / score - 1)


def pooled(scores):
    """(mean, low, high, p) of pair scores: the mean with its 95% interval by the normal
    approximation (the pairs' variance over their number, as `arena summary`), and the
    two-sided p of a mean of one half."""
    n = len(scores)
    mean = sum(scores) / n
    se = math.sqrt(sum((s - mean) ** 2 for s in scores) / n / n)
    z = 1.959964
    p = math.erfc(abs(mean - 0.5) / se / math.sqrt(2)) if se > 0 else float(mean != 0.5)
    return mean, mean - z * se, mean + z * se, p


def elo_text(score):
    """`elo(score)`, or the unbounded end a score of 0 or 1 (or beyond) stands for."""
    if score <= 0:
        return "-inf"
    if score >= 1:
        return "+inf"
    return f"{elo(score):+.1f}"


def main(argv):
    usage = "usage: " + next(line for line in __doc__.splitlines() if "python3" in line).strip()
    if len(argv) < 2 or (argv[1] == "--against" and len(argv) < 4):
        print(usage, file=sys.stderr)
        return 2
    key, rest = argv[0], argv[1:]
    against = None
    if rest[0] == "--against":
        against, rest = rest[1], rest[2:]
    try:
        scores = pair_scores(key, against, rest)
    except (OSError, KeyError, csv.Error) as e:
        print(f"pooled_elo: cannot read the games: {e!r} ({usage})", file=sys.stderr)
        return 2
    if len(scores) < 2:
        print(f"pooled_elo: fewer than two complete pairs for '{key}'", file=sys.stderr)
        return 2
    mean, lo, hi, p = pooled(scores)
    print(f"{len(scores)} pairs ({2 * len(scores)} games): score {100 * mean:.1f}%, "
          f"Elo {elo_text(mean)} [{elo_text(lo)}, {elo_text(hi)}], p {p:.2g}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
