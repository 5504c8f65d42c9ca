"""The YAML of a policy file, read into Python values.

PyYAML is the authority, with the policy's two rules (a plain ``1:3`` is text,
not the YAML 1.1 base-60 number 63; a key given twice is refused).  Importing
it costs about as much as scoring 1,000 SciFact claims, and the policies
people write use a small part of YAML, so that part is read here first:

- ``key: value`` at the start of a line, each key once; ``key:`` alone is
  null, or opens a block list of ``- value`` lines, all equally indented;
- values: flow lists ``[a, b]`` of scalars, and scalars: words
  (``NOT ENOUGH INFO``, starting with a letter), whole numbers of up to 18
  digits (no sign, no leading zero), quoted text without escapes; outside
  flow lists also a word with colons inside (``1:3``, ``M:9``: text);
- comments, blank lines, trailing spaces, CRLF line ends; ASCII outside quotes
  and comments.

Anything else (anchors, tags, nested mappings, multi-line scalars, document
markers, ``yes``/``on``/``null`` and other words YAML 1.1 resolves, other
numbers, tabs, non-ASCII text, errors of any kind) goes to PyYAML, so its
values and messages are those of PyYAML.  tests/test_policyfile.py checks
that the two agree on generated documents.
"""
from __future__ import annotations

import re

from scorer.problems import ScorerError

_KEY = r"[A-Za-z_][A-Za-z0-9_]{0,63}"
#: Words YAML 1.1 resolves to something other than text (yes, On, NULL...),
#: in lower case; any spelling of them goes to PyYAML.
_RESOLVED_WORDS = frozenset(("yes", "no", "true", "false", "on", "off", "null"))
_WORDS = r"[A-Za-z][A-Za-z0-9_]*(?: +[A-Za-z0-9_]+)*"
_NUMBER = r"0|[1-9][0-9]{0,17}"
_QUOTED = r'"[^"\\]*"|\'[^\']*\''
_SCALAR = f"(?:{_QUOTED}|{_NUMBER}|{_WORDS})"
#: A plain word with colons inside (``1:3``, ``M:9``): text, by the policy's rule.
_COLON_WORD = r"[A-Za-z0-9_]+(?::[A-Za-z0-9_]+)+"
#: Flow lists hold none (``[a:b]``): YAML 1.1 and 1.2 disagree on them there.
_FLOW = rf"\[ *(?:{_SCALAR} *(?:, *{_SCALAR} *)*)?\]"
_COMMENT = r"(?: +#.*)?"

#: Characters PyYAML reads as themselves (printable; not a tab, a BOM or a
#: line break other than \n); what the subset's lines hold outside quotes and
#: comments is ASCII.
_PLAIN_TEXT = re.compile("[\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
                         "\U00010000-\U0010ffff]*")
#: ``key: value`` (groups 1 and 3) or a list item ``- value`` (groups 2 and 3).
_LINE = re.compile(rf"(?:({_KEY}):|( *)-)(?: +({_FLOW}|{_COLON_WORD}|{_SCALAR}))?{_COMMENT} *")
_FLOW_ITEM = re.compile(rf" *({_SCALAR}) *(?:,|\Z)")
_NUMBER_ONLY = re.compile(_NUMBER)

#: What ``subset_document`` returns for a text outside the subset.
OUTSIDE = object()


class _Outside(Exception):
    pass


def _scalar(token: str):
    if token[0] in "\"'":
        return token[1:-1]
    if ":" in token:
        return token
    if _NUMBER_ONLY.fullmatch(token):
        return int(token)
    if token.lower() in _RESOLVED_WORDS:
        raise _Outside
    return token


def _value(token):
    if token is None:
        return None
    if token[0] == "[":
        return [_scalar(match.group(1)) for match in _FLOW_ITEM.finditer(token[1:-1])]
    return _scalar(token)


def subset_document(text: str):
    """The document's value as PyYAML (with the policy's rules) reads it, when
    the text keeps to the subset above; else ``OUTSIDE``."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return OUTSIDE
    if not _PLAIN_TEXT.fullmatch(text):
        return OUTSIDE
    data = {}
    open_key = None      # the key of a ``key:`` line that a block list may follow
    indent = None        # the indentation of that list's items
    try:
        for line in text.split("\n"):
            if line.lstrip(" ")[:1] in ("", "#"):
                continue
            match = _LINE.fullmatch(line)
            if match is None:
                return OUTSIDE
            key, spaces, token = match.groups()
            if key is not None:
                if key in data or key.lower() in _RESOLVED_WORDS:
                    return OUTSIDE
                data[key] = _value(token)
                open_key = key if token is None else None
                indent = None
                continue
            if open_key is None or (token is not None and token[0] == "["):
                return OUTSIDE
            if indent is None:
                indent = len(spaces)
                data[open_key] = []
            elif len(spaces) != indent:
                return OUTSIDE
            data[open_key].append(_value(token))
    except _Outside:
        return OUTSIDE
    return data or None


def load(text: str, path: str):
    """The value of the policy file ``path`` whose text is ``text``: read here
    when it keeps to the subset, else by PyYAML."""
    document = subset_document(text)
    return load_with_pyyaml(text, path) if document is OUTSIDE else document


_loader_class = None


def _policy_loader():
    """PyYAML's safe loader with the policy's rules (made on first use, so
    that PyYAML is imported only when a policy needs it)."""
    global _loader_class
    if _loader_class is not None:
        return _loader_class
    import yaml

    class PolicyLoader(yaml.SafeLoader):
        """YAML 1.1 reads a plain ``1:3`` as the base-60 number 63; in a policy
        such a value is always text (``justifications: 1:3``, ``right: A:B``)."""

        def resolve(self, kind, value, implicit):
            if kind is yaml.ScalarNode and implicit[0] and ":" in value:
                return yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG
            return super().resolve(kind, value, implicit)

        def construct_mapping(self, node, deep=False):
            # YAML keeps the last of two equal keys without a word; in a policy that hides
            # a choice.
            keys = set()
            for key_node, _value_node in node.value:
                key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
                if key is not None and key in keys:
                    raise ScorerError(f"{self.name} line {key_node.start_mark.line + 1}: the "
                                      f"key '{key}' is given twice")
                keys.add(key)
            return super().construct_mapping(node, deep=deep)

    _loader_class = PolicyLoader
    return _loader_class


def load_with_pyyaml(text: str, path: str):
    """The value of the policy file ``path`` as PyYAML reads it; its errors as
    ScorerError naming the file and line."""
    import yaml
    try:
        loader = _policy_loader()(text)
        loader.name = path
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except RecursionError:
        raise ScorerError(f"{path}: the policy is nested too deeply; a policy is a few short "
                          f"lists")
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        raise ScorerError(f"{path}{where}: not a valid YAML policy: "
                          f"{getattr(error, 'problem', None) or error}")
