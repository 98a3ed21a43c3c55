/* Unit tests for driver/sharing: which files other files may read (the rest stream through the
 * workers one at a time), and the function names the project's text mentions. */
#include "driver/sharing.h"

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

enum { MAX_FILES = 256 };

typedef struct Project {
    DlSource sources[MAX_FILES];
    const DlSource *parts[MAX_FILES];
    char *paths[MAX_FILES];
    size_t count;
    DlSharing *sharing;
} Project;

/* `files`: path, text, path, text, ..., NULL. A NULL text: a file that takes no part. */
static void scan(Project *p, int threads, const char *const *files) {
    memset(p, 0, sizeof *p);
    for (; files[0]; files += 2, p->count++) {
        cr_assert(p->count < MAX_FILES);
        p->paths[p->count] = (char *)files[0];
        if (!files[1]) continue;
        char *error = NULL;
        cr_assert(dl_source_from_bytes(&p->sources[p->count], files[0], files[1], strlen(files[1]),
                                       0, &error),
                  "%s", error ? error : "");
        p->parts[p->count] = &p->sources[p->count];
    }
    p->sharing = dl_sharing_scan(p->parts, p->paths, p->count, threads);
}

static void done(Project *p) {
    dl_sharing_free(p->sharing);
    for (size_t i = 0; i < p->count; i++)
        if (p->parts[i]) dl_source_free(&p->sources[i]);
}

Test(sharing, a_module_another_file_imports_is_shared_and_the_importer_is_a_leaf) {
    Project p;
    scan(&p, 2,
         (const char *const[]){"src/model.py",
                               "import torch\nclass Net(torch.nn.Module):\n    pass\n",
                               "src/train.py", "from model import Net\nnet = Net()\n", NULL});
    cr_assert(dl_sharing_is_shared(p.sharing, 0), "train.py imports model");
    cr_assert_not(dl_sharing_is_shared(p.sharing, 1), "nothing names train");
    done(&p);
}

Test(sharing, a_class_name_another_file_mentions_makes_its_file_shared) {
    /* `registry.ResidualStem` reaches the one class of that name whatever `registry` is */
    Project p;
    scan(&p, 1,
         (const char *const[]){"a/blocks.py", "class ResidualStem:\n    pass\n", "a/build.py",
                               "import registry\nstem = registry.ResidualStem()\n", "a/alone.py",
                               "class Lonely:\n    pass\nx = Lonely()  # its own class only\n",
                               NULL});
    cr_assert(dl_sharing_is_shared(p.sharing, 0));
    cr_assert_not(dl_sharing_is_shared(p.sharing, 1), "nothing names build");
    cr_assert_not(dl_sharing_is_shared(p.sharing, 2), "a class named only by its own file");
    done(&p);
}

Test(sharing, sibling_scripts_that_each_define_a_class_of_one_name_read_their_own) {
    /* RESCAN's train.py and eval.py each define a Session (minimalRL's scripts each their own
     * PPO, `super(PPO, self)`): each file's `Session` is its own class, so neither reads the
     * other's, and no file names either's module, as a script run on its own */
    Project p;
    scan(&p, 1,
         (const char *const[]){"config/train.py", "class Session:\n    pass\ns = Session()\n",
                               "config/eval.py", "class Session:\n    pass\ns = Session()\n",
                               "config/settings.py", "device_id = 0\n", "config/run.py",
                               "import settings\nprint(settings.device_id)\n", "config/use.py",
                               "class Other:\n    pass\nprint(Other, Session)\n", NULL});
    cr_assert(dl_sharing_is_shared(p.sharing, 0), "use.py names a Session it does not define");
    cr_assert(dl_sharing_is_shared(p.sharing, 1), "use.py names a Session it does not define");
    cr_assert_not(dl_sharing_module_is_named(p.sharing, 0), "nothing imports train");
    cr_assert_not(dl_sharing_module_is_named(p.sharing, 1), "nothing imports eval");
    cr_assert(dl_sharing_module_is_named(p.sharing, 2), "run.py imports settings");
    cr_assert_not(dl_sharing_module_is_named(p.sharing, 3), "nothing imports run");
    done(&p);
    scan(&p, 1,
         (const char *const[]){"config/train.py", "class Session:\n    pass\ns = Session()\n",
                               "config/eval.py", "class Session:\n    pass\ns = Session()\n",
                               NULL});
    cr_assert_not(dl_sharing_is_shared(p.sharing, 0), "eval.py's Session is its own");
    cr_assert_not(dl_sharing_is_shared(p.sharing, 1), "train.py's Session is its own");
    done(&p);
}

Test(sharing, a_module_that_names_itself_is_shared) {
    Project p;
    scan(&p, 1,
         (const char *const[]){"pkg/config.py", "import config\nDEVICE = config.DEFAULT\n",
                               "pkg/__init__.py", "DEVICE = 'cuda'\n", "pkg/use.py",
                               "from pkg import DEVICE  # the package's __init__\n", NULL});
    cr_assert(dl_sharing_is_shared(p.sharing, 0), "config.py reads itself by its module name");
    cr_assert(dl_sharing_is_shared(p.sharing, 1), "pkg/__init__.py is the module `pkg`");
    cr_assert_not(dl_sharing_is_shared(p.sharing, 2));
    done(&p);
}

Test(sharing, class_names_in_comments_and_strings_count) {
    /* a superset of what the front end reads: a file the analysis can reach is never a leaf */
    Project p;
    scan(&p, 2,
         (const char *const[]){"m/layers.py", "class Stem:\n    pass\n", "m/main.py",
                               "# see Stem for the blocks\nname = \"Stem\"\n", NULL});
    cr_assert(dl_sharing_is_shared(p.sharing, 0));
    done(&p);
}

/* Whether `train.py` is shared when the other file of the project is `text`. */
static bool train_is_shared(const char *text) {
    Project p;
    scan(&p, 1, (const char *const[]){"pkg/train.py", "x = 1\n", "pkg/use.py", text, NULL});
    bool shared = dl_sharing_is_shared(p.sharing, 0);
    done(&p);
    return shared;
}

Test(sharing, a_module_name_counts_where_an_import_may_use_it) {
    /* the qualified names that resolve a module come from import statements, attributes of
     * imported names and base lists (driver/module_refs.h) */
    const char *const uses[] = {
        "import train\n",
        "import pkg.train as t\n",
        "from train import main\n",
        "from pkg import train\n",
        "from . import train\n",
        "from pkg import (\n    a,\n    train,\n)\n",
        "from pkg import a, \\\r\n    train\n",
        "if x: import train\n",
        "y = 1; import train\n",
        "import pkg\npkg.train.main()\n",
        "import pkg as p\nv = p . train . X\n",
        "def f():\n    return pkg.train.X\n\nimport pkg\n", /* the import may come later */
        "v = (pkg.  # the blocks\n     train.X)\nimport pkg\n",
        "class A(train.Base):\n    pass\n",
        "class A(\n    Generic[T],\n    train.Base,\n):\n    pass\n",
        "import pkg\nmsg = f\"{pkg.train.X}\"\n",
    };
    for (size_t i = 0; i < sizeof uses / sizeof *uses; i++)
        cr_assert(train_is_shared(uses[i]), "%s", uses[i]);
    const char *const not_uses[] = {
        "model.train()\n", /* an attribute of a local value */
        "import torch\nmodel = torch.nn.Linear(2, 2)\nmodel.train()\n",
        "import pkg\nf(pkg).train\n", /* not a chain of names */
        "import pkg\n\"x\".train\n",
        "# import train\n",
        "doc = \"import train\"\n",
        "doc = '''\nfrom pkg import train\n'''\n",
        "train = 3\nprint(train)\n",
        "class A(Base):\n    train = 1\n", /* after the base list */
    };
    for (size_t i = 0; i < sizeof not_uses / sizeof *not_uses; i++)
        cr_assert_not(train_is_shared(not_uses[i]), "%s", not_uses[i]);
}

Test(sharing, a_definition_is_not_a_mention) {
    Project p;
    scan(&p, 1,
         (const char *const[]){"t/helpers.py",
                               "def scale(x):\n    return x\nasync def fetch():\n    pass\n"
                               "class Box:\n    def area(self):\n        return 0\n",
                               "t/run.py",
                               "from helpers import scale\nvalue = scale(2)\nb.area()\n", NULL});
    const DlInterner *named = dl_sharing_mentioned_functions(p.sharing);
    cr_assert(dl_interner_contains(named, "scale"), "run.py calls it");
    cr_assert(dl_interner_contains(named, "area"), "a method called by attribute");
    cr_assert_not(dl_interner_contains(named, "fetch"), "only defined");
    cr_assert_not(dl_interner_contains(named, "Box"), "a class, not a function");
    cr_assert_not(dl_interner_contains(named, "value"), "not defined by a def");
    done(&p);
}

Test(sharing, numbers_are_not_names_and_files_outside_take_no_part) {
    Project p;
    scan(&p, 2,
         (const char *const[]){"n/e5.py", "lr = 1\n", "n/train.py", "lr = 1e5\n", "n/notes.py",
                               NULL, /* not loaded, or names no tensor: not scanned */
                               "n/e6.py", "x = 2\n", NULL});
    cr_assert_not(dl_sharing_is_shared(p.sharing, 0), "`1e5` is a number, not the module e5");
    cr_assert_not(dl_sharing_is_shared(p.sharing, 2));
    cr_assert_not(dl_sharing_is_shared(p.sharing, 3));
    done(&p);
}

Test(sharing, device_mentions_are_the_front_ends) {
    const char *texts[2] = {"x = t.to(dev)\n", "import torch\n"};
    for (int i = 0; i < 2; i++) {
        DlSource src;
        char *error = NULL;
        cr_assert(dl_source_from_bytes(&src, "d.py", texts[i], strlen(texts[i]), 0, &error));
        DlSharingFile f;
        dl_sharing_file_scan(&f, &src, NULL);
        cr_assert_eq(f.mentions_devices, i == 0);
        dl_sharing_file_free(&f);
        dl_source_free(&src);
    }
}

Test(sharing, a_file_keeps_what_it_defines_and_the_hashes_of_what_it_names) {
    const char *text = "class Box:\n    def area(self):\n        return side * side\n";
    DlSource src;
    char *error = NULL;
    cr_assert(dl_source_from_bytes(&src, "b.py", text, strlen(text), 0, &error));
    DlSharingFile f;
    dl_sharing_file_scan(&f, &src, NULL);
    cr_assert_eq(f.class_count, 1);
    cr_assert_eq(f.function_count, 1);
    cr_assert_str_eq(f.names, "Box");
    cr_assert_str_eq(f.names + 4, "area");
    /* class, def, self, return, side (once; keywords are words too): not Box or area, which
     * are only defined here */
    cr_assert_eq(f.mention_count, 5);
    dl_sharing_file_free(&f);
    dl_source_free(&src);
}

Test(sharing, many_files_on_several_threads) {
    /* 200 modules; every tenth is imported by the next file: the same answer on 1 and 4 threads */
    static char texts[200][96];
    static char names[200][32];
    const char *files[401];
    for (int i = 0; i < 200; i++) {
        snprintf(names[i], sizeof names[i], "p/mod%03d.py", i);
        if (i % 10 == 1)
            snprintf(texts[i], sizeof texts[i], "from mod%03d import Net%03d\n", i - 1, i - 1);
        else
            snprintf(texts[i], sizeof texts[i], "class Net%03d:\n    pass\n", i);
        files[2 * i] = names[i];
        files[2 * i + 1] = texts[i];
    }
    files[400] = NULL;
    for (int threads = 1; threads <= 4; threads += 3) {
        static Project p;
        scan(&p, threads, files);
        for (int i = 0; i < 200; i++)
            cr_assert_eq(dl_sharing_is_shared(p.sharing, (size_t)i), i % 10 == 0,
                         "mod%03d on %d threads", i, threads);
        done(&p);
    }
}

Test(sharing, definitions_after_any_indentation) {
    /* a form feed is indentation too; `async def` defines a function */
    Project p;
    scan(&p, 1, (const char *const[]){
        "f/defs.py", "\fclass Paged:\n    pass\n\tasync  def  gather():\n        pass\n",
        "f/use.py", "import other\nother.Paged()\nawait gather()\n",
        NULL});
    cr_assert(dl_sharing_is_shared(p.sharing, 0), "use.py names the class Paged");
    cr_assert(dl_interner_contains(dl_sharing_mentioned_functions(p.sharing), "gather"));
    done(&p);
}

/* `text` scanned as `scanned_as` knowing the module names of `known` (NULL: every place looked
 * for), then decided next to an empty pkg/utils.py: is utils.py shared? */
static bool utils_is_shared(const char *text, char *const *known, size_t known_count) {
    DlSharingModules *modules = known ? dl_sharing_modules_new(known, known_count) : NULL;
    DlSource src[2];
    char *error = NULL;
    const char *empty = "x = 1\n";
    cr_assert(dl_source_from_bytes(&src[0], "pkg/a.py", text, strlen(text), 0, &error));
    cr_assert(dl_source_from_bytes(&src[1], "pkg/utils.py", empty, strlen(empty), 0, &error));
    DlSharingFile files[2];
    dl_sharing_file_scan(&files[0], &src[0], modules);
    dl_sharing_file_scan(&files[1], &src[1], modules);
    char *paths[2] = {"pkg/a.py", "pkg/utils.py"};
    DlSharing *s = dl_sharing_decide(files, paths, 2, 1);
    bool shared = dl_sharing_is_shared(s, 1);
    dl_sharing_free(s);
    for (int i = 0; i < 2; i++) {
        dl_sharing_file_free(&files[i]);
        dl_source_free(&src[i]);
    }
    dl_sharing_modules_free(modules);
    return shared;
}

Test(sharing, a_file_naming_no_module_of_its_check_is_not_searched_and_its_mentions_stand_in) {
    const char *text = "import torch\nv = utils.helper()\n"; /* `utils` is not imported */
    char *with_utils[2] = {"pkg/a.py", "pkg/utils.py"}, *without[1] = {"pkg/a.py"};
    cr_assert_not(utils_is_shared(text, NULL, 0), "searched: an attribute of no import");
    cr_assert_not(utils_is_shared(text, with_utils, 2), "searched, since it mentions utils");
    /* scanned when utils.py was not there (a language server's earlier check): what it mentions
     * counts as the places it may name a module by */
    cr_assert(utils_is_shared(text, without, 1));
    cr_assert(utils_is_shared("from pkg import utils\n", without, 1));
}

Test(sharing, a_subclass_of_a_class_whose_file_mentions_dataloader_may_place_marks) {
    /* __init__'s helpers run inline in the subclass's file (flow_inline_method): a base's
     * DataLoader marks the dataset a subclass in another file passes it */
    Project p;
    scan(&p, 2,
         (const char *const[]){
             "base.py",
             "import torch\nclass Trainer:\n    def _setup(self, ds):\n"
             "        self.loader = torch.utils.data.DataLoader(ds, num_workers=4)\n",
             "sub.py", "from base import Trainer\nclass Mine(Trainer):\n    pass\n",
             "subsub.py", "import sub\nclass Deeper(sub.Mine):\n    pass\n",
             "user.py", "from base import Trainer\nt = Trainer()  # defines no class\n",
             "unrelated.py", "class Alone:\n    pass\n",
             "loop.py", "from torch.utils.data import DataLoader\n",
             "alias.py", "from base import Trainer as T\nclass Other(T):\n    pass\n",
             "remark.py", "import base\nclass Doc:  # not a Trainer\n    pass\n",
             "config.py", "from base import Trainer\nclass Settings:\n    pass\n",
             "docs.py", "class Quiet:\n    \"\"\"Feeds a DataLoader.\"\"\"\n"
             "    # torch.utils.data.DataLoader(ds)\n",
             "fstring.py", "import torch\nprint(f'{torch.utils.data.DataLoader}')\n", NULL});
    cr_assert(dl_sharing_may_place_marks(p.sharing, 0), "base.py mentions DataLoader");
    cr_assert(dl_sharing_may_place_marks(p.sharing, 1), "sub.py's class may inherit _setup");
    cr_assert(dl_sharing_may_place_marks(p.sharing, 2), "and subsub.py's, through sub.py's");
    cr_assert_not(dl_sharing_may_place_marks(p.sharing, 3), "a file without classes runs no "
                                                            "__init__ of its own");
    cr_assert_not(dl_sharing_may_place_marks(p.sharing, 4));
    cr_assert(dl_sharing_may_place_marks(p.sharing, 5), "defines nothing, mentions DataLoader");
    cr_assert(dl_sharing_may_place_marks(p.sharing, 6), "a base through an import's alias");
    cr_assert_not(dl_sharing_may_place_marks(p.sharing, 7), "a base is not named in a comment");
    cr_assert_not(dl_sharing_may_place_marks(p.sharing, 8), "imports Trainer, subclasses nothing");
    cr_assert_not(dl_sharing_may_place_marks(p.sharing, 9), "DataLoader in a docstring and a "
                                                            "comment only");
    cr_assert(dl_sharing_may_place_marks(p.sharing, 10), "an f-string's braces are code");
    cr_assert_not(dl_sharing_may_place_marks(p.sharing, 11), "out of range");
    done(&p);
}

Test(sharing, a_names_digest_changes_with_the_definers_of_the_names_the_file_mentions) {
    const char *before[] = {"lib.py", "class Net:\n    pass\n", "user.py",
                            "import lib\nn = lib.Net()\n", "other.py", "import lib\nx = 1\n",
                            "alone.py", "y = 2\n", NULL};
    const char *after[] = {"lib.py", "class Net:\n    pass\n", "user.py",
                           "import lib\nn = lib.Net()\n", "other.py", "import lib\nx = 1\n",
                           "alone.py", "y = 2\n", "more.py",
                           "import lib\nclass Net:  # a second one\n    pass\n", NULL};
    Project a, b;
    scan(&a, 1, before);
    scan(&b, 2, after);
    cr_assert_neq(dl_sharing_names_digest(a.sharing, 1), 0, "user.py mentions lib and Net");
    cr_assert_neq(dl_sharing_names_digest(a.sharing, 1), dl_sharing_names_digest(b.sharing, 1),
                  "a second Net, in a shared file");
    cr_assert_eq(dl_sharing_names_digest(a.sharing, 2), dl_sharing_names_digest(b.sharing, 2),
                 "other.py names no Net");
    cr_assert_eq(dl_sharing_names_digest(a.sharing, 3), 0, "alone.py names nothing defined");
    cr_assert_eq(dl_sharing_names_digest(a.sharing, 9), 0, "out of range");
    done(&a);
    done(&b);
}

/* `count` shared files m0.py ... defining `forward`, plus `extra` (path, text) and a user that
 * imports the modules named in `uses`; returns the user's names digest. */
static uint64_t user_digest(int count, const char *extra_path, const char *extra_text,
                            const char *uses) {
    static char paths[40][16], texts[40][64];
    const char *files[2 * 44 + 1];
    size_t n = 0;
    for (int i = 0; i < count; i++) {
        snprintf(paths[i], sizeof paths[i], "m%d.py", i);
        snprintf(texts[i], sizeof texts[i], "def forward(x):\n    return x\n");
        files[n++] = paths[i];
        files[n++] = texts[i];
    }
    if (extra_path) {
        files[n++] = extra_path;
        files[n++] = extra_text;
    }
    files[n++] = "user.py";
    files[n++] = uses;
    files[n++] = NULL;
    Project p;
    scan(&p, 1, files);
    uint64_t digest = dl_sharing_names_digest(p.sharing, n / 2 - 1);
    done(&p);
    return digest;
}

Test(sharing, a_function_counts_for_a_file_that_names_its_module_too) {
    /* functions are found through their module (`m3.forward`): a file that names forward
     * and m3 depends on who defines forward in a module m3, not elsewhere */
    for (int many = 0; many < 2; many++) {
        /* few definers and several modules named, then many definers and one module named:
         * the two ways the pairs are looked up */
        int count = many ? 30 : 2;
        const char *uses = many ? "import m1\ny = m1.forward(2)\n"
                                : "import m0, m1, m9, m10, m11\ny = m1.forward(2)\n";
        uint64_t alone = user_digest(count, NULL, NULL, uses);
        cr_assert_neq(alone, 0);
        cr_assert_neq(user_digest(count, "pkg/m1.py", "def forward(x):\n    return x\n", uses),
                      alone, "another forward in a module m1");
        /* shared: it names its own module */
        cr_assert_eq(user_digest(count, "pkg/other.py", "import other\ndef forward(x):\n    pass\n",
                                 uses),
                     alone, "a forward in a module the user does not name");
    }
}

Test(sharing, a_names_digest_changes_with_which_of_the_files_functions_some_file_names) {
    /* a function no file names gets no summary (project.c, needs_summary) */
    const char *before[] = {"lib.py", "def helper(x):\n    return x\ndef used(x):\n    return x\n",
                            "user.py", "import lib\ny = lib.used(1)\n", NULL};
    const char *after[] = {"lib.py", "def helper(x):\n    return x\ndef used(x):\n    return x\n",
                           "user.py", "import lib\ny = lib.used(1)\n", "new.py",
                           "from lib import helper\n", NULL};
    Project a, b;
    scan(&a, 1, before);
    scan(&b, 1, after);
    cr_assert_neq(dl_sharing_names_digest(a.sharing, 0), dl_sharing_names_digest(b.sharing, 0),
                  "lib.py's helper is named now");
    cr_assert_eq(dl_sharing_names_digest(a.sharing, 1), dl_sharing_names_digest(b.sharing, 1),
                 "user.py defines no function");
    done(&a);
    done(&b);
}

Test(sharing, the_folders_and_modules_of_python_paths_are_the_projects_names) {
    /* `from core.policy.networks import TSDP`: `core` is the project's even when no file of it
     * takes part (its `__init__.py` names no tensor); `torchcrf` is a library's */
    Project p;
    scan(&p, 1,
         (const char *const[]){"src/core/__init__.py", NULL, "src/core/policy/utils.py",
                               "class TSDP:\n    pass\n", "src/train.py",
                               "from torchcrf import CRF\nfrom core.policy import TSDP\n",
                               "src/notes.ipynb", NULL, NULL});
    const DlInterner *names = dl_sharing_module_names(p.sharing);
    cr_assert(dl_interner_contains(names, "core"));
    cr_assert(dl_interner_contains(names, "policy"));
    cr_assert(dl_interner_contains(names, "utils"));
    cr_assert_not(dl_interner_contains(names, "torchcrf"));
    cr_assert_not(dl_interner_contains(names, "notes"), "a notebook is no module");
    uint64_t before = dl_sharing_names_digest(p.sharing, 2);
    done(&p);
    /* a folder named as the import appears: what train.py's lookups may find changed */
    scan(&p, 1,
         (const char *const[]){"src/core/__init__.py", NULL, "src/core/policy/utils.py",
                               "class TSDP:\n    pass\n", "src/train.py",
                               "from torchcrf import CRF\nfrom core.policy import TSDP\n",
                               "src/torchcrf/helpers.py", NULL, NULL});
    cr_assert(dl_interner_contains(dl_sharing_module_names(p.sharing), "torchcrf"));
    cr_assert_neq(dl_sharing_names_digest(p.sharing, 2), before);
    done(&p);
}

Test(sharing, a_script_that_saves_a_file_another_loads_is_shared) {
    /* DL109 reads the save of `train_x.pty` in generate_data.py when it judges train.py's load
     * (driver/sharing_saves.c) */
    Project p;
    scan(&p, 2,
         (const char *const[]){
             "generate_data.py",
             "import torch\nx = torch.zeros(3)\ntorch.save(x, folder + \"train_x.pty\")\n",
             "train.py", "import torch\nx = torch.load(folder + 'train_x.pty')\n",
             "other.py", "import torch\ntorch.save(y, 'other.pt')  # nobody loads it\n",
             "self.py", "import torch\ntorch.save(z, 'own.pt')\nz = torch.load('own.pt')\n",
             "generic.py", "import torch\ntorch.save(w, f'{name}.pt')\n", "docs.py",
             "import torch\n\"\"\"torch.load('other.pt')\"\"\"\ntorch.load(path)\n", NULL});
    cr_assert(dl_sharing_is_shared(p.sharing, 0), "train.py loads what it saves");
    cr_assert_not(dl_sharing_is_shared(p.sharing, 1), "nothing reads train.py");
    cr_assert_not(dl_sharing_is_shared(p.sharing, 2), "a docstring's load is no load");
    cr_assert_not(dl_sharing_is_shared(p.sharing, 3), "a file that loads only its own save");
    cr_assert_not(dl_sharing_is_shared(p.sharing, 4), "`.pt` alone names no file");
    done(&p);
}

Test(sharing, a_names_digest_changes_with_the_files_that_save_what_the_file_loads) {
    const char *before[] = {"train.py", "import torch\nx = torch.load('data/train_x.pty')\n",
                            "eval.py", "import torch\ny = torch.load('data/test.pty')\n", NULL};
    const char *after[] = {"train.py", "import torch\nx = torch.load('data/train_x.pty')\n",
                           "eval.py", "import torch\ny = torch.load('data/test.pty')\n",
                           "make.py", "import torch\ntorch.save(x, 'out/train_x.pty')\n", NULL};
    Project a, b;
    scan(&a, 1, before);
    scan(&b, 1, after);
    cr_assert_neq(dl_sharing_names_digest(a.sharing, 0), dl_sharing_names_digest(b.sharing, 0),
                  "make.py now writes the file train.py loads");
    cr_assert_eq(dl_sharing_names_digest(a.sharing, 1), dl_sharing_names_digest(b.sharing, 1),
                 "nothing writes eval.py's file");
    cr_assert(dl_sharing_is_shared(b.sharing, 2));
    done(&a);
    done(&b);
}

Test(sharing, a_file_that_names_another_files_function_defaulting_to_the_cpu_is_shared) {
    /* the analysis of training.py reads every call of `train_model` and `Runner(...)` to know
     * whether one hands them a GPU (dataflow/flow_callers.c; driver/sharing_callers.c) */
    Project p;
    scan(&p, 2,
         (const char *const[]){
             "training.py",
             "import torch\ndef train_model(m, device=\"cpu\"):\n    pass\n"
             "class Runner:\n    def __init__(self, device=torch.device('cpu')):\n        pass\n"
             "    def forward(self, x, device='cpu'):\n        pass\n"
             "def plain(m, device=None):\n    pass\n",
             "cli.py", "import torch\nfrom training import *\ntrain_model(torch.nn.Linear(1, 1))\n",
             "run.py", "import torch\nr = Runner()  # a construction\n",
             "model.py", "import torch\nclass Net(torch.nn.Module):\n    def forward(self, x):\n"
             "        return x\n",
             "plain.py", "import torch\nfrom training import *\nplain(torch.nn.Linear(1, 1))\n",
             "self.py", "import torch\ndef go(device='cpu'):\n    pass\ngo()\n",
             "aio.py", "import torch\nasync def serve(m, device='cpu'):\n    pass\n",
             "client.py", "import torch\nfrom aio import serve\nserve(torch.nn.Linear(1, 1))\n",
             NULL});
    cr_assert(dl_sharing_is_shared(p.sharing, 1), "cli.py calls train_model");
    cr_assert_not(dl_sharing_code_is_read(p.sharing, 1), "and no file reads its code");
    cr_assert(dl_sharing_is_shared(p.sharing, 2), "run.py constructs a Runner");
    cr_assert_not(dl_sharing_is_shared(p.sharing, 3), "a method's `forward` is no function's");
    cr_assert_not(dl_sharing_is_shared(p.sharing, 4), "`plain` defaults to None");
    cr_assert_not(dl_sharing_is_shared(p.sharing, 5), "self.py calls only its own function");
    cr_assert(dl_sharing_is_shared(p.sharing, 7), "client.py calls an `async def` unindented");
    done(&p);
}

Test(sharing, a_names_digest_changes_with_the_files_that_name_its_functions_defaulting_to_the_cpu) {
    /* fit is named in both runs (it gets a summary either way): only its callers differ */
    const char *before[] = {"training.py", "import torch\ndef fit(m, device='cpu'):\n    pass\n",
                            "eval.py", "import torch\ndef score(m, device=None):\n    pass\n",
                            "cli.py", "import torch\nfrom training import fit\nfrom eval import score\n"
                            "fit(torch.nn.Linear(1, 1))\n", NULL};
    const char *after[] = {"training.py", "import torch\ndef fit(m, device='cpu'):\n    pass\n",
                           "eval.py", "import torch\ndef score(m, device=None):\n    pass\n",
                           "cli.py", "import torch\nfrom training import fit\nfrom eval import score\n"
                           "fit(torch.nn.Linear(1, 1))\n",
                           "gpu.py", "import torch\nfrom training import fit\nfrom eval import score\n"
                           "fit(torch.nn.Linear(1, 1), device='cuda')\nscore(None, 'cuda')\n", NULL};
    Project a, b;
    scan(&a, 1, before);
    scan(&b, 1, after);
    cr_assert_neq(dl_sharing_names_digest(a.sharing, 0), dl_sharing_names_digest(b.sharing, 0),
                  "gpu.py now calls fit too");
    cr_assert_eq(dl_sharing_names_digest(a.sharing, 1), dl_sharing_names_digest(b.sharing, 1),
                 "score's device defaults to None: its callers are not read");
    cr_assert(dl_sharing_is_shared(b.sharing, 3));
    done(&a);
    done(&b);
}
