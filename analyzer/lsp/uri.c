/* file:// URIs <-> paths. */
#include "lsp/uri.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

char *dl_lsp_uri_to_path(const char *uri) {
    if (!uri || strncasecmp(uri, "file://", 7) != 0) return NULL;
    const char *p = uri + 7;
    if (strncasecmp(p, "localhost/", 10) == 0) p += 9;
    if (*p != '/') return NULL; /* file://host/... is not on this machine */
    size_t n = strcspn(p, "?#");
    char *path = malloc(n + 1);
    if (!path) abort();
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '%' && i + 2 < n + 1 && hex_value(p[i + 1]) >= 0 && hex_value(p[i + 2]) >= 0) {
            char c = (char)(hex_value(p[i + 1]) * 16 + hex_value(p[i + 2]));
            if (c == '\0') {
                free(path);
                return NULL;
            }
            path[out++] = c;
            i += 2;
        } else {
            path[out++] = p[i];
        }
    }
    path[out] = '\0';
    return path;
}

static bool unreserved(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~' || c == '/';
}

char *dl_lsp_path_to_uri(const char *path) {
    size_t n = strlen(path);
    char *uri = malloc(8 + 3 * n + 1);
    if (!uri) abort();
    size_t out = (size_t)sprintf(uri, "file://%s", path[0] == '/' ? "" : "/");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];
        if (unreserved(c))
            uri[out++] = (char)c;
        else
            out += (size_t)sprintf(uri + out, "%%%02X", c);
    }
    uri[out] = '\0';
    return uri;
}
