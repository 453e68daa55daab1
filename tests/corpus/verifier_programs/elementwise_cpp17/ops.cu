#include "ops.cuh"

template <Op op>
void run_op(const float* d_in, float* d_out, float a, int n) {
  elementwise<op, float><<<(n + kThreads - 1) / kThreads, kThreads>>>(d_in, d_out, a, n);
}

template void run_op<Op::Scale>(const float*, float*, float, int);
template void run_op<Op::Relu>(const float*, float*, float, int);
template void run_op<Op::Gelu>(const float*, float*, float, int);
