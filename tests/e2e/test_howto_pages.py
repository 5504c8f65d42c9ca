"""docs/adding-a-task.md and docs/adding-a-metric.md followed as written: the
task module the first page shows is saved where it says, in a copy of the
package, with its policy and example files; the commands it shows are run;
then the second page's replacements are made in that module.  Each time the
task and its metrics must show where the pages say: the report, -help, the
reference page, a track's tables, the leaderboard program's bundle and
check, and the diff."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile

import pytest

from places import MADE_BY_THE_READER, ROOT

DOCS = ROOT / "docs"


def fenced(page: str) -> list:
    """(info, text) of each fenced block of a page, in order."""
    text = (DOCS / page).read_text(encoding="utf-8")
    return re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)


def named_before(page: str, kind: str) -> list:
    """For each ``kind`` block, the last file name (``name.ext``, in backticks)
    the page gives before it: where the page says to save it."""
    text = (DOCS / page).read_text(encoding="utf-8")
    found = []
    for match in re.finditer(rf"^```{kind}\n", text, re.M):
        names = re.findall(r"`([\w./-]+\.\w+)`", text[:match.start()])
        found.append(names[-1])
    return found


def prose_commands(page: str, start: str) -> list:
    """The commands the page's prose gives in backticks, starting ``start``."""
    text = (DOCS / page).read_text(encoding="utf-8").replace("\n", " ")
    return [command for command in re.findall(r"`(python -m scorer[^`]*)`", text)
            if command.startswith(start)]


class Checkout:
    """A copy of the package and a working folder, with the commands run
    against the copy."""

    def __init__(self, root):
        self.root = root
        shutil.copytree(ROOT / "scorer", root / "pkg" / "scorer",
                        ignore=shutil.ignore_patterns("__pycache__"))
        (root / "out").mkdir()

    def save(self, name: str, text: str) -> None:
        path = self.root / (f"pkg/{name}" if name.startswith("scorer/") else name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def run(self, command: str, status: int = 0) -> str:
        words = shlex.split(command)
        assert words[:2] == ["python", "-m"], command
        done = subprocess.run([sys.executable, *words[1:]], capture_output=True, text=True,
                              cwd=self.root, env=dict(os.environ, PYTHONPATH=str(
                                  self.root / "pkg")))
        assert done.returncode == status, f"{command}\n{done.stderr}"
        return done.stdout

    def reference_page(self) -> str:
        """What docs/reference.md's metric tables are made of, from the copy."""
        script = ("import sys; sys.path.insert(0, sys.argv[1]); import scorer_reference as r; "
                  "print(r.track_metrics()); print(r.task_records())")
        return subprocess.run([sys.executable, "-c", script, str(DOCS / "_ext")],
                              capture_output=True, text=True, check=True, cwd=self.root,
                              env=dict(os.environ, PYTHONPATH=str(self.root / "pkg"))).stdout


def score_as_the_page_says(checkout, page: str) -> None:
    """The page's command block run; its .summary shown is what it wrote."""
    (command,) = [text.strip() for info, text in fenced(page) if info == ""]
    (summary,) = [text for info, text in fenced(page) if info == "text"]
    checkout.run(command)
    checkout.run(command.replace("run1", "run2"))      # (the run the track and diff name)
    written = (checkout.root / "out" / "run1.summary").read_text(encoding="utf-8")
    assert written == summary


def shows_metrics(checkout, metrics: list, headline: str) -> None:
    """Each metric where the pages say it shows, the headline ranked by."""
    help_text = checkout.run("python -m scorer -help")
    assert "shortanswer metrics (run.json and .summary):" in help_text
    for metric in metrics:
        assert re.search(rf"^  {metric}:  +\S", help_text.split("shortanswer metrics")[1],
                         re.M), metric
        assert f"('{metric}', 'Short answers {metric}')" in checkout.reference_page()
    (track,) = prose_commands("adding-a-task.md", "python -m scorer.track ")
    shutil.rmtree(checkout.root / "out" / "track", ignore_errors=True)
    checkout.run(track)
    csv = (checkout.root / "out" / "track" / "leaderboard.csv").read_text().splitlines()
    assert csv[0].split(",")[9:-1] == [m for m in metrics if m != headline]
    assert csv[1].split(",")[1:3] == ["run2", headline]
    checkout.run("python -m scorer.competition -bundle out/bundle.zip "
                 "-policy configs/shortanswer.yaml gold.jsonl")
    with zipfile.ZipFile(checkout.root / "out" / "bundle.zip") as bundle:
        board_yaml = bundle.read("competition.yaml").decode("utf-8")
    assert re.findall(r"^    key: (\w+)$", board_yaml, re.M) == metrics
    check = checkout.run("python -m scorer.competition -validate run1.jsonl "
                         "-policy configs/shortanswer.yaml gold.jsonl")
    assert [line.split(":")[0] for line in check.splitlines()[1:]] == metrics
    (diff,) = prose_commands("adding-a-task.md", "python -m scorer.diff ")
    assert "  accuracy Score: 0.5000 -> 0.7500" in checkout.run(diff, status=1)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    checkout = Checkout(tmp_path_factory.mktemp("howto"))
    blocks = fenced("adding-a-task.md")
    for kind in ("python", "yaml", "json"):
        texts = [text for info, text in blocks if info == kind]
        for name, text in zip(named_before("adding-a-task.md", kind), texts):
            checkout.save(name, text)
    # The second run the page's track and diff name: the first one's answers, corrected.
    gold = (checkout.root / "gold.jsonl").read_text(encoding="utf-8")
    checkout.save("run2.jsonl", gold.replace("1969", "1970"))
    return checkout


def test_the_task_page_makes_a_task_every_command_knows(checkout):
    made = [name for kind in ("python", "yaml") for name in named_before("adding-a-task.md",
                                                                          kind)]
    assert tuple(made) == MADE_BY_THE_READER
    score_as_the_page_says(checkout, "adding-a-task.md")
    shows_metrics(checkout, ["accuracy"], "accuracy")


def test_the_metric_page_adds_metrics_every_command_shows(checkout):
    module = checkout.root / "pkg" / "scorer" / "tasks" / "shortanswer.py"
    source = module.read_text(encoding="utf-8")
    python = [text for info, text in fenced("adding-a-metric.md") if info == "python"]
    # Pairs: "replace A with B"; then a statement that replaces the one it starts like.
    replaced, by = python[0], python[1]
    assert source.count(replaced) == 1
    source = source.replace(replaced, by)
    statement = python[2]
    start = source.index(statement.split("(")[0] + "(")
    end = source.index("\n    )\n", start) + len("\n    )\n")
    source = source[:start] + statement + source[end:]
    module.write_text(source, encoding="utf-8")
    score_as_the_page_says(checkout, "adding-a-metric.md")
    shows_metrics(checkout, ["accuracy", "precision", "f1"], "accuracy")
