# tests/proc.sh — sourced by the test scripts that look for processes, after tests/lib.sh: what
# pgrep would say, read from /proc by bash alone, so that a bare Debian root (no procps) runs them too
# and a look costs no fork per process; and the check that nothing of a killed program is left.
#   proc_find REGEX     the processes whose command line, its words joined by
#                       spaces, matches REGEX (extended, as pgrep -f)
#   proc_children PID   the processes whose parent is PID (pgrep -P)
#   proc_group PGID     the processes of process group PGID (pgrep -g)
#   proc_tree PID       PID and every process below it
#   proc_stat PID       the fields of /proc/PID/stat, in the array proc_fields
#   proc_marked MARK    the processes whose environment holds CUDALINGS_LIFETIME_MARK=MARK: a test sets
#                       it on what it starts, and every process below inherits it, whatever became
#                       of its parent
#   proc_sim_runners EXERCISE FILE   the simulator's runners of this checkout grading FILE
#   proc_compiling MARK a marked compiler's helper (cc1plus, cicc, cudafe++) runs
#   proc_names PID...   " PID(name)" for each
#   proc_none_left WHAT LISTER...    LISTER (a command that prints pids) prints none within 60 s:
#                       ok, saying how long it took; else bad, naming what is left, and kills it
# Each lister prints one pid a line and returns 1 when it printed none. The caller's
# own shell is never in the list (as pgrep never lists itself).

proc_find() {
	local p words found=1
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		[ "$p" = "$BASHPID" ] && continue
		mapfile -d '' words 2>/dev/null <"/proc/$p/cmdline" || continue
		[ ${#words[@]} -gt 0 ] || continue
		if [[ "${words[*]}" =~ $1 ]]; then
			echo "$p"
			found=0
		fi
	done
	return $found
}

# proc_stat PID: the fields of /proc/PID/stat after the name, in the array proc_fields ([0] the
# state, [1] the parent, [2] the group, [11] and [12] the user and system CPU time in ticks); the name
# in parentheses may hold spaces and parentheses, so the fields start after the last ")"
proc_stat() {
	local stat
	read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
	read -r -a proc_fields <<<"${stat##*) }"
}

# proc_stat_match INDEX VALUE: the processes whose proc_fields[INDEX] is VALUE
proc_stat_match() {
	local p found=1
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		[ "$p" = "$BASHPID" ] && continue
		proc_stat "$p" || continue
		if [ "${proc_fields[$1]}" = "$2" ]; then
			echo "$p"
			found=0
		fi
	done
	return $found
}

proc_children() { proc_stat_match 1 "$1"; }
proc_group() { proc_stat_match 2 "$1"; }

proc_tree() {
	local p
	[ -d "/proc/$1" ] || return 1
	echo "$1"
	for p in $(proc_children "$1"); do
		proc_tree "$p"
	done
	return 0
}

proc_marked() {
	local e found=1
	for e in $(grep -lzx "CUDALINGS_LIFETIME_MARK=$1" /proc/[0-9]*/environ 2>/dev/null); do
		echo "${e//[^0-9]/}"
		found=0
	done
	return $found
}

# the one loading the object built from FILE, found by the #line its rewritten source starts with (other
# tests may grade the same exercise at the same time)
proc_sim_runners() {
	local src
	src=$(grep -lF "\"$2\"" build/sim/sub/"$1"-*/"$1".sim.cpp 2>/dev/null | head -1)
	[ -n "$src" ] && proc_find "runner/$1 .*--student $PWD/${src%/*}/"
}

proc_compiling() {
	local p
	for p in $(proc_marked "$1"); do
		case $(cat "/proc/$p/comm" 2>/dev/null) in cc1plus | cicc | cudafe++) return 0 ;; esac
	done
	return 1
}

proc_names() {
	local p
	for p; do
		printf ' %s(%s)' "$p" "$(cat "/proc/$p/comm" 2>/dev/null)"
	done
}

# the time it took is said, not judged: a busy machine may take seconds, and the bound costs nothing when
# what was killed goes at once
proc_none_left() {
	local what=$1 t0 left
	shift
	t0=$(date +%s%N)
	if wait_until 60 prints_nothing "$@"; then
		ok "$what: nothing left $((($(date +%s%N) - t0) / 1000000)) ms later"
	else
		left=$("$@")
		bad "$what left:$(proc_names $left)"
		kill -9 $left 2>/dev/null
	fi
}
