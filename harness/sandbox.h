/*
 * The runner's sandbox (harness/sandbox.c): a system-call filter entered
 * before the submission is loaded, and the loading itself.
 */
#ifndef CUDALINGS_SANDBOX_H
#define CUDALINGS_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MSG_REFUSED's aux: when the submission was stopped. */
enum sandbox_when {
	SANDBOX_LOAD = 1, /* it could not be loaded: a symbol it may not reach */
	SANDBOX_RUN = 2,  /* it made a system call it may not make */
};

/*
 * Install the filter; from here on a refused call sends MSG_REFUSED on
 * channel_fd and ends the process. The simulator also refuses new threads.
 * Under the GPU's tools (which talk to their host and write files from
 * inside the runner) only new processes and other processes' memory are
 * refused. Returns 0, or -1 when the kernel would not take the filter.
 */
int sandbox_enter(int channel_fd, bool simulator, bool under_tool);

/*
 * dlopen the student's shared object and find its launcher, then (on the
 * simulator) refuse executable memory for the rest of the run. NULL with
 * *why filled when it cannot be loaded.
 */
const void *sandbox_load(const char *path, const char *launcher, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif
#endif
