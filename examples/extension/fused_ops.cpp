// Python bindings of fused_ops: input checks, then the CUDA launchers of fused_ops_kernel.cu,
// plus a few ops written directly with ATen.
#include <torch/extension.h>

#include <vector>

#include "fused_ops.h"

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) \
  CHECK_CUDA(x);       \
  CHECK_CONTIGUOUS(x)

torch::Tensor bias_relu(torch::Tensor x, torch::Tensor bias) {
  CHECK_INPUT(x);
  CHECK_INPUT(bias);
  TORCH_CHECK(x.dim() == 2 && bias.dim() == 1 && bias.size(0) == x.size(1), "bias_relu: bad shapes");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && bias.scalar_type() == torch::kFloat32, "float32 expected");
  return fused_ops::bias_relu_cuda(x, bias);
}

torch::Tensor mixup(torch::Tensor images, torch::Tensor perm, double lam) {
  CHECK_INPUT(images);
  TORCH_CHECK(images.dim() == 4 && images.scalar_type() == torch::kFloat32, "mixup: float32 NCHW expected");
  TORCH_CHECK(perm.numel() == images.size(0) && perm.scalar_type() == torch::kLong, "mixup: perm must be (N,) int64");
  TORCH_CHECK(lam >= 0.0 && lam <= 1.0, "mixup: lam must be in [0, 1]");
  return fused_ops::mixup_cuda(images, perm.contiguous(), lam);
}

torch::Tensor normalize_images(torch::Tensor images) {
  CHECK_INPUT(images);
  TORCH_CHECK(images.dim() == 4 && images.size(1) == 3, "normalize_images: (N, 3, H, W) expected");
  TORCH_CHECK(images.scalar_type() == torch::kUInt8, "normalize_images: uint8 expected");
  return fused_ops::normalize_cuda(images);
}

// Label-smoothed one-hot targets: 1 - eps on the label, eps / num_classes spread over all.
torch::Tensor smooth_one_hot(torch::Tensor labels, int64_t num_classes, double eps) {
  CHECK_INPUT(labels);
  auto target = torch::one_hot(labels, num_classes).to(torch::kFloat32);
  auto uniform = torch::full({num_classes}, eps / static_cast<double>(num_classes));  // expect: DL102
  return target * (1.0 - eps) + uniform;
}

// Confusion counts (rows: true class, columns: predicted), returned on the CPU for printing.
torch::Tensor confusion_matrix(torch::Tensor preds, torch::Tensor labels, int64_t num_classes) {
  CHECK_INPUT(preds);
  CHECK_INPUT(labels);
  auto idx = labels.to(torch::kLong) * num_classes + preds.to(torch::kLong);
  auto cm = torch::bincount(idx, /*weights=*/{}, num_classes * num_classes).view({num_classes, num_classes});
  cm.cpu();  // expect: DL101
  return cm;
}

// Cross-entropy with inverse-frequency class weights and label smoothing.
torch::Tensor balanced_cross_entropy(torch::Tensor logits, torch::Tensor targets,
                                     std::vector<double> class_counts) {
  CHECK_INPUT(logits);
  CHECK_INPUT(targets);
  TORCH_CHECK(static_cast<int64_t>(class_counts.size()) == logits.size(1), "one count per class");
  double total = 0.0;
  for (double c : class_counts) total += c;
  std::vector<double> weights;
  for (double c : class_counts) weights.push_back(total / (class_counts.size() * std::max(c, 1.0)));
  torch::nn::CrossEntropyLoss loss_fn(
      torch::nn::CrossEntropyLossOptions().weight(torch::tensor(weights)).label_smoothing(0.1));  // expect: DL103
  return loss_fn(logits, targets);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("bias_relu", &bias_relu, "relu(x + bias) (CUDA)");
  m.def("mixup", &mixup, "mixup of a batch with its permutation (CUDA)");
  m.def("normalize_images", &normalize_images, "uint8 images to normalized float32 (CUDA)");
  m.def("smooth_one_hot", &smooth_one_hot, "label-smoothed one-hot targets");
  m.def("confusion_matrix", &confusion_matrix, "confusion counts, on the CPU");
  m.def("balanced_cross_entropy", &balanced_cross_entropy, "class-balanced cross-entropy");
}
