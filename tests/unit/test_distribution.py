"""The package index's checks of a release's metadata (tests/helpers/distribution.py),
on archives made here: each mistake an index refuses or shows wrongly is named
(tests/e2e/test_wheel.py checks the real sdist and wheel)."""
from __future__ import annotations

import io
import tarfile
import zipfile

import pytest

import distribution
from places import ROOT

pytest.importorskip("trove_classifiers", reason="the test extra is not installed "
                                                "(pip install -e '.[test,docs]')")
pytest.importorskip("markdown_it", reason="the docs extra is not installed "
                                          "(pip install -e '.[test,docs]')")

README = (ROOT / "README.md").read_text(encoding="utf-8")


def fields(**changed) -> dict:
    good = {"Metadata-Version": "2.4", "Name": distribution.NAME,
            "Version": distribution.version(), "Summary": "Scoring for NLP shared tasks",
            "License-Expression": "MIT", "Requires-Python": ">=%d.%d" % distribution.oldest_python(),
            "Description-Content-Type": "text/markdown",
            "Classifier": ["Programming Language :: Python :: 3",
                           "Programming Language :: Python :: %d.%d"
                           % distribution.oldest_python()]}
    good.update(changed)
    return {key: value for key, value in good.items() if value is not None}


def metadata_text(values: dict, description: str = README) -> str:
    lines = []
    for key, value in values.items():
        lines += [f"{key}: {item}" for item in (value if isinstance(value, list) else [value])]
    return "\n".join(lines) + "\n\n" + description


def wheel(tmp_path, values: dict, description: str = README):
    path = tmp_path / "sharedtask_scorer-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("sharedtask_scorer-0.1.0.dist-info/METADATA",
                         metadata_text(values, description))
    return path


def sdist(tmp_path, values: dict):
    path = tmp_path / "sharedtask_scorer-0.1.0.tar.gz"
    data = metadata_text(values).encode("utf-8")
    with tarfile.open(path, "w:gz") as archive:
        member = tarfile.TarInfo("sharedtask_scorer-0.1.0/PKG-INFO")
        member.size = len(data)
        archive.addfile(member, io.BytesIO(data))
    return path


def test_good_metadata_passes_in_a_wheel_and_an_sdist(tmp_path):
    assert distribution.problems_of(wheel(tmp_path, fields())) == []
    assert distribution.problems_of(sdist(tmp_path, fields())) == []


@pytest.mark.parametrize("changed, problem", [
    (dict(Name="scorer"), f"Name is scorer, not {distribution.NAME}"),
    (dict(Version="9.9"), "Version is 9.9, scorer/version.py's"),
    (dict(Summary="x" * 513), "the Summary must be one line of at most 512 characters"),
    (dict(**{"License-Expression": None}), "no License-Expression"),
    (dict(**{"Description-Content-Type": "text/x-rst"}),
     "the long description is not said to be Markdown"),
    (dict(Classifier=["Programming Language :: Python :: 3.11", "Topic :: Scoring"]),
     "not a classifier of the package index: Topic :: Scoring"),
    (dict(**{"Requires-Python": ">=3.9"}), "Requires-Python is >=3.9"),
    (dict(Classifier=["Programming Language :: Python :: 3.9",
                      "Programming Language :: Python :: 3.11"]),
     "the oldest Python the classifiers name is not python_requires'"),
])
def test_each_mistake_is_named(tmp_path, changed, problem):
    problems = distribution.problems_of(wheel(tmp_path, fields(**changed)))
    assert any(line.startswith(problem) for line in problems), problems


def test_the_long_description_must_be_the_readme_and_render(tmp_path):
    assert distribution.problems_of(wheel(tmp_path, fields(), "# Another text\n")) == \
        ["the long description is not the README"]
    assert distribution.rendering_problems("text first\n\n# scorer\n") == \
        ["the long description does not start with a heading"]
    assert distribution.rendering_problems("# t\n\n| a | b |\n|---|---|\n| 1 | 2 |\n") == []
    # a header row indented four spaces is code: the table shows as text
    assert distribution.rendering_problems("# t\n\n    | a | b |\n|---|---|\n") == \
        ["1 tables in the README, 0 rendered"]
