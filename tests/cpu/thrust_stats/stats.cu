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

#include <algorithm>
#include <numeric>
#include <vector>

#include "samples.cuh"

// The statistics again on the host, without Thrust: the run fails where they differ.
static bool check(const char* what, long long got, long long expected) {
  if (got == expected) return true;
  std::fprintf(stderr, "FAILED %s: got %lld, expected %lld\n", what, got, expected);
  return false;
}

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

  std::vector<int> host(n);
  CUDA_CHECK(cudaMemcpy(host.data(), thrust::raw_pointer_cast(samples.data()), n * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n && ok; ++i)
    ok = check("sample", host[i], static_cast<int>(mix(static_cast<unsigned>(i) * 2654435761u ^ seed) % SAMPLE_RANGE));
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return host[a] < host[b]; });
  long long expected_squares = 0, running = 0, expected_centred = 0;
  for (int v : host) expected_squares += static_cast<long long>(v) * v, expected_centred += v - SAMPLE_RANGE / 2;
  for (int i = 0; i <= n / 2; ++i) running += host[order[i]];
  ok = ok && check("sum", sum, std::accumulate(host.begin(), host.end(), 0LL)) &&
       check("squares", squares, expected_squares) &&
       check("high", high, std::count_if(host.begin(), host.end(), [](int v) { return v >= SAMPLE_RANGE / 2; })) &&
       check("median", sorted[n / 2], host[order[n / 2]]) && check("first index", first_index[3], order[3]) &&
       check("top", descending[0], *std::max_element(host.begin(), host.end())) &&
       check("scan", inclusive[n / 2], running) && check("exclusive scan", exclusive[n - 1], sum - host[order[n - 1]]) &&
       check("centred", thrust::reduce(centred.begin(), centred.end(), 0LL), expected_centred) &&
       check("buffer", buffer_sum, std::accumulate(host.begin(), host.begin() + n / 2, 0LL) + 3LL * (n - n / 2));
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
