"""Programs (compiled rulesets) and games (one playthrough of a program).

A Game holds all state, including its seeded RNG; it asks agents for every
decision and records them, so ruleset + options + seed + choices replays the
same game byte for byte.
"""
from __future__ import annotations

import dataclasses
import gc
import random
import sys
import time
from bisect import bisect_right, insort
from collections import OrderedDict
from pathlib import Path

from ..language import ast as A
from .agents import RandomAgent
from .builtins import RULES_FILE, RuleError, items, kind_of, namespace
from ..compile.compiler import compile_ruleset
from ..support.diagnostics import Diagnostic, DiagnosticError, collapse, waste
from ..support.diskcache import cached, compiled_code
from ..support.limits import DEFAULT_STEPS, MAX_SECONDS, STEP_CHUNK
from ..load.ruleset import Ruleset, fingerprint, load_ruleset
from .decisions import Decisions
from .failures import friendly as _friendly, rule_at, with_subject
from ..model.views import Secret, entry_for, hidden_comps, scores_seen, sees, shown
from ..model.logwords import Words
from .gamelog import GameLog, public_place
from .newgame import builder
from ..load.yamlio import plain
from ..model.state import (Comp, FrozenList, PieceRow, Side, Space, Table, ZeroRow, Zone, display,
                    py_name, to_table)

NOMATCH = object()
# built-in fields of sides, spaces and components (not stored under u_<name>)
_FIELDS = {Side: frozenset({"id", "name", "index", "is_player", "bot"}),
           Space: frozenset({"id", "index"}),
           Comp: frozenset({"id", "kind", "index", "zone", "holder"})}


def _draws_inline() -> bool:
    """Whether a draw below n written in place (k = n.bit_length(), then
    getrandbits(k) until below n) gives exactly Random._randbelow's numbers,
    as it does in CPython 3.11-3.13: roll() and choose() then skip its call."""
    a, b = random.Random(7), random.Random(7)
    for n in (1, 2, 3, 5, 6, 7, 8, 13, 20, 100, 1000, 1 << 40):
        for _ in range(8):
            k = n.bit_length()
            r = b.getrandbits(k)
            while r >= n:
                r = b.getrandbits(k)
            if a._randbelow(n) != r:
                return False
    return True


DRAWS_INLINE = _draws_inline()


class GameOver(Exception):
    """`win` was reached: the game is decided."""


class EndGame(Exception):
    """`end game`: stop the rounds and go to finish."""


class StopGame(Exception):
    """Raised by a hook (a scenario's stop point): leave the game where it is."""


class Program:
    """A checked and compiled ruleset, from which games are made."""

    def __init__(self, rs: Ruleset, compiled, diags):
        self.rs = rs
        self.compiled = compiled
        self.warnings = [d for d in diags if d.severity != "error"]
        self.linemap = compiled.linemap
        ns = namespace()  # helpers only: no Python builtins reach generated code
        ns["NOMATCH"] = NOMATCH
        try:
            at = compiled.linked_at
            if at:  # the shared part as kept; the scenario's part at its own lines
                code = compiled_code(compiled.source[:at], RULES_FILE)
                tail = compile("\n" * compiled.source.count("\n", 0, at) + compiled.source[at:],
                               RULES_FILE, "exec")
            else:
                code, tail = compiled_code(compiled.source, RULES_FILE), None
        except (SyntaxError, RecursionError, MemoryError, ValueError, OverflowError) as e:
            # the checker keeps nesting below Python's own limits; this is the net
            span = self.span_of(getattr(e, "lineno", 0) or 0)
            raise DiagnosticError(Diagnostic(
                span.path, span.line, span.col, "LIMIT",
                "the rules here are nested too deeply for the engine",
                hint="split the rule into functions")) from None
        exec(code, ns)  # generated from the checked AST, never from rule text
        if tail is not None:
            exec(tail, ns)
        self.ns = ns
        self.phases = [(name, ns[fn]) for name, fn in compiled.phases]
        self.setup = ns[compiled.setup] if compiled.setup else None
        self.finish = ns[compiled.finish] if compiled.finish else None
        self.summary = ns[compiled.summary] if compiled.summary else None
        self.rounds_fn = ns[compiled.rounds_fn] if compiled.rounds_fn else None
        self.rounds_kind = compiled.rounds_kind
        self.handlers = {}
        for event, prio, order, owner, instead, fn in sorted(
                compiled.handlers, key=lambda h: (-h[1], h[2])):
            self.handlers.setdefault(event, []).append((owner, instead, ns[fn]))
        self.abilities = {}
        for window, label, owner, cond, body, _ in compiled.abilities:
            self.abilities.setdefault(window, []).append((label, owner, ns[cond], ns[body]))
        # per component with handlers or abilities, what it adds to while it
        # lies in a live zone: a live count, and its handler's place in the
        # event's order (None for an ability)
        self.fast = compiled.backend == "fast"
        self.hooks = {}  # the reference back end tests each handler as it comes to it
        for event, hs in (self.handlers.items() if self.fast else ()):
            for pos, (owner, _, _) in enumerate(hs):
                if owner is not None:
                    self.hooks.setdefault(owner, []).append((f"ev_{event}", event, pos))
        for window, abs_ in (self.abilities.items() if self.fast else ()):
            for _, owner, _, _ in abs_:
                if owner is not None:
                    self.hooks.setdefault(owner, []).append((f"wn_{window}", None, None))
        self._rows = {}  # side count -> where locations get piece counts (rows)
        self._layouts = {}  # side count -> _Layout
        self.tables = to_table(rs.tables)
        self.template = _Template(rs)
        self.words = self.template.words  # the log's names (logwords)
        # fast: the live places and counts every game starts with (handlers of
        # rule files, and of components that start in a live zone), and the
        # hooks of each component by its place in the game's list
        live = dict(zip((c[0] for c in self.template.comps), self.template.starts_live))
        self.start_live = {ev: [i for i, (o, _, _) in enumerate(hs) if o is None or live[o]]
                           for ev, hs in self.handlers.items()} if self.fast else {}
        self.start_counts = {f"ev_{ev}": len(places) for ev, places in self.start_live.items()}
        if self.fast:
            for window, abs_ in self.abilities.items():
                self.start_counts[f"wn_{window}"] = sum(1 for _, o, _, _ in abs_
                                                        if o is None or live[o])
        place = {c[0]: i for i, c in enumerate(self.template.comps)}
        self.comp_hooks = [(place[cid], counts) for cid, counts in self.hooks.items()]
        # fast: event -> {owning component's id: its handlers' places}, for `on X`
        self.places_of = {}
        for event, hs in (self.handlers.items() if self.fast else ()):
            for pos, (owner, _, _) in enumerate(hs):
                if owner is not None:
                    self.places_of.setdefault(event, {}).setdefault(owner, []).append(pos)
        self.money = [(piece, py_name(piece), value) for piece, value in rs.money]
        self.steps = rs.steps or DEFAULT_STEPS
        # attribute allow-lists for values whose type the checker did not know
        self.readable, self.writable = _allow_lists(rs)
        self.given = set(compiled.given)  # pieces that change hands between sides

    @property
    def name(self):
        return self.rs.id

    def rows(self, nsides):
        """(piece kinds with a count of their own at each space, shared zero
        rows for the others, and the same two per component kind). The fast
        back end gives a location a count only for the piece kinds rules
        ever add there; zero rows never change, so games share them."""
        layout = self._rows.get(nsides)
        if layout is None:
            pieces, stocked = self.template.pieces, self.compiled.stocked

            def split(where):
                own = [(p, a) for p, a in pieces
                       if stocked is None or where & stocked.get(p, set())]
                return own, [(a, ZeroRow(p, nsides)) for p, a in pieces if (p, a) not in own]
            layout = self._rows[nsides] = (split({"space"}), {
                kind: split({"comp", f"comp:{kind}"}) for kind in self.rs.kinds})
        return layout

    def layout(self, nsides):
        """What a new game of nsides sides copies, worked out once: each
        space's and component's fields with its shared zero rows, which
        locations get rows of their own, and where components start."""
        lay = self._layouts.get(nsides)
        if lay is None:
            lay = self._layouts[nsides] = _Layout(self.template, *self.rows(nsides))
            lay.build = builder(self.template, lay, nsides)
        return lay

    def span_of(self, lineno: int) -> A.Span:
        if 0 < lineno <= len(self.linemap):
            return self.linemap[lineno - 1]
        return A.NOWHERE


def _allow_lists(rs: Ruleset):
    """What `x.name` may read and write when the checker could not tell what x
    is: exactly the fields the language documents and the names the ruleset
    declares, per kind of value (components per kind)."""
    pieces = set(rs.pieces)
    side_zones = set(rs.zone_names("side"))
    space_zones = set(rs.zone_names("space"))
    readable = {
        Side: {"id", "name", "index", "is_player", "bot"} | set(rs.side_vars) | side_zones | pieces,
        Space: {"id", "index"} | set(rs.space_attrs) | space_zones | pieces,
        Zone: {"id", "name", "owner", "size", "top", "items"},
        PieceRow: {"total"},
    }
    writable = {Side: set(rs.side_vars), Space: set()}
    for kind, kd in rs.kinds.items():
        readable[kind] = {"id", "kind", "index", "zone", "holder"} | set(kd.attributes) | \
            set(kd.properties) | pieces
        writable[kind] = set(kd.properties)
    return readable, writable


class _Template:
    """What every new game of a program starts from, computed once."""

    def __init__(self, rs: Ruleset):
        self.pieces = [(p, py_name(p)) for p in rs.pieces]
        self.side_vars = {py_name(k): _data(v) for k, v in rs.side_vars.items()}
        self.side_vars.update({py_name(p): int(n) for p, n in rs.pieces.items()})  # supplies
        self.game_vars = {f"v_{k}": _data(v) for k, v in rs.game_vars.items()}
        self.side_zones = [(py_name(n), n, z) for (sc, n), z in rs.zones.items() if sc == "side"]
        self.space_zones = [(py_name(n), n, z) for (sc, n), z in rs.zones.items()
                            if sc == "space"]
        self.game_zones = [(n, z) for (sc, n), z in rs.zones.items() if sc == "game"]
        self.space_ids = [sid for sid, _ in rs.spaces]
        self.space_attrs = [_split(rs.space_attrs, values) for _, values in rs.spaces]
        # each space's and component's fields as one dict, copied into every game
        self.space_fields = [{"id": sid, "index": i, "_links": None, **values}
                             for i, (sid, (values, _)) in enumerate(zip(self.space_ids,
                                                                        self.space_attrs))]
        self.comps = []
        self.comp_fields = []
        for i, cd in enumerate(rs.components):
            kd = rs.kinds[cd.kind]
            plain, refs = _split(kd.attributes, cd.values)
            for name, init in kd.properties.items():
                plain[py_name(name)] = _data(cd.values.get(name, init))
            self.comps.append((cd.id, cd.kind, refs, kd.zone))
            # a die's sides as the bits a roll draws (generated rolls: compiler
            # s_Roll), 0 unless a fixed whole number
            sides = plain.get("u_sides") if "sides" in kd.attributes else None
            bits = sides.bit_length() if type(sides) is int and sides > 0 else 0
            self.comp_fields.append({"id": cd.id, "kind": cd.kind, "index": i, "zone": None,
                                     "_seen": None, "_bits": bits, **plain})
        self.words = Words(  # the log's names for components, zones and pieces
            {cd.id: cd.values["name"] if isinstance(cd.values.get("name"), str)
             else None if cd.copies else cd.id for cd in rs.components},
            {key: zd.title for key, zd in rs.zones.items() if zd.title},
            rs.piece_words)
        self.tracks = [(name, [str(x) for x in ids], bool(loop))
                       for name, (ids, loop) in rs.tracks.items()]
        self.links = [(str(kind), [(str(a), str(b)) for a, b in pairs])
                      for kind, pairs in rs.links.items()]
        # the same by place in the game's lists, so a new game indexes instead
        # of looking up: space and component references, and each space's links
        at = {sid: i for i, sid in enumerate(self.space_ids)}
        self.space_refs = [[(py, kind, at[v] if kind == "space" else [at[x] for x in v])
                            for py, kind, v in refs] for _, refs in self.space_attrs]
        self.comp_refs = [[(py, kind, at[v] if kind == "space" else [at[x] for x in v])
                           for py, kind, v in refs] for _, _, refs, _ in self.comps]
        links = [{} for _ in self.space_ids]
        for kind, pairs in self.links:
            for a, b in pairs:
                links[at[a]].setdefault(kind, []).append(at[b])
                links[at[b]].setdefault(kind, []).append(at[a])
        # each track as places in a game's spaces, and the position on it of
        # each space by its place (shared by every game: builtins.B_step)
        self.track_places = []
        for name, ids, loop in self.tracks:
            places = [at[x] for x in ids]
            pos = {x: i for i, x in enumerate(places)}  # the last, as a track repeats
            self.track_places.append((name, places, loop, pos))
        # each space's linked spaces by kind, as indexes into a game's spaces:
        # shared by every game of the program (builtins.B_linked reads them)
        self.space_links = [{kind: tuple(xs) for kind, xs in d.items()} for d in links]
        game_live = {n: z.live for n, z in self.game_zones}
        # does each component start in a live zone (its handlers and abilities run)?
        self.starts_live = [zname is not None and game_live[zname]
                            for _, _, _, zname in self.comps]


class _Layout:
    """A program's new-game layout for one number of sides (Program.layout)."""

    def __init__(self, tpl, space_rows, rows_of):
        space_own, space_zero = space_rows
        self.space_own = space_own
        self.space_fields = [{**f, **dict(space_zero)} for f in tpl.space_fields]
        self.comp_fields, self.comp_own, self.kinds, self.starts = [], [], {}, {}
        self.comp_refs = [(i, py, kind, v) for i, refs in enumerate(tpl.comp_refs)
                          for py, kind, v in refs]
        for i, (fields, (_, kind, _, zname)) in enumerate(zip(tpl.comp_fields, tpl.comps)):
            own, zero = rows_of[kind]
            self.comp_fields.append({**fields, **dict(zero)})
            if own:
                self.comp_own.append((i, own))
            self.kinds.setdefault(kind, []).append(i)
            if zname is not None:
                self.starts.setdefault(zname, []).append(i)
        self.comp_ids = [cid for cid, _, _, _ in tpl.comps]


def _split(attr_defs, values):
    """Attribute values as (plain python attrs, [(attr, kind, space ids)])."""
    plain, refs = {}, []
    for name, d in attr_defs.items():
        v = values.get(name, d.default)
        if d.type in ("space", "spaces") and v is not None:
            refs.append((py_name(name), d.type, v))
        else:
            plain[py_name(name)] = _data(v)
    return plain, refs


def _data(v):
    """A YAML value as the rules see it: plain Python scalars (not ruamel's
    subclasses), lists and tables frozen (one template serves every game)."""
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return int(v)
    if isinstance(v, str):
        return str(v)
    return to_table(plain(v))


BACKENDS = ("fast", "reference")


def load_program(path, extra=None, variant=None, options=None,
                 backend="fast") -> tuple[Program | None, list[Diagnostic]]:
    """Load, check and compile a ruleset folder — with a variant and the
    overlays its options select — plus extra (scenario) functions, for a
    back end (compiler.Compiler: "fast", or "reference", the plain one the
    fast one is tested against: both play every game the same).

    Without extra, the checked ruleset and its compiled rules are kept as one
    entry, in this run and on disk, against the content of every file the
    loader may read: a run whose files have not changed since the last one
    reads that entry and nothing else.

    With extra (a scenario's functions), the extra code is compiled alone
    and linked onto that kept program, when it runs on the program's code
    unchanged (Compiler.fits); otherwise, and whenever it has errors, the
    ruleset is compiled again with it, as one."""
    if extra:
        linked = _linked(path, extra, variant, options, backend)
        if linked is not None:
            return linked
    stamp = fingerprint(Path(path)) if extra is None else None
    if stamp is None:
        rs, compiled, diags = _checked(path, extra, variant, options, backend)
    else:
        key = (str(Path(path)), variant, tuple(sorted((str(k), str(v)) for k, v in
                                                     (options or {}).items())), stamp, backend)
        hit = _PROGRAMS.get(key)
        if hit is None:
            hit = cached("program", key,
                         lambda: _slim(*_checked(path, None, variant, options, backend)))
            _PROGRAMS[key] = hit
            while len(_PROGRAMS) > _KEEP_PROGRAMS:
                _PROGRAMS.popitem(last=False)
        else:
            _PROGRAMS.move_to_end(key)
        rs, compiled, diags = hit
        diags = list(diags)
    if compiled is None:
        return None, diags
    try:
        return Program(rs, compiled, diags), diags
    except DiagnosticError as e:
        return None, diags + e.diagnostics


def _linked(path, extra, variant, options, backend):
    """(program, diagnostics) of the ruleset's kept program with the extra
    functions linked on, or None when they must be compiled with it."""
    from ..compile.compiler import Compiler

    base, diags = load_program(path, None, variant, options, backend)
    if base is None:
        return None
    rs, rdiags = load_ruleset(Path(path), variant, options)  # with its syntax trees
    if any(d.severity == "error" for d in rdiags):
        return None
    extra_module = A.Module(list(extra))
    c = Compiler(rs, backend)
    lines, spans = c.compile_extra(rs.modules, extra_module, base.compiled)
    if any(d.severity == "error" for d in c.diags) or not c.fits(extra_module, base.compiled):
        return None
    comp = base.compiled
    places = sorted(set(comp.places or ()) | set(c.places([extra_module])))
    decisions = dict(comp.decisions)
    for name, span in c.decisions.items():
        decisions.setdefault(name, span)
    linked = dataclasses.replace(comp, source=comp.source + "\n".join(lines) + "\n",
                                 linemap=list(comp.linemap) + list(spans), decisions=decisions,
                                 places=places, linked_at=len(comp.source))
    diags = list(diags) + c.diags
    try:
        return Program(base.rs, linked, diags), diags
    except DiagnosticError as e:
        return None, diags + e.diagnostics


_PROGRAMS: "OrderedDict[tuple, tuple]" = OrderedDict()  # key -> (Ruleset, Compiled, diags)
_KEEP_PROGRAMS = 24


def _slim(rs, compiled, diags):
    """What a kept program needs of its ruleset: all but the rule texts'
    syntax trees, which are compiled already (a tenth of the size to read
    back; a program with scenario code compiles from the full ruleset)."""
    if compiled is not None:
        rs = dataclasses.replace(rs, modules=[], components=[
            dataclasses.replace(c, rules=None) for c in rs.components])
    return rs, compiled, diags


def _checked(path, extra, variant, options, backend):
    """(ruleset, compiled rules or None when there are errors, diagnostics)."""
    rs, diags = load_ruleset(Path(path), variant, options)
    if any(d.severity == "error" for d in diags):
        return rs, None, diags
    compiled, cdiags = compile_ruleset(rs, extra, backend)
    diags = diags + cdiags
    if compiled is None or any(d.severity == "error" for d in diags):
        return rs, None, diags
    return rs, compiled, diags


def option_problems(rs: Ruleset, given: dict) -> list[Diagnostic]:
    """OPTION diagnostics for options the ruleset does not have or values it
    does not allow."""
    out = []
    for name, value in given.items():
        if name not in rs.options:
            shown = name if len(str(name)) <= 60 else str(name)[:57] + "..."
            out.append(Diagnostic(*rs.where.get("game", (str(rs.path), 1, 1)), "OPTION",
                                  f"unknown option {shown!r}",
                                  hint="options: " + (", ".join(rs.options) or "none")))
            continue
        choices = rs.options[name]["choices"]
        if _coerce(value, choices) not in choices:
            shown = value if len(str(value)) <= 60 else str(value)[:57] + "..."
            out.append(Diagnostic(*rs.options[name]["at"], "OPTION",
                                  f"option {name}={shown!r} is not allowed",
                                  hint="choices: " + ", ".join(str(c) for c in choices)))
    return out


def active_seats(rs: Ruleset, options: dict, players: int | None = None) -> list:
    """The seats that play: chosen by an option with `seats:`, else the first
    `players` seats (default: as many as the game allows); the count leaves
    out the bots, whose seats always play."""
    for name, opt in rs.options.items():
        if opt.get("seats"):
            value = _coerce(options.get(name, opt["default"]), opt["choices"])
            chosen = opt["seats"].get(str(value))
            if chosen is not None:
                return [(sid, n) for sid, n in rs.seats if sid in chosen]
    n = players if players is not None else (rs.default_players or rs.max_players)
    humans = [sid for sid, _ in rs.seats if sid not in rs.bots][:n]
    return [(sid, name) for sid, name in rs.seats if sid in rs.bots or sid in humans]


def with_players(rs: Ruleset, options: dict, players: int | None) -> dict:
    """Apply a player count (`--players N`, a scenario's `players:`): it must be
    one the game allows, and where an option with `seats:` picks the seats it
    becomes that option's value (the option is another name for the count)."""
    if players is None:
        return options
    where = rs.where.get("players") or rs.where.get("game", (str(rs.path), 1, 1))
    if not (isinstance(players, int) and rs.min_players <= players <= rs.max_players):
        raise DiagnosticError(Diagnostic(
            *where, "OPTION", f"{rs.name or rs.id} is played by {rs.min_players}"
            + (f" to {rs.max_players}" if rs.max_players != rs.min_players else "")
            + (" player" if rs.max_players == 1 else " players")
            + (" besides its bots" if rs.bots else "") + f", not {players}"))
    out = dict(options)
    for name, opt in rs.options.items():
        seats = opt.get("seats") or {}
        fits = [c for c in opt["choices"] if len(seats.get(str(c), ())) == players]
        if not seats:
            continue
        if not fits:
            raise DiagnosticError(Diagnostic(*opt["at"], "OPTION", f"no value of option "
                                             f"{name!r} seats {players} players"))
        if name in out and _coerce(out[name], opt["choices"]) not in fits:
            raise DiagnosticError(Diagnostic(
                *opt["at"], "OPTION", f"option {name}={out[name]} does not seat {players} "
                f"players", hint=f"{name}={fits[0]} does"))
        out[name] = fits[0]
    return out


def validate_ruleset(path) -> list[Diagnostic]:
    """Check a ruleset, each of its variants, and each overlay a variant's
    options can select (one at a time, on top of the variant's defaults).
    The findings are kept on disk against the content of the folder's files."""
    stamp = fingerprint(Path(path))
    if stamp is None:
        return _validate(path)
    return list(cached("validate", (str(Path(path)), stamp), lambda: _validate(path)))


def _validate(path) -> list[Diagnostic]:
    return [d for d in _checked_all(path) if not waste(d)]  # waste: rulebook lint's


def _checked_all(path) -> list[Diagnostic]:
    # the reference back end: the same diagnostics as the fast one, sooner
    program, diags = load_program(path, backend="reference")
    found = list(diags)
    if program is None:  # variants build on the base: mend it first
        return collapse(found)
    rs = program.rs
    for variant in rs.variants:
        vrs, vdiags = load_ruleset(Path(path), variant)
        combos = [{}] + [{opt: value} for opt, table in vrs.overlay_map.items()
                         for value in table]
        for combo in combos:
            _, d = load_program(path, variant=variant, options=combo, backend="reference")
            found.extend(d)
    return collapse(found)  # a file every layer reads: its problems once


GC_YOUNG = 5_000  # new containers between two collections of the youngest objects


def tune_gc():
    """Make the collector look at young objects less often. A game makes many
    short-lived containers (options, tuples, lists) and keeps only a few
    hundred, so Python's default (every 700 new containers) mostly scans the
    same game state again: every 5,000 saves about a fiftieth of a random
    game. Called by the command line, and by tools/bench for every version
    it measures, the hand-written one included."""
    young, *older = gc.get_threshold()
    if 0 < young < GC_YOUNG:
        gc.set_threshold(GC_YOUNG, *older)


class Rig:
    """Scenario-rigged randomness: forced die faces and draws, used first."""

    def __init__(self, rolls=None, draws=None):
        self.rolls = list(rolls or [])
        self.draws = {k: list(v) for k, v in (draws or {}).items()}
        self.told = not self.rolls  # "rig exhausted" is logged once, when it happens

    def left(self) -> bool:
        return bool(self.rolls) or any(self.draws.values())


class Game(Decisions, GameLog):
    def __init__(self, program: Program, seed: int = 0, options: dict | None = None,
                 agents=None, logging: bool = False, rig: Rig | None = None,
                 players: int | None = None, steps: int | None = None):
        self.program = program
        rs = program.rs
        self.seed = seed
        self.rng = random.Random(seed)
        self.rig = rig
        self.logging = logging
        self.log: list[dict] = []
        self.score_track: list = []  # (round, scores) after each round, when logging
        self.history: list[tuple] = []
        self.round = 0
        self.phase = None
        self.current = None
        self.winners: list = FrozenList()
        self.finished = False
        self.stopped = False
        self.hooks = None  # scenario checkpoints: hooks(game, when, what)
        self._deciding = []  # (player id, decision) asked and not yet carried out
        self._offer = None  # the "choose some" offer behind the decision being asked
        self.drawn: list = []  # options drawn at random, in the order drawn (saves)
        self.options = Table(self._options(with_players(rs, options or {}, players)))
        self.tables = program.tables
        seats = active_seats(rs, self.options, players)
        nseats = len(seats)
        tpl = program.template
        self.players = [Side(sid, name, i, True) for i, (sid, name) in enumerate(seats)]
        neutral = [Side(sid, name, nseats + i, False) for i, (sid, name) in enumerate(rs.sides)]
        self.sides = FrozenList(self.players + neutral)
        self.players = FrozenList(self.players)
        nsides = len(self.sides)
        for sid, _ in rs.seats:
            setattr(self, f"n_{sid}", None)  # seats not in play this game
        for s in self.sides:
            s.bot = s.id in rs.bots
            setattr(self, f"n_{s.id}", s)
        self.__dict__.update(tpl.game_vars)
        # sides' fields and zones, game zones, spaces, tracks, components
        program.layout(nsides).build(self)
        for piece, per_side in rs.piece_supply.items():
            for s in self.sides:
                if s.id in per_side:
                    setattr(s, py_name(piece), per_side[s.id])
        self._handlers = {}  # event -> [(owner, instead, fn)], made when first fired
        self._abilities = {}  # window -> [(label, owner, cond, body)], likewise
        self._firsts = {}  # (kind, attribute) -> {value: first component} (first_by)
        if program.fast:
            # how many handlers of each event, and abilities of each window, are
            # live (generated code asks before it triggers, collects or opens),
            # and the places of the live handlers of each event, in order: only
            # those are called. Components update both as they move (_relive).
            self.live_at = {ev: places[:] for ev, places in program.start_live.items()}
            self.__dict__.update(program.start_counts)
            comps = self.comps
            for i, counts in program.comp_hooks:
                comps[i]._hooks = counts
            self.trigger, self.collect, self.replace = \
                self._trigger_live, self._collect_live, self._replace_live
        self.agents = list(agents) if agents else []
        # agents that never ask for a view (most): choose() need not build one
        self.viewless = [not getattr(a, "wants_view", False) for a in self.agents]
        # a plain random agent's pick is one draw from its own generator: choose()
        # makes that draw itself, without a Decision to build (agents.RandomAgent)
        self.uniform = [a.rng.getrandbits if type(a) is RandomAgent and DRAWS_INLINE else None
                        for a in self.agents]
        self.decisions = 0
        self.draws_inline = DRAWS_INLINE
        # the step budget (limits.py; game.yaml limits.steps; --max-steps), handed
        # out in chunks: generated code counts `fuel` down, out_of_steps refills it
        self.budget = steps or program.steps
        self.fuel = min(STEP_CHUNK, self.budget)
        self.reserve = self.budget - self.fuel
        self.started = time.monotonic()

    def _options(self, given: dict) -> dict:
        rs = self.program.rs
        out = {}
        bad = option_problems(rs, given)
        if bad:
            raise DiagnosticError(bad[:1])
        for name, opt in rs.options.items():
            choices = opt["choices"]
            if name in given:
                v = _coerce(given[name], choices)
            elif opt["default"] in (None, "random"):
                v = choices[self.rng.randrange(len(choices))]
                self.drawn.append(name)
            else:
                v = opt["default"]
            out[name] = v
        return out

    # ------------------------------------------------------------ flow
    def run(self, start=None, arrange=None):
        """Play to the end. start=(round, phase) skips ahead after setup+arrange."""
        prog = self.program
        self.started = time.monotonic()
        try:
            try:
                self.phase = "setup"
                if prog.setup:
                    prog.setup(self)
                if arrange is not None:
                    arrange(self)
                self._rounds(start)
            except EndGame:
                pass
            self.phase = "finish"
            self.current = None
            self._hook("before", "finish")
            if prog.finish:
                try:
                    prog.finish(self)
                except EndGame:
                    pass  # `end game` in finish just ends it
        except GameOver:
            pass
        except StopGame:
            self.stopped = True
            return self
        except DiagnosticError:
            raise
        except RuleError as e:
            if getattr(e, "entry", False) is not False:
                raise  # a scenario script problem: the scenario runner reports it
            raise self._runtime_error(self._failure(str(e))) from None
        except RecursionError:
            raise self._runtime_error("rules call themselves too deeply (a recursion without "
                                      "end?)") from None
        except MemoryError:
            raise self._runtime_error("the rules ran out of memory") from None
        except Exception as e:  # whatever the rules did, the designer gets a location
            raise self._runtime_error(self._failure(_friendly(e))) from None
        self.finished = True
        if self.logging:
            self.score_track.append(("end", self.scores()))
        self._hook("after", "finish")
        if self.logging:
            self.say("game over: " + (", ".join(w.id for w in self.winners) or "no winner"),
                     event={"kind": "end", "winners": [w.id for w in self.winners],
                            "scores": self.scores()})
        return self

    def _rounds(self, start):
        prog = self.program
        start_round, start_phase = start if start else (1, None)
        r = start_round - 1
        skipping = start_phase is not None
        while True:
            if r and self.logging:
                self.score_track.append((f"round {r}", self.scores()))  # (html log)
                self._summary(r)
            if prog.rounds_kind == "count":
                if r >= prog.rounds_fn(self):
                    return
            elif prog.rounds_kind == "until":
                if prog.rounds_fn(self):
                    return
            r += 1
            self.round = r
            self.fuel -= 1
            if self.fuel < 0:
                self.out_of_steps()
            for name, fn in prog.phases:
                if skipping:
                    if name != start_phase:
                        continue
                    skipping = False
                self.phase = name
                self.current = None
                self._hook("before", name)
                if self.logging:
                    self.say(f"== round {r}: {name} ==",
                             event={"kind": "phase", "round": r, "phase": name})
                fn(self)
                self._hook("after", name)
            if skipping:
                raise RuleError(f"no phase {start_phase!r} to start from")

    def _summary(self, r):
        """The end of a round in the log: the ruleset's `summary` lines, or
        each player's score."""
        start = len(self.log)
        if self.program.summary is not None:
            self.current = None
            # made as a log text is (text_of): no steps spent, a failure a note
            self.text_of(self.program.summary, self)
        elif self.program.rs.score_var is not None:
            scores = self.scores()
            if scores_seen(self, None, scores):
                self.say(f"after round {r}: " + ", ".join(
                    f"{pid} {display(v)}" for pid, v in scores.items()),
                    event={"kind": "scores", "round": r, "scores": scores})
            else:  # a score behind a screen: each player reads its own
                for p in self.players:
                    if scores_seen(self, p, scores):
                        self.say(f"after round {r}: {p.id} {display(scores[p.id])}", [p.id],
                                 event={"kind": "scores", "round": r,
                                        "scores": {p.id: scores[p.id]}})
        for entry in self.log[start:]:
            entry["summary"] = True
            if entry.get("event", {}).get("kind") == "log":
                entry["event"] = {"kind": "summary"}
                if "others_event" in entry:
                    entry["others_event"] = {"kind": "summary"}

    def summary_for(self, side) -> list | None:
        """The ruleset's `summary` as `side` may read it now (the board summary
        of a person's view), or None without one. It is a summary's lines
        made aside: the log, the step budget and the game stay as they were."""
        if self.program.summary is None:
            return None
        log, fuel, logging, current = self.log, self.fuel, self.logging, self.current
        self.log, self.logging = [], True
        try:
            self.text_of(self.program.summary, self)
            made = self.log
        finally:
            self.log, self.fuel, self.logging, self.current = log, fuel, logging, current
        sid = side.id if side is not None else None
        return [e["text"] for e in (entry_for(x, sid) for x in made) if e is not None]

    def _hook(self, when, phase):
        if self.hooks is not None:
            self.hooks(self, when, phase)

    def prompt_for(self, side, parts) -> str:
        """A prompt that shows values (parts: text, value, text, value ...),
        as the side choosing may see them: a component it may not see is
        'a <kind>'."""
        return "".join(p if i % 2 == 0 else
                       shown(p, {c for c in hidden_comps(p) if not sees(c, side)})
                       for i, p in enumerate(parts))

    def _failure(self, message):
        """What went wrong: running out of steps if the budget is spent (the
        fast back end checks a few plain lines after paying, checks.py)."""
        if self.fuel < 0 and self.reserve <= 0:
            return self._out_of_steps_message()
        return message

    def _runtime_error(self, message):
        tb = sys.exc_info()[2]
        span, trace = A.NOWHERE, []
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == RULES_FILE:
                span = self.program.span_of(tb.tb_lineno)
                trace.append(span)
            tb = tb.tb_next
        rule = rule_at(self.program.compiled.places or [], span.path, span.line)
        where = self._failed_where or self.where_parts()
        if rule == f"phase {self.phase}":
            where = [w for w in where if w != self.phase]  # "in phase race", once
        err = DiagnosticError(Diagnostic(span.path, span.line, span.col, "RUNTIME",
                                         with_subject(message, span.path, span.line),
                                         hint=", ".join(([f"in {rule}"] if rule else []) + where)))
        err.trace = trace  # the rules active, outermost first (scenarios re-point)
        return err

    _failed_where = None  # where() when a failure left the turn it happened in

    def note_where(self):
        """A failure is leaving a turn (generated code): keep where it
        happened, whose turn included, before the turn is undone."""
        if self._failed_where is None and \
                not isinstance(sys.exc_info()[1], (GameOver, EndGame, StopGame)):
            self._failed_where = self.where_parts()

    def where(self) -> str:
        """Round, phase and whose turn: where a game was when something failed."""
        return ", ".join(self.where_parts())

    def where_parts(self) -> list:
        parts = [f"round {self.round}" if self.round else "", self.phase or "",
                 f"{self.current.id}'s turn" if self.current is not None else ""]
        return [p for p in parts if p]

    # ------------------------------------------------------------ limits
    def out_of_steps(self):
        """The fuel of one chunk ran out: take the next chunk from the budget,
        or stop. Between chunks the game also looks at the clock, a backstop
        for steps that are each unusually costly (MAX_SECONDS)."""
        while self.fuel < 0 and self.reserve > 0:
            take = min(STEP_CHUNK, self.reserve)
            self.reserve -= take
            self.fuel += take
        if self.fuel >= 0:
            if time.monotonic() - self.started > MAX_SECONDS:
                raise RuleError(f"the rules ran for more than {MAX_SECONDS} seconds without "
                                "the game ending (a loop without end?)")
            return
        raise RuleError(self._out_of_steps_message())

    def _out_of_steps_message(self):
        return (f"the rules ran {self.budget:,} steps without the game ending (a loop "
                "without end?); raise the budget with game.yaml 'limits: {steps: N}' "
                "or --max-steps if the game really needs it")

    def steps_used(self) -> int:
        return self.budget - self.reserve - self.fuel

    def attr(self, x, name):
        """`x.name` for a value the checker could not type: only the fields the
        language documents and the names the ruleset declares are readable."""
        t = type(x)
        fields = _FIELDS.get(t)
        if fields is not None and name in fields:  # the common case: c.holder, p.id ...
            return getattr(x, name)
        if t is Table:  # a row of a YAML table: its keys are what the ruleset declared
            return self.key(x, name)
        allowed = self.program.readable.get(x.kind if t is Comp else t)
        if allowed is None or name not in allowed:
            if x is None:
                raise RuleError(f"used .{name} of none (a value that is missing)")
            raise RuleError(f"{kind_of(x)} has no attribute {name!r}"
                            + (f" (a {x.kind})" if t is Comp else ""))
        if t is Zone:
            if name == "size":
                return len(x.items)
            if name == "items":  # paid for like a zone known to be one (builtins.items)
                return items(self, x)
            return getattr(x, name)
        if t is PieceRow:
            return sum(x.counts)
        return getattr(x, py_name(name))

    def set_attr(self, x, name, value):
        t = type(x)
        allowed = self.program.writable.get(x.kind if t is Comp else t)
        if allowed is None or name not in allowed:
            raise RuleError(f"{name!r} of {kind_of(x)} cannot be changed"
                            if x is not None else f"cannot set .{name} of none")
        setattr(x, py_name(name), value)

    def key(self, table, name):
        """t.name of a table read from YAML."""
        if not isinstance(table, dict):
            raise RuleError(f"{kind_of(table)} has no key {name!r}")
        try:
            return table[name]
        except KeyError:
            raise RuleError(f"the table has no key {name!r}") from None

    def win(self, who):
        self.winners = FrozenList(who if isinstance(who, (list, tuple)) else (
            [] if who is None else [who]))
        raise GameOver()

    def end_game(self):
        raise EndGame()

    def begin_turn(self, who):
        prev = self.current
        self.current = who
        if self.logging:
            self.say_turn(who)
        return prev

    def say_turn(self, who):
        self.say(f"-- {who.id}'s turn --", event={"kind": "turn", "player": who.id})

    def end_turn(self, prev):
        self.current = prev

    def side_by_id(self, sid):
        return getattr(self, f"n_{sid}")

    def check_invariants(self):
        """Conservation: every piece is in a supply or at one location, every
        component in exactly the zone it names. Raises RuleError if not."""
        rs = self.program.rs
        locations = self.spaces + self.comps
        notes = {piece for piece, _, _ in self.program.money}
        for piece, supply in rs.pieces.items():
            per_side = rs.piece_supply.get(piece, {})
            grand = 0
            a = py_name(piece)
            for s in self.sides:
                total = getattr(s, a) + sum(getattr(l, a).counts[s.index] for l in locations)
                expected = per_side.get(s.id, supply)
                grand += total - expected
                if total != expected and piece not in notes and piece not in self.program.given:
                    raise RuleError(f"{s.id} has {total} {piece} in play, not {expected}")
            if grand:  # notes of money change hands, but none appear or vanish
                raise RuleError(f"{grand:+d} {piece} appeared in play")
        seen = set()
        zones = list(self.zones.values())
        for owner in self.sides + self.spaces:
            for (scope, name) in rs.zones:
                if (scope == "side" and owner in self.sides) or \
                        (scope == "space" and owner in self.spaces):
                    zones.append(getattr(owner, py_name(name)))
        for z in zones:
            for c in z.items:
                if c.zone is not z or id(c) in seen:
                    raise RuleError(f"{c.id} is listed in {z.id} but lies in "
                                    f"{display(c.zone)}")
                seen.add(id(c))
        missing = [c.id for c in self.comps if c.zone is not None and id(c) not in seen]
        if missing:
            raise RuleError(f"components lost: {', '.join(missing[:5])}")

    # ------------------------------------------------------------ events
    # A handler runs when its component lies in a live zone (rule-file
    # handlers always), or — with `on X` — when its component is one of X,
    # wherever X lies; then no rule-file handler runs.
    def owners(self, targets):
        """The components `on X` names, as a set (X: a component, list or zone)."""
        if type(targets) is Comp:
            return {targets}
        if targets is None:
            return set()
        items = targets.items if type(targets) is Zone else targets
        if not isinstance(items, list):
            raise RuleError(f"'on' names components, not {kind_of(targets)}")
        self.fuel -= len(items)
        if self.fuel < 0:
            self.out_of_steps()
        for c in items:
            if type(c) is not Comp:
                raise RuleError(f"'on' names components, not {kind_of(c)}")
        return set(items)

    def handlers_of(self, event):
        """[(owner, instead, fn)] of an event, in order (made on first use)."""
        hs = self._handlers.get(event)
        if hs is None:
            by_id = self.comps_by_id
            hs = self._handlers[event] = [(by_id[o] if o else None, inst, fn) for o, inst, fn
                                          in self.program.handlers.get(event, ())]
        return hs

    def abilities_of(self, window):
        """[(label, owner, cond, body)] of a window, in order (made on first use)."""
        abs_ = self._abilities.get(window)
        if abs_ is None:
            by_id = self.comps_by_id
            abs_ = self._abilities[window] = [
                (label, by_id[o] if o else None, cond, body)
                for label, o, cond, body in self.program.abilities.get(window, ())]
        return abs_

    def trigger(self, event, args, on=None):
        for owner, instead, fn in self.handlers_of(event):
            if instead or not _runs(owner, on):
                continue
            fn(self, owner, *args)

    def replace(self, event, args, on=None):
        for owner, instead, fn in self.handlers_of(event):
            if not instead or not _runs(owner, on):
                continue
            if fn(self, owner, *args) is not NOMATCH:
                return True
        return False

    def collect(self, event, args, on=None):
        out = []
        for owner, instead, fn in self.handlers_of(event):
            if instead or not _runs(owner, on):
                continue
            v = fn(self, owner, *args)
            if v is not None and v is not NOMATCH:
                out.append(v)
        return out

    # The fast back end's trigger, replace and collect: the same handlers in
    # the same order, found through the live places instead of by testing
    # each. Places are looked up afresh after every handler, as the reference
    # tests each handler's liveness when it comes to it.
    def _live_handlers(self, event):
        hs, live = self.handlers_of(event), self.live_at.get(event, ())
        pos = -1
        while True:
            j = bisect_right(live, pos)
            if j >= len(live):
                return
            pos = live[j]
            yield hs[pos]

    def _handlers_on(self, event, on):
        """The handlers of `event` owned by the components in `on`, in order:
        the ones the reference finds testing each (`on` does not change)."""
        places = self.program.places_of.get(event)
        if not places or not on:
            return ()
        hs = self.handlers_of(event)
        if len(places) < len(on):  # walk the smaller of the two
            by_id = self.comps_by_id
            found = [p for cid, ps in places.items() if by_id[cid] in on for p in ps]
        else:
            found = [p for c in on for p in places.get(c.id, ())]
        found.sort()
        return [hs[p] for p in found]

    def _trigger_live(self, event, args, on=None):
        for owner, instead, fn in (self._live_handlers(event) if on is None
                                   else self._handlers_on(event, on)):
            if not instead:
                fn(self, owner, *args)

    def _replace_live(self, event, args, on=None):
        for owner, instead, fn in (self._live_handlers(event) if on is None
                                   else self._handlers_on(event, on)):
            if instead and fn(self, owner, *args) is not NOMATCH:
                return True
        return False

    def _collect_live(self, event, args, on=None):
        out = []
        for owner, instead, fn in (self._live_handlers(event) if on is None
                                   else self._handlers_on(event, on)):
            if not instead:
                v = fn(self, owner, *args)
                if v is not None and v is not NOMATCH:
                    out.append(v)
        return out

    def first_by(self, kind, attr, value):
        """The first component of `kind` whose fixed `attr` equals value (the
        fast back end's `first(components(kind), x => x.attr == value)`)."""
        index = self._firsts.get((kind, attr)) or self.first_index(kind, attr)
        try:
            return index.get(value)
        except TypeError:  # a list, say: equal to no attribute value
            return None

    def first_index(self, kind, attr):
        """{value: the first component of kind with that fixed attribute},
        made the first time a game asks (generated code reads it in place)."""
        py = attr if attr == "id" else py_name(attr)
        index = self._firsts[(kind, attr)] = {}
        for c in self.comps_by_kind.get(kind, ()):
            index.setdefault(getattr(c, py), c)
        return index

    def _relive(self, c, live):
        """Component c moves into a live zone (live) or out of one."""
        step = 1 if live else -1
        for count, event, pos in c._hooks:
            setattr(self, count, getattr(self, count) + step)
            if event is not None:
                places = self.live_at[event]
                if live:
                    insort(places, pos)
                else:
                    places.remove(pos)

    def collect_on(self, event, args, targets):
        return self.collect(event, args, self.owners(targets))

    # ------------------------------------------------------------ effects
    def move(self, what, dest, top=True, say=None):
        """Move components to the top (or bottom) of a zone. `say` is the
        statement's own log line (a `log` clause), or False for none: a draw
        says its cards in one line."""
        if type(what) is Comp and type(dest) is Zone:  # one component: the common case
            items = (what,)
        elif what is None:
            return
        else:
            items = (what,) if type(what) is Comp else \
                what.items[:] if type(what) is Zone else list(what)
            if type(dest) is not Zone:
                raise RuleError(f"cannot move into {display(dest)}: not a zone")
            if len(items) > 1:
                self.fuel -= len(items)
                if self.fuel < 0:
                    self.out_of_steps()
        moved = [] if self.logging else None
        for c in items:
            z = c.zone
            c._seen = None  # what a reveal showed was where it lay
            if c._hooks and (z is not None and z.live) != dest.live:
                self._relive(c, dest.live)
            if z is not None:
                z.items.remove(c)
            if top:
                dest.items.insert(0, c)
            else:
                dest.items.append(c)
            c.zone = dest
            if moved is not None:
                moved.append((c, z))
        if moved and say is not False:
            self._log_moves(moved, dest, top, say, items if type(what) is Zone else what)

    def place(self, piece, owner, loc, n, say=None):
        if owner is None:
            raise RuleError(f"place {piece}: no owner")
        a = py_name(piece)
        have = getattr(owner, a)
        short = n is not None and n > have  # the supply runs out: say so, never silently
        if n is None or n > have:
            n = have
        if self.logging and short:
            self.say_at((f"{owner.id} has only {have} {piece} left in supply: "
                         f"{'places ' + str(have) if have else 'places none'} at ", 0),
                        loc, short=True, event={"kind": "place", "player": owner.id,
                                                "piece": piece, "count": have, "short": n})
        if n <= 0:
            return 0
        setattr(owner, a, have - n)
        getattr(loc, a).counts[owner.index] += n
        if self.logging and not short:
            event = {"kind": "place", "player": owner.id, "piece": piece, "count": n,
                     "at": public_place(loc)}
            if say is None or not self.say_event(say, n, None, None, event=event):
                self.say_at((f"{owner.id} places {self.program.words.pieces_of(piece, n)} "
                             "at ", 0), loc, event=event)
        return n

    def remove(self, piece, owner, loc, n):
        a = py_name(piece)
        row = getattr(loc, a).counts
        owners = self.sides if owner is None else (owner,)
        total = 0
        for o in owners:
            have = row[o.index]
            k = have if n is None or n > have else n
            if k > 0:
                row[o.index] = have - k
                setattr(o, a, getattr(o, a) + k)
                total += k
                if self.logging:
                    self.say_at((f"{o.id} loses {self.program.words.pieces_of(piece, k)} "
                                 "at ", 0), loc, event={"kind": "remove", "player": o.id,
                                                      "piece": piece, "count": k})
        return total

    def transfer(self, piece, owner, src, dst, n, say=None):
        attr = py_name(piece)
        a = getattr(src, attr).counts
        have = a[owner.index]
        k = have if n is None or n > have else n
        if k > 0:
            a[owner.index] = have - k
            getattr(dst, attr).counts[owner.index] += k
            event = {"kind": "transfer", "player": owner.id, "piece": piece, "count": k}
            if self.logging and (say is None or not self.say_event(
                    say, k, None, None, event={**event, "from": public_place(src),
                                               "to": public_place(dst)})):
                self.say_at((f"{owner.id} moves {self.program.words.pieces_of(piece, k)} "
                             "from ", 0, " to ", 1), src, dst, event=event)
        return k

    def give(self, piece, n, giver, taker, say=None):
        """Move pieces between two sides' supplies (all of them when n is none)."""
        a = py_name(piece)
        have = getattr(giver, a)
        k = have if n is None or n > have else n
        if k > 0:
            setattr(giver, a, have - k)
            setattr(taker, a, getattr(taker, a) + k)
            if self.logging:
                event = {"kind": "give", "player": giver.id, "to": taker.id, "piece": piece,
                         "count": k}
                if say is None or not self.say_event(say, k, None, None, event=event):
                    self.say(f"{giver.id} gives {self.program.words.pieces_of(piece, k)} "
                             f"to {taker.id}", event=event)
        return k

    def pay(self, amount, payer, payee, say=None):
        """Pass notes of money worth exactly `amount` from payer to payee. Notes are
        broken into smaller ones at the bank (exchange of equal value) when
        the payer cannot make the exact sum; the rules check that the payer
        can afford it."""
        if amount is None or amount <= 0:
            return 0
        money = self.program.money
        if amount % money[-1][2]:
            raise RuleError(f"pay {amount}: not a multiple of the smallest note ({money[-1][2]})")
        need, give = amount, []
        for _, a, value in money:  # the greedy split, tried first: it usually fits
            n = getattr(payer, a)
            k = need // value
            if n < k:
                k = n
            if k:
                give.append((a, k))
                need -= k * value
                if not need:
                    break
        if need:
            have = sum(getattr(payer, a) * value for _, a, value in money)
            if have < amount:
                raise RuleError(f"{payer.id} cannot pay {amount}: holds only {have}")
            give = self._change_for(amount, payer, payee)
            if give is None:  # paid with a bigger note, change taken back
                if self.logging:
                    self._log_pay(amount, payer, payee, say, " (a bigger note, change back)")
                return amount
            give = [(a, k) for a, k in give.items() if k]
        for a, k in give:
            setattr(payer, a, getattr(payer, a) - k)
            setattr(payee, a, getattr(payee, a) + k)
        if self.logging:
            self._log_pay(amount, payer, payee, say)
        return amount

    def _log_pay(self, amount, payer, payee, say, how=""):
        event = {"kind": "pay", "player": payer.id, "to": payee.id, "amount": amount}
        if how:
            event["change"] = True
        if say is None or not self.say_event(say, amount, None, None, event=event):
            self.say(f"{payer.id} pays {amount} to {payee.id}{how}", event=event)

    def _change_for(self, amount, payer, payee):
        """The notes payer hands over for `amount` once the bank (or someone)
        has broken its bigger notes; None when it overpaid and took change."""
        money = self.program.money
        bank = self.side_by_id(self.program.rs.bank)
        while True:
            give, need = {}, amount
            for _, a, value in money:
                k = min(getattr(payer, a), need // value)
                give[a] = k
                need -= k * value
            if need == 0:
                return give
            # break the smallest note bigger than what is still needed
            big = [(a, v) for _, a, v in reversed(money)
                   if v > need and getattr(payer, a) - give[a] > 0]
            # change comes from the bank first, then the payee, then anyone
            changers = [bank, payee] + [s for s in self.sides if s not in (bank, payee)]
            if big and any(self._exchange(payer, big[0], c) for c in changers if c is not payer):
                continue
            # last resort: hand over the bigger note and take change from the payee
            if big and self._overpay(payer, payee, give, big[0], need):
                return None
            raise RuleError(f"no change can be made for {payer.id}'s payment of {amount}")

    def _overpay(self, payer, payee, give, note, need):
        piece, value = note
        back, rest = {}, value - need
        for _, p, v in self.program.money:
            k = min(getattr(payee, p) + (give[p] if p in give else 0) +
                    (1 if p == piece else 0), rest // v)
            back[p] = k
            rest -= k * v
        if rest:
            return False
        give = dict(give)
        give[piece] = give.get(piece, 0) + 1
        for p, k in give.items():
            setattr(payer, p, getattr(payer, p) - k)
            setattr(payee, p, getattr(payee, p) + k)
        for p, k in back.items():
            setattr(payee, p, getattr(payee, p) - k)
            setattr(payer, p, getattr(payer, p) + k)
        return True

    def _exchange(self, side, note, changer):
        """`side` swaps one `note` for smaller notes of equal value held by
        `changer`; False when the changer cannot make that change."""
        piece, value = note
        smaller = [(p, v) for _, p, v in self.program.money if v < value]
        need, take = value, {}
        for p, v in smaller:
            k = min(getattr(changer, p), need // v)
            take[p] = k
            need -= k * v
        if need:
            return False
        setattr(side, piece, getattr(side, piece) - 1)
        setattr(changer, piece, getattr(changer, piece) + 1)
        for p, k in take.items():
            setattr(changer, p, getattr(changer, p) - k)
            setattr(side, p, getattr(side, p) + k)
        return True

    def roll(self, dice, say=None):
        subject = dice
        if type(dice) is Comp:
            dice = (dice,)
        elif type(dice) is Zone:
            dice = dice.items
        rig = self.rig
        rng = self.rng
        if rig is None and DRAWS_INLINE:  # no scenario rig: every face is drawn
            bits = rng.getrandbits
            for d in dice:
                d._seen = None  # a new face: a reveal of the old one ends
                sides = d.u_sides
                if type(sides) is int and sides > 0:
                    # randint(1, sides) draws exactly this, through three calls
                    k = sides.bit_length()
                    r = bits(k)
                    while r >= sides:
                        r = bits(k)
                    d.u_value = 1 + r
                else:
                    d.u_value = rng.randint(1, sides)
            if self.logging:
                self._log_roll(dice, say, subject)
            return
        for d in dice:
            d._seen = None
            if rig is not None and rig.rolls:
                d.u_value = rig.rolls.pop(0)
            else:
                if rig is not None and not rig.told:
                    rig.told = True
                    if self.logging:
                        self.say("rig exhausted; seeded dice from here",
                                 event={"kind": "note"})
                sides = d.u_sides
                # randint(1, sides) draws exactly this, through two more calls
                d.u_value = 1 + rng._randbelow(sides) if type(sides) is int and sides > 0 \
                    else rng.randint(1, sides)
        if self.logging:
            self._log_roll(dice, say, subject)

    def shuffle(self, zone):
        self.rng.shuffle(zone.items)
        for c in zone.items:
            c._seen = None

    def reveal(self, what, to):
        """Show components to some sides: their views and logs name them, where
        they lie, until they move or their zone is shuffled."""
        if type(what) is Comp:
            comps = [what]
        elif what is None:
            return
        elif type(what) is Zone:
            comps = what.items[:]
        elif isinstance(what, list):
            comps = what
        else:
            raise RuleError(f"only components are revealed, not {kind_of(what)}")
        sides = [to] if type(to) is Side else to
        if not isinstance(sides, list) or any(type(s) is not Side for s in sides):
            raise RuleError(f"components are revealed to sides, not {kind_of(to)}")
        if not sides:
            return
        ids = frozenset(s.id for s in sides)
        self.fuel -= len(comps)
        if self.fuel < 0:
            self.out_of_steps()
        for c in comps:
            if type(c) is not Comp:
                raise RuleError(f"only components are revealed, not {kind_of(c)}")
            c._seen = ids | c._seen if c._seen else ids
            if self.logging:
                self._log_reveal(c, sides)

    def draw(self, n, src, dst, say=None):
        drawn = []
        for _ in range(n):
            if not src.items:
                break
            c, at = None, 0
            forced = self.rig.draws.get(src.name) if self.rig is not None else None
            if forced:
                cid = forced.pop(0)
                c = self.comps_by_id.get(cid)
                if c is None or c.zone is not src:
                    raise RuleError(f"rigged draw {cid!r} is not in {src.id}")
                at = src.items.index(c)
            elif src.kind == "bag":
                # randrange(n) draws exactly this, through one more call
                at = self.rng._randbelow(len(src.items))
                c = src.items[at]
            else:
                c = src.items[0]
            if c._hooks or self.logging or type(dst) is not Zone:
                self.move(c, dst, False, False)
            else:  # move()'s common case, where the drawn component lies known
                c._seen = None
                del src.items[at]
                dst.items.append(c)
                c.zone = dst
            drawn.append(c)
        if self.logging:
            self._log_draw(drawn, src, dst, say, drawn)
        return drawn

    # ------------------------------------------------------------ results
    def scores(self) -> dict:
        var = self.program.rs.score_var
        if var is None:
            return {}
        out = {}
        for p in self.players:
            v = getattr(p, py_name(var))
            # (a text built from what some seat may not see: as the table reads it)
            out[p.id] = v.others if type(v) is Secret else \
                v if v is None or isinstance(v, (int, str)) else display(v)
        return out


def _runs(owner, on):
    """Does a handler (owner: its component, or None in a rule file) run?"""
    if on is not None:
        return owner in on
    return owner is None or (owner.zone is not None and owner.zone.live)


def _coerce(value, choices):
    if isinstance(value, str):
        for c in choices:
            if str(c).lower() == value.lower():
                return c
    return value
