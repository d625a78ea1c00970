#!/usr/bin/env bash
# A GPU tool's run for its figures alone (the runner's --figures-only, which
# cmdline_add_cases passes with the timed size as the last case: the point's Nsight
# Compute run, --profile, --lines): the last case runs and sends its buffers'
# addresses, but none of its outputs, which nobody judges (a 4096 x 4096
# transpose's 64 MiB, copied, scanned and piped after the go); every case
# before it sends its outputs as in a graded run. Checked on the simulator's
# runner, which shares that code with the GPU's (there the case's inputs are
# also drawn on the device, as the timed case's are: only a GPU run shows it).
set -u
cd "$(dirname "$0")/../.."
g=build/cudalings
source tests/lib.sh
# a student's object for the simulator's runner, as a grading builds it
{ cat solutions/tile_transpose.cu; echo "// figures_only $$"; } >"$tmp/tile_transpose.cu"
$g grade tile_transpose --file "$tmp/tile_transpose.cu" --backend sim --no-timing --json >"$tmp/grade.json" 2>&1 ||
	{ echo "figures_only: FAIL: the solution did not pass on the simulator"; cat "$tmp/grade.json"; exit 1; }
src=$(grep -lF "\"$tmp/tile_transpose.cu\"" build/sim/sub/tile_transpose-*/tile_transpose.sim.cpp 2>/dev/null | head -1)
so=${src%/*}/tile_transpose.so
[ -n "$src" ] && [ -f "$so" ] || { echo "figures_only: FAIL: no object built for $tmp/tile_transpose.cu"; exit 1; }
# the cases' outputs, by case: "0 1" for case 0's, "1 -" for a case that began and sent none
outputs() {
	build/sim/runner/tile_transpose --seed 7 --channel 1 --under-tool 1 --figures-only "$1" --student "$PWD/$so" \
		--case 31,33 --case 64,96 | python3 -c '
import re, struct, sys
names = re.findall(r"^\s*(MSG_[A-Z_]+)", open("harness/protocol.h").read().split("MSG_HELLO = 1")[1].split("};")[0], re.M)
number = {name: i + 2 for i, name in enumerate(names)}
data, at, cases = sys.stdin.buffer.read(), 0, {}
while at < len(data):
    magic, kind, case, aux, length = struct.unpack_from("<IIIIQ", data, at)
    assert magic == 0x43554c47, "framing"
    if kind == number["MSG_CASE_BEGIN"]:
        cases.setdefault(case, [])
    elif kind == number["MSG_OUTPUT"]:
        cases[case].append(str(aux))
    elif kind == number["MSG_DONE"]:
        cases["done"] = []
    at += 24 + length
print(" ".join("%s %s" % (c, ",".join(o) or "-") for c, o in cases.items()))'
}
graded=$(outputs 0) figures=$(outputs 1)
failed=0
[ "$graded" = "0 1 1 1 done -" ] || { echo "figures_only: FAIL: without it, every case sends its output: $graded"; failed=1; }
[ "$figures" = "0 1 1 - done -" ] ||
	{ echo "figures_only: FAIL: with it, the last case alone sends none, and the run ends: $figures"; failed=1; }
[ $failed = 0 ] && echo "figures_only: ok (the last case's outputs kept back, the others' sent)"
exit $failed
