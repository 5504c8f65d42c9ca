"""Sphinx configuration: Markdown pages (MyST), the API from the docstrings
(autodoc), and the reference generated from the code (_ext/scorer_reference.py).

Built by ``make docs`` with warnings as errors."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "_ext"))
sys.path.insert(0, os.path.dirname(HERE))

from scorer.version import __version__  # noqa: E402

project = "scorer"
author = "the scorer authors"
copyright = "the scorer authors"
release = version = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "scorer_reference",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store"]

# Markdown: headings get anchors to link to (page.md#a-heading), definition
# lists and ::: fences are available.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]

# Every cross-reference must resolve: a :func: to a name that is not
# documented is a warning, and the build treats warnings as errors.
nitpicky = True
# Types in signatures name the standard library and pandas, which this site
# does not document; signatures show them as written.
autodoc_typehints = "none"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False}
add_module_names = True

html_theme = "alabaster"
html_title = f"scorer {release}"
html_theme_options = {
    "description": "Scoring for NLP shared tasks: TAC KBP Cold Start, SciFact, FEVER",
    "fixed_sidebar": True,
    "page_width": "1100px",
    "sidebar_width": "240px",
}
html_sidebars = {"**": ["about.html", "navigation.html", "relations.html", "searchbox.html"]}
html_show_sourcelink = False
html_static_path = ["_static"]
