/* The server loop, the lifecycle (initialize, shutdown, exit), document sync, configuration
 * and file-watching notifications, and the dispatch of requests to their handlers. */
#include "lsp/lsp.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/files.h"
#include "lsp/server.h"
#include "lsp/uri.h"

enum { MAX_BURST = 256 };

/* -------------------------------------------------------------- output */

void dl_lsp_log(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("devlint lsp: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    fflush(stderr);
    va_end(ap);
}

void dl_lsp_send(DlLspServer *s, char *json) {
    if (!s->output_gone && !dl_lsp_write(s->out_fd, json, strlen(json))) {
        dl_lsp_log("the client stopped reading; exiting");
        s->output_gone = true;
    }
    free(json);
}

void dl_lsp_notify(DlLspServer *s, const char *method, cJSON *params) {
    dl_lsp_send(s, dl_rpc_notification(method, params));
}

void dl_lsp_request(DlLspServer *s, const char *method, cJSON *params) {
    dl_lsp_send(s, dl_rpc_request(++s->next_request_id, method, params));
}

void dl_lsp_show(DlLspServer *s, int type, const char *message) {
    cJSON *params = cJSON_CreateObject();
    cJSON_AddNumberToObject(params, "type", type);
    cJSON_AddStringToObject(params, "message", message);
    dl_lsp_notify(s, "window/showMessage", params);
}

/* -------------------------------------------------------------- settings */

/* `devlint.args` and `devlint.enable`, from initializationOptions or a configuration change. */
static void apply_settings(DlLspServer *s, const cJSON *settings) {
    bool enable;
    if (dl_json_bool(settings, "enable", &enable) && enable != s->enabled) {
        s->enabled = enable;
        s->dirty = true;
    }
    const cJSON *args = dl_json_array(settings, "args");
    if (!args) return;
    int n = cJSON_GetArraySize(args);
    const char **words = calloc((size_t)n + 1, sizeof *words);
    if (!words) abort();
    for (int i = 0; i < n; i++) {
        const cJSON *a = cJSON_GetArrayItem(args, i);
        words[i] = cJSON_IsString(a) ? a->valuestring : NULL;
    }
    DlLspOptions options;
    char *error = NULL;
    if (dl_lsp_options_parse(words, (size_t)n, &options, &error)) {
        dl_lsp_workspace_set_options(&s->ws, &options);
        s->dirty = true;
    } else {
        size_t len = strlen(error) + 64;
        char *msg = malloc(len);
        if (!msg) abort();
        snprintf(msg, len, "devlint.args: %s (kept the previous settings)", error);
        dl_lsp_log("%s", msg);
        dl_lsp_show(s, 1, msg);
        free(msg);
        free(error);
    }
    free(words);
}

/* -------------------------------------------------------------- lifecycle */

static bool capability(const cJSON *caps, const char *a, const char *b, const char *key) {
    const cJSON *o = dl_json_object(dl_json_object(caps, a), b);
    bool value = false;
    if (!key) return o != NULL;
    return dl_json_bool(o, key, &value) && value;
}

static void add_root(DlLspServer *s, const char *uri) {
    char *path = dl_lsp_uri_to_path(uri);
    if (!path) return;
    dl_lsp_workspace_add_root(&s->ws, path);
    free(path);
}

static cJSON *server_capabilities(void) {
    cJSON *caps = cJSON_CreateObject();
    cJSON_AddStringToObject(caps, "positionEncoding", "utf-16");
    cJSON *sync = cJSON_AddObjectToObject(caps, "textDocumentSync");
    cJSON_AddBoolToObject(sync, "openClose", true);
    cJSON_AddNumberToObject(sync, "change", 2); /* incremental */
    cJSON_AddObjectToObject(sync, "save");
    cJSON *actions = cJSON_AddObjectToObject(caps, "codeActionProvider");
    const char *kinds[] = {"quickfix", "source.fixAll.devlint"};
    cJSON_AddItemToObject(actions, "codeActionKinds", cJSON_CreateStringArray(kinds, 2));
    cJSON *diag = cJSON_AddObjectToObject(caps, "diagnosticProvider");
    cJSON_AddStringToObject(diag, "identifier", "devlint");
    cJSON_AddBoolToObject(diag, "interFileDependencies", true);
    cJSON_AddBoolToObject(diag, "workspaceDiagnostics", false);
    cJSON *exec = cJSON_AddObjectToObject(caps, "executeCommandProvider");
    const char *commands[] = {"devlint.checkWorkspace"};
    cJSON_AddItemToObject(exec, "commands", cJSON_CreateStringArray(commands, 1));
    cJSON *nb = cJSON_AddObjectToObject(caps, "notebookDocumentSync");
    cJSON *selectors = cJSON_AddArrayToObject(nb, "notebookSelector");
    cJSON *sel = cJSON_CreateObject();
    cJSON_AddStringToObject(cJSON_AddObjectToObject(sel, "notebook"), "notebookType",
                            "jupyter-notebook");
    cJSON *cells = cJSON_AddArrayToObject(sel, "cells");
    cJSON *python = cJSON_CreateObject();
    cJSON_AddStringToObject(python, "language", "python");
    cJSON_AddItemToArray(cells, python);
    cJSON_AddItemToArray(selectors, sel);
    cJSON *ws = cJSON_AddObjectToObject(caps, "workspace");
    cJSON *folders = cJSON_AddObjectToObject(ws, "workspaceFolders");
    cJSON_AddBoolToObject(folders, "supported", true);
    cJSON_AddBoolToObject(folders, "changeNotifications", true);
    return caps;
}

static cJSON *initialize(DlLspServer *s, const cJSON *params) {
    const cJSON *caps = dl_json_object(params, "capabilities");
    s->pull = capability(caps, "textDocument", "diagnostic", NULL);
    s->refresh = capability(caps, "workspace", "diagnostics", "refreshSupport");
    s->watch_dynamic =
        capability(caps, "workspace", "didChangeWatchedFiles", "dynamicRegistration");
    s->document_changes = capability(caps, "workspace", "workspaceEdit", "documentChanges");
    const cJSON *folders = dl_json_array(params, "workspaceFolders");
    const cJSON *f;
    cJSON_ArrayForEach(f, folders) {
        const char *uri = dl_json_string(f, "uri");
        if (uri) add_root(s, uri);
    }
    if (!s->ws.roots.len && dl_json_string(params, "rootUri"))
        add_root(s, dl_json_string(params, "rootUri"));
    if (!s->ws.roots.len && dl_json_string(params, "rootPath"))
        dl_lsp_workspace_add_root(&s->ws, dl_json_string(params, "rootPath"));
    apply_settings(s, dl_json_object(params, "initializationOptions"));
    s->initialized = true;
    dl_lsp_log("initialized: %zu workspace folder%s, %s diagnostics", s->ws.roots.len,
               s->ws.roots.len == 1 ? "" : "s", s->pull ? "pull" : "push");
    cJSON *result = cJSON_CreateObject();
    cJSON_AddItemToObject(result, "capabilities", server_capabilities());
    cJSON *info = cJSON_AddObjectToObject(result, "serverInfo");
    cJSON_AddStringToObject(info, "name", "devlint");
    cJSON_AddStringToObject(info, "version", DEVLINT_VERSION);
    return result;
}

/* After `initialized`: ask to hear about Python and configuration files changing on disk. */
static void register_watchers(DlLspServer *s) {
    if (!s->watch_dynamic) return;
    static const char *const globs[] = {"**/*.py", "**/*.pyi", "**/*.ipynb", "**/pyproject.toml",
                                        "**/devlint.toml"};
    cJSON *watchers = cJSON_CreateArray();
    for (size_t i = 0; i < sizeof globs / sizeof *globs; i++) {
        cJSON *w = cJSON_CreateObject();
        cJSON_AddStringToObject(w, "globPattern", globs[i]);
        cJSON_AddItemToArray(watchers, w);
    }
    cJSON *reg = cJSON_CreateObject();
    cJSON_AddStringToObject(reg, "id", "devlint-watched-files");
    cJSON_AddStringToObject(reg, "method", "workspace/didChangeWatchedFiles");
    cJSON_AddItemToObject(cJSON_AddObjectToObject(reg, "registerOptions"), "watchers", watchers);
    cJSON *params = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(params, "registrations"), reg);
    dl_lsp_request(s, "client/registerCapability", params);
}

/* -------------------------------------------------------------- notifications */

static void did_open(DlLspServer *s, const cJSON *params) {
    const cJSON *td = dl_json_object(params, "textDocument");
    const char *uri = dl_json_string(td, "uri"), *text = dl_json_string(td, "text");
    const char *language = dl_json_string(td, "languageId");
    long version = 0;
    if (!uri || !text) {
        dl_lsp_log("textDocument/didOpen without textDocument.uri and text: ignored");
        return;
    }
    dl_json_long(td, "version", &version);
    DlLspDoc *doc = dl_lsp_docs_open(&s->docs, uri, text, strlen(text), version);
    doc->python = (language && strcmp(language, "python") == 0) ||
                  (doc->path && dl_file_kind(doc->path) == DL_FILE_PYTHON);
    if (doc->path) dl_lsp_unpublish(s, doc->path); /* its findings now come with the document */
    s->dirty = true;
}

static void did_change(DlLspServer *s, const cJSON *params) {
    const cJSON *td = dl_json_object(params, "textDocument");
    const char *uri = dl_json_string(td, "uri");
    DlLspDoc *doc = uri ? dl_lsp_docs_find(&s->docs, uri) : NULL;
    if (!doc) {
        dl_lsp_log("textDocument/didChange for a document that is not open: ignored");
        return;
    }
    if (!dl_lsp_doc_apply_changes(doc, dl_json_array(params, "contentChanges")))
        dl_lsp_log("%s: a malformed content change was ignored", uri);
    dl_json_long(td, "version", &doc->version);
    s->dirty = true;
}

static void did_close(DlLspServer *s, const cJSON *params) {
    const char *uri = dl_json_string(dl_json_object(params, "textDocument"), "uri");
    if (!uri || !dl_lsp_docs_find(&s->docs, uri)) return;
    if (!s->pull) { /* a pushing server clears what it published */
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "uri", uri);
        cJSON_AddItemToObject(p, "diagnostics", cJSON_CreateArray());
        dl_lsp_notify(s, "textDocument/publishDiagnostics", p);
    }
    dl_lsp_docs_close(&s->docs, uri);
    s->dirty = true; /* other files now see what is on disk */
}

static bool is_config_file(const char *uri) {
    const char *slash = strrchr(uri, '/');
    const char *name = slash ? slash + 1 : uri;
    return strcmp(name, "pyproject.toml") == 0 || strcmp(name, "devlint.toml") == 0;
}

static void watched_files(DlLspServer *s, const cJSON *params) {
    const cJSON *change;
    cJSON_ArrayForEach(change, dl_json_array(params, "changes")) {
        const char *uri = dl_json_string(change, "uri");
        long type = 0;
        if (!uri) continue;
        dl_json_long(change, "type", &type);
        if (is_config_file(uri))
            dl_lsp_workspace_forget_settings(&s->ws);
        else if (type != 2) /* created or deleted */
            dl_lsp_workspace_forget_files(&s->ws);
        s->dirty = true;
    }
}

static void workspace_folders(DlLspServer *s, const cJSON *params) {
    const cJSON *event = dl_json_object(params, "event"), *f;
    cJSON_ArrayForEach(f, dl_json_array(event, "removed")) {
        char *path = dl_lsp_uri_to_path(dl_json_string(f, "uri"));
        if (path) dl_lsp_workspace_remove_root(&s->ws, path);
        free(path);
    }
    cJSON_ArrayForEach(f, dl_json_array(event, "added")) {
        const char *uri = dl_json_string(f, "uri");
        if (uri) add_root(s, uri);
    }
    s->dirty = true;
}

/* Returns false for a notification no handler knows. */
static bool notification(DlLspServer *s, const char *method, const cJSON *params) {
    if (strcmp(method, "initialized") == 0)
        register_watchers(s);
    else if (strcmp(method, "textDocument/didOpen") == 0)
        did_open(s, params);
    else if (strcmp(method, "textDocument/didChange") == 0)
        did_change(s, params);
    else if (strcmp(method, "textDocument/didSave") == 0)
        s->dirty = true;
    else if (strcmp(method, "textDocument/didClose") == 0)
        did_close(s, params);
    else if (strcmp(method, "workspace/didChangeConfiguration") == 0) {
        dl_lsp_workspace_forget_settings(&s->ws);
        apply_settings(s, dl_json_object(dl_json_object(params, "settings"), "devlint"));
        s->dirty = s->eager = true;
    } else if (strcmp(method, "workspace/didChangeWatchedFiles") == 0) {
        watched_files(s, params);
        s->eager = true;
    } else if (strcmp(method, "workspace/didChangeWorkspaceFolders") == 0) {
        workspace_folders(s, params);
        s->eager = true;
    } else if (strncmp(method, "notebookDocument/", 17) == 0)
        return dl_lsp_notebook_notification(s, method, params);
    else if (strncmp(method, "$/", 2) != 0) /* $/ notifications may be ignored */
        return false;
    return true;
}

/* -------------------------------------------------------------- requests */

static cJSON *execute_command(DlLspServer *s, const cJSON *params, int *code, const char **why) {
    const char *command = dl_json_string(params, "command");
    if (!command || strcmp(command, "devlint.checkWorkspace") != 0) {
        *code = DL_RPC_INVALID_PARAMS;
        *why = "unknown command (devlint.checkWorkspace is the one command)";
        return NULL;
    }
    s->workspace_mode = true;
    dl_lsp_workspace_forget_files(&s->ws);
    s->dirty = true;
    dl_lsp_check(s);
    dl_lsp_publish(s, NULL);
    size_t findings = s->others.diag_count;
    for (size_t i = 0; i < s->docs.docs.len; i++)
        findings += s->docs.docs.items[i]->found.diag_count;
    cJSON *result = cJSON_CreateObject();
    cJSON_AddNumberToObject(result, "filesChecked", (double)s->last_files_checked);
    cJSON_AddNumberToObject(result, "findings", (double)findings);
    return result;
}

/* Answers one request: a result, or an error (*code, *why). */
static cJSON *request(DlLspServer *s, const char *method, const cJSON *params, int *code,
                      const char **why) {
    if (strcmp(method, "shutdown") == 0) {
        s->shutdown = true;
        return cJSON_CreateNull();
    }
    if (strcmp(method, "textDocument/diagnostic") == 0)
        return dl_lsp_pull_diagnostics(s, params, code, why);
    if (strcmp(method, "textDocument/codeAction") == 0)
        return dl_lsp_code_actions(s, params, code, why);
    if (strcmp(method, "workspace/executeCommand") == 0)
        return execute_command(s, params, code, why);
    *code = DL_RPC_METHOD_NOT_FOUND;
    *why = "method not found";
    return NULL;
}

/* -------------------------------------------------------------- the loop */

typedef struct Incoming {
    char *body; /* NULL: a framing error, `error` says what */
    size_t len;
    char *error;
} Incoming;

typedef DL_VEC(Incoming) Burst;

static bool same_id(const cJSON *a, const cJSON *b) {
    if (cJSON_IsNumber(a) && cJSON_IsNumber(b)) return a->valuedouble == b->valuedouble;
    return cJSON_IsString(a) && cJSON_IsString(b) && strcmp(a->valuestring, b->valuestring) == 0;
}

/* The ids that $/cancelRequest notifications of the burst name. */
static void collect_cancellations(Burst *burst, cJSON *cancelled) {
    for (size_t i = 0; i < burst->len; i++) {
        if (!burst->items[i].body || !strstr(burst->items[i].body, "$/cancelRequest")) continue;
        cJSON *m = cJSON_ParseWithLength(burst->items[i].body, burst->items[i].len);
        const char *method = dl_json_string(m, "method");
        const cJSON *params = dl_json_object(m, "params");
        const cJSON *id = params ? cJSON_GetObjectItemCaseSensitive(params, "id") : NULL;
        if (method && strcmp(method, "$/cancelRequest") == 0 &&
            (cJSON_IsNumber(id) || cJSON_IsString(id)))
            cJSON_AddItemToArray(cancelled, cJSON_Duplicate(id, false));
        cJSON_Delete(m);
    }
}

static void handle(DlLspServer *s, const Incoming *in, const cJSON *cancelled) {
    if (!in->body) {
        dl_lsp_log("%s", in->error);
        dl_lsp_send(s, dl_rpc_error(NULL, DL_RPC_INVALID_REQUEST, in->error));
        return;
    }
    DlMessage m;
    int code = 0;
    const char *why = NULL;
    if (!dl_message_parse(in->body, in->len, &m, &code, &why)) {
        dl_lsp_log("bad message: %s", why);
        dl_lsp_send(s, dl_rpc_error(m.id, code, why));
        dl_message_free(&m);
        return;
    }
    if (m.kind == DL_MSG_RESPONSE) { /* to our requests (registerCapability, refresh) */
        dl_message_free(&m);
        return;
    }
    if (m.kind == DL_MSG_NOTIFICATION) {
        if (strcmp(m.method, "exit") == 0)
            s->exited = true;
        else if (s->initialized && !s->shutdown && !notification(s, m.method, m.params))
            dl_lsp_log("unknown notification %s: ignored", m.method);
        dl_message_free(&m);
        return;
    }
    cJSON *result = NULL;
    const cJSON *c;
    cJSON_ArrayForEach(c, cancelled) if (same_id(c, m.id)) code = DL_RPC_REQUEST_CANCELLED;
    if (code) {
        why = "cancelled";
    } else if (strcmp(m.method, "initialize") == 0) {
        if (s->initialized) {
            code = DL_RPC_INVALID_REQUEST;
            why = "initialize was already called";
        } else {
            result = initialize(s, m.params);
        }
    } else if (!s->initialized) {
        code = DL_RPC_SERVER_NOT_INITIALIZED;
        why = "the server is not initialized yet";
    } else if (s->shutdown) {
        code = DL_RPC_INVALID_REQUEST;
        why = "the server is shutting down";
    } else {
        result = request(s, m.method, m.params, &code, &why);
    }
    dl_lsp_send(s, result ? dl_rpc_response(m.id, result) : dl_rpc_error(m.id, code, why));
    dl_message_free(&m);
}

/* Reads one message (blocking), then whatever else is already waiting. False at end of input
 * with nothing read. */
static bool read_burst(DlLspServer *s, Burst *burst) {
    do {
        Incoming in = {0};
        DlLspRead r = dl_lsp_read(&s->reader, &in.body, &in.len, &in.error);
        if (r == DL_LSP_READ_EOF) break;
        dl_vec_push(burst, in);
    } while (burst->len < MAX_BURST && dl_lsp_reader_pending(&s->reader));
    return burst->len > 0;
}

int dl_lsp_serve(int in_fd, int out_fd, DlLspOptions *options) {
    signal(SIGPIPE, SIG_IGN); /* a client that goes away is a failed write, not a signal */
    DlLspServer s = {.out_fd = out_fd, .enabled = true};
    dl_lsp_reader_init(&s.reader, in_fd);
    dl_lsp_workspace_set_options(&s.ws, options);
    Burst burst = {0};
    while (!s.exited && !s.output_gone) {
        burst.len = 0;
        if (!read_burst(&s, &burst)) break;
        cJSON *cancelled = cJSON_CreateArray();
        collect_cancellations(&burst, cancelled);
        for (size_t i = 0; i < burst.len && !s.exited; i++)
            handle(&s, &burst.items[i], cancelled);
        for (size_t i = 0; i < burst.len; i++) {
            free(burst.items[i].body);
            free(burst.items[i].error);
        }
        cJSON_Delete(cancelled);
        if (s.exited || !s.initialized || s.shutdown) continue;
        if (s.dirty && (!s.pull || s.eager || s.workspace_mode)) dl_lsp_check(&s);
        s.eager = false;
        dl_lsp_publish(&s, NULL);
    }
    int code = s.exited && !s.shutdown ? 1 : 0;
    dl_vec_free(&burst);
    for (size_t i = 0; i < s.published.len; i++) {
        free(s.published.items[i].uri);
        free(s.published.items[i].path);
    }
    dl_vec_free(&s.published);
    dl_result_free(&s.others);
    free(s.config_error);
    dl_lsp_docs_free(&s.docs);
    dl_lsp_workspace_free(&s.ws);
    dl_lsp_reader_free(&s.reader);
    return code;
}
