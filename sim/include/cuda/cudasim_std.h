/*
 * libcu++'s cuda::std for the simulator: on the host, where simulated
 * kernels run, the C++ library's own std is the same code, so cuda::std is
 * that namespace under a second name. The headers beside this one
 * (cuda/std/limits, …) include the C++ library's and this.
 */
#ifndef CUDASIM_CUDA_STD_H
#define CUDASIM_CUDA_STD_H

namespace cuda {
namespace std = ::std;
}

#endif
