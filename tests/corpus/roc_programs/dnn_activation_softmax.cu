// cuDNN on a 4-D tensor: a handle on a stream, tensor and activation descriptors, a ReLU and a
// softmax forward, and a 4-D tensor setup whose cuDNN function has no MIOpen equivalent name.
#include <cstdio>
#include <cuda_runtime.h>
#include <cudnn.h>

int main() {
    cudnnHandle_t handle;
    if (cudnnCreate(&handle) != CUDNN_STATUS_SUCCESS) return 1;
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cudnnSetStream(handle, stream);

    cudnnTensorDescriptor_t tensor;
    cudnnCreateTensorDescriptor(&tensor);
    cudnnSetTensor4dDescriptor(tensor, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 3, 8, 8);
    cudnnActivationDescriptor_t relu;
    cudnnCreateActivationDescriptor(&relu);
    cudnnConvolutionDescriptor_t conv;
    cudnnCreateConvolutionDescriptor(&conv);
    cudnnSetConvolutionGroupCount(conv, 2);

    float *x, *y;
    cudaMalloc(&x, 2 * 3 * 8 * 8 * sizeof(float));
    cudaMalloc(&y, 2 * 3 * 8 * 8 * sizeof(float));
    const float alpha = 1.0f, beta = 0.0f;
    cudnnActivationForward(handle, relu, &alpha, tensor, x, &beta, tensor, y);
    cudnnStatus_t status = cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &alpha,
                                               tensor, y, &beta, tensor, y);
    std::printf("softmax: %s\n", cudnnGetErrorString(status));

    cudnnDestroyConvolutionDescriptor(conv);
    cudnnDestroyActivationDescriptor(relu);
    cudnnDestroyTensorDescriptor(tensor);
    cudnnDestroy(handle);
    cudaStreamDestroy(stream);
    cudaFree(x);
    cudaFree(y);
    return 0;
}
