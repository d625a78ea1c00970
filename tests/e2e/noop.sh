#!/usr/bin/env bash
# A built tree is a no-op for make: after make test's build, `make -q` exits 0 and `make` has nothing
# to do, so nothing runs when nothing changed: not tools/deps.sh (a stamp says it was done), not the
# built grader (prepare is a stamp with its prerequisites), not a phony target that all waits on.
# It only asks (make -q, make -n): it never builds.
# In the repo, as make test leaves it; make's own flags from make test are not passed on.
set -u
cd "$(dirname "$0")/../.."
unset MAKEFLAGS MAKELEVEL MFLAGS
source tests/lib.sh

make -q all
status=$?
if [ "$status" = 0 ]; then
	ok "make -q exits 0 on a built tree"
else
	bad "make -q exits $status on a built tree; make -n would run:"
	make -n all 2>&1 | head -10
fi
out=$(make -n all 2>&1)
[ "$out" = "make: Nothing to be done for 'all'." ] && ok "make -n: nothing to be done" ||
	bad "make -n on a built tree would run: $(head -5 <<<"$out")"
make -q build/prepared.stamp && ok "prepare's stamp is up to date after make test's build" ||
	bad "make -q build/prepared.stamp exits $?: make tui would run the grader's prepare again"
finish noop
