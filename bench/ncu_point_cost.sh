#!/usr/bin/env bash
# What the point on a GPU (budgets_on_gpu: Nsight Compute over the timed launch, grader/engine/point.c) costs
# a grading, and that it still judges: on a GPU machine, from the repository's root, after `make all`.
#  1. the transposes' files graded three at a time, timed: every solution, gold solution and
#     legitimate tests/adversarial file passes with its point checked; the naive transpose turned
#     round fails naming its sectors, the unpadded tile its bank conflicts;
#  2. edit to verdict, one grading at a time: the solutions (a first grading after make, a later one)
#     and the naive transpose with the point, the solutions without it (budgets_on_gpu taken out);
#  3. where a profiled launch's seconds go under ncu with the point's options (bench/ncu_probe/
#     timeline.cu): ncu's start, the context, a kernel's first profile, the same kernel's second,
#     another kernel's first, ncu's end; at 4096² and 512², with a one-block kernel profiled first,
#     and without the sectors' use (the instrumented metrics).
# About 75 s of an H100, the sections in order of need (a cut run keeps what it printed); SECTIONS="1 3"
# picks some. A measurement, not a test (tests/gpu/run.sh holds the expectations).
#   bash bench/ncu_point_cost.sh   (OUT set: also $OUT/ncu-point-cost.md)
set -u
cd "$(dirname "$0")/.."
source bench/ncu_gradings.sh
names="tile_transpose transpose transpose_coarse"
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }
[ -n "${OUT:-}" ] && exec > >(tee "$OUT/ncu-point-cost.md")
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
head="## The point's cost and verdicts, ${device:-no GPU}, $(date -u +%Y-%m-%d\ %H:%M), $("$(dirname "$(command -v nvcc)")/ncu" --version 2>/dev/null | tail -1)

\`bash bench/ncu_point_cost.sh\`, commit $(git rev-parse --short HEAD 2>/dev/null)"
printf '%s\n' "$head"

sections=" ${SECTIONS:-1 2 3} "
# ---------------------------------------------------------------- 1. verdicts, three at a time
if [[ $sections == *" 1 "* ]]; then
for n in $names; do
	for f in solutions/$n.cu solutions/gold/$n.cu; do [ -f "$f" ] && echo "$n $f pass"; done
done >"$tmp/list"
for f in tests/adversarial/fast_*transpose*.cu; do
	n=$(sed -n 's|^// exercise: \(.*\)|\1|p' "$f" | head -1)
	echo "$n $f pass"
done >>"$tmp/list"
cat >>"$tmp/list" <<'LIST'
tile_transpose tests/mistakes/tile_transpose/naive_coalesced_writes.cu uncoalesced
transpose tests/mistakes/transpose/naive_coalesced_writes.cu uncoalesced
transpose tests/mistakes/transpose/tile_without_padding.cu bank_conflicts
LIST
t0=$EPOCHREALTIME
verdicts=$(ncu_verdicts "$tmp/list")
t1=$EPOCHREALTIME
printf '\n### 1. Verdicts, three gradings at a time (%s s)\n\n%s\n' "$(secs "$t0" "$t1")" "$verdicts"
fi

# ---------------------------------------------------------------- 2. edit to verdict, one at a time
if [[ $sections == *" 2 "* ]]; then
t0=$EPOCHREALTIME
for n in $names; do grade_timed $n solutions/$n.cu on first later; done
for n in tile_transpose transpose; do grade_timed $n tests/mistakes/$n/naive_coalesced_writes.cu on later; done
budgets_off
for n in $names; do grade_timed $n solutions/$n.cu off later; done
cp "$tmp/workbook.json" workbook.json
t1=$EPOCHREALTIME
printf '\n### 2. Edit to verdict, one grading at a time (%s s)\n\n%s\n' "$(secs "$t0" "$t1")" "$timed"
fi

# ---------------------------------------------------------------- 3. a profiled launch's timeline
[[ $sections == *" 3 "* ]] || exit 0
metrics=$(sed -n '/^const char diagnose_ncu_budget_metrics\[\] =/,/;$/p' grader/engine/diagnose.c | grep -o '"[^"]*"' | tr -d '"\n')
hw=$(echo "$metrics" | tr , '\n' | grep -v sass | paste -sd,)
t0=$EPOCHREALTIME
if nvcc -O3 -arch=sm_90 -o "$tmp/timeline" bench/ncu_probe/timeline.cu 2>"$tmp/nvcc.err"; then
	# the ncu beside nvcc, as the grader takes it (toolchain_cuda_tool)
	ncu=$(dirname "$(command -v nvcc)")/ncu
	[ -x "$ncu" ] || ncu=ncu
	point=(--clock-control none --cache-control none --profile-from-start off --launch-count 32 --csv --print-units base)
	run() { # label command…
		local label=$1 s e
		shift
		s=$EPOCHREALTIME
		timeout 15 "$@" >"$tmp/run.out" 2>&1
		e=$EPOCHREALTIME
		python3 - "$label" "$s" "$e" "$tmp/run.out" <<'PY'
import sys
label, s, e, out = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
marks = [(float(l.split()[1]), l.split(None, 2)[2].strip()) for l in open(out, errors="replace") if l.startswith("@ ")]
if not marks:
    print("| %s | no marks: %s |" % (label, open(out, errors="replace").read()[-200:].replace("\n", " ").replace("|", "/"))); sys.exit()
steps, last = [], s
for t, what in marks:
    steps.append("%s %.2f" % (what, t - last)); last = t
steps.append("exit and ncu's end %.2f" % (e - last))
print("| %s | %.2f | %s |" % (label, e - s, "; ".join(steps)))
PY
	}
	lines="| run | total s | each step, s since the one before (the first: from the command's start) |
|---|---:|---|"
	lines="$lines
$(run "plain, 4096²" "$tmp/timeline" 4096)
$(run "ncu, the point's options, 4096²" "$ncu" "${point[@]}" --log-file "$tmp/a.csv" --metrics "$metrics" "$tmp/timeline" 4096)
$(run "ncu, a warm kernel profiled first" "$ncu" "${point[@]}" --log-file "$tmp/b.csv" --metrics "$metrics" "$tmp/timeline" 4096 warm)
$(run "ncu, a warm kernel first, _exit at the end" "$ncu" "${point[@]}" --log-file "$tmp/e.csv" --metrics "$metrics" "$tmp/timeline" 4096 warm quick)
$(run "ncu, a warm kernel first, then a byte awaited on stdin (sent after 1 s)" bash -c '(sleep 1; printf g) | "$@"' - "$ncu" "${point[@]}" --log-file "$tmp/f.csv" --metrics "$metrics" "$tmp/timeline" 4096 warm wait)
$(run "ncu, 512²" "$ncu" "${point[@]}" --log-file "$tmp/c.csv" --metrics "$metrics" "$tmp/timeline" 512)
$(run "ncu, no sass metrics, 4096²" "$ncu" "${point[@]}" --log-file "$tmp/d.csv" --metrics "$hw" "$tmp/timeline" 4096)"
	passes=$(grep -ho '[0-9]* passes' "$tmp/a.csv" "$tmp/d.csv" 2>/dev/null | sort | uniq -c | tr '\n' ';')
	# what ncu's log holds when the process ends as usual and when it leaves by _exit
	kernels() { [ -f "$1" ] && grep -o '^"[0-9]*"' "$1" | sort -u | wc -l || echo "no log"; }
	passes="$passes kernels in the log: warm, usual exit $(kernels "$tmp/b.csv"); warm, _exit $(kernels "$tmp/e.csv") ($(grep -h '==ERROR==\|==WARNING==' "$tmp/e.csv" 2>/dev/null | head -2 | tr '\n' ' '))"
else
	lines="nvcc failed: $(tail -3 "$tmp/nvcc.err")"
	passes=
fi
t1=$EPOCHREALTIME
printf '\n### 3. A profiled launch, step by step (bench/ncu_probe/timeline.cu, %s s)\n\n%s\n\nreplay passes seen: %s\n' \
	"$(secs "$t0" "$t1")" "$lines" "${passes:-none printed}"
exit 0
