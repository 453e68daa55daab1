// The application: width, height of the source and of the resampled image from argv; prints
// sampled values the test checks against the programming guide's filtering formula.
#include <vector>

#include "image.cuh"

int main(int argc, char** argv) {
  const int width = argc > 1 ? std::atoi(argv[1]) : 640, height = argc > 2 ? std::atoi(argv[2]) : 480;
  const int ow = argc > 3 ? std::atoi(argv[3]) : 1024, oh = argc > 4 ? std::atoi(argv[4]) : 768;
  std::vector<float> image(width * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) image[y * width + x] = image_value(x, y);

  cudaChannelFormatDesc channel = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  IMG_CHECK(cudaMallocArray(&array, &channel, width, height));
  IMG_CHECK(cudaMemcpy2DToArray(array, 0, 0, image.data(), width * sizeof(float), width * sizeof(float), height,
                                cudaMemcpyHostToDevice));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc desc = {};
  desc.addressMode[0] = cudaAddressModeClamp;
  desc.addressMode[1] = cudaAddressModeClamp;
  desc.filterMode = cudaFilterModeLinear;
  desc.readMode = cudaReadModeElementType;
  desc.normalizedCoords = 1;
  cudaTextureObject_t tex = 0;
  IMG_CHECK(cudaCreateTextureObject(&tex, &res, &desc, nullptr));

  const int n = ow * oh;
  float *d_resampled, *d_difference;
  IMG_CHECK(cudaMalloc(&d_resampled, n * sizeof(float)));
  IMG_CHECK(cudaMalloc(&d_difference, n * sizeof(float)));
  resample(tex, d_resampled, ow, oh);

  cudaResourceDesc lin = {};
  lin.resType = cudaResourceTypeLinear;
  lin.res.linear.devPtr = d_resampled;
  lin.res.linear.desc = channel;
  lin.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc point = {};
  point.readMode = cudaReadModeElementType;
  cudaTextureObject_t line = 0;
  IMG_CHECK(cudaCreateTextureObject(&line, &lin, &point, nullptr));
  mirror_difference(line, d_difference, n);

  // RGBA8 texels, read back as floats in [0, 1]
  const int rw = 64, rh = 32;
  std::vector<uchar4> rgba(rw * rh);
  for (int i = 0; i < rw * rh; ++i)
    rgba[i] = make_uchar4(i % 256, (i * 3) % 256, 255 - i % 256, (i * 7) % 256);
  cudaChannelFormatDesc rgba_channel = cudaCreateChannelDesc<uchar4>();
  cudaArray_t rgba_array;
  IMG_CHECK(cudaMallocArray(&rgba_array, &rgba_channel, rw, rh));
  IMG_CHECK(cudaMemcpy2DToArray(rgba_array, 0, 0, rgba.data(), rw * sizeof(uchar4), rw * sizeof(uchar4), rh,
                                cudaMemcpyHostToDevice));
  cudaResourceDesc rgba_res = {};
  rgba_res.resType = cudaResourceTypeArray;
  rgba_res.res.array.array = rgba_array;
  cudaTextureDesc normalized = {};
  normalized.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t rgba_tex = 0;
  IMG_CHECK(cudaCreateTextureObject(&rgba_tex, &rgba_res, &normalized, nullptr));
  float4* d_rgba;
  IMG_CHECK(cudaMalloc(&d_rgba, rw * rh * sizeof(float4)));
  unpack_rgba(rgba_tex, d_rgba, rw, rh);
  IMG_CHECK(cudaDeviceSynchronize());

  std::vector<float> resampled(n), difference(n);
  std::vector<float4> unpacked(rw * rh);
  IMG_CHECK(cudaMemcpy(resampled.data(), d_resampled, n * sizeof(float), cudaMemcpyDeviceToHost));
  IMG_CHECK(cudaMemcpy(difference.data(), d_difference, n * sizeof(float), cudaMemcpyDeviceToHost));
  IMG_CHECK(cudaMemcpy(unpacked.data(), d_rgba, rw * rh * sizeof(float4), cudaMemcpyDeviceToHost));
  const int picks[][2] = {{0, 0}, {1, 0}, {ow / 3, oh / 5}, {ow / 2, oh / 2}, {ow - 1, oh / 7}, {ow - 1, oh - 1}};
  for (const auto& p : picks)
    std::printf("sample %d %d %.7f\n", p[0], p[1], resampled[p[1] * ow + p[0]]);
  double sum = 0.0, diff_sum = 0.0;
  for (int i = 0; i < n; ++i) {
    sum += resampled[i];
    diff_sum += difference[i];
  }
  std::printf("difference %d %.7f\n", n / 3, difference[n / 3]);
  std::printf("rgba 77 %.7f %.7f %.7f %.7f\n", unpacked[77].x, unpacked[77].y, unpacked[77].z, unpacked[77].w);
  std::printf("sums %.4f %.4f\n", sum, diff_sum);

  IMG_CHECK(cudaDestroyTextureObject(tex));
  IMG_CHECK(cudaDestroyTextureObject(line));
  IMG_CHECK(cudaDestroyTextureObject(rgba_tex));
  IMG_CHECK(cudaFreeArray(array));
  IMG_CHECK(cudaFreeArray(rgba_array));
  IMG_CHECK(cudaFree(d_resampled));
  IMG_CHECK(cudaFree(d_difference));
  IMG_CHECK(cudaFree(d_rgba));
  return 0;
}
