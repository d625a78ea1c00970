#!/usr/bin/env python3
"""Check what `cudalings batch` wrote against what each student should get.

usage: check_results.py OUT EXPECTED CASES

EXPECTED has a line "student<TAB>verdict<TAB>stage" per submission (stage
"-" for a pass); CASES is how many cases a complete grading runs (on a GPU,
the timed one too). Prints one line per check, "ok: ..." or "FAIL: ...",
and exits 1 when any failed.
"""
import csv
import json
import os
import sys

out, expected_path, total_cases = sys.argv[1], sys.argv[2], int(sys.argv[3])
failures = 0


def check(condition, what):
    global failures
    print(("ok: " if condition else "FAIL: ") + what)
    if not condition:
        failures += 1
    return condition


expected = {}
with open(expected_path) as f:
    for line in f:
        if line.strip():
            student, verdict, stage = line.rstrip("\n").split("\t")
            expected[student] = (verdict, None if stage == "-" else stage)

# the grade JSON of every student, in the CLI's shape
grades = {}
for student, (verdict, stage) in sorted(expected.items()):
    path = os.path.join(out, student + ".json")
    try:
        with open(path) as f:
            grade = json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"{path} is a JSON object ({e})")
        continue
    grades[student] = grade
    for field in ("exercise", "file", "backend", "device", "verdict", "stage", "message", "cases",
                  "performance", "timing", "diagnostics"):
        if field not in grade:
            check(False, f"{student}.json has '{field}'")
    check((grade.get("verdict"), grade.get("stage")) == (verdict, stage),
          f"{student}: {verdict} at {stage}, got {grade.get('verdict')} at {grade.get('stage')}: "
          f"{grade.get('message', '')[:80]!r}")

# the gradebook: the header, a row per student, fields that read back as written
with open(os.path.join(out, "gradebook.csv"), newline="") as f:
    rows = list(csv.reader(f))
check(rows and rows[0] == ["student", "verdict", "stage", "cases_passed", "cases_total", "median_us",
                           "ratio", "message", "final", "flags"], f"gradebook header {rows[0] if rows else None}")
body = {row[0]: row for row in rows[1:]}
check(len(rows) - 1 == len(expected) and set(body) == set(expected),
      f"gradebook has a row for each of the {len(expected)} students, got {len(rows) - 1}")
for student, grade in sorted(grades.items()):
    row = body.get(student)
    if not check(row is not None and len(row) == 10, f"gradebook row of {student} has 10 fields"):
        continue
    # the timed case counts once, however many input sets it was judged on (the simulator's measured copy)
    timed = [c["passed"] for c in grade["cases"] if c.get("timed") or c.get("measured")]
    passed = sum(1 for c in grade["cases"] if c["passed"] and not c.get("timed") and not c.get("measured")) \
        + bool(timed and all(timed))
    timing = grade.get("timing") or {}
    want = [student, grade["verdict"], grade["stage"] or "", str(passed), str(total_cases),
            f"{timing['median_us']:.2f}" if timing else "", f"{timing['ratio']:.3f}" if timing else "",
            grade["message"], "yes" if grade["batch"]["final"] else "no",
            " ".join(f for f, on in (("refused", any(d["kind"] == "refused" for d in grade.get("diagnostics", []))),
                                     ("link", grade["batch"].get("link")), ("late", grade["batch"].get("late")),
                                     ("resubmitted", grade["batch"].get("resubmitted"))) if on)]
    check(row == want, f"gradebook row of {student} is {want!r}, got {row!r}")

# Gradescope: the fields its autograder spec names, with their types, and a score that adds up
for student, grade in sorted(grades.items()):
    path = os.path.join(out, "gradescope", student, "results.json")
    try:
        with open(path) as f:
            r = json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"{path} is JSON ({e})")
        continue
    problems = []
    for field, kind in (("score", (int, float)), ("execution_time", (int, float)), ("output", str),
                        ("tests", list), ("leaderboard", list)):
        if not isinstance(r.get(field), kind):
            problems.append(f"'{field}' is {type(r.get(field)).__name__}")
    tests = r.get("tests") if isinstance(r.get("tests"), list) else []
    for t in tests:
        for field, kind in (("name", str), ("score", (int, float)), ("max_score", (int, float)),
                            ("status", str), ("output", str), ("visibility", str)):
            if not isinstance(t.get(field), kind):
                problems.append(f"test {t.get('name')!r}: '{field}' is {type(t.get(field)).__name__}")
        if t.get("status") not in ("passed", "failed"):
            problems.append(f"test {t.get('name')!r}: status {t.get('status')!r}")
        elif (t["status"] == "passed") != (t.get("score") == t.get("max_score")):
            problems.append(f"test {t.get('name')!r}: status {t['status']} with score {t.get('score')}")
        if t.get("visibility") not in ("hidden", "after_due_date", "after_published", "visible"):
            problems.append(f"test {t.get('name')!r}: visibility {t.get('visibility')!r}")
    for entry in r.get("leaderboard") or []:
        if not isinstance(entry.get("name"), str) or not isinstance(entry.get("value"), (int, float, str)) \
                or entry.get("order") not in ("asc", "desc"):
            problems.append(f"leaderboard entry {entry!r}")
    if not any(e.get("name") == "cases passed" for e in r.get("leaderboard") or []):
        problems.append("no 'cases passed' on the leaderboard")
    if tests and r.get("score") != sum(t.get("score", 0) for t in tests):
        problems.append(f"score {r.get('score')} is not the sum of the tests'")
    gpu = grade.get("backend") == "gpu"
    if len(tests) != 1 + total_cases + gpu:
        problems.append(f"{len(tests)} tests, want compile + {total_cases} cases" + (" + performance" if gpu else ""))
    timed = [e for e in r.get("leaderboard") or [] if e.get("name") == "time (µs)"]
    if bool(timed) != isinstance(grade.get("timing"), dict):
        problems.append("a time on the leaderboard when none was measured, or none when one was")
    elif timed and (timed[0]["value"] != grade["timing"]["median_us"] or timed[0]["order"] != "asc"):
        problems.append(f"leaderboard time {timed[0]} is not the median {grade['timing']['median_us']}")
    maximum = sum(t.get("max_score", 0) for t in tests)
    if (grade["verdict"] == "pass") != (r.get("score") == maximum):
        problems.append(f"a {grade['verdict']} scored {r.get('score')} of {maximum}")
    compiled = grade["stage"] not in ("compile", "submission")
    if tests and (tests[0].get("name"), tests[0].get("status")) != ("compile", "passed" if compiled else "failed"):
        problems.append(f"the compile test says {tests[0].get('status')!r}")
    check(not problems, f"gradescope/{student}/results.json" + (": " + "; ".join(problems) if problems else ""))

print(f"results: {failures} failed")
sys.exit(1 if failures else 0)
