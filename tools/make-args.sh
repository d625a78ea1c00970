#!/bin/sh
# The Makefile's student and instructor targets, with their variables taken
# from the environment (make exports EX, FILE, BACKEND, AFTER) and quoted:
# a FILE with spaces is one argument, and odd names get a clear message and
# exit 2 rather than being run as shell code.
#   tools/make-args.sh grade|reset|new PROGRAM     tools/make-args.sh gradescope OUT
what=$1 program=$2
name_ok() {
	case $1 in
	'' | [0-9]* | *[!A-Za-z0-9_]*) return 1 ;;
	esac
}
need_ex() {
	if [ -z "${EX:-}" ]; then
		echo "make $what: say which exercise, e.g. make $what EX=$1 (make list shows them)" >&2
		exit 2
	fi
	if ! name_ok "$EX"; then
		echo "make $what: '$EX' is not an exercise's name: letters, digits and _ only (make list shows them)" >&2
		exit 2
	fi
}
case $what in
grade)
	need_ex col_sums
	set -- grade "$EX"
	[ -n "${FILE:-}" ] && set -- "$@" --file "$FILE"
	[ -n "${BACKEND:-}" ] && set -- "$@" --backend "$BACKEND"
	exec "$program" "$@" ;;
reset)
	need_ex transpose
	exec "$program" reset "$EX" ;;
new)
	need_ex reverse
	set -- new "$EX"
	[ -n "${AFTER:-}" ] && set -- "$@" --after "$AFTER"
	exec "$program" "$@" ;;
gradescope)
	need_ex transpose
	exec bash tools/gradescope.sh "$EX" "$program" ;;
*)
	echo "tools/make-args.sh: unknown target '$what'" >&2
	exit 2 ;;
esac
