"""``python -m scorer.samples``: write a bootstrap samples file, seeded.

    python -m scorer.samples -seed 7 -output_file boot.txt 1000 qids.txt

The ids file has ``LDC_ID SF_ID [HOP]`` lines (Cold Start ``qids.txt``) or one
id per line (claim tasks).  The same seed gives the same file on every machine
(numpy's ``default_rng``); the format is that of ``CS-GenerateSamples-MASTER.pl``.
"""
from __future__ import annotations

import os
import sys

from scorer import bootstrap, output
from scorer.limits import has_lone_surrogate, whole_number
from scorer.problems import ERROR_EXIT_STATUS, ScorerError

USAGE = ("Usage: python -m scorer.samples -seed S [-output_file FILE|stdout] NUM_SAMPLES IDS_FILE\n"
         "  -seed S         seed of numpy's default_rng (required; 0 is a seed like any other)\n"
         "  -output_file F  where the samples go (default: stdout)\n"
         "  NUM_SAMPLES     how many samples to draw\n"
         "  IDS_FILE        'LDC_ID SF_ID [HOP]' lines, or one id per line\n")


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    options = {"output_file": "stdout"}
    positional = []
    for argument in argv:
        if has_lone_surrogate(argument):
            shown = os.fsencode(argument).decode("utf-8", "backslashreplace")
            sys.stderr.write(f"ERROR: the argument '{shown}' is not valid UTF-8\n")
            return ERROR_EXIT_STATUS
    i = 0
    while i < len(argv):
        argument = argv[i]
        if argument in ("-h", "-help"):
            sys.stdout.write(USAGE)
            return 0
        if argument in ("-seed", "-output_file"):
            if i + 1 >= len(argv):
                sys.stderr.write(f"ERROR: {argument} needs a value\n\n{USAGE}")
                return ERROR_EXIT_STATUS
            options[argument[1:]] = argv[i + 1]
            i += 2
            continue
        if argument.startswith("-") and len(argument) > 1:
            sys.stderr.write(f"ERROR: Unknown switch: {argument}\n\n{USAGE}")
            return ERROR_EXIT_STATUS
        positional.append(argument)
        i += 1
    try:
        if "seed" not in options:
            raise ScorerError("-seed is required, so that the samples can be drawn again")
        if len(positional) != 2:
            raise ScorerError("expected NUM_SAMPLES and IDS_FILE")
        seed = bootstrap.seed_from_text(options["seed"])
        count = whole_number(positional[0], "NUM_SAMPLES", bootstrap.MAX_SAMPLES)
        output.check_writable(options["output_file"])
        if not output.is_stream(options["output_file"]) and os.path.isdir(options["output_file"]):
            raise ScorerError(f"Could not open {options['output_file']}: it is a directory")
        groups = bootstrap.read_groups(positional[1])
        samples = bootstrap.generate(groups, count, seed)
        if output.is_stream(options["output_file"]):
            output.write_error_log(options["output_file"], samples.text())
        else:
            output.write_text_atomically(options["output_file"], samples.lines())
    except ScorerError as error:
        sys.stderr.write(f"ERROR: {error}\n")
        return error.exit_status
    return 0


if __name__ == "__main__":
    sys.exit(main())
