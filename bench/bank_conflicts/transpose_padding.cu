// Which bank conflicts matter: the tiled transpose of 4096 x 4096 floats with
// a tile of 32 x (32 + PAD) floats, PAD = 0, 1, 2, 4, 8, 16. A warp reading a
// column of the tile wants 32 words (32 + PAD) apart: gcd(32 + PAD, 32) of
// them in each bank, so PAD 0 is a 32-way conflict, 1 none, 2 two-way, and so
// on. Each kernel is timed from a cold L2 (a 256 MiB memset before each
// launch), median of 51 launches, in one run. Prints a markdown table.
// Build and run: bench/bank_conflicts/run.sh (on a GPU machine).
#include <algorithm>
#include <cstdio>
#include <vector>

#define N 4096
#define TILE 32

template <int PAD>
__global__ void transpose_padded(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[(size_t)y * N + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[(size_t)y * N + x] = tile[threadIdx.x][threadIdx.y];
}

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

template <int PAD>
static double time_padding(const float *in, float *out, void *flush, size_t flush_bytes)
{
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    std::vector<float> ms;
    dim3 block(TILE, TILE), grid(N / TILE, N / TILE);
    for (int i = 0; i < 56; i++) {
        cudaMemsetAsync(flush, i & 0xff, flush_bytes);
        cudaEventRecord(start);
        transpose_padded<PAD><<<grid, block>>>(in, out);
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float t = 0;
        cudaEventElapsedTime(&t, start, stop);
        if (i >= 5)
            ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms[ms.size() / 2] * 1000.0;
}

// Every element in its place: a wrong kernel's time would mean nothing.
static bool transposed(const float *d_out)
{
    std::vector<float> h((size_t)N * N);
    cudaMemcpy(h.data(), d_out, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
    for (size_t r = 0; r < N; r += 97)
        for (size_t c = 0; c < N; c += 89)
            if (h[c * N + r] != (float)(r * N + c))
                return false;
    return true;
}

int main()
{
    std::vector<float> h((size_t)N * N);
    for (size_t i = 0; i < h.size(); i++)
        h[i] = (float)i;
    float *in, *out;
    void *flush;
    size_t bytes = h.size() * sizeof(float), flush_bytes = (size_t)256 << 20;
    if (cudaMalloc(&in, bytes) || cudaMalloc(&out, bytes) || cudaMalloc(&flush, flush_bytes)) {
        fprintf(stderr, "transpose_padding: cannot allocate on the GPU\n");
        return 3;
    }
    cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice);
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    const int pads[] = { 0, 1, 2, 4, 8, 16 };
    double us[6];
    bool ok = true;
    us[0] = time_padding<0>(in, out, flush, flush_bytes); ok &= transposed(out);
    us[1] = time_padding<1>(in, out, flush, flush_bytes); ok &= transposed(out);
    us[2] = time_padding<2>(in, out, flush, flush_bytes); ok &= transposed(out);
    us[3] = time_padding<4>(in, out, flush, flush_bytes); ok &= transposed(out);
    us[4] = time_padding<8>(in, out, flush, flush_bytes); ok &= transposed(out);
    us[5] = time_padding<16>(in, out, flush, flush_bytes); ok &= transposed(out);
    if (!ok || cudaGetLastError() != cudaSuccess) {
        fprintf(stderr, "transpose_padding: a kernel gave a wrong result or failed\n");
        return 1;
    }
    printf("| tile | words per row | conflict on a column read | median µs | × conflict-free | GB/s |\n");
    printf("|---|---:|---|---:|---:|---:|\n");
    for (int i = 0; i < 6; i++) {
        int way = gcd(TILE + pads[i], TILE);
        char degree[32];
        snprintf(degree, sizeof(degree), way == 1 ? "none" : "%d-way", way);
        printf("| `[32][%d]` | %d | %s | %.1f | %.2f | %.0f |\n", TILE + pads[i], TILE + pads[i], degree, us[i],
               us[i] / us[1], 2.0 * bytes / (us[i] * 1e3));
    }
    printf("\n%s, %d SMs; 4096 x 4096 floats, blocks of 32 x 32, median of 51 launches from a cold L2.\n",
           p.name, p.multiProcessorCount);
    return 0;
}
