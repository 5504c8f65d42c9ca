"""scorer/samples/ids.py: the ids file of ``python -m scorer.samples``: its
groups (LDC query -> SF queries, or one claim a group) and each refusal,
naming the file and line, through the command (which then writes nothing)."""
from __future__ import annotations

import pytest

from scorer import bootstrap
from scorer.samples.__main__ import main as samples_main
from scorer.samples.ids import read_ids

QIDS = ("CS17_0001 CSSF17_ENG_47a114c77c\nCS17_0001 CSSF17_ENG_d8c8ecef3e 1\n"
        "CS17_0002 CSSF17_ENG_3f0bc7c062 0\n")
_FORMAT = "'LDC_ID SF_ID [HOP]' lines (Cold Start) or one claim id per line"


@pytest.mark.parametrize("text, message", [
    ("", "ids.txt: no ids; expected " + _FORMAT),
    ("\n  \n\n", "ids.txt: no ids; expected " + _FORMAT),
    # other inputs given by mistake: the query XML, a qrel, a gold JSONL
    ('<?xml version="1.0" encoding="UTF-8"?>\n<query_set>\n',
     "ids.txt line 1: '<?xml' is not an LDC query id (PREFIX_<digits>); "
     "expected 'LDC_ID SF_ID [HOP]'"),
    ('<query_set>\n  <query id="CS17_0001">\n',
     "ids.txt line 2: 2 columns, but line 1 gives one claim id per line; expected " + _FORMAT),
    ("CSSF17_ENG_47a114c77c_3bd3d11d8ec2_007:CSSF17_ENG_47a114c77c_3bd3d11d8ec2:per:x "
     "CSSF17_ENG_47a114c77c_3bd3d11d8ec2 per:x C C ENG_DF:1-5 A ENG_DF:1-5 C 1\n",
     "ids.txt line 1: 10 columns; expected " + _FORMAT),
    ('{"id":1,"claim":"x"}\n',
     "ids.txt line 1: '{\"id\":1,\"claim\":\"x\"}' is not a claim id (it holds ':' or ','); "
     "expected " + _FORMAT),
    # Cold Start lines
    ("CSSF17_ENG_47a114c77c CS17_0001\n",
     "ids.txt line 1: 'CSSF17_ENG_47a114c77c' is not an LDC query id (PREFIX_<digits>); "
     "expected 'LDC_ID SF_ID [HOP]'"),
    ("CS17_0001 CSSF17_ENG_47a114c77c_3bd3d11d8ec2\n",
     "ids.txt line 1: 'CSSF17_ENG_47a114c77c_3bd3d11d8ec2' is not an SF query id "
     "(PREFIX_<10 hex digits>); expected 'LDC_ID SF_ID [HOP]'"),
    ("CS17_0001 CSSF17_ENG_47a114c77c one\n",
     "ids.txt line 1: the hop limit 'one' is not a whole number; expected 'LDC_ID SF_ID [HOP]'"),
    ("CS17_0001 CSSF17_ENG_47a114c77c -1\n",
     "ids.txt line 1: the hop limit '-1' is not a whole number; expected 'LDC_ID SF_ID [HOP]'"),
    ("CS17_0001 CSSF17_ENG_47a114c77c\nCS17_0002\n",
     "ids.txt line 2: 1 column, but line 1 gives 'LDC_ID SF_ID [HOP]'; expected " + _FORMAT),
    ("CS17_0001 CSSF17_ENG_47a114c77c\nCS17_0002 CSSF17_ENG_47a114c77c\n",
     "ids.txt line 2: CSSF17_ENG_47a114c77c is given for CS17_0002 here and for CS17_0001 on "
     "line 1; each id belongs to one group"),
    # the official FEVER dev gold's ids, all 0: samples of one claim the scorer does not know
    ("0\n0\n0\n", "ids.txt line 2: claim id 0 is on line 1 too; ids that repeat name no "
                  "claim (the scorer then names the claims line1, line2, ...: list those)"),
])
def test_samples_command_refuses_an_ids_file_of_other_lines(tmp_path, monkeypatch, capsys,
                                                            text, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ids.txt").write_text(text)
    assert samples_main(["-seed", "7", "-output_file", "boot.txt", "3", "ids.txt"]) == 255
    assert capsys.readouterr().err == f"ERROR: {message}\n"
    assert not (tmp_path / "boot.txt").exists()


def test_samples_command_reads_query_pairs_with_hop_limits_and_claim_ids(tmp_path,
                                                                         monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "qids.txt").write_text(QIDS + "\nCS17_0001 CSSF17_ENG_47a114c77c\r\n")
    (tmp_path / "claims.txt").write_text("13\n36\n\nline7\n")
    assert samples_main(["-seed", "7", "-output_file", "qboot.txt", "50", "qids.txt"]) == 0
    assert samples_main(["-seed", "7", "-output_file", "cboot.txt", "50", "claims.txt"]) == 0
    groups = {element.group: sorted(element.members) for element in
              bootstrap.read_samples("qboot.txt").elements}
    assert groups == {"CS17_0001": ["CSSF17_ENG_47a114c77c", "CSSF17_ENG_d8c8ecef3e"],
                      "CS17_0002": ["CSSF17_ENG_3f0bc7c062"]}
    claims = bootstrap.read_samples("cboot.txt")
    assert sorted(element.text() for element in claims.elements) == ["13", "36", "line7"]
    assert all(len(draw) == 3 for draw in claims.draws)


def test_groups_in_first_seen_order_repeats_and_blank_lines_skipped(tmp_path):
    path = tmp_path / "qids.txt"
    path.write_text("CS17_0002 CSSF17_ENG_3f0bc7c062\r\n\n" + QIDS)
    assert read_ids(str(path)) == [
        ("CS17_0002", ("CSSF17_ENG_3f0bc7c062",)),
        ("CS17_0001", ("CSSF17_ENG_47a114c77c", "CSSF17_ENG_d8c8ecef3e"))]
    path.write_text("b\r a \n\nline3\n")
    assert read_ids(str(path)) == [("b", ("b",)), ("a", ("a",)), ("line3", ("line3",))]
