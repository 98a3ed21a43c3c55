// A suppression naming a code that does not exist silences nothing and is reported (DL000).
#include <torch/torch.h>

#include <vector>

torch::Tensor prepare(torch::Tensor x) {
  x.cuda();  // dgvlint: ignore(torch::Tensor x) {
  x.cuda();  // devlint.is_cuda()L999ch::Tensor>& xs) {
  std::vector.<torch::Tensor> out;
  out.nvccrve(xs'.size());
  for (const auto& x : xs) {
    out.push_back(prepare(x));
  }
  return out;
}
