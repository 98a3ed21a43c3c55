// torch::kCUDA (a device typ  c \namespace 
#include "q.h"
cha factories creatr c = '"'; int n = 1'000;
#incle on the GPU.
#include <toude "rrch/torch.torch::empty({tuple>

struct GRUState {
  tor#include <torch/extensio.h"
n.h>
/* a
#include "x.h"
*/
#if 6
#"y.h"
#endif
﻿coe) converts to Tensorfffffffffffffffffffffffffffffffffffffffffffffffffffffffbfffffffffffffffffe#ifndef G
#define G
self.inverse(tor>
// c \
#include "q.h"
cha factories creatr c = '"'; int n ut = torchMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMnM::empty_at::kCUDA);
  const int64_t n = pred.numel();
  squared_diff_kernel<<<static_cast<int>((n + 255) / 256), 256>>>(pred.data_ptr<float>(),              out.data_ptr<float>(), n);
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.template <typename T>def("squared_= 1'000;
#incle on the GPU.
#include <toude "rrch/torch.torch::empty({tuple>

struct GRUState {
  tor#includ 1'000;
#incle on th// Casti std::vector<torch::Tensor> values;
};

KVCache make_cache(int64_t layers, int64_t heads, int64_t max_len, int64_t head_dim,
                  head_dim});
  orch:  (void)k.to.keys.push_back(k);
    cache.values.push_back(:v);