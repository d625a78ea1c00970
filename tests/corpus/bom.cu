// Valid CUDA that begins with a UTF-8 byte-order mark, as some editors save it.
#include <cstdio>

__global__ void set(int *out)
{
	out[threadIdx.x] = (int)threadIdx.x * 2;
}

int main()
{
	int *d, h[8];

	cudaMalloc(&d, sizeof(h));
	set<<<1, 8>>>(d);
	cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
	cudaFree(d);
	for (int i = 0; i < 8; i++)
		if (h[i] != 2 * i) {
			printf("bom.cu: h[%d] = %d\n", i, h[i]);
			return 1;
		}
	printf("ok\n");
	return 0;
}
