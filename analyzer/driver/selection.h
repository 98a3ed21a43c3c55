/* Which rules run: --select / --ignore (and later the config file) resolved against the
 * registry. A selector is a code ("DL101"), a code prefix ("DL1", "DL"), a name
 * ("unassigned-to") or "ALL". */
#ifndef DL_SELECTION_H
#define DL_SELECTION_H
#include <stdbool.h>
#include <stddef.h>

/* Fills enabled[i] for dl_rules[i]. Each list entry may hold several comma-separated
 * selectors. Without --select, the rules enabled by default run. On an unknown selector
 * returns false and a malloc'ed message in *error. */
bool dl_selection_resolve(const char *const *select, size_t select_count,
                          const char *const *ignore, size_t ignore_count, bool *enabled,
                          char **error);

/* Does one selector match this rule? */
bool dl_selector_matches(const char *selector, const char *code, const char *name);

#endif
