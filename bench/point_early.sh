#!/usr/bin/env bash
# The point measured before the rounds (issue 23 item 7, bench/point-early-h100.md): two trees built side
# by side on one GPU machine and graded one after the other. BEFORE and AFTER name folders under .gpu/
# (copies of the trees, each without build/); .gpu/root holds the libraries the machine may lack.
#  1. the naive transpose turned round (after): fails naming its sectors, point checked;
#  2. a --no-timing grading, before and after: what it says of the point;
#  3. edit to verdict, bench/grading_stages.sh, before then after, two rounds;
#  4. the transposes' files graded timed, four at a time (after): verdict, figures, the point.
# A measurement, not a test; about 150 s of an H100.
#   BEFORE=point2-before AFTER=point2 bash .gpu/point2/bench/point_early.sh   (from the repository root)
set -u
ROOT=$PWD
before=${BEFORE:-point2-before} after=${AFTER:-point2}
export LD_LIBRARY_PATH=$ROOT/.gpu/root/usr/lib/x86_64-linux-gnu CUDALINGS_SKIP_DEPS=1 PYTHONUNBUFFERED=1
export PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp}
t0=$(date +%s)
stamp() { echo "== $1 at +$(($(date +%s) - t0)) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ncu --version 2>/dev/null | tail -1
date -u
for t in "$before" "$after"; do mkdir -p ".gpu/$t/.gpu" && ln -sfn "$ROOT/.gpu/root" ".gpu/$t/.gpu/root"; done
build() { cd "$ROOT/.gpu/$1" && source tests/gpu/lib.sh && gpu_build build/cudalings && build/cudalings prepare --backend gpu --quiet; }
for t in "$before" "$after"; do (build "$t") >"/tmp/build-$t.log" 2>&1 & done
wait
for t in "$before" "$after"; do [ -x ".gpu/$t/build/cudalings" ] || { echo "build $t failed"; tail -5 "/tmp/build-$t.log"; }; done
stamp built

show() { python3 -c '
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    print("no JSON:", e); sys.exit()
print(r["verdict"], r.get("stage"), "|", r.get("message", "")[:220]); print("  point:", r.get("point"))' "$1"; }
echo "### 1. naive transpose turned round, timed ($after)"
(cd ".gpu/$after" && timeout 30 build/cudalings grade transpose --file tests/mistakes/transpose/naive_coalesced_writes.cu \
	--backend gpu --json 2>/dev/null) >/tmp/naive.json
show /tmp/naive.json
echo "### 2. --no-timing, solutions/transpose.cu"
for t in "$before" "$after"; do
	(cd ".gpu/$t" && timeout 30 build/cudalings grade transpose --file solutions/transpose.cu --backend gpu --no-timing \
		--json 2>/dev/null) >/tmp/nt.json
	echo "$t:"; show /tmp/nt.json
done
stamp probes

stages() {
	for t in "$before" "$after"; do
		echo "#### $t, round $1"
		(cd ".gpu/$t" && timeout 60 bash bench/grading_stages.sh gpu $2) | tail -n +3
	done
}
echo "### 3. edit to verdict"
stages 1 "transpose tile_transpose"
stamp "stages 1"

echo "### 4. the transposes' files, timed, four at a time ($after)"
(
	cd ".gpu/$after" || exit
	tmp=$(mktemp -d)
	{
		for n in tile_transpose transpose transpose_coarse; do
			for f in solutions/$n.cu solutions/gold/$n.cu; do [ -f "$f" ] && echo "$n $f pass"; done
		done
		for f in tests/adversarial/fast_*transpose*.cu; do
			echo "$(sed -n 's|^// exercise: \(.*\)|\1|p' "$f" | head -1) $f pass"
		done
		echo "tile_transpose tests/mistakes/tile_transpose/naive_coalesced_writes.cu uncoalesced"
		echo "transpose tests/mistakes/transpose/naive_coalesced_writes.cu uncoalesced"
		echo "transpose tests/mistakes/transpose/tile_without_padding.cu bank_conflicts"
	} >"$tmp/list"
	awk '{ print NR, $0 }' "$tmp/list" | xargs -P 4 -L 1 bash -c \
		'timeout 40 build/cudalings grade "$1" --file "$2" --backend gpu --json >'"$tmp"'/$0.json 2>/dev/null; echo "$1 $2 $3" >'"$tmp"'/$0.what'
	python3 - "$tmp" <<'PY'
import glob, json, os, sys
tmp = sys.argv[1]
fig = lambda v: "-" if v is None or v < 0 else "%.1f" % v
bad = 0
print("| exercise | file | expected | verdict | diagnoses | sectors/req | bank conflicts/req | point | message |")
print("|---|---|---|---|---|---:|---:|---|---|")
for w in sorted(glob.glob(tmp + "/*.what"), key=lambda p: int(os.path.basename(p).split(".")[0])):
    n, f, expect = open(w).read().split()
    try:
        r = json.load(open(w[:-5] + ".json"))
    except Exception:
        print("| %s | %s | %s | no JSON **unexpected** | | | | | |" % (n, f, expect)); bad += 1; continue
    p, fg = r.get("point") or {}, r.get("figures") or {}
    kinds = [d["kind"] for d in r.get("diagnostics", [])]
    named = {"uncoalesced": "sectors", "bank_conflicts": "bank conflicts"}.get(expect)
    if expect == "pass":
        ok = r["verdict"] == "pass" or r.get("stage") == "performance" and not {"uncoalesced", "bank_conflicts"} & set(kinds)
    else:
        ok = r["verdict"] == "fail" and expect in kinds
    ok = ok and p.get("checked")
    bad += not ok
    point = ("by %s, %s kernel(s)" % (p.get("by"), p.get("kernels"))) if p.get("checked") else "NOT checked: %s" % p.get("why_not")
    print("| %s | %s | %s | %s%s | %s | %s | %s | %s | %s |" % (n, f, expect, r["verdict"], "" if ok else " **unexpected**",
          ",".join(kinds) or "-", fig(fg.get("sectors_per_request")), fig(fg.get("bank_conflicts_per_request")), point,
          r.get("message", "")[:110].replace("|", "/")))
print("\n%d files, %d unexpected (a legitimate file failing at time, with no memory diagnosis, is the sharing of one GPU by four gradings)" % (len(glob.glob(tmp + "/*.what")), bad))
PY
	rm -rf "$tmp"
)
stamp sweep

stages 2 "transpose tile_transpose"
stamp "stages 2"
