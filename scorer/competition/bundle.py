"""A Codabench competition bundle (``competition.yaml`` version 2) that runs
``scorer.competition`` as its scoring program.

The program finds ``scorer`` inside the bundle: ``scoring_program/`` holds a
copy of the package's sources and ``score.py``, which puts its own folder
first on ``sys.path``.  So the bundle needs only a Python >= 3.9 image with
numpy, pandas, scipy and pyyaml (``DOCKER_IMAGE`` by default).
"""
from __future__ import annotations

import dataclasses
import io
import os
import struct
import zipfile
import zlib

import yaml

from scorer import tasks
from scorer.competition import layout, submissions
from scorer.version import __version__

#: Codabench's legacy image for Python 3.9: numpy, pandas, scipy and pyyaml installed.
DOCKER_IMAGE = "codalab/codalab-legacy:py39"
#: Codabench turns $program $input $output into /app/program /app/input /app/output;
#: CodaLab substitutes its own folders.
COMMAND = "python3 $program/score.py $input $output"

LAUNCHER = '''"""The scoring program: python3 score.py INPUT OUTPUT (INPUT/ref, INPUT/res).

Runs the copy of scorer beside this file (made by python -m scorer.competition
-bundle), whatever else the image has installed.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scorer.competition.__main__ import run_and_exit  # noqa: E402

run_and_exit(sys.argv[1:])
'''

# Zip entries get one fixed time, so the same inputs make the same bundle.
_EPOCH = (1980, 1, 1, 0, 0, 0)


@dataclasses.dataclass(frozen=True)
class BundleOptions:
    title: str
    start: str                    # the phase's start, YYYY-MM-DD
    docker_image: str = DOCKER_IMAGE
    max_size: int = 1 << 30


def package_sources() -> dict:
    """``{path inside scoring_program/: source path}``: every .py of scorer."""
    # The package's folder: the one above this file's (scorer/competition/).
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = {}
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, os.path.dirname(root))
                found["/".join(relative.split(os.sep))] = path
    return found


def competition_yaml(policy, keys: tuple, options: BundleOptions) -> str:
    task = tasks.get(policy.task)
    data = {
        "version": 2,
        "title": options.title,
        "description": f"Scored by scorer {__version__} ({policy.task}); "
                       f"see the pages Overview and Metrics.",
        "image": "logo.png",
        "docker_image": options.docker_image,
        "enable_detailed_results": True,
        "show_detailed_results_in_submission_panel": True,
        "terms": "pages/terms.md",
        "pages": [{"title": "Overview", "file": "pages/overview.md"},
                  {"title": "Metrics", "file": "pages/metrics.md"},
                  {"title": "Terms", "file": "pages/terms.md"}],
        "tasks": [{"index": 0, "name": options.title, "description": f"{policy.task} scoring",
                   "scoring_program": "scoring_program",
                   "reference_data": "reference_data"}],
        "phases": [{"index": 0, "name": "Evaluation", "description": "Submit one file "
                    "(or one .zip holding it).", "start": options.start, "tasks": [0]}],
        "leaderboards": [{"index": 0, "title": "Results", "key": "main",
                          "submission_rule": "Force_Last",
                          "columns": [{"title": submissions.column_title(key, task), "key": key,
                                       "index": i, "sorting": "desc", "precision": 4}
                                      for i, key in enumerate(keys)]}],
    }
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def logo_png(size: int = 96) -> bytes:
    """Codabench wants a competition image: three bars, drawn as a PNG by hand
    (no plotting library needed to make a bundle)."""
    bars = ((0.15, 0.35, 0.55), (0.40, 0.60, 0.80), (0.65, 0.85, 0.35))
    rows = []
    for y in range(size):
        row = bytearray(b"\x00")                       # PNG filter type: none
        for x in range(size):
            colour = (255, 255, 255)
            for left, right, height in bars:
                if left * size <= x < (left + 0.2) * size and y >= (1 - height) * size:
                    colour = (33, 113, 181) if right > 0.5 else (107, 174, 214)
            row += bytes(colour)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def metadata_yaml() -> str:
    return ("# Codabench runs this as python3 /app/program/score.py /app/input /app/output;\n"
            "# CodaLab substitutes its own $program $input $output.\n"
            + yaml.safe_dump({"command": COMMAND,
                              "description": f"scorer {__version__}: python -m "
                                             f"scorer.competition"}, sort_keys=False))


def pages(request, keys: tuple, references: list, switches: dict) -> dict:
    task = tasks.get(request.policy.task)
    explanations = dict(task.scoring.catalogue(request))
    metric_lines = "".join(f"| `{key}` | {submissions.column_title(key, task)} | "
                           f"{explanations.get(key, '')} |\n" for key in keys)
    others = [(name, text) for name, text in explanations.items() if name not in keys]
    what = task.leaderboard.submission_for(request)
    shown = " ".join(f"-{k}" + ("" if v is True else f" {os.path.basename(str(v))}")
                     for k, v in switches.items())
    overview = (
        f"# Overview\n\nSubmit {what}: upload it zipped (the file at the top of the "
        f"archive, or inside one folder).  Nothing else may be in the archive.\n\n"
        f"Submissions are scored by scorer "
        f"{__version__} exactly as\n\n"
        f"    python -m scorer -policy policy.yaml {shown} "
        f"{' '.join(os.path.basename(p) for p in references)} YOUR_FILE\n\n"
        f"would score them.  Before uploading, check your file with the same checks and "
        f"messages (on reference files of your own, a development set say):\n\n"
        f"    python -m scorer.competition -validate YOUR_FILE_OR_ZIP -policy policy.yaml "
        f"{shown} REFERENCE_FILES...\n\n"
        f"A submission with an error fails with a message naming your file, the line and "
        f"the problem; it never reaches the leaderboard.  A scored submission's detailed "
        f"results show each {task.unit}: what "
        f"counted and why, and the whole report set for download.\n")
    metrics = ("# Metrics\n\nThe leaderboard's columns (higher is better):\n\n"
               "| key | column | meaning |\n|---|---|---|\n" + metric_lines)
    if others:
        metrics += ("\nThe reports (in the detailed results) also give:\n\n"
                    + "".join(f"- `{name}`: {text}\n" for name, text in others))
    terms = ("# Terms\n\nBy submitting you agree that your scores are shown on the "
             "leaderboard.  The organizers may replace these terms.\n")
    return {"pages/overview.md": overview, "pages/metrics.md": metrics,
            "pages/terms.md": terms}


def bundle_entries(request, references: list, options: BundleOptions) -> dict:
    """``{path in the bundle: text or source path}``, the whole bundle: every
    submission scored as ``request`` (the reference files and the switches)
    would score it."""
    keys = submissions.leaderboard_keys(request)
    policy = request.policy.replace(leaderboard=keys)
    run_switches = layout.run_switches(request)
    entries = {"competition.yaml": competition_yaml(policy, keys, options), "logo.png": logo_png()}
    entries.update(pages(request, keys, references, run_switches))
    entries["scoring_program/metadata.yaml"] = metadata_yaml()
    entries["scoring_program/score.py"] = LAUNCHER
    for name, path in package_sources().items():
        entries[f"scoring_program/{name}"] = _Source(path)
    for name, value in layout.reference_files(policy, references, run_switches,
                                              options.max_size).items():
        entries[f"reference_data/{name}"] = value if name in layout.RESERVED else _Source(value)
    return entries


@dataclasses.dataclass(frozen=True)
class _Source:
    """A file copied into the bundle as it is."""
    path: str


def zip_bytes(entries: dict) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name in sorted(entries):
            value = entries[name]
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            if isinstance(value, _Source):
                with open(value.path, "rb") as f:
                    data = f.read()
            elif isinstance(value, bytes):
                data = value
            else:
                data = value.encode("utf-8")
            bundle.writestr(info, data)
    return buffer.getvalue()
