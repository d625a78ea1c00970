#!/usr/bin/env bash
# tests/submissions.sh — the one runner of the folders of bad or tricky submissions (tests/adversarial:
# cheats, crashes and legitimate fast kernels; tests/mistakes: typical mistakes and the diagnosis each
# must get; tests/redteam: an outside judge's, kept out of make test). It grades every file and holds
# the verdict to what the file declares in lines of its own:
#   // exercise: NAME                        the exercise that grades it
#   // expect: pass | fail | STAGE[|STAGE…]  a pass; a fail at any stage; a fail at one of the stages (the
#                                            stage "error": an environment's error, exit 3, such as
#                                            what the simulator cannot run)
#   // message: TEXT[|TEXT…]                 a piece (any one of them) of what the student reads: the
#                                            verdict, the cases, the diagnoses, the hint, the compiler
#   [// diagnosis: KIND]                     a diagnosis it must get, whose message (or the verdict's, or
#                                            a case's) holds the piece; and a hint
#   [// gpu-expect: …]  [// gpu-message: …]  what a GPU gives instead, where it differs (a launcher whose
#                                            calls change from one to the next: a GPU replays the first)
#   [// sim-only | // gpu-only]              graded on that backend only (a race a GPU may hide by luck;
#                                            a timing trick only a GPU measures)
#   [// nvcc: rejects]                       nvcc's front end refuses it (on the simulator too, where nvcc
#                                            is installed); without nvcc it is skipped, and said so
# The workbook's known-wrong files (solutions/wrong/NAME/*.cu, graded by `cudalings check`) use the
# same expect, gpu-expect and sim-only lines.
#
#   bash tests/submissions.sh FOLDER|FILE…    every .cu below each FOLDER, and each FILE
# BACKEND=gpu|sim picks the backend (default: the grader's pick). On a GPU a file with a diagnosis is
# graded untimed, with --profile where the diagnosis is a memory figure and --sanitize otherwise
# (Nsight Compute and compute-sanitizer make the diagnoses there). JOBS=N grades N files at once
# (default 2; 1 on a GPU, whose timings two gradings at once would spoil); the results print in file
# order. NVCC=1 only compiles each file with nvcc -arch=sm_90 (NVCC_BIN: which one): nvcc must take
# every file but those it must refuse. TSV=FILE also writes file, expected, got and exit status there,
# tab-separated. SUITE names the closing line, "SUITE: N passed, M failed, K skipped" (default: the
# first folder's name); exit 1 when any file did not get what it declares.
set -u
cd "$(dirname "$0")/.."

on_gpu=false
if [ "${BACKEND:-}" = gpu ] || { [ -z "${BACKEND:-}" ] && { [ -e /dev/nvidiactl ] || [ -e /dev/nvidia0 ]; }; }; then
	on_gpu=true
fi

# field NAME FILE: the text after "// NAME: " on the first such line
field() { sed -n "s|^// $1: \(.*\)|\1|p" "$2" | head -1; }

# judge JSON_FILE EXPECT MESSAGE DIAGNOSIS: "ok GOT [what]" or "bad GOT why", then what the student read
judge() {
	python3 - "$@" <<'PY'
import json, sys
path, expect, message, diagnosis = sys.argv[1:5]
try:
    r = json.loads(open(path, encoding="utf-8", errors="replace").read())
except Exception:
    print("bad no-json the grader printed no JSON"); sys.exit()
got = r["verdict"] if r["verdict"] == "pass" else (r["stage"] or "error")
said = [r.get("message") or ""] + [c.get("message") or "" for c in r.get("cases", [])]
everything = said + [d.get("message") or "" for d in r.get("diagnostics", [])]
everything += [r.get("hint") or "", r.get("compile_output") or ""]
kinds = [d["kind"] for d in r.get("diagnostics", [])]
where = everything
if diagnosis:
    d = next((d for d in r.get("diagnostics", []) if d["kind"] == diagnosis), None)
    where = ([d["message"]] if d else []) + said
stages = expect.split("|")
why = []
if not (got in stages or (expect == "fail" and got != "pass")):
    why.append("expected %s" % expect)
if message and not any(piece in w for piece in message.split("|") for w in where):
    why.append('"%s" not in what it said' % message)
if diagnosis and diagnosis not in kinds:
    why.append("no %s among the diagnoses %s" % (diagnosis, kinds))
if diagnosis and not r.get("hint"):
    why.append("no hint")
# the first diagnosis picks the hint: say when another came before
before = kinds[:kinds.index(diagnosis)] if diagnosis in kinds else []
what = diagnosis + (" (after %s)" % ", ".join(before) if before else "") if diagnosis else ""
print(("bad %s %s" % (got, "; ".join(why))) if why else ("ok %s %s" % (got, what)))
print("\n".join(t for t in everything if t))
PY
}

# one INDEX FILE: the file's line of the report in $out/INDEX ("ok", "bad" or "skip" its first word; a
# skip is said only where its reason is worth a line), and its TSV row in $out/INDEX.tsv
one() {
	local f=$2 report=$out/$1 exercise expect message diagnosis tools=() t0 json status verdict got
	exercise=$(field exercise "$f") expect=$(field expect "$f") message=$(field message "$f")
	diagnosis=$(field diagnosis "$f")
	if $on_gpu && [ -n "$(field gpu-expect "$f")" ]; then
		expect=$(field gpu-expect "$f") message=$(field gpu-message "$f")
	fi
	if [ -n "${NVCC:-}" ]; then
		# nvcc must take every file that is not meant to be refused by nvcc itself
		json=$(${NVCC_BIN:-nvcc} -std=c++17 -arch=sm_90 -Xcompiler -fPIC -c -I "build/gen/public/$exercise" \
			"$f" -o /dev/null 2>&1)
		status=$?
		if grep -q '^// nvcc: rejects' "$f"; then want=1; else want=0; fi
		if { [ $want = 0 ] && [ $status = 0 ]; } || { [ $want = 1 ] && [ $status != 0 ]; }; then
			printf 'ok   %-62s nvcc %s\n' "$f" "$([ $status = 0 ] && echo accepts || echo rejects)" >"$report"
		else
			printf 'bad  %s: nvcc exit %s\n%s\n' "$f" "$status" "$(head -5 <<<"$json")" >"$report"
		fi
		return
	fi
	if { $on_gpu && grep -q '^// sim-only' "$f"; } || { ! $on_gpu && grep -q '^// gpu-only' "$f"; }; then
		echo skip >"$report"
		printf '%s\t%s\tskipped\t-\n' "$f" "$expect" >"$report.tsv"
		return
	fi
	if grep -q '^// nvcc: rejects' "$f" && [ -z "$nvcc" ]; then
		printf 'skip %-52s only nvcc refuses it, and no nvcc is installed\n' "$f" >"$report"
		return
	fi
	if $on_gpu && [ -n "$diagnosis" ]; then
		case $diagnosis in
		bank_conflicts | uncoalesced | global_reads) tools=(--profile --no-timing) ;;
		*) tools=(--sanitize --no-timing) ;;
		esac
	fi
	t0=$(date +%s)
	json=$(build/cudalings grade "$exercise" --file "$f" ${BACKEND:+--backend "$BACKEND"} "${tools[@]}" --json 2>/dev/null)
	status=$?
	# through a file: a verdict holding a flood of printf's output is more than one argument may be (128 KiB)
	printf '%s' "$json" >"$report.json"
	verdict=$(judge "$report.json" "$expect" "$message" "$diagnosis")
	read -r result got what <<<"$(head -1 <<<"$verdict")"
	# a fail is exit 1, never a crash of the grader; an environment's error (what the simulator cannot
	# run, declared as the stage "error") is exit 3
	if [ "$result" = ok ] && { [ "$got" = pass ] || [ "$status" = 1 ] || { [ "$got" = error ] && [ "$status" = 3 ] && [[ "|$expect|" == *"|error|"* ]]; }; }; then
		printf 'ok   %-52s %-12s %s%ss\n' "$f" "$got" "${what:+$what, }" "$(($(date +%s) - t0))" >"$report"
	else
		[ "$result" = ok ] && what="exit $status, not 1" || what="$what (exit $status)"
		printf 'bad  %s: expected %s%s with "%s", got %s: %s\n%s\n' "$f" "$expect" "${diagnosis:+ and $diagnosis}" \
			"$message" "$got" "$what" "$(tail -n +2 <<<"$verdict" | head -6 | cut -c1-400)" >"$report"
	fi
	printf '%s\t%s\t%s\t%s\n' "$f" "$expect" "$got" "$status" >"$report.tsv"
}

if [ "${1:-}" = --one ]; then
	shift
	one "$@"
	exit 0
fi

[ $# -gt 0 ] || { echo "usage: bash tests/submissions.sh FOLDER|FILE…" >&2; exit 2; }
suite=${SUITE:-$(basename "$1" .cu)}
files=()
for a in "$@"; do
	a=${a#./}
	if [ -d "$a" ]; then
		mapfile -t -O "${#files[@]}" files < <(find "$a" -name '*.cu' | sort)
	elif [ -f "$a" ]; then
		files+=("$a")
	else
		echo "$suite: no such file or folder: $a" >&2
		exit 2
	fi
done
export on_gpu out nvcc=${CUDALINGS_NVCC:-$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
t0=$(date +%s)
jobs=${JOBS:-$($on_gpu && echo 1 || echo 2)}
for i in "${!files[@]}"; do printf '%s\n%s\n' "$i" "${files[i]}"; done |
	xargs -d '\n' -n 2 -P "$jobs" bash tests/submissions.sh --one
passed=0 failed=0 skipped=0
[ -z "${TSV:-}" ] || : >"$TSV"
for i in "${!files[@]}"; do
	line=$(cat "$out/$i" 2>/dev/null || echo "bad  ${files[i]}: no result")
	case $line in
	skip*) skipped=$((skipped + 1)); [ "$line" = skip ] || echo "  $line" ;;
	ok*) passed=$((passed + 1)); echo "  $line" ;;
	*) failed=$((failed + 1)); echo "  ${line/#bad /BAD}" ;;
	esac
	[ -z "${TSV:-}" ] || cat "$out/$i.tsv" >>"$TSV" 2>/dev/null
done
echo "$suite: $passed passed, $failed failed, $skipped skipped in $(($(date +%s) - t0)) s"
[ "$failed" = 0 ]
