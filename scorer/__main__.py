"""``python -m scorer``: the command-line entry point."""
from scorer import quickexit
from scorer.cli import main

quickexit.ending_by_exit_now()
quickexit.exit_now(main())
