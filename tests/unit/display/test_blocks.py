"""scorer.display.blocks' fast paths give what the plain definitions give:
``esc`` is ``html.escape(text, quote=True)``, a lazy table's float column is
encoded as each value's own ``round(value * 10**digits)``, and a numpy truth
value is no number whether or not numpy was loaded first."""
from __future__ import annotations

import html
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from scorer.display import blocks


@given(st.text())
def test_esc_is_html_escape(text):
    assert blocks.esc(text) == html.escape(text, quote=True)


def plain_encoding(values, digits: int) -> str:
    scale = 10 ** digits
    return ",".join("" if v is None or v != v else str(int(round(float(v) * scale)))
                    for v in values)


@given(st.lists(st.one_of(st.floats(allow_infinity=False, min_value=-1e12, max_value=1e12),
                          st.sampled_from([0.0, -0.0, 0.5, 1.5, 2.5, -0.5, 0.00005]))),
       st.integers(0, 6))
def test_float_columns_encode_as_each_value_alone(values, digits):
    assert blocks.encode_column(values, digits) == plain_encoding(values, digits)


@given(st.lists(st.one_of(st.none(), st.floats(min_value=-1e12, max_value=1e12),
                          st.just(float("nan")), st.integers(-9, 9))),
       st.integers(0, 4))
def test_mixed_columns_encode_as_each_value_alone(values, digits):
    assert blocks.encode_column(values, digits) == plain_encoding(values, digits)


def test_a_numpy_truth_value_is_no_number():
    script = ("from scorer.display import blocks; import sys; loaded = 'numpy' in sys.modules; "
              "import numpy; print(loaded, blocks.is_number(numpy.bool_(True)), "
              "blocks.is_number(numpy.float64(0.5)), blocks.is_number(True), "
              "blocks.is_number(3))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "True", "False", "True"]
