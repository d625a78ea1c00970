#!/usr/bin/env bash
# A class through a Slurm cluster gives the rows a batch here gives. The test
# starts a single-node cluster on localhost (Debian's slurmctld, slurmd and
# munge, a generated slurm.conf: this machine's CPUs and memory, one
# partition, no cgroups, no accounting), generates a class of 200
# submissions (right, wrong, not compiling, crashing, odd files), grades it
# with `cudalings batch` here and with `--slurm` through the cluster on the
# simulator, and compares the gradebooks without their timing columns. Every
# daemon it started is stopped at the end, failed or not.
#
# Needs root (the daemons) and the packages (tools/deps.sh slurm installs
# them); without either it says why and skips. Long: `make test-long` runs
# it, not `make test`. SLURM_TEST_STUDENTS=N grades a smaller class.
set -u
cd "$(dirname "$0")/../.." && . tests/lib.sh
students=${SLURM_TEST_STUDENTS:-200}
limit_s=${SLURM_TEST_LIMIT_S:-2400}
g=$repo/build/cudalings
started=$(date +%s)

skip() {
	echo "slurm: skipped: $*"
	exit 0
}
[ "$(id -u)" = 0 ] || skip "the cluster's daemons need root"
sh tools/deps.sh slurm >"$tmp/deps.log" 2>&1 || skip "the Slurm packages cannot be installed: $(tail -1 "$tmp/deps.log")"
for t in slurmctld slurmd sbatch squeue munged; do
	command -v "$t" >/dev/null || skip "$t is not installed"
done

# ------------------------------------------------------------ the cluster
cluster=$tmp/cluster
mkdir -p "$cluster/state" "$cluster/spool" "$cluster/munge"
chmod 700 "$cluster/munge"
daemons=()
pidfiles=("$cluster/slurmd.pid" "$cluster/slurmctld.pid" "$cluster/munge/munged.pid")
daemons_gone() {
	local pidfile
	for pidfile in "${pidfiles[@]}"; do
		[ -s "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null && return 1
	done
	return 0
}
stop_cluster() {
	# the jobs first, then the daemons this test started, each by its own pid
	[ -f "$cluster/slurm.conf" ] && SLURM_CONF=$cluster/slurm.conf timeout 20 scancel --user=root 2>/dev/null
	for pidfile in "${pidfiles[@]}"; do
		[ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
	done
	wait_until 10 daemons_gone
	for pidfile in "${pidfiles[@]}"; do
		[ -s "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null
	done
}
when_finished stop_cluster
trap 'exit 130' INT TERM

# two free ports for the controller and the node
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
dd if=/dev/urandom of="$cluster/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$cluster/munge/munge.key"
munged --force --socket="$cluster/munge/munge.sock" --key-file="$cluster/munge/munge.key" \
	--log-file="$cluster/munge/munged.log" --pid-file="$cluster/munge/munged.pid" \
	--seed-file="$cluster/munge/munged.seed" || skip "munged does not start: $(tail -3 "$cluster/munge/munged.log")"
cpus=$(nproc)
memory_mb=$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)
cat >"$cluster/slurm.conf" <<EOF
ClusterName=cudalings-test
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$cluster/munge/munge.sock
CredType=cred/munge
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/slurmctld.log
SlurmdLogFile=$cluster/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory_mb State=UNKNOWN
PartitionName=cpu Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$cluster/slurm.conf
slurmctld -i || skip "slurmctld does not start: $(tail -3 "$cluster/slurmctld.log")"
slurmd -N localhost || skip "slurmd does not start: $(tail -3 "$cluster/slurmd.log")"
node_idle() { sinfo --noheader --format=%t 2>/dev/null | grep -q idle; }
wait_until 120 node_idle || skip "the node never became idle: $(sinfo 2>&1 | tail -2)"
echo "slurm: a cluster of one node ($cpus CPUs, $memory_mb MB) on ports $ctld_port and $slurmd_port"

# ------------------------------------------------------------ a class of 200
# distinct files a few of each kind, shared round-robin (students copy), so the
# compile cache keeps the test to minutes; every student has a file of their own
class=$tmp/class
mkdir -p "$class" "$tmp/kinds"
kinds=()
add_kind() { kinds+=("$1"); }
cp solutions/col_sums.cu "$tmp/kinds/right.cu" && add_kind right.cu
for f in tests/adversarial/fast_col_sums*.cu; do
	[ -f "$f" ] && cp "$f" "$tmp/kinds/" && add_kind "$(basename "$f")"
done
for f in tests/mistakes/col_sums/*.cu solutions/wrong/col_sums/*.cu; do
	# a kernel that never ends costs the grader's whole limit: one student has it, below
	[ -f "$f" ] && [ "$(basename "$f")" != never_ends.cu ] || continue
	cp "$f" "$tmp/kinds/wrong_$(basename "$f")" && add_kind "wrong_$(basename "$f")"
done
sed 's/int col = /int col = ;/' solutions/col_sums.cu >"$tmp/kinds/syntax.cu" && add_kind syntax.cu
sed 's/s\[col\] = /s[col + (1 << 28)] = /' solutions/col_sums.cu >"$tmp/kinds/crash.cu" && add_kind crash.cu
build/cudalings starter col_sums >"$tmp/kinds/starter.cu" && add_kind starter.cu
odd=0
for i in $(seq 1 "$students"); do
	name=$(printf 'student%03d' "$i")
	case $((i % 25)) in
	0) echo "my notes" >"$class/$name.txt"; odd=$((odd + 1)); continue ;;
	5) : >"$class/$name.cu"; odd=$((odd + 1)); continue ;;
	10) printf 'x\0y' >"$class/$name.cu"; odd=$((odd + 1)); continue ;;
	15) mkdir "$class/$name"; cp "$tmp/kinds/right.cu" "$class/$name/a.cu"; cp "$tmp/kinds/right.cu" "$class/$name/b.cu"
	    odd=$((odd + 1)); continue ;;
	20) cp "$tmp/kinds/right.cu" "$class/.$name.cu"; odd=$((odd + 1)); continue ;;
	esac
	kind=${kinds[$((i % ${#kinds[@]}))]}
	case $((i % 7)) in
	3) mkdir "$class/$name" && cp "$tmp/kinds/$kind" "$class/$name/col_sums.cu" ;;
	4) cp "$tmp/kinds/$kind" "$class/$(tr a-z A-Z <<<"$name").CU" ;;
	*) cp "$tmp/kinds/$kind" "$class/$name.cu" ;;
	esac
done
mkfifo "$class/student_fifo.cu"
cp solutions/wrong/col_sums/never_ends.cu "$class/student_never_ends.cu"
entries=$(ls -A "$class" | wc -l)
echo "slurm: $entries submissions, $odd odd ones and a FIFO, of ${#kinds[@]} kinds: ${kinds[*]}"

deadline() { [ $(($(date +%s) - started)) -lt "$limit_s" ] || { bad "past the test's limit of $limit_s s"; exit 1; }; }

# ------------------------------------------------------------ here, then through the cluster
t0=$(date +%s)
expect 0 "^$entries submissions: $entries graded now" -- timeout "$limit_s" "$g" batch col_sums "$class" --out "$tmp/here" --backend sim
here_s=$(($(date +%s) - t0))
deadline
t0=$(date +%s)
expect 0 "submitted Slurm job [0-9]+: 4 tasks" -- "$g" batch col_sums "$class" --out "$tmp/shared" --slurm --backend sim \
	--partition cpu --tasks 4
jobs=$(sed -n 's/^job //p; s/^merge_job //p' "$tmp/shared/.lock" | paste -sd,)
[ -n "$jobs" ] && ok || bad "the out folder's lock names no job: $(cat "$tmp/shared/.lock")"
# while the jobs run, the folder is theirs
expect 2 "is Slurm's: Slurm job" -- "$g" batch col_sums "$class" --out "$tmp/shared" --backend sim
while squeue --noheader --states=all --jobs "$jobs" --format=%T 2>/dev/null |
	grep -qE 'PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUE'; do
	deadline
	sleep 2
done
slurm_s=$(($(date +%s) - t0))
states=$(squeue --noheader --states=all --jobs "$jobs" --format='%i %T' 2>/dev/null | sort -u)
grep -q FAILED <<<"$states" && bad "a job failed: $states $(cat "$tmp"/shared/.slurm/*/*.out | tail -20)" || ok
[ ! -s "$tmp/shared/.lock" ] && ok || bad "the merge left the folder locked: $(cat "$tmp/shared/.lock")"
grep -q "^$entries submissions: $entries with a final row" "$tmp"/shared/.slurm/*/merge.out && ok ||
	bad "the merge did not count every row: $(cat "$tmp"/shared/.slurm/*/merge.out)"

# the same rows: every column but the times (median_us, ratio), and the messages' first lines but their numbers
if python3 - "$tmp/here/gradebook.csv" "$tmp/shared/gradebook.csv" <<'PY'; then ok; else bad "the cluster's gradebook differs from the batch's here"; fi
import csv, re, sys
def rows(path):
    with open(path, newline="") as f:
        out = {}
        for r in csv.DictReader(f):
            r.pop("median_us"); r.pop("ratio")
            # the inputs are drawn afresh, addresses differ from one run to the next, and where an endless
            # kernel was stopped (the message's later lines) is where the clock found it
            first = r["message"].split("\n")[0]
            r["message"] = re.sub(r"0x[0-9a-f]+|-?\d+(\.\d+)?(e[-+]?\d+)?", "N", first)
            out[r["student"]] = r
        return out
here, there = rows(sys.argv[1]), rows(sys.argv[2])
assert len(here) == len(there) > 0, (len(here), len(there))
diff = [s for s in sorted(set(here) | set(there)) if here.get(s) != there.get(s)]
for s in diff[:10]:
    print("  here:   ", here.get(s)); print("  cluster:", there.get(s))
stages = {}
for r in here.values():
    stages[r["stage"] or "pass"] = stages.get(r["stage"] or "pass", 0) + 1
print("slurm: rows by stage:", ", ".join("%s %d" % kv for kv in sorted(stages.items())))
sys.exit(1 if diff else 0)
PY
cmp <(cd "$tmp/here/gradescope" && find . -name results.json | sort) \
	<(cd "$tmp/shared/gradescope" && find . -name results.json | sort) && ok ||
	bad "the Gradescope files differ in who has one"
# a second --slurm finds nothing left to grade
expect 0 "nothing to submit" -- "$g" batch col_sums "$class" --out "$tmp/shared" --slurm --backend sim

echo "slurm: here ${here_s} s, through the cluster ${slurm_s} s (1 node, $cpus CPUs), $students students"
echo "slurm: $passed passed, $failed failed"
[ "$failed" = 0 ]
