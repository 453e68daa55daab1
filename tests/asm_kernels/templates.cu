// One template kernel, two instantiations, and a functor.
struct Saxpy {
  float a;
  __device__ float operator()(float x, float y) const { return a * x + y; }  // FUNCTOR_LINE
};

template <typename T, typename Op>
__global__ void transform(const T* x, const T* y, T* out, Op op, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(x[i], y[i]);  // APPLY_LINE
}

struct AddInt {
  __device__ int operator()(int x, int y) const { return x + y; }
};

template __global__ void transform<float, Saxpy>(const float*, const float*, float*, Saxpy, int);
template __global__ void transform<int, AddInt>(const int*, const int*, int*, AddInt, int);
