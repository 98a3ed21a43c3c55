/* The file names a project's files save and load, for DL109 (internal to driver/sharing*.c).
 *
 * `torch.load(datasets_folder + "train_x.pty")` in one script may read what another script of
 * the project saved there (`torch.save(torch.from_numpy(x), datasets_folder + "train_x.pty")`,
 * CPU tensors, which load on any machine). DL109 judges that save when both files are in the
 * project build, so a file that calls a save and writes a file name literal some other file
 * loads is shared: built with the project, its program model kept while the others are
 * checked. And a loading file's names digest holds which files save the names it loads, so a
 * saver added or removed checks it again (a saver's own edits reach it through the read it
 * notes, as any lookup's do).
 *
 * A file name literal is what core/file_name.h says, the definition DL109 matches by:
 * `"train_x.pty"`, `"../data/" + name + "_production.pkl"`'s `_production.pkl`; not
 * `f"{name}.pth"`. Literals in comments and triple-quoted strings do not count; on the saving
 * side that is a superset of what DL109 matches (a save's path literal is in its code). */
#include <stdlib.h>
#include <string.h>

#include "core/file_name.h"
#include "core/hash.h"
#include "driver/sharing_table.h"

/* The hash of the file name `text` (n bytes, a literal's contents) ends with
 * (core/file_name.h), or 0 when it ends with none. */
static uint32_t file_name_hash(const char *text, size_t n) {
    size_t start = 0, len = dl_file_name_ending(text, n, &start);
    if (!len) return 0;
    uint32_t h = dl_name_hash(text + start, len);
    return h ? h : 1;
}

/* The distinct hashes of the file names the string literals of `src` end with (docstrings and
 * other triple-quoted strings aside), sorted; their count in *count. */
static uint32_t *file_names(const DlSource *src, uint32_t *count) {
    DL_VEC(uint32_t) found = {0};
    const char *text = src->text, *end = text + src->len;
    for (const char *p = text; p < end; p++) {
        if (*p == '#') { /* a comment, to the end of its line */
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl : end;
            continue;
        }
        if (*p != '"' && *p != '\'') continue;
        char q = *p;
        if (end - p >= 3 && p[1] == q && p[2] == q) { /* triple-quoted: skipped whole */
            const char close[4] = {q, q, q, '\0'};
            const char *after = p + 3 < end ? strstr(p + 3, close) : NULL;
            if (!after || after >= end) break;
            p = after + 2;
            continue;
        }
        const char *s = p + 1, *e = s;
        while (e < end && *e != q && *e != '\n') {
            if (*e == '\\' && e + 1 < end) e++;
            e++;
        }
        if (e >= end || *e != q) { /* unterminated on its line */
            p = e < end ? e : end;
            continue;
        }
        uint32_t h = file_name_hash(s, (size_t)(e - s));
        if (h) dl_vec_push(&found, h);
        p = e;
    }
    uint32_t n = dl_sharing_sort_unique(found.items, found.len);
    *count = n;
    if (!n) {
        dl_vec_free(&found);
        return NULL;
    }
    return found.items;
}

void dl_sharing_find_file_names(DlSharingFile *f, const DlSource *src) {
    bool saves = dl_source_mentions(src, "save("), loads = dl_source_mentions(src, "load(");
    if (!saves && !loads) return;
    uint32_t count = 0;
    uint32_t *names = file_names(src, &count);
    if (!count) return;
    if (saves) {
        f->saved_names = names;
        f->saved_name_count = count;
    }
    if (loads) {
        f->loaded_names = saves ? malloc(count * sizeof *names) : names;
        if (!f->loaded_names) abort();
        if (saves) memcpy(f->loaded_names, names, count * sizeof *names);
        f->loaded_name_count = count;
    }
}


void dl_sharing_share_savers(DlSharing *s) {
    DL_VEC(struct NameInFile) savers = {0};
    for (size_t i = 0; i < s->file_count; i++) {
        const DlSharingFile *f = &s->files[i];
        for (uint32_t k = 0; f->takes_part && k < f->saved_name_count; k++)
            dl_vec_push(&savers, ((struct NameInFile){f->saved_names[k], (uint32_t)i}));
    }
    s->savers = savers.items;
    s->saver_count = savers.len;
    if (!savers.len) return;
    qsort(savers.items, savers.len, sizeof *savers.items, dl_sharing_by_name_then_file);
    for (size_t i = 0; i < s->file_count; i++) {
        const DlSharingFile *f = &s->files[i];
        for (uint32_t k = 0; f->takes_part && k < f->loaded_name_count; k++)
            for (size_t at = dl_sharing_first_of(savers.items, savers.len, f->loaded_names[k]);
                 at < savers.len && savers.items[at].name == f->loaded_names[k]; at++)
                if (savers.items[at].file != i) s->shared[savers.items[at].file] = true;
    }
}

uint64_t dl_sharing_savers_digest(const DlSharing *s, size_t index, char *const *paths) {
    const DlSharingFile *f = &s->files[index];
    return dl_sharing_other_files_digest(s->savers, s->saver_count, f->loaded_names,
                                         f->loaded_name_count, index, paths, 41);
}
