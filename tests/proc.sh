# tests/proc.sh — sourced by the test scripts that look for processes: what
# pgrep would say, read from /proc by bash alone, so that a bare Debian root
# (no procps) runs them too and a look costs no fork per process.
#   proc_find REGEX     the processes whose command line, its words joined by
#                       spaces, matches REGEX (extended, as pgrep -f)
#   proc_children PID   the processes whose parent is PID (pgrep -P)
#   proc_group PGID     the processes of process group PGID (pgrep -g)
#   proc_tree PID       PID and every process below it
#   proc_stat PID       the fields of /proc/PID/stat, in the array proc_fields
# Each prints one pid a line and returns 1 when it printed none. The caller's
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
