// stats N [SEED]: statistics of N pseudo-random samples in [0, 1000), computed with Thrust.
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include "samples.cuh"

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : (1 << 20);
  unsigned seed = argc > 2 ? static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10)) : 12345u;
  if (n < 8) {
    std::fprintf(stderr, "usage: %s N [SEED] (N >= 8)\n", argv[0]);
    return 2;
  }
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));

  thrust::device_vector<int> samples(n);
  make_samples(thrust::raw_pointer_cast(samples.data()), n, seed, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));

  long long sum = thrust::reduce(thrust::device, samples.begin(), samples.end(), 0LL);
  long long squares = thrust::transform_reduce(samples.begin(), samples.end(), Square(), 0LL, thrust::plus<long long>());
  long long high = thrust::count_if(samples.begin(), samples.end(), AtLeast{SAMPLE_RANGE / 2});
  std::printf("n %d sum %lld squares %lld high %lld\n", n, sum, squares, high);

  // order statistics: sort a copy by value, carrying each sample's index
  thrust::device_vector<int> sorted = samples;
  thrust::device_vector<int> index(n);
  thrust::sequence(index.begin(), index.end());
  thrust::stable_sort_by_key(sorted.begin(), sorted.end(), index.begin());
  thrust::host_vector<int> first_index(index.begin(), index.begin() + 4);
  int edges[4];
  CUDA_CHECK(cudaMemcpy(edges, thrust::raw_pointer_cast(sorted.data()), 2 * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(edges + 2, thrust::raw_pointer_cast(sorted.data()) + n - 2, 2 * sizeof(int),
                        cudaMemcpyDeviceToHost));
  std::printf("min %d %d max %d %d median %d\n", edges[0], edges[1], edges[2], edges[3], static_cast<int>(sorted[n / 2]));
  std::printf("first index %d %d %d %d\n", first_index[0], first_index[1], first_index[2], first_index[3]);
  thrust::device_vector<int> starts(n);
  mark_run_starts(thrust::raw_pointer_cast(sorted.data()), thrust::raw_pointer_cast(starts.data()), n, stream);
  std::printf("distinct %d\n", thrust::reduce(thrust::cuda::par.on(stream), starts.begin(), starts.end(), 0));

  thrust::device_vector<int> descending = samples;
  thrust::sort(thrust::cuda::par.on(stream), descending.begin(), descending.end(), thrust::greater<int>());
  std::printf("top %d %d %d\n", static_cast<int>(descending[0]), static_cast<int>(descending[1]),
              static_cast<int>(descending[2]));

  // prefix sums of the sorted samples
  thrust::device_vector<long long> inclusive(n), exclusive(n);
  thrust::inclusive_scan(sorted.begin(), sorted.end(), inclusive.begin());
  thrust::exclusive_scan(sorted.begin(), sorted.end(), exclusive.begin(), 0LL);
  std::printf("scan mid %lld last %lld exclusive last %lld\n", static_cast<long long>(inclusive[n / 2]),
              static_cast<long long>(inclusive[n - 1]), static_cast<long long>(exclusive[n - 1]));

  // centred samples, then a ramp from a counting iterator
  thrust::device_vector<int> centred(n);
  thrust::transform(samples.begin(), samples.end(), centred.begin(), Centre{SAMPLE_RANGE / 2});
  thrust::device_vector<int> ramp(n);
  thrust::transform(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(n), ramp.begin(), Ramp());
  std::printf("centred %lld ramp %d\n", thrust::reduce(centred.begin(), centred.end(), 0LL),
              thrust::reduce(ramp.begin(), ramp.end()));

  // a buffer of the runtime API, reached through a device_ptr
  int* raw = nullptr;
  CUDA_CHECK(cudaMalloc(&raw, n * sizeof(int)));
  thrust::device_ptr<int> buffer(raw);
  thrust::fill(buffer, buffer + n, 3);
  thrust::copy(samples.begin(), samples.begin() + n / 2, buffer);
  thrust::host_vector<int> back(n);
  CUDA_CHECK(cudaMemcpy(back.data(), raw, n * sizeof(int), cudaMemcpyDeviceToHost));
  long long buffer_sum = 0;
  for (int v : back) buffer_sum += v;
  std::printf("buffer %lld\n", buffer_sum);
  CUDA_CHECK(cudaFree(raw));
  CUDA_CHECK(cudaStreamDestroy(stream));
  return 0;
}
