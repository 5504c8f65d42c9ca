"""The ``.params`` report: when and how the scorer ran, and with which policy.

Volatile on purpose (time, working directory), so never compared byte for
byte (spec §5.6, decision 7).  It also carries a signature of everything that
decides the numbers, in the style of sacrebleu's.
"""
from __future__ import annotations

import shlex
import time

import scorer
from scorer import output


def signature(request, samples_text: str) -> str:
    policy = request.policy
    parts = [f"scorer:{scorer.__version__}", f"task:{policy.task}",
             f"policy:{policy.digest()}"]
    if policy.task == "coldstart":
        parts += [f"justifications:{policy.justifications}", f"discipline:{policy.discipline}",
                  f"reference:CS-Score-MASTER.pl-{scorer.PERL_REFERENCE_VERSION}"]
    else:
        parts.append(f"max_evidence:{'all' if policy.max_evidence is None else policy.max_evidence}")
    parts.append(f"samples:{samples_text}")
    return "|".join(parts)


def render(request, samples_text: str = "none", now=None) -> str:
    now = time.localtime() if now is None else now
    stamp = time.strftime("%a %b ", now) + f"{now.tm_mday:2d}" + time.strftime(" %H:%M:%S %Y", now)
    arguments = " ".join(shlex.quote(a) for a in request.argv)
    lines = [f"#At: {stamp}", "", "#Invoked as:", f"{request.cwd}$ {request.program} {arguments}",
             ""]
    if request.policy_file:
        lines += ["#Policy file:", f"  {request.policy_file}", ""]
    lines.append("#Policy Selected:")
    policy = request.policy
    if policy.task == "coldstart":
        for option in ("IGNORE", "RIGHT", "WRONG"):
            lines.append(f"  {option} => {policy.option_text(option)}")
        lines.append(f"  JUSTIFICATIONS => {policy.justifications}")
        lines.append(f"  DISCIPLINE => {policy.discipline}")
    else:
        lines.append(f"  TASK => {policy.task}")
        lines.append(f"  MAX_EVIDENCE => {'all' if policy.max_evidence is None else policy.max_evidence}")
    if request.samples or request.bootstrap is not None:
        lines += ["", "SAMPLE => BOOTSTRAP RESAMPLE"]
    if request.samples:
        lines.append(f"  SAMPLES FILE => {request.samples}")
    if request.bootstrap is not None:
        target = ("(the samples are in the output stream)" if output.is_stream(request.output_file)
                  else f"{request.output_file}.bootsamples")
        lines.append(f"  BOOTSTRAP => {request.bootstrap} samples drawn with seed {request.seed}, "
                     f"written to {target}; repeat them with -samples")
    lines += ["", "#Signature:", signature(request, samples_text)]
    return "\n".join(lines) + "\n"
