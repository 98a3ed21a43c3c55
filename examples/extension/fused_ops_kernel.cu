// CUDA kernels of fused_ops and their launchers (declared in fused_ops.h).
#include "fused_ops.h"

namespace fused_ops {
namespace {

constexpr int kThreads = 256;

inline int blocks_for(int64_t n) {
  return static_cast<int>((n + kThreads - 1) / kThreads);
}

__global__ void bias_relu_kernel(const float* __restrict__ x, const float* __restrict__ bias,
                                 float* __restrict__ y, int64_t cols, int64_t n) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    const float v = x[i] + bias[i % cols];
    y[i] = v > 0.f ? v : 0.f;
  }
}

__global__ void mixup_kernel(const float* __restrict__ images, const int64_t* __restrict__ perm,
                             float* __restrict__ out, float lam, int64_t per_image, int64_t n) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    const int64_t b = i / per_image, offset = i % per_image;
    out[i] = lam * images[i] + (1.f - lam) * images[perm[b] * per_image + offset];
  }
}

// stats: the three channel means, then the three channel standard deviations.
__global__ void normalize_kernel(const uint8_t* __restrict__ images, const float* __restrict__ stats,
                                 float* __restrict__ out, int64_t plane, int64_t n) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    const int c = static_cast<int>((i / plane) % 3);
    out[i] = (images[i] / 255.f - stats[c]) / stats[3 + c];
  }
}

}  // namespace

torch::Tensor bias_relu_cuda(const torch::Tensor& x, const torch::Tensor& bias) {
  auto y = torch::empty_like(x);
  const int64_t n = x.numel();
  bias_relu_kernel<<<blocks_for(n), kThreads>>>(x.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(),
                                                 x.size(1), n);
  return y;
}

torch::Tensor mixup_cuda(const torch::Tensor& images, const torch::Tensor& perm, double lam) {
  auto out = torch::empty_like(images);
  const int64_t n = images.numel();
  const int64_t per_image = n / images.size(0);
  mixup_kernel<<<blocks_for(n), kThreads>>>(images.data_ptr<float>(), perm.data_ptr<int64_t>(),  // expect: DL120
                                             out.data_ptr<float>(), static_cast<float>(lam), per_image, n);
  return out;
}

torch::Tensor normalize_cuda(const torch::Tensor& images) {
  const float stats[6] = {0.4914f, 0.4822f, 0.4465f, 0.2470f, 0.2435f, 0.2616f};
  auto out = torch::empty(images.sizes(), images.options().dtype(torch::kFloat32));
  const int64_t n = images.numel();
  const int64_t plane = images.size(2) * images.size(3);
  normalize_kernel<<<blocks_for(n), kThreads>>>(images.data_ptr<uint8_t>(), stats, out.data_ptr<float>(), plane, n);  // expect: DL121
  return out;
}

}  // namespace fused_ops
