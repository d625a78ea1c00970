/*
 * sliding_average, gold: the windowed mean at the rate of a copy, with no
 * shared memory and no barrier.
 *
 * Each thread owns PER groups of 4 neighbouring outputs and loads each
 * group's 4 inputs as one float4 (a warp: 128 floats in 512 contiguous
 * bytes), all of them before the first is used. The window of output
 * 4q + e reaches R = 3 elements either side, inside the float4s of the
 * neighbouring threads: they come from those lanes by warp shuffles. Only
 * the warp's two ends load one more float4 each (its neighbours' elements,
 * which the other warp reads too: the L1 and L2 caches serve the repeat).
 * Past either end of `in` the elements read as 0 and the mean is over the
 * elements that exist, as in the reference.
 */
#include "cudalings/sliding_average.h"

#define R 3 // the radius, at most 4: the window must lie within a thread's neighbours
#define THREADS 256
#define PER 1 // float4s per thread (2 and 4 measured no faster on an H100)

// in[4q .. 4q + 3], with 0 for the elements outside 0 .. n-1
__device__ __forceinline__ float4 load4(const float *__restrict__ in, long long q, int n)
{
    long long i = 4 * q;
    if (i >= 0 && i + 3 < n)
        return __ldg((const float4 *)(in + i)); // 16-byte aligned: cudaMalloc'd, and i is a multiple of 4
    float4 v;
    v.x = i >= 0 && i < n ? in[i] : 0.0f;
    v.y = i + 1 >= 0 && i + 1 < n ? in[i + 1] : 0.0f;
    v.z = i + 2 >= 0 && i + 2 < n ? in[i + 2] : 0.0f;
    v.w = i + 3 >= 0 && i + 3 < n ? in[i + 3] : 0.0f;
    return v;
}

__device__ __forceinline__ float4 shuffle(float4 v, int lane)
{
    v.x = __shfl_sync(0xffffffffu, v.x, lane);
    v.y = __shfl_sync(0xffffffffu, v.y, lane);
    v.z = __shfl_sync(0xffffffffu, v.z, lane);
    v.w = __shfl_sync(0xffffffffu, v.w, lane);
    return v;
}

// The mean of in[i - R .. i + R] ∩ [0, n), given the sum of the elements that exist.
__device__ __forceinline__ float mean(float sum, long long i, int n)
{
    long long first = i - R > 0 ? i - R : 0;
    long long last = i + R < n - 1 ? i + R : n - 1;
    return sum / (float)(last - first + 1);
}

__global__ void __launch_bounds__(THREADS)
sliding_average_float4(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int lane = threadIdx.x & 31;
    // this thread's float4s: PER of them, THREADS apart, so that each warp reads 512 contiguous bytes at a time
    long long first_q = (long long)blockIdx.x * PER * THREADS + threadIdx.x;

    // all the loads first, so that they are in flight together
    float4 mid[PER], edge[PER];
    #pragma unroll
    for (int p = 0; p < PER; p++) {
        long long q = first_q + p * THREADS;
        mid[p] = load4(in, q, n);
        // the warp's two ends need one float4 beyond it: the one before lane 0's, the one after lane 31's
        if (lane == 0 || lane == 31)
            edge[p] = load4(in, lane == 0 ? q - 1 : q + 1, n);
    }

    #pragma unroll
    for (int p = 0; p < PER; p++) {
        long long q = first_q + p * THREADS;
        // every lane takes part in the shuffles, also those past the end
        float4 left = shuffle(mid[p], lane == 0 ? 0 : lane - 1);
        float4 right = shuffle(mid[p], lane == 31 ? 31 : lane + 1);
        if (lane == 0)
            left = edge[p];
        if (lane == 31)
            right = edge[p];

        // w[k] = in[4q - 4 + k]: the neighbouring float4s and this thread's own
        float w[12] = { left.x,   left.y,   left.z,   left.w,   mid[p].x, mid[p].y,
                        mid[p].z, mid[p].w, right.x,  right.y,  right.z,  right.w };
        float o[4];
        #pragma unroll
        for (int e = 0; e < 4; e++) {
            float sum = 0.0f;
            #pragma unroll
            for (int k = -R; k <= R; k++)
                sum += w[4 + e + k];
            o[e] = mean(sum, 4 * q + e, n);
        }

        long long i = 4 * q;
        if (i + 3 < n) {
            *(float4 *)(out + i) = make_float4(o[0], o[1], o[2], o[3]);
        } else {
            #pragma unroll
            for (int e = 0; e < 4; e++)
                if (i + e < n)
                    out[i + e] = o[e];
        }
    }
}

void sliding_average_launch(const float *in, float *out, int n)
{
    long long quads = ((long long)n + 3) / 4;
    long long per_block = (long long)PER * THREADS;
    int blocks = (int)((quads + per_block - 1) / per_block);
    sliding_average_float4<<<blocks, THREADS>>>(in, out, n);
}
