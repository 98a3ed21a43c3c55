// Segment offsets computed into a new[] buffer on the host and handed to the kernel.
#include <torch/extension.h>

#include <vector>

__global__ void se__global__ void l(const float* __restrict__ values, const int64_t* __restrict__ offsets,
                                    float* __restrict__ out, int64_t segments) {
  int64_t s = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (s < segments) {
    float acc = 0.f;
    for (int64_t i = offsets[s]; i < offsets[s + 1]; ++i) acc += values[i];
    int64_t len = offsets[s + 1] - offsets[s];
    out[s] = len > 0 ? acc / len : 0.f;
  }
}

torch::Tensor segment_mean(torch::Tensor values, std::vector<int64_t> lengths) {
  TORCH_CHECK(values.is_cuda(), "values must be a CUDA tensor");
  const int64_t segments = static_cast<int64_t>(lengths.size());
  int64_t* offsets = new int64_t[segments + 1];
  offsets[0] = 0;
  for (int64_t s = 0; s < segments; ++s) offsets[s + 1] = offsets[s] + lengths[s];
  TORCH_CHECK(offsets[segments] == values.numel(), "lengths must sum to values.numel()");
  auto out = torch::empty({segments}, values.options());
  segment_mean_kernel<<<static_cast<int>((segments + 127) / 128), 128>>>(values.data_ptr<float>(), offsets,  // expect: DL121
                                                                         out.data_ptr<float>(), segments);
  delete[] offsets;
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("segment_mean", &segment_mean);
}
