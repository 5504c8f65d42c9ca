"""scorer/coldstart/reports/params.py: the ``.params`` report.  Its signature
changes with every choice that changes a number and with nothing else; it
lists every input file with its size and SHA-256; its whole text for a
request built here, at a given time."""
from __future__ import annotations

import hashlib
import time

from scorer.coldstart.reports import params
from scorer.version import PERL_REFERENCE_VERSION, __version__

from coldstart_cases import FILES


def _signature(demo, *switches, output="run") -> str:
    demo.clear()
    argv = ["-expand", "CSSF17", "-output_file", str(demo.out / output), *switches, *FILES]
    assert demo.run_argv(argv).status in (0, 255)
    return (demo.out / f"{output}.params").read_text(encoding="utf-8").splitlines()[-1]


def test_signature_covers_what_changes_a_number_and_nothing_else(demo):
    demo.write("one.txt", "CS17_0001 CSSF17_ENG_47a114c77c\n")
    demo.write("hop0.txt", "CS17_0001 CSSF17_ENG_47a114c77c 0\n")
    base = _signature(demo)
    changed = {"queries": _signature(demo, "-queries", "one.txt"),
               "hop limit": _signature(demo, "-queries", "hop0.txt"),
               "runids": _signature(demo, "-runids", "DEMORUN"),
               "right": _signature(demo, "-right", "CORRECT:INEXACT", "-wrong", "INCORRECT"),
               "justifications": _signature(demo, "-justifications", "1:1"),
               "discipline": _signature(demo, "-discipline", "STRING_EXACT"),
               "samples": _signature(demo, "-bootstrap", "3", "-seed", "1"),
               "seed": _signature(demo, "-bootstrap", "3", "-seed", "2")}
    assert len({base, *changed.values()}) == len(changed) + 1, changed
    for layout in (("-fields", "EC:RUNID:P:R:F"), ("-tabs",)):
        assert _signature(demo, *layout) == base, layout
    assert _signature(demo, output="other") == base


def test_params_lists_every_input_file_with_its_size_and_sha256(demo):
    demo.write("qids-one.txt", "CS17_0001 CSSF17_ENG_47a114c77c\n")
    demo.write("p.yaml", "task: coldstart\n")
    assert demo.run("-queries", "qids-one.txt", "-policy", "p.yaml").status == 0
    text = (demo.out / "run.params").read_text(encoding="utf-8")
    listed = text.split("#Input files:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    names = [*FILES, "qids-one.txt", "p.yaml"]
    assert listed == [f"  {name} => {(demo.inputs / name).stat().st_size} bytes, sha256:"
                      f"{hashlib.sha256((demo.inputs / name).read_bytes()).hexdigest()}"
                      for name in names]


def test_the_whole_params_of_a_request_built_here():
    from scorer.request import build
    request = build(["q.xml", "qrel.txt", "run.tab"], output_file="out/run",
                             bootstrap=5, seed=3, expand="CSSF17", cwd="/here")
    monday = time.struct_time((2017, 6, 5, 9, 3, 7, 0, 156, 0))
    assert params.render(request, "abc|B:5|seed:3", now=monday) == (
        "#At: Mon Jun  5 09:03:07 2017\n\n"
        "#Invoked as:\n"
        "/here$ python -m scorer -expand CSSF17 -bootstrap 5 -seed 3 -output_file out/run "
        "q.xml qrel.txt run.tab\n\n"
        "#Policy Selected:\n"
        "  IGNORE => UNASSESSED:DUPLICATE\n"
        "  RIGHT => CORRECT\n"
        "  WRONG => INCORRECT:INCORRECT_PARENT:INEXACT\n"
        "  JUSTIFICATIONS => 1:3\n"
        "  DISCIPLINE => ASSESSED\n\n"
        "SAMPLE => BOOTSTRAP RESAMPLE\n"
        "  BOOTSTRAP => 5 samples drawn with seed 3, written to out/run.bootsamples; "
        "repeat them with -samples\n\n"
        "#Signature:\n"
        f"scorer:{__version__}|task:coldstart|policy:{request.policy.digest()}|"
        "justifications:1:3|discipline:ASSESSED|expand:CSSF17|queries:all|runids:all|"
        "validate:none|"
        f"reference:CS-Score-MASTER.pl-{PERL_REFERENCE_VERSION}|samples:abc|B:5|seed:3\n")


def test_the_selection_digest_fingerprints_the_queries_and_their_hop_limits():
    selection = {"b": None, "a": 1}
    text = repr([("a", 1), ("b", -1)])
    assert params.selection_digest(selection) == \
        hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    assert params.selection_digest({"a": 1, "b": None}) == params.selection_digest(selection)
    assert params.selection_digest({"a": 0, "b": None}) != params.selection_digest(selection)
    assert params.selection_digest(None) == "all"
