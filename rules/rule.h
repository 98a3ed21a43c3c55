/* A rule: its identity and documentation (what `devlint rules` and `devlint explain` print and
 * the SARIF rule metadata carry), plus the checks that read dataflow facts. */
#ifndef DL_RULE_H
#define DL_RULE_H
#include <stdbool.h>
#include <stddef.h>

#include "../analyzer/core/diag.h"

typedef struct DlRuleContext DlRuleContext; /* defined by the dataflow engine (rules/facts.h) */
typedef struct DlMeetFact DlMeetFact;
typedef struct DlDiscardFact DlDiscardFact;
typedef struct DlClassFact DlClassFact;
typedef struct DlCallFact DlCallFact;
typedef struct DlSyncFact DlSyncFact;
typedef struct DlIndexFact DlIndexFact;
typedef struct DlTimingFact DlTimingFact;

struct DlRule {
    const char *code;    /* "DL101" */
    const char *name;    /* "unassigned-to" */
    DlSeverity severity; /* default level */
    bool fixable;
    bool default_enabled; /* DL3xx are off by default */
    const char *summary;  /* one line, for `devlint rules` and SARIF shortDescription */
    const char *doc;      /* Markdown doc block: What it does / Why is this bad? / Example /
                             Use instead / When it does not fire */
    /* Fact hooks; NULL where a rule does not look at that kind of fact. */
    void (*on_meet)(DlRuleContext *ctx, const DlMeetFact *fact);
    void (*on_discard)(DlRuleContext *ctx, const DlDiscardFact *fact);
    void (*on_class)(DlRuleContext *ctx, const DlClassFact *fact);
    void (*on_call)(DlRuleContext *ctx, const DlCallFact *fact);
    void (*on_sync)(DlRuleContext *ctx, const DlSyncFact *fact);
    void (*on_index)(DlRuleContext *ctx, const DlIndexFact *fact);
    void (*on_timing)(DlRuleContext *ctx, const DlTimingFact *fact);
};

/* The registry: every rule, sorted by code. */
extern const DlRule *const dl_rules[];
extern const size_t dl_rule_count;

/* By code ("DL101"), name ("unassigned-to"); NULL if none. */
const DlRule *dl_rule_find(const char *code_or_name);

#endif
