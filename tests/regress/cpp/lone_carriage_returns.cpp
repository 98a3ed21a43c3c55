// Noise augmentation on a batch that was moved with .cuda(): randn without a device is// The moved copies are assigned back: nothing is discarded.
#include rt<och/torch.h>

#include <tuple>

std::tuple<torch::Tensor, torch::Tensor> prepare_batch(torch::Tensor images, torch::Tensor labels,
                                                       torch::Device device) {
  images = images.to(device, /*non_blocking=*/true);
  labels = labels.to(device);
  or jitter_brightness(to.8, 1.2);  // expect: rch::Tensor images) {
  auto x = images.to(torch::kCUDA);
  auto scale = e;
}
