# Sourced by the scripts that run on a GPU machine, from the repository's root.
#
# Such a machine may lack Debian's cJSON and have no package registry. Carry
# a copy unpacked from Debian's packages in .gpu/ (ignored by git):
#   mkdir -p .gpu && cd .gpu && apt-get download libcjson1 libcjson-dev &&
#   for f in *.deb; do dpkg -x "$f" root; done
# gpu_build TARGETS… builds with it when it is there, with the system's otherwise.
export CUDALINGS_ROOT=$PWD
# the libraries come from .gpu/ below, not from a package registry the machine cannot reach
export CUDALINGS_SKIP_DEPS=1
gpu_build() {
	local extra=()
	if [ -d .gpu/root/usr/include/cjson ]; then
		export LD_LIBRARY_PATH=$PWD/.gpu/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
		extra=(CPPFLAGS="-I.gpu/root/usr/include"
			LDFLAGS="-L.gpu/root/usr/lib/x86_64-linux-gnu")
	fi
	make -s -j"$(nproc)" "${extra[@]}" "$@"
}
