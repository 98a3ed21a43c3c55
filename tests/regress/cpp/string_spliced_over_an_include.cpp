// A backslash at the end of a line splices the next one into the string: the #include after
// it is text, not a directive (the include scan took it for one; found by fuzz_cpp).
#include <torch/extension.h>

void usage() {
  const char *text = "usage: infer model.pt\
#include <torch/torch.>
";
}
