/* From findings to armed lines. Each finding gets a check (what its rule claims and how a run
 * can show it), the value chains its message names, and its sites: its own line, the lines where
 * its values meet ("at line N"; for DL106/DL107 every line that reads the attribute), the loop
 * it claims runs every iteration (DL201) and the loop over the DataLoader (DL202). Sites are
 * indexed by file and line so the tracer finds a line's sites in O(1). */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct CheckOf {
    const char *code;
    DlCheck check;
} CheckOf;

static const CheckOf checks[] = {
    {"DL101", DL_CHECK_DISCARDED}, {"DL102", DL_CHECK_ORIGIN}, {"DL103", DL_CHECK_ORIGIN},
    {"DL104", DL_CHECK_MEET},      {"DL105", DL_CHECK_MEET},   {"DL106", DL_CHECK_ORIGIN},
    {"DL107", DL_CHECK_ORIGIN},    {"DL108", DL_CHECK_NUMPY},  {"DL111", DL_CHECK_MEET},
    {"DL112", DL_CHECK_TYPEERROR}, {"DL114", DL_CHECK_MEET},   {"DL201", DL_CHECK_SYNC},
    {"DL202", DL_CHECK_PINNED},
};

DlCheck dl_check_for(const char *code) {
    for (size_t i = 0; i < sizeof checks / sizeof *checks; i++)
        if (strcmp(checks[i].code, code) == 0) return checks[i].check;
    return DL_CHECK_OTHER;
}

char **dl_read_lines(const char *path, int *count) {
    *count = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    DlBuf text = {0};
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
        dl_buf_put(&text, chunk, n);
    fclose(fp);
    int cap = 64, nlines = 0;
    char **lines = malloc(sizeof *lines * (size_t)cap);
    const char *p = dl_buf_str(&text), *end = p + text.len;
    while (lines && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        size_t len = (size_t)(stop - p);
        if (len > 0 && p[len - 1] == '\r') len--;
        if (nlines == cap) {
            char **grown = realloc(lines, sizeof *lines * (size_t)(cap *= 2));
            if (!grown) break;
            lines = grown;
        }
        lines[nlines++] = dl_strndup(p, len);
        p = nl ? nl + 1 : end;
    }
    dl_buf_free(&text);
    *count = nlines;
    return lines;
}

int dl_file_of_path(DlTracer *t, const char *real) {
    for (int i = 0; i < t->nfiles; i++)
        if (strcmp(t->files[i].path, real) == 0) return i;
    return -1;
}

static int add_file(DlTracer *t, const char *real) {
    int i = dl_file_of_path(t, real);
    if (i >= 0) return i;
    int nlines = 0;
    char **lines = dl_read_lines(real, &nlines);
    if (!lines) return -1;
    DlFile *grown = realloc(t->files, sizeof *grown * (size_t)(t->nfiles + 1));
    if (!grown) return -1;
    t->files = grown;
    DlFile *f = &t->files[t->nfiles];
    memset(f, 0, sizeof *f);
    f->path = strdup(real);
    f->lines = lines;
    f->nlines = nlines;
    return t->nfiles++;
}

const char *dl_line_text(DlTracer *t, int file, int line) {
    if (file < 0 || file >= t->nfiles) return "";
    DlFile *f = &t->files[file];
    return line >= 1 && line <= f->nlines ? f->lines[line - 1] : "";
}

/* Lines other than the finding's own that read `self.attr` (DL106/DL107). */
static void attribute_lines(DlTracer *t, DlFinding *fd) {
    for (int c = 0; c < fd->nchains; c++) {
        const char *chain = fd->chains[c];
        if (strncmp(chain, "self.", 5) != 0 || strpbrk(chain + 5, ".[")) continue;
        size_t n = strlen(chain);
        DlFile *f = &t->files[fd->file];
        for (int l = 1; l <= f->nlines && fd->nmeet < 32; l++) {
            if (l == fd->line) continue;
            for (const char *p = strstr(f->lines[l - 1], chain); p; p = strstr(p + 1, chain)) {
                char next = p[n];
                if (next == '_' || (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
                    (next >= '0' && next <= '9'))
                    continue;
                bool dup = false;
                for (int m = 0; m < fd->nmeet; m++)
                    dup |= fd->meet_lines[m] == l;
                if (!dup) fd->meet_lines[fd->nmeet++] = l;
                break;
            }
        }
    }
}

static void plan_finding(DlTracer *t, DlFinding *fd) {
    fd->check = dl_check_for(fd->code);
    fd->nchains = dl_message_chains(fd->message, fd->chains, 0, DL_MAX_CHAINS);
    fd->loader_pinned = fd->tensor_pinned = fd->driver_pinned = -1;
    if (fd->file < 0) return;
    switch (fd->check) {
    case DL_CHECK_ORIGIN: {
        int lines[32];
        int n = dl_message_lines(fd->message, "at line ", lines, 32);
        for (int i = 0; i < n; i++)
            if (lines[i] != fd->line) fd->meet_lines[fd->nmeet++] = lines[i];
        /* DL107's message names no line: the attribute's readers are where it meets */
        if (fd->nmeet == 0 && (strcmp(fd->code, "DL106") == 0 || strcmp(fd->code, "DL107") == 0))
            attribute_lines(t, fd);
        break;
    }
    case DL_CHECK_SYNC: {
        int line = 0;
        if (dl_message_lines(fd->message, "loop at line ", &line, 1) == 1) fd->loop_line = line;
        break;
    }
    case DL_CHECK_PINNED: {
        int line = 0;
        if (dl_message_lines(fd->message, "(line ", &line, 1) == 1) fd->loader_line = line;
        break;
    }
    default:
        break;
    }
}

static int site_order(const void *a, const void *b) {
    const DlSite *x = a, *y = b;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    return x->finding < y->finding ? -1 : x->finding > y->finding;
}

static void add_site(DlFile *f, int line, int finding, DlRole role) {
    if (line < 1 || line > f->nlines) return;
    DlSite *grown = realloc(f->sites, sizeof *grown * (size_t)(f->nsites + 1));
    if (!grown) return;
    f->sites = grown;
    f->sites[f->nsites++] = (DlSite){line, finding, role};
}

static void index_file(DlFile *f) {
    qsort(f->sites, (size_t)f->nsites, sizeof *f->sites, site_order);
    f->first = calloc((size_t)f->nlines + 2, sizeof *f->first);
    if (!f->first) return;
    int s = 0;
    for (int l = 0; l <= f->nlines + 1; l++) {
        while (s < f->nsites && f->sites[s].line < l)
            s++;
        f->first[l] = s;
    }
}

/* Plans every finding of t->findings (filled by module.c, fd->file from dl_finding_file) and
 * indexes the sites of each file. */
int dl_sites_build(DlTracer *t) {
    for (int i = 0; i < t->nfindings; i++) {
        DlFinding *fd = &t->findings[i];
        plan_finding(t, fd);
        if (fd->file < 0) continue;
        DlFile *f = &t->files[fd->file];
        add_site(f, fd->line, i, DL_ROLE_MAIN);
        for (int m = 0; m < fd->nmeet; m++)
            add_site(f, fd->meet_lines[m], i, DL_ROLE_MEET);
        if (fd->loop_line && fd->loop_line != fd->line) add_site(f, fd->loop_line, i, DL_ROLE_LOOP);
        if (fd->loader_line && fd->loader_line != fd->line)
            add_site(f, fd->loader_line, i, DL_ROLE_LOADER);
    }
    for (int i = 0; i < t->nfiles; i++)
        index_file(&t->files[i]);
    return 0;
}

/* Registers a finding's file by its real path; the finding's fields are filled by the caller. */
int dl_finding_file(DlTracer *t, const char *real) {
    return real ? add_file(t, real) : -1;
}

void dl_findings_free(DlTracer *t) {
    for (int i = 0; i < t->nfindings; i++) {
        DlFinding *fd = &t->findings[i];
        free(fd->code);
        free(fd->name);
        free(fd->path);
        free(fd->message);
        for (int c = 0; c < fd->nchains; c++)
            free(fd->chains[c]);
        dl_buf_free(&fd->confirm);
        dl_buf_free(&fd->agree);
        dl_buf_free(&fd->note);
        dl_buf_free(&fd->sync_values);
        dl_buf_free(&fd->copy_target);
        Py_CLEAR(fd->owner);
    }
    free(t->findings);
    t->findings = NULL;
    t->nfindings = 0;
    for (int i = 0; i < t->nfiles; i++) {
        DlFile *f = &t->files[i];
        free(f->path);
        for (int l = 0; l < f->nlines; l++)
            free(f->lines[l]);
        free(f->lines);
        free(f->sites);
        free(f->first);
    }
    free(t->files);
    t->files = NULL;
    t->nfiles = 0;
}
