/* Unit tests for frontend/ts_region: tree-sitter parses inside a region give the same trees as
 * with libc's allocator, and a region is released whole at its end. */
#include "frontend/ts_region.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_python(void);

static const char program[] =
    "import torch\n"
    "class Net(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        return x * torch.ones(3, device=x.device)\n"
    "for i in range(10):\n"
    "    y = [Net()(torch.randn(3)) for _ in range(i)]\n";

/* The tree as an S-expression (malloc'd by tree-sitter's allocator: copied out). */
static char *parse_to_string(const char *text, bool in_region) {
    if (in_region) dl_ts_region_begin();
    TSParser *parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_python());
    TSTree *tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)strlen(text));
    ts_parser_delete(parser);
    cr_assert_not_null(tree);
    char *s = ts_node_string(ts_tree_root_node(tree));
    char *copy = strdup(s);
    if (in_region) {
        /* sanitizer builds parse with libc's allocator (the region is never active) */
        cr_assert_eq(dl_ts_region_holds_everything(), dl_ts_region_enabled(),
                     "a parse of this size fits in its region");
        dl_ts_region_end(); /* frees the tree and the string with it */
    } else {
        free(s);
        ts_tree_delete(tree);
    }
    return copy;
}

Test(ts_region, same_tree_inside_and_outside_a_region) {
    unsetenv("DEVLINT_TS_MALLOC"); /* the switch back to libc; each test is its own process */
    dl_ts_region_install();
    char *plain = parse_to_string(program, false);
    char *regional = parse_to_string(program, true);
    cr_assert_str_eq(regional, plain);
#if !defined(__SANITIZE_ADDRESS__)
    cr_assert(dl_ts_region_enabled(), "regions are on in a plain build");
#endif
    cr_assert(strstr(plain, "class_definition") != NULL);
    free(plain);
    free(regional);
}

Test(ts_region, outside_a_region_nothing_is_held) {
    dl_ts_region_install();
    cr_assert_not(dl_ts_region_holds_everything());
    dl_ts_region_end(); /* ending without a region is harmless */
    cr_assert_not(dl_ts_region_holds_everything());
}

static void *parse_many(void *arg) {
    (void)arg;
    for (int i = 0; i < 50; i++) {
        char *s = parse_to_string(program, true);
        if (!strstr(s, "function_definition")) abort();
        free(s);
    }
    return NULL;
}

Test(ts_region, regions_are_per_thread) {
    dl_ts_region_install();
    pthread_t a, b;
    pthread_create(&a, NULL, parse_many, NULL);
    pthread_create(&b, NULL, parse_many, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
}

Test(ts_region, a_large_file_spanning_many_chunks) {
    dl_ts_region_install();
    size_t reps = 4000, len = strlen(program);
    char *big = malloc(reps * len + 1);
    for (size_t i = 0; i < reps; i++) memcpy(big + i * len, program, len);
    big[reps * len] = '\0';
    char *plain = parse_to_string(big, false);
    char *regional = parse_to_string(big, true);
    cr_assert(strcmp(plain, regional) == 0);
    free(plain);
    free(regional);
    free(big);
}
