"""The YAML of a policy file, read into Python values.

PyYAML is the authority, with the policy's three rules (a plain ``1:3`` is text,
not the YAML 1.1 base-60 number 63; a key given twice is refused; a number not
written in decimal, ``010`` (octal 8), ``0x10``, ``0b11``, ``1_0``, is refused).  Importing
it costs about as much as scoring 1,000 SciFact claims, and the policies
people write use a small part of YAML, so that part is read here first:

- ``key: value`` at the start of a line, each key once; ``key:`` alone is
  null, or opens a block list of ``- value`` lines, all equally indented;
- values: flow lists ``[a, b]`` of scalars, and scalars: words
  (``NOT ENOUGH INFO``, ``_x``; not starting with a digit), whole numbers of
  up to 18 digits (no sign, no leading zero), quoted text without escapes;
  outside flow lists also a word with colons inside (``1:3``, ``M:9``: text);
  ``true`` and ``false`` (booleans, as YAML 1.1 reads them);
- comments, blank lines, trailing spaces, CRLF line ends; ASCII outside quotes
  and comments.

Anything else (anchors, tags, nested mappings, multi-line scalars, document
markers, ``yes``/``on``/``null``/``True`` and other words YAML 1.1 resolves, other
numbers, tabs, non-ASCII text, errors of any kind) goes to PyYAML, so its
values and messages are those of PyYAML.  tests/unit/test_policyfile.py checks
that the two agree on generated documents.
"""
from __future__ import annotations

import errno
import os
import re
import stat

from scorer.limits import MAX_DIGITS, shorten
from scorer.problems import ScorerError
from scorer.textfile import decode

#: Words YAML 1.1 resolves to something other than text (yes, On, NULL...),
#: in lower case; any spelling of them goes to PyYAML.
_RESOLVED_WORDS = frozenset(("yes", "no", "true", "false", "on", "off", "null"))
_LONGEST_KEY = 64
_LONGEST_NUMBER = 18

#: The patterns are few and simple, their compiling being part of every run's
#: start-up; each token they find is classified below.  A token: quoted text
#: without escapes, or ASCII words separated by spaces or colons.
_TOKEN = r"""(?:"[^"\\]*"|'[^']*'|\w+(?:[ :]+\w+)*)"""
#: A flow list, its items read by _FLOW_ITEM (``]`` may be quoted inside).
_FLOW = r"""\[(?:[^]"']|"[^"\\]*"|'[^']*')*\]"""
#: ``key: value`` (groups 1 and 3) or a list item ``- value`` (groups 2 and 3),
#: then perhaps a comment.
_LINE = re.compile(rf"(?:(\w+):|( *)-)(?: +({_FLOW}|{_TOKEN}))?(?: +#.*)? *", re.ASCII)
#: An item of a flow list, and the comma after it.
_FLOW_ITEM = re.compile(rf" *({_TOKEN}) *(,?)", re.ASCII)
#: ASCII the subset does not hold: control characters (PyYAML reads a tab or
#: a carriage return otherwise, and refuses the others), but the line feed.
#: (A set, not a pattern: one compiled costs every run's start-up.)
_CONTROL = frozenset(map(chr, (*range(0x00, 0x0a), *range(0x0b, 0x20), 0x7f)))

#: What ``subset_document`` returns for a text outside the subset.
OUTSIDE = object()


class _Outside(Exception):
    pass


def _readable_unicode(character: str) -> bool:
    """True for a non-ASCII character that PyYAML reads as itself anywhere:
    printable, and neither a line break (NEL, U+2028, U+2029) nor a BOM."""
    code = ord(character)
    return (0xA0 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or 0x10000 <= code) \
        and character not in "\u2028\u2029\ufeff"


def _scalar(token: str, in_flow: bool = False):
    """The value of a scalar token, as PyYAML with the policy's rules reads it."""
    if token[0] in "\"'":
        return token[1:-1]
    if ":" in token:
        # A plain 1:3 or M:9 is text by the policy's rule; "a: b" is a mapping, and
        # in a flow list YAML 1.1 and 1.2 read a colon differently.
        if in_flow or " " in token or "::" in token:
            raise _Outside
        return token
    if token[0].isdigit():
        if not token.isdigit() or len(token) > _LONGEST_NUMBER \
                or (token[0] == "0" and token != "0"):
            raise _Outside   # 017 (octal), 08, 1 a...
        return int(token)
    if token in ("true", "false"):
        return token == "true"      # (validate: true; other spellings go to PyYAML)
    if token.lower() in _RESOLVED_WORDS:
        raise _Outside
    return token


def _value(token):
    if token is None:
        return None
    if token[0] != "[":
        return _scalar(token)
    inner = token[1:-1]
    end = len(inner.rstrip(" "))     # what follows is blank
    items = []
    position = 0
    while position < end:
        item = _FLOW_ITEM.match(inner, position)
        if item is None:
            raise _Outside
        items.append(_scalar(item.group(1), in_flow=True))
        position = item.end()
        if not item.group(2):
            break
        if position >= end:
            raise _Outside   # [a,]
    if position < end:
        raise _Outside
    return items


def subset_document(text: str):
    """The document's value as PyYAML (with the policy's rules) reads it, when
    the text keeps to the subset above; else ``OUTSIDE``."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    if not _CONTROL.isdisjoint(text) or not (text.isascii() or all(
            character.isascii() or _readable_unicode(character) for character in set(text))):
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
                if key in data or key[0].isdigit() or len(key) > _LONGEST_KEY \
                        or key.lower() in _RESOLVED_WORDS:
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


def read(path: str, max_bytes: int) -> str:
    """The text of the policy file ``path``: a regular file of at most
    ``max_bytes`` bytes, read no further than that (a device such as
    ``/dev/zero``, a pipe or a file that keeps growing is refused at once,
    not read until memory runs out)."""
    def check(mode: int) -> None:
        if stat.S_ISDIR(mode):
            raise ScorerError(f"Could not open policy file {path}: {os.strerror(errno.EISDIR)}")
        if not stat.S_ISREG(mode):
            raise ScorerError(f"{path}: not a regular file (a device, a pipe or a socket); "
                              f"a policy is a file")
    try:
        # Looked at before it is opened: opening a named pipe waits for a writer.
        check(os.stat(path).st_mode)
        f = open(path, "rb")
    except OSError as error:
        raise ScorerError(f"Could not open policy file {path}: {error.strerror or error}")
    with f:
        try:
            status = os.fstat(f.fileno())
            check(status.st_mode)       # (what was opened, should the name have moved)
            size = status.st_size
            data = f.read(max_bytes + 1) if size <= max_bytes else b""
        except OSError as error:
            raise ScorerError(f"Could not read policy file {path}: {error.strerror or error}")
    if size > max_bytes:
        raise ScorerError(f"{path}: {size:,} bytes is too large for a policy file "
                          f"(at most {max_bytes:,})")
    if len(data) > max_bytes:       # (it grew as it was read)
        raise ScorerError(f"{path}: more than {max_bytes:,} bytes, too large for a policy "
                          f"file")
    return decode(path, data)


def load(text: str, path: str):
    """The value of the policy file ``path`` whose text is ``text``: read here
    when it keeps to the subset, else by PyYAML."""
    document = subset_document(text)
    return load_with_pyyaml(text, path) if document is OUTSIDE else document


_loader_class = None
INT_TAG = "tag:yaml.org,2002:int"
#: A whole number as a policy writes it (and a switch reads it); compiled by
#: ``re`` when first used, by PyYAML's reading alone.
_DECIMAL = r"[-+]?(?:0|[1-9][0-9]*)"


def _policy_loader():
    """PyYAML's safe loader with the policy's rules (made on first use, so
    that PyYAML is imported only when a policy needs it)."""
    global _loader_class
    if _loader_class is not None:
        return _loader_class
    import yaml                 # (PyYAML for a policy outside the subset alone)

    class PolicyLoader(yaml.SafeLoader):
        """YAML 1.1 reads a plain ``1:3`` as the base-60 number 63; in a policy
        such a value is always text (``justifications: 1:3``, ``right: A:B``)."""

        def resolve(self, kind, value, implicit):
            if kind is yaml.ScalarNode and implicit[0] and ":" in value:
                return yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG
            return super().resolve(kind, value, implicit)

        def construct_yaml_int(self, node):
            # Python converts at most 4,300 digits (a ValueError beyond); a
            # policy's numbers have a few.
            self._check_length(node, None)
            return super().construct_yaml_int(node)

        def _check_length(self, node, key) -> None:
            digits = node.value.lstrip("+-").replace("_", "")
            if len(digits) > MAX_DIGITS:
                named = f", key '{key}'" if key is not None else ""
                raise ScorerError(f"{self.name} line {node.start_mark.line + 1}{named}: the "
                                  f"number {shorten(node.value)} is too large; a policy's "
                                  f"numbers have at most {MAX_DIGITS} digits")

        def construct_mapping(self, node, deep=False):
            # YAML keeps the last of two equal keys without a word; in a policy that hides
            # a choice.
            keys = set()
            for key_node, value_node in node.value:
                key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
                if key is not None and key in keys:
                    raise ScorerError(f"{self.name} line {key_node.start_mark.line + 1}: the "
                                      f"key '{key}' is given twice")
                keys.add(key)
                self._check_decimal(value_node, key)
            return super().construct_mapping(node, deep=deep)

        def _check_decimal(self, node, key) -> None:
            """YAML 1.1 reads a plain 010 as 8 (octal), 0x10 as 16, 0b11 as 3 and
            1_0 as 10, where a switch reads 010 as 10: in a policy a number is
            written in decimal.  Scalars of the value and of its lists (mappings
            are checked as they are constructed)."""
            stack, seen = [node], set()
            while stack:
                item = stack.pop()
                if id(item) in seen:
                    continue
                seen.add(id(item))
                if isinstance(item, yaml.SequenceNode):
                    stack.extend(item.value)
                elif isinstance(item, yaml.ScalarNode) and item.tag == INT_TAG \
                        and item.style is None:
                    self._check_length(item, key)
                    if re.fullmatch(_DECIMAL, item.value):
                        continue
                    read = self.construct_yaml_int(item)
                    raise ScorerError(f"{self.name} line {item.start_mark.line + 1}, key "
                                      f"'{key}': the number {item.value} is not written in "
                                      f"decimal (YAML 1.1 reads it as {read}); write it "
                                      f"without leading zeros, 0x, 0b or _")

    # (PyYAML's table of constructors holds its own function, not the method's name)
    PolicyLoader.add_constructor(INT_TAG, PolicyLoader.construct_yaml_int)
    _loader_class = PolicyLoader
    return _loader_class


def load_with_pyyaml(text: str, path: str):
    """The value of the policy file ``path`` as PyYAML reads it; its errors as
    ScorerError naming the file and line."""
    import yaml                 # (only for a policy outside the subset: see _policy_loader)
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
    except yaml.reader.ReaderError as error:
        # A character YAML does not allow (a NUL byte, say): PyYAML gives its
        # place in the text, not its line.
        line = text.count("\n", 0, error.position) + 1
        character = error.character if isinstance(error.character, int) \
            else ord(error.character)
        raise ScorerError(f"{path} line {line}: not a valid YAML policy: the character "
                          f"#x{character:04x}{_CHARACTER_NAMES.get(character, '')} is not "
                          f"allowed")
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        raise ScorerError(f"{path}{where}: not a valid YAML policy: "
                          f"{getattr(error, 'problem', None) or error}")


#: Names of characters YAML refuses that a policy file may hold by mistake.
_CHARACTER_NAMES = {0: " (a NUL byte)", 0x7f: " (DEL)"}
