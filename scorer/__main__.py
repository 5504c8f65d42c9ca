"""``python -m scorer``: the command-line entry point."""
from scorer.processenv import prepare_command_line_process

prepare_command_line_process()

from scorer import quickexit  # noqa: E402
from scorer.cli import main  # noqa: E402

quickexit.ending_by_exit_now()
quickexit.exit_now(main())
