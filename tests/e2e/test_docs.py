"""The README and the docs stay honest where that is cheap to check: every
command they show uses switches its command has, every page the README links to
and every repository path a page names exists, the outputs that the
getting-started and organizing pages and the specification's worked example
show are what the commands write (the organizing page's commands are run as they
are), every "spec §N" the code cites is a section of the behaviour specification
(docs/coldstart-spec.md), and nothing cites an issue number or the
specification's old place outside the repository.  (The site itself is built
with warnings as errors by ``make docs``, in CI.)"""
from __future__ import annotations

import os
import re
import shlex

import pytest

from places import MADE_BY_THE_READER, ROOT

DOCS = os.path.join(ROOT, "docs")
SPEC = os.path.join(DOCS, "coldstart-spec.md")


def markdown_files() -> list:
    found = [os.path.join(ROOT, "README.md")]
    for folder, dirs, files in os.walk(DOCS):
        dirs[:] = [d for d in dirs if not d.startswith("_")]
        found += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".md")]
    return found


def code_blocks(text: str) -> list:
    """The lines of every fenced block that is not Python or a directive."""
    lines, inside, keep = [], False, False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            if not inside:
                info = stripped[3:].strip()
                keep = not info or info in ("sh", "bash", "console", "shell", "text")
            inside = not inside
            continue
        if inside and keep:
            lines.append(line)
    return lines


def command_lines(text: str) -> list:
    """Each ``python -m scorer...`` command of the code blocks, continuation
    lines joined, as (module, arguments)."""
    joined, pending = [], ""
    for line in code_blocks(text):
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        joined.append(pending + line)
        pending = ""
    commands = []
    for line in joined:
        match = re.search(r"python3? -m (scorer(?:\.\w+)?)(.*)", line)
        if match:
            rest = match.group(2).replace("|", " ")
            try:
                words = shlex.split(rest, comments=True)
            except ValueError:          # an apostrophe in a trailing comment
                words = rest.split("#")[0].split()
            commands.append((match.group(1), words))
    return commands


def known_switches(module: str) -> set:
    """What the generated reference reads too (docs/_ext/scorer_reference.py), so
    that one place follows the code when a switch table moves."""
    import sys
    pytest.importorskip("docutils", reason="the docs extra is not installed: "
                                           "pip install -e '.[docs]'")
    sys.path.insert(0, os.path.join(DOCS, "_ext"))
    try:
        import scorer_reference
    finally:
        sys.path.pop(0)
    command = "scorer" if module == "scorer" else module.split(".", 1)[1]
    assert command in scorer_reference.COMMANDS, (
        f"a command the docs show and the reference does not know: {module}")
    return scorer_reference.command_switches(command)


def test_every_command_shown_uses_switches_it_has():
    checked = 0
    for path in markdown_files():
        text = open(path, encoding="utf-8").read()
        for module, words in command_lines(text):
            known = known_switches(module)
            for word in words:
                word = word.strip("[]{}(),")
                if re.fullmatch(r"-[A-Za-z]\w*", word):
                    assert word[1:] in known, (
                        f"{os.path.relpath(path, ROOT)}: python -m {module} has no switch "
                        f"{word}")
            checked += 1
    # The README alone shows one example per command.
    assert checked >= 20


def test_readme_is_short_and_its_links_and_make_targets_exist():
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    assert len(text.splitlines()) < 200
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        assert os.path.exists(os.path.join(ROOT, target)), f"README links to {target}"
    makefile = open(os.path.join(ROOT, "Makefile"), encoding="utf-8").read()
    for target in set(re.findall(r"^make (\S+)", text, re.M)) | set(
            re.findall(r"`make (\w[\w-]*)`", text)):
        assert re.search(rf"^{re.escape(target)}:", makefile, re.M), f"no make {target}"


def test_the_policies_page_lists_every_shipped_policy():
    from scorer.policy import shipped_policies
    text = open(os.path.join(DOCS, "policies.md"), encoding="utf-8").read()
    rows = re.findall(r"^\| `([\w-]+)`(?:, `([\w-]+)`)? \| `configs/", text, re.M)
    assert {name for row in rows for name in row if name} == set(shipped_policies())


#: The repository's top folders: a path the docs write from one of them is a path
#: from the project's root.
TOP_FOLDERS = ("scorer", "tests", "bench", "docs", "fixtures", "configs")
#: Folders the docs name that the project writes, not holds.
WRITTEN_FOLDERS = ("docs/_build", "bench/out")


def inner_folders() -> set:
    """The folders of scorer/ and tests/, by name: the architecture and testing
    pages name files from them (``track/build.py``, ``unit/test_policy.py``)."""
    return {name for top in ("scorer", "tests")
            for name in os.listdir(os.path.join(ROOT, top))
            if os.path.isdir(os.path.join(ROOT, top, name)) and not name.startswith("_")}


def named_paths(text: str) -> list:
    """(path, where from) for each repository path a page names: from the root
    when it starts with a top folder (``tests/e2e/test_docs.py``), else from
    scorer/ or tests/ when it is a Python file in one of their folders
    (``track/build.py``).  Placeholders (``<package>``, ``*``) and paths outside
    the project (``../shared``, ``sacrebleu/significance.py``) are left out."""
    found, inner = [], inner_folders()
    for match in re.finditer(r"(?<![\w./~-])([A-Za-z_][\w.-]*(?:/[\w.-]+)+/?)", text):
        path = match.group(1).rstrip(".,:;")
        after = text[match.end():match.end() + 1]
        if after in ("<", "*") or path.startswith(WRITTEN_FOLDERS) \
                or path in MADE_BY_THE_READER:
            continue
        if path.split("/", 1)[0] in TOP_FOLDERS:
            found.append((path, (".",)))
        elif path.endswith(".py") and path.split("/", 1)[0] in inner:
            found.append((path, ("scorer", "tests")))
    return found


def test_every_repository_path_the_docs_name_exists():
    """A page naming a file or folder of the repository that is not there (a test
    file moved, a module renamed) fails here, with the page and the path."""
    missing, checked = [], 0
    for page in markdown_files():
        text = open(page, encoding="utf-8").read()
        for path, bases in named_paths(text):
            checked += 1
            if not any(os.path.exists(os.path.join(ROOT, base, path)) for base in bases):
                missing.append(f"{os.path.relpath(page, ROOT)}: {path}")
    assert not missing, "the docs name paths the repository does not have:\n" + \
        "\n".join(sorted(set(missing)))
    assert checked > 100


def test_the_path_check_sees_a_moved_test_file():
    text = ("see `tests/test_policy.py`, `tests/unit/test_policy.py`, "
            "`track/build.py`, `tests/unit/<package>/test_<module>.py`, "
            "`../shared/tools/gen_fever.py`, `sacrebleu/significance.py` and "
            "https://example.org/a/b.py")
    assert named_paths(text) == [("tests/test_policy.py", (".",)),
                                 ("tests/unit/test_policy.py", (".",)),
                                 ("track/build.py", ("scorer", "tests"))]
    missing = [path for path, bases in named_paths(text)
               if not any(os.path.exists(os.path.join(ROOT, base, path)) for base in bases)]
    assert missing == ["tests/test_policy.py"]


def spec_sections() -> set:
    """The section numbers of the specification, from its labels."""
    text = open(SPEC, encoding="utf-8").read()
    return set(re.findall(r"^\(spec-([0-9.]+)\)=$", text, re.M))


def spec_oddities() -> int:
    """How many items the specification's list of oddities (§7) has."""
    text = open(SPEC, encoding="utf-8").read()
    section = text.split("(spec-7)=", 1)[1].split("(spec-8)=", 1)[0]
    return len(re.findall(r"^(\d+)\. ", section, re.M))


def sources() -> list:
    found = []
    for top in ("scorer", "tests", "bench", "docs"):
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if not d.startswith(("_", "."))]
            found += [os.path.join(folder, f) for f in files
                      if f.endswith((".py", ".md", ".yaml", ".txt", ".html"))]
    return found + [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "Makefile")]


def test_every_spec_citation_names_a_section_of_the_specification():
    sections, oddities = spec_sections(), spec_oddities()
    assert {"0.3", "2.5.3", "4.7.2", "6.6", "7"} <= sections and oddities == 50
    cited = 0
    for path in sources():
        text = open(path, encoding="utf-8", errors="replace").read()
        for match in re.finditer(r"spec (?:decision \d+, )?((?:§[0-9][0-9.]*[0-9](?:, )?)+)",
                                 text):
            for number in re.findall(r"§([0-9][0-9.]*[0-9]|[0-9])", match.group(1)):
                cited += 1
                if number.startswith("7."):
                    assert 1 <= int(number.split(".")[1]) <= oddities, (path, number)
                else:
                    assert number in sections, (
                        f"{os.path.relpath(path, ROOT)} cites spec §{number}, which "
                        f"docs/coldstart-spec.md does not have")
    assert cited > 50


@pytest.mark.parametrize("pattern, what", [
    (r"\bissues?[- ]#?\d+", "an issue number (say the thing itself)"),
    (r"shared/spec", "the specification's old place (it is docs/coldstart-spec.md)"),
])
def test_nothing_cites_an_issue_or_the_old_specification(pattern, what):
    here = os.path.abspath(__file__)
    offenders = []
    for path in sources():
        if os.path.abspath(path) == here:
            continue
        text = open(path, encoding="utf-8", errors="replace").read()
        for number, line in enumerate(text.splitlines(), 1):
            if re.search(pattern, line, re.I):
                offenders.append(f"{os.path.relpath(path, ROOT)}:{number}: {line.strip()}")
    assert not offenders, f"{what}:\n" + "\n".join(offenders)


def test_the_worked_example_is_what_scorer_writes():
    """Appendix C of the specification shows the .sf and .ap of the reference case
    SCORER_TS_SPLIT: they are what scorer writes for it, byte for byte."""
    from places import PARITY
    case = PARITY / "coldstart" / "testsuite" / "SCORER_TS_SPLIT" / "input"
    if not case.is_dir():
        pytest.skip(f"the reference cases are not here ({PARITY})")
    import scorer
    text = open(SPEC, encoding="utf-8").read().split("(spec-appendix-c)=", 1)[1]
    shown = re.findall(r"```\n(.*?)```", text, re.S)[:2]
    run = scorer.score([str(case / name) for name in ("ldc-query.xml", "qrel.txt",
                                                      "submission.tsv")],
                       expand="CSSF17", justifications="1:3")
    assert shown == [run.reports["sf"], run.reports["ap"]]


def test_the_outputs_getting_started_shows_are_what_the_runs_write():
    """Each line of an output that docs/getting-started.md shows ('...' aside) is a
    line of a report of the two runs it makes."""
    import scorer
    demo = os.path.join(ROOT, "fixtures", "coldstart", "demo", "input")
    fever = os.path.join(ROOT, "fixtures", "fever", "blind")
    runs = [scorer.score([os.path.join(demo, name) for name in
                          ("ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt")], expand="CSSF17"),
            scorer.score([os.path.join(fever, "actual.jsonl"),
                          os.path.join(fever, "predictions.jsonl")],
                         policy=os.path.join(ROOT, "configs", "fever.yaml"),
                         bootstrap=1000, seed=7)]
    written = {line for run in runs for text in run.reports.values()
               for line in text.splitlines()}
    text = open(os.path.join(DOCS, "getting-started.md"), encoding="utf-8").read()
    shown = [block for block in re.findall(r"```\n(.*?)```", text, re.S)
             if "python -m" not in block and "make " not in block]
    assert len(shown) >= 4
    for block in shown:
        for line in block.splitlines():
            if line.strip() and line.strip() != "...":
                assert line in written, f"getting-started.md shows a line no run writes: {line!r}"


def run_as_written(script: list, folder) -> "subprocess.CompletedProcess":
    """Shell lines run in order in ``folder``, as a reader would from the root of
    a checkout: ``fixtures`` and ``configs`` there (links), ``python`` this
    interpreter, the project importable."""
    import subprocess
    import sys
    os.symlink(os.path.join(ROOT, "fixtures"), folder / "fixtures")
    os.symlink(os.path.join(ROOT, "configs"), folder / "configs")
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    # (a link would not do: a virtual environment's python finds its packages
    # from the folder it is started in)
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    (bin_dir / "python").chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
               PYTHONPATH=str(ROOT))
    return subprocess.run(["bash", "-euc", "\n".join(script)], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_getting_started_runs_as_written(tmp_path):
    """Its commands, in order, in an empty folder beside the fixtures: each
    succeeds and leaves the reports its table lists."""
    text = open(os.path.join(DOCS, "getting-started.md"), encoding="utf-8").read()
    script = []
    for block in re.findall(r"^```\n(.*?)^```", text, re.S | re.M):
        if "python -m" in block:
            script += block.replace("\\\n", " ").splitlines()
    assert len(script) >= 3
    done = run_as_written(script, tmp_path)
    assert done.returncode == 0, done.stderr
    written = sorted(os.listdir(tmp_path / "out" / "gs"))
    listed = re.findall(r"`(demo\.\w+)`", "\n".join(
        line for line in text.splitlines() if line.startswith("| `")))
    assert len(listed) >= 6
    for name in listed:
        assert name in written, f"getting-started.md names {name}; the runs wrote {written}"


@pytest.mark.slow
def test_the_organizing_walkthrough_runs_and_shows_what_it_writes(tmp_path):
    """docs/organizing.md's commands run as they are, in order, from a copy of the
    checkout's fixtures and configs (``python`` being this interpreter), and each
    line of output it shows is a line of what they printed or wrote (a line ending
    in '...' is the start of one; '...' alone stands for lines left out)."""
    text = open(os.path.join(DOCS, "organizing.md"), encoding="utf-8").read()
    blocks = re.findall(r"^ *```(\w*)\n(.*?)^ *```", text, re.S | re.M)
    commands, shown = [], []
    for info, block in blocks:
        block = "\n".join(line.strip() if info == "latex" else line
                          for line in block.splitlines())
        is_command = re.search(r"^(python -m|mkdir|cp|cd|mv|\. )", block, re.M)
        (commands if is_command and not info else shown).append(block)
    script = []
    for block in commands:
        for line in block.replace("\\\n", " ").splitlines():
            if line.startswith(". .venv/bin/activate"):
                continue                    # python is this interpreter, below
            if line.startswith("python -m scorer.diff"):
                line += " || [ $? -eq 1 ]"  # 1: the runs differ, as diff says
            script.append(line)
    assert len(script) >= 10
    done = run_as_written(script, tmp_path)
    assert done.returncode == 0, done.stderr
    written = set(done.stdout.splitlines())
    for folder, _dirs, files in os.walk(tmp_path / "work"):
        for name in files:
            if name.endswith((".md", ".tex", ".diff", ".txt", ".csv")) or "." not in name:
                with open(os.path.join(folder, name), encoding="utf-8",
                          errors="replace") as handle:
                    written.update(line.strip() for line in handle)
                    handle.seek(0)
                    written.update(handle.read().splitlines())
    assert len(shown) >= 5
    for block in shown:
        for line in block.splitlines():
            if not line.strip() or line.strip() == "...":
                continue
            if line.endswith("..."):
                start = line[:-3].rstrip()
                assert any(w.startswith(start) for w in written), (
                    f"organizing.md shows the start of a line nothing writes: {start!r}")
            else:
                assert line in written, f"organizing.md shows a line nothing writes: {line!r}"


@pytest.mark.slow
def test_the_site_builds_without_a_warning(tmp_path):
    """What ``make docs`` builds, read and cross-referenced without writing the
    pages (Sphinx's dummy builder): a page missing from the contents, a broken
    link, or a docstring role naming something the site does not document is a
    warning, and a warning fails, as it fails ``make docs`` in CI."""
    import importlib.util
    import subprocess
    import sys
    missing = [name for name in ("sphinx", "myst_parser") if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip(f"the docs extra is not installed ({', '.join(missing)}): "
                    f"pip install -e '.[docs]'")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-E", "-W", "--keep-going", "-q",
                           "-b", "dummy", DOCS, str(tmp_path / "site")],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, f"the docs build warns:\n{done.stderr}"
