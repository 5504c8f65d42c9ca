"""``python -m scorer.coldstart TOOL [switches] ARGS``: one of the Cold Start
toolkit's tools (``-help`` lists them)."""
from scorer.processenv import prepare_command_line_process

prepare_command_line_process()

import sys  # noqa: E402

from scorer import quickexit  # noqa: E402
from scorer.coldstart.toolkit.command import main  # noqa: E402

quickexit.ending_by_exit_now()
quickexit.exit_now(main(sys.argv[1:]))
