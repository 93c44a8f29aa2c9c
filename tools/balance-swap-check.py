#!/usr/bin/env python3
"""The swap decisions of the balance instrument's players against the solver's: on Hex 3 and 4
with the swap, for each family and rung (first run and replication together), how many of the
second player's swap decisions were right (a won first stone swapped, a lost one kept), by the
solver's opening values in results/known-answers/hex-openings.csv.

Usage: tools/balance-swap-check.py [ROOT]   (ROOT: results/reports/balance by default)
"""
import csv
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "results/reports/balance"
value = {(r["size"], r["cell"]): r["value"]
         for r in csv.DictReader(open("results/known-answers/hex-openings.csv"))}
print("board,family,rung,right,decisions")
for size in ("3", "4"):
    tally = {}
    for r in csv.DictReader(open(f"{root}/hex_size-{size}_swap-on/swap.csv")):
        n, swapped = int(r["games"]), int(r["swapped"])
        right = swapped if value[(size, r["opening"])] == "+" else n - swapped
        t = tally.setdefault((r["family"], r["rung"]), [0, 0])
        t[0] += right
        t[1] += n
    for (family, rung), (right, n) in tally.items():
        print(f"\"hex:size={size},swap=on\",{family},{rung},{right},{n}")
