"""``python -m scorer``: the command-line entry point."""
import sys

from scorer.cli import main

sys.exit(main())
