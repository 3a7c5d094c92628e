#!/usr/bin/env python3
"""Bar chart of a bench-vs-onednn CSV: time ratio ours / oneDNN per problem.

Usage: bench_chart.py RESULTS.csv OUT.png TITLE
Runs in the matplotlib venv that scripts/bench_compare.py creates.
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    src, dst, title = sys.argv[1], sys.argv[2], sys.argv[3]
    labels, ratios, colors = [], [], []
    with open(src, newline="") as f:
        for row in csv.DictReader(f):
            if not row["ratio"]:
                continue
            r = float(row["ratio"])
            label = row["problem"]
            if row["metric"] not in ("time_ms", "status"):
                label += " [%s]" % row["metric"]
            if len(label) > 70:
                label = label[:67] + "..."
            labels.append(label)
            ratios.append(r)
            colors.append("#2a9d8f" if r <= 1 else "#e76f51")
    if not ratios:
        print("no problem measured on both libraries; no chart")
        return
    h = max(3.0, 0.28 * len(ratios) + 1.5)
    fig, ax = plt.subplots(figsize=(11, h))
    y = list(range(len(ratios)))
    ax.barh(y, ratios, color=colors)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=7, family="monospace")
    ax.invert_yaxis()
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    lo, hi = min(ratios + [0.5]), max(ratios + [2.0])
    ax.set_xlim(lo / 1.3, hi * 1.3)
    ax.set_xlabel("time ratio ours / oneDNN (log scale; left of 1: ours faster)")
    gm = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    ax.set_title("%s\ngeometric mean ratio %.2f over %d problems" % (title, gm, len(ratios)), fontsize=8)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main()
