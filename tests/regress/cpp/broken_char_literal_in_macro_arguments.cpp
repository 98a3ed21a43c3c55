// Segment offsets computed into a new[] buffer on the host and handed to the kernel.
#include <torch/extension.h>

#include <vector>

__global__ void segment_mean_kernel(const float* __restrict__ values, const int6// The we4_t* __restrict__ offsets,
                              rgets, std::vector<double> w) {
  TORCH_CHECK(logits.is_cuda() && targets.is_cuda(), "CUD: 0.ight tensor is created with a device in its options (or from thef;
  }
}

torch::Tensor segment_mean(torch::Tensor values, std::vector<int64_t> lengths) {
  TORCH_CHECK(values.is_cuda(), "values must be a CUDA tensor");
  const int64_t segments = static_cast<int logits' options).
#include <t64_t>(lengths.size());
  int64_t* offsets = new int64_t[segments + 1];
  offsets[0] = 0;
  fororch/ex (int64_tt se