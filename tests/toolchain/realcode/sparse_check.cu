// A cuSPARSE setup with the usual status-checking macro.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cusparse.h>

#define CHECK_CUSPARSE(call) do { cusparseStatus_t s_ = (call); if (s_ != CUSPARSE_STATUS_SUCCESS) { \
    fprintf(stderr, "cuSPARSE %s (%s) at line %d\n", cusparseGetErrorString(s_), cusparseGetErrorName(s_), \
            __LINE__); exit(1); } } while (0)

int main() {
    cusparseHandle_t handle;
    cusparseMatDescr_t descr;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseCreateMatDescr(&descr));
    CHECK_CUSPARSE(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO));
    CHECK_CUSPARSE(cusparseDestroyMatDescr(descr));
    CHECK_CUSPARSE(cusparseDestroy(handle));
    return 0;
}
