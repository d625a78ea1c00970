#!/usr/bin/env bash
# Typical mistakes, each with the diagnosis it must get. Every file names its
# exercise, the diagnosis kind it must get (one of the grade's "diagnostics";
# a stage name instead asks for that stage), a piece of that diagnosis's
# message, and optionally the stage it must fail at:
#   // exercise: NAME    // expect: KIND    // message: TEXT    [// stage: STAGE]
# The grade must also fail and give a hint. BACKEND=gpu grades on the GPU,
# untimed, with --profile where the diagnosis is a memory figure and
# --sanitize otherwise (compute-sanitizer and Nsight Compute then make the
# diagnoses); files marked "// sim-only" (no GPU tool reports what they do)
# are skipped there. The default is the simulator. Ends with
# "mistakes: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
g=build/cudalings
backend=${BACKEND:-sim}
passed=0 failed=0 skipped=0
for f in tests/mistakes/*/*.cu; do
	field() { sed -n "s|^// $1: \(.*\)|\1|p" "$f" | head -1; }
	exercise=$(field exercise) expect=$(field expect) message=$(field message) stage=$(field stage)
	tools=()
	if [ "$backend" = gpu ]; then
		if grep -q '^// sim-only' "$f"; then
			skipped=$((skipped + 1))
			continue
		fi
		case $expect in
		bank_conflicts | uncoalesced | global_reads | performance) tools=(--profile --no-timing) ;;
		*) tools=(--sanitize --no-timing) ;;
		esac
	fi
	json=$($g grade "$exercise" --file "$f" --backend "$backend" "${tools[@]}" --json 2>/dev/null)
	status=$?
	verdict=$(python3 -c '
import json, sys
text, expect, fragment, stage = sys.argv[1:5]
try:
    r = json.loads(text)
except Exception:
    print("BAD no JSON from the grader"); sys.exit()
kinds = [d["kind"] for d in r["diagnostics"]]
said = "\n".join([r["message"]] + [c["message"] for c in r["cases"]])
if expect in ("compile", "run", "correctness", "performance"):
    found, where = r["stage"] == expect, said
else:
    d = next((d for d in r["diagnostics"] if d["kind"] == expect), None)
    found, where = d is not None, (d["message"] + "\n" + said) if d else said
why = [w for w, bad in (
    ("no %s among the diagnoses %s" % (expect, kinds), not found),
    ("\"%s\" not in what it said" % fragment, found and fragment not in where),
    ("stage %s, not %s" % (r["stage"], stage), stage and r["stage"] != stage),
    ("no hint", not r["hint"]),
    ("it passed", r["verdict"] == "pass")) if bad]
# the first diagnosis picks the hint: say when another came before
before = kinds[:kinds.index(expect)] if expect in kinds else []
if why:
    print("BAD " + "; ".join(why) + ":\n    " + where.split("\n")[0])
else:
    print("ok " + expect + (" (after %s)" % ", ".join(before) if before else ""))' "$json" "$expect" "$message" "$stage")
	if [ "$status" = 1 ] && [ "${verdict%% *}" = ok ]; then
		passed=$((passed + 1))
		printf '  ok   %-52s %s\n' "$f" "${verdict#ok }"
	else
		failed=$((failed + 1))
		printf '  BAD  %s (exit %s): %s\n' "$f" "$status" "${verdict#BAD }"
	fi
done
echo "mistakes: $passed passed, $failed failed$([ "$skipped" = 0 ] || echo ", $skipped skipped")"
[ "$failed" = 0 ]
