/* Unit tests for core/intern: one copy per distinct name, the "referenced" mark, growth. */
#include "core/intern.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

Test(intern, same_text_gives_the_same_copy) {
    DlArena arena;
    dl_arena_init(&arena);
    DlInterner t;
    dl_interner_init(&t, &arena);
    const char *src = "model model.to";
    const char *a = dl_intern(&t, src, 5, false);
    const char *b = dl_intern(&t, src + 6, 5, false);
    cr_assert_str_eq(a, "model");
    cr_assert_eq(a, b, "the second occurrence must share the first copy");
    cr_assert_neq(a, src, "the text is copied into the arena");
    cr_assert_str_eq(dl_intern(&t, src + 12, 2, false), "to");
    dl_interner_free(&t);
    dl_arena_release(&arena);
}

Test(intern, only_referenced_names_are_listed) {
    DlArena arena;
    dl_arena_init(&arena);
    DlInterner t;
    dl_interner_init(&t, &arena);
    dl_intern(&t, "train", 5, false);       /* a definition */
    dl_intern(&t, "helper", 6, true);       /* a call */
    dl_intern(&t, "mask", 4, false);
    dl_intern(&t, "mask", 4, true);         /* defined, then read: referenced */
    dl_intern(&t, "helper", 6, false);      /* the mark is never removed */
    uint32_t n = 0;
    const char **names = dl_interner_referenced(&t, &arena, &n);
    cr_assert_eq(n, 2);
    bool helper = false, mask = false;
    for (uint32_t i = 0; i < n; i++) {
        helper |= strcmp(names[i], "helper") == 0;
        mask |= strcmp(names[i], "mask") == 0;
    }
    cr_assert(helper && mask);
    dl_interner_free(&t);
    dl_arena_release(&arena);
}

Test(intern, grows_and_keeps_every_name) {
    DlArena arena;
    dl_arena_init(&arena);
    DlInterner t;
    dl_interner_init(&t, &arena);
    char buf[32];
    const char *first[5000];
    for (int i = 0; i < 5000; i++) {
        int len = snprintf(buf, sizeof buf, "name_%d", i);
        first[i] = dl_intern(&t, buf, (size_t)len, i % 2 == 0);
    }
    cr_assert_eq(t.count, 5000);
    for (int i = 0; i < 5000; i++) {
        int len = snprintf(buf, sizeof buf, "name_%d", i);
        cr_assert_eq(dl_intern(&t, buf, (size_t)len, false), first[i]);
        cr_assert(dl_interner_contains(&t, buf));
    }
    cr_assert_not(dl_interner_contains(&t, "name_5000"));
    uint32_t n = 0;
    dl_interner_referenced(&t, &arena, &n);
    cr_assert_eq(n, 2500);
    dl_interner_free(&t);
    dl_arena_release(&arena);
}

Test(intern, a_set_of_borrowed_strings) {
    DlInterner t;
    dl_interner_init(&t, NULL);
    const char *kept = "padding_mask";
    dl_interner_add(&t, kept);
    dl_interner_add(&t, "padding_mask"); /* the same text: still one entry */
    cr_assert_eq(t.count, 1);
    cr_assert(dl_interner_contains(&t, "padding_mask"));
    cr_assert_not(dl_interner_contains(&t, "padding"));
    cr_assert_not(dl_interner_contains(&t, ""));
    dl_interner_free(&t);
}

Test(intern, the_union_of_two_sets) {
    DlArena arena;
    dl_arena_init(&arena);
    DlInterner a, b;
    dl_interner_init(&a, NULL);
    dl_interner_init(&b, &arena); /* b's names are copied: `name` below is reused */
    dl_interner_add(&a, "encoder");
    dl_interner_add(&a, "mask");
    char name[16];
    for (int i = 0; i < 40; i++) { /* enough for `a` to grow while taking b's names */
        snprintf(name, sizeof name, "layer%d", i);
        dl_intern(&b, name, strlen(name), false);
    }
    dl_interner_add(&b, "mask");
    dl_interner_add_all(&a, &b);
    cr_assert_eq(a.count, 42, "encoder, mask and layer0..layer39, each once (got %u)", a.count);
    cr_assert(dl_interner_contains(&a, "encoder"));
    cr_assert(dl_interner_contains(&a, "layer0"));
    cr_assert(dl_interner_contains(&a, "layer39"));
    uint32_t n = 0;
    dl_interner_referenced(&a, &arena, &n);
    cr_assert_eq(n, 42, "the names taken from `b` count as referenced");
    dl_interner_free(&b);
    dl_interner_free(&a);
    dl_arena_release(&arena);
}
