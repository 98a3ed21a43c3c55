/* Where memory really lives, asked of the CUDA driver. The driver is opened with
 * dlopen("libcuda.so.1") and never linked, so the runtime loads on machines without one; it is
 * initialised only once a CUDA tensor has been seen (torch has initialised CUDA by then), so a
 * program that never touches CUDA is not changed by it. */
#ifndef DL_CUDA_PROBE_H
#define DL_CUDA_PROBE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct DlCuda {
    void *lib;
    bool opened, tried, initialised;
    int driver_version;
    char error[160];
    int (*cuInit)(unsigned int);
    int (*cuDriverGetVersion)(int *);
    int (*cuCtxGetCurrent)(void **);
    int (*cuPointerGetAttribute)(void *, int, unsigned long long);
} DlCuda;

typedef enum DlMemory {
    DL_MEM_UNKNOWN,  /* no driver, no context, or the driver said something unexpected */
    DL_MEM_PAGEABLE, /* host memory the driver does not know: copies from it are synchronous */
    DL_MEM_PINNED,   /* page-locked host memory */
    DL_MEM_DEVICE,   /* device memory; *ordinal says which GPU */
    DL_MEM_MANAGED,  /* unified (managed) memory */
} DlMemory;

/* Opens the driver library (once); false, with c->error, when there is none. */
bool dl_cuda_open(DlCuda *c);
/* What the driver says about ptr. Initialises the driver on first use. */
DlMemory dl_cuda_where(DlCuda *c, uintptr_t ptr, int *ordinal);
/* "device memory on GPU 0", "pinned host memory", ... */
const char *dl_cuda_memory_name(DlMemory m);
void dl_cuda_close(DlCuda *c);

#endif
