/*
 * col_sums, gold: the column sums at the rate the memory delivers (the
 * reference reads at about half of it). What the reference leaves on the table:
 *
 * - Launch shape. One thread per column is 16,384 threads for a 16384 × 16384
 *   matrix: 64 blocks of 256 for 132 multiprocessors that hold 2,048 each. Here
 *   the rows are split across blocks too (a 2D grid: slabs of columns × chunks
 *   of rows), about WAVES × 8 blocks per multiprocessor, and the chunks'
 *   partial sums are added into the output with atomicAdd. Many short chunks
 *   rather than one full wave: a multiprocessor that finishes early takes
 *   more, so none idles while the last blocks run.
 * - Vector loads. Where every row starts on a 16-byte boundary (cols a
 *   multiple of 4), a thread owns 4 neighbouring columns and reads them as one
 *   float4: a quarter of the load instructions.
 * - Loads in flight. The loop over the rows reads UNROLL rows before adding
 *   any of them, so each thread has that many loads waiting on memory.
 *
 * A thread's partial sums go through shared memory on the way out, so that a
 * warp's atomicAdds land on 32 neighbouring floats (coalesced), not 4 apart.
 */
#include "cudalings/col_sums.h"

#include <cuda_runtime.h>

#define THREADS 256       // threads per block
#define UNROLL 8          // rows read before the first is added
#define BLOCKS_PER_SM 8   // 8 blocks of 256 fill a multiprocessor's 2,048 threads
#define WAVES 8           // 2, 4 and 8 measured within 2% on an H100; 8 was fastest

// x = the VEC floats at p: one 16-byte load for four (p aligned), one plain load for one
__device__ __forceinline__ void load(const float *p, float (&x)[4])
{
    float4 q = __ldg((const float4 *)p);
    x[0] = q.x;
    x[1] = q.y;
    x[2] = q.z;
    x[3] = q.w;
}

__device__ __forceinline__ void load(const float *p, float (&x)[1])
{
    x[0] = __ldg(p);
}

// Rows [blockIdx.y * chunk, + chunk) of columns [VEC * (blockIdx.x * THREADS + threadIdx.x), + VEC).
template <int VEC>
__global__ void __launch_bounds__(THREADS)
col_sums_chunk(const float *__restrict__ a, float *__restrict__ sums, int rows, int cols, int chunk)
{
    __shared__ float out[VEC * THREADS];
    int first_col = VEC * blockIdx.x * THREADS;
    int col = first_col + VEC * threadIdx.x;
    int r0 = blockIdx.y * chunk;
    int r1 = min(rows, r0 + chunk);

    float s[VEC];
    #pragma unroll
    for (int v = 0; v < VEC; v++)
        s[v] = 0.0f;
    if (col < cols) {
        // VEC == 4 only when cols % 4 == 0: col + 3 < cols, and the float4 is aligned
        size_t stride = (size_t)cols;
        const float *p = a + (size_t)r0 * stride + col;
        int r = r0;
        for (; r + UNROLL <= r1; r += UNROLL, p += UNROLL * stride) {
            float x[UNROLL][VEC];
            #pragma unroll
            for (int u = 0; u < UNROLL; u++)
                load(p + u * stride, x[u]);
            #pragma unroll
            for (int u = 0; u < UNROLL; u++)
                #pragma unroll
                for (int v = 0; v < VEC; v++)
                    s[v] += x[u][v];
        }
        for (; r < r1; r++, p += stride) {
            float x[VEC];
            load(p, x);
            #pragma unroll
            for (int v = 0; v < VEC; v++)
                s[v] += x[v];
        }
    }
    #pragma unroll
    for (int v = 0; v < VEC; v++)
        out[VEC * threadIdx.x + v] = s[v];
    __syncthreads();
    #pragma unroll
    for (int v = 0; v < VEC; v++) {
        int i = v * THREADS + threadIdx.x;
        if (first_col + i < cols)
            atomicAdd(&sums[first_col + i], out[i]);
    }
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    static int sms;
    if (!sms) {
        int device = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (sms < 1)
            sms = 1;
    }
    int vec = cols % 4 == 0 ? 4 : 1;
    int slabs = (cols / vec + THREADS - 1) / THREADS;
    // as many chunks of rows as make WAVES full waves, none of them empty
    int chunks = (WAVES * BLOCKS_PER_SM * sms + slabs - 1) / slabs;
    if (chunks > rows)
        chunks = rows;
    int chunk = (rows + chunks - 1) / chunks;
    chunks = (rows + chunk - 1) / chunk;

    cudaMemsetAsync(sums, 0, (size_t)cols * sizeof(float));
    dim3 grid(slabs, chunks);
    if (vec == 4)
        col_sums_chunk<4><<<grid, THREADS>>>(a, sums, rows, cols, chunk);
    else
        col_sums_chunk<1><<<grid, THREADS>>>(a, sums, rows, cols, chunk);
}
