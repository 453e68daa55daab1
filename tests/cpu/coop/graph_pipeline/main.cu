// graph_pipeline: a step captured from a stream into a graph and launched three times, and a graph
// built node by node whose nodes were added out of order. Usage: graph_pipeline [n] [launches].
#include <vector>

#include "pipeline.cuh"

struct FlagCheck {
  const int* flags;
  int n, good;
};

static void CUDART_CB check_flags(void* data)
{
    FlagCheck* check = static_cast<FlagCheck*>(data);
    check->good = 0;
    for (int i = 0; i < check->n; ++i) check->good += check->flags[i] == 0x01010101;
}

int main(int argc, char** argv)
{
    const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 15;
    const int launches = argc > 2 ? std::atoi(argv[2]) : 3;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 7);

    float *d_x, *d_y;
    CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CHECK(cudaMalloc(&d_y, n * sizeof(float)));
    CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    StepLog log = {0, 0.0, y.data(), n};
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    CHECK(cudaStreamIsCapturing(stream, &status));
    enqueue_step(d_x, d_y, y.data(), n, &log, stream);
    CHECK(cudaStreamEndCapture(stream, &graph));
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
    std::printf("captured %zu nodes (capturing: %d); %d steps ran while capturing\n", nodes,
                status == cudaStreamCaptureStatusActive, log.steps);
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int l = 0; l < launches; ++l) CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));

    int wrong = 0;
    double want_sum = 0.0;
    for (int i = 0; i < n; ++i) {
        float v = static_cast<float>(i % 7);
        for (int l = 0; l < launches; ++l) v = 0.5f * v + 1.0f;
        wrong += y[i] != v * v;
        want_sum += v * v;
    }
    std::printf("after %d launches: %d steps, y[0] = %g, y[6] = %g, %d wrong, host sum %s\n", launches, log.steps,
                y[0], y[6 % n], wrong, log.last_sum == want_sum ? "right" : "wrong");
    wrong += log.steps != launches || log.last_sum != want_sum;

    // Built by hand: the check is added first, but runs last (its dependency on `join`).
    const int flags_n = 1024;
    int* d_flags;
    std::vector<int> flags(flags_n, 0);
    CHECK(cudaMalloc(&d_flags, flags_n * sizeof(int)));
    FlagCheck check = {flags.data(), flags_n, -1};
    cudaGraph_t built;
    CHECK(cudaGraphCreate(&built, 0));
    cudaGraphNode_t report, set, copy, join;
    cudaHostNodeParams host = {};
    host.fn = check_flags;
    host.userData = &check;
    CHECK(cudaGraphAddHostNode(&report, built, nullptr, 0, &host));
    cudaMemsetParams memset = {};
    memset.dst = d_flags;
    memset.value = 0x01;
    memset.elementSize = 1;
    memset.width = flags_n * sizeof(int);
    memset.height = 1;
    CHECK(cudaGraphAddMemsetNode(&set, built, nullptr, 0, &memset));
    CHECK(cudaGraphAddMemcpyNode1D(&copy, built, &set, 1, flags.data(), d_flags, flags_n * sizeof(int),
                                   cudaMemcpyDeviceToHost));
    CHECK(cudaGraphAddEmptyNode(&join, built, &copy, 1));
#if CUDART_VERSION >= 13000
    CHECK(cudaGraphAddDependencies(built, &join, &report, nullptr, 1));
#else
    CHECK(cudaGraphAddDependencies(built, &join, &report, 1));
#endif
    cudaGraphExec_t built_exec;
    CHECK(cudaGraphInstantiate(&built_exec, built, 0));
    CHECK(cudaGraphLaunch(built_exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    std::printf("built graph: %d of %d flags set when checked\n", check.good, flags_n);
    wrong += check.good != flags_n;

    CHECK(cudaGraphExecDestroy(built_exec));
    CHECK(cudaGraphDestroy(built));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(d_flags));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    std::printf("%s\n", wrong == 0 ? "PASSED" : "FAILED");
    return wrong == 0 ? 0 : 2;
}
