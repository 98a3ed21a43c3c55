/* JSON-RPC 2.0 messages with cJSON. */
#include "lsp/protocol.h"

#include <stdlib.h>
#include <string.h>

static bool whole(double d) {
    return d >= -9e15 && d <= 9e15 && d == (double)(long long)d;
}

static bool valid_id(const cJSON *id) {
    return cJSON_IsString(id) || (cJSON_IsNumber(id) && whole(id->valuedouble));
}

bool dl_message_parse(const char *body, size_t len, DlMessage *m, int *code, const char **why) {
    memset(m, 0, sizeof *m);
    m->root = cJSON_ParseWithLength(body, len);
    if (!m->root) {
        *code = DL_RPC_PARSE_ERROR;
        *why = "the message is not valid JSON";
        return false;
    }
    if (!cJSON_IsObject(m->root)) {
        *code = DL_RPC_INVALID_REQUEST;
        *why = cJSON_IsArray(m->root) ? "batch messages are not supported"
                                      : "a message must be a JSON object";
        return false;
    }
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(m->root, "id");
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(m->root, "method");
    if (valid_id(id)) m->id = id;
    if (id && !cJSON_IsNull(id) && !m->id) {
        *code = DL_RPC_INVALID_REQUEST;
        *why = "`id` must be a whole number or a string";
        return false;
    }
    if (!method) {
        if (m->id &&
            (cJSON_HasObjectItem(m->root, "result") || cJSON_HasObjectItem(m->root, "error"))) {
            m->kind = DL_MSG_RESPONSE;
            return true;
        }
        *code = DL_RPC_INVALID_REQUEST;
        *why = "a message needs a `method` (or, as a response, an `id` and a `result`)";
        return false;
    }
    if (!cJSON_IsString(method) || !method->valuestring) {
        *code = DL_RPC_INVALID_REQUEST;
        *why = "`method` must be a string";
        return false;
    }
    m->method = method->valuestring;
    m->kind = m->id ? DL_MSG_REQUEST : DL_MSG_NOTIFICATION;
    m->params = cJSON_GetObjectItemCaseSensitive(m->root, "params");
    if (m->params && cJSON_IsNull(m->params)) m->params = NULL;
    if (m->params && !cJSON_IsObject(m->params) && !cJSON_IsArray(m->params)) {
        *code = DL_RPC_INVALID_REQUEST;
        *why = "`params` must be an object or an array";
        return false;
    }
    return true;
}

void dl_message_free(DlMessage *m) {
    cJSON_Delete(m->root);
    m->root = NULL;
}

static cJSON *envelope(void) {
    cJSON *msg = cJSON_CreateObject();
    if (!msg) abort();
    cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
    return msg;
}

static char *print_and_free(cJSON *msg) {
    char *s = cJSON_PrintUnformatted(msg);
    cJSON_Delete(msg);
    if (!s) abort();
    return s;
}

static cJSON *copy_id(const cJSON *id) {
    cJSON *c = id ? cJSON_Duplicate(id, false) : cJSON_CreateNull();
    if (!c) abort();
    return c;
}

char *dl_rpc_response(const cJSON *id, cJSON *result) {
    cJSON *msg = envelope();
    cJSON_AddItemToObject(msg, "id", copy_id(id));
    cJSON_AddItemToObject(msg, "result", result ? result : cJSON_CreateNull());
    return print_and_free(msg);
}

char *dl_rpc_error(const cJSON *id, int code, const char *message) {
    cJSON *msg = envelope();
    cJSON_AddItemToObject(msg, "id", copy_id(id));
    cJSON *err = cJSON_AddObjectToObject(msg, "error");
    cJSON_AddNumberToObject(err, "code", code);
    cJSON_AddStringToObject(err, "message", message);
    return print_and_free(msg);
}

char *dl_rpc_notification(const char *method, cJSON *params) {
    cJSON *msg = envelope();
    cJSON_AddStringToObject(msg, "method", method);
    if (params) cJSON_AddItemToObject(msg, "params", params);
    return print_and_free(msg);
}

char *dl_rpc_request(long id, const char *method, cJSON *params) {
    cJSON *msg = envelope();
    cJSON_AddNumberToObject(msg, "id", (double)id);
    cJSON_AddStringToObject(msg, "method", method);
    if (params) cJSON_AddItemToObject(msg, "params", params);
    return print_and_free(msg);
}

const cJSON *dl_json_object(const cJSON *obj, const char *key) {
    const cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    return cJSON_IsObject(v) ? v : NULL;
}

const cJSON *dl_json_array(const cJSON *obj, const char *key) {
    const cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    return cJSON_IsArray(v) ? v : NULL;
}

const char *dl_json_string(const cJSON *obj, const char *key) {
    const cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

bool dl_json_long(const cJSON *obj, const char *key, long *out) {
    const cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    if (!cJSON_IsNumber(v)) return false;
    double d = v->valuedouble;
    if (!whole(d) || d < -2147483648.0 || d > 2147483647.0) return false;
    *out = (long)d;
    return true;
}

bool dl_json_bool(const cJSON *obj, const char *key, bool *out) {
    const cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    if (!cJSON_IsBool(v)) return false;
    *out = cJSON_IsTrue(v);
    return true;
}

bool dl_json_position(const cJSON *pos, long *line, long *character) {
    return dl_json_long(pos, "line", line) && dl_json_long(pos, "character", character) &&
           *line >= 0 && *character >= 0;
}

bool dl_json_range(const cJSON *range, long *sl, long *sc, long *el, long *ec) {
    return dl_json_position(dl_json_object(range, "start"), sl, sc) &&
           dl_json_position(dl_json_object(range, "end"), el, ec) &&
           (*sl < *el || (*sl == *el && *sc <= *ec));
}

static cJSON *make_position(long line, long character) {
    cJSON *p = cJSON_CreateObject();
    if (!p) abort();
    cJSON_AddNumberToObject(p, "line", (double)line);
    cJSON_AddNumberToObject(p, "character", (double)character);
    return p;
}

cJSON *dl_json_make_range(long sl, long sc, long el, long ec) {
    cJSON *r = cJSON_CreateObject();
    if (!r) abort();
    cJSON_AddItemToObject(r, "start", make_position(sl, sc));
    cJSON_AddItemToObject(r, "end", make_position(el, ec));
    return r;
}
