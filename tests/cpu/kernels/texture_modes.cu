// Texture and surface objects in each mode the CPU runtime emulates, one kernel reading them all;
// tests/cpu/test_textures.py checks every printed value against the programming guide's formulas.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      std::printf("error %s at line %d\n", cudaGetErrorString(e_), __LINE__);         \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

constexpr int kW = 4, kH = 3;
constexpr float kU[] = {-0.3f, 0.05f, 0.1f, 0.6f, 1.2f, 1.7f, 2.6f};
constexpr int kNU = sizeof(kU) / sizeof(kU[0]);

// out[mode * kNU + i]: the point-sampled row 1 at kU[i] for wrap, clamp, mirror, border; then the
// same with linear filtering; then the other fetches, one each.
__global__ void sample(const cudaTextureObject_t* point, const cudaTextureObject_t* linear, cudaTextureObject_t pitched,
                       cudaTextureObject_t volume, cudaTextureObject_t snorm, cudaTextureObject_t layered,
                       cudaTextureObject_t line, cudaSurfaceObject_t surface, float* out, int* ints) {
  int i = threadIdx.x;
  float v = 1.5f / kH;
  for (int mode = 0; mode < 4; ++mode) {
    if (i < kNU) out[mode * kNU + i] = tex2D<float>(point[mode], kU[i], v);
    if (i < kNU) out[(4 + mode) * kNU + i] = tex2D<float>(linear[mode], kU[i], v);
  }
  if (i == 0) {
    int first = 8 * kNU;
    out[first] = tex3D<float>(volume, 1.25f, 0.75f, 0.6f);
    float2 s = tex2D<float2>(snorm, 0.5f, 0.5f);
    out[first + 1] = s.x;
    out[first + 2] = s.y;
    out[first + 3] = tex2DLayered<float>(layered, 0.5f, 1.5f, 2);
    out[first + 4] = tex1D<float>(line, 2.3f);
    ints[0] = tex2D<int>(pitched, 2.5f, 1.5f);
    ints[1] = tex2D<int>(pitched, 9.0f, -3.0f);  // clamped to (kW - 1, 0)
    surf2Dwrite(ints[0] * 3, surface, 1 * sizeof(int), 2);
    ints[2] = surf2Dread<int>(surface, 1 * sizeof(int), 2);
    ints[3] = surf2Dread<int>(surface, -4 * (int)sizeof(int), 2, cudaBoundaryModeClamp);  // (0, 2)
    ints[4] = surf2Dread<int>(surface, 40 * (int)sizeof(int), 0, cudaBoundaryModeZero);
  }
}

static cudaTextureObject_t texture(cudaArray_t array, cudaTextureAddressMode mode, cudaTextureFilterMode filter,
                                   cudaTextureReadMode read, int normalized) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc desc = {};
  for (auto& m : desc.addressMode) m = mode;
  desc.filterMode = filter;
  desc.readMode = read;
  desc.normalizedCoords = normalized;
  desc.borderColor[0] = 0.5f;
  cudaTextureObject_t tex = 0;
  cudaCreateTextureObject(&tex, &res, &desc, nullptr);
  return tex;
}

int main() {
  float image[kH][kW];
  int grid[kH][kW];
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      image[y][x] = x + 10.0f * y;
      grid[y][x] = 100 * y + x;
    }
  cudaChannelFormatDesc f32 = cudaCreateChannelDesc<float>(), i32 = cudaCreateChannelDesc<int>();
  cudaArray_t array, ints_array, volume_array, snorm_array, layered_array, line_array;
  CHECK(cudaMallocArray(&array, &f32, kW, kH));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, image, sizeof(image[0]), sizeof(image[0]), kH, cudaMemcpyHostToDevice));
  const cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror,
                                           cudaAddressModeBorder};
  cudaTextureObject_t point[4], linear[4];
  for (int m = 0; m < 4; ++m) {
    point[m] = texture(array, modes[m], cudaFilterModePoint, cudaReadModeElementType, 1);
    linear[m] = texture(array, modes[m], cudaFilterModeLinear, cudaReadModeElementType, 1);
  }
  cudaTextureObject_t *d_point, *d_linear;
  CHECK(cudaMalloc(&d_point, sizeof(point)));
  CHECK(cudaMalloc(&d_linear, sizeof(linear)));
  CHECK(cudaMemcpy(d_point, point, sizeof(point), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_linear, linear, sizeof(linear), cudaMemcpyHostToDevice));

  // pitched int memory, read at texel centers
  int* pitched_ints;
  size_t pitch;
  CHECK(cudaMallocPitch(&pitched_ints, &pitch, kW * sizeof(int), kH));
  CHECK(cudaMemcpy2D(pitched_ints, pitch, grid, sizeof(grid[0]), sizeof(grid[0]), kH, cudaMemcpyHostToDevice));
  cudaResourceDesc pitched_res = {};
  pitched_res.resType = cudaResourceTypePitch2D;
  pitched_res.res.pitch2D.devPtr = pitched_ints;
  pitched_res.res.pitch2D.desc = i32;
  pitched_res.res.pitch2D.width = kW;
  pitched_res.res.pitch2D.height = kH;
  pitched_res.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc clamp_point = {};
  cudaTextureObject_t pitched = 0;
  CHECK(cudaCreateTextureObject(&pitched, &pitched_res, &clamp_point, nullptr));

  // a 3x3x2 volume v(x, y, z) = x + 3y + 9z, copied with cudaMemcpy3D
  float volume[2][3][3];
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x) volume[z][y][x] = x + 3.0f * y + 9.0f * z;
  CHECK(cudaMalloc3DArray(&volume_array, &f32, make_cudaExtent(3, 3, 2)));
  cudaMemcpy3DParms copy = {};
  copy.srcPtr = make_cudaPitchedPtr(volume, 3 * sizeof(float), 3, 3);
  copy.dstArray = volume_array;
  copy.extent = make_cudaExtent(3, 3, 2);
  copy.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&copy));
  cudaTextureObject_t vol = texture(volume_array, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);

  // signed 16-bit pairs read as normalized floats
  cudaChannelFormatDesc s16x2 = cudaCreateChannelDesc<short2>();
  short2 pair = make_short2(-32768, 16384);
  CHECK(cudaMallocArray(&snorm_array, &s16x2, 1, 1));
  CHECK(cudaMemcpy2DToArray(snorm_array, 0, 0, &pair, sizeof(pair), sizeof(pair), 1, cudaMemcpyHostToDevice));
  cudaTextureObject_t snorm = texture(snorm_array, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);

  // three 2x2 layers, layer l holding 100 l + index
  float layers[3][2][2];
  for (int l = 0; l < 3; ++l)
    for (int k = 0; k < 4; ++k) layers[l][k / 2][k % 2] = 100.0f * l + k;
  CHECK(cudaMalloc3DArray(&layered_array, &f32, make_cudaExtent(2, 2, 3), cudaArrayLayered));
  copy = {};
  copy.srcPtr = make_cudaPitchedPtr(layers, 2 * sizeof(float), 2, 2);
  copy.dstArray = layered_array;
  copy.extent = make_cudaExtent(2, 2, 3);
  copy.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&copy));
  cudaTextureObject_t layered = texture(layered_array, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);

  // a 1-D array of squares, filtered
  float squares[5] = {0.0f, 1.0f, 4.0f, 9.0f, 16.0f};
  CHECK(cudaMallocArray(&line_array, &f32, 5));
  CHECK(cudaMemcpyToArray(line_array, 0, 0, squares, sizeof(squares), cudaMemcpyHostToDevice));
  cudaTextureObject_t line = texture(line_array, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);

  // a surface over an int array holding the grid
  CHECK(cudaMallocArray(&ints_array, &i32, kW, kH, cudaArraySurfaceLoadStore));
  CHECK(cudaMemcpy2DToArray(ints_array, 0, 0, grid, sizeof(grid[0]), sizeof(grid[0]), kH, cudaMemcpyHostToDevice));
  cudaResourceDesc surface_res = {};
  surface_res.resType = cudaResourceTypeArray;
  surface_res.res.array.array = ints_array;
  cudaSurfaceObject_t surface = 0;
  CHECK(cudaCreateSurfaceObject(&surface, &surface_res));

  float* d_out;
  int* d_ints;
  const int n = 8 * kNU + 5;
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMalloc(&d_ints, 5 * sizeof(int)));
  sample<<<1, 32>>>(d_point, d_linear, pitched, vol, snorm, layered, line, surface, d_out, d_ints);
  CHECK(cudaDeviceSynchronize());
  float out[n];
  int ints[5];
  CHECK(cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ints, d_ints, sizeof(ints), cudaMemcpyDeviceToHost));
  int back[kH][kW];
  CHECK(cudaMemcpy2DFromArray(back, sizeof(back[0]), ints_array, 0, 0, sizeof(back[0]), kH, cudaMemcpyDeviceToHost));
  const char* names[8] = {"point-wrap", "point-clamp", "point-mirror", "point-border",
                          "linear-wrap", "linear-clamp", "linear-mirror", "linear-border"};
  for (int m = 0; m < 8; ++m) {
    std::printf("%s", names[m]);
    for (int i = 0; i < kNU; ++i) std::printf(" %.7f", out[m * kNU + i]);
    std::printf("\n");
  }
  std::printf("tex3D %.7f\nsnorm %.7f %.7f\nlayered %.7f\ntex1D %.7f\n", out[8 * kNU], out[8 * kNU + 1],
              out[8 * kNU + 2], out[8 * kNU + 3], out[8 * kNU + 4]);
  std::printf("ints %d %d %d %d %d %d\n", ints[0], ints[1], ints[2], ints[3], ints[4], back[2][1]);
  for (int m = 0; m < 4; ++m) {
    CHECK(cudaDestroyTextureObject(point[m]));
    CHECK(cudaDestroyTextureObject(linear[m]));
  }
  CHECK(cudaDestroySurfaceObject(surface));
  for (cudaArray_t a : {array, ints_array, volume_array, snorm_array, layered_array, line_array}) CHECK(cudaFreeArray(a));
  return 0;
}
