"""FEVER in one pass: the predictions, and the gold beside them, are read a
block of lines at a time; each claim is scored and explained (its ``.debug``
text) as it is read, and only its row of counts is kept.

Memory does not grow with the claims beyond their counts, ids and the
``.debug`` text, which goes to a temporary file past
:data:`scorer.countstable.spool.Spool.MEMORY_CHARS`: a million claims are scored
in a few hundred MB, where keeping every line as objects (as the reference
does) takes several GB.

Where msgspec is installed and the files are large enough
(:func:`scorer.countstable.jsonl.decode_fast`), the lines are decoded into typed
Structs (``_line_types``): the common claim, every sentence a
``[page (string), line (whole number)]`` pair and every gold entry
``[id, id, page, line]``, is scored by ``_Pass.typed_claim``, which
gives the numbers and text :func:`scorer.claims.fever.score_claim` and the
``.debug`` writer give for it; a line of any other shape is read by the
standard library and scored by those general functions themselves.

The results are those of reading both files whole first: an error in
reading the gold comes before one in reading the predictions, which comes
before any error in scoring a claim; warnings are recorded only when the
files were read, and for the claims before a fatal one.
"""
from __future__ import annotations

from scorer.claims.fever import (COLUMNS, NEI, Counts, Inputs, _check_pairing, _no_gold,
                                 _unknown_label, score_claim)
from scorer.claims.feverdebug import FeverDebug
from scorer.claims.fevermetrics import METRICS
from scorer.countstable.jsonl import (FileLines, decode_fast, fast_json, json_string, object_blocks,
                                 show)
from scorer.countstable.metrics import full_data
from scorer.countstable.evaluation import Evaluation, claim_keys, claim_names
from scorer.countstable.spool import Spool
from scorer.policy import Policy
from scorer.problems import Problems, ScorerError, Where

_record = tuple.__new__
#: A key a JSON object does not have.
_MISSING = object()


def _blocks(source, decoder):
    """``source``'s ``(line, value)`` pairs a block at a time."""
    if isinstance(source, FileLines):
        return object_blocks(source.path, decoder)
    return iter([list(source)])


def _line_types():
    """The msgspec Structs FEVER lines are decoded into (made on first use:
    they need msgspec and typing)."""
    global _TYPES
    if _TYPES is None:
        msgspec = fast_json()
        from typing import Optional, Union    # (typing: a plain run does without it)
        unset = msgspec.UnsetType
        # Ids of any other kind (floats, lists, ...), entries of other lengths
        # or kinds, sentences that are not [string, whole number] pairs: the
        # line is read by the standard library and scored by the general rules.
        ident = Union[int, str, None, unset]
        entry = tuple[Optional[int], Optional[int], Optional[str], Optional[int]]
        evidence = list[list[entry]]

        # (defstruct: this module's annotations are text, which msgspec would
        # look up among the module's names)
        unset_value = msgspec.UNSET
        GoldLine = msgspec.defstruct("GoldLine", [
            ("label", str), ("evidence", evidence), ("id", ident, unset_value)])
        PredictionLine = msgspec.defstruct("PredictionLine", [
            ("predicted_label", str), ("predicted_evidence", list[tuple[str, int]]),
            ("id", ident, unset_value), ("label", Union[str, unset], unset_value),
            ("evidence", Union[evidence, unset], unset_value)])
        _TYPES = (GoldLine, PredictionLine, msgspec.json.Decoder(GoldLine),
                  msgspec.json.Decoder(PredictionLine), msgspec.UNSET, _as_object)
    return _TYPES


_TYPES = None


def _as_object(line) -> dict:
    """A GoldLine or PredictionLine as the standard library reads its line
    (lists where the Struct has tuples), for the general rules."""
    unset = _TYPES[4]
    found = {}
    for field in line.__struct_fields__:
        value = getattr(line, field)
        if value is unset:
            continue
        if field == "evidence":
            value = [[list(entry) for entry in group] for group in value]
        elif field == "predicted_evidence":
            value = [list(sentence) for sentence in value]
        found[field] = value
    return found


def _name(value) -> str:
    """A claim id as the reports show it (``claim_names`` of one id)."""
    if type(value) is str:
        return value
    if type(value) is int:
        return int.__repr__(value)
    return show(value)


class _GoldError(Exception):
    """An error in reading the gold: it comes before any other."""


class _Stop(Exception):
    """Scoring stopped at a claim: the error to give, unless reading the rest
    of the files finds one that comes first."""


class _Pass:
    """One evaluation: the state of the pass over both files."""

    def __init__(self, inputs: Inputs, policy: Policy, problems: Problems):
        self.inputs = inputs
        self.problems = problems
        self.max_evidence = policy.max_evidence
        self.policy = policy
        self.known = {label.upper() for label in policy.labels}
        #: labels as written that are known (case aside)
        self.accepted: set = set()
        #: (claim line, label, source) of unknown labels, recorded once the files are read
        self.unknown: list = []
        self.debug = FeverDebug(self.max_evidence)
        self.spool = Spool()
        self.columns = {column: [] for column in COLUMNS}
        self.names: list = []               # the predictions' ids as text
        self.with_ids = True                # every prediction has an id
        self.inline = bytearray()           # 1: the prediction carries its own gold
        self.gold_ids: list = []            # the gold's ids
        self.gold_without_id = False        # some gold line has no id
        self.gold_lines = 0
        self.prediction_lines = 0
        #: The first blind prediction's line: an error unless the files pair up.
        self.first_blind = None
        #: (line, ScorerError) of the first claim that could not be scored.
        self.stopped = None
        paths = [p for p in (inputs.gold_path, inputs.predictions_path) if p is not None]
        self.typed = decode_fast(paths) and (isinstance(inputs.predictions, FileLines))
        if self.typed:
            (self.GoldLine, self.PredictionLine, self.gold_decoder, self.prediction_decoder,
             self.UNSET, self.to_builtins) = _line_types()
        else:
            self.GoldLine = self.PredictionLine = None
            self.gold_decoder = self.prediction_decoder = None
        #: (gold label, predicted label) -> (verifiable, label right), for known labels
        self.label_pairs: dict = {}
        #: The JSON text of each page seen (pages repeat from sentence to sentence).
        self.quoted = _Quoted()
        #: The PREDICTED lines of a claim as one %-format, by shape.
        self.forms: dict = {}

    # ------------------------------------------------------------ reading

    def gold_block(self):
        """The gold's next block of ``(line, value)`` pairs (None after the
        last), counted and their ids kept; an error in reading the gold comes
        out as a _GoldError, an empty gold is refused."""
        try:
            block = next(self.gold_blocks, None)
        except ScorerError as error:
            raise _GoldError(error)
        if block is None:
            self.gold_blocks = iter(())
            if not self.gold_lines:
                raise _GoldError(ScorerError(
                    f"{self.inputs.gold_path}: no gold claims; give the gold file with its "
                    f"claims, or the predictions alone when they carry their own 'label' and "
                    f"'evidence'"))
            return None
        typed, unset = self.GoldLine, getattr(self, "UNSET", _MISSING)
        ids = [value.id if type(value) is typed else value.get("id", _MISSING)
               for _line, value in block]
        if not self.gold_without_id and (unset in ids or _MISSING in ids):
            self.gold_without_id = True
        self.gold_ids += ids
        self.gold_lines += len(block)
        return block

    def gold_rows(self, count: int) -> list:
        """The next ``count`` gold rows (fewer at the gold's end)."""
        rows = self.gold_waiting
        while len(rows) < count:
            block = self.gold_block()
            if block is None:
                break
            rows += block
        self.gold_waiting = rows[count:]
        return rows[:count] if len(rows) > count else rows

    def run(self) -> Evaluation:
        inputs = self.inputs
        with_gold = inputs.gold is not None
        if with_gold:
            self.gold_blocks = _blocks(inputs.gold, self.gold_decoder)
            self.gold_waiting = []
        try:
            try:
                for block in _blocks(inputs.predictions, self.prediction_decoder):
                    self.prediction_lines += len(block)
                    if self.stopped is None:
                        golds = self.gold_rows(len(block)) if with_gold else []
                        self.score_block(block, golds)
            except ScorerError as read_error:
                # The gold is read whole before the predictions: its errors come first.
                self._drain(with_gold)
                raise read_error
            self._drain(with_gold)
        except _GoldError as error:
            raise error.args[0] from None
        return self.finish()

    def _drain(self, with_gold: bool) -> None:
        """Read the rest of the gold (its errors, its length)."""
        if with_gold:
            self.gold_waiting = []
            while self.gold_block() is not None:
                pass

    # ------------------------------------------------------------ scoring

    def score_block(self, block: list, golds: list) -> None:
        """Score a block of predictions, beside their gold rows (as many, or
        fewer at the gold's end)."""
        if len(golds) < len(block):
            golds = golds + [None] * (len(block) - len(golds))
        rows, texts = [], []
        typed, typed_gold, unset = self.PredictionLine, self.GoldLine, getattr(self, "UNSET",
                                                                            _MISSING)
        names, inline = self.names, self.inline
        typed_claim = self.typed_claim
        try:
            for (line, prediction), gold_row in zip(block, golds):
                if type(prediction) is typed:
                    ident = prediction.id
                    if type(ident) is int:
                        name = int.__repr__(ident)
                    elif ident is unset:
                        self.with_ids = False
                        name = "null"
                    else:
                        name = _name(ident)
                    names.append(name)
                    if prediction.label is not unset and prediction.evidence is not unset:
                        inline.append(1)
                        counts, text = typed_claim(line, name, prediction, prediction.label,
                                                   prediction.evidence, None)
                    else:
                        inline.append(0)
                        if gold_row is None or self.first_blind is None:
                            self._blind(line, gold_row)
                        gold = gold_row[1]
                        if type(gold) is typed_gold:
                            counts, text = typed_claim(line, name, prediction, gold.label,
                                                       gold.evidence, gold_row[0])
                        else:
                            counts, text = self.general_claim(line, name,
                                                              _as_object(prediction), gold_row)
                else:
                    counts, text = self.claim(line, prediction, gold_row)
                rows.append(counts)
                texts.append(text)
        except _Stop as stop:
            self.stopped = stop.args
        if rows:
            for column, values in zip(self.columns.values(), zip(*rows)):
                column += values
            self.spool.add(texts)

    def claim(self, line: int, prediction: dict, gold_row) -> tuple:
        """``(counts, .debug text)`` of a claim read by the standard library."""
        if "id" in prediction:
            name = _name(prediction["id"])
        else:
            self.with_ids = False
            name = "null"
        self.names.append(name)
        inline = "evidence" in prediction and "label" in prediction
        self.inline.append(inline)
        if "predicted_evidence" in prediction and not inline:
            self._blind(line, gold_row)
        if gold_row is not None and type(gold_row[1]) is self.GoldLine:
            gold_row = (gold_row[0], _as_object(gold_row[1]))
        return self.general_claim(line, name, prediction, gold_row)

    def _blind(self, line: int, gold_row) -> None:
        """A prediction without its own gold, at ``line``."""
        if self.first_blind is None:
            self.first_blind = line
        if gold_row is None:
            # No gold file (said now), or a gold shorter than the predictions
            # (said once both are read, with their lengths).
            if self.inputs.gold is None:
                raise _Stop(line, _no_gold(line, None, self.inputs))
            raise _Stop(line, None)

    def general_claim(self, line: int, name: str, prediction: dict, gold_row) -> tuple:
        """A claim of any shape, by ``fever.score_claim`` and the ``.debug`` writer."""
        try:
            outcome = score_claim(None, name, line, prediction, gold_row, self.inputs,
                                  self.max_evidence)
        except ScorerError as error:
            raise _Stop(line, error)
        self._labels(line, outcome.label, outcome.gold_source, outcome.predicted_label)
        return outcome.counts, self.debug.claim(outcome)

    def _labels(self, line: int, label: str, source: tuple, predicted_label: str) -> None:
        accepted = self.accepted
        if label not in accepted:
            if label.upper() in self.known:
                accepted.add(label)
            else:
                self.unknown.append((line, label, source))
        if predicted_label not in accepted:
            if predicted_label.upper() in self.known:
                accepted.add(predicted_label)
            else:
                self.unknown.append((line, predicted_label, (self.inputs.predictions_path, line)))

    def _judge(self, line: int, label: str, predicted_label: str, source: tuple) -> tuple:
        """``(verifiable, label right)`` of a gold label and a predicted one
        (kept for the next claim when both are known labels: an unknown one
        is a warning each time)."""
        self._labels(line, label, source, predicted_label)
        gold_label = label.upper()
        judged = (gold_label != NEI, gold_label == predicted_label.upper())
        if label in self.accepted and predicted_label in self.accepted:
            self.label_pairs[(label, predicted_label)] = judged
        return judged

    def typed_claim(self, line: int, name: str, prediction, label: str, evidence: list,
                    gold_line) -> tuple:
        """A claim whose sentences are all [page, whole number] pairs and whose
        gold entries are [id, id, page, line]: what :meth:`general_claim`
        gives for it, without its records (``fever.score_claim``,
        ``feverdebug.FeverDebug.claim``)."""
        predicted_label = prediction.predicted_label
        predicted = prediction.predicted_evidence
        judged = self.label_pairs.get((label, predicted_label))
        if judged is None:
            judged = self._judge(line, label, predicted_label, (
                (self.inputs.predictions_path, line) if gold_line is None
                else (self.inputs.gold_path, gold_line)))
        verifiable, label_right = judged
        max_evidence = self.max_evidence
        n = len(predicted)
        if max_evidence is None or n <= max_evidence:
            read, n_read = predicted, n
        else:
            read, n_read = predicted[:max_evidence], max_evidence
        head = (f"{_RULE}CLAIM {name}\tpredictions line {line}\n\tGOLD LABEL:\t{label}\t"
                f"{'inline' if gold_line is None else f'gold line {gold_line}'}\t")
        if not verifiable:
            if label_right:
                return _NEI_RIGHT_COUNTS, (
                    f"{head}not verifiable\n\tPREDICTED LABEL:\t{predicted_label}\tRIGHT\n"
                    f"{self.fixed_sentences(predicted, n, n_read, _NOT_SCORED) if n else ''}"
                    f"{_NEI_RIGHT}")
            return _NEI_WRONG_COUNTS, (
                f"{head}not verifiable\n\tPREDICTED LABEL:\t{predicted_label}\tWRONG\n"
                f"{self.fixed_sentences(predicted, n, n_read, _NOT_SCORED) if n else ''}"
                f"{_NEI_WRONG}")
        # [page, line] of each gold entry, by group
        groups = [[(page, number) for _annotation, _evidence, page, number in group]
                  for group in evidence]
        complete = None
        hits = 0
        if n_read:
            chosen = set(read)
            for number, group in enumerate(groups, 1):
                for sentence in group:
                    if sentence not in chosen:
                        break
                else:
                    complete = number
                    break
            anywhere = {sentence for group in groups for sentence in group}
            if chosen.isdisjoint(anywhere):
                sentences = self.fixed_sentences(predicted, n, n_read, "NOT IN GOLD")
            else:
                verdicts = []
                for sentence in read:
                    if sentence in anywhere:
                        hits += 1
                        verdicts.append(_in_gold([number for number, group
                                                  in enumerate(groups, 1) if sentence in group]))
                    else:
                        verdicts.append("NOT IN GOLD")
                sentences = self.judged_sentences(predicted, n, n_read, verdicts)
        else:
            for number, group in enumerate(groups, 1):
                if not group:
                    complete = number
                    break
            sentences = self.fixed_sentences(predicted, n, 0, "NOT IN GOLD") if n else ""
        strict = label_right and complete is not None
        debug = self.debug
        if n_read:
            precision = hits / n_read
            precision_text = (f"\tPRECISION:\t{precision:.4f}\t{hits} of {n_read} sentences "
                              f"read in the gold evidence\n")
        else:
            precision = 1.0
            precision_text = _NO_SENTENCE_READ
        if strict:
            strict_text = f"\tSTRICT:\tYES\tgold group {complete} {debug.strict_head}"
        elif not label_right:
            strict_text = _LABEL_WRONG
        elif not groups:
            strict_text = _NO_GROUP
        else:
            strict_text = debug.not_strict
        if not groups:
            recall = 1
            gold_text = "\tGOLD EVIDENCE:\tnone\n"
            recall_text = _RECALL_EMPTY
        else:
            gold_text = self.gold_groups(groups)
            if complete is not None:
                recall = 1
                recall_text = (f"\tRECALL:\t1\tgold group {complete} complete among the "
                               f"sentences read\n")
            else:
                recall = 0
                recall_text = _RECALL_NONE
        return _record(Counts, (1, 1 if label_right else 0, 1 if strict else 0, precision, 1,
                                recall, 1, n_read, hits)), (
            f"{head}verifiable\n\tPREDICTED LABEL:\t{predicted_label}\t"
            f"{'RIGHT' if label_right else 'WRONG'}\n{gold_text}{sentences}{strict_text}"
            f"{precision_text}{recall_text}")

    def gold_groups(self, groups: list) -> str:
        """The GOLD GROUP lines: one %-format per shape (the groups' sizes)."""
        sizes = tuple(map(len, groups))
        form = self.forms.get(sizes)
        if form is None:
            form = self.forms[sizes] = "".join(
                f"\tGOLD GROUP {number}:\t{_TAB.join(['[%s, %s]'] * size) or '(empty)'}\n"
                for number, size in enumerate(sizes, 1))
        quoted = self.quoted
        cells = []
        for group in groups:
            for page, number in group:
                cells += (quoted[page], _NULL if number is None else number)
        return form % tuple(cells)

    def fixed_sentences(self, predicted: list, n: int, n_read: int, verdict: str) -> str:
        """The PREDICTED lines of [page, whole number] pairs, ``verdict`` for
        each of the first ``n_read`` (one %-format per shape)."""
        key = (n, n_read, verdict)
        form = self.forms.get(key)
        if form is None:
            verdicts = [verdict] * n_read + [self.debug.not_read] * (n - n_read)
            form = self.forms[key] = "".join(
                f"\tPREDICTED {number}:\t[%s, %s]\t{verdict.replace('%', '%%')}\n"
                for number, verdict in enumerate(verdicts, 1))
        quoted = self.quoted
        cells = []
        for page, number in predicted:
            cells += (quoted[page], number)
        return form % tuple(cells)

    def judged_sentences(self, predicted: list, n: int, n_read: int, verdicts: list) -> str:
        """The PREDICTED lines, with ``verdicts`` for the first ``n_read``."""
        form = self.forms.get(n)
        if form is None:
            form = self.forms[n] = "".join(
                f"\tPREDICTED {number}:\t[%s, %s]\t%s\n" for number in range(1, n + 1))
        if n > n_read:
            verdicts += [self.debug.not_read] * (n - n_read)
        quoted = self.quoted
        cells = []
        for (page, number), verdict in zip(predicted, verdicts):
            cells += (quoted[page], number, verdict)
        return form % tuple(cells)

    # ------------------------------------------------------------ the end

    def finish(self) -> Evaluation:
        inputs = self.inputs
        n = self.prediction_lines
        if not n:
            raise ScorerError(f"{inputs.predictions_path}: no predictions; strict score and "
                              f"label accuracy are undefined without claims")
        paired = inputs.gold is not None and self.gold_lines == n
        if not paired and self.first_blind is not None and inputs.gold is not None and \
                (self.stopped is None or self.first_blind <= self.stopped[0]):
            self._record_unknown(self.first_blind)
            line = self.first_blind
            raise ScorerError(f"{inputs.predictions_path} line {line}: blind prediction, but "
                              f"{inputs.gold_path} has {self.gold_lines} line(s) for {n} "
                              f"prediction(s); gold and predictions are paired by line")
        if self.stopped is not None:
            line, error = self.stopped
            self._record_unknown(line)
            raise error
        self._record_unknown(None)
        return self.evaluation(paired)

    def _record_unknown(self, before) -> None:
        """Record the unknown labels (of the claims before line ``before``)."""
        problems = self.problems
        for line, label, source in self.unknown:
            if before is not None and line >= before:
                break
            _unknown_label(problems, self.policy, label, source)

    def evaluation(self, paired: bool) -> Evaluation:
        inputs, problems = self.inputs, self.problems
        n = self.prediction_lines
        names = self.names
        predictions = inputs.predictions
        lines = range(1, n + 1) if isinstance(predictions, FileLines) else \
            [line for line, _prediction in predictions]
        gold_names = None
        if paired and not self.gold_without_id:
            gold_names = claim_names(self.gold_ids)
        self.gold_ids = None
        inline = sum(self.inline)
        blind = paired and inline < n
        redacted = False
        if blind:
            keys, key_source = claim_keys(gold_names, lines)
            redacted = gold_names is not None and len(gold_names) > 1 and \
                len(set(gold_names)) == 1
        elif self.with_ids:
            keys, key_source = claim_keys(names, lines)
        else:
            keys, key_source = claim_keys(None, lines)
        if self.with_ids and gold_names is not None and inline < n and names != gold_names:
            _check_pairing(names, gold_names, self.inline, lines, inputs, problems)
        if inputs.gold is not None and inline:
            problems.record("CLAIM_OWN_GOLD",
                            f"{inline} of {n} prediction(s) carry their own "
                            f"'label' and 'evidence', which are used instead of "
                            f"{inputs.gold_path}", where=Where(detail=inputs.predictions_path))
        if key_source == "line" and not redacted:
            whose = (f"the gold's claim ids ({inputs.gold_path})" if blind
                     else "the predictions' claim ids")
            problems.record("CLAIM_WARNING",
                            f"{whose} are missing, not unique or hold a blank, ':' or ','; "
                            f"claims are identified by line number (line<N>) in samples files",
                            where=Where(detail=inputs.predictions_path))
        files = tuple(f for f in (inputs.gold_path, inputs.predictions_path) if f is not None)
        table = self.columns
        return Evaluation("fever", files, keys, table, None, full_data(METRICS, table),
                          self.max_evidence, key_source, debug=self.spool, declared=METRICS)


def evaluate(inputs: Inputs, policy: Policy, problems: Problems) -> Evaluation:
    """Score FEVER predictions (see the module's text)."""
    return _Pass(inputs, policy, problems).run()


class _Quoted(dict):
    """A page (a string, or None) -> its JSON text, made once."""

    __slots__ = ()

    def __missing__(self, page) -> str:
        if len(self) > 100_000:
            self.clear()        # (pages repeat; a file may still hold millions)
        text = self[page] = json_string(page) if type(page) is str else show(page)
        return text


def _in_gold(holders: list) -> str:
    """The verdict on a sentence read that is in gold groups ``holders``."""
    if len(holders) == 1:
        return f"IN GOLD (group {holders[0]})"
    return f"IN GOLD (groups {', '.join(map(str, holders))})"


_RULE = "=" * 80 + "\n"
_TAB = "\t"
_NULL = "null"
_NOT_SCORED = f"NOT SCORED (gold label {NEI})"
_NEI_RIGHT_COUNTS = _record(Counts, (1, 1, 1, 0.0, 0, 0, 0, 0, 0))
_NEI_WRONG_COUNTS = _record(Counts, (1, 0, 0, 0.0, 0, 0, 0, 0, 0))
_LABEL_WRONG = "\tSTRICT:\tNO\tlabel wrong\n"
_NO_GROUP = "\tSTRICT:\tNO\tgold evidence is empty: no group to complete\n"
_NO_SENTENCE_READ = "\tPRECISION:\t1.0000\tno sentence read\n"
_RECALL_EMPTY = "\tRECALL:\t1\tgold evidence is empty\n"
_RECALL_NONE = "\tRECALL:\t0\tno gold group complete among the sentences read\n"
_NOT_VERIFIABLE = (f"\tPRECISION:\tnot counted\tgold label {NEI}\n"
                   f"\tRECALL:\tnot counted\tgold label {NEI}\n")
_NEI_RIGHT = f"\tSTRICT:\tYES\tlabel right; {NEI} needs no evidence\n" + _NOT_VERIFIABLE
_NEI_WRONG = _LABEL_WRONG + _NOT_VERIFIABLE
