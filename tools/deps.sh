#!/bin/sh
# What cudalings needs from Debian, installed before anything is compiled, so
# that a missing library is never a raw compiler error.
#   tools/deps.sh build   the grader, the simulator and the workbook
#   tools/deps.sh test    and what the tests use (Criterion, tmux, python3)
#   tools/deps.sh slurm   a single-node Slurm cluster for tests/instructor/slurm.sh
#                         (slurmctld, slurmd, sbatch, munge; make test-long)
#   tools/deps.sh bare    debootstrap, for tests/bare/run.sh (.ci/run)
# As root it runs apt-get, with sudo where that needs no password; where
# neither can, it prints the one command to run and exits 3. Used by
# `make tui`, `make test` and .ci/run.
set -u
want=${1:-build}
# a machine that carries its libraries elsewhere (tests/lib.sh's gpu_build) says so
[ -n "${CUDALINGS_SKIP_DEPS:-}" ] && exit 0
build_packages="build-essential binutils pkg-config libcjson-dev libncurses-dev libmd4c-dev libseccomp-dev"
test_packages="libcriterion-dev tmux python3"
slurm_packages="slurmctld slurmd slurm-client munge"

# a header the compiler cannot find, or a command that is not there, names its package
missing=""
# say each missing package once, however many of its files are missing
note_missing() {
	case " $missing " in *" $1 "*) ;; *) missing="$missing $1" ;; esac
}
probe_header() {
	printf '#include <%s>\n' "$1" | ${CC:-cc} ${CPPFLAGS:-} -E -x c - >/dev/null 2>&1 || note_missing "$2"
}
probe_command() {
	command -v "$1" >/dev/null 2>&1 || note_missing "$2"
}
probe_build() {
	probe_command cc build-essential
	probe_command make build-essential
	probe_command nm binutils
	probe_command objcopy binutils
	probe_command g++ build-essential
	if command -v cc >/dev/null 2>&1; then
		probe_header cjson/cJSON.h libcjson-dev
		probe_header curses.h libncurses-dev
		probe_header md4c.h libmd4c-dev
		probe_header seccomp.h libseccomp-dev
		[ "$want" = test ] && probe_header criterion/criterion.h libcriterion-dev
	fi
	if [ "$want" = test ]; then
		probe_command tmux tmux
		probe_command python3 python3
	fi
}
probe_slurm() {
	probe_command slurmctld slurmctld
	probe_command slurmd slurmd
	probe_command sbatch slurm-client
	probe_command munged munge
}
case $want in
slurm) probe_slurm ;;
bare) probe_command debootstrap debootstrap ;;
*) probe_build ;;
esac
[ -z "$missing" ] && exit 0

# install every package of the set, so a second probe finds nothing missing
packages=$build_packages
[ "$want" = test ] && packages="$packages $test_packages"
[ "$want" = slurm ] && packages=$slurm_packages
[ "$want" = bare ] && packages=debootstrap
echo "cudalings: installing what it needs from Debian:$missing" >&2
if [ "$(id -u)" = 0 ]; then
	run=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	run="sudo"
else
	echo "cudalings needs Debian packages it cannot install without root; run:" >&2
	echo "  sudo apt-get install -y $packages" >&2
	exit 3
fi
export DEBIAN_FRONTEND=noninteractive
if ! { $run apt-get update -qq && $run apt-get install -y -qq $packages >/dev/null; }; then
	echo "cudalings: apt-get could not install them; run:" >&2
	echo "  sudo apt-get install -y $packages" >&2
	exit 3
fi
