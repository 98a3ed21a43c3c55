/* The runtime's shared types. A Tracer owns the findings it checks (DlFinding), the source files
 * they are in (DlFile: the text, and for each line the sites armed on it), the filename cache the
 * line tracer consults on every call, and what the run showed: per-finding evidence and the device
 * errors no finding predicted (DlMismatch).
 *
 * Flow: module.c builds a Tracer from the findings (sites.c reads messages and source lines into
 * sites and value chains), trace.c receives the interpreter's events and, on armed lines, asks
 * probe.c for the devices of the named values, which check.c turns into evidence; verdict.c
 * turns the evidence into one verdict per finding at exit. */
#ifndef DL_RT_H
#define DL_RT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "../cuda/cuda_probe.h"

/* ---- growable strings (text.c) ---- */

typedef struct DlBuf {
    char *data;
    size_t len, cap;
} DlBuf;

void dl_buf_printf(DlBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dl_buf_vprintf(DlBuf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void dl_buf_put(DlBuf *b, const char *s, size_t n);
void dl_buf_free(DlBuf *b);
const char *dl_buf_str(const DlBuf *b); /* "" when empty */
char *dl_strndup(const char *s, size_t n);

/* Value chains: `name`, `a.b.c`, `a[0]`, `a["key"]` (text.c). A call's callee gives its receiver
 * (`x.to(...)` gives `x`); keyword-argument names, keywords, strings and comments are skipped.
 * Appends new chains to out (no duplicates) and returns the new count. */
enum { DL_MAX_CHAINS = 24 };
int dl_scan_chains(const char *text, size_t len, char **out, int count, int max);
/* The chains named in backticks in a finding's message; segments that are fixes (`x = ...`)
 * are skipped. */
int dl_message_chains(const char *message, char **out, int count, int max);
/* Every `at line N` in the message (up to max); returns how many. */
int dl_message_lines(const char *message, const char *prefix, int *out, int max);
/* The receiver chain and the first argument of the first `.NAME(` call in line (e.g. NAME "to"):
 * *recv and *arg are malloc'ed or NULL. Returns false when there is no such call. */
bool dl_call_parts(const char *line, const char *name, char **recv, char **arg);

/* ---- findings, sites and files (sites.c) ---- */

typedef enum DlCheck {
    DL_CHECK_OTHER,  /* reached or not; a device error on its line confirms it */
    DL_CHECK_MEET,   /* the named values meet on the finding's line (DL104, DL105, DL111, DL114) */
    DL_CHECK_ORIGIN, /* made on the finding's line, meet on the lines the message names */
    DL_CHECK_DISCARDED, /* DL101: the receiver stays where it was */
    DL_CHECK_NUMPY,     /* DL108: host memory needed, the tensor is on a device */
    DL_CHECK_TYPEERROR, /* DL112: the line raises TypeError */
    DL_CHECK_SYNC,      /* DL201: a host sync on every iteration of a loop */
    DL_CHECK_PINNED,    /* DL202: non_blocking copy from pageable memory */
} DlCheck;

typedef enum DlRole { DL_ROLE_MAIN, DL_ROLE_MEET, DL_ROLE_LOOP, DL_ROLE_LOADER } DlRole;

typedef struct DlSite {
    int line;
    int finding;
    DlRole role;
} DlSite;

typedef struct DlFile {
    char *path; /* real path */
    char **lines;
    int nlines;
    DlSite *sites; /* sorted by line */
    int nsites;
    int *first;  /* first[l] .. first[l + 1]: the sites of line l (size nlines + 2) */
    bool loaded; /* some code of the file ran */
} DlFile;

/* What one finding's sites showed. "agree" observations are the devices agreeing; "differ" ones
 * confirm. The first evidence of each kind is kept as text. */
typedef struct DlFinding {
    char *code, *name, *path, *message;
    int line, end_line, file;
    DlCheck check;
    char *chains[DL_MAX_CHAINS];
    int nchains;
    int meet_lines[32];
    int nmeet;
    int loop_line, loader_line;

    unsigned long hits, meet_hits, loop_hits, confirmations, agreements;
    bool agree_on_device;    /* some agreement was on a device other than the CPU */
    bool confirmed_by_error; /* confirm holds the error, not an observation */
    DlBuf confirm, agree, note;
    PyObject *owner; /* DL106/DL107: weak reference to the module holding the attribute */

    /* DL201 */
    double seconds;
    bool sync_device, sync_cpu;
    DlBuf sync_values;
    /* DL202: -1 unknown, 0 no, 1 yes */
    int loader_pinned, tensor_pinned, driver_pinned;
    DlBuf copy_target;
} DlFinding;

/* A device error seen while it propagated through frames. */
typedef struct DlMismatch {
    bool attributed;
    char *path; /* the innermost frame of the user's code it went through */
    int line;
    DlBuf message;
    unsigned long count;
} DlMismatch;

/* Frames waiting for the end of an armed line: the "after" evaluation. */
typedef struct DlPending {
    PyFrameObject *frame; /* strong reference */
    int file, line, end_line;
    double started;
    PyObject *held; /* DL202: the tensor copied, until the copy has run */
} DlPending;

/* Filename cache: a code object's co_filename (by identity) -> armed file index and user-code
 * flag. Keys are strong references, so identities stay unique. */
typedef struct DlNameSlot {
    PyObject *key;
    int file; /* -1: not armed */
    bool user;
} DlNameSlot;

typedef struct DlTracer {
    PyObject ob_base; /* PyObject_HEAD */
    DlFinding *findings;
    int nfindings;
    DlFile *files;
    int nfiles;
    char **library; /* path prefixes that are not the user's code */
    int nlibrary;
    char *cwd;

    DlNameSlot *names;
    size_t names_cap, names_len;

    DlPending *pending;
    int npending, pending_cap;

    DlMismatch *mismatches;
    int nmismatches, mismatches_cap;
    const void *last_exc;
    int last_mismatch;

    bool running, saw_device;
    PyObject *tensor_type, *module_type, *device_type, *loader_type, *disabled_tf;
    PyObject *trace_lines_descr; /* frame.f_trace_lines, set directly */
    DlCuda cuda;
} DlTracer;

/* sites.c */
int dl_sites_build(DlTracer *t);
/* The index of the file at this real path, read and registered on first use; -1 if unreadable. */
int dl_finding_file(DlTracer *t, const char *real);
DlCheck dl_check_for(const char *code);
int dl_file_of_path(DlTracer *t, const char *real);
void dl_findings_free(DlTracer *t);
char **dl_read_lines(const char *path, int *count);
const char *dl_line_text(DlTracer *t, int file, int line);

/* ---- values and devices (probe.c) ---- */

typedef enum DlKind { DL_KIND_TENSOR, DL_KIND_MODULE, DL_KIND_DEVICE } DlKind;

typedef struct DlValue {
    char label[96];
    char device[32];
    DlKind kind;
    bool scalar_cpu; /* a 0-dim CPU tensor: may meet any device */
    char driver[64]; /* what the CUDA driver says about the memory, when asked */
} DlValue;

enum { DL_MAX_VALUES = 32 };

typedef struct DlValues {
    DlValue v[DL_MAX_VALUES];
    int n;
    PyObject *seen[DL_MAX_VALUES]; /* borrowed identities, for de-duplication */
    int nseen;
} DlValues;

/* The frame's locals and globals, fetched once per evaluation. */
typedef struct DlScope {
    PyFrameObject *frame; /* borrowed */
    PyObject *locals, *globals;
    bool optimized;
} DlScope;

bool dl_scope_open(DlScope *s, PyFrameObject *frame);
void dl_scope_close(DlScope *s);
/* New reference to the value of a chain in the scope, or NULL (no error set). Never runs Python
 * code: attributes come from C-level descriptors, instance dicts and nn.Module's registries. */
PyObject *dl_eval_chain(DlTracer *t, DlScope *s, const char *chain);
/* Adds the device-bearing values of the chains (tensors, modules, devices, their containers). */
void dl_collect(DlTracer *t, DlScope *s, char *const *chains, int n, DlValues *out);
/* Drops the references dl_collect keeps for de-duplication. */
void dl_values_release(DlValues *vals);
/* New reference to o.attr, read the same way (NULL when that would need Python code). */
PyObject *dl_getattr(DlTracer *t, PyObject *o, const char *attr);
bool dl_is_tensor(DlTracer *t, PyObject *o);
bool dl_is_module(DlTracer *t, PyObject *o);
/* The device of a tensor, a module (its first parameter or buffer) or a torch.device, as text. */
bool dl_device_of(DlTracer *t, PyObject *o, char *out, size_t n);
/* A device given to `.to()`: torch.device, "cuda:0", a tensor (its device), an int (CUDA index). */
bool dl_target_device(DlTracer *t, PyObject *o, char *out, size_t n);
/* Calls a side-effect-free C method of a plain tensor (data_ptr, is_pinned); NULL otherwise. */
PyObject *dl_tensor_method(DlTracer *t, PyObject *tensor, const char *name);
/* Describes the values: "`x`: cpu, `y`: meta". */
void dl_values_describe(const DlValues *vals, DlBuf *out);
/* The distinct devices among tensors and modules (0-dim CPU tensors left out). */
int dl_values_devices(const DlValues *vals, const char **devs, int max);
bool dl_device_same(const char *a, const char *b);
bool dl_device_is_cpu(const char *d);

/* ---- checks: what one event at a site means for its finding (check.c) ---- */

void dl_check_before(DlTracer *t, DlFinding *f, DlRole role, PyFrameObject *frame, DlPending *p);
void dl_check_after(DlTracer *t, DlFinding *f, DlRole role, PyFrameObject *frame, DlPending *p);
/* A device error (or numpy TypeError, or any TypeError for DL112) propagating through a frame
 * at one of f's sites; true when it counts for f. */
typedef enum DlErrorKind { DL_ERR_DEVICE = 1, DL_ERR_NUMPY, DL_ERR_TYPE } DlErrorKind;
bool dl_check_error(DlTracer *t, DlFinding *f, PyFrameObject *frame, DlErrorKind kind,
                    const char *message);

/* ---- the line tracer (trace.c) and the module (module.c) ---- */

/* Finds torch's types in sys.modules once the program has imported torch. */
void dl_torch_resolve(DlTracer *t);

int dl_trace(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg);
void dl_trace_clear(DlTracer *t);
double dl_now(void);

/* ---- verdicts (verdict.c) ---- */

/* New reference: [{"code","name","path","line","verdict","evidence"}]. */
PyObject *dl_verdicts(DlTracer *t, bool device_used);
/* New reference: [{"path","line","message"}]. */
PyObject *dl_unpredicted(DlTracer *t);

#endif
