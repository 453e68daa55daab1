// thrust::cuda::par / par_nosync and rocThrust's thrust::hip::par / par_nosync as Thrust's device
// system policy. Streams are in order and synchronous on the CPU runtime (a launch runs before it
// returns), so an algorithm ``.on(stream)`` runs where the stream would have run it.
// The policies declared here are the only names of these backends the refusal scan lets through
// (cass_lsp/cpu/declared.py reads them).
#pragma once
#include <thrust/execution_policy.h>

THRUST_NAMESPACE_BEGIN
namespace cass_cpu {
struct stream_policy : thrust::detail::device_t {
  stream_policy on(cudaStream_t) const { return *this; }
};
}  // namespace cass_cpu
// thrust::cuda (thrust::hip) is an alias of thrust::system::cuda (hip), as in CCCL and rocThrust.
namespace system {
namespace cuda {
inline constexpr cass_cpu::stream_policy par{};
inline constexpr cass_cpu::stream_policy par_nosync{};
}  // namespace cuda
namespace hip {
inline constexpr cass_cpu::stream_policy par{};
inline constexpr cass_cpu::stream_policy par_nosync{};
}  // namespace hip
}  // namespace system
namespace cuda = system::cuda;
namespace hip = system::hip;
THRUST_NAMESPACE_END
