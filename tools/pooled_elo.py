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
    return -400 * math.log10(1 / score - 1)


def main(argv):
    if len(argv) < 2:
        usage = next(line for line in __doc__.splitlines() if "python3" in line)
        print("usage: " + usage.strip(), file=sys.stderr)
        return 2
    key, rest = argv[0], argv[1:]
    against = None
    if rest[:1] == ["--against"]:
        against, rest = rest[1], rest[2:]
    scores = pair_scores(key, against, rest)
    if len(scores) < 2:
        print(f"pooled_elo: fewer than two complete pairs for '{key}'", file=sys.stderr)
        return 2
    n = len(scores)
    mean = sum(scores) / n
    se = math.sqrt(sum((s - mean) ** 2 for s in scores) / n / n)
    z = 1.959964
    lo, hi = mean - z * se, mean + z * se
    p = math.erfc(abs(mean - 0.5) / se / math.sqrt(2)) if se > 0 else 0.0
    print(f"{n} pairs ({2 * n} games): score {100 * mean:.1f}%, Elo {elo(mean):+.1f} "
          f"[{elo(lo):+.1f}, {elo(hi):+.1f}], p {p:.2g}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
