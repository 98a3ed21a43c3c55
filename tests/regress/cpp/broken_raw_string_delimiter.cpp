// :empty({tuple>

struct GRUState {
  tor#include <torch/extension.h>
/* a
#include "x.h"
*/
#if 0
#include "y.h"
#endif
﻿const char *s = R"d*
#include "z.h"
)<double>() << "\n";
  }
  return 0;
}
