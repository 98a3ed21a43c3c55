"""The report of `devlint run`: JSON ({"verdicts": [...], "unpredicted": [...]}) or text, on the
real stderr, and always JSON in the --report file."""
import json
import sys

ORDER = ("confirmed", "refuted", "not-reached", "inconclusive")


def text(doc, driver):
    verdicts, unpredicted = doc["verdicts"], doc["unpredicted"]
    lines = []
    counts = {}
    for v in verdicts:
        counts[v["verdict"]] = counts.get(v["verdict"], 0) + 1
    if verdicts:
        summary = ", ".join("%d %s" % (counts[k], k.replace("-", " "))
                            for k in ORDER if counts.get(k))
        lines.append("devlint run: %d finding%s checked: %s (%s)"
                     % (len(verdicts), "" if len(verdicts) == 1 else "s", summary, driver))
    else:
        lines.append("devlint run: no findings to check (%s)" % driver)
    for v in verdicts:
        lines.append("%s:%d: %s [%s] %s: %s" % (v["path"], v["line"], v["code"], v["name"],
                                                 v["verdict"], v["evidence"]))
    if unpredicted:
        lines.append("devlint run: %d device mismatch%s devlint did not predict:"
                     % (len(unpredicted), "" if len(unpredicted) == 1 else "es"))
        for u in unpredicted:
            lines.append("%s:%d: %s" % (u["path"], u["line"], u["message"]))
    elif verdicts or driver:
        lines.append("devlint run: no device mismatch that devlint did not predict")
    return "\n".join(lines) + "\n"


def write(doc, driver, fmt, report_path):
    out = sys.__stderr__ or sys.stderr
    try:
        out.flush()
    except (OSError, ValueError):
        pass
    body = json.dumps(doc, indent=2) + "\n" if fmt == "json" else text(doc, driver)
    try:
        out.write(body)
        out.flush()
    except (OSError, ValueError):
        pass
    if report_path:
        try:
            with open(report_path, "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=2)
                f.write("\n")
        except OSError as err:
            out.write("devlint run: error: cannot write %s: %s\n" % (report_path, err))
