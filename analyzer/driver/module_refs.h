/* The identifiers through which a Python file may name another file's module (driver/sharing.h
 * decides from them which files other files read). The analysis resolves a module only through
 * a qualified name (dataflow/project.c, find_named and dl_project_find_global), and a qualified
 * name is built from:
 *   - an import statement's text (`from pkg.model import Net`, `import model as m`);
 *   - a chain of attributes whose root is a name an import binds (`pkg.model.Net` after
 *     `import pkg`): the attributes of a chain with another root (`self.model`, `model.train()`
 *     with a local `model`) name no module;
 *   - a class's base list, where a dotted name is taken as written even unimported.
 * So those are the identifiers listed: every identifier of an import statement (a line from
 * `import` or `from` to its end, brackets and continuations included), every attribute of a
 * chain whose root is one of those, every identifier of a class's base list, and every identifier
 * inside an f-string (whose braces hold code). Comments and other strings are skipped. A list too
 * long only keeps a file shared that need not be. */
#ifndef DL_DRIVER_MODULE_REFS_H
#define DL_DRIVER_MODULE_REFS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/source.h"

/* The hashes (dl_name_hash, core/hash.h) of those identifiers, possibly repeated (`refs`, of
 * which `bases` are the ones in base lists), and whether an import binds a name under another
 * (`import x as y`, `from m import Base as B`): then a base list's name may be an alias. */
typedef struct DlModuleRefs {
    uint32_t *refs, *bases; /* malloc'ed */
    size_t count, base_count;
    bool import_alias;
} DlModuleRefs;
void dl_module_refs(const DlSource *src, DlModuleRefs *out);

/* Whether `identifier` is a name in the file's code: comments and strings do not count, an
 * f-string's identifiers do (its braces hold code). */
bool dl_code_names(const DlSource *src, const char *identifier);

#endif
