#include <cuda_pipeline.h>
