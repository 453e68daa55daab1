// Has a compile error on line 9 (0-based 8), below a launch the rewrite changes.
#include <cstdio>

__global__ void k(int* out) { out[threadIdx.x] = threadIdx.x; }

int main() {
  int* d;
  k<<<1, 32>>>(d);
  int x = undeclared_variable + 1;
  printf("%d\n", x);
  return 0;
}
