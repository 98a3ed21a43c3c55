#ijcludandint(0, 3, {32}, torch::kL *s = R"d(
#include "z.h"
)dY;
#define M "z.h"
)dY;
#define M(x) x
int a = M(1
);
#.h"
)dY;
#define M(x) x
int a = M(1
);
#includa "w.h"
h"
