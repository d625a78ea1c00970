/*
 * libcu++'s cuda::std for the simulator: on the host, where simulated
 * kernels run, the C++ library's own std is the same code, so cuda::std is
 * that namespace seen through a using-directive. A namespace of its own, not
 * a second name for std, so that <cuda/std/atomic> can add what C++17's std
 * lacks (atomic_ref). The headers beside this one (cuda/std/limits, …)
 * include the C++ library's and this.
 */
#ifndef CUDASIM_CUDA_STD_H
#define CUDASIM_CUDA_STD_H

namespace cuda {
namespace std {
using namespace ::std;
}
}

#endif
