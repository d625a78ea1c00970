/*
 * toolchain: the compilers a grading needs, found — nvcc and the CUDA
 * toolkit's programs and headers beside it, the GPU's architecture, the
 * simulator's built tools.
 */
#include "grader/compile/toolchain.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/run.h"
#include "lib/util.h"
#include "common/root.h"
/* where builds go (harness/runner.mk) */
#include "grader/runner_mk.h"

const char *
toolchain_nvcc(void)
{
	static const char *nvcc;
	static bool looked;
	if (looked)
		return nvcc;
	looked = true;
	const char *env = getenv("CUDALINGS_NVCC");
	if (env && *env)
		return nvcc = env;
	nvcc = path_search("nvcc");
	if (!nvcc && access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
		nvcc = "/usr/local/cuda/bin/nvcc";
	return nvcc;
}

char *
toolchain_cuda_tool(const char *name)
{
	const char *nvcc = toolchain_nvcc();
	const char *slash = nvcc ? strrchr(nvcc, '/') : NULL;
	char *path = slash ? xasprintf("%.*s/%s", (int)(slash - nvcc), nvcc, name) : NULL;
	if (path && access(path, X_OK) == 0)
		return path;
	free(path);
	return NULL;
}

/*
 * The GPU's architecture, as nvcc's -arch=native would find it, but asked
 * here: nvcc asks the driver from inside the compile, whose address-space
 * limit the driver does not load under, and then compiles for its default
 * (sm_75) with only a warning, so sm_80's instructions (__reduce_add_sync,
 * cp.async) are missing and the kernel is JIT-compiled at every load.
 */
const char *
toolchain_arch(void)
{
	static char arch[32];
	const char *env = getenv("CUDALINGS_ARCH");
	if (env && *env)
		return env;
	if (!arch[0]) {
		char *query = toolchain_cuda_tool("__nvcc_device_query");
		char *argv[] = { query, NULL };
		struct buf out = BUF_INIT;
		unsigned cc = 0;
		/* "90", or "90,80" with several GPUs: the first is the one the runner opens */
		if (query && run_command(argv, workbook_root(), 30, &out) && sscanf(out.data, "%u", &cc) == 1 &&
		    cc >= 50)
			snprintf(arch, sizeof(arch), "sm_%u", cc);
		else
			snprintf(arch, sizeof(arch), "native");
		buf_free(&out);
		free(query);
	}
	return arch;
}

bool
toolchain_sim_ready(void)
{
	const char *parts[] = { SIM_LIB, SIM_REWRITE, SIM_DYNLIST };
	bool ok = true;
	for (size_t i = 0; i < ARRAY_SIZE(parts) && ok; i++) {
		char *path = root_path(parts[i]);
		ok = file_exists(path);
		free(path);
	}
	return ok;
}

/* -I for the CUDA toolkit's headers, beside nvcc: host C++ that calls the runtime or the driver (you own it). */
char *
toolchain_cuda_include(void)
{
	char *nvcc = xstrdup(toolchain_nvcc() ? toolchain_nvcc() : "nvcc"), *bin = strrchr(nvcc, '/');
	if (bin)
		*bin = 0;
	char *include = xasprintf("-I%s/../include", bin ? nvcc : ".");
	free(nvcc);
	return include;
}

bool
toolchain_gpu_present(void)
{
	const char *visible = getenv("CUDA_VISIBLE_DEVICES");
	if (visible && (!*visible || !strcmp(visible, "-1")))
		return false;
	if (file_exists("/dev/nvidia0") || file_exists("/dev/nvidiactl"))
		return true;
	DIR *d = opendir("/proc/driver/nvidia/gpus");
	bool any = false;
	for (struct dirent *entry; d && (entry = readdir(d));)
		any |= entry->d_name[0] != '.';
	if (d)
		closedir(d);
	return any;
}
