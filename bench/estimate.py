#!/usr/bin/env python3
"""
The simulator's estimate of the time on an H100 against the H100's own
measurements: grades each file of bench/estimate/h100.tsv on the simulator
(no GPU) and prints, per file, the estimate, the measurement and the ratio
between them, then how the estimate meets issue 27's targets. The
calibration set fitted the model's constants (grader/engine/estimate.c); the
validation set is never used to fit them.

    make && nice python3 bench/estimate.py [--jobs 2] [--set validation]

(bench/estimate.md is its output under a preamble that says what the model is.)

Measurements come from the committed H100 tables the TSV names; a row whose
table gives only a verdict (pass, or slow: over the threshold) is judged by
the verdict alone.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "bench", "estimate", "h100.tsv")


def grade(row):
    kind, exercise, path, measured, source = row
    out = subprocess.run([os.path.join(ROOT, "build", "cudalings"), "grade", exercise, "--file", path,
                          "--backend", "sim", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    try:
        report = json.loads(out.stdout)
    except ValueError:
        return row, None, "no report: " + out.stderr.strip()[-200:]
    return row, report.get("estimate"), report.get("message", "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--set", choices=["calibration", "validation", "all"], default="all")
    args = ap.parse_args()
    rows = [line.rstrip("\n").split("\t") for line in open(TABLE) if line.strip() and not line.startswith("#")]
    rows = [r for r in rows if args.set in ("all", r[0])]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(grade, rows))
    print("| set | exercise | file | H100 | estimate | estimate / H100 | bound | H100 verdict | estimated verdict | agree |")
    print("|---|---|---|---:|---:|---:|---|---|---|---|")
    stats = {}
    for row, est, message in results:
        kind, exercise, path, measured, source = row
        s = stats.setdefault(kind, {"ratios": 0, "within": 0, "verdicts": 0, "agree": 0, "none": []})
        if not est:
            s["none"].append(path)
            print("| %s | %s | %s | %s | - | - | - | - | - | %s |" % (kind, exercise, path, measured, message[:60]))
            continue
        threshold = est["threshold_ratio"]
        if measured in ("pass", "slow"):
            h100_slow, shown, off = measured == "slow", measured, "-"
        else:
            ratio = float(measured)
            h100_slow, shown = ratio > threshold, "%.2f" % ratio
            factor = est["ratio"] / ratio
            off = "%.2f" % factor
            s["ratios"] += 1
            s["within"] += 1 / 1.5 <= factor <= 1.5
        slow = est["ratio"] > threshold
        agree = slow == h100_slow
        s["verdicts"] += 1
        s["agree"] += agree
        print("| %s | %s | %s | %s | %.2f | %s | %s | %s | %s | %s |" % (
            kind, exercise, path, shown, est["ratio"], off, est["bound"], "slow" if h100_slow else "pass",
            "slow" if slow else "pass", "yes" if agree else "**no**"))
    print()
    for kind, s in stats.items():
        print("%s: within 1.5x of the H100's ratio for %d of %d files with a measured ratio (%.0f%%); the verdict "
              "(over the threshold or not) agrees for %d of %d (%.0f%%)%s" % (
                  kind, s["within"], s["ratios"], 100.0 * s["within"] / max(1, s["ratios"]), s["agree"],
                  s["verdicts"], 100.0 * s["agree"] / max(1, s["verdicts"]),
                  "; no estimate for " + ", ".join(s["none"]) if s["none"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
