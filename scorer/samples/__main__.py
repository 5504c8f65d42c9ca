"""``python -m scorer.samples``: write a bootstrap samples file, seeded.

    python -m scorer.samples -seed 7 -output_file boot.txt 1000 qids.txt

The ids file has ``LDC_ID SF_ID [HOP]`` lines (Cold Start ``qids.txt``, as
``CS-GenerateSamples-MASTER.pl`` reads it) or one claim id per line (claim
tasks); its first line says which.  The same seed gives the same file on
every machine (numpy's ``default_rng``); the format is that of
``CS-GenerateSamples-MASTER.pl``.
"""
from __future__ import annotations

import sys

from scorer import bootstrap, output, switches
from scorer.limits import whole_number
from scorer.problems import ERROR_EXIT_STATUS, ScorerError
from scorer.samples.ids import read_ids
from scorer.switches import Switch, UsageError

USAGE = ("Usage: python -m scorer.samples -seed S [-output_file FILE|stdout] NUM_SAMPLES IDS_FILE\n"
         "  -seed S         seed of numpy's default_rng (required; 0 is a seed like any other)\n"
         "  -output_file F  where the samples go (default: stdout)\n"
         "  NUM_SAMPLES     how many samples to draw (at least 1)\n"
         "  IDS_FILE        'LDC_ID SF_ID [HOP]' lines (Cold Start), or one claim id per line\n"
         "  -version        the version of scorer\n")

#: The switches of python -m scorer.samples.
SWITCHES = switches.table((Switch("seed"), Switch("output_file"), switches.HELP, switches.H,
                           switches.VERSION))


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        options, positional = switches.parse(argv, SWITCHES, files_needed=False)
    except UsageError as error:
        # A brief mistake (a switch, a value, a name) is shown alone: the usage
        # would scroll it away.
        sys.stderr.write(f"ERROR: {error}\n" if error.brief else f"ERROR: {error}\n\n{USAGE}")
        return ERROR_EXIT_STATUS
    if switches.answered(options, USAGE):
        return 0
    options.setdefault("output_file", "stdout")
    try:
        if "seed" not in options:
            raise ScorerError("-seed is required, so that the samples can be drawn again")
        if len(positional) != 2:
            raise ScorerError("expected NUM_SAMPLES and IDS_FILE")
        seed = bootstrap.seed_from_text(options["seed"])
        count = whole_number(positional[0], "NUM_SAMPLES", bootstrap.MAX_SAMPLES)
        if count < 1:
            # An empty samples file would give intervals of nothing, silently.
            raise ScorerError(f"NUM_SAMPLES must be at least 1, not '{positional[0]}'")
        output.check_writable(options["output_file"])
        if not output.is_stream(options["output_file"]) and \
                output.input_written_over([options["output_file"]], [positional[1]]):
            raise ScorerError(f"-output_file {options['output_file']} would write over the "
                              f"ids file {positional[1]}; choose another name")
        groups = read_ids(positional[1])
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
