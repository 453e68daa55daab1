"""Large synthetic CUDA sources for benchmarks (generated, so no third-party code is involved)."""

from __future__ import annotations

KERNEL = """
__global__ void scale_{i}(float* __restrict__ x, const float* __restrict__ y, float a, int n) {{
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? y[i] : 0.0f;
  __syncthreads();
  float v = tile[threadIdx.x] * a;
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
  if (i < n) x[i] = v;
}}

void launch_{i}(float* x, const float* y, int n, cudaStream_t stream) {{
  float* tmp;
  cudaMalloc(&tmp, n * sizeof(float));
  cudaMemcpyAsync(tmp, y, n * sizeof(float), cudaMemcpyDeviceToDevice, stream);
  scale_{i}<<<(n + 255) / 256, 256, 0, stream>>>(x, tmp, 2.0f, n);
  cudaStreamSynchronize(stream);
  cudaFree(tmp);
}}
"""


def cuda_source(lines: int) -> str:
    header = "#include <cuda_runtime.h>\n#include <cstdio>\n"
    chunks = [header]
    count = header.count("\n")
    i = 0
    while count < lines:
        chunk = KERNEL.format(i=i)
        chunks.append(chunk)
        count += chunk.count("\n")
        i += 1
    return "".join(chunks)
