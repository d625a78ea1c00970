#!/usr/bin/env bash
# Hints come in tiers: for each exercise and each `when`, three or more
# hints side by side in workbook.json, a question first, then the idea,
# then the line; the first tier gives no code away (no assignment or launch
# in its code spans), formulas stand in backticks, and no hint says a
# divergent __syncthreads() hangs (on sm_70 and later it is undefined
# behaviour). Then the grader, on the simulator, must give a mistake the
# first tier of its diagnosis. Ends with "hints: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

check() {
	python3 - "$1" <<'PY'
import json, re, sys
items = json.load(open(sys.argv[1]))["items"]
problems = groups = 0
for item in items:
    hints = item.get("hints", [])
    if item.get("kind") != "exercise":
        continue
    whens = []
    for h in hints:
        if not whens or whens[-1][0] != h["when"]:
            whens.append((h["when"], []))
        whens[-1][1].append(h["text"])
    seen = set()
    for when, texts in whens:
        groups += 1
        where = "%s, when %s" % (item["name"], when)
        if when in seen:
            print("%s: its hints are not side by side: the tiers of a `when` follow each other" % where)
            problems += 1
        seen.add(when)
        if len(texts) < 3:
            print("%s: %d hint%s; a `when` has three tiers: a question, the idea, the line" %
                  (where, len(texts), "" if len(texts) == 1 else "s"))
            problems += 1
        if "?" not in texts[0]:
            print("%s: the first tier is not a question: %s" % (where, texts[0]))
            problems += 1
        for code in re.findall(r"`([^`]*)`", texts[0]):
            if re.search(r"(?<![=!<>])=(?!=)|<<<", code):
                print("%s: the first tier gives code away: `%s`" % (where, code))
                problems += 1
        for t in texts:
            if re.search(r"\b(hang|hangs|for ever|forever|deadlock)", t, re.I) and "syncthreads" in t:
                print("%s: a __syncthreads() that some threads skip is undefined behaviour, not a hang: %s" %
                      (where, t))
                problems += 1
            # a formula outside backticks: an index expression such as a[r * cols + c]
            bare = re.sub(r"`[^`]*`", "", t)
            for f in re.findall(r"\w+\[[^\]]*[-+*/][^\]]*\]", bare):
                print("%s: the formula %s is not in backticks" % (where, f))
                problems += 1
print("%d hint tiers, %d problems" % (groups, problems))
sys.exit(1 if problems else 0)
PY
}

expect 0 " 0 problems" -- check workbook.json

# the checks catch what they are for
python3 - workbook.json "$tmp/bad.json" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))
for item in w["items"]:
    if item["name"] == "col_sums":
        item["hints"] = [
            {"when": "race", "text": "Use `partial[t] += partial[t + s]` here."},
            {"when": "race", "text": "The idea."},
            {"when": "race", "text": "Without it the block waits at __syncthreads() for ever."},
            {"when": "performance", "text": "Which addresses?"},
            {"when": "race", "text": "Thread c reads a[r * cols + c]."},
        ]
json.dump(w, open(sys.argv[2], "w"))
PY
expect 1 "col_sums, when race: the first tier is not a question" -- check "$tmp/bad.json"
expect 1 "col_sums, when race: the first tier gives code away" -- check "$tmp/bad.json"
expect 1 "col_sums, when race: a __syncthreads\(\) that some threads skip is undefined" -- check "$tmp/bad.json"
expect 1 "col_sums, when race: its hints are not side by side" -- check "$tmp/bad.json"
expect 1 "col_sums, when performance: 1 hint;" -- check "$tmp/bad.json"
expect 1 "col_sums, when race: the formula a\[r \* cols \+ c\] is not in backticks" -- check "$tmp/bad.json"

# the grader gives the first tier: a guard one past the end is diagnosed out_of_bounds
first=$(python3 -c '
import json
for i in json.load(open("workbook.json"))["items"]:
    if i["name"] == "col_sums":
        print(next(h["text"] for h in i["hints"] if h["when"] == "out_of_bounds"))')
grade() {
	build/cudalings grade col_sums --file tests/mistakes/col_sums/guard_off_by_one.cu --backend sim --json |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["hint"])'
}
expect 0 "^$(printf '%s' "$first" | sed 's/[][\.*^$?+(){}|/]/\\&/g')$" -- grade
finish hints
