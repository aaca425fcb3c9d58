"""A seat played by a person at the keyboard (`rulebook play --agents human,...`).

The person sees what their seat's agent would get, nothing more: the
seat's view of the game and of the log (views.view_for, views.log_for),
the decision's prompt and its numbered options. They answer with a number,
a label or the unique start of one; `?` lists the commands. Input comes
from any text stream, so a pipe drives it as well as a terminal does
(the tests do).

Several people at one screen (hot seat): the screen is cleared, and at a
terminal the next seat presses Enter, before each seat sees its view.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, TextIO

from rich.console import Console
from rich.markup import escape

from ..model.labels import match, readable
from ..model.numbers import NumberLabels
from ..model.logwords import counted
from ..run.agents import _examples
from ..run.builtins import RuleError
from ..run.engine import StopGame

if TYPE_CHECKING:
    from ..run.decisions import LabelledDecision, SomeDecision
    from ..run.engine import Game

COLOURS = ["green", "magenta", "cyan", "yellow", "blue", "red", "bright_green", "bright_magenta"]
HELP = """commands:
  NUMBER, LABEL  take that option: its number, its words or its label (the
                 start of one will do if only one starts so)
  ?              this help
  log [N|all]    the last N lines of the log you may read (default 20), or all
  view           what you see of the game: you, the others, the board
  save FILE      save the game so far (go on later with --replay FILE)
  quit           leave the game (you are offered a save)"""


class Leave(StopGame):
    """The person left (quit, end of input, Ctrl-C): the game stops where it is."""


class Table:
    """What the people at one screen share: the console, the input, who
    decided last (hot seat) and how to save."""

    def __init__(self, console: Console, stdin: TextIO,
                 save: Callable[[str], str] | None = None, interactive: bool = False):
        self.console = console
        self.stdin = stdin
        self.save = save  # save(path) -> what to tell, given by the command line
        self.interactive = interactive
        self.humans = 0
        self.last: str | None = None  # the seat that saw the screen last
        # why the game stopped early: "quit", "eof", "interrupt"
        self.left: str | None = None
        self.agents: list[HumanAgent] = []  # the people's seats, in seat order

    def hot_seat(self, sid: str) -> None:
        """Before `sid` sees its screen: with several people at one screen,
        hide the last one's (at a terminal, the next presses Enter first)."""
        if self.humans > 1 and self.last != sid:
            self.console.clear()
            if self.interactive:
                self.read(f"[bold]{escape(sid)}[/bold]: press Enter to see your view ")
            else:
                self.console.print(f"---- the screen is cleared for {escape(sid)} ----",
                                   highlight=False)
        self.last = sid

    def finish(self, game: Game) -> None:
        """The game is over: each person sees the rest of their seat's log
        (how it ended, who won, who was knocked out and why), as their seat
        may read it."""
        from ..model.views import log_for

        for agent in self.agents:
            side = game.side_by_id(agent.sid) if agent.sid else None
            if side is None:
                continue
            self.hot_seat(side.id)
            agent.catch_up(log_for(game, side), "the end of the game, since your last "
                           "decision:")

    def read(self, prompt: str) -> str:
        self.console.print(prompt, end="")
        try:
            line = self.stdin.readline()
        except KeyboardInterrupt:
            self.left = "interrupt"
            raise Leave() from None
        if not line:
            self.left = "eof"
            raise Leave()
        if not self.interactive:
            self.console.print(line.rstrip("\n"), highlight=False, markup=False)  # the echo
        return line.strip()


class HumanAgent:
    name = "human"
    wants_view = True
    wants_summary = True  # the ruleset's `summary`, in place of the whole board

    def __init__(self, table: Table, seat: int, sid: str | None = None):
        self.table = table
        self.colour = COLOURS[seat % len(COLOURS)]
        self.seen = 0  # log lines of this seat's log already shown
        self.sid = sid  # the seat's id
        table.humans += 1
        table.agents.append(self)

    # -------------------------------------------------------------- answers
    def pick(self, d: LabelledDecision) -> int:
        self._show(d)
        if isinstance(d.labels, NumberLabels):
            return self._number(d, d.labels)
        labels = list(d.labels)
        names = (d.view() or {}).get("names") or {}
        shown = [readable(label, names) for label in labels]
        for n, (label, words) in enumerate(zip(labels, shown), 1):
            self.out(f"  [bold]{n:>3}[/bold]. {escape(words)}"
                     + (f"  [dim]({escape(label)})[/dim]" if words != label else ""))
        while True:
            text = self._command(d)
            if text is None:
                continue
            i = self._option(text, labels, shown)
            if i is not None:
                return i

    def _number(self, d: LabelledDecision, labels: NumberLabels) -> int:
        """A number entry: the person types the number (or pass)."""
        self.out(f"  enter {escape(labels.describe())}")
        while True:
            text = self._command(d)
            if text is None:
                continue
            i = labels.position(text)
            if i is not None:
                return i
            self.out(f"  [red]not a number on offer: {escape(text)}[/red] "
                     f"({escape(labels.describe())}; ? for help)")

    def pick_some(self, d: SomeDecision) -> list[int] | None:
        """A "choose some" decision: the person names a selection, a count per
        group (`runner x2 + boss`), the groups' numbers (`1 3`, `2 2`: a
        number twice takes two of that group), or `pass`."""
        self._show(d)
        some = d.some
        self.out(f"  choose {some.low} to {some.high} of:" if some.high != some.low
                 else f"  choose {some.low} of:")
        names = (d.view() or {}).get("names") or {}
        for i, (label, n) in enumerate(some.groups, 1):
            words = readable(label, names)
            self.out(f"    {i}. {escape(label)}" + (f" (up to {n})" if n > 1 else "")
                     + (f"  [dim]{escape(words)}[/dim]" if words != label else ""))
        examples = [e for e in _examples(some, 4) if e != "pass"][:3]
        self.out("  answer like: " + ", ".join(escape(e) for e in examples)
                 + ", or by numbers (1 3)" + (", or pass" if some.may else ""))
        while True:
            text = self._command(d)
            if text is None:
                continue
            if text == "pass" and some.may:
                return None
            try:
                if _NUMBERS.fullmatch(text):  # the groups by their numbers, as listed
                    return some.parse(some.label(_by_numbers(text, len(some.groups))))
                return some.parse(text)
            except RuleError as e:
                self.out(f"  [red]not a selection here: {escape(str(e))}[/red] (? for help)")

    # -------------------------------------------------------------- showing
    def out(self, text: str) -> None:
        self.table.console.print(text, highlight=False)

    def _show(self, d: LabelledDecision | SomeDecision) -> None:
        table, view = self.table, d.view() or {}
        table.hot_seat(d.player)
        self.catch_up(view.get("log", []))
        if view.get("summary"):  # what the ruleset says matters; `view` shows it all
            for line in view["summary"]:
                self.out("  " + escape(line))
        else:
            self._view(view, d.player)
        where = ", ".join(x for x in (f"round {view['round']}" if view.get("round") else "",
                                      view.get("phase") or "") if x)
        self.out(f"[bold {self.colour}]{escape(d.player)}[/bold {self.colour}]"
                 f" ({escape(where)}): {escape(d.prompt or d.decision)}")

    def catch_up(self, log: list[dict], heading: str = "since your last decision:") -> None:
        """Every line of the seat's log it has not been shown yet, whole (a
        long stretch is paged at a terminal, never cut)."""
        fresh = log[self.seen:]
        self.seen = len(log)
        if not fresh:
            return
        self.out(f"[dim]{heading}[/dim]")
        page = max(self.table.console.height - 4, 10) if self.table.interactive else 0
        for n, e in enumerate(fresh, 1):
            self.out("  " + escape(e.get("text", "")))
            if page and n % page == 0 and n < len(fresh):
                self.table.read(f"[dim]-- {len(fresh) - n} more line(s): press Enter --[/dim] ")

    def _view(self, view, me):
        """What the seat sees, in the ruleset's names: itself first, the
        other sides, the board, the rest of the table."""
        names = view.get("names") or {}
        sides = view.get("sides", {})
        for sid, side in sorted(sides.items(), key=lambda kv: kv[0] != me):
            who = names.get(sid, sid)
            self.out(("[bold]you[/bold], " if sid == me else "") + escape(who) + ": "
                     + escape(_side_text(side, names)))
        board = [f"{names.get(sid, sid)}: {_space_text(sp, names)}"
                 for sid, sp in view.get("spaces", {}).items() if _space_text(sp, names)]
        if board:
            self.out("board: " + escape("; ".join(board)))
        zones = [f"{_words(n)} {_zone_text(z, names)}" for n, z in view.get("zones", {}).items()]
        zones += [f"{_words(k)} {_short(v, names)}" for k, v in view.get("variables", {}).items()
                  if v not in (None, False, [], 0)]
        if zones:
            self.out("table: " + escape("; ".join(zones)))

    # -------------------------------------------------------------- input
    def _command(self, d):
        """One line of input: the text of an answer, or None when it was a
        command (help, log, view, save) that was carried out here."""
        text = self.table.read("[bold]> [/bold]")
        word, _, rest = text.partition(" ")
        if text in ("?", "help"):
            self.out(HELP)
        elif word == "log" and (not rest or rest.isdigit() or rest == "all"):
            log = (d.view() or {}).get("log", [])
            n = len(log) if rest == "all" else int(rest or 20)
            if n < len(log):
                self.out(f"  [dim]... {len(log) - n} earlier line(s): log all shows them[/dim]")
            for e in log[len(log) - min(n, len(log)):]:
                self.out("  " + escape(e.get("text", "")))
        elif text == "view":  # the ruleset's summary, then the whole picture
            view = d.view() or {}
            for line in view.get("summary") or ():
                self.out("  " + escape(line))
            self._view(view, d.player)
        elif word == "save" and rest:
            if self.table.save is None:
                self.out("  [red]saving is not possible here[/red]")
            else:
                self.out(f"  {escape(self.table.save(rest))}")
        elif text in ("quit", "exit"):
            self.table.left = "quit"
            raise Leave()
        elif not text:
            self.out("  an option's number or label, or ? for help")
        else:
            return text
        return None

    def _option(self, text: str, labels: list[str], shown: list[str] | None = None) -> int | None:
        i: int | None
        if text.isdigit():
            i = int(text)
            if 1 <= i <= len(labels):
                return i - 1
            self.out(f"  [red]no option {i}[/red]: 1 to {len(labels)} (? for help)")
            return None
        shown = labels if shown is None else shown
        i, starts = match(text, labels, shown)
        if i is not None:
            return i
        if starts:
            self.out(f"  [red]{escape(text)!s} starts {len(starts)} options[/red]: "
                     + escape(", ".join(shown[i] for i in starts[:6])) + " (type more)")
        else:
            self.out(f"  [red]no option {escape(text)}[/red] (a number 1 to {len(labels)}, "
                     "a label, or ? for help)")
        return None


_NUMBERS = re.compile(r"\d+(?:[\s,]+\d+)*")


def _by_numbers(text: str, groups: int) -> list[int]:
    """Counts per group from the groups' numbers (1-based; a number given
    twice counts twice)."""
    counts = [0] * groups
    for n in re.findall(r"\d+", text):
        k = int(n)
        if not 1 <= k <= groups:
            raise RuleError(f"no group {k}: 1 to {groups}")
        counts[k - 1] += 1
    return counts


def _words(name: str) -> str:
    return name.replace("_", " ")


def _side_text(s, names=None) -> str:
    names = names or {}
    parts = [f"{_words(k)} {_short(v, names)}" for k, v in s.get("variables", {}).items()
             if v not in (None, 0, False)]
    parts += [counted(n, names.get(p, _words(p))) for p, n in s.get("supply", {}).items() if n]
    parts += [f"{_words(n)} {_zone_text(z, names)}" for n, z in s.get("zones", {}).items()
              if z and z != {"count": 0}]
    return ", ".join(parts) or "nothing yet"


def _space_text(sp, names=None) -> str:
    names = names or {}
    parts = []
    for k, v in sp.items():
        if isinstance(v, dict) and "count" not in v and v:  # pieces by side
            parts.append(f"{_words(names.get(k, k))} "
                         + ", ".join(f"{names.get(s, s)} {n}" for s, n in v.items()))
        elif isinstance(v, (list, dict)) and v and v != {"count": 0}:
            parts.append(f"{_words(k)} {_zone_text(v, names)}")
    return ", ".join(parts)


def _zone_text(z, names=None) -> str:
    if isinstance(z, dict):  # hidden from this seat: how many, and what it was shown
        known = z.get("known")
        return f"({z.get('count', 0)} hidden" + (f", {len(known)} known to you" if known else "") \
            + ")"
    return "[" + ", ".join(_comp_text(c, names) for c in z) + "]"


def _comp_text(c, names=None) -> str:
    """A component by its name (or id), with its value when it has one (a
    die's face, a card's number)."""
    text = str((names or {}).get(c["id"]) or c.get("name") or c["id"])
    value = c.get("value")
    return f"{text} (value {value})" if value is not None and "value" in c else text


def _short(v, names=None) -> str:
    if isinstance(v, dict) and "hidden" in v:
        return "(hidden)"
    if isinstance(v, list):
        return "[" + ", ".join(_short(x, names) for x in v) + "]"
    if isinstance(v, str) and names:
        return names.get(v, v)
    return str(v)
