"""TAC KBP Cold Start: the scorer's modules (CS-Score-MASTER.pl 2017.2.0, spec §N in the
code), and the toolkit's tools in front of it.

The tools' functions (``scorer.coldstart.validate_queries`` and the others) are
loaded when first asked for, so that scoring pays nothing for them."""
import importlib

#: The toolkit's API: function name -> the module of its tool.
_TOOL_FUNCTIONS = {
    "validate_queries": "scorer.coldstart.toolkit.validatequeries",
    "generate_queries": "scorer.coldstart.toolkit.generatequeries",
    "validate_sf": "scorer.coldstart.toolkit.validatesf",
    "validate_qrel": "scorer.coldstart.toolkit.validateqrel",
    "validate_kb": "scorer.coldstart.toolkit.validatekb",
    "package_output": "scorer.coldstart.toolkit.packageoutput",
    "resolve_queries": "scorer.coldstart.toolkit.resolvequeries",
}


def __getattr__(name):
    module = _TOOL_FUNCTIONS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__():
    return sorted(list(globals()) + list(_TOOL_FUNCTIONS))
