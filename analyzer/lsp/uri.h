/* file:// URIs <-> local paths (RFC 3986 percent-encoding, as editors write them). */
#ifndef DL_LSP_URI_H
#define DL_LSP_URI_H

/* "file:///home/a/b%20c.py" -> "/home/a/b c.py" (malloc'ed); NULL when the URI is not a local
 * file (another scheme, a host, an encoded NUL or a relative path). */
char *dl_lsp_uri_to_path(const char *uri);

/* An absolute path -> "file:///..." (malloc'ed), every byte outside [A-Za-z0-9-._~/] encoded. */
char *dl_lsp_path_to_uri(const char *path);

#endif
