"""The game's log: one line per event, each saying who may read it.

An entry is {"round", "phase", "text", "see"} plus what the event adds. `see`
is "all" or the ids of the seats that may read `text`; the other readers get
`others` — what the table saw ("a card") — or nothing (views.entry_for).
Secrets are decided here, from zone visibility alone: a component nobody else
may see is named only to those who may, before and after it moves.
"""
from __future__ import annotations

from .limits import MAX_LOG
from .state import Comp, RuleError, Side, display
from .views import hidden_comps, knowers, shown, viewers


_ALL = object()  # a log line for everyone


class GameLog:
    """The log-writing half of engine.Game (a mixin: it uses the game's round,
    phase and log, and is used by its decisions and effects)."""

    def say(self, text, see="all", others=None, **extra):
        """Log one event. `see` is "all" or the ids of the seats that may read
        `text`; everyone else reads `others` (or nothing) — see views.log_for."""
        if len(self.log) >= MAX_LOG:
            raise RuleError(f"the log passed {MAX_LOG:,} lines (a 'log' in a loop without end?)")
        entry = {"round": self.round, "phase": self.phase, "text": text, "see": see}
        if others is not None:
            entry["others"] = others
        entry.update(extra)
        self.log.append(entry)

    def say_secret(self, text, seers, others, **extra):
        """Log an event some seats may not see: public when everyone may."""
        if seers is None:
            self.say(text, **extra)
        else:
            self.say(text, sorted(seers), others, **extra)

    def log_parts(self, parts, to=_ALL):
        """`log "...{x}..."`: a component some seat may not see is shown to it
        as 'a <kind>' (parts alternate literal text and values). With `to`
        (`log ... to SIDES`), only those sides read the line at all."""
        hidden = [c for v in parts[1::2] for c in hidden_comps(v)]  # lists of them too
        text = "".join(p if i % 2 == 0 else display(p) for i, p in enumerate(parts))
        readers = None
        if to is not _ALL:
            sides = [to] if isinstance(to, Side) else to
            if not isinstance(sides, list) or any(not isinstance(x, Side) for x in sides):
                raise RuleError(f"a log line is for sides, not {display(to)}")
            readers = {x.id for x in sides}
        if not hidden:
            self.say(text) if readers is None else self.say(text, sorted(readers))
            return
        seers = set.intersection(*(set(knowers(c)) for c in hidden))
        hide = set(hidden)
        shown_text = "".join(p if i % 2 == 0 else shown(p, hide) for i, p in enumerate(parts))
        if readers is None:
            self.say(text, sorted(seers), shown_text)
            return
        # only the readers read it: those who may see the components as it is
        if readers & seers:
            self.say(text, sorted(readers & seers))
        if readers - seers:
            self.say(shown_text, sorted(readers - seers))

    def say_at(self, template, *places, **extra):
        """A line about pieces at places (spaces or components): a component
        lying where some seat may not see it is 'a <kind>' to those seats.
        `template` has {0}, {1}... for the places' names."""
        hidden = [p for p in places if type(p) is Comp and viewers(p.zone) is not None]
        text = template.format(*(p.id for p in places))
        if not hidden:
            self.say(text, **extra)
            return
        seers = set.intersection(*(set(knowers(c)) for c in hidden))
        shown = template.format(*(f"a {p.kind}" if p in hidden else p.id for p in places))
        self.say(text, sorted(seers), shown, **extra)

    _held = ()  # `choose each`: the answers' lines, kept until all have answered
    _held_at = ()  # ... and where its answers start among the decisions being carried out

    def hold_choices(self):
        self._held = (*self._held, [])
        self._held_at = (*self._held_at, len(self._deciding))

    def release_choices(self):
        *rest, lines = self._held
        self._held = tuple(rest)
        *more, at = self._held_at
        self._held_at = tuple(more)
        # the answers' rules run in the order asked, and each then takes the
        # last decision still open (a scenario checkpoint): so last asked, first
        self._deciding[at:] = self._deciding[at:][::-1]
        for args, extra in lines:
            self._log_choice(*args, **extra)

    def _log_choice(self, player, name, opt, shown, **extra):
        """A decision's line. When the option taken is made of components some
        seat may not see (a card from a hand), those seats read only what the
        table saw — the same words whether the play was forced or chosen."""
        if self._held:
            self._held[-1].append(((player, name, opt, shown), extra))
            return
        values = opt[1:] if type(opt) is tuple else ()
        hidden = [v for v in values if type(v) is Comp and viewers(v.zone) is not None]
        who = f"{player.id} (bot)" if extra.get("bot") else player.id
        text = f"{who} {name}: {shown}"
        if not hidden:
            self.say(text, decision=name, player=player.id, **extra)
            return
        seers = {player.id}.union(*(knowers(c) for c in hidden))
        self.say(text, sorted(seers), f"{who} {name}: {count_of(hidden)}",
                 decision=name, player=player.id, **extra)

    def _log_reveal(self, comp, sides):
        """`reveal`: the component is named to those shown it (and to those
        who could see it anyway); the others read that something was shown."""
        names = ", ".join(s.id for s in sides)
        where = comp.zone.id if comp.zone is not None else "nowhere"
        text = f"{names} {'sees' if len(sides) == 1 else 'see'} {comp.id} ({where})"
        seers = knowers(comp)
        if seers is None:
            self.say(text)
        else:
            self.say(text, sorted(seers), f"{names} {'sees' if len(sides) == 1 else 'see'} "
                     f"a {comp.kind} ({where})")

    def _log_moves(self, moved, dest):
        """One line per source zone. A component that nobody may see both before
        and after the move shows as 'a card' to those who may not, and the
        lines go in zone order, never in an order that depends on identity."""
        groups = {}
        for c, src in moved:
            groups.setdefault(src, []).append(c)
        order = sorted(groups, key=lambda z: "" if z is None else z.id) \
            if len(groups) > 1 else groups
        for src in order:
            comps = groups[src]
            where = f"{src.id if src is not None else 'nowhere'} -> {dest.id}"
            text = f"{', '.join(c.id for c in comps)}: {where}"
            a, b = viewers(src) if src is not None else set(), viewers(dest)
            if a is None or b is None:  # it was or is face up: everyone knows it
                self.say(text)
            else:
                self.say(text, sorted(a | b), f"{count_of(comps)}: {where}")

    def _log_roll(self, dice):
        """One sentence per zone rolled, subject first: "red rolls 4 and 2"
        (whose turn it is, or whose zone), else "cup shows 4 and 2". Faces of
        dice in a zone some seat may not see reach only those who may; the
        others read how many dice were rolled."""
        by_zone = {}
        for d in dice:
            by_zone.setdefault(d.zone, []).append(d)
        for z in sorted(by_zone, key=lambda z: "" if z is None else z.id):
            group = by_zone[z]
            faces = and_list([str(d.u_value) for d in group])
            who = self.current if self.current is not None else \
                z.holder if z is not None else None
            text = f"{who.id} rolls {faces}" if who is not None else \
                f"{z.id if z is not None else 'the dice'} shows {faces}"
            seers = viewers(z) if z is not None else None
            others = None if seers is None else \
                f"{who.id + ' rolls' if who is not None else 'rolled:'} " \
                f"{count_of(group, 'die', 'dice')} in {z.id}"
            self.say_secret(text, seers, others)


def and_list(words: list) -> str:
    """'4', '4 and 2', '4, 2 and 6'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def count_of(comps, one=None, many=None) -> str:
    """What the table sees of hidden components: 'a card', '3 cards', 'a card
    and 2 tokens' (kinds in a fixed order, never the components' order)."""
    kinds = {}
    for c in comps:
        kinds[c.kind] = kinds.get(c.kind, 0) + 1
    parts = []
    for kind in sorted(kinds):
        n = kinds[kind]
        name = one or kind
        parts.append(f"a {name}" if n == 1 else f"{n} {many or name + 's'}")
    return " and ".join(parts)
