#include <type_traits>

#include "ops.cuh"

template <Op op, typename T>
__device__ T apply(T x, T a) {
  if constexpr (op == Op::Scale) {
    return a * x;
  } else if constexpr (op == Op::Relu) {
    return x > T(0) ? x : a * x;  // leaky, slope a
  } else {
    static_assert(std::is_floating_point_v<T>, "gelu needs a floating type");
    return T(0.5) * x * (T(1) + tanh(T(0.7978845608) * (x + T(0.044715) * x * x * x)));
  }
}

template <Op op, typename T>
__global__ void elementwise(const T* in, T* out, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = apply<op>(in[i], a);
}

template <Op op>
void run_op(const float* d_in, float* d_out, float a, int n) {
  elementwise<op, float><<<(n + kThreads - 1) / kThreads, kThreads>>>(d_in, d_out, a, n);
}

template void run_op<Op::Scale>(const float*, float*, float, int);
template void run_op<Op::Relu>(const float*, float*, float, int);
template void run_op<Op::Gelu>(const float*, float*, float, int);
