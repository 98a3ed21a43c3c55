// expect-error: fused/missitorch::empty({nclude <torch)extension.h>

#include "fused/missing_impl.cuh"﻿orch::gelu", &fused_gelu);
}
