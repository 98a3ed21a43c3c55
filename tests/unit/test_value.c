/* The kind x device lattice: joins keep only facts both sides agree on. */
#include <criterion/criterion.h>
#include <string.h>

#include "dataflow/value.h"

static DlArena arena;

static void setup(void) {
    dl_arena_init(&arena);
}

static void teardown(void) {
    dl_arena_release(&arena);
}

TestSuite(value, .init = setup, .fini = teardown);

static DlValue *tensor(DlDeviceTag dev, const char *name) {
    DlValue *v = dl_value_new(&arena, DL_KIND_TENSOR);
    v->dev = dev;
    v->dev_name = name;
    return v;
}

Test(value, join_of_equal_values_is_that_value) {
    DlValue *a = tensor(DL_DEV_CPU, NULL);
    cr_assert_eq(dl_value_join(&arena, a, a), a);
    DlValue *b = dl_value_copy(&arena, a);
    cr_assert(dl_value_equal(dl_value_join(&arena, a, b), a));
}

Test(value, join_with_null_is_the_other_side) {
    DlValue *a = tensor(DL_DEV_CPU, NULL);
    cr_assert_eq(dl_value_join(&arena, NULL, a), a);
    cr_assert_eq(dl_value_join(&arena, a, NULL), a);
}

Test(value, different_devices_join_to_unknown_device) {
    const DlValue *j = dl_value_join(&arena, tensor(DL_DEV_CPU, NULL), tensor(DL_DEV_CUDA, "cuda"));
    cr_assert_eq(j->kind, DL_KIND_TENSOR);
    cr_assert_eq(j->dev, DL_DEV_UNKNOWN);
    cr_assert_eq(j->origin, DL_ORIGIN_NONE);
}

Test(value, named_devices_must_have_the_same_name) {
    const DlValue *same = dl_value_join(&arena, tensor(DL_DEV_NAMED, "device"),
                                        tensor(DL_DEV_NAMED, "device"));
    cr_assert_eq(same->dev, DL_DEV_NAMED);
    cr_assert_str_eq(same->dev_name, "device");
    const DlValue *diff = dl_value_join(&arena, tensor(DL_DEV_NAMED, "device"),
                                        tensor(DL_DEV_NAMED, "args.device"));
    cr_assert_eq(diff->dev, DL_DEV_UNKNOWN);
}

Test(value, different_kinds_join_to_unknown) {
    DlValue *m = dl_value_new(&arena, DL_KIND_MODULE);
    const DlValue *j = dl_value_join(&arena, m, tensor(DL_DEV_CPU, NULL));
    cr_assert_eq(j->kind, DL_KIND_UNKNOWN);
    cr_assert_eq(j->dev, DL_DEV_UNKNOWN);
}

Test(value, none_joined_with_a_value_keeps_the_value) {
    /* `self.cache = None` then a tensor assigned lazily on another path */
    DlValue *none = dl_value_new(&arena, DL_KIND_NONE);
    DlValue *t = tensor(DL_DEV_CPU, NULL);
    cr_assert_eq(dl_value_join(&arena, none, t), t);
    cr_assert_eq(dl_value_join(&arena, t, none), t);
}

Test(value, flags_survive_only_when_both_sides_have_them) {
    DlValue *a = tensor(DL_DEV_CPU, NULL), *b = tensor(DL_DEV_CPU, NULL);
    a->flags = DL_VF_ZERO_DIM | DL_VF_REGISTERED;
    b->flags = DL_VF_ZERO_DIM;
    const DlValue *j = dl_value_join(&arena, a, b);
    cr_assert_eq(j->flags, DL_VF_ZERO_DIM);
}

Test(value, a_parameter_or_a_placeholder_is_nowhere_known) {
    /* `nn.Parameter(...)` on one path, `torch.tensor(0)` on the other: where depends on the path;
     * a parameter or a plain tensor of data stays a CPU tensor the module does not move */
    DlValue *param = tensor(DL_DEV_CPU, NULL), *placeholder = tensor(DL_DEV_CPU, NULL),
            *data = tensor(DL_DEV_CPU, NULL);
    param->flags = DL_VF_REGISTERED;
    placeholder->flags = DL_VF_ZERO_DIM;
    cr_assert_eq(dl_value_join(&arena, param, placeholder)->dev, DL_DEV_UNKNOWN);
    cr_assert_eq(dl_value_join(&arena, placeholder, param)->dev, DL_DEV_UNKNOWN);
    const DlValue *j = dl_value_join(&arena, param, data);
    cr_assert_eq(j->dev, DL_DEV_CPU);
    cr_assert_eq(j->flags & DL_VF_REGISTERED, 0);
}

Test(value, empty_list_joined_with_list_of_tensors_is_a_list_of_tensors) {
    DlValue *empty = dl_value_new(&arena, DL_KIND_SEQ);
    DlValue *full = dl_value_new(&arena, DL_KIND_SEQ);
    full->elem = tensor(DL_DEV_CUDA, "cuda");
    const DlValue *j = dl_value_join(&arena, empty, full);
    cr_assert_not_null(j->elem);
    cr_assert_eq(j->elem->dev, DL_DEV_CUDA);
}

static DlValue *tuple_of(const DlValue **items, uint32_t n) {
    DlValue *t = dl_value_new(&arena, DL_KIND_SEQ);
    t->items = dl_arena_alloc(&arena, n * sizeof *items);
    memcpy((void *)t->items, items, n * sizeof *items);
    t->item_count = n;
    return t;
}

Test(value, tuples_of_two_lengths_join_on_the_positions_both_have) {
    /* `return x, y` on one path, `return x, y, dx` on the other: x and y are where they are */
    const DlValue *x = tensor(DL_DEV_CUDA, "cuda"), *y = tensor(DL_DEV_CUDA, "cuda");
    const DlValue *short_items[] = {x, y};
    const DlValue *long_items[] = {x, y, dl_value_new(&arena, DL_KIND_UNKNOWN)};
    const DlValue *j = dl_value_join(&arena, tuple_of(short_items, 2), tuple_of(long_items, 3));
    cr_assert_eq(j->kind, DL_KIND_SEQ);
    cr_assert_eq(j->item_count, 2);
    cr_assert_eq(j->items[0]->dev, DL_DEV_CUDA);
    cr_assert_eq(j->items[1]->dev, DL_DEV_CUDA);
    cr_assert_null(j->elem);
    /* a position whose two values disagree is joined as any value is */
    const DlValue *cpu_items[] = {tensor(DL_DEV_CPU, NULL), y, x};
    j = dl_value_join(&arena, tuple_of(short_items, 2), tuple_of(cpu_items, 3));
    cr_assert_eq(j->item_count, 2);
    cr_assert_eq(j->items[0]->dev, DL_DEV_UNKNOWN);
}

Test(value, zero_dim_cpu_tensors_are_not_cpu_operands) {
    DlValue *scalar = tensor(DL_DEV_CPU, NULL);
    scalar->flags = DL_VF_ZERO_DIM;
    cr_assert_not(dl_value_is_cpu_tensor(scalar));
    cr_assert(dl_value_is_cpu_tensor(tensor(DL_DEV_CPU, NULL)));
    cr_assert_not(dl_value_is_cpu_tensor(tensor(DL_DEV_UNKNOWN, NULL)));
}

Test(value, on_device_covers_cuda_named_module_and_meta_only) {
    cr_assert(dl_value_on_device(tensor(DL_DEV_CUDA, "cuda:1")));
    cr_assert(dl_value_on_device(tensor(DL_DEV_NAMED, "device")));
    cr_assert(dl_value_on_device(tensor(DL_DEV_MODULE, NULL)));
    cr_assert(dl_value_on_device(tensor(DL_DEV_META, NULL)));
    cr_assert_not(dl_value_on_device(tensor(DL_DEV_CPU, NULL)));
    cr_assert_not(dl_value_on_device(tensor(DL_DEV_UNKNOWN, NULL)));
}

Test(value, device_text_names_the_device) {
    cr_assert_str_eq(dl_device_text(&arena, tensor(DL_DEV_CPU, NULL)), "the cpu");
    cr_assert_str_eq(dl_device_text(&arena, tensor(DL_DEV_CUDA, "cuda:1")), "cuda:1");
    cr_assert_str_eq(dl_device_text(&arena, tensor(DL_DEV_NAMED, "args.device")), "args.device");
    cr_assert_str_eq(dl_device_text(&arena, tensor(DL_DEV_MODULE, NULL)), "the module's device");
}

static DlValue *module_of(const void *cls) {
    DlValue *m = dl_value_new(&arena, DL_KIND_MODULE);
    m->cls = cls;
    return m;
}

Test(value, modules_of_two_classes_join_to_either_class) {
    static const int lstm, mlp, third; /* stand-ins for two project classes' DlClassInfo */
    const DlValue *j = dl_value_join(&arena, module_of(&lstm), module_of(&mlp));
    cr_assert_null(j->cls);
    cr_assert((j->either_cls[0] == &lstm && j->either_cls[1] == &mlp) ||
              (j->either_cls[0] == &mlp && j->either_cls[1] == &lstm));
    /* the same two, met in the other order: an equal value (a loop's state holds) */
    cr_assert(dl_value_equal(j, dl_value_join(&arena, module_of(&mlp), module_of(&lstm))));
    cr_assert(dl_value_equal(j, dl_value_join(&arena, j, module_of(&mlp))));
    /* a third class, or one not known: neither */
    const DlValue *three = dl_value_join(&arena, j, module_of(&third));
    cr_assert_null(three->either_cls[0]);
    cr_assert_null(dl_value_join(&arena, module_of(&lstm), module_of(NULL))->either_cls[0]);
}
