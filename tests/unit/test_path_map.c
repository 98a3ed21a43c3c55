/* Unit tests for core/path_map: put, replace, remove, growth, and removing while visiting. */
#include "core/path_map.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>

Test(path_map, put_get_replace_remove) {
    DlPathMap map;
    dl_path_map_init(&map);
    int a = 1, b = 2;
    cr_assert_null(dl_path_map_get(&map, "src/a.py"), "an empty map has nothing");
    cr_assert_null(dl_path_map_put(&map, "src/a.py", &a));
    char key[] = "src/a.py"; /* the map keeps its own copy of the key */
    cr_assert_eq(dl_path_map_get(&map, key), &a);
    key[4] = 'b';
    cr_assert_null(dl_path_map_get(&map, key));
    cr_assert_eq(dl_path_map_put(&map, "src/a.py", &b), &a, "a put returns what it replaces");
    cr_assert_eq(map.count, 1);
    cr_assert_eq(dl_path_map_remove(&map, "src/a.py"), &b);
    cr_assert_null(dl_path_map_remove(&map, "src/a.py"));
    cr_assert_eq(map.count, 0);
    dl_path_map_free(&map);
}

static int remove_odd(void *ctx, const char *path, void *value) {
    (void)path;
    (*(int *)ctx)++;
    return (int)((uintptr_t)value & 1);
}

Test(path_map, grows_and_removes_while_visiting) {
    DlPathMap map;
    dl_path_map_init(&map);
    char path[32];
    for (uintptr_t i = 1; i <= 5000; i++) {
        snprintf(path, sizeof path, "pkg/m%lu.py", (unsigned long)i);
        dl_path_map_put(&map, path, (void *)i);
    }
    cr_assert_eq(map.count, 5000);
    cr_assert_geq(map.bucket_count, 5000, "the buckets grow with the entries");
    for (uintptr_t i = 1; i <= 5000; i++) {
        snprintf(path, sizeof path, "pkg/m%lu.py", (unsigned long)i);
        cr_assert_eq(dl_path_map_get(&map, path), (void *)i, "%s", path);
    }
    int visited = 0;
    dl_path_map_each(&map, remove_odd, &visited);
    cr_assert_eq(visited, 5000);
    cr_assert_eq(map.count, 2500);
    cr_assert_null(dl_path_map_get(&map, "pkg/m1.py"));
    cr_assert_eq(dl_path_map_get(&map, "pkg/m2.py"), (void *)2);
    dl_path_map_free(&map);
}
