// 5x5 convolution of a PGM (P2) image with a Gaussian-like mask in constant memory.
// usage: conv2d <image.pgm> [repeat]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define MASK_R 2
#define MASK_W (2 * MASK_R + 1)
#define BX 16
#define BY 8

__constant__ float c_mask[MASK_W * MASK_W];

__global__ void convolve(const unsigned char* in, float* out, int w, int h) {
  __shared__ float tile[BY + 2 * MASK_R][BX + 2 * MASK_R];
  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  // Cooperative load of the tile and its halo, clamped at the image border.
  for (int ty = threadIdx.y; ty < BY + 2 * MASK_R; ty += BY)
    for (int tx = threadIdx.x; tx < BX + 2 * MASK_R; tx += BX) {
      int gx = min(max((int)(blockIdx.x * BX) + tx - MASK_R, 0), w - 1);
      int gy = min(max((int)(blockIdx.y * BY) + ty - MASK_R, 0), h - 1);
      tile[ty][tx] = in[gy * w + gx];
    }
  __syncthreads();
  if (x >= w || y >= h) return;
  float s = 0.0f;
  for (int dy = 0; dy < MASK_W; dy++)
    for (int dx = 0; dx < MASK_W; dx++) s += c_mask[dy * MASK_W + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
  out[y * w + x] = s;
}

static unsigned char* read_pgm(const char* path, int* w, int* h) {
  FILE* f = fopen(path, "r");
  if (!f) return NULL;
  char magic[3] = {0};
  int maxval;
  if (fscanf(f, "%2s %d %d %d", magic, w, h, &maxval) != 4 || strcmp(magic, "P2") != 0) {
    fclose(f);
    return NULL;
  }
  unsigned char* img = (unsigned char*)malloc((size_t)*w * *h);
  for (int i = 0; i < *w * *h; i++) {
    int v;
    if (fscanf(f, "%d", &v) != 1) v = 0;
    img[i] = (unsigned char)v;
  }
  fclose(f);
  return img;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s image.pgm [repeat]\n", argv[0]);
    return 2;
  }
  int repeat = argc > 2 ? atoi(argv[2]) : 3;
  int w, h;
  unsigned char* img = read_pgm(argv[1], &w, &h);
  if (!img) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  float mask[MASK_W * MASK_W];
  float total = 0.0f;
  for (int dy = -MASK_R; dy <= MASK_R; dy++)
    for (int dx = -MASK_R; dx <= MASK_R; dx++) {
      float v = expf(-(dx * dx + dy * dy) / 2.0f);
      mask[(dy + MASK_R) * MASK_W + dx + MASK_R] = v;
      total += v;
    }
  for (int i = 0; i < MASK_W * MASK_W; i++) mask[i] /= total;
  cudaMemcpyToSymbol(c_mask, mask, sizeof(mask));

  unsigned char* d_in;
  float* d_out;
  cudaMalloc(&d_in, w * h);
  cudaMalloc(&d_out, w * h * sizeof(float));
  cudaMemcpy(d_in, img, w * h, cudaMemcpyHostToDevice);
  dim3 block(BX, BY), grid((w + BX - 1) / BX, (h + BY - 1) / BY);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, 0);
  for (int r = 0; r < repeat; r++) convolve<<<grid, block>>>(d_in, d_out, w, h);
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  float ms;
  cudaEventElapsedTime(&ms, start, stop);
  float* out = (float*)malloc(w * h * sizeof(float));
  cudaMemcpy(out, d_out, w * h * sizeof(float), cudaMemcpyDeviceToHost);

  int bad = 0;
  double sum = 0.0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float s = 0.0f;
      for (int dy = -MASK_R; dy <= MASK_R; dy++)
        for (int dx = -MASK_R; dx <= MASK_R; dx++) {
          int gx = x + dx < 0 ? 0 : (x + dx >= w ? w - 1 : x + dx);
          int gy = y + dy < 0 ? 0 : (y + dy >= h ? h - 1 : y + dy);
          s += mask[(dy + MASK_R) * MASK_W + dx + MASK_R] * img[gy * w + gx];
        }
      if (fabsf(s - out[y * w + x]) > 1e-3f) bad++;
      sum += out[y * w + x];
    }
  double gbps = (double)repeat * w * h * (1 + sizeof(float)) / (ms * 1e6);
  printf("image %dx%d\n", w, h);
  printf("out(0,0)=%.4f out(w/2,h/2)=%.4f mean=%.4f\n", out[0], out[(h / 2) * w + w / 2], sum / (w * h));
  printf("Effective bandwidth %.3f GB/s\n", gbps);
  printf("%d pixels differ: %s\n", bad, bad ? "FAILED" : "PASSED");
  free(out);
  free(img);
  cudaFree(d_in);
  cudaFree(d_out);
  return bad ? 1 : 0;
}
