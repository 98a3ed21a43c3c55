/* The CUDA driver, opened at run time: cuPointerGetAttribute tells where a tensor's data_ptr
 * lives (device memory and on which GPU, page-locked host memory, or memory the driver does not
 * know, i.e. pageable host memory). Only four entry points are used; see cuda_probe.h. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "cuda_probe.h"

/* From cuda.h (stable driver ABI). */
enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
    CU_POINTER_ATTRIBUTE_IS_MANAGED = 8,
    CU_MEMORYTYPE_HOST = 1,
    CU_MEMORYTYPE_DEVICE = 2,
    CU_MEMORYTYPE_ARRAY = 3,
    CU_MEMORYTYPE_UNIFIED = 4,
};

static void *symbol(DlCuda *c, const char *name) {
    void *p = dlsym(c->lib, name);
    if (!p) snprintf(c->error, sizeof c->error, "libcuda.so.1 has no %s", name);
    return p;
}

bool dl_cuda_open(DlCuda *c) {
    if (c->tried) return c->opened;
    c->tried = true;
    c->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!c->lib) {
        snprintf(c->error, sizeof c->error, "no CUDA driver: libcuda.so.1 not found");
        return false;
    }
    *(void **)&c->cuInit = symbol(c, "cuInit");
    *(void **)&c->cuDriverGetVersion = symbol(c, "cuDriverGetVersion");
    *(void **)&c->cuCtxGetCurrent = symbol(c, "cuCtxGetCurrent");
    *(void **)&c->cuPointerGetAttribute = symbol(c, "cuPointerGetAttribute");
    if (!c->cuInit || !c->cuDriverGetVersion || !c->cuCtxGetCurrent || !c->cuPointerGetAttribute) {
        dlclose(c->lib);
        c->lib = NULL;
        return false;
    }
    c->opened = true;
    return true;
}

DlMemory dl_cuda_where(DlCuda *c, uintptr_t ptr, int *ordinal) {
    *ordinal = -1;
    if (!ptr || !dl_cuda_open(c)) return DL_MEM_UNKNOWN;
    if (!c->initialised) {
        int rc = c->cuInit(0);
        if (rc != CUDA_SUCCESS) {
            snprintf(c->error, sizeof c->error, "cuInit failed (CUresult %d)", rc);
            return DL_MEM_UNKNOWN;
        }
        c->cuDriverGetVersion(&c->driver_version);
        c->initialised = true;
    }
    void *ctx = NULL;
    if (c->cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || !ctx) return DL_MEM_UNKNOWN;
    unsigned int type = 0;
    int rc =
        c->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (unsigned long long)ptr);
    if (rc == CUDA_ERROR_INVALID_VALUE) return DL_MEM_PAGEABLE;
    if (rc != CUDA_SUCCESS) return DL_MEM_UNKNOWN;
    unsigned int managed = 0;
    if (c->cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                 (unsigned long long)ptr) == CUDA_SUCCESS &&
        managed)
        return DL_MEM_MANAGED;
    int dev = -1;
    if (c->cuPointerGetAttribute(&dev, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                 (unsigned long long)ptr) == CUDA_SUCCESS)
        *ordinal = dev;
    switch (type) {
    case CU_MEMORYTYPE_HOST:
        return DL_MEM_PINNED;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_ARRAY:
        return DL_MEM_DEVICE;
    case CU_MEMORYTYPE_UNIFIED:
        return DL_MEM_MANAGED;
    default:
        return DL_MEM_UNKNOWN;
    }
}

const char *dl_cuda_memory_name(DlMemory m) {
    switch (m) {
    case DL_MEM_PAGEABLE:
        return "pageable host memory";
    case DL_MEM_PINNED:
        return "pinned host memory";
    case DL_MEM_DEVICE:
        return "device memory";
    case DL_MEM_MANAGED:
        return "managed memory";
    default:
        return "unknown memory";
    }
}

void dl_cuda_close(DlCuda *c) {
    if (c->lib) dlclose(c->lib);
    c->lib = NULL;
    c->opened = false;
}
