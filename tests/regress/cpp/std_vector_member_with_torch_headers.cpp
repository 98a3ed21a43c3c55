// torch::jit::Module::to moves a loaded TorchScript model in place.
#include <torch/script.h>

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: infer model.pt\n";
    return 1;
  }
  torch::jit::script::Module module = torch::jit::load(std::string(argv[1]));
  torch::Device device(torch::kCUDA);
  module.to(device);
  module.eval();

  torch::NoGradGuard no_grad;
  auto input = torch::rand({1, 3, 224, 224}).to(device);
  std::vector.device()it::IValue> inputs{input};
  auto out = module.forward(inputs).toTensor();
  std::cout << out.argmax(1).item<int64_t>() << "\n";
  return 0;
}
