// Complex cuBLAS on small integer operands (exact in float and double): Cgemm with a conjugate
// transpose, CgemmStridedBatched, Cdotc, Scnrm2, Zaxpy and Zgemv with a conjugate transpose, each
// result printed; tests/cpu/test_gpu_libraries.py computes the same values independently.
#include <cstdio>
#include <cstdlib>
#include <cuComplex.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CHECK_CUBLAS(call)                                                       \
    do {                                                                         \
        cublasStatus_t st_ = (call);                                             \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                      \
            fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__, (int)st_); \
            exit(3);                                                             \
        }                                                                        \
    } while (0)

// element i of an operand: re in -2..2, im in -1..1
static cuComplex entry(int i) { return make_cuComplex((float)(i % 5 - 2), (float)(i % 3 - 1)); }
static cuDoubleComplex wide(int i) { return cuComplexFloatToDouble(entry(i)); }

template <class T>
static T* on_device(const T* host, int count) {
    T* device;
    cudaMalloc(&device, count * sizeof(T));
    cudaMemcpy(device, host, count * sizeof(T), cudaMemcpyHostToDevice);
    return device;
}

template <class T>
static void print(const char* label, const T* device, int count) {
    T host[16];
    cudaMemcpy(host, device, count * sizeof(T), cudaMemcpyDeviceToHost);
    printf("%s", label);
    for (int i = 0; i < count; ++i) printf(" %g%+gi", (double)host[i].x, (double)host[i].y);
    printf("\n");
}

int main() {
    cublasHandle_t h;
    CHECK_CUBLAS(cublasCreate(&h));
    // C (3x2) = A (3x4) B^H, B stored 2x4
    cuComplex hA[12], hB[8], hC[8];
    for (int i = 0; i < 12; ++i) hA[i] = entry(i);
    for (int i = 0; i < 8; ++i) hB[i] = entry(2 * i + 1);
    for (int i = 0; i < 8; ++i) hC[i] = make_cuComplex(1, 0);
    cuComplex *A = on_device(hA, 12), *B = on_device(hB, 8), *C = on_device(hC, 8);
    cuComplex alpha = make_cuComplex(1, 1), beta = make_cuComplex(0, 1);
    CHECK_CUBLAS(cublasCgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, 3, 2, 4, &alpha, A, 3, B, 2, &beta, C, 3));
    print("cgemm", C, 6);
    // two 2x2 products A_i^T B_i, the operands 4 elements apart
    cuComplex one = make_cuComplex(1, 0), zero = make_cuComplex(0, 0);
    CHECK_CUBLAS(cublasCgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, 2, &one, A, 2, 4, B, 2, 4, &zero, C,
                                           2, 4, 2));
    print("cgemm strided", C, 8);
    cuComplex dot;
    float norm;
    CHECK_CUBLAS(cublasCdotc(h, 6, A, 1, B, 1, &dot));
    CHECK_CUBLAS(cublasScnrm2(h, 12, A, 1, &norm));
    printf("cdotc %g%+gi scnrm2 %.6f\n", dot.x, dot.y, norm);

    // y = (0.5 - i) x + y, then y = (2 + i) M^H x + y with M 3x2
    cuDoubleComplex hx[3], hy[3], hM[6];
    for (int i = 0; i < 3; ++i) {
        hx[i] = wide(i + 3);
        hy[i] = wide(2 * i);
    }
    for (int i = 0; i < 6; ++i) hM[i] = wide(3 * i + 2);
    cuDoubleComplex *x = on_device(hx, 3), *y = on_device(hy, 3), *M = on_device(hM, 6);
    cuDoubleComplex a = make_cuDoubleComplex(0.5, -1), g = make_cuDoubleComplex(2, 1), z1 = make_cuDoubleComplex(1, 0);
    CHECK_CUBLAS(cublasZaxpy(h, 3, &a, x, 1, y, 1));
    print("zaxpy", y, 3);
    CHECK_CUBLAS(cublasZgemv(h, CUBLAS_OP_C, 3, 2, &g, M, 3, x, 1, &z1, y, 1));
    print("zgemv", y, 2);
    CHECK_CUBLAS(cublasDestroy(h));
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    cudaFree(x);
    cudaFree(y);
    cudaFree(M);
    return 0;
}
