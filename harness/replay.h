/*
 * The measuring process's side of the launch plans (harness/replay.cpp, GPU
 * only): the submission's device code loaded as data, and each case's plan
 * replayed in place of its launcher, which this process never loads.
 */
#ifndef CUDALINGS_REPLAY_H
#define CUDALINGS_REPLAY_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "harness/cases.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Load cfg->device_code (the submission's fatbinary) and cfg->plans (the
 * plans the grader checked), and check every plan again against that code:
 * each kernel and symbol it names exists, each launch's arguments are laid
 * out as the kernel's. 0, or -1 with *why.
 */
int replay_open(const struct run_config *cfg, char *why, size_t why_size);

/* Whether case `index` has a plan (the capture stops at a case whose launch lost the GPU). */
int replay_has(int index);

/* Replay case `index`'s plan on `dev`, the case's buffers in the launcher's order: its first error. */
cudaError_t replay_case(int index, void *const *dev);

#ifdef __cplusplus
}
#endif
#endif
