/* The line tracer, installed with PyEval_SetTrace. Cheap where there is nothing to see: on a
 * call, a frame whose file has no finding gets f_trace_lines = False (one cached lookup by the
 * filename object's identity), so the interpreter sends it no line events at all. Frames of
 * armed files get line events; a line with sites runs the sites' "before" checks and is kept
 * pending until the frame moves past it (the next line, or a return), which runs the "after"
 * checks. Exception events are looked at in every frame, but only device errors (a RuntimeError
 * "... on the same device ...", a TypeError "can't convert ... to numpy") cost more than two
 * type checks; they are followed as they propagate, attributed to the findings whose sites they
 * pass through, and otherwise kept as mismatches no finding predicted. */
#include "rt.h"

#include <frameobject.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

double dl_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- filename cache ---- */

static size_t name_hash(PyObject *key, size_t cap) {
    uintptr_t h = (uintptr_t)key >> 4;
    h *= (uintptr_t)0x9E3779B97F4A7C15ULL;
    return (size_t)(h >> 7) & (cap - 1);
}

static bool library_path(DlTracer *t, const char *path) {
    if (path[0] == '<') return true;
    for (int i = 0; i < t->nlibrary; i++) {
        size_t n = strlen(t->library[i]);
        if (n && strncmp(path, t->library[i], n) == 0) return true;
    }
    return false;
}

static void classify_name(DlTracer *t, PyObject *key, DlNameSlot *slot) {
    slot->file = -1;
    slot->user = false;
    const char *path = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    if (!path) {
        PyErr_Clear();
        return;
    }
    char real[PATH_MAX];
    bool resolved = path[0] != '<' && realpath(path, real) != NULL;
    slot->user = !library_path(t, path) && !(resolved && library_path(t, real));
    if (resolved) slot->file = dl_file_of_path(t, real);
    if (slot->file >= 0) t->files[slot->file].loaded = true;
}

static bool names_grow(DlTracer *t) {
    size_t cap = t->names_cap ? t->names_cap * 2 : 256;
    DlNameSlot *slots = calloc(cap, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i < t->names_cap; i++) {
        DlNameSlot *old = &t->names[i];
        if (!old->key) continue;
        size_t h = name_hash(old->key, cap);
        while (slots[h].key)
            h = (h + 1) & (cap - 1);
        slots[h] = *old;
    }
    free(t->names);
    t->names = slots;
    t->names_cap = cap;
    return true;
}

static DlNameSlot *name_slot(DlTracer *t, PyObject *key) {
    if (t->names_cap) {
        size_t h = name_hash(key, t->names_cap);
        while (t->names[h].key) {
            if (t->names[h].key == key) return &t->names[h];
            h = (h + 1) & (t->names_cap - 1);
        }
    }
    if ((t->names_len + 1) * 2 > t->names_cap && !names_grow(t)) return NULL;
    size_t h = name_hash(key, t->names_cap);
    while (t->names[h].key)
        h = (h + 1) & (t->names_cap - 1);
    DlNameSlot *slot = &t->names[h];
    Py_INCREF(key);
    slot->key = key;
    classify_name(t, key, slot);
    t->names_len++;
    return slot;
}

static DlNameSlot *frame_slot(DlTracer *t, PyFrameObject *frame) {
    PyCodeObject *code = PyFrame_GetCode(frame);
    DlNameSlot *slot = name_slot(t, code->co_filename);
    Py_DECREF(code);
    return slot;
}

/* ---- pending lines ---- */

static DlPending *push_pending(DlTracer *t, PyFrameObject *frame, int file, int line, int end) {
    if (t->npending == t->pending_cap) {
        int cap = t->pending_cap ? t->pending_cap * 2 : 16;
        DlPending *grown = realloc(t->pending, sizeof *grown * (size_t)cap);
        if (!grown) return NULL;
        t->pending = grown;
        t->pending_cap = cap;
    }
    DlPending *p = &t->pending[t->npending++];
    memset(p, 0, sizeof *p);
    Py_INCREF(frame);
    p->frame = frame;
    p->file = file;
    p->line = line;
    p->end_line = end;
    return p;
}

static void drop_pending(DlTracer *t, int i) {
    Py_CLEAR(t->pending[i].frame);
    Py_CLEAR(t->pending[i].held);
    t->pending[i] = t->pending[--t->npending];
}

static void finish_pending(DlTracer *t, int i) {
    DlPending *p = &t->pending[i];
    DlFile *f = &t->files[p->file];
    for (int s = f->first[p->line]; s < f->first[p->line + 1]; s++)
        dl_check_after(t, &t->findings[f->sites[s].finding], f->sites[s].role, p->frame, p);
    drop_pending(t, i);
}

void dl_trace_clear(DlTracer *t) {
    while (t->npending)
        drop_pending(t, t->npending - 1);
}

/* ---- events ---- */

static void on_call(DlTracer *t, PyFrameObject *frame) {
    DlNameSlot *slot = frame_slot(t, frame);
    if (slot && slot->file >= 0) return;
    PyObject *descr = t->trace_lines_descr;
    if (descr && Py_TYPE(descr)->tp_descr_set(descr, (PyObject *)frame, Py_False) < 0)
        PyErr_Clear();
}

static void on_line(DlTracer *t, PyFrameObject *frame) {
    DlNameSlot *slot = frame_slot(t, frame);
    if (!slot || slot->file < 0) return;
    int line = PyFrame_GetLineNumber(frame);
    for (int i = t->npending - 1; i >= 0; i--) {
        DlPending *p = &t->pending[i];
        if (p->frame != frame) continue;
        /* the same statement goes on (a call spread over lines comes back to its first) */
        if (line >= p->line && line <= p->end_line) return;
        finish_pending(t, i);
    }
    DlFile *f = &t->files[slot->file];
    if (line < 1 || line > f->nlines || f->first[line] == f->first[line + 1]) return;
    int end = line;
    for (int s = f->first[line]; s < f->first[line + 1]; s++) {
        const DlFinding *fd = &t->findings[f->sites[s].finding];
        if (f->sites[s].role == DL_ROLE_MAIN && fd->end_line > end) end = fd->end_line;
    }
    dl_torch_resolve(t);
    int index = t->npending;
    DlPending *p = push_pending(t, frame, slot->file, line, end);
    for (int s = f->first[line]; s < f->first[line + 1]; s++)
        dl_check_before(t, &t->findings[f->sites[s].finding], f->sites[s].role, frame, p);
    if (p && index < t->npending) t->pending[index].started = dl_now();
}

static void on_return(DlTracer *t, PyFrameObject *frame) {
    for (int i = t->npending - 1; i >= 0; i--)
        if (t->pending[i].frame == frame) finish_pending(t, i);
}

/* The message of a built-in exception: args[0] when it is a str (no __str__ is called). */
static const char *exception_message(PyObject *value) {
    if (!PyExceptionInstance_Check(value)) return NULL;
    PyObject *args = ((PyBaseExceptionObject *)value)->args;
    if (!args || !PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 1) return NULL;
    PyObject *first = PyTuple_GET_ITEM(args, 0);
    if (!PyUnicode_Check(first)) return NULL;
    const char *s = PyUnicode_AsUTF8(first);
    if (!s) PyErr_Clear();
    return s;
}

static DlErrorKind classify_error(PyObject *type, PyObject *value, const char **message) {
    *message = NULL;
    if (!PyType_Check(type)) return 0;
    bool runtime = PyType_IsSubtype((PyTypeObject *)type, (PyTypeObject *)PyExc_RuntimeError);
    bool typeerr = PyType_IsSubtype((PyTypeObject *)type, (PyTypeObject *)PyExc_TypeError);
    if (!runtime && !typeerr) return 0;
    const char *m = exception_message(value);
    if (!m) return typeerr ? DL_ERR_TYPE : 0;
    *message = m;
    if (typeerr) return strcasestr(m, "to numpy") ? DL_ERR_NUMPY : DL_ERR_TYPE;
    const char *expected = strcasestr(m, "expected");
    if ((expected && strcasestr(expected, "to be on the same device")) ||
        strcasestr(m, "on the same device as") || strcasestr(m, "expected object of device type") ||
        strcasestr(m, "to be on the same device"))
        return DL_ERR_DEVICE;
    /* conv layers: "Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor)" */
    const char *in = strcasestr(m, "input type ("), *w = strcasestr(m, "weight type (");
    if (in && w && (strstr(in, ".cuda.") != NULL) != (strstr(w, ".cuda.") != NULL))
        return DL_ERR_DEVICE;
    return 0;
}

/* The record of the error arg carries: the last one while it propagates (same object, and its
 * traceback has grown past one frame), a new one when it was just raised. */
static DlMismatch *mismatch_for(DlTracer *t, PyObject *arg, DlErrorKind kind, const char *message) {
    PyObject *value = PyTuple_GET_ITEM(arg, 1);
    PyObject *tb = PyTuple_GET_SIZE(arg) > 2 ? PyTuple_GET_ITEM(arg, 2) : NULL;
    bool fresh = tb && PyTraceBack_Check(tb) && ((PyTracebackObject *)tb)->tb_next == NULL;
    if (!fresh && value == t->last_exc && t->last_mismatch >= 0)
        return &t->mismatches[t->last_mismatch];
    if (t->nmismatches >= 256) return NULL; /* a loop that keeps failing: enough examples */
    if (t->nmismatches == t->mismatches_cap) {
        int cap = t->mismatches_cap ? t->mismatches_cap * 2 : 8;
        DlMismatch *grown = realloc(t->mismatches, sizeof *grown * (size_t)cap);
        if (!grown) return NULL;
        t->mismatches = grown;
        t->mismatches_cap = cap;
    }
    DlMismatch *m = &t->mismatches[t->nmismatches];
    memset(m, 0, sizeof *m);
    m->count = 1;
    dl_buf_printf(&m->message, "%s: %.*s", kind == DL_ERR_NUMPY ? "TypeError" : "RuntimeError",
                  (int)strcspn(message, "\n"), message);
    t->last_exc = value;
    t->last_mismatch = t->nmismatches++;
    return m;
}

static const char *display_path(DlTracer *t, const char *path) {
    size_t n = t->cwd ? strlen(t->cwd) : 0;
    if (n && strncmp(path, t->cwd, n) == 0 && path[n] == '/') return path + n + 1;
    return path;
}

/* The first frame of the user's code an error went through: where it is reported, with the
 * devices of the values on that line. */
static void locate(DlTracer *t, DlMismatch *m, PyFrameObject *frame) {
    PyCodeObject *code = PyFrame_GetCode(frame);
    const char *path = PyUnicode_AsUTF8(code->co_filename);
    if (!path) {
        PyErr_Clear();
        Py_DECREF(code);
        return;
    }
    m->path = strdup(display_path(t, path));
    m->line = PyFrame_GetLineNumber(frame);
    int nlines = 0;
    char **lines = dl_read_lines(path, &nlines);
    if (lines && m->line >= 1 && m->line <= nlines) {
        const char *text = lines[m->line - 1];
        char *chains[DL_MAX_CHAINS];
        int n = dl_scan_chains(text, strlen(text), chains, 0, DL_MAX_CHAINS);
        DlScope s;
        dl_scope_open(&s, frame);
        DlValues vals = {0};
        dl_collect(t, &s, chains, n, &vals);
        dl_scope_close(&s);
        DlBuf desc = {0};
        dl_values_describe(&vals, &desc);
        if (desc.len) dl_buf_printf(&m->message, " (%s)", dl_buf_str(&desc));
        dl_buf_free(&desc);
        dl_values_release(&vals);
        for (int i = 0; i < n; i++)
            free(chains[i]);
    }
    for (int l = 0; l < nlines; l++)
        free(lines[l]);
    free(lines);
    Py_DECREF(code);
}

static bool holds(PyObject *container, PyObject *o) {
    if (container == o) return true;
    if (PyList_CheckExact(container) || PyTuple_CheckExact(container)) {
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(container); i++)
            if (PySequence_Fast_GET_ITEM(container, i) == o) return true;
    } else if (PyDict_CheckExact(container)) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(container, &pos, &key, &value))
            if (value == o) return true;
    }
    return false;
}

/* Whether the line uses the finding's attribute (`self.blocks`) or one of its elements (`block`
 * in `for block in self.blocks`). */
static bool line_uses(DlTracer *t, const DlFinding *fd, DlScope *s, const char *text) {
    PyObject *attribute = NULL;
    for (int c = 0; c < fd->nchains && !attribute; c++)
        if (strncmp(fd->chains[c], "self.", 5) == 0) attribute = dl_eval_chain(t, s, fd->chains[c]);
    if (!attribute) return false;
    char *chains[DL_MAX_CHAINS];
    int n = dl_scan_chains(text, strlen(text), chains, 0, DL_MAX_CHAINS);
    bool uses = false;
    for (int i = 0; i < n; i++) {
        PyObject *o = uses ? NULL : dl_eval_chain(t, s, chains[i]);
        uses = o && holds(attribute, o);
        Py_XDECREF(o);
        free(chains[i]);
    }
    Py_DECREF(attribute);
    return uses;
}

static bool refers_to(PyObject *weakref, PyObject *o) {
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *target = NULL;
    if (PyWeakref_GetRef(weakref, &target) < 0) PyErr_Clear();
    Py_XDECREF(target); /* only its identity is compared */
    return target == o;
#else
    return PyWeakref_GetObject(weakref) == o;
#endif
}

/* DL106/DL107: an error in a method of the module that holds the attribute, on a line that
 * uses the attribute, where no site of the finding is. */
static void check_owners(DlTracer *t, DlMismatch *m, PyFrameObject *frame, int file, int line,
                         DlErrorKind kind, const char *message) {
    DlScope s;
    dl_scope_open(&s, frame);
    PyObject *self = dl_eval_chain(t, &s, "self");
    const char *text = dl_line_text(t, file, line);
    for (int i = 0; self && i < t->nfindings; i++) {
        DlFinding *fd = &t->findings[i];
        if (!fd->owner || !refers_to(fd->owner, self)) continue;
        bool site = false;
        const DlFile *f = &t->files[file];
        for (int k = f->first[line]; k < f->first[line + 1]; k++)
            site |= f->sites[k].finding == i;
        if (site || !line_uses(t, fd, &s, text)) continue;
        if (dl_check_error(t, fd, frame, kind, message) && m) m->attributed = true;
    }
    Py_XDECREF(self);
    dl_scope_close(&s);
}

static void on_exception(DlTracer *t, PyFrameObject *frame, PyObject *arg) {
    if (!PyTuple_Check(arg) || PyTuple_GET_SIZE(arg) < 2) return;
    const char *message;
    DlErrorKind kind = classify_error(PyTuple_GET_ITEM(arg, 0), PyTuple_GET_ITEM(arg, 1), &message);
    if (!kind) return;
    DlNameSlot *slot = frame_slot(t, frame);
    if (!slot) return;
    dl_torch_resolve(t);
    DlMismatch *m = NULL;
    if (kind != DL_ERR_TYPE) {
        m = mismatch_for(t, arg, kind, message);
        if (m && !m->path && slot->user) locate(t, m, frame);
    }
    if (slot->file < 0) return;
    for (int i = t->npending - 1; i >= 0; i--)
        if (t->pending[i].frame == frame) drop_pending(t, i);
    DlFile *f = &t->files[slot->file];
    int line = PyFrame_GetLineNumber(frame);
    if (line >= 1 && line <= f->nlines)
        for (int s = f->first[line]; s < f->first[line + 1]; s++) {
            const DlSite *site = &f->sites[s];
            if (site->role != DL_ROLE_MAIN && site->role != DL_ROLE_MEET) continue;
            if (dl_check_error(t, &t->findings[site->finding], frame, kind, message) && m)
                m->attributed = true;
        }
    if (kind == DL_ERR_DEVICE && line >= 1 && line <= f->nlines)
        check_owners(t, m, frame, slot->file, line, kind, message);
}

int dl_trace(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg) {
    DlTracer *t = (DlTracer *)obj;
    if (!t->running) return 0;
    switch (what) {
    case PyTrace_CALL:
        on_call(t, frame);
        break;
    case PyTrace_LINE:
        on_line(t, frame);
        break;
    case PyTrace_RETURN:
        if (!t->npending) return 0;
        on_return(t, frame);
        break;
    case PyTrace_EXCEPTION:
        on_exception(t, frame, arg);
        break;
    default:
        return 0;
    }
    /* Whatever went wrong in here is the runtime's business, never the program's. */
    if (PyErr_Occurred()) PyErr_Clear();
    return 0;
}
