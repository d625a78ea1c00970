// exercise: sliding_average
// expect: pass
// message: cases correct
// Legitimate and fast without shared memory: each warp loads 32 elements plus
// a halo of 3 on each side into registers (lanes 0-5 fetch one extra each),
// and the window's neighbours come from the other lanes by warp shuffles.
#include "cudalings/sliding_average.h"

#define R 3

__device__ float load_or_zero(const float *in, long long i, int n)
{
    return i >= 0 && i < n ? in[i] : 0.0f;
}

__global__ void sliding_average_shuffles(const float *in, float *out, int n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    long long warp_start = i - lane;

    float mine = load_or_zero(in, i, n);
    // lanes 0-2 fetch the three left of the warp, lanes 3-5 the three right of it
    float extra = 0.0f;
    if (lane < R)
        extra = load_or_zero(in, warp_start - R + lane, n);
    else if (lane < 2 * R)
        extra = load_or_zero(in, warp_start + 32 + lane - R, n);

    float sum = mine;
    for (int d = 1; d <= R; d++) {
        float left = __shfl_up_sync(0xffffffffu, mine, d);
        float right = __shfl_down_sync(0xffffffffu, mine, d);
        // past the warp's edge: the halo value that lane (R - d + lane) or (R + lane + d - 32) fetched
        float left_halo = __shfl_sync(0xffffffffu, extra, R - d + lane);
        float right_halo = __shfl_sync(0xffffffffu, extra, R + lane + d - 32);
        sum += (lane >= d ? left : left_halo) + (lane + d < 32 ? right : right_halo);
    }
    if (i < n) {
        long long first = i - R < 0 ? 0 : i - R, last = i + R >= n ? n - 1 : i + R;
        out[i] = sum / (float)(last - first + 1);   // the window is cut off at the ends
    }
}

void sliding_average_launch(const float *in, float *out, int n)
{
    int threads = 256;
    sliding_average_shuffles<<<(n + threads - 1) / threads, threads>>>(in, out, n);
}
