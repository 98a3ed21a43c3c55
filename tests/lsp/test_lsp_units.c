/* Unit tests for the language server's building blocks: UTF-16 positions (emoji, CJK, BOM,
 * CRLF), incremental document edits, file URIs, the server's options, and Content-Length
 * framing over a pipe. The protocol as a whole is tested from node (protocol.test.js). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsp/documents.h"
#include "lsp/options.h"
#include "lsp/positions.h"
#include "lsp/transport.h"
#include "lsp/uri.h"

/* "😀" is U+1F600: 4 bytes, 2 UTF-16 units; "设" is 3 bytes, 1 unit. */
static const char text[] = "a = 1\r\nb = \"\xF0\x9F\x98\x80\xE8\xAE\xBE\"; x.to(d)\nlast";

Test(positions, protocol_positions_to_bytes) {
    DlLspLines l;
    size_t n = strlen(text);
    dl_lsp_lines_build(&l, text, n);
    cr_assert_eq(l.count, 3);
    cr_assert_eq(dl_lsp_offset(&l, text, n, 0, 0), 0);
    cr_assert_eq(dl_lsp_offset(&l, text, n, 0, 99), 5, "clamped to the line, before \\r\\n");
    size_t x = (size_t)(strstr(text, "x.to") - text);
    /* b = "😀设"; x : 5 + 2 + 1 + 1 + 1 + 1 units before x */
    cr_assert_eq(dl_lsp_offset(&l, text, n, 1, 11), x);
    cr_assert_eq(dl_lsp_offset(&l, text, n, 1, 6), 7 + 5 + 4, "inside the pair: after the emoji");
    cr_assert_eq(dl_lsp_offset(&l, text, n, 9, 0), n, "past the last line: the end");
    cr_assert_eq(dl_lsp_utf16_count(text + 7, x - 7), 11);
    dl_lsp_lines_free(&l);
}

Test(positions, devlint_columns_to_protocol) {
    DlLspLines l;
    size_t n = strlen(text);
    dl_lsp_lines_build(&l, text, n);
    long line, ch;
    /* x is code point 11 of line 2 (1-based column 11): 11 UTF-16 units before it */
    dl_lsp_position(&l, text, n, 2, 11, &line, &ch);
    cr_assert_eq(line, 1);
    cr_assert_eq(ch, 11);
    dl_lsp_position(&l, text, n, 3, 50, &line, &ch);
    cr_assert_eq(line, 2);
    cr_assert_eq(ch, 4, "past the end of the line: its end");
    dl_lsp_position(&l, text, n, 7, 1, &line, &ch);
    cr_assert_eq(line, 2, "past the last line: the last line");
    dl_lsp_lines_free(&l);

    /* a BOM is a character to the protocol but not a column to devlint */
    const char bom[] = "\xEF\xBB\xBFx.to(d)\n";
    dl_lsp_lines_build(&l, bom, strlen(bom));
    dl_lsp_position(&l, bom, strlen(bom), 1, 1, &line, &ch);
    cr_assert_eq(ch, 1);
    dl_lsp_lines_free(&l);
}

Test(documents, incremental_edits_in_utf16) {
    DlLspDocs docs = {0};
    DlLspDoc *d = dl_lsp_docs_open(&docs, "file:///w/a%20b.py", text, strlen(text), 1);
    cr_assert_str_eq(d->path, "/w/a b.py");
    dl_lsp_doc_edit(d, 1, 11, 1, 11, "x = ", 4); /* right after the emoji and the CJK char */
    cr_assert(strstr(d->text, "\xE8\xAE\xBE\"; x = x.to(d)\n") != NULL, "%s", d->text);
    dl_lsp_doc_edit(d, 0, 0, 1, 0, "", 0); /* delete the first line with its \r\n */
    cr_assert(strncmp(d->text, "b = ", 4) == 0);
    cr_assert_eq(d->lines.count, 2);
    dl_lsp_doc_edit(d, 5, 0, 9, 9, "!", 1); /* past the end: appended */
    cr_assert_eq(d->text[d->len - 1], '!');
    dl_lsp_docs_close(&docs, "file:///w/a%20b.py");
    cr_assert_null(dl_lsp_docs_find(&docs, "file:///w/a%20b.py"));
    dl_lsp_docs_free(&docs);
}

Test(uri, round_trip_and_rejects) {
    char *p = dl_lsp_uri_to_path("file:///home/u/%E8%AE%BE%20x/a.py");
    cr_assert_str_eq(p, "/home/u/\xE8\xAE\xBE x/a.py");
    char *u = dl_lsp_path_to_uri(p);
    cr_assert_str_eq(u, "file:///home/u/%E8%AE%BE%20x/a.py");
    free(p);
    free(u);
    p = dl_lsp_uri_to_path("file://localhost/tmp/a.py");
    cr_assert_str_eq(p, "/tmp/a.py");
    free(p);
    cr_assert_null(dl_lsp_uri_to_path("untitled:Untitled-1"));
    cr_assert_null(dl_lsp_uri_to_path("file://server/share/a.py"));
    cr_assert_null(dl_lsp_uri_to_path("file:///a%00b.py"));
    cr_assert_null(dl_lsp_uri_to_path(NULL));
}

Test(options, parse) {
    const char *args[] = {"--select", "DL1",    "--ignore=unassigned-to", "--isolated", "-j",
                          "2",        "--stdio"};
    DlLspOptions o;
    char *error = NULL;
    cr_assert(dl_lsp_options_parse(args, 7, &o, &error), "%s", error);
    cr_assert_eq(o.select_count, 1);
    cr_assert_str_eq(o.ignore[0], "unassigned-to");
    cr_assert(o.isolated);
    cr_assert_eq(o.jobs, 2);
    dl_lsp_options_free(&o);
    const char *bad[][2] = {{"--select", "no-such-rule"}, {"--jobs", "0"}, {"--frobnicate", ""}};
    for (size_t i = 0; i < 3; i++) {
        cr_assert_not(dl_lsp_options_parse(bad[i], bad[i][1][0] ? 2 : 1, &o, &error));
        cr_assert_not_null(error);
        free(error);
    }
    const char *missing[] = {"--config"};
    cr_assert_not(dl_lsp_options_parse(missing, 1, &o, &error));
    cr_assert(strstr(error, "needs a value") != NULL);
    free(error);
}

static DlLspRead read_one(DlLspReader *r, char **body, char **error) {
    size_t len;
    return dl_lsp_read(r, body, &len, error);
}

Test(transport, framing_errors_and_limits) {
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    const char input[] = "Content-Length: 2\r\n\r\n{}"
                         "X-Other: 1\r\n\r\n"                                /* no length */
                         "content-length:   3\r\nContent-Type: x\r\n\r\n[1]" /* any case */
                         "Content-Length: 20\r\n\r\n01234567890123456789"    /* over the limit */
                         "Content-Length: 4\n\nnull"                         /* bare \n tolerated */
                         "Content-Length: 9\r\n\r\ncut";                     /* ends mid-message */
    cr_assert_eq(write(fds[1], input, sizeof input - 1), (ssize_t)(sizeof input - 1));
    close(fds[1]);
    DlLspReader r;
    dl_lsp_reader_init(&r, fds[0]);
    r.max_body = 10;
    char *body, *error;
    cr_assert_eq(read_one(&r, &body, &error), DL_LSP_READ_MESSAGE);
    cr_assert_str_eq(body, "{}");
    free(body);
    cr_assert(dl_lsp_reader_pending(&r));
    cr_assert_eq(read_one(&r, &body, &error), DL_LSP_READ_BAD);
    cr_assert(strstr(error, "Content-Length") != NULL);
    free(error);
    cr_assert_eq(read_one(&r, &body, &error), DL_LSP_READ_MESSAGE);
    cr_assert_str_eq(body, "[1]");
    free(body);
    cr_assert_eq(read_one(&r, &body, &error), DL_LSP_READ_BAD);
    cr_assert(strstr(error, "limit") != NULL, "%s", error);
    free(error);
    cr_assert_eq(read_one(&r, &body, &error), DL_LSP_READ_MESSAGE);
    cr_assert_str_eq(body, "null");
    free(body);
    cr_assert_eq(read_one(&r, &body, &error), DL_LSP_READ_EOF);
    cr_assert_not(dl_lsp_reader_pending(&r));
    dl_lsp_reader_free(&r);
    close(fds[0]);
}
