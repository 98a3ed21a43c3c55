/* The rule registry: the one list of every rule, sorted by code. Adding a rule adds one line
 * here (and its file and fixtures). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "rules/rule.h"

extern const DlRule dl_rule_DL000, dl_rule_DL101, dl_rule_DL102, dl_rule_DL103, dl_rule_DL104,
    dl_rule_DL105, dl_rule_DL106, dl_rule_DL107, dl_rule_DL108, dl_rule_DL109, dl_rule_DL110,
    dl_rule_DL111, dl_rule_DL112, dl_rule_DL113, dl_rule_DL114, dl_rule_DL120, dl_rule_DL121, dl_rule_DL201, dl_rule_DL202,
    dl_rule_DL203, dl_rule_DL204, dl_rule_DL205, dl_rule_DL301, dl_rule_DL302;

const DlRule *const dl_rules[] = {
    &dl_rule_DL000, &dl_rule_DL101, &dl_rule_DL102, &dl_rule_DL103, &dl_rule_DL104, &dl_rule_DL105,
    &dl_rule_DL106, &dl_rule_DL107, &dl_rule_DL108, &dl_rule_DL109, &dl_rule_DL110, &dl_rule_DL111,
    &dl_rule_DL112, &dl_rule_DL113, &dl_rule_DL114, &dl_rule_DL120, &dl_rule_DL121, &dl_rule_DL201, &dl_rule_DL202, &dl_rule_DL203,
    &dl_rule_DL204, &dl_rule_DL205, &dl_rule_DL301, &dl_rule_DL302,
};
const size_t dl_rule_count = sizeof dl_rules / sizeof dl_rules[0];

const DlRule *dl_rule_find(const char *code_or_name) {
    for (size_t i = 0; i < dl_rule_count; i++)
        if (strcasecmp(dl_rules[i]->code, code_or_name) == 0 ||
            strcmp(dl_rules[i]->name, code_or_name) == 0)
            return dl_rules[i];
    return NULL;
}
