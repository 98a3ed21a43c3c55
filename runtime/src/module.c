/* devlint_runtime._tracer: the Tracer type the launcher drives.
 *
 *     t = Tracer(findings, library, cwd)  # findings: dicts with code, name, path, real, line,
 *                                          # end_line, message; library: path prefixes that are
 *                                          # not the user's code; cwd: for display paths
 *     t.start()                            # PyEval_SetTrace in this thread
 *     threading.settrace(t.thread_hook)    # ... and in threads started later
 *     t.stop()
 *     verdicts, unpredicted = t.results(device_used)
 *     t.driver()                           # the CUDA driver's status, in words
 */
#include "rt.h"

#include <stdlib.h>
#include <string.h>

/* torch's types, looked up in sys.modules once torch has been imported by the program (the
 * runtime never imports anything itself). */
static PyObject *module_attr(const char *module, const char *attr) {
    PyObject *name = PyUnicode_FromString(module);
    PyObject *m = name ? PyImport_GetModule(name) : NULL;
    Py_XDECREF(name);
    if (!m) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *v = PyDict_GetItemString(PyModule_GetDict(m), attr);
    Py_XINCREF(v);
    Py_DECREF(m);
    return v;
}

void dl_torch_resolve(DlTracer *t) {
    if (!t->tensor_type) t->tensor_type = module_attr("torch", "Tensor");
    if (!t->device_type) t->device_type = module_attr("torch", "device");
    if (!t->disabled_tf) t->disabled_tf = module_attr("torch._C", "_disabled_torch_function_impl");
    if (!t->module_type) t->module_type = module_attr("torch.nn.modules.module", "Module");
    if (!t->loader_type) t->loader_type = module_attr("torch.utils.data.dataloader", "DataLoader");
}

static char *dict_str(PyObject *d, const char *key) {
    PyObject *v = PyDict_GetItemString(d, key);
    const char *s = v && PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
    if (!s) PyErr_Clear();
    return s ? strdup(s) : NULL;
}

static int dict_int(PyObject *d, const char *key) {
    PyObject *v = PyDict_GetItemString(d, key);
    long n = v && PyLong_Check(v) ? PyLong_AsLong(v) : 0;
    if (PyErr_Occurred()) PyErr_Clear();
    return (int)n;
}

static int load_findings(DlTracer *t, PyObject *list) {
    Py_ssize_t n = PyList_Size(list);
    if (n < 0) return -1;
    t->findings = calloc((size_t)n + 1, sizeof *t->findings);
    if (!t->findings) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *d = PyList_GET_ITEM(list, i);
        if (!PyDict_Check(d)) {
            PyErr_SetString(PyExc_TypeError, "each finding must be a dict");
            return -1;
        }
        DlFinding *f = &t->findings[t->nfindings++];
        f->code = dict_str(d, "code");
        f->name = dict_str(d, "name");
        f->path = dict_str(d, "path");
        f->message = dict_str(d, "message");
        if (!f->code) f->code = strdup("");
        if (!f->name) f->name = strdup("");
        if (!f->path) f->path = strdup("");
        if (!f->message) f->message = strdup("");
        f->line = dict_int(d, "line");
        f->end_line = dict_int(d, "end_line");
        if (f->end_line < f->line) f->end_line = f->line;
        char *real = dict_str(d, "real");
        f->file = dl_finding_file(t, real);
        free(real);
    }
    return dl_sites_build(t);
}

static int tracer_init(DlTracer *t, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"findings", "library", "cwd", NULL};
    PyObject *findings, *library;
    const char *cwd;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O!s", kwlist, &PyList_Type, &findings,
                                     &PyList_Type, &library, &cwd))
        return -1;
    if (t->findings || t->files) {
        PyErr_SetString(PyExc_RuntimeError, "Tracer is already initialised");
        return -1;
    }
    t->last_mismatch = -1;
    t->cwd = strdup(cwd);
    Py_ssize_t nlib = PyList_Size(library);
    t->library = calloc((size_t)nlib + 1, sizeof *t->library);
    for (Py_ssize_t i = 0; t->library && i < nlib; i++) {
        PyObject *p = PyList_GET_ITEM(library, i);
        const char *s = PyUnicode_Check(p) ? PyUnicode_AsUTF8(p) : NULL;
        if (!s) {
            PyErr_SetString(PyExc_TypeError, "library entries must be str");
            return -1;
        }
        t->library[t->nlibrary++] = strdup(s);
    }
    PyObject *name = PyUnicode_InternFromString("f_trace_lines");
    PyObject *descr = name ? _PyType_Lookup(&PyFrame_Type, name) : NULL;
    Py_XDECREF(name);
    if (descr && Py_TYPE(descr)->tp_descr_set) t->trace_lines_descr = Py_NewRef(descr);
    return load_findings(t, findings);
}

static void tracer_dealloc(DlTracer *t) {
    dl_trace_clear(t);
    dl_findings_free(t);
    for (size_t i = 0; i < t->names_cap; i++)
        Py_XDECREF(t->names[i].key);
    free(t->names);
    free(t->pending);
    for (int i = 0; i < t->nmismatches; i++) {
        free(t->mismatches[i].path);
        dl_buf_free(&t->mismatches[i].message);
    }
    free(t->mismatches);
    for (int i = 0; i < t->nlibrary; i++)
        free(t->library[i]);
    free(t->library);
    free(t->cwd);
    Py_XDECREF(t->tensor_type);
    Py_XDECREF(t->module_type);
    Py_XDECREF(t->device_type);
    Py_XDECREF(t->loader_type);
    Py_XDECREF(t->disabled_tf);
    Py_XDECREF(t->trace_lines_descr);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static PyObject *tracer_start(DlTracer *t, PyObject *unused) {
    t->running = true;
    PyEval_SetTrace(dl_trace, (PyObject *)t);
    Py_RETURN_NONE;
}

static PyObject *tracer_stop(DlTracer *t, PyObject *unused) {
    t->running = false;
    PyEval_SetTrace(NULL, NULL);
    dl_trace_clear(t);
    Py_RETURN_NONE;
}

/* Installed with threading.settrace: runs as the first trace call of each new thread and puts
 * the C tracer in its place. */
static PyObject *tracer_thread_hook(DlTracer *t, PyObject *const *args, Py_ssize_t nargs) {
    if (t->running) PyEval_SetTrace(dl_trace, (PyObject *)t);
    Py_RETURN_NONE;
}

static PyObject *tracer_results(DlTracer *t, PyObject *arg) {
    int device_used = PyObject_IsTrue(arg);
    if (device_used < 0) return NULL;
    dl_torch_resolve(t);
    PyObject *verdicts = dl_verdicts(t, device_used);
    PyObject *unpredicted = verdicts ? dl_unpredicted(t) : NULL;
    if (!unpredicted) {
        Py_XDECREF(verdicts);
        return NULL;
    }
    return Py_BuildValue("(NN)", verdicts, unpredicted);
}

static PyObject *tracer_driver(DlTracer *t, PyObject *unused) {
    if (!dl_cuda_open(&t->cuda))
        return PyUnicode_FromFormat("%s; devices are torch's metadata", t->cuda.error);
    if (!t->cuda.initialised)
        return PyUnicode_FromString("CUDA driver found, not needed: no CUDA tensor was checked");
    return PyUnicode_FromFormat("CUDA driver %d.%d checked where CUDA memory lives",
                                t->cuda.driver_version / 1000,
                                (t->cuda.driver_version % 1000) / 10);
}

static PyMethodDef tracer_methods[] = {
    {"start", (PyCFunction)tracer_start, METH_NOARGS, "Start tracing this thread."},
    {"stop", (PyCFunction)tracer_stop, METH_NOARGS, "Stop tracing this thread."},
    {"thread_hook", (PyCFunction)(void (*)(void))tracer_thread_hook, METH_FASTCALL,
     "threading.settrace hook: trace the new thread in C."},
    {"results", (PyCFunction)tracer_results, METH_O,
     "results(device_used) -> (verdicts, unpredicted)"},
    {"driver", (PyCFunction)tracer_driver, METH_NOARGS, "The CUDA driver's status."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject tracer_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "devlint_runtime._tracer.Tracer",
    .tp_basicsize = sizeof(DlTracer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Checks devlint findings on the running program.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)tracer_init,
    .tp_dealloc = (destructor)tracer_dealloc,
    .tp_methods = tracer_methods,
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "devlint_runtime._tracer",
    .m_doc = "The C line tracer behind `devlint run`.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__tracer(void) {
    if (PyType_Ready(&tracer_type) < 0) return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    Py_INCREF(&tracer_type);
    if (PyModule_AddObject(m, "Tracer", (PyObject *)&tracer_type) < 0) {
        Py_DECREF(&tracer_type);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
