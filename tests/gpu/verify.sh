#!/usr/bin/env bash
# A device call's worth of GPU checks, most important first: each part gets
# what is left of BUDGET seconds (default 520), its log in one archive,
# $OUT/verify.tgz (a call brings back few files). PARTS picks parts (all by
# default): probe (the transpose point's JSON and --profile), adversarial-trust
# (every legitimate fast_* file and the forging ones), grades (make test-gpu's
# gradings), tier (the gold transpose ten times), checks (each CHECKS/*.sh,
# default .gpu/checks: a helper's own measurement), adversarial-rest, redteam.
#   PARTS="probe grades" BUDGET=300 bash tests/gpu/verify.sh
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
start=$(date +%s)
deadline=$((start + ${BUDGET:-520}))
left() { echo $((deadline - $(date +%s))); }
# every log and table under $o, packed into one file of $OUT at the end (a call brings back 8 files at most)
o=/tmp/verify
rm -rf "$o"
mkdir -p "$o"
final=${OUT:-/tmp}
when_finished 'tar -C /tmp -czf "$final/verify.tgz" verify'
export OUT=$o
stamp() { echo "== $1 at +$(($(date +%s) - start)) s, $(left) s left"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
stamp build
gpu_build build/cudalings prepare >"$o/build.log" 2>&1 || { tail -30 "$o/build.log"; exit 3; }
PARTS=${PARTS:-probe adversarial-trust grades tier checks adversarial-rest redteam}
run_part() { # NAME COMMAND…: under the time left, its log in $o/NAME.log, its last lines shown
	local name=$1
	shift
	local part=$name
	case $name in check-*) part=checks ;; esac
	case " $PARTS " in *" $part "*) ;; *) return ;; esac
	stamp "$name"
	[ "$(left)" -gt 15 ] || { echo "skipped: no time left"; return; }
	timeout --kill-after=5 "$(left)" "$@" >"$o/$name.log" 2>&1
	echo "exit $?"
	grep -E '^(BAD|bad)' "$o/$name.log" | head -20
	tail -4 "$o/$name.log"
}
probe() {
	for f in solutions/transpose.cu tests/mistakes/transpose/naive_coalesced_writes.cu; do
		build/cudalings grade transpose --file "$f" --backend gpu --json 2>&1 | python3 -c '
import json, sys
t = sys.stdin.read()
try:
    r = json.loads(t)
except Exception:
    print(t[-1500:]); sys.exit()
print(sys.argv[1], r["verdict"], r["stage"], r["message"][:400])
print(json.dumps(r.get("point"))[:800])' "$f"
	done
	build/cudalings grade transpose --file solutions/transpose.cu --backend gpu --profile 2>&1 | tail -12
}
export -f probe
run_part probe bash -c probe
trust=$(ls tests/adversarial/fast_*.cu tests/adversarial/forges*.cu tests/adversarial/rewrites*.cu \
	tests/adversarial/replays*.cu 2>/dev/null)
run_part adversarial-trust env BACKEND=gpu bash tests/adversarial/run.sh $trust
run_part grades env PARTS=grades bash tests/gpu/run.sh
run_part tier bash bench/tier_stability.sh 10 transpose
for s in "${CHECKS:-.gpu/checks}"/*.sh; do
	[ -f "$s" ] && run_part "check-$(basename "$s" .sh)" bash "$s"
done
rest=$(ls tests/adversarial/*.cu | grep -v -F -x -f <(printf '%s\n' $trust))
run_part adversarial-rest env BACKEND=gpu bash tests/adversarial/run.sh $rest
run_part redteam env BACKEND=gpu bash tests/redteam/run.sh
stamp end
