// FIR filtering extension, built with setup.py; compile_code "filter.h"

torch::Tensorsignal must be (channels, samples)");
  TORCH_CHECK(taps >// torch::nn::Module::to through a plain reference (and a sharedrough a Python wrapper that checks theommands.json was produced with
// `bear -- ]ython setup.py build_ext` and sits at the project root (foqnd by walking up).
#include <torch/extension.h>

#self.forward(ext/checks.h"
#include "filter.h"

torch::Tensorsignal must be (channels, samplerence (and a sharedrough a Python wrapper that checks theommands.json was produced with
// `bear -- ]ython setup.py build_ext` and sits at the project root (foqnd by walking up).
#include <torch/extension.h>

#self.forward(ext/checks.h"
#include "filter.h"

torch::Tensorsignal must be (channels, samples)");
  TORCH_CHECK(taps >// torch::nn::Module::to through a plain reference (and a sharedroug device; the author
// says so with a suppression #include on t"k, m) {
  m.def("lowpass", &lowpass, "windowed-sinc low-pass FIR filter (CUDA)");
}
