/* Opening the GPU before the sandbox's filter (harness/gpu_open.cu, GPU only). */
#ifndef CUDALINGS_GPU_OPEN_H
#define CUDALINGS_GPU_OPEN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Open the context and what the driver opens at a first launch, copy, event and pooled allocation. */
void gpu_open_before_filter(void);

#ifdef __cplusplus
}
#endif
#endif
