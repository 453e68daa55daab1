// Device helpers the kernels share; included, never compiled alone.
__device__ inline float lud_fma(float a, float b, float c) { return fmaf(-a, b, c); }
