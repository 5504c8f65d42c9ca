"""The ``.debug`` report (spec §5.4).

Part 1 lists, per SF row, every response whose post-policy label differs from
its pre-policy category, so a changed policy shows up as a readable diff.
Part 2 shows each AP computation: ground truth, ranking, mapped ECs and V.
"""
from __future__ import annotations

RULE = "=" * 80 + "\n"
DOTS = "." * 80 + "\n"


def render_categories(rows, assessment_of) -> str:
    """Part 1: rows in string order of their names (spec §7.22)."""
    out = []
    for row in sorted(rows, key=lambda row: row.name):
        out.append(RULE)
        out.append(row.name + "\n")
        summary: dict = {}
        for label, members in row.lists.items():
            if label == "SUBMITTED":
                continue
            for submission in members:
                assessment = assessment_of.get(submission)
                prepolicy = assessment.assessment if assessment is not None else "UNASSESSED"
                if prepolicy == label:
                    continue
                # Keyed by line number, as the Perl does (spec §5.4).
                item = summary.get(submission.line_number)
                if item is None:
                    summary[submission.line_number] = (submission, assessment, prepolicy, [label])
                else:
                    item[3].append(label)
        for line_number in sorted(summary):
            submission, assessment, prepolicy, labels = summary[line_number]
            out.append(f"\tFQNODEID:\t{submission.fqnodeid or '-'}\n"
                       f"\tSUBMISSION:\t{submission.line}\n"
                       f"\tTARGET_QID:\t{submission.target_query.full_id}\n"
                       f"\tASSESSMENT:\t{assessment.line if assessment is not None else '-'}\n\n"
                       f"\tPREPOLICY ASSESSMENT:\t{prepolicy}\n"
                       f"\tPOSTPOLICY ASSESSMENT:\t{','.join(sorted(labels))}\n"
                       f"{DOTS}")
    out.append("\n")
    return "".join(out)


def render_ap(ap_rows) -> str:
    """Part 2: every AP row (sorted by query id, then level, as strings)."""
    out = ["AP COMPUTATION DEBUG INFO BEGINS:\n"]
    for row in sorted(ap_rows, key=lambda row: (row.query_full_id, row.level)):
        ranking = row.ranking
        ground_truth = "" if ranking.ground_truth is None else str(ranking.ground_truth)
        ecs = "".join(f"\n  {ec}" for ec in sorted(ranking.ecs))
        out.append(f"{RULE}"
                   f"QUERY_ID:         {row.query_full_id}\n"
                   f"LEVEL:            {row.level}\n"
                   f"AP:               {row.ap:0.4f}\n"
                   f"NUM_GROUND_TRUTH: {ground_truth}\n"
                   f"GROUND TRUTH:\n{ecs[1:]}\n"
                   "RANKING:\n........\nRANK NODEID CONFIDENCE MAPPED_EC V\n")
        for rank, entry in enumerate(ranking.ordered(), 1):
            out.append(f"{rank} {entry.nodeid} {entry.confidence:0.4f} {entry.ec or '-'} "
                       f"{entry.v:0.4f}\n")
    out.append("AP COMPUTATION DEBUG INFO ENDS\n")
    return "".join(out)
