"""A bundle of several phases (scorer/competition/phases.py), for Codabench
(``competition.yaml`` version 2) or CodaLab Competitions (version 1).

Every phase is scored by the one scoring program, each against its own
reference data: ``reference_data_<PHASE>/`` (Codabench: one task per phase)
or ``reference_data_<PHASE>.zip`` (CodaLab, which takes zips only), each
with its ``scoring.yaml`` naming the phase and what a participant sees of a
scored submission there.

The fields written are those the platforms document: Codabench's "Yaml
Structure" page (competition, pages, tasks, phases, leaderboards and
columns) and CodaLab's "Competition YAML definition language" (competition,
html, phases by number, leaderboard); tests/unit/competition/test_phasebundle.py
holds both schemas and checks every field's name and type.
"""
from __future__ import annotations

import html
import os
import re

import yaml

from scorer import tasks
from scorer.competition import bundle, layout, phases as phase_module, submissions
from scorer.version import __version__

#: The leaderboard's rule for a participant's submissions, by the policy's
#: ``ranked_submission``: Codabench's submission_rule, CodaLab's
#: force_best_submission_to_leaderboard.
SUBMISSION_RULE = {"last": "Force_Last", "best": "Force_Best", "all": "Force_Latest_Multiple"}


class _Dumper(yaml.SafeDumper):
    """Every value written out where it stands (no &anchors, *aliases): a
    phase's end and the next one's start are the same moment, each written."""

    def ignore_aliases(self, data) -> bool:
        return True


def _dump(data: dict) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True)


def reference_folder(phase) -> str:
    return f"reference_data_{phase.name}"


def _phase_entries(request, phase, options) -> dict:
    """``{name in the phase's reference data: text or source}``."""
    keys = submissions.leaderboard_keys(request)
    policy = request.policy.replace(leaderboard=keys)
    found = {}
    for name, value in layout.reference_files(policy, list(phase.references),
                                              layout.run_switches(request), options.max_size,
                                              phase.summary()).items():
        found[name] = value if name in layout.RESERVED else bundle._Source(value)
    return found


def _program_entries() -> dict:
    entries = {"metadata.yaml": bundle.metadata_yaml(), "score.py": bundle.LAUNCHER}
    for name, path in bundle.package_sources().items():
        entries[name] = bundle._Source(path)
    return entries


def phases_page(phase_list) -> str:
    lines = ["# Phases\n\n",
             "| phase | from (UTC) | to (UTC) | submissions | scores | you see |\n",
             "|---|---|---|---|---|---|\n"]
    seen = {phase_module.DETAILS: "the scores and the detailed results",
            phase_module.SCORES: "the scores",
            phase_module.RECEIPT: "that it was scored and valid"}
    for phase in phase_list:
        limit = []
        if phase.max_submissions:
            limit.append(f"{phase.max_submissions} in all")
        if phase.max_per_day:
            limit.append(f"{phase.max_per_day} a day")
        lines.append(f"| {phase.name} | {phase_module.written(phase.start)} | "
                     f"{phase_module.written(phase.end) if phase.end else 'open'} | "
                     f"{', '.join(limit) or 'as the platform allows'} | {phase.scores} | "
                     f"{seen[phase.shows]} |\n")
    lines.append(f"\nEach phase is scored against its own reference data "
                 f"({', '.join(sorted({' + '.join(_names(p)) for p in phase_list}))}), by the "
                 f"same scoring program (scorer {__version__}).  Where the scores are hidden, "
                 f"the leaderboard's ranking is published when the phase ends.\n")
    return "".join(lines)


def _names(phase) -> list:
    return [os.path.basename(path) for path in phase.references]


def codabench_yaml(policy, keys: tuple, options, phase_list, ranked: str) -> str:
    task = tasks.get(policy.task)
    data = {
        "version": 2,
        "title": options.title,
        "description": f"Scored by scorer {__version__} ({policy.task}), in "
                       f"{len(phase_list)} phases: {', '.join(p.name for p in phase_list)}; "
                       f"see the pages Overview, Phases and Metrics.",
        "image": "logo.png",
        "docker_image": options.docker_image,
        "enable_detailed_results": True,
        "show_detailed_results_in_submission_panel": True,
        "terms": "pages/terms.md",
        "pages": [{"title": "Overview", "file": "pages/overview.md"},
                  {"title": "Phases", "file": "pages/phases.md"},
                  {"title": "Metrics", "file": "pages/metrics.md"},
                  {"title": "Terms", "file": "pages/terms.md"}],
        "tasks": [{"index": i, "name": f"{options.title}: {phase.name}"[:256],
                   "description": f"{policy.task} scoring, phase {phase.name}",
                   "scoring_program": "scoring_program",
                   "reference_data": reference_folder(phase)}
                  for i, phase in enumerate(phase_list)],
        "phases": [],
        "leaderboards": [{"index": 0, "title": "Results", "key": "main",
                          "submission_rule": SUBMISSION_RULE[ranked],
                          "columns": [{"title": submissions.column_title(key, task), "key": key,
                                       "index": i, "sorting": "desc", "precision": 4}
                                      for i, key in enumerate(keys)]}],
    }
    for i, phase in enumerate(phase_list):
        entry = {"index": i, "name": phase.name,
                 "description": phase_module.default_description(phase),
                 "start": phase.start}
        if phase.end is not None:
            entry["end"] = phase.end
        entry["tasks"] = [i]
        if phase.max_submissions:
            entry["max_submissions"] = phase.max_submissions
        if phase.max_per_day:
            entry["max_submissions_per_day"] = phase.max_per_day
        hidden = phase.scores == phase_module.HIDDEN
        entry.update({"auto_migrate_to_this_phase": False, "hide_output": hidden,
                      "hide_prediction_output": hidden, "hide_score_output": hidden})
        data["phases"].append(entry)
    return _dump(data)


def codalab_yaml(policy, keys: tuple, options, phase_list, ranked: str) -> str:
    task = tasks.get(policy.task)
    board = {"label": "Results", "rank": 1}
    last_end = phase_list[-1].end
    data = {
        "title": options.title,
        "description": f"Scored by scorer {__version__} ({policy.task}), in "
                       f"{len(phase_list)} phases: {', '.join(p.name for p in phase_list)}.",
        "image": "logo.png",
        "has_registration": False,
        "force_submission_to_leaderboard": True,
        "disallow_leaderboard_modifying": True,
        "enable_detailed_results": True,
        "competition_docker_image": options.docker_image,
        "end_date": last_end,
        "html": {"overview": "overview.html", "evaluation": "evaluation.html",
                 "terms": "terms_and_conditions.html", "data": "data.html"},
        "phases": {},
        "leaderboard": {
            "leaderboards": {"Results": board},
            "columns": {key: {"leaderboard": board, "label": submissions.column_title(key, task),
                              "numeric_format": 4, "rank": i + 1, "sort": "desc"}
                        for i, key in enumerate(keys)},
        },
    }
    for number, phase in enumerate(phase_list, 1):
        entry = {"phasenumber": number, "label": phase.name,
                 "description": phase_module.default_description(phase),
                 "start_date": phase.start,
                 "is_scoring_only": True,
                 "scoring_program": "scoring_program.zip",
                 "reference_data": f"{reference_folder(phase)}.zip",
                 "leaderboard_management_mode":
                     "hide_results" if phase.scores == phase_module.HIDDEN else "default",
                 "auto_migration": False,
                 "force_best_submission_to_leaderboard": ranked == "best"}
        if phase.max_submissions:
            entry["max_submissions"] = phase.max_submissions
        if phase.max_per_day:
            entry["max_submissions_per_day"] = phase.max_per_day
        data["phases"][number] = entry
    return _dump(data)


def entries(requests: list, phase_list: list, options, fmt: str, ranked: str) -> dict:
    """``{path in the bundle: text, bytes or source}``: every phase ``i``
    scored as ``requests[i]`` would score it."""
    first = requests[0]
    keys = submissions.leaderboard_keys(first)
    policy = first.policy.replace(leaderboard=keys)
    texts = bundle.pages(first, keys, list(phase_list[0].references),
                         layout.run_switches(first))
    texts["pages/phases.md"] = phases_page(phase_list)
    found: dict = {"logo.png": bundle.logo_png()}
    program = _program_entries()
    if fmt == "codabench":
        found["competition.yaml"] = codabench_yaml(policy, keys, options, phase_list, ranked)
        found.update(texts)
        for name, value in program.items():
            found[f"scoring_program/{name}"] = value
        for request, phase in zip(requests, phase_list):
            for name, value in _phase_entries(request, phase, options).items():
                found[f"{reference_folder(phase)}/{name}"] = value
        return found
    found["competition.yaml"] = codalab_yaml(policy, keys, options, phase_list, ranked)
    for page, source in (("overview.html", "pages/overview.md"),
                         ("evaluation.html", "pages/metrics.md"),
                         ("terms_and_conditions.html", "pages/terms.md"),
                         ("data.html", "pages/phases.md")):
        found[page] = markdown_html(texts[source])
    # CodaLab reads a program's command from 'metadata' (no extension).
    program["metadata"] = program["metadata.yaml"]
    found["scoring_program.zip"] = bundle.zip_bytes(program)
    for request, phase in zip(requests, phase_list):
        found[f"{reference_folder(phase)}.zip"] = bundle.zip_bytes(
            _phase_entries(request, phase, options))
    return found


def markdown_html(text: str) -> str:
    """The pages' own Markdown (headings, paragraphs, indented code, lists,
    tables, `code`) as the HTML CodaLab's pages take."""
    out, paragraph, code, table, items = [], [], [], [], []

    def inline(line: str) -> str:
        return re.sub(r"`([^`]*)`", lambda m: f"<code>{m.group(1)}</code>", html.escape(line))

    def flush():
        if paragraph:
            out.append("<p>" + " ".join(inline(line) for line in paragraph) + "</p>")
            paragraph.clear()
        if code:
            out.append("<pre>" + html.escape("\n".join(code)) + "</pre>")
            code.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{inline(item)}</li>" for item in items) + "</ul>")
            items.clear()
        if table:
            rows = [row for row in table if not re.fullmatch(r"\|(-+\|)+", row)]
            cells = [[c.strip() for c in row.strip("|").split("|")] for row in rows]
            head = "".join(f"<th>{inline(c)}</th>" for c in cells[0])
            body = "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>"
                           for row in cells[1:])
            out.append(f"<table><tr>{head}</tr>{body}</table>")
            table.clear()

    for line in text.split("\n"):
        if line.startswith("    "):
            if not code:
                flush()
            code.append(line[4:])
            continue
        if code:
            flush()
        if not line.strip():
            flush()
        elif line.startswith("#"):
            flush()
            level = len(line) - len(line.lstrip("#"))
            out.append(f"<h{level}>{inline(line.lstrip('#').strip())}</h{level}>")
        elif line.startswith("|"):
            table.append(line.strip())
        elif line.startswith("- "):
            items.append(line[2:])
        else:
            paragraph.append(line.strip())
    flush()
    return "\n".join(out) + "\n"
