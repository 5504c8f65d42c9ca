"""Command-line process settings (scorer/processenv.py): the C allocator
keeps the large blocks a bootstrap frees, in command-line processes only."""
from __future__ import annotations

import ctypes
import subprocess
import sys

import pytest

#: How much of a 64 MB array glibc serves by mmap (mallinfo2's hblkhd), in a
#: process that is a command line or not.
PROBE = """
import ctypes, sys
import numpy as np
from scorer import processenv
if sys.argv[1] == "command-line":
    processenv.prepare_command_line_process()
processenv.keep_freed_memory()
class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
        "uordblks", "fordblks", "keepcost")]
mallinfo2 = ctypes.CDLL(None).mallinfo2
mallinfo2.restype = MallInfo2
block = np.ones(8_000_000)
mapped, heap = mallinfo2().hblkhd, mallinfo2().arena
del block
print(mapped >= 64_000_000, heap >= 64_000_000, mallinfo2().arena >= 64_000_000)
"""


def _has_mallinfo2() -> bool:
    try:
        ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return False
    return True


@pytest.mark.slow
@pytest.mark.skipif(not _has_mallinfo2(), reason="needs glibc 2.33 or later (mallinfo2)")
@pytest.mark.parametrize("process, expected", [
    # from the heap, and kept in it once freed
    ("command-line", "False True True"),
    # a program importing scorer: glibc's own settings (mapped, unmapped when freed)
    ("library", "True False False"),
])
def test_large_blocks_are_kept_in_command_line_processes_only(process, expected):
    result = subprocess.run([sys.executable, "-c", PROBE, process], capture_output=True,
                            text=True, check=True)
    assert result.stdout.split() == expected.split()
