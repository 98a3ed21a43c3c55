/* DL000 unknown-suppression: a suppression comment names a rule that does not exist. Reported
 * by the driver while it reads the file's suppressions (no dataflow fact involved). */
#include "rules/rule.h"

static const char doc[] =
    "## What it does\n"
    "Reports a code in a `# devlint: ignore[...]` or `# noqa: ...` comment that names no devlint\n"
    "rule (codes of other linters, like `E501` in a `noqa`, are left alone).\n\n"
    "## Why is this bad?\n"
    "A misspelt code suppresses nothing: the finding it was meant to silence still appears, or\n"
    "the comment silently outlives the rule it referred to.\n\n"
    "## Example\n"
    "```python\n"
    "x.to(device)  # devlint: ignore[DL1O1]\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "x.to(device)  # devlint: ignore[DL101]\n"
    "```\n\n"
    "## When it does not fire\n"
    "Known codes or names (`DL101`, `unassigned-to`), and `noqa` codes that do not start with `DL`.\n";

const DlRule dl_rule_DL000 = {
    .code = "DL000",
    .name = "unknown-suppression",
    .severity = DL_SEV_WARNING,
    .fixable = false,
    .default_enabled = true,
    .summary = "A suppression comment names a rule that does not exist",
    .doc = doc,
};
