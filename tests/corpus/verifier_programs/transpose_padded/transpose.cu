// Matrix transpose: naive vs shared-memory tile padded against bank conflicts.
// Built with -DTILE_DIM=32 -DBLOCK_ROWS=8 (see compile_commands.json).
#include <cstdio>
#include <cstdlib>

#if !defined(TILE_DIM) || !defined(BLOCK_ROWS)
#error "TILE_DIM and BLOCK_ROWS must be defined on the command line"
#endif

static_assert(TILE_DIM % BLOCK_ROWS == 0, "TILE_DIM must be a multiple of BLOCK_ROWS");

#define checkCuda(result)                                                  \
  do {                                                                     \
    if ((result) != cudaSuccess) {                                         \
      fprintf(stderr, "CUDA Runtime Error: %s\n", cudaGetErrorString(result)); \
      exit(1);                                                             \
    }                                                                      \
  } while (0)

__global__ void transpose_naive(float* odata, const float* idata, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height) odata[x * height + (y + j)] = idata[(y + j) * width + x];
}

__global__ void transpose_tiled(float* odata, const float* idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < height && y + j < width) odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char** argv) {
  const int width = argc > 1 ? atoi(argv[1]) : 200;
  const int height = argc > 2 ? atoi(argv[2]) : 150;
  const size_t bytes = (size_t)width * height * sizeof(float);
  float* h_in = (float*)malloc(bytes);
  float* h_out = (float*)malloc(bytes);
  for (int i = 0; i < width * height; i++) h_in[i] = (float)(i % 1000) + 0.5f * (i / 1000);
  float *d_in, *d_out;
  checkCuda(cudaMalloc(&d_in, bytes));
  checkCuda(cudaMalloc(&d_out, bytes));
  checkCuda(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
  dim3 grid((width + TILE_DIM - 1) / TILE_DIM, (height + TILE_DIM - 1) / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
  cudaEvent_t start, stop;
  checkCuda(cudaEventCreate(&start));
  checkCuda(cudaEventCreate(&stop));

  printf("%dx%d matrix, tile %d, block rows %d\n", width, height, TILE_DIM, BLOCK_ROWS);
  printf("%-20s%-24s%s\n", "Routine", "Bandwidth (GB/s)", "Result");
  int failures = 0;
  for (int k = 0; k < 2; k++) {
    checkCuda(cudaMemset(d_out, 0, bytes));
    checkCuda(cudaEventRecord(start, 0));
    if (k == 0) transpose_naive<<<grid, block>>>(d_out, d_in, width, height);
    else transpose_tiled<<<grid, block>>>(d_out, d_in, width, height);
    checkCuda(cudaEventRecord(stop, 0));
    checkCuda(cudaEventSynchronize(stop));
    float ms;
    checkCuda(cudaEventElapsedTime(&ms, start, stop));
    checkCuda(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int y = 0; y < height && ok; y++)
      for (int x = 0; x < width; x++)
        if (h_out[x * height + y] != h_in[y * width + x]) {
          ok = false;
          break;
        }
    failures += !ok;
    printf("%-20s%-24.2f%s\n", k == 0 ? "naive transpose" : "tiled transpose", 2 * bytes * 1e-6 / ms,
           ok ? "ok" : "*** FAILED ***");
  }
  printf("out[1] = %.1f, out[last] = %.1f\n", h_out[1], h_out[width * height - 1]);
  checkCuda(cudaFree(d_in));
  checkCuda(cudaFree(d_out));
  free(h_in);
  free(h_out);
  return failures;
}
