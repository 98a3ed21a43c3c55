/* Unit tests for driver/cache's disk entries as driver/check.c's DataLoader marks use them: an
 * entry's stamp is the one computed before it was stored, a shared result's marks and a
 * DataLoader file's placed marks come back from the entry and its record, and the marks' table
 * answers only for the inputs it was written under. */
#include "driver/cache.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[64];

static DlCache *open_cache(void) {
    snprintf(dir, sizeof dir, "/tmp/devlint-cache-unit-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char *error = NULL;
    DlCache *cache = dl_cache_open(dir, NULL, &error);
    cr_assert_not_null(cache, "%s", error ? error : "");
    return cache;
}

static void remove_cache(DlCache *cache) {
    dl_cache_close(cache);
    char command[96];
    snprintf(command, sizeof command, "rm -rf %s", dir);
    cr_assert_eq(system(command), 0);
}

static const char *const READ_PATHS[] = {"pkg/helper.py", "pkg/data.py"};
static const uint64_t READ_HASHES[] = {11, 12};

/* What a look-up learns of the files the entry read now. */
static bool hash_of(void *ctx, const char *path, uint64_t *hash) {
    const uint64_t *hashes = ctx;
    for (size_t i = 0; i < 2; i++)
        if (strcmp(path, READ_PATHS[i]) == 0) {
            *hash = hashes[i];
            return true;
        }
    return false;
}

Test(cache, a_found_entry_has_the_stamp_computed_before_it_was_stored) {
    DlCache *cache = open_cache();
    DlResult r = {0};
    DlCacheMarks marks = {0x1234, 0x5678};
    DlCacheSources sources = {.paths = READ_PATHS, .content_hashes = READ_HASHES, .count = 2,
                              .marks = &marks};
    dl_cache_store(cache, "pkg/model.py", 99, &r, NULL, 0, &sources);
    uint64_t now[] = {11, 12};
    DlCacheContents contents = {hash_of, now};
    DlCacheFound found = {0};
    DlResult got = {0};
    cr_assert(dl_cache_load(cache, "pkg/model.py", 99, &contents, &got, &found));
    cr_assert_eq(found.stamp, dl_cache_stamp(99, READ_HASHES, 2));
    cr_assert_neq(found.stamp, dl_cache_stamp(98, READ_HASHES, 2), "the key is in the stamp");
    cr_assert(found.has_marks);
    cr_assert_eq(found.marks.own, 0x1234);
    cr_assert_eq(found.marks.inputs, 0x5678);
    dl_result_free(&got);
    now[1] = 13; /* a file it read changed: a miss */
    cr_assert_not(dl_cache_load(cache, "pkg/model.py", 99, &contents, NULL, &found));
    remove_cache(cache);
}

typedef struct Placed {
    char paths[4][32];
    uint32_t positions[4];
    size_t count;
} Placed;

static void note_placed(void *ctx, const char *path, uint32_t position) {
    Placed *p = ctx;
    cr_assert_lt(p->count, 4);
    snprintf(p->paths[p->count], sizeof p->paths[0], "%s", path);
    p->positions[p->count++] = position;
}

Test(cache, a_records_placed_marks_and_names_come_back_even_when_its_key_does_not_match) {
    DlCache *cache = open_cache();
    DlResult r = {0};
    const char *placed_paths[] = {"pkg/data.py", "pkg/data.py"};
    const uint32_t positions[] = {0, 3};
    DlCacheSources sources = {.has_placed = true, .placed_paths = placed_paths,
                              .placed_positions = positions, .placed_count = 2,
                              .names_digest = 0xfeedfacecafe};
    dl_cache_store(cache, "train.py", 5, &r, NULL, 0, &sources);
    dl_cache_store(cache, "other.py", 5, &r, NULL, 0, &(DlCacheSources){0});
    Placed got = {0};
    DlCacheRecord record = {.placed = note_placed, .ctx = &got};
    cr_assert_not(dl_cache_load_record(cache, "train.py", 6, NULL, NULL, &record));
    cr_assert(record.found && record.has_placed);
    cr_assert(record.has_names_digest && record.names_digest == 0xfeedfacecafe,
              "the names digest it was stored with (an edit that changes it reaches further)");
    cr_assert_eq(got.count, 2);
    cr_assert_str_eq(got.paths[1], "pkg/data.py");
    cr_assert_eq(got.positions[0], 0);
    cr_assert_eq(got.positions[1], 3);
    DlCacheRecord none = {.placed = note_placed, .ctx = &got};
    cr_assert(dl_cache_load_record(cache, "other.py", 5, NULL, NULL, &none));
    cr_assert_not(none.has_placed, "an entry that lists no placed marks says so");
    remove_cache(cache);
}

typedef struct Rows {
    char paths[4][32];
    uint64_t content[4], own[4];
    size_t count;
} Rows;

static void note_row(void *ctx, const DlCacheMarksRow *row) {
    Rows *rows = ctx;
    cr_assert_lt(rows->count, 4);
    snprintf(rows->paths[rows->count], sizeof rows->paths[0], "%s", row->path);
    rows->content[rows->count] = row->content_hash;
    rows->own[rows->count++] = row->own;
}

Test(cache, the_marks_table_answers_for_its_inputs_only) {
    DlCache *cache = open_cache();
    Rows rows = {0};
    cr_assert_not(dl_cache_read_marks(cache, 7, note_row, &rows), "no table yet");
    DlCacheMarksRow written[] = {{"pkg/data.py", 21, 31},
                                 {"pkg/odd\nname.py", 22, 32}, /* left out */
                                 {"pkg/with space.py", 23, 33}};
    dl_cache_write_marks(cache, 7, written, 3);
    cr_assert_not(dl_cache_read_marks(cache, 8, note_row, &rows), "other inputs");
    cr_assert_eq(rows.count, 0);
    cr_assert(dl_cache_read_marks(cache, 7, note_row, &rows));
    cr_assert_eq(rows.count, 2);
    cr_assert_str_eq(rows.paths[0], "pkg/data.py");
    cr_assert_eq(rows.content[0], 21);
    cr_assert_eq(rows.own[0], 31);
    cr_assert_str_eq(rows.paths[1], "pkg/with space.py");
    cr_assert_eq(rows.own[1], 33);
    dl_cache_write_marks(cache, 8, written, 1); /* the last run's table replaces it */
    rows.count = 0;
    cr_assert_not(dl_cache_read_marks(cache, 7, note_row, &rows));
    cr_assert(dl_cache_read_marks(cache, 8, note_row, &rows));
    cr_assert_eq(rows.count, 1);
    remove_cache(cache);
}
