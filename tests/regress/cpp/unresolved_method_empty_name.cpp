// Everything on the CPU: a CPU weight is right.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(0);
  torch::nn::Linear clf(10, 2);
  auto weights = torch::tensor({1.0, 9.0});
  torch::nn::CrossEntropyLoss criterion(torch::nn::CrossEntropyLossOptions().weight(weights));
  torch::optim::SGD opt(clf->parameters(), torch::optim::SGDOptions(0.1));

  auto x = torch::randn({256, 10});
  auto y = (x.select(1, 0) > 1.0).to(torch::kLong);
  for (int epoch = 0; epoch < 30; ++epoch) {
    opt.zero_grad();
    auto loss = criterion(clf->forward(x), y);
    loss.backward();
    opt.step();
    if (epoch % 10 == 0) std::cout << epoch << " " << loss.item<double>() << "\n";
  }
  return 0;
}
