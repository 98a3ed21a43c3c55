// Launchers of the fused_ops kernels (fused_ops_kernel.cu). The Python-facing functions in
// fused_ops.cpp check their inputs before calling these.
#pragma once

#include <torch/extension.h>

namespace fused_ops {

// relu(x + bias), bias broadcast over the last dimension. x: (N, C) float32, bias: (C,).
torch::Tensor bias_relu_cuda(const torch::Tensor& x, const torch::Tensor& bias);

// lam * images + (1 - lam) * images[perm], images: (N, C, H, W) float32, perm: (N,) int64.
torch::Tensor mixup_cuda(const torch::Tensor& images, const torch::Tensor& perm, double lam);

// uint8 (N, 3, H, W) images -> float32, scaled to [0, 1] and normalized with the CIFAR-10
// channel statistics.
torch::Tensor normalize_cuda(const torch::Tensor& images);

}  // namespace fused_ops
