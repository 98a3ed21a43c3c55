/* Reading a running frame without changing it: value chains are looked up in the frame's locals
 * and globals, attributes through C-level descriptors, instance dicts and nn.Module's registries
 * (_parameters, _buffers, _modules), never through properties, __getattr__ or any other Python
 * code. Devices come from torch's C getters (tensor.device), a module's device is its first
 * parameter's (or buffer's), and the CUDA driver is asked where CUDA tensors' memory really is. */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- scopes ---- */

bool dl_scope_open(DlScope *s, PyFrameObject *frame) {
    memset(s, 0, sizeof *s);
    s->frame = frame;
    s->globals = PyFrame_GetGlobals(frame);
#if PY_VERSION_HEX < 0x030C0000
    PyCodeObject *code = PyFrame_GetCode(frame);
    s->optimized = code && (code->co_flags & CO_OPTIMIZED);
    Py_XDECREF(code);
    s->locals = PyFrame_GetLocals(frame);
    if (!s->locals) PyErr_Clear();
#endif
    return true;
}

void dl_scope_close(DlScope *s) {
#if PY_VERSION_HEX < 0x030C0000
    if (s->locals && s->optimized) {
        /* PyFrame_GetLocals left the frame marked as having its locals in the dict: a Python
         * trace function installed later (pdb) would copy that snapshot back over newer values.
         * Writing the unchanged values back now clears the mark. */
        PyFrame_LocalsToFast(s->frame, 0);
        /* The snapshot would also keep alive values the program deletes (a freed GPU tensor):
         * drop it when nobody else holds the dict. */
        if (PyDict_CheckExact(s->locals) && Py_REFCNT(s->locals) == 2) PyDict_Clear(s->locals);
    }
#endif
    Py_CLEAR(s->locals);
    Py_CLEAR(s->globals);
}

static PyObject *mapping_get(PyObject *map, PyObject *key) {
    if (!map) return NULL;
    if (PyDict_Check(map)) {
        PyObject *v = PyDict_GetItemWithError(map, key);
        if (!v) PyErr_Clear();
        Py_XINCREF(v);
        return v;
    }
    return NULL;
}

static PyObject *scope_name(DlScope *s, PyObject *name) {
    PyObject *v = NULL;
#if PY_VERSION_HEX >= 0x030C0000
    v = PyFrame_GetVar(s->frame, name);
    if (v) return v;
    PyErr_Clear();
#else
    v = mapping_get(s->locals, name);
    if (v) return v;
#endif
    return mapping_get(s->globals, name);
}

/* ---- types ---- */

bool dl_is_tensor(DlTracer *t, PyObject *o) {
    return t->tensor_type && PyObject_TypeCheck(o, (PyTypeObject *)t->tensor_type);
}

bool dl_is_module(DlTracer *t, PyObject *o) {
    return t->module_type && PyObject_TypeCheck(o, (PyTypeObject *)t->module_type);
}

static bool is_device(DlTracer *t, PyObject *o) {
    return t->device_type && PyObject_TypeCheck(o, (PyTypeObject *)t->device_type);
}

/* A tensor whose C getters do not dispatch to Python (__torch_function__ overrides do). */
static bool plain_tensor(DlTracer *t, PyObject *o) {
    if (!dl_is_tensor(t, o)) return false;
    if (Py_TYPE(o) == (PyTypeObject *)t->tensor_type) return true;
    PyObject *name = PyUnicode_InternFromString("__torch_function__");
    PyObject *tf = name ? _PyType_Lookup(Py_TYPE(o), name) : NULL;
    Py_XDECREF(name);
    return tf && tf == t->disabled_tf;
}

/* ---- attributes without Python code ---- */

static PyObject *instance_dict(PyObject *o) {
    PyObject *d = PyObject_GenericGetDict(o, NULL);
    if (!d) PyErr_Clear();
    return d;
}

static PyObject *module_registry(PyObject *dict, const char *registry, PyObject *name) {
    PyObject *reg = PyDict_GetItemString(dict, registry);
    if (!reg || !PyDict_Check(reg)) return NULL;
    return mapping_get(reg, name);
}

static PyObject *safe_getattr(DlTracer *t, PyObject *o, PyObject *name) {
    if (PyModule_Check(o)) return mapping_get(PyModule_GetDict(o), name);
    if (PyType_Check(o)) {
        PyObject *v = _PyType_Lookup((PyTypeObject *)o, name);
        if (!v || Py_TYPE(v)->tp_descr_get) return NULL;
        Py_INCREF(v);
        return v;
    }
    PyTypeObject *tp = Py_TYPE(o);
    PyObject *descr = _PyType_Lookup(tp, name);
    if (descr && Py_TYPE(descr)->tp_descr_get && Py_TYPE(descr)->tp_descr_set) {
        if (!Py_IS_TYPE(descr, &PyGetSetDescr_Type) && !Py_IS_TYPE(descr, &PyMemberDescr_Type))
            return NULL; /* a property: Python code */
        if (dl_is_tensor(t, o) && !plain_tensor(t, o)) return NULL;
        PyObject *v = Py_TYPE(descr)->tp_descr_get(descr, o, (PyObject *)tp);
        if (!v) PyErr_Clear();
        return v;
    }
    PyObject *dict = instance_dict(o);
    if (dict) {
        PyObject *v = mapping_get(dict, name);
        if (!v && dl_is_module(t, o)) {
            v = module_registry(dict, "_parameters", name);
            if (!v) v = module_registry(dict, "_buffers", name);
            if (!v) v = module_registry(dict, "_modules", name);
        }
        Py_DECREF(dict);
        if (v) return v;
    }
    if (descr && !Py_TYPE(descr)->tp_descr_get) { /* a plain class attribute */
        Py_INCREF(descr);
        return descr;
    }
    return NULL;
}

PyObject *dl_getattr(DlTracer *t, PyObject *o, const char *attr) {
    PyObject *name = PyUnicode_InternFromString(attr);
    if (!name) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *v = safe_getattr(t, o, name);
    Py_DECREF(name);
    return v;
}

/* container[index] for exact lists, tuples and dicts only: no __getitem__ is called. */
static PyObject *safe_getitem(PyObject *o, PyObject *key) {
    if ((PyList_CheckExact(o) || PyTuple_CheckExact(o)) && PyLong_Check(key)) {
        Py_ssize_t i = PyLong_AsSsize_t(key), n = PySequence_Fast_GET_SIZE(o);
        if (i == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return NULL;
        }
        if (i < 0) i += n;
        if (i < 0 || i >= n) return NULL;
        PyObject *v = PySequence_Fast_GET_ITEM(o, i);
        Py_INCREF(v);
        return v;
    }
    if (PyDict_CheckExact(o) && (PyUnicode_CheckExact(key) || PyLong_CheckExact(key)))
        return mapping_get(o, key);
    return NULL;
}

/* The next component of a chain at *p: sets *name (a str) or *key (an int or str subscript). */
static bool next_component(const char **p, PyObject **name, PyObject **key) {
    const char *s = *p;
    *name = *key = NULL;
    if (*s == '.') s++;
    if (*s == '[') {
        s++;
        if (*s == '"' || *s == '\'') {
            char q = *s++;
            const char *e = strchr(s, q);
            if (!e) return false;
            *key = PyUnicode_FromStringAndSize(s, e - s);
            s = e + 1;
        } else {
            char *e = NULL;
            long v = strtol(s, &e, 10);
            if (e == s) return false;
            *key = PyLong_FromLong(v);
            s = e;
        }
        if (*s != ']') {
            Py_CLEAR(*key);
            return false;
        }
        *p = s + 1;
        return *key != NULL;
    }
    const char *e = s;
    while (*e && *e != '.' && *e != '[')
        e++;
    if (e == s) return false;
    *name = PyUnicode_FromStringAndSize(s, e - s);
    if (*name) PyUnicode_InternInPlace(name);
    *p = e;
    return *name != NULL;
}

PyObject *dl_eval_chain(DlTracer *t, DlScope *s, const char *chain) {
    const char *p = chain;
    PyObject *name = NULL, *key = NULL;
    if (!next_component(&p, &name, &key) || !name) {
        Py_XDECREF(key);
        return NULL;
    }
    PyObject *cur = scope_name(s, name);
    Py_DECREF(name);
    while (cur && *p) {
        if (!next_component(&p, &name, &key)) {
            Py_CLEAR(cur);
            break;
        }
        PyObject *next = name ? safe_getattr(t, cur, name) : safe_getitem(cur, key);
        Py_XDECREF(name);
        Py_XDECREF(key);
        Py_DECREF(cur);
        cur = next;
    }
    if (PyErr_Occurred()) PyErr_Clear();
    return cur;
}

/* ---- devices ---- */

bool dl_device_is_cpu(const char *d) {
    return strcmp(d, "cpu") == 0 || strncmp(d, "cpu:", 4) == 0;
}

/* "cuda" matches "cuda:0" (an index-less device means the current one); otherwise exact. */
bool dl_device_same(const char *a, const char *b) {
    if (strcmp(a, b) == 0) return true;
    size_t na = strcspn(a, ":"), nb = strcspn(b, ":");
    if (na != nb || strncmp(a, b, na) != 0) return false;
    return a[na] == '\0' || b[nb] == '\0';
}

static bool str_device(PyObject *s, char *out, size_t n) {
    const char *text = PyUnicode_AsUTF8(s);
    if (!text) {
        PyErr_Clear();
        return false;
    }
    static const char *const types[] = {"cpu", "cuda", "meta", "mps", "xpu", "xla", "hpu", "npu"};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        size_t k = strlen(types[i]);
        if (strncmp(text, types[i], k) == 0 && (text[k] == '\0' || text[k] == ':')) {
            snprintf(out, n, "%s", text);
            return true;
        }
    }
    return false;
}

static bool object_str(PyObject *o, char *out, size_t n) {
    PyObject *s = PyObject_Str(o);
    if (!s) {
        PyErr_Clear();
        return false;
    }
    bool ok = str_device(s, out, n);
    Py_DECREF(s);
    return ok;
}

static bool tensor_device(DlTracer *t, PyObject *o, char *out, size_t n) {
    if (!plain_tensor(t, o)) return false;
    PyObject *name = PyUnicode_InternFromString("device");
    PyObject *dev = name ? safe_getattr(t, o, name) : NULL;
    Py_XDECREF(name);
    if (!dev) return false;
    bool ok = object_str(dev, out, n);
    Py_DECREF(dev);
    return ok;
}

static PyObject *registry_tensor(DlTracer *t, PyObject *dict, const char *registry) {
    PyObject *reg = PyDict_GetItemString(dict, registry);
    if (!reg || !PyDict_Check(reg)) return NULL;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    char dev[32];
    while (PyDict_Next(reg, &pos, &key, &value))
        if (value != Py_None && tensor_device(t, value, dev, sizeof dev)) return Py_NewRef(value);
    return NULL;
}

/* New reference to the module's first parameter (or buffer) with a device, depth first. */
static PyObject *module_tensor(DlTracer *t, PyObject *m, int depth) {
    if (depth > 32) return NULL;
    PyObject *dict = instance_dict(m);
    if (!dict) return NULL;
    PyObject *found = registry_tensor(t, dict, "_parameters");
    if (!found) found = registry_tensor(t, dict, "_buffers");
    PyObject *mods = found ? NULL : PyDict_GetItemString(dict, "_modules");
    if (mods && PyDict_Check(mods)) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (!found && PyDict_Next(mods, &pos, &key, &value))
            if (value != Py_None && dl_is_module(t, value))
                found = module_tensor(t, value, depth + 1);
    }
    Py_DECREF(dict);
    return found;
}

static bool module_device(DlTracer *t, PyObject *m, char *out, size_t n) {
    PyObject *tensor = module_tensor(t, m, 0);
    bool ok = tensor && tensor_device(t, tensor, out, n);
    Py_XDECREF(tensor);
    return ok;
}

bool dl_device_of(DlTracer *t, PyObject *o, char *out, size_t n) {
    if (dl_is_tensor(t, o)) return tensor_device(t, o, out, n);
    if (dl_is_module(t, o)) return module_device(t, o, out, n);
    if (is_device(t, o)) return object_str(o, out, n);
    return false;
}

bool dl_target_device(DlTracer *t, PyObject *o, char *out, size_t n) {
    if (PyUnicode_Check(o)) return str_device(o, out, n);
    if (PyLong_CheckExact(o)) {
        long i = PyLong_AsLong(o);
        if (i == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return false;
        }
        snprintf(out, n, "cuda:%ld", i);
        return true;
    }
    return (dl_is_tensor(t, o) || is_device(t, o)) && dl_device_of(t, o, out, n);
}

PyObject *dl_tensor_method(DlTracer *t, PyObject *tensor, const char *name) {
    if (!plain_tensor(t, tensor)) return NULL;
    PyObject *key = PyUnicode_InternFromString(name);
    PyObject *m = key ? _PyType_Lookup(Py_TYPE(tensor), key) : NULL;
    Py_XDECREF(key);
    if (!m || !Py_IS_TYPE(m, &PyMethodDescr_Type)) return NULL;
    PyObject *v = PyObject_CallOneArg(m, tensor);
    if (!v) PyErr_Clear();
    return v;
}

/* ---- collecting the values of chains ---- */

static bool seen(DlValues *out, PyObject *o) {
    for (int i = 0; i < out->nseen; i++)
        if (out->seen[i] == o) return true;
    if (out->nseen < DL_MAX_VALUES) {
        Py_INCREF(o);
        out->seen[out->nseen++] = o;
    }
    return false;
}

static void driver_note(DlTracer *t, PyObject *tensor, DlValue *v) {
    if (strncmp(v->device, "cuda", 4) != 0) return;
    PyObject *ptr = dl_tensor_method(t, tensor, "data_ptr");
    if (!ptr) return;
    unsigned long long addr = PyLong_AsUnsignedLongLong(ptr);
    Py_DECREF(ptr);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return;
    }
    int ordinal = -1;
    DlMemory m = dl_cuda_where(&t->cuda, (uintptr_t)addr, &ordinal);
    if (m == DL_MEM_UNKNOWN) return;
    if (ordinal >= 0)
        snprintf(v->driver, sizeof v->driver, "driver: %s on GPU %d", dl_cuda_memory_name(m),
                 ordinal);
    else
        snprintf(v->driver, sizeof v->driver, "driver: %s", dl_cuda_memory_name(m));
}

/* Adds o under label if it carries a device; false when it does not. */
static bool add_value(DlTracer *t, PyObject *o, const char *label, DlValues *out) {
    if (out->n >= DL_MAX_VALUES) return false;
    DlValue *v = &out->v[out->n];
    memset(v, 0, sizeof *v);
    if (dl_is_tensor(t, o))
        v->kind = DL_KIND_TENSOR;
    else if (dl_is_module(t, o))
        v->kind = DL_KIND_MODULE;
    else if (is_device(t, o))
        v->kind = DL_KIND_DEVICE;
    else
        return false;
    if (seen(out, o)) return true;
    if (!dl_device_of(t, o, v->device, sizeof v->device)) return false;
    snprintf(v->label, sizeof v->label, "%.95s", label);
    if (v->kind == DL_KIND_TENSOR) {
        PyObject *name = PyUnicode_InternFromString("ndim");
        PyObject *ndim = name ? safe_getattr(t, o, name) : NULL;
        Py_XDECREF(name);
        v->scalar_cpu =
            ndim && PyLong_Check(ndim) && PyLong_AsLong(ndim) == 0 && dl_device_is_cpu(v->device);
        Py_XDECREF(ndim);
        if (PyErr_Occurred()) PyErr_Clear();
        driver_note(t, o, v);
    } else if (v->kind == DL_KIND_MODULE) {
        PyObject *tensor = module_tensor(t, o, 0); /* where its parameters really are */
        if (tensor) driver_note(t, tensor, v);
        Py_XDECREF(tensor);
    }
    if (!dl_device_is_cpu(v->device)) t->saw_device = true;
    out->n++;
    return true;
}

static bool add_container(DlTracer *t, PyObject *o, const char *chain, DlValues *out) {
    char label[96];
    bool any = false;
    if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        for (Py_ssize_t i = 0; i < n && i < 8; i++) {
            snprintf(label, sizeof label, "%.80s[%zd]", chain, i);
            any |= add_value(t, PySequence_Fast_GET_ITEM(o, i), label, out);
        }
    } else if (PyDict_CheckExact(o)) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        int k = 0;
        while (PyDict_Next(o, &pos, &key, &value) && k++ < 8) {
            const char *ks = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
            if (!ks) PyErr_Clear();
            snprintf(label, sizeof label, "%.60s[\"%.24s\"]", chain, ks ? ks : "?");
            any |= add_value(t, value, label, out);
        }
    }
    return any;
}

/* A string naming a device, held by a variable whose name says so (`device`, `args.device`). */
static bool add_device_string(PyObject *o, const char *chain, DlValues *out, DlTracer *t) {
    const char *last = strrchr(chain, '.');
    last = last ? last + 1 : chain;
    if (!PyUnicode_Check(o) || !strcasestr(last, "device") || out->n >= DL_MAX_VALUES) return false;
    DlValue *v = &out->v[out->n];
    memset(v, 0, sizeof *v);
    if (!str_device(o, v->device, sizeof v->device)) return false;
    v->kind = DL_KIND_DEVICE;
    snprintf(v->label, sizeof v->label, "%.95s", chain);
    if (!dl_device_is_cpu(v->device)) t->saw_device = true;
    out->n++;
    return true;
}

/* The chain's value, or failing that its longest prefix that carries a device (`h.shape` gives
 * `h`). */
static void collect_chain(DlTracer *t, DlScope *s, const char *chain, DlValues *out) {
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s", chain);
    for (;;) {
        PyObject *o = dl_eval_chain(t, s, prefix);
        if (o) {
            bool done = add_value(t, o, prefix, out) || add_container(t, o, prefix, out) ||
                        add_device_string(o, prefix, out, t);
            Py_DECREF(o);
            if (done) return;
        }
        char *cut = NULL;
        for (char *c = prefix; *c; c++)
            if (*c == '.' || *c == '[') cut = c;
        if (!cut) return;
        *cut = '\0';
    }
}

void dl_collect(DlTracer *t, DlScope *s, char *const *chains, int n, DlValues *out) {
    for (int i = 0; i < n; i++)
        collect_chain(t, s, chains[i], out);
}

void dl_values_release(DlValues *vals) {
    for (int i = 0; i < vals->nseen; i++)
        Py_CLEAR(vals->seen[i]);
    vals->nseen = 0;
}

int dl_values_devices(const DlValues *vals, const char **devs, int max) {
    int n = 0;
    for (int i = 0; i < vals->n; i++) {
        const DlValue *v = &vals->v[i];
        if (v->kind == DL_KIND_DEVICE || v->scalar_cpu) continue;
        bool dup = false;
        for (int k = 0; k < n; k++)
            dup |= dl_device_same(devs[k], v->device);
        if (!dup && n < max) devs[n++] = v->device;
    }
    return n;
}

void dl_values_describe(const DlValues *vals, DlBuf *out) {
    /* device variables (`device` is meta) only when no tensor or module says more */
    bool carriers = false;
    for (int i = 0; i < vals->n; i++)
        carriers |= vals->v[i].kind != DL_KIND_DEVICE;
    bool first = true;
    for (int i = 0; i < vals->n; i++) {
        const DlValue *v = &vals->v[i];
        if (carriers && v->kind == DL_KIND_DEVICE) continue;
        dl_buf_printf(out, "%s`%s` %s %s", first ? "" : ", ", v->label,
                      v->kind == DL_KIND_DEVICE ? "is" : "on", v->device);
        first = false;
        if (v->kind == DL_KIND_MODULE) dl_buf_printf(out, " (module)");
        if (v->scalar_cpu) dl_buf_printf(out, " (0-dim)");
        if (v->driver[0]) dl_buf_printf(out, " (%s)", v->driver);
    }
}
