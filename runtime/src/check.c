/* What an event at a site means for its finding. "before" runs when an armed line starts (the
 * operands of the line are there), "after" when the frame moves past it (what the line made or
 * left behind), "error" when a device error propagates through it. Each turns the devices of the
 * values the finding names into evidence: a confirmation (the devices really differ, or the
 * error happened), an agreement (they do not), or a note. */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Evaluating every time a hot line runs would cost; the first runs and a sample after that
 * are enough to see what the line does. */
static bool sample(unsigned long hits) {
    return hits <= 32 || hits % 64 == 0;
}

static const char *const device_names[] = {"device", "self.device", "args.device"};

/* The finding's named values in this frame; the line's own values too when the message names
 * fewer than two values with a device (or always, with with_line). */
static void gather(DlTracer *t, DlFinding *f, PyFrameObject *frame, int line, bool with_line,
                   DlValues *vals) {
    DlScope s;
    dl_scope_open(&s, frame);
    dl_collect(t, &s, f->chains, f->nchains, vals);
    int carriers = 0;
    for (int i = 0; i < vals->n; i++)
        carriers += vals->v[i].kind != DL_KIND_DEVICE;
    if (with_line || carriers < 2) {
        const char *text = dl_line_text(t, f->file, line);
        char *chains[DL_MAX_CHAINS];
        int n = dl_scan_chains(text, strlen(text), chains, 0, DL_MAX_CHAINS);
        dl_collect(t, &s, chains, n, vals);
        for (int i = 0; i < n; i++)
            free(chains[i]);
    }
    dl_collect(t, &s, (char *const *)device_names, 3, vals);
    dl_scope_close(&s);
}

/* Counts a confirmation; the first one's text (and values) is the evidence. */
static void confirm(DlFinding *f, const char *text, const DlBuf *values) {
    f->confirmations++;
    if (f->confirm.len) return;
    dl_buf_printf(&f->confirm, "%s", text);
    if (values && values->len) dl_buf_printf(&f->confirm, ": %s", dl_buf_str(values));
}

static void agree(DlFinding *f, bool on_device, const char *text) {
    f->agreements++;
    /* keep the first agreement, unless a later one is on a device and the first was not */
    if (f->agree.len && (f->agree_on_device || !on_device)) return;
    f->agree_on_device |= on_device;
    f->agree.len = 0;
    dl_buf_printf(&f->agree, "%s", text);
}

static void note(DlFinding *f, const char *text) {
    if (!f->note.len) dl_buf_printf(&f->note, "%s", text);
}

/* The named values meet: two devices confirm, one device agrees. */
static void observe_meet(DlTracer *t, DlFinding *f, PyFrameObject *frame, int line) {
    DlValues vals = {0};
    gather(t, f, frame, line, false, &vals);
    const char *devs[8];
    int n = dl_values_devices(&vals, devs, 8);
    DlBuf desc = {0};
    dl_values_describe(&vals, &desc);
    if (n >= 2) {
        char text[64];
        snprintf(text, sizeof text, "at line %d the devices differ", line);
        confirm(f, text, &desc);
    } else if (n == 1) {
        DlBuf text = {0};
        dl_buf_printf(&text, "at line %d every value is on %s: %s", line, devs[0],
                      dl_buf_str(&desc));
        agree(f, !dl_device_is_cpu(devs[0]), dl_buf_str(&text));
        dl_buf_free(&text);
    } else {
        DlBuf text = {0};
        dl_buf_printf(&text, "line %d ran, but the devices of its values could not be read", line);
        note(f, dl_buf_str(&text));
        dl_buf_free(&text);
    }
    dl_buf_free(&desc);
    dl_values_release(&vals);
}

/* What the finding's own line made (DL102, DL103) or stored on a module (DL106, DL107). */
static void observe_origin(DlTracer *t, DlFinding *f, PyFrameObject *frame) {
    DlScope s;
    dl_scope_open(&s, frame);
    bool attribute = strcmp(f->code, "DL106") == 0 || strcmp(f->code, "DL107") == 0;
    if (attribute && !f->owner) {
        PyObject *self = dl_eval_chain(t, &s, "self");
        if (self && dl_is_module(t, self)) f->owner = PyWeakref_NewRef(self, NULL);
        if (!f->owner) PyErr_Clear();
        Py_XDECREF(self);
    }
    DlValues vals = {0};
    dl_collect(t, &s, f->chains, f->nchains, &vals);
    dl_scope_close(&s);
    if (vals.n && !f->note.len) {
        DlBuf desc = {0};
        dl_values_describe(&vals, &desc);
        dl_buf_printf(&f->note, "after line %d: %s", f->line, dl_buf_str(&desc));
        dl_buf_free(&desc);
    }
    dl_values_release(&vals);
}

/* The target of `.to(x)`, `.cuda()`, `.cpu()` on the line, and its receiver. */
static bool copy_parts(DlTracer *t, DlScope *s, const char *text, char **recv, char *target,
                       size_t n) {
    char *arg = NULL;
    target[0] = '\0';
    if (dl_call_parts(text, "to", recv, &arg)) {
        if (arg) {
            const char *expr = strchr(arg, '=');
            expr = expr && expr[1] != '=' ? expr + 1 : arg;
            while (*expr == ' ')
                expr++;
            if (*expr == '"' || *expr == '\'') {
                snprintf(target, n, "%.*s", (int)strcspn(expr + 1, "\"'"), expr + 1);
            } else {
                PyObject *o = dl_eval_chain(t, s, expr);
                if (o && !dl_target_device(t, o, target, n)) target[0] = '\0';
                Py_XDECREF(o);
            }
        }
    } else if (dl_call_parts(text, "cuda", recv, &arg)) {
        if (arg && arg[0] >= '0' && arg[0] <= '9')
            snprintf(target, n, "cuda:%d", atoi(arg));
        else
            snprintf(target, n, "cuda");
    } else if (dl_call_parts(text, "cpu", recv, &arg)) {
        snprintf(target, n, "cpu");
    }
    free(arg);
    return *recv != NULL;
}

/* DL101: after the line, is the receiver still where it was, away from the copy's target? */
static void observe_discarded(DlTracer *t, DlFinding *f, PyFrameObject *frame) {
    DlScope s;
    dl_scope_open(&s, frame);
    char *recv = NULL, target[32];
    const char *text = dl_line_text(t, f->file, f->line);
    if (!copy_parts(t, &s, text, &recv, target, sizeof target)) {
        note(f, "the line ran, but its `.to()` receiver could not be read");
        dl_scope_close(&s);
        return;
    }
    PyObject *o = dl_eval_chain(t, &s, recv);
    dl_scope_close(&s);
    char dev[32], text_buf[320];
    if (o && dl_is_module(t, o)) {
        snprintf(text_buf, sizeof text_buf,
                 "`%s` is a module: `.to()` moved it in place and returned it", recv);
        agree(f, true, text_buf);
    } else if (!o || !dl_is_tensor(t, o) || !dl_device_of(t, o, dev, sizeof dev)) {
        snprintf(text_buf, sizeof text_buf, "the line ran, but `%s` is not a tensor here", recv);
        note(f, text_buf);
    } else if (!target[0]) {
        snprintf(text_buf, sizeof text_buf,
                 "`%s` is on %s; the copy's target device could not be read", recv, dev);
        note(f, text_buf);
    } else if (!dl_device_same(dev, target)) {
        if (!dl_device_is_cpu(dev) || !dl_device_is_cpu(target)) t->saw_device = true;
        f->confirmations++;
        if (!f->confirm.len)
            dl_buf_printf(&f->confirm,
                          "after line %d `%s` is still on %s: the discarded copy went to %s",
                          f->line, recv, dev, target);
    } else {
        snprintf(text_buf, sizeof text_buf,
                 "`%s` was already on %s, the copy's target: the discarded copy changed nothing",
                 recv, dev);
        agree(f, !dl_device_is_cpu(dev), text_buf);
    }
    Py_XDECREF(o);
    free(recv);
}

/* DL108: the tensor handed to numpy is on a device. */
static void observe_numpy(DlTracer *t, DlFinding *f, PyFrameObject *frame) {
    DlScope s;
    dl_scope_open(&s, frame);
    char *recv = NULL, *arg = NULL;
    const char *text = dl_line_text(t, f->file, f->line);
    DlValues vals = {0};
    if (dl_call_parts(text, "numpy", &recv, &arg) && recv) dl_collect(t, &s, &recv, 1, &vals);
    if (vals.n == 0) dl_collect(t, &s, f->chains, f->nchains, &vals);
    dl_collect(t, &s, (char *const *)device_names, 3, &vals);
    dl_scope_close(&s);
    free(recv);
    free(arg);
    const DlValue *tensor = NULL;
    for (int i = 0; i < vals.n && !tensor; i++)
        if (vals.v[i].kind == DL_KIND_TENSOR) tensor = &vals.v[i];
    char buf[320];
    if (!tensor) {
        note(f, "the line ran, but the tensor could not be read");
    } else if (!dl_device_is_cpu(tensor->device)) {
        DlBuf desc = {0};
        dl_buf_printf(&desc, "`%s` on %s%s%s%s", tensor->label, tensor->device,
                      tensor->driver[0] ? " (" : "", tensor->driver, tensor->driver[0] ? ")" : "");
        char text[64];
        snprintf(text, sizeof text, "at line %d the tensor is not in host memory", f->line);
        confirm(f, text, &desc);
        dl_buf_free(&desc);
    } else {
        snprintf(buf, sizeof buf, "`%s` is on %s: `.numpy()` works", tensor->label, tensor->device);
        agree(f, false, buf);
    }
    dl_values_release(&vals);
}

/* DL201: count the runs, time them, and see whether the value synced is on a device. */
static void observe_sync(DlTracer *t, DlFinding *f, PyFrameObject *frame) {
    if (f->hits > 16) return;
    DlValues vals = {0};
    DlScope s;
    dl_scope_open(&s, frame);
    dl_collect(t, &s, f->chains, f->nchains, &vals);
    dl_scope_close(&s);
    for (int i = 0; i < vals.n; i++) {
        const DlValue *v = &vals.v[i];
        if (v->kind != DL_KIND_TENSOR) continue; /* a 0-dim tensor syncs like any other */
        bool device = !dl_device_is_cpu(v->device);
        if (device && !f->sync_device) {
            f->sync_values.len = 0;
            dl_buf_printf(&f->sync_values, "`%s` is on %s%s%s%s", v->label, v->device,
                          v->driver[0] ? " (" : "", v->driver, v->driver[0] ? ")" : "");
        } else if (!device && !f->sync_device && !f->sync_cpu) {
            dl_buf_printf(&f->sync_values, "`%s` is on %s", v->label, v->device);
        }
        f->sync_device |= device;
        f->sync_cpu |= !device;
    }
    dl_values_release(&vals);
}

/* DL202: the tensor copied and where the copy goes; the tensor is held until the copy ran. */
static void observe_copy(DlTracer *t, DlFinding *f, PyFrameObject *frame, DlPending *p) {
    DlScope s;
    dl_scope_open(&s, frame);
    char *recv = NULL, target[32];
    const char *text = dl_line_text(t, f->file, f->line);
    if (copy_parts(t, &s, text, &recv, target, sizeof target)) {
        PyObject *o = dl_eval_chain(t, &s, recv);
        if (o && dl_is_tensor(t, o)) {
            PyObject *pinned = dl_tensor_method(t, o, "is_pinned");
            if (pinned == Py_True)
                f->tensor_pinned = 1;
            else if (pinned == Py_False && f->tensor_pinned < 0)
                f->tensor_pinned = 0;
            Py_XDECREF(pinned);
            if (p && !p->held) {
                p->held = o;
                o = NULL;
            }
        }
        Py_XDECREF(o);
        if (target[0] && !f->copy_target.len) dl_buf_printf(&f->copy_target, "%s", target);
        if (target[0] && !dl_device_is_cpu(target)) t->saw_device = true;
    }
    free(recv);
    dl_scope_close(&s);
}

/* DL202, once the copy to a CUDA device ran (CUDA is initialised): ask the driver. */
static void observe_copied(DlTracer *t, DlFinding *f, DlPending *p) {
    if (!p || !p->held || f->driver_pinned >= 0) return;
    if (strncmp(dl_buf_str(&f->copy_target), "cuda", 4) != 0) return;
    PyObject *ptr = dl_tensor_method(t, p->held, "data_ptr");
    if (!ptr) return;
    unsigned long long addr = PyLong_AsUnsignedLongLong(ptr);
    Py_DECREF(ptr);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return;
    }
    int ordinal;
    DlMemory m = dl_cuda_where(&t->cuda, (uintptr_t)addr, &ordinal);
    if (m == DL_MEM_PINNED)
        f->driver_pinned = 1;
    else if (m == DL_MEM_PAGEABLE)
        f->driver_pinned = 0;
}

/* DL202's loop over the DataLoader: was it built with pin_memory=True? */
static void observe_loader(DlTracer *t, DlFinding *f, PyFrameObject *frame) {
    if (f->loader_pinned >= 0 || !t->loader_type) return;
    DlScope s;
    dl_scope_open(&s, frame);
    const char *text = dl_line_text(t, f->file, f->loader_line);
    char *chains[DL_MAX_CHAINS];
    int n = dl_scan_chains(text, strlen(text), chains, 0, DL_MAX_CHAINS);
    for (int i = 0; i < n; i++) {
        PyObject *o = f->loader_pinned < 0 ? dl_eval_chain(t, &s, chains[i]) : NULL;
        if (o && PyObject_TypeCheck(o, (PyTypeObject *)t->loader_type)) {
            PyObject *pin = dl_getattr(t, o, "pin_memory");
            if (pin == Py_True || pin == Py_False) f->loader_pinned = pin == Py_True;
            Py_XDECREF(pin);
        }
        Py_XDECREF(o);
        free(chains[i]);
    }
    dl_scope_close(&s);
}

/* DL106/DL107: a module's constructor and the methods that move it see the attribute halfway;
 * where it meets inputs is everywhere else (forward and what it calls). */
static bool moving(PyFrameObject *frame) {
    static const char *const names[] = {
        "__init__", "to",       "_apply",   "apply",           "cuda",
        "cpu",      "xpu",      "type",     "float",           "double",
        "half",     "bfloat16", "to_empty", "load_state_dict", "_load_from_state_dict"};
    PyCodeObject *code = PyFrame_GetCode(frame);
    const char *name = PyUnicode_AsUTF8(code->co_name);
    Py_DECREF(code);
    if (!name) {
        PyErr_Clear();
        return false;
    }
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i]) == 0) return true;
    return false;
}

void dl_check_before(DlTracer *t, DlFinding *f, DlRole role, PyFrameObject *frame, DlPending *p) {
    switch (role) {
    case DL_ROLE_LOOP:
        return; /* counted after: see dl_check_after */
    case DL_ROLE_LOADER:
        observe_loader(t, f, frame);
        return;
    case DL_ROLE_MEET:
        if (f->owner && moving(frame)) return;
        f->meet_hits++;
        if (sample(f->meet_hits)) observe_meet(t, f, frame, PyFrame_GetLineNumber(frame));
        return;
    case DL_ROLE_MAIN:
        break;
    }
    f->hits++;
    switch (f->check) {
    case DL_CHECK_MEET:
        if (sample(f->hits)) observe_meet(t, f, frame, f->line);
        break;
    case DL_CHECK_NUMPY:
        if (sample(f->hits)) observe_numpy(t, f, frame);
        break;
    case DL_CHECK_SYNC:
        observe_sync(t, f, frame);
        break;
    case DL_CHECK_PINNED:
        if (sample(f->hits)) observe_copy(t, f, frame, p);
        break;
    default:
        break;
    }
}

void dl_check_after(DlTracer *t, DlFinding *f, DlRole role, PyFrameObject *frame, DlPending *p) {
    if (role == DL_ROLE_LOOP) {
        /* An iteration when the loop's header moves on into its body (up to the sync line); the
         * header's last run, when the iterator is exhausted, moves past the body instead. */
        int next = PyFrame_GetLineNumber(frame);
        if (next > f->loop_line && next <= f->line) f->loop_hits++;
        return;
    }
    if (role != DL_ROLE_MAIN) return;
    switch (f->check) {
    case DL_CHECK_DISCARDED:
        if (sample(f->hits)) observe_discarded(t, f, frame);
        break;
    case DL_CHECK_ORIGIN:
        if (f->nmeet == 0) {
            if (sample(f->hits)) observe_meet(t, f, frame, f->line);
        } else if (f->hits <= 4) {
            observe_origin(t, f, frame);
        }
        break;
    case DL_CHECK_TYPEERROR:
        agree(f, true, "the line ran without a TypeError");
        break;
    case DL_CHECK_SYNC:
        f->seconds += dl_now() - p->started;
        break;
    case DL_CHECK_PINNED:
        observe_copied(t, f, p);
        break;
    default:
        break;
    }
}

static bool counts(const DlFinding *f, DlErrorKind kind) {
    switch (f->check) {
    case DL_CHECK_NUMPY:
        return kind == DL_ERR_NUMPY;
    case DL_CHECK_TYPEERROR:
        return kind == DL_ERR_NUMPY || kind == DL_ERR_TYPE;
    case DL_CHECK_SYNC:
    case DL_CHECK_PINNED:
        return false;
    case DL_CHECK_OTHER:
        return kind == DL_ERR_DEVICE && strncmp(f->code, "DL1", 3) == 0;
    default:
        return kind == DL_ERR_DEVICE;
    }
}

bool dl_check_error(DlTracer *t, DlFinding *f, PyFrameObject *frame, DlErrorKind kind,
                    const char *message) {
    if (!counts(f, kind)) return false;
    int line = PyFrame_GetLineNumber(frame);
    DlValues vals = {0};
    gather(t, f, frame, line, true, &vals);
    DlBuf desc = {0};
    dl_values_describe(&vals, &desc);
    t->saw_device = true;
    f->confirmations++;
    if (!f->confirmed_by_error) { /* an error is better evidence than an observation */
        f->confirmed_by_error = true;
        f->confirm.len = 0;
        PyCodeObject *code = PyFrame_GetCode(frame);
        const char *fn = code ? PyUnicode_AsUTF8(code->co_name) : NULL;
        if (!fn) PyErr_Clear();
        dl_buf_printf(&f->confirm, "%s raised at line %d%s%s%s: %.*s",
                      kind == DL_ERR_DEVICE ? "RuntimeError" : "TypeError", line, fn ? " (in " : "",
                      fn ? fn : "", fn ? ")" : "", (int)strcspn(message, "\n"), message);
        Py_XDECREF(code);
        if (desc.len) dl_buf_printf(&f->confirm, "; %s", dl_buf_str(&desc));
    }
    dl_buf_free(&desc);
    dl_values_release(&vals);
    return true;
}
