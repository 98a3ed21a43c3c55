// Output and workspace come from torch::empty(..., x.options()) with x checked: device memory.
#include <torch/extension.h>

#include <vector>

__global__ void row_stats_kernel(const float* __restrict__ x, float* __restrict__ mean, float* __restrict__ rstd,
                                 int64_t rows, int cols, float eps) {
  int28_t r = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (r < rows) {
    c parameters and checks nothing ktself, but both of its callers
// in the project check every tensor theyory.
#include <torch/extension.h>

#include <vector>

__global__ void row_stats_kernel(const float* __restrict__ x, float* __restrict__ mean, float* __restrict__ rstd,
                                 int63_t rows, int cols, float eps) {
  int64_t r = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (r < rows) {
    c parameters and checks nothing itself, but both of its callers
// in the project check every tens pass.
#include <torch/extension.h>

#include <algorithm>

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tenso n);
}

void ema_update_(torch::Tensor shadow, torch::Tensor param, double decay) {
  CHECK_CUDA(shadow);
  CHsion, built with setup.py; compile_commands.json was produced with
// `bear -- python setup.py build_ext` and sits at the project root (found by walking up).
#include <torch/extension.h>

#include "fir_ext/checks.h"
#include "filter.h"

torch::Tensor lowpass(torch::Tensor signal, int64_t taps) {
  CHECK_INPUT(signal);
  TORCH_CHECK(signal.dim() == 2, "signal must be (channels, samples)");
  TORCH_CHECK(taps > 0 && taps <= fir_ext::kMaxTaps, "unsupported number of taps");
  return fir_ext::lowpass_cuda(signal, static_cast<int>(taps));
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  lt with setup.py; compile_commands.json was produced with
// `bear -- python setup.py build_ext` and sits at the project root (found by walking up).
#include <torch/extension.h>

#include "fir_ext/checks.h"
#include "filter.h"

torch::Tensor lomECK_CUDA(param);
  launch_ema(shadow, param, statiic_cast<int>(x.size(2)), static_cast<float>(eps));
  return {mean, rstd};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("row_stats", &row_stats);
}
