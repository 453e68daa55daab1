#pragma once
// C interface of the solver; its first CUDA use is the stream type.
#ifdef __cplusplus
extern "C" {
#endif
int solver_run(int n, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
