# tests/bare/root.sh — sourced by the bare-machine tests (run.sh, gradescope.sh):
# a clean Debian bookworm root made by debootstrap --variant=minbase, with
# /proc and /dev mounted and everything removed at exit. It sets $root and
# $work, and `inside COMMAND` runs COMMAND there as root in a bare
# environment (from $bare_cwd, default /). bare_skip_unless_able says why the
# test is skipped (exit 0) without root, the network or debootstrap.
bare_mirror=${BARE_MIRROR:-http://deb.debian.org/debian}
bare_cwd=/

bare_skip() { echo "bare: skipped: $*"; exit 0; }

# bare_limited SCRIPT LABEL: run SCRIPT again under $limit seconds, once, and exit with its status (the
# inner run, with BARE_INNER set, goes on past this call); everything it mounts and makes goes at its end
bare_limited() {
	[ -n "${BARE_INNER:-}" ] && return 0
	export BARE_INNER=1
	local start status
	start=$(date +%s)
	timeout --kill-after=30 "$limit" bash "$1"
	status=$?
	[ "$status" = 124 ] && echo "$2: FAILED: ran past its ${limit} s limit"
	echo "$2: took $(($(date +%s) - start)) s"
	exit "$status"
}

bare_skip_unless_able() {
	[ "$(id -u)" = 0 ] || bare_skip "not root (a chroot and debootstrap need root)"
	local host=${bare_mirror#*://}
	host=${host%%/*}
	timeout 10 bash -c "</dev/tcp/$host/80" 2>/dev/null || bare_skip "no network: $host:80 does not answer"
	if ! command -v debootstrap >/dev/null; then
		sh tools/deps.sh bare >/dev/null 2>&1 || true
		command -v debootstrap >/dev/null || bare_skip "no debootstrap, and tools/deps.sh bare could not install it"
	fi
}

bare_cleanup() {
	local m kept=
	for m in "$root/usr/local/cuda" "$root/dev/pts" "$root/dev" "$root/proc"; do
		if mountpoint -q "$m" 2>/dev/null; then
			umount -l "$m" || kept=$m
		fi
	done
	# a bind mount left in place is the machine's own /dev or CUDA toolkit, which rm would delete through
	if [ -n "$kept" ]; then
		echo "bare: $work is kept: $kept could not be unmounted"
		return
	fi
	rm -rf --one-file-system "$work"
}

# bare_make_root: the root in $work/root; 0, or 1 with debootstrap's last lines printed
bare_make_root() {
	work=$(mktemp -d /tmp/cudalings-bare.XXXXXX)
	root=$work/root
	when_finished bare_cleanup
	trap 'exit 124' TERM
	if ! debootstrap --variant=minbase bookworm "$root" "$bare_mirror" >"$work/debootstrap.log" 2>&1; then
		tail -20 "$work/debootstrap.log"
		return 1
	fi
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	mount -t proc proc "$root/proc"
	mount --bind /dev "$root/dev"
	mount --bind /dev/pts "$root/dev/pts" 2>/dev/null || true
}

inside() {
	chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
		TERM=dumb bash -c "cd $bare_cwd && $1"
}
