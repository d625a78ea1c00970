// Cooperative groups as a kernel launched with <<< >>> may use them: the
// block, tiles of 4 to 32 threads, coalesced groups (labeled and binary
// partitions of a warp too), any of them as a thread_group, reduce and scans, and
// CUDA 12's reduce_update_async, invoke_one and invoke_one_broadcast. The
// simulator has its own cooperative_groups.h; the same file runs on a GPU,
// so the two must agree on every value checked here.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>

namespace cg = cooperative_groups;

static int failures;

static void
expect(bool ok, const char *what)
{
	if (!ok) {
		printf("FAILED: %s\n", what);
		failures++;
	}
}

// out[t] for t < 96 threads (three warps, the last one partial when blockDim is 80)
__global__ void tiles(int *out)
{
	cg::thread_block block = cg::this_thread_block();
	cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
	cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
	int t = (int)block.thread_rank();

	int warp_sum = cg::reduce(warp, t, cg::plus<int>());
	int eight_max = cg::reduce(eight, t, cg::greater<int>());
	int eight_scan = cg::inclusive_scan(eight, 1);
	int eight_before = cg::exclusive_scan(eight, 2, cg::plus<int>());
	int down = eight.shfl_down(t, 1);	// the last of each tile keeps its own
	int from_first = warp.shfl(t, 0);
	unsigned evens = eight.ballot(t % 2 == 0);
	block.sync();
	out[4 * t + 0] = t < 64 ? warp_sum : -1;
	out[4 * t + 1] = eight_max * 1000 + eight_scan;
	out[4 * t + 2] = eight_before * 1000 + down;
	out[4 * t + 3] = (int)(warp.meta_group_rank() * 100000 + eight.meta_group_rank() * 1000 + from_first % 1000) +
			 (evens == 0x55u ? 0 : 500);
}

__global__ void block_sum(const float *in, float *sum, int n)
{
	__shared__ float partial[32];
	cg::thread_block block = cg::this_thread_block();
	cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
	float v = 0.0f;

	for (int i = (int)block.thread_rank(); i < n; i += (int)block.size())
		v += in[i];
	v = cg::reduce(warp, v, cg::plus<float>());
	if (warp.thread_rank() == 0)
		partial[warp.meta_group_rank()] = v;
	cg::sync(block);
	if (warp.meta_group_rank() == 0) {
		v = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.0f;
		v = cg::reduce(warp, v, cg::plus<float>());
		if (warp.thread_rank() == 0)
			*sum = v;
	}
}

__global__ void coalesced(int *out)
{
	int t = threadIdx.x;
	if (t % 3 == 0) {	// lanes 0, 3, ..., 30: eleven of them
		cg::coalesced_group active = cg::coalesced_threads();
		int total = cg::reduce(active, 1, cg::plus<int>());
		out[t] = (int)active.size() * 10000 + (int)active.thread_rank() * 100 + total;
	} else {
		out[t] = -1;
	}
}

__global__ void partitions(int *out)
{
	cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
	int t = threadIdx.x;
	cg::coalesced_group by_three = cg::labeled_partition(warp, t % 3);
	cg::coalesced_group odd = cg::binary_partition(warp, t % 2 == 1);
	int odds = cg::reduce(odd, 1, cg::plus<int>());
	out[t] = (int)by_three.size() * 10000 + (int)by_three.thread_rank() * 100 + (int)odd.size() + odds;
}

// the cooperative groups blog's reduce_sum: one function for any group, taken as a thread_group
__device__ int group_sum(cg::thread_group g, int *temp, int val)
{
	int lane = (int)g.thread_rank();
	for (int i = (int)g.size() / 2; i > 0; i /= 2) {
		temp[lane] = val;
		g.sync();
		if (lane < i)
			val += temp[lane + i];
		g.sync();
	}
	return val;
}

__global__ void generic_groups(int *out)
{
	__shared__ int temp[64];
	cg::thread_block block = cg::this_thread_block();
	int t = (int)block.thread_rank();
	int whole = group_sum(block, temp, 1);
	block.sync();
	cg::thread_group tile32 = cg::tiled_partition(block, 32);
	int warp = group_sum(tile32, temp + t / 32 * 32, t);
	block.sync();
	cg::thread_block_tile<16> sixteen = cg::tiled_partition<16>(block);
	int part = group_sum(sixteen, temp + t / 16 * 16, 2);
	out[t] = t == 0 ? whole : t % 32 == 0 ? warp : t % 16 == 0 ? part : -1;
}

// CUDA 12's: a warp's sum added by one of its threads into an atomic_ref, a call made by one thread, a
// value one thread computes handed to all, the thread alone as a group
__global__ void cuda12(int *out, float *sum)
{
	cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
	__shared__ int picked[2];
	int t = threadIdx.x;
	cuda::atomic_ref<float, cuda::thread_scope_device> total(*sum);
	cg::reduce_update_async(warp, total, 1.0f, cg::plus<float>());
	cg::invoke_one(warp, [&] { picked[t / 32] = 100 + t / 32; });
	warp.sync();
	int b = cg::invoke_one_broadcast(warp, [&] { return 7; });
	out[t] = picked[t / 32] * 10 + b + (int)cg::this_thread().size();
}

__global__ void dynamic_tiles(int *out)
{
	cg::thread_group four = cg::tiled_partition(cg::this_thread_block(), 4);
	out[threadIdx.x] = (int)(four.thread_rank() * 10 + four.size());
	four.sync();
}

// A launch's error, with the simulator's account of it where there is one.
static void
said(const char *kernel)
{
	cudaError_t e = cudaDeviceSynchronize();

	if (e == cudaSuccess)
		return;
#ifdef __CUDASIM__
	printf("%s: %s\n", kernel, cudasimLastErrorDetail());
#else
	printf("%s: %s\n", kernel, cudaGetErrorString(e));
#endif
}

int main()
{
	int *d, h[4 * 96];
	float *in, *sum, hs = 0, ones[1000];

	cudaMalloc(&d, sizeof(h));
	cudaMemset(d, 0xff, sizeof(h));
	tiles<<<1, 80>>>(d);
	said("tiles");
	cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
	expect(h[4 * 0] == 496 && h[4 * 33] == 32 * 32 + 496, "reduce over a tile of 32");
	expect(h[4 * 9 + 1] == 15 * 1000 + 2, "reduce(greater) and inclusive_scan over tiles of 8");
	expect(h[4 * 10 + 2] == 2 * 2 * 1000 + 11, "exclusive_scan and shfl_down over tiles of 8");
	expect(h[4 * 15 + 2] == 7 * 2 * 1000 + 15, "shfl_down past a tile's end keeps the thread's own value");
	expect(h[4 * 8 + 2] == 0 * 1000 + 9, "exclusive_scan gives rank 0 nothing");
	expect(h[4 * 70 + 3] == 2 * 100000 + 8 * 1000 + 64, "meta_group_rank, shfl from rank 0, ballot of a tile");

	float big[1000];
	for (int i = 0; i < 1000; i++) {
		ones[i] = 1.0f;
		big[i] = (float)i;
	}
	cudaMalloc(&in, sizeof(big));
	cudaMalloc(&sum, sizeof(float));
	cudaMemcpy(in, big, sizeof(big), cudaMemcpyHostToDevice);
	block_sum<<<1, 256>>>(in, sum, 1000);
	said("block_sum");
	cudaMemcpy(&hs, sum, sizeof(float), cudaMemcpyDeviceToHost);
	expect(hs == 499500.0f, "a block's sum through tiles and meta_group_size");
	cudaMemcpy(in, ones, sizeof(ones), cudaMemcpyHostToDevice);
	block_sum<<<1, 96>>>(in, sum, 1000);
	cudaMemcpy(&hs, sum, sizeof(float), cudaMemcpyDeviceToHost);
	expect(hs == 1000.0f, "a block of three warps");

	coalesced<<<1, 32>>>(d);
	said("coalesced");
	cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
	expect(h[0] == 11 * 10000 + 0 + 11 && h[30] == 11 * 10000 + 10 * 100 + 11 && h[1] == -1,
	       "a coalesced group: size, thread_rank and reduce");

	partitions<<<1, 32>>>(d);
	said("partitions");
	cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
	expect(h[0] == 11 * 10000 + 0 + 32 && h[31] == 11 * 10000 + 10 * 100 + 32 && h[29] == 10 * 10000 + 9 * 100 + 32,
	       "labeled_partition and binary_partition of a warp: sizes, ranks, a reduce over the part");

	generic_groups<<<1, 64>>>(d);
	said("generic_groups");
	cudaMemcpy(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost);
	expect(h[0] == 64 && h[32] == (32 + 63) * 32 / 2 && h[16] == 32 && h[48] == 32 && h[1] == -1,
	       "one function over a thread_group: the block, a tile of 32 at run time, a thread_block_tile<16>");

	cudaMemset(sum, 0, sizeof(float));
	cuda12<<<1, 64>>>(d, sum);
	said("cuda12");
	cudaMemcpy(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost);
	cudaMemcpy(&hs, sum, sizeof(float), cudaMemcpyDeviceToHost);
	expect(hs == 64.0f && h[0] == 1000 + 7 + 1 && h[63] == 1010 + 7 + 1,
	       "reduce_update_async, invoke_one, invoke_one_broadcast and this_thread");

	dynamic_tiles<<<1, 32>>>(d);
	said("dynamic_tiles");
	cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
	expect(h[6] == 2 * 10 + 4, "tiled_partition(block, 4) at run time");

	cudaError_t status = cudaDeviceSynchronize();
	expect(status == cudaSuccess, "no error from any launch");
	if (status != cudaSuccess)
		printf("%s\n", cudaGetErrorString(status));
	if (failures)
		return 1;
	printf("ok\n");
	return 0;
}
