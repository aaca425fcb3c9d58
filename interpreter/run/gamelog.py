"""The game's log: one line per event, each saying who may read it.

An entry is {"round", "phase", "text", "see"} plus what the event adds. `see`
is "all" or the ids of the seats that may read `text`; the other readers get
`others` — what the table saw ("a card") — or nothing (views.entry_for).
Secrets are decided here, from zone visibility alone: a component nobody else
may see is named only to those who may, before and after it moves.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence, cast

from ..model.logwords import Words, and_list, count_of
from ..model.state import Comp, RuleError, Side, Zone, display
from ..model.views import (
    Secret,
    Sourced,
    hidden_comps,
    hidden_knowers,
    knowers,
    plain,
    shown,
    viewers,
)
from ..support.diagnostics import Diagnostic
from ..support.limits import MAX_LOG, MAX_LOG_CHARS, MAX_LOG_LINE
from .failures import friendly as _friendly
from .gamestate import GameState, Say

_ALL = object()  # a log line for everyone


# ------------------------------------------------------------ events as data
# Beside its words, each entry carries `event`: what happened as data
# (schemas/log.schema.json), and, when some seats may not see all of it,
# `others_event`: the same event as those seats may know it (a component
# they may not see is only its kind, counted: never its id).
def item(words: Words, c: Comp) -> dict:
    """A component in an event: its id, kind and (when it has one of its
    own) name."""
    out = {"id": c.id, "kind": c.kind}
    name = words.names.get(c.id)
    if name is not None and name != c.id:
        out["name"] = name
    return out


def counts(comps: Iterable[Comp]) -> list[dict]:
    """Components as a reader who may not see them knows them: how many of
    each kind, in a fixed order."""
    kinds: dict = {}
    for c in comps:
        kinds[c.kind] = kinds.get(c.kind, 0) + 1
    return [{"kind": k, "count": kinds[k]} for k in sorted(kinds)]


def place_ref(p: Any, hidden: bool = False) -> dict:
    """Where pieces are: a space or a component (a component some reader
    may not see: its kind only)."""
    if type(p) is Comp:
        return {"kind": p.kind} if hidden else {"component": p.id, "kind": p.kind}
    if type(p) is Zone:
        return {"zone": p.id}
    return {"space": getattr(p, "id", str(p))}


def public_place(p: Any) -> dict:
    """place_ref for a line everyone reads: a component lying where some
    seat may not see it is only its kind."""
    return place_ref(p, type(p) is Comp and viewers(p.zone) is not None)


def cut_line(text: str) -> str:
    """A log line of at most MAX_LOG_LINE characters (one line may join many
    values, each already cut at MAX_TEXT), a longer one cut and marked."""
    return text if len(text) <= MAX_LOG_LINE else text[:MAX_LOG_LINE] + "..."


class GameLog(GameState):
    """The log-writing half of engine.Game (a mixin: it uses the game's round,
    phase and log, and is used by its decisions and effects)."""

    log_chars = 0  # characters logged so far, against MAX_LOG_CHARS

    def say(self, text: str, see: str | list[str] = "all", others: str | None = None,
            **extra: Any) -> None:
        """Log one event. `see` is "all" or the ids of the seats that may read
        `text`; everyone else reads `others` (or nothing) — see views.log_for."""
        if len(self.log) >= MAX_LOG:
            raise RuleError(f"the log passed {MAX_LOG:,} lines (a 'log' in a loop without end?)")
        text = cut_line(text)
        if others is not None:
            others = cut_line(others)
        self.log_chars += len(text) + len(others or "")
        if self.log_chars > MAX_LOG_CHARS:
            raise RuleError(f"the log passed {MAX_LOG_CHARS:,} characters (long lines "
                            "'log'ged in a loop?)")
        entry: dict[str, Any] = {"round": self.round, "phase": self.phase, "text": text,
                                 "see": see}
        if others is not None:
            entry["others"] = others
        elif "others_event" in extra:  # nobody reads another text: nor other data
            del extra["others_event"]
        if extra.get("others_event", 0) is None:
            del extra["others_event"]
        entry.update(extra)
        self.log.append(entry)

    def say_secret(self, text: str, seers: set[str] | None, others: str | None,
                   others_event: dict | None = None, **extra: Any) -> None:
        """Log an event some seats may not see: public when everyone may
        (`others_event`: the event's data as the others know it)."""
        if seers is None:
            self.say(text, **extra)
        else:
            if others is not None and others_event is not None:
                extra["others_event"] = others_event
            self.say(text, sorted(seers), others, **extra)

    log_failures: tuple[Diagnostic, ...] = ()  # diagnostics of log texts that failed (text_of)

    def log_text(self, make: Callable[[], list | None], to: Any = _ALL) -> None:
        """`log`: the line's parts made by `make`, written as log_parts writes
        them (text_of: a text that fails is a note, never a failed game)."""
        parts = self.text_of(make)
        if parts is not None:
            self.log_parts(parts, to)

    def text_of(self, make: Callable[..., Any], *args: Any) -> Any:
        """The parts a log text makes. A log text is made only when a log is
        kept, so making one may neither spend steps nor end the game: the
        same game played quietly (simulate) never made it. One that fails
        makes no line but a located note for the designer alone (its message
        may hold what a seat may not see), and the game goes on."""
        fuel = self.fuel
        try:
            return make(*args)
        except Exception as e:  # whatever the text did, the designer gets a location
            d = self._runtime_error(str(e) if isinstance(e, RuleError) else
                                    _friendly(e)).diagnostics[0]
            self.log_failures = (*self.log_failures, d)
            self.say(f"(a log text failed at {d.path}:{d.line}: {d.message})", [],
                     event={"kind": "note"})
            return None
        finally:
            self.fuel = fuel

    def log_parts(self, parts: Sequence, to: Any = _ALL) -> None:
        """`log "...{x}..."`: a component some seat may not see is shown to it
        as 'a <kind>' (parts alternate literal text and values). With `to`
        (`log ... to SIDES`), only those sides read the line at all."""
        hidden = [c for v in parts[1::2] for c in hidden_comps(v)]  # lists of them too
        say = self.program.words.text
        text = "".join(p if i % 2 == 0 else say(plain(p)) for i, p in enumerate(parts))
        if not text:
            return  # nothing to say (a text that failed: text_of noted it)
        readers = None
        if to is not _ALL:
            sides = [to] if isinstance(to, Side) else to
            if not isinstance(sides, list) or any(not isinstance(x, Side) for x in sides):
                raise RuleError(f"a log line is for sides, not {display(to)}")
            readers = {x.id for x in sides}
        event = {"kind": "log"}
        if not hidden:
            self.say(text, event=event) if readers is None else \
                self.say(text, sorted(readers), event=event)
            return
        seers = set.intersection(*(set(hidden_knowers(c)) for c in hidden))
        hide = set(hidden)
        shown_text = "".join(p if i % 2 == 0 else shown(p, hide, say, ", ")
                             for i, p in enumerate(parts))
        if readers is None:
            self.say(text, sorted(seers), shown_text, event=event, others_event=event)
            return
        # only the readers read it: those who may see the components as it is
        if readers & seers:
            self.say(text, sorted(readers & seers), event=event)
        if readers - seers:
            self.say(shown_text, sorted(readers - seers), event=event)

    _picked: dict[Comp, frozenset[str]] = {}  # component -> readers: what the last secret
    # decision(s) hid

    def sourced(self, value: Any, comps: Iterable[Any], field: str | None) -> Any:
        """A value a log text or prompt read from the fields of `comps`: as
        secret as the decision that picked one of them still hidden (its name
        is what the decision hid); else the value itself, for all to read."""
        picked = self._picked
        readers = None
        hidden = []
        for c in comps:
            seers = picked.get(c) if type(c) is Comp else None
            if seers is not None and viewers(c.zone) is not None:
                seers = seers | hidden_knowers(c)  # and those shown it since (reveal)
                readers = seers if readers is None else readers & seers
                hidden.append(c)
        return value if readers is None else Sourced(value, hidden, readers, field)

    def ident(self, x: Any) -> Any:
        """`x.id` shown in a text: a component's id is the component, so the
        id of one lying where some seat may not see it is as secret as the
        component itself (views.Sourced, read as 'a <kind>')."""
        if type(x) is not Comp:
            return self.attr(x, "id")
        if viewers(x.zone) is None:
            return x.id
        return Sourced(x.id, [x], hidden_knowers(x), "id")

    def say_at(self, template: Sequence[str | int], *places: Any, **extra: Any) -> None:
        """A line about pieces at places (spaces or components): a component
        lying where some seat may not see it is 'a <kind>' to those seats.
        `template` is a sequence of texts and place numbers (0, 1 ...): the
        texts carry rule-written names, so they are joined as they are and
        never read as a Python format string."""
        words = self.program.words
        hidden = [p for p in places if type(p) is Comp and viewers(p.zone) is not None]
        text = _fill(template, [words.place(p) for p in places])
        event = extra.pop("event", None)
        if event is not None:  # the places, as {at} or {from, to}
            keys = ("at",) if len(places) == 1 else ("from", "to")
            extra["event"] = {**event, **{k: place_ref(p) for k, p in zip(keys, places)}}
        if not hidden:
            self.say(text, **extra)
            return
        seers = set.intersection(*(set(hidden_knowers(c)) for c in hidden))
        shown = _fill(template, [f"a {p.kind}" if p in hidden else words.place(p)
                                 for p in places])
        if event is not None:
            extra["others_event"] = {**event, **{k: place_ref(p, p in hidden)
                                                 for k, p in zip(keys, places)}}
        self.say(text, sorted(seers), shown, **extra)

    def say_event(self, say: Say, subject: Any, seers: set[str] | None, others: str | None,
                  **extra: Any) -> bool:
        """An event's own line (a statement's `log` clause): `say(subject)`
        gives its parts, text and values alternating. Those who may not see the
        event (`seers`, None for everyone) read the engine's own words
        `others`; a component in the line that a reader may not see reads as
        'a <kind>', as in `log`. False when the line failed (text_of): the
        caller writes the engine's own line instead."""
        parts = self.text_of(say, subject)
        if parts is None:
            return False
        hidden = [c for v in parts[1::2] for c in hidden_comps(v)]
        words = self.program.words.text
        text = "".join(p if i % 2 == 0 else words(plain(p)) for i, p in enumerate(parts))
        if not text:  # `log ""`: another line tells this event; a decision keeps its own
            return "decision" not in extra
        if hidden:
            know = set.intersection(*(set(hidden_knowers(c)) for c in hidden))
            if seers is None:  # a public event told in words that name a secret
                hide = set(hidden)
                if "event" in extra:
                    extra["others_event"] = extra["event"]
                self.say(text, sorted(know), "".join(
                    p if i % 2 == 0 else shown(p, hide, words, ", ")
                    for i, p in enumerate(parts)), **extra)
                return True
            seers = seers & know
        self.say_secret(text, seers, others, **extra)
        return True

    _releasing = False
    # `choose each`: the answers' lines, kept until all have answered ...
    _held: tuple[list[tuple[tuple, dict]], ...] = ()
    # ... and where its answers start among the decisions being carried out
    _held_at: tuple[int, ...] = ()

    def hold_choices(self) -> None:
        self._held = (*self._held, [])
        self._held_at = (*self._held_at, len(self._deciding))

    def release_choices(self) -> None:
        *rest, lines = self._held
        self._held = tuple(rest)
        *more, at = self._held_at
        self._held_at = tuple(more)
        # the answers' rules run in the order asked, and each then takes the
        # last decision still open (a scenario checkpoint): so last asked, first
        self._deciding[at:] = self._deciding[at:][::-1]
        self._picked, self._releasing = {}, True
        try:
            for args, extra in lines:
                self._log_choice(*args, **extra)
        finally:
            self._releasing = False

    def _log_choice(self, player: Side, name: str, opt: Any, label: Any,
                    note: str | None = None, say: Say | None = None, **extra: Any) -> None:
        """A decision's line: "green chooses move (action)", or the decision's
        own `log` line. When the option taken is made of components some seat
        may not see (a card from a hand), those seats read only what the table
        saw: the same words whether the play was forced or chosen."""
        if self._held:
            self._held[-1].append(((player, name, opt, label, note, say), extra))
            return
        values = opt[1:] if type(opt) is tuple else ()
        # an option's values may be lists of components (a pair to discard): the
        # components inside count as the option's own, at any depth
        hidden = [c for v in values for c in hidden_comps(v)]
        comps = hidden
        if type(label) is Secret:  # a label built from what some seat may not see
            hidden = hidden + [label]
        who = f"{player.id} (bot)" if extra.get("bot") else player.id
        notes = [x for x in (None if name.startswith("choice@") else name, note) if x]
        tail = f" ({', '.join(notes)})" if notes else ""
        text = f"{who} chooses {label}{tail}"
        # the chooser, and those who know every hidden component the option holds
        seers = None if not hidden else \
            {player.id} | set.intersection(*(set(hidden_knowers(c)) for c in comps)) if comps \
            else set(label.readers)
        if type(label) is Secret:  # (not read by a chooser it hides from: a person reads 'a card')
            assert seers is not None  # (the label is hidden)
            seers &= label.readers
        # the table reads neither the note (forced, or how a bot ranked) nor the count
        public = "" if name.startswith("choice@") else f" ({name})"
        others = None if not hidden else \
            f"{who} chooses {count_of(comps) if comps else label.others}{public}"
        event: dict[str, Any] = {"kind": "decision", "player": player.id, "decision": name,
                                 "choice": label}
        items = [v for v in values if type(v) is Comp]
        if items:
            event["items"] = [item(self.program.words, c) for c in items]
        for k in ("options", "forced", "bot"):
            if k in extra:
                event[k] = extra[k]
        secret: dict[str, Any] | None = None if not hidden else {
            "kind": "decision", "player": player.id, "decision": name, "items": counts(comps)}
        if extra.get("bot"):
            secret = secret and {**secret, "bot": True}
        extra = dict(extra, event=event, others_event=secret)
        # what this decision hid, for the texts that read it (sourced); answers
        # given together (choose each) are one group
        self._picked = {} if not self._releasing else dict(self._picked)
        for c in comps:  # (the option hides comps: seers is a set)
            self._picked[c] = frozenset(cast("set[str]", seers))
        if say is None or not self.say_event(say, label, seers, others, decision=name,
                                             player=player.id, **extra):
            self.say_secret(text, seers, others, decision=name, player=player.id, **extra)

    def _log_attach(self, comp: Comp, host: Comp, on: bool) -> None:
        """`attach` / `detach`: "c2 is attached to c1"; a component some
        seat may not see reads to it as 'a card'."""
        words = self.program.words
        verb = "is attached to" if on else "comes off"
        kc, kh = knowers(comp), knowers(host)
        text = f"{words.comp(comp)} {verb} {words.comp(host)}"
        kind = "attach" if on else "detach"
        event = {"kind": kind, "item": item(words, comp), "host": item(words, host)}
        if kc is None and kh is None:
            self.say(text, event=event)
            return
        seers = kc if kh is None else kh if kc is None else kc & kh
        others = (f"{words.comp(comp) if kc is None else count_of([comp])} {verb} "
                  f"{words.comp(host) if kh is None else count_of([host])}")
        self.say_secret(text, seers, others, event=event, others_event={
            "kind": kind, "item": item(words, comp) if kc is None else counts([comp]),
            "host": item(words, host) if kh is None else counts([host])})

    def _log_reveal(self, comp: Comp, sides: list[Side]) -> None:
        """`reveal`: the component is named to those shown it (and to those
        who could see it anyway); the others read that something was shown."""
        words = self.program.words
        names = and_list([s.id for s in sides])
        verb = "sees" if len(sides) == 1 else "see"
        where = words.zone(comp.zone)
        event = {"kind": "reveal", "to": [s.id for s in sides], "zone": comp.zone.id
                 if comp.zone is not None else None}
        self.say_secret(f"{names} {verb} {words.comp(comp)} in {where}", knowers(comp),
                        f"{names} {verb} {count_of([comp])} in {where}",
                        event={**event, "items": [item(words, comp)]},
                        others_event={**event, "items": counts([comp])})

    def _log_moves(self, moved: list[tuple[Comp, Zone | None]], dest: Zone,
                   top: bool = True, say: Say | None = None, subject: Any = None) -> None:
        """One sentence per source zone: "Old Coin goes from market to
        amber's tableau". Components nobody else may see, before and after,
        read as 'a card' to those who may not; the lines go in zone order,
        never in an order that depends on identity. A move within one zone
        is said only for a deck (its order is what changed)."""
        words = self.program.words
        groups: dict[Zone | None, list[Comp]] = {}
        for c, src in moved:
            groups.setdefault(src, []).append(c)
        order = sorted(groups, key=lambda z: "" if z is None else z.id) \
            if len(groups) > 1 else groups
        lines = []  # (text, seers, others) per source zone
        for src in order:
            comps = groups[src]
            a, b = viewers(src) if src is not None else set(), viewers(dest)
            seers = None if a is None or b is None else a | b  # face up: everyone knows
            if src is dest:
                if dest.kind != "deck":
                    continue
                where = f"to the {'top' if top else 'bottom'} of {words.zone(dest)}"
            else:
                where = (f"from {words.zone(src)} " if src is not None else "") + \
                    f"to {words.zone(dest)}"
            what, n = words.comps(comps)
            verb = "goes" if n == 1 else "go"
            others = None if seers is None else \
                f"{count_of(comps)} {'goes' if len(comps) == 1 else 'go'} {where}"
            part = {"from": src.id if src is not None else None}
            shown_part = {**part, "items": [item(words, c) for c in comps]}
            secret_part = {**part, "items": counts(comps)} if seers is not None else shown_part
            lines.append((f"{what} {verb} {where}", seers, others, shown_part, secret_part,
                          len(comps)))
        head = {"kind": "move", "to": dest.id}
        if dest in groups:  # a deck put in order
            head["position"] = "top" if top else "bottom"

        def event(ls, k):  # the move's data: per source zone, what went
            return {**head, "moves": [x[k] for x in ls], "count": sum(x[5] for x in ls)}

        def say_line(line: tuple[str, set[str] | None, str | None, dict, dict, int]) -> None:
            self.say_secret(*line[:3], event=event([line], 3), others_event=event([line], 4))
        if say is None:
            for line in lines:
                say_line(line)
        elif lines:  # the rule's one line, read by those who see every part of the move
            hidden = [x[1] for x in lines if x[1] is not None]
            seers = set.intersection(*hidden) if hidden else None
            others = "; ".join(x[2] if x[2] is not None else x[0] for x in lines)
            if not self.say_event(say, subject, seers, others if hidden else None,
                                  event=event(lines, 3), others_event=event(lines, 4)):
                for line in lines:
                    say_line(line)

    def _log_draw(self, drawn: list[Comp], src: Zone, dst: Zone, say: Say | None = None,
                  subject: Any = None) -> None:
        """`draw`: one sentence for all the cards drawn, "boss3 draws Informant
        from street life" (whose zone they go to), else "2 cards are drawn
        from jobs deck to market"."""
        if not drawn:
            return
        words = self.program.words
        a, b = viewers(src), viewers(dst)
        seers = None if a is None or b is None else a | b
        what, n = words.comps(drawn)
        hid = count_of(drawn)
        if dst.holder is not None:
            head, tail = f"{dst.holder.id} draws ", f" from {words.zone(src, dst.holder)}"
            text, others = head + what + tail, head + hid + tail
        else:
            tail = f" from {words.zone(src)} to {words.zone(dst)}"
            text = f"{what} {'is' if n == 1 else 'are'} drawn{tail}"
            others = f"{hid} {'is' if n == 1 else 'are'} drawn{tail}"
        event = {"kind": "draw", "player": dst.holder.id if dst.holder is not None else None,
                 "from": src.id, "to": dst.id, "count": len(drawn)}
        data = {"event": {**event, "items": [item(words, c) for c in drawn]},
                "others_event": {**event, "items": counts(drawn)}}
        if say is None or not self.say_event(say, subject, seers,
                                             others if seers is not None else None, **data):
            self.say_secret(text, seers, others, **data)

    def _log_roll(self, dice: Sequence[Comp], say: Say | None = None,
                  subject: Any = None) -> None:
        """One sentence per zone rolled, subject first: "red rolls 4 and 2"
        (whose turn it is, or whose zone), else "cup shows 4 and 2". Faces of
        dice in a zone some seat may not see reach only those who may; the
        others read how many dice were rolled. A rule's own line (`say`) tells
        the whole roll, so it is read only by those who see every zone rolled."""
        words = self.program.words
        by_zone: dict[Zone | None, list[Comp]] = {}
        for d in dice:
            by_zone.setdefault(d.zone, []).append(d)
        lines = []  # (text, seers, others, event, dice) per zone
        for z in sorted(by_zone, key=lambda z: "" if z is None else z.id):
            group = by_zone[z]
            faces = and_list([str(d.u_value) for d in group])
            who = self.current if self.current is not None else \
                z.holder if z is not None else None
            text = f"{who.id} rolls {faces}" if who is not None else \
                f"{words.zone(z) if z is not None else 'the dice'} shows {faces}"
            seers = viewers(z) if z is not None else None
            others = None if seers is None else \
                f"{who.id + ' rolls' if who is not None else 'rolled:'} " \
                f"{count_of(group, 'die', 'dice')} in {words.zone(z)}"
            event = {"kind": "roll", "player": who.id if who is not None else None,
                     "zone": z.id if z is not None else None, "count": len(group)}
            lines.append((text, seers, others, event,
                          [{"id": d.id, "value": d.u_value} for d in group]))
        if say is not None and lines:
            hidden = [x[1] for x in lines if x[1] is not None]
            seers = set.intersection(*hidden) if hidden else None
            others = "; ".join(x[2] if x[2] is not None else x[0] for x in lines) \
                if hidden else None
            event = dict(lines[0][3], count=len(dice))
            if len(lines) > 1:  # zones told apart only by the dice's own ids
                event["zone"] = None
            data = {"event": {**event, "dice": [d for x in lines for d in x[4]]},
                    "others_event": event}
            if self.say_event(say, subject, seers, others, **data):
                return  # the rule's line says the whole roll
        for text, seers, others, event, shown_dice in lines:
            self.say_secret(text, seers, others, event={**event, "dice": shown_dice},
                            others_event=event)


def _fill(template: Sequence[str | int], names: list[str]) -> str:
    """A say_at line: its texts as written, each place number replaced by that
    place's name."""
    return "".join(names[t] if isinstance(t, int) else t for t in template)
