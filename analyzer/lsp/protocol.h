/* JSON-RPC 2.0 as the protocol uses it: classifying an incoming message (request,
 * notification or response), building responses, errors, notifications and server requests,
 * and typed lookups into params that never trust the client's types. */
#ifndef DL_LSP_PROTOCOL_H
#define DL_LSP_PROTOCOL_H
#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

enum {
    DL_RPC_PARSE_ERROR = -32700,
    DL_RPC_INVALID_REQUEST = -32600,
    DL_RPC_METHOD_NOT_FOUND = -32601,
    DL_RPC_INVALID_PARAMS = -32602,
    DL_RPC_INTERNAL_ERROR = -32603,
    DL_RPC_SERVER_NOT_INITIALIZED = -32002,
    DL_RPC_REQUEST_CANCELLED = -32800,
};

typedef enum { DL_MSG_REQUEST, DL_MSG_NOTIFICATION, DL_MSG_RESPONSE } DlMessageKind;

typedef struct DlMessage {
    cJSON *root; /* owned */
    DlMessageKind kind;
    const char *method;  /* requests and notifications */
    const cJSON *id;     /* requests and responses: a number or a string */
    const cJSON *params; /* may be NULL */
} DlMessage;

/* Parses and classifies a message. On failure returns false with the JSON-RPC error code and
 * a static description; m->id is still the request's id when one could be read (else NULL:
 * the error is answered with a null id). The caller frees with dl_message_free either way. */
bool dl_message_parse(const char *body, size_t len, DlMessage *m, int *code, const char **why);
void dl_message_free(DlMessage *m);

/* Serialised messages (malloc'ed). `result` / `params` are consumed (may be NULL: null). */
char *dl_rpc_response(const cJSON *id, cJSON *result);
char *dl_rpc_error(const cJSON *id, int code, const char *message);
char *dl_rpc_notification(const char *method, cJSON *params);
char *dl_rpc_request(long id, const char *method, cJSON *params);

/* Typed lookups: NULL / false when the key is missing or of another type. */
const cJSON *dl_json_object(const cJSON *obj, const char *key);
const cJSON *dl_json_array(const cJSON *obj, const char *key);
const char *dl_json_string(const cJSON *obj, const char *key);
bool dl_json_long(const cJSON *obj, const char *key, long *out); /* whole numbers only */
bool dl_json_bool(const cJSON *obj, const char *key, bool *out);
/* A protocol Position / Range object. */
bool dl_json_position(const cJSON *pos, long *line, long *character);
bool dl_json_range(const cJSON *range, long *sl, long *sc, long *el, long *ec);

/* Building: {"line": l, "character": c} and {"start": ..., "end": ...}. */
cJSON *dl_json_make_range(long sl, long sc, long el, long ec);

#endif
