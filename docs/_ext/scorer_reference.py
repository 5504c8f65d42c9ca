"""Reference material generated from the code at build time, so that the
documentation cannot drift from what the commands accept and print.

Directives (MyST: ```` ```{scorer-switches} scorer ```` and so on):

``scorer-switches COMMAND``
    the switch table of ``scorer``, ``track`` or ``competition``.
``scorer-usage COMMAND [TOOL]``
    the text ``-help`` prints for ``scorer``, ``track``, ``diff``,
    ``competition``, ``samples`` or ``coldstart`` (with a TOOL: that tool's),
    verbatim.
``scorer-policy-keys``
    the keys a ``-policy`` file may hold, and the shipped policy files.
``scorer-categories``, ``scorer-disciplines``, ``scorer-fields``
    Cold Start's policy categories, matching disciplines and table columns.
``scorer-metrics TASK``
    the metric explanations of a task (``classification``, ``coldstart``,
    ``fever``, ``scifact``).
``scorer-track-metrics``
    every metric a track can rank by (``-metric``), per task.
``scorer-tasks``
    every task of the registry (scorer/tasks/): what it scores, its files, its
    policy keys with their defaults, its own switches.
``scorer-modules``
    every module of the package from its docstrings (autodoc), with a list
    of them first; ``:exclude:`` names modules documented elsewhere.

Every piece of knowledge is read through one of the small functions under
"Where the code keeps it", so that a module moving needs one edit here.
"""
from __future__ import annotations

import os

from docutils.parsers.rst import Directive, Parser
from docutils.utils import new_document

COMMANDS = ("scorer", "track", "diff", "competition", "samples", "coldstart")


# --- Where the code keeps it -------------------------------------------------------------

def scorer_switches() -> list:
    """(name, takes a value, default, help, tasks) of python -m scorer's switches:
    the common ones (tasks "all") and each task's own (the tasks that take it)."""
    from scorer import tasks
    from scorer.switches import scorer_table
    owners: dict = {}
    for task in tasks.every():
        for switch in task.switches:
            owners.setdefault(switch.name, []).append(task.title)
    rows = []
    for name, switch in sorted(scorer_table().items()):
        help_text = switch.help
        if help_text is None:           # -h: the short spelling of -help
            help_text = "Show help (as -help)"
        rows.append((name, switch.takes_value, switch.default, help_text,
                     ", ".join(owners.get(name, ["all"]))))
    return rows


def track_switches() -> list:
    """(name, takes a value, default, help, tasks) of the track's own switches."""
    from scorer.track.__main__ import TRACK_SWITCHES
    return [(s.name, s.takes_value, s.default, s.help, "all") for s in TRACK_SWITCHES]


def competition_switches() -> list:
    """(name, takes a value, default, help, tasks) of scorer.competition's own switches."""
    from scorer.competition.__main__ import OWN_SWITCHES, PHASE_SWITCHES
    from scorer.competition.collect import COLLECT_SWITCHES
    own = OWN_SWITCHES + PHASE_SWITCHES
    return [(s.name, s.takes_value, s.default, s.help, "all")
            for s in own + tuple(c for c in COLLECT_SWITCHES
                                 if c.name not in {o.name for o in own})]


def command_switches(command: str) -> set:
    """The name of every switch ``command`` takes (without the dash), its
    GNU-style spellings (``--help``) included."""
    from scorer import switches
    aliases = {alias.lstrip("-") for alias in switches.ALIASES}
    scorer_names = set(switches.scorer_table()) | aliases
    if command == "scorer":
        return scorer_names
    if command == "track":
        return scorer_names | {row[0] for row in track_switches()}
    if command == "competition":
        # (-collect takes scorer.track's switches too)
        return scorer_names | {row[0] for row in competition_switches()} \
            | {row[0] for row in track_switches()}
    if command == "diff":
        from scorer.diff.__main__ import SWITCHES
        return set(SWITCHES) | aliases
    if command == "samples":
        from scorer.samples.__main__ import SWITCHES
        return set(SWITCHES) | aliases
    if command == "coldstart":
        return {name for tool in toolkit_modules() for name in tool.SWITCHES} | aliases
    raise ValueError(command)


def toolkit_modules() -> list:
    """The module of each tool of ``python -m scorer.coldstart`` (each has
    SWITCHES and USAGE)."""
    import importlib

    from scorer.coldstart import toolkit
    return [importlib.import_module(tool.module) for tool in toolkit.available()]


def usage_text(command: str, tool: str = None) -> str:
    """What ``-help`` prints for ``command`` (for ``coldstart``, of its ``tool``,
    or the list of tools)."""
    if command == "scorer":
        from scorer.cli import usage
        return usage("python -m scorer")
    if command == "track":
        from scorer.track.__main__ import usage
        return usage()
    if command == "diff":
        from scorer.diff.__main__ import USAGE
        return USAGE
    if command == "competition":
        from scorer.competition.__main__ import USAGE
        return USAGE
    if command == "samples":
        from scorer.samples.__main__ import USAGE
        return USAGE
    if command == "coldstart":
        import importlib

        from scorer.coldstart import toolkit
        from scorer.coldstart.toolkit.command import usage
        if tool is None:
            return usage()
        return importlib.import_module(toolkit.find(tool).module).USAGE
    raise ValueError(command)


def policy_keys() -> dict:
    from scorer.policy import known_keys
    return known_keys()


def categories() -> list:
    """(category, explanation, the lists it may be put in) of Cold Start's policy."""
    from scorer.coldstart.policy import CATEGORY_HELP, LEGAL_CHOICES
    return [(name, CATEGORY_HELP[name], LEGAL_CHOICES[name]) for name in sorted(LEGAL_CHOICES)]


def disciplines() -> list:
    from scorer.coldstart.policy import DISCIPLINE_HELP, DISCIPLINES
    return [(name, DISCIPLINE_HELP[name]) for name in DISCIPLINES]


def fields() -> list:
    """(name, header, format, explanation, in the default list) of Cold Start's columns."""
    from scorer.coldstart.policy import DEFAULT_FIELDS
    from scorer.coldstart.reports.columns import FIELDS
    return [(name, header, form, text, name in DEFAULT_FIELDS)
            for name, (header, form, _justify, text) in FIELDS.items()]


def task_metrics(task: str) -> list:
    """(name, explanation) of every metric of a task."""
    from scorer import tasks
    return tasks.get(task).explanations()


def task_names() -> tuple:
    from scorer import tasks
    return tasks.names()


def track_metrics() -> list:
    """(heading, [(name, title), ...]) of the metrics a track can rank by, per
    task (and kind of run, where the metrics differ)."""
    from scorer import tasks
    return [entry for task in tasks.every() for entry in task.scoring.catalogues()]


def task_records() -> list:
    """(name, title, summary, files, [(key, default, help)], [switch names]) of
    every task, in the registry's order."""
    from scorer import tasks
    return [(task.name, task.title, task.summary, task.files_help,
             [(key.name, key.default, key.help) for key in task.policy_keys],
             [switch.name for switch in task.switches])
            for task in tasks.every()]


def package_modules(exclude=()) -> list:
    """(module name, first paragraph of its docstring) of every module of the
    package but the ``__main__`` ones (they run a command when imported)."""
    import importlib
    import pkgutil
    import scorer
    names = ["scorer"] + [m.name for m in pkgutil.walk_packages(scorer.__path__, "scorer.")
                          if not m.name.endswith(".__main__")]
    out = []
    for name in sorted(names):
        if name in exclude:
            continue
        doc = (importlib.import_module(name).__doc__ or "").strip()
        out.append((name, " ".join(doc.split("\n\n")[0].split())))
    return out


def shipped_policies(root: str) -> list:
    """(file name, text) of the policy files in configs/."""
    folder = os.path.join(root, "configs")
    return [(name, open(os.path.join(folder, name), encoding="utf-8").read())
            for name in sorted(os.listdir(folder)) if name.endswith(".yaml")]


# --- Turning it into reStructuredText -----------------------------------------------------

def _cell(text) -> str:
    """One line of a list-table cell; literal text keeps its characters."""
    return " ".join(str(text).split())


def _literal(text) -> str:
    text = str(text)
    return f"``{text}``" if text else ""


def list_table(header: list, rows: list, widths: list) -> list:
    lines = [".. list-table::", "   :header-rows: 1",
             "   :widths: " + " ".join(map(str, widths)), ""]
    for row in [header] + rows:
        first = True
        for cell in row:
            lines.append(("   * - " if first else "     - ") + _cell(cell))
            first = False
    return lines + [""]


def switch_table(rows: list) -> list:
    body = []
    for name, takes_value, default, help_text, tasks in rows:
        switch = f"-{name} VALUE" if takes_value else f"-{name}"
        body.append([_literal(switch), _literal(default) if default else "",
                     tasks, help_text.replace("*", r"\*")])
    return list_table(["switch", "default", "tasks", "meaning"], body, [24, 16, 10, 50])


def literal_block(text: str) -> list:
    return ["::", ""] + ["   " + line if line else "" for line in text.rstrip("\n").splitlines()] + [""]


class _Generated(Directive):
    """Parses the reStructuredText that ``lines()`` returns in place: as
    reStructuredText whatever the page's own markup (a Markdown page's parser
    would read it as Markdown), as MyST's ``eval-rst`` does."""

    def lines(self) -> list:
        raise NotImplementedError

    def run(self):
        document = self.state.document
        generated = new_document(document["source"], document.settings)
        generated.reporter = document.reporter
        Parser().parse("\n".join(self.lines()) + "\n", generated)
        return generated.children


class SwitchesDirective(_Generated):
    required_arguments = 1

    def lines(self):
        command = self.arguments[0]
        rows = {"scorer": scorer_switches, "track": track_switches,
                "competition": competition_switches}
        if command not in rows:
            raise self.error(f"scorer-switches: no switch table for {command!r}; "
                             f"one of {', '.join(rows)}")
        return switch_table(rows[command]())


class UsageDirective(_Generated):
    required_arguments = 1
    optional_arguments = 1

    def lines(self):
        command = self.arguments[0]
        if command not in COMMANDS:
            raise self.error(f"scorer-usage: unknown command {command!r}; "
                             f"one of {', '.join(COMMANDS)}")
        tool = self.arguments[1] if len(self.arguments) > 1 else None
        if tool is not None:
            from scorer.coldstart import toolkit
            if command != "coldstart" or toolkit.find(tool) is None:
                raise self.error(f"scorer-usage: no tool {tool!r} of {command!r}")
        return literal_block(usage_text(command, tool))


class PolicyKeysDirective(_Generated):
    def lines(self):
        root = self.state.document.settings.env.config.scorer_root
        out = list_table(["key", "meaning"],
                         [[_literal(k), v] for k, v in policy_keys().items()], [20, 80])
        for name, text in shipped_policies(root):
            out += [f"``-policy {name[:-len('.yaml')]}`` (``configs/{name}`` in a checkout):",
                    ""] + literal_block(text)
        return out


class CategoriesDirective(_Generated):
    def lines(self):
        rows = [[_literal(name), text, ", ".join(f"``-{o.lower()}``" for o in legal)]
                for name, text, legal in categories()]
        return list_table(["category", "what it counts", "may be listed in"], rows, [22, 50, 28])


class DisciplinesDirective(_Generated):
    def lines(self):
        return list_table(["discipline", "how a response finds its assessment"],
                          [[_literal(n), t] for n, t in disciplines()], [20, 80])


class FieldsDirective(_Generated):
    def lines(self):
        rows = [[_literal(name), _literal(header), _literal(form), text,
                 "yes" if default else "no"]
                for name, header, form, text, default in fields()]
        return list_table(["field", "header", "format", "what", "default"], rows,
                          [18, 14, 10, 50, 8])


class MetricsDirective(_Generated):
    required_arguments = 1

    def lines(self):
        task = self.arguments[0]
        if task not in task_names():
            raise self.error(f"scorer-metrics: a task ({', '.join(task_names())}), "
                             f"not {task!r}")
        return list_table(["metric", "what it measures"],
                          [[_literal(n), t] for n, t in task_metrics(task)], [32, 68])


class TrackMetricsDirective(_Generated):
    def lines(self):
        out = []
        for heading, metrics in track_metrics():
            out += [f"**{heading}** (the first is the default headline):", ""]
            out += list_table(["-metric", "title"],
                              [[_literal(n), t] for n, t in metrics], [30, 70])
        return out


def _default(value) -> str:
    """A policy key's default as a policy file writes it."""
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


class TasksDirective(_Generated):
    def lines(self):
        out = []
        for name, title, summary, files, keys, own in task_records():
            out += [f".. rubric:: {title} (``task: {name}``)", "",
                    f"Scores {summary}; files: {files}.", ""]
            if keys:
                out += list_table(["policy key", "default", "meaning"],
                                  [[_literal(key), _literal(_default(default)), text]
                                   for key, default, text in keys], [20, 30, 50])
            if own:
                out += ["Its own switches (refused for another task): "
                        + ", ".join(f"``-{switch}``" for switch in own) + ".", ""]
        return out


class ModulesDirective(_Generated):
    option_spec = {"exclude": lambda text: text.split()}

    def lines(self):
        modules = package_modules(self.options.get("exclude", ()))
        out = []
        for name, summary in modules:
            out.append(f"- :mod:`{name}`" + (f": {summary}" if summary else ""))
        out.append("")
        for name, _summary in modules:
            out += [f".. rubric:: {name}", "", f".. automodule:: {name}", ""]
        return out


def setup(app):
    app.add_config_value("scorer_root", os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "env")
    app.add_directive("scorer-switches", SwitchesDirective)
    app.add_directive("scorer-usage", UsageDirective)
    app.add_directive("scorer-policy-keys", PolicyKeysDirective)
    app.add_directive("scorer-categories", CategoriesDirective)
    app.add_directive("scorer-disciplines", DisciplinesDirective)
    app.add_directive("scorer-fields", FieldsDirective)
    app.add_directive("scorer-metrics", MetricsDirective)
    app.add_directive("scorer-track-metrics", TrackMetricsDirective)
    app.add_directive("scorer-modules", ModulesDirective)
    app.add_directive("scorer-tasks", TasksDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
