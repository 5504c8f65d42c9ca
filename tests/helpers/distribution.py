"""The package as a release makes it: the sdist and the wheel built from the
checkout by PyPA's ``build`` (the wheel from the sdist, so that the sdist is
shown to hold what a wheel needs), and the checks a package index makes of
their metadata, made here without twine: the fields it needs, the README as the
long description, which renders, the classifiers on the index's list, and the
Python versions the classifiers name against python_requires.

    python tests/helpers/distribution.py DIR    build both into DIR, check them

(``make dist``); tests/e2e/test_wheel.py uses the same functions.
"""
from __future__ import annotations

import configparser
import email.parser
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The package index's own name of the project (setup.cfg's name).
NAME = "sharedtask-scorer"
#: The longest summary the package index takes (one line).
SUMMARY_MOST = 512


def build(outdir: Path) -> tuple:
    """(the sdist, the wheel) built into ``outdir``; the checkout is left as it
    was found (setuptools writes build/ and the egg-info into it)."""
    leftovers = [ROOT / "build", ROOT / (NAME.replace("-", "_") + ".egg-info")]
    present = {path for path in leftovers if path.exists()}
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(outdir), str(ROOT)],
                          capture_output=True, text=True)
    for path in leftovers:
        if path not in present:
            shutil.rmtree(path, ignore_errors=True)
    if done.returncode != 0:
        raise RuntimeError(f"python -m build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    sdists, wheels = list(Path(outdir).glob("*.tar.gz")), list(Path(outdir).glob("*.whl"))
    if len(sdists) != 1 or len(wheels) != 1:
        raise RuntimeError(f"expected one sdist and one wheel in {outdir}: {sdists + wheels}")
    return sdists[0], wheels[0]


def metadata(path: Path):
    """The core metadata of a wheel (METADATA) or an sdist (PKG-INFO), as a
    message: the fields as headers, the long description as its body."""
    path = Path(path)
    if path.name.endswith(".whl"):
        with zipfile.ZipFile(path) as archive:
            name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
            text = archive.read(name).decode("utf-8")
    else:
        with tarfile.open(path) as archive:
            member = next(m for m in archive.getmembers()
                          if m.name.count("/") == 1 and m.name.endswith("/PKG-INFO"))
            text = archive.extractfile(member).read().decode("utf-8")
    return email.parser.Parser().parsestr(text)


def setup_cfg() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(ROOT / "setup.cfg", encoding="utf-8")
    return parser


def oldest_python() -> tuple:
    """python_requires' floor, as (3, 11)."""
    floor = re.fullmatch(r">=\s*(\d+)\.(\d+)", setup_cfg()["options"]["python_requires"].strip())
    if floor is None:
        raise ValueError("python_requires is not of the form >=3.N")
    return int(floor.group(1)), int(floor.group(2))


def version() -> str:
    found = re.search(r'^__version__ = "([^"]+)"', (ROOT / "scorer" / "version.py").read_text(),
                      re.MULTILINE)
    return found.group(1)


def rendering_problems(description: str) -> list:
    """What keeps the Markdown long description from rendering as the README
    shows it (CommonMark with GitHub's tables, as the package index renders it);
    needs markdown-it-py (the docs extra)."""
    from markdown_it import MarkdownIt
    html = MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(description)
    problems = []
    if not html.startswith("<h1>"):
        problems.append("the long description does not start with a heading")
    tables = sum(1 for line in description.splitlines() if re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", line))
    if html.count("<table>") != tables:
        problems.append(f"{tables} tables in the README, {html.count('<table>')} rendered")
    return problems


def problems_of(path: Path) -> list:
    """What a package index would refuse or show wrongly in the metadata of
    the sdist or the wheel ``path``; empty when nothing."""
    import trove_classifiers
    message = metadata(path)
    problems = []
    for field in ("Metadata-Version", "Name", "Version", "Summary", "Requires-Python",
                  "License-Expression", "Description-Content-Type"):
        if not message.get(field):
            problems.append(f"no {field}")
    if message.get("Name") != NAME:
        problems.append(f"Name is {message.get('Name')}, not {NAME}")
    if message.get("Version") != version():
        problems.append(f"Version is {message.get('Version')}, scorer/version.py's {version()}")
    summary = message.get("Summary", "")
    if "\n" in summary or len(summary) > SUMMARY_MOST:
        problems.append(f"the Summary must be one line of at most {SUMMARY_MOST} characters")
    if not message.get("Description-Content-Type", "").startswith("text/markdown"):
        problems.append("the long description is not said to be Markdown (text/markdown)")
    description = message.get_payload()
    if description.rstrip("\n") != (ROOT / "README.md").read_text(encoding="utf-8").rstrip("\n"):
        problems.append("the long description is not the README")
    else:
        problems += rendering_problems(description)
    classifiers = message.get_all("Classifier") or []
    problems += [f"not a classifier of the package index: {c}" for c in classifiers
                 if c not in trove_classifiers.classifiers]
    floor = oldest_python()
    if message.get("Requires-Python") != f">={floor[0]}.{floor[1]}":
        problems.append(f"Requires-Python is {message.get('Requires-Python')}")
    versions = sorted(tuple(map(int, c.rsplit(" ", 1)[1].split("."))) for c in classifiers
                      if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    if not versions or versions[0] != floor:
        problems.append(f"the oldest Python the classifiers name is not python_requires' "
                        f"{floor[0]}.{floor[1]}: {versions}")
    return problems


def main(argv: list) -> int:
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    outdir = Path(argv[0])
    outdir.mkdir(parents=True, exist_ok=True)
    for old in list(outdir.glob("*.tar.gz")) + list(outdir.glob("*.whl")):
        old.unlink()
    built = build(outdir)
    status = 0
    for path in built:
        problems = problems_of(path)
        for problem in problems:
            print(f"{path.name}: {problem}", file=sys.stderr)
        print(f"{path}: {'refused' if problems else 'metadata checked'}")
        status = status or (1 if problems else 0)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
