"""The ``.params`` report: when and how the scorer ran, and with which policy.

Volatile on purpose (time, working directory), so never compared byte for
byte (spec §5.6, decision 7).  It also carries a signature of everything that
decides the numbers, in the style of sacrebleu's.
"""
from __future__ import annotations

import hashlib
import time
from typing import Optional

from scorer.version import PERL_REFERENCE_VERSION, __version__
from scorer import output
from scorer.coldstart.options import options
from scorer.coldstart import validation
from scorer.coldstart.policy import option_text
from scorer.textfile import fingerprint_lines


def selection_digest(selection: Optional[dict]) -> str:
    """A short fingerprint of the SF queries scored and their hop limits."""
    if selection is None:
        return "all"
    text = repr(sorted((sf_id, -1 if limit is None else limit)
                       for sf_id, limit in selection.items()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def signature(request, samples_text: str, selection: Optional[dict] = None) -> str:
    """Every choice that changes a number (not -fields, -tabs or output names):
    the policy (right/wrong/ignore, justifications, discipline), -expand, the
    queries scored with their hop limits (``selection``, given with -queries),
    the run ids asked for, the samples."""
    policy = request.policy
    asked = options(request)
    runids = ":".join(asked.runids) if asked.runids else "all"
    parts = [f"scorer:{__version__}", f"task:{policy.task}",
             f"policy:{policy.digest()}",
             f"justifications:{policy.justifications}", f"discipline:{policy.discipline}",
             f"expand:{asked.expand or 'none'}",
             f"queries:{selection_digest(selection if asked.queries is not None else None)}",
             f"runids:{runids}", validation.signature_part(request),
             f"reference:CS-Score-MASTER.pl-{PERL_REFERENCE_VERSION}",
             f"samples:{samples_text}"]
    return "|".join(parts)


def render(request, samples_text: str = "none", now=None, selection: Optional[dict] = None,
           inputs: tuple = ()) -> str:
    now = time.localtime() if now is None else now
    stamp = time.strftime("%a %b ", now) + f"{now.tm_mday:2d}" + time.strftime(" %H:%M:%S %Y", now)
    lines = [f"#At: {stamp}", "", "#Invoked as:", request.invocation(), ""]
    if request.policy_file:
        lines += ["#Policy file:", f"  {request.policy_file}", ""]
    lines.append("#Policy Selected:")
    policy = request.policy
    for option in ("IGNORE", "RIGHT", "WRONG"):
        lines.append(f"  {option} => {option_text(policy, option)}")
    lines.append(f"  JUSTIFICATIONS => {policy.justifications}")
    lines.append(f"  DISCIPLINE => {policy.discipline}")
    if policy.validate is True:
        docs = request.option("docs")
        lines.append(f"  VALIDATE => each submission file validated as {validation.SIGNATURE} "
                     f"does{f' (-docs {docs})' if docs else ''}; the lines it keeps scored")
    if options(request).kb:
        from scorer.coldstart.kbchain import SIGNATURE as CHAIN
        lines.append(f"  INPUT => KB: each KB through {CHAIN.replace('>', ' > ')} "
                     f"(python -m scorer.coldstart validatekb -output tac, validatequeries "
                     f"-expand, resolvequeries, validatesf); the lines validatesf keeps scored")
    if request.samples or request.bootstrap is not None:
        lines += ["", "SAMPLE => BOOTSTRAP RESAMPLE"]
    if request.samples:
        lines.append(f"  SAMPLES FILE => {request.samples}")
    if request.bootstrap is not None:
        target = ("(the samples are in the output stream)" if output.is_stream(request.output_file)
                  else f"{request.output_file}.bootsamples")
        lines.append(f"  BOOTSTRAP => {request.bootstrap} samples drawn with seed {request.seed}, "
                     f"written to {target}; repeat them with -samples")
    if inputs:
        lines += [""] + fingerprint_lines(inputs)
    lines += ["", "#Signature:", signature(request, samples_text, selection)]
    return "\n".join(lines) + "\n"
