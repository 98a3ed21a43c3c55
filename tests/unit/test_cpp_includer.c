/* Unit tests for frontend/cpp_includer: which source a header that does not compile alone is
 * read inside (the one whose quoted include names it, then one of its stem, then one beside
 * it), through headers that include it, and none when nothing names it. */
#define _GNU_SOURCE /* nftw (temp_dirs.h), vasprintf */
#include "frontend/cpp_includer.h"
#include "frontend/cpp_flags.h" /* dl_cpp_is_header_path */

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "temp_dirs.h"
#include "test_text.h"

static void cleanup(void) {
    free_fmt_strings();
    remove_temp_dirs();
}

TestSuite(cpp_includer, .fini = cleanup);

static void assert_includer(const char *header, const char *want) {
    char *got = dl_cpp_find_includer(header);
    if (!want) {
        cr_assert_null(got, "no includer expected for %s, got %s", header, got);
        return;
    }
    char *real = realpath(want, NULL);
    cr_assert_not_null(got, "an includer expected for %s", header);
    cr_assert_str_eq(got, real);
    free(real);
    free(got);
}

Test(cpp_includer, header_extensions) {
    cr_assert(dl_cpp_is_header_path("a/atomics.cuh"));
    cr_assert(dl_cpp_is_header_path("x.hpp"));
    cr_assert(dl_cpp_is_header_path("x.h"));
    cr_assert_not(dl_cpp_is_header_path("x.cu"));
    cr_assert_not(dl_cpp_is_header_path("x.cpp"));
    cr_assert_not(dl_cpp_is_header_path("h"));
}

Test(cpp_includer, the_source_whose_include_resolves_to_the_header_first) {
    const char *t = make_temp_dir("dl_includer");
    write_text(fmt("%s/csrc/cuda/utils.cuh", t), "#pragma once\n");
    /* a.cu names another utils.cuh (its own include dir's); b.cu this one */
    write_text(fmt("%s/csrc/cuda/a.cu", t), "#include <torch/extension.h>\n#include \"x/utils.cuh\"\n");
    write_text(fmt("%s/csrc/cuda/b.cu", t), "#include <torch/extension.h>\n#include \"utils.cuh\"\n");
    assert_includer(fmt("%s/csrc/cuda/utils.cuh", t), fmt("%s/csrc/cuda/b.cu", t));
}

Test(cpp_includer, then_one_of_its_stem_then_one_beside_it) {
    const char *t = make_temp_dir("dl_includer");
    write_text(fmt("%s/src/scale.h", t), "#pragma once\n");
    write_text(fmt("%s/include/scale.h", t), "#pragma once\n");
    /* angle includes resolve through -I, which is not known here: the stem decides */
    write_text(fmt("%s/src/a.cpp", t), "#include <scale.h>\n");
    write_text(fmt("%s/src/scale.cpp", t), "#  include <scale.h>\n");
    assert_includer(fmt("%s/src/scale.h", t), fmt("%s/src/scale.cpp", t));
    /* in include/ next to src/: found in a sibling directory */
    assert_includer(fmt("%s/include/scale.h", t), fmt("%s/src/scale.cpp", t));
}

Test(cpp_includer, a_header_only_headers_include_is_followed_to_a_source) {
    const char *t = make_temp_dir("dl_includer");
    /* pytorch_scatter: atomics.cuh <- reducer.cuh <- scatter_cuda.cu */
    write_text(fmt("%s/cuda/atomics.cuh", t), "#pragma once\n");
    write_text(fmt("%s/cuda/reducer.cuh", t), "#pragma once\n#include \"atomics.cuh\"\n");
    write_text(fmt("%s/cuda/scatter_cuda.cu", t), "#include \"reducer.cuh\"\n");
    assert_includer(fmt("%s/cuda/atomics.cuh", t), fmt("%s/cuda/scatter_cuda.cu", t));
}

Test(cpp_includer, none_when_nothing_names_it) {
    const char *t = make_temp_dir("dl_includer");
    write_text(fmt("%s/lonely.h", t), "#pragma once\n");
    write_text(fmt("%s/other.cpp", t), "// #include \"lonely.h\" is only mentioned\nint x;\n");
    assert_includer(fmt("%s/lonely.h", t), NULL);
    assert_includer(fmt("%s/missing.h", t), NULL);
}
