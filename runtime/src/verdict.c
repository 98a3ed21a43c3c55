/* One verdict per finding, from what its sites showed:
 *   confirmed     the devices really differed where the finding said (or the error happened)
 *   refuted       the line ran and the devices agreed, on a device, or while the program used one
 *   not-reached   the finding's line (or the line where its values meet) never ran
 *   inconclusive  the line ran but showed nothing either way, e.g. everything stayed on the CPU
 * DL201 and DL202 have their own evidence: how often the sync ran per loop iteration and for how
 * long; whether the memory copied from was pinned (the CUDA driver's word, else torch's). */
#include "rt.h"

#include <stdio.h>
#include <string.h>

typedef struct Verdict {
    const char *verdict;
    DlBuf evidence;
} Verdict;

__attribute__((format(printf, 3, 4))) static void set(Verdict *v, const char *verdict,
                                                      const char *fmt, ...) {
    v->verdict = verdict;
    va_list ap;
    va_start(ap, fmt);
    dl_buf_vprintf(&v->evidence, fmt, ap);
    va_end(ap);
}

static void ran(const DlFinding *f, Verdict *v) {
    dl_buf_printf(&v->evidence, "; line %d ran %lu time%s", f->line, f->hits,
                  f->hits == 1 ? "" : "s");
}

static void sync_verdict(const DlFinding *f, bool device, Verdict *v) {
    DlBuf base = {0};
    dl_buf_printf(&base, "line %d ran %lu time%s", f->line, f->hits, f->hits == 1 ? "" : "s");
    bool per_iteration = true;
    if (f->loop_line && f->loop_hits) {
        double per = (double)f->hits / (double)f->loop_hits;
        dl_buf_printf(&base, " in %lu iteration%s of the loop at line %d (%.2f per iteration)",
                      f->loop_hits, f->loop_hits == 1 ? "" : "s", f->loop_line, per);
        per_iteration = per >= 0.5;
    }
    dl_buf_printf(&base, ", %.3f ms on the line in total", f->seconds * 1000.0);
    const char *b = dl_buf_str(&base);
    if (f->sync_device && per_iteration) {
        set(v, "confirmed", "%s", b);
        dl_buf_printf(&v->evidence, "; %s: each run waits for the device",
                      dl_buf_str(&f->sync_values));
    } else if (f->sync_device) {
        set(v, "refuted", "%s: not every iteration", b);
        dl_buf_printf(&v->evidence, "; %s", dl_buf_str(&f->sync_values));
    } else if (f->sync_cpu && device) {
        set(v, "refuted", "%s", b);
        dl_buf_printf(&v->evidence, "; but %s: there is no device to wait for",
                      dl_buf_str(&f->sync_values));
    } else if (f->sync_cpu) {
        set(v, "inconclusive", "everything stayed on the CPU: %s", b);
        dl_buf_printf(&v->evidence, "; %s", dl_buf_str(&f->sync_values));
    } else {
        set(v, "inconclusive", "%s; the value it syncs could not be read", b);
    }
    dl_buf_free(&base);
}

static void pinned_verdict(const DlFinding *f, Verdict *v) {
    const char *target = f->copy_target.len ? dl_buf_str(&f->copy_target) : "the device";
    char tail[160];
    snprintf(tail, sizeof tail, "; line %d ran %lu time%s", f->line, f->hits,
             f->hits == 1 ? "" : "s");
    if (f->copy_target.len && dl_device_is_cpu(target)) {
        set(v, "inconclusive", "the copy goes to %s: nothing to overlap", target);
    } else if (f->driver_pinned == 1) {
        set(v, "refuted",
            "the CUDA driver reports the source in pinned host memory: the copy to "
            "%s is asynchronous",
            target);
    } else if (f->driver_pinned == 0) {
        set(v, "confirmed",
            "the CUDA driver reports the source in pageable host memory: the copy "
            "to %s is synchronous",
            target);
    } else if (f->tensor_pinned == 1) {
        set(v, "refuted",
            "the source tensor is pinned (torch: is_pinned() is True): the copy to "
            "%s can overlap",
            target);
    } else if (f->loader_pinned == 1) {
        set(v, "refuted",
            "the DataLoader was built with pin_memory=True (torch pins its batches "
            "when CUDA is available): the copy to %s can overlap",
            target);
    } else if (f->tensor_pinned == 0) {
        set(v, "confirmed", "the source tensor is not pinned (torch: is_pinned() is False%s)",
            f->loader_pinned == 0 ? "; the DataLoader has pin_memory=False" : "");
        dl_buf_printf(&v->evidence, ": the copy to %s is synchronous", target);
    } else {
        set(v, "inconclusive", "the line ran, but the source tensor could not be read%s", "");
    }
    dl_buf_printf(&v->evidence, "%s", tail);
}

static void meet_lines(const DlFinding *f, DlBuf *out) {
    for (int i = 0; i < f->nmeet; i++)
        dl_buf_printf(out, "%s%d",
                      i == 0              ? ""
                      : i == f->nmeet - 1 ? " and "
                                          : ", ",
                      f->meet_lines[i]);
}

static void decide(const DlTracer *t, const DlFinding *f, bool device, Verdict *v) {
    if (f->file < 0) {
        set(v, "inconclusive", "%s could not be read, so its lines were not watched", f->path);
        return;
    }
    if (f->check == DL_CHECK_SYNC && f->hits) {
        sync_verdict(f, device, v);
        return;
    }
    if (f->check == DL_CHECK_PINNED && f->hits) {
        pinned_verdict(f, v);
        return;
    }
    if (f->confirmations) {
        set(v, "confirmed", "%s", dl_buf_str(&f->confirm));
        if (f->confirmations > 1)
            dl_buf_printf(&v->evidence, " (seen %lu times)", f->confirmations);
        return;
    }
    if (!f->hits && !f->meet_hits) {
        v->verdict = "not-reached";
        dl_buf_printf(&v->evidence, "line %d never ran", f->line);
        if (!t->files[f->file].loaded)
            dl_buf_printf(&v->evidence, ": the program did not run or import %s", f->path);
        /* DL113's line is in a Dataset that DataLoader workers run: forked, so never traced */
        if (strcmp(f->code, "DL113") == 0)
            dl_buf_printf(&v->evidence, " in this process (DataLoader worker processes, where "
                                        "this line runs, are not traced)");
        return;
    }
    if (f->check == DL_CHECK_ORIGIN && f->nmeet && !f->meet_hits) {
        v->verdict = "not-reached";
        dl_buf_printf(&v->evidence, "line %d ran %lu time%s, but line%s ", f->line, f->hits,
                      f->hits == 1 ? "" : "s", f->nmeet == 1 ? "" : "s");
        meet_lines(f, &v->evidence);
        dl_buf_printf(&v->evidence, ", where its values meet, never ran");
        if (f->note.len) dl_buf_printf(&v->evidence, " (%s)", dl_buf_str(&f->note));
        return;
    }
    if (f->agreements && (f->agree_on_device || device)) {
        set(v, "refuted", "%s", dl_buf_str(&f->agree));
        ran(f, v);
        return;
    }
    if (f->agreements) {
        set(v, "inconclusive", "everything stayed on the CPU: %s", dl_buf_str(&f->agree));
        ran(f, v);
        return;
    }
    if (f->note.len) {
        set(v, "inconclusive", "%s", dl_buf_str(&f->note));
        ran(f, v);
        return;
    }
    v->verdict = "inconclusive";
    dl_buf_printf(&v->evidence, "line %d ran %lu time%s; %s is not checked at run time", f->line,
                  f->hits, f->hits == 1 ? "" : "s", f->code);
}

static int add_str(PyObject *d, const char *key, const char *value) {
    PyObject *v = PyUnicode_DecodeUTF8(value, (Py_ssize_t)strlen(value), "replace");
    int rc = v ? PyDict_SetItemString(d, key, v) : -1;
    Py_XDECREF(v);
    return rc;
}

static int add_int(PyObject *d, const char *key, long value) {
    PyObject *v = PyLong_FromLong(value);
    int rc = v ? PyDict_SetItemString(d, key, v) : -1;
    Py_XDECREF(v);
    return rc;
}

PyObject *dl_verdicts(DlTracer *t, bool device_used) {
    bool device = device_used || t->saw_device;
    bool driver = dl_cuda_open(&t->cuda);
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < t->nfindings; i++) {
        const DlFinding *f = &t->findings[i];
        Verdict v = {0};
        decide(t, f, device, &v);
        bool devices = strcmp(v.verdict, "confirmed") == 0 || strcmp(v.verdict, "refuted") == 0;
        if (devices && !driver)
            dl_buf_printf(&v.evidence, " [no CUDA driver: devices from torch's metadata]");
        PyObject *d = PyDict_New();
        int rc = !d || add_str(d, "code", f->code) || add_str(d, "name", f->name) ||
                 add_str(d, "path", f->path) || add_int(d, "line", f->line) ||
                 add_str(d, "verdict", v.verdict) ||
                 add_str(d, "evidence", dl_buf_str(&v.evidence)) || PyList_Append(list, d);
        Py_XDECREF(d);
        dl_buf_free(&v.evidence);
        if (rc) Py_CLEAR(list);
    }
    return list;
}

PyObject *dl_unpredicted(DlTracer *t) {
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < t->nmismatches; i++) {
        DlMismatch *m = &t->mismatches[i];
        /* an error that never reached the user's code was handled inside a library */
        if (m->attributed || m->count == 0 || !m->path) continue;
        /* the same error at the same place, again: count it once */
        for (int k = i + 1; k < t->nmismatches; k++) {
            DlMismatch *o = &t->mismatches[k];
            if (o->attributed || !o->count || !o->path || o->line != m->line ||
                strcmp(o->path, m->path) != 0 ||
                strcmp(dl_buf_str(&o->message), dl_buf_str(&m->message)) != 0)
                continue;
            m->count += o->count;
            o->count = 0;
        }
        DlBuf message = {0};
        dl_buf_printf(&message, "%s", dl_buf_str(&m->message));
        if (m->count > 1) dl_buf_printf(&message, " (%lu times)", m->count);
        PyObject *d = PyDict_New();
        int rc = !d || add_str(d, "path", m->path) || add_int(d, "line", m->line) ||
                 add_str(d, "message", dl_buf_str(&message)) || PyList_Append(list, d);
        Py_XDECREF(d);
        dl_buf_free(&message);
        if (rc) Py_CLEAR(list);
    }
    return list;
}
