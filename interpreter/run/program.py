"""Programs: a ruleset loaded, checked and compiled (load_program), kept
between runs, with the layout its games are built from; and what a command
asks of a ruleset before a game (options, seats, validation)."""
from __future__ import annotations

import dataclasses
import gc
import random
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..compile.compiler import compile_ruleset
from ..language import ast as A
from ..load.ruleset import Ruleset, fingerprint, load_ruleset
from ..load.yamlio import plain
from ..model.logwords import Words
from ..model.state import PieceRow, Side, Space, ZeroRow, Zone, py_name, to_table
from ..support.diagnostics import Diagnostic, DiagnosticError, collapse, waste
from ..support.diskcache import cached, compiled_code
from ..support.limits import DEFAULT_STEPS
from .builtins import RULES_FILE, namespace
from .newgame import builder

if TYPE_CHECKING:
    from ..compile.common import Compiled
    from .engine import Game

_PROGRAMS: "OrderedDict[tuple, tuple]" = OrderedDict()  # key -> (Ruleset, Compiled, diags)
_KEEP_PROGRAMS = 24
GC_YOUNG = 5_000  # new containers between two collections of the youngest objects

NOMATCH = object()


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
            if a._randbelow(n) != r:  # type: ignore[attr-defined]  # CPython's own
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

    # id -> name of the seats, sides, spaces and pieces; of the components
    # (model/labels.py: made once, when a person's screen first asks)
    _label_names: tuple[dict[str, str], dict[str, str]]

    def __init__(self, rs: Ruleset, compiled: Compiled, diags: list[Diagnostic]):
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
        # each phase's `when` (None: every round); [] when every phase plays every round
        self.phase_when = [None if fn is None else ns[fn] for fn in compiled.phase_when]
        self.setup = ns[compiled.setup] if compiled.setup else None
        self.finish = ns[compiled.finish] if compiled.finish else None
        self.summary = ns[compiled.summary] if compiled.summary else None
        self.rounds_fn = ns[compiled.rounds_fn] if compiled.rounds_fn else None
        # `score:` naming a function of the rules: fn(G, side) -> the score
        self.score_fn = ns[compiled.score_fn] if compiled.score_fn else None
        self.rounds_kind = compiled.rounds_kind
        # event -> [(owner id or None, instead, handler)], in order
        self.handlers: dict[str, list[tuple[str | None, bool, Callable]]] = {}
        for event, prio, order, owner, instead, fn in sorted(
                compiled.handlers, key=lambda h: (-h[1], h[2])):
            self.handlers.setdefault(event, []).append((owner, instead, ns[fn]))
        # window -> [(label, owner id or None, condition, body)], in order
        self.abilities: dict[str, list[tuple[str, str | None, Callable, Callable]]] = {}
        for window, label, owner, cond, body, _ in compiled.abilities:
            self.abilities.setdefault(window, []).append((label, owner, ns[cond], ns[body]))
        # per component with handlers or abilities, what it adds to while it
        # lies in a live zone: a live count, and its handler's place in the
        # event's order (None for an ability)
        self.fast = compiled.backend == "fast"
        # the reference back end tests each handler as it comes to it
        self.hooks: dict[str, list[tuple[str, str | None, int | None]]] = {}
        for event, hs in (self.handlers.items() if self.fast else ()):
            for pos, (owner, _, _) in enumerate(hs):
                if owner is not None:
                    self.hooks.setdefault(owner, []).append((f"ev_{event}", event, pos))
        for window, abs_ in (self.abilities.items() if self.fast else ()):
            for _, owner, _, _ in abs_:
                if owner is not None:
                    self.hooks.setdefault(owner, []).append((f"wn_{window}", None, None))
        # side count -> where locations get piece counts (rows)
        self._rows: dict[int, tuple[tuple[list, list], dict[str, tuple[list, list]]]] = {}
        self._layouts: dict[int, _Layout] = {}  # side count -> _Layout
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
        self.places_of: dict[str, dict[str, list[int]]] = {}
        for event, hs in (self.handlers.items() if self.fast else ()):
            for pos, (owner, _, _) in enumerate(hs):
                if owner is not None:
                    self.places_of.setdefault(event, {}).setdefault(owner, []).append(pos)
        self.money = [(piece, py_name(piece), value) for piece, value in rs.money]
        self.steps = rs.steps or DEFAULT_STEPS
        # attribute allow-lists for values whose type the checker did not know
        self.readable, self.writable = _allow_lists(rs)
        self.given = set(compiled.given)  # pieces that change hands between sides
        self.piece_kinds = tuple(rs.pieces)  # what a piece kind named by a value may be

    @property
    def name(self) -> str:
        return self.rs.id

    def rows(self, nsides: int) -> tuple[tuple[list, list], dict[str, tuple[list, list]]]:
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

    def layout(self, nsides: int) -> _Layout:
        """What a new game of nsides sides copies, worked out once: each
        space's and component's fields with its shared zero rows, which
        locations get rows of their own, and where components start."""
        lay = self._layouts.get(nsides)
        if lay is None:  # made whole before it is kept: games in threads may share a program
            lay = _Layout(self.template, *self.rows(nsides))
            lay.build = builder(self.template, lay, nsides)
            self._layouts[nsides] = lay
        return lay

    def span_of(self, lineno: int) -> A.Span:
        if 0 < lineno <= len(self.linemap):
            return self.linemap[lineno - 1]
        return A.NOWHERE


def _allow_lists(rs: Ruleset) -> tuple[dict[Any, set[str]], dict[Any, set[str]]]:
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
        readable[kind] = {"id", "kind", "index", "zone", "holder", "host", "attached"} | \
            set(kd.attributes) | \
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
        links: list[dict[str, list[int]]] = [{} for _ in self.space_ids]
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

    build: Callable[[Game], None]  # builds a new game's board (newgame.builder)

    def __init__(self, tpl, space_rows, rows_of):
        space_own, space_zero = space_rows
        self.space_own = space_own
        self.space_fields = [{**f, **dict(space_zero)} for f in tpl.space_fields]
        self.comp_fields: list[dict]
        self.comp_own: list[tuple[int, list]]
        self.kinds: dict[str, list[int]]  # component kind -> places in the game's list
        self.starts: dict[str, list[int]]  # game zone -> places of the components in it
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


def load_program(path: str | Path, extra: list | None = None, variant: str | None = None,
                 options: dict | None = None,
                 backend: str = "fast") -> tuple[Program | None, list[Diagnostic]]:
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
            where: tuple[str, int, int] = rs.where.get("game", (str(rs.path), 1, 1))
            out.append(Diagnostic(*where, "OPTION",
                                  f"unknown option {shown!r}",
                                  hint="options: " + (", ".join(rs.options) or "none")))
            continue
        choices = rs.options[name]["choices"]
        if _coerce(value, choices) not in choices:
            shown = value if len(str(value)) <= 60 else str(value)[:57] + "..."
            at: tuple[str, int, int] = rs.options[name]["at"]
            out.append(Diagnostic(*at, "OPTION",
                                  f"option {name}={shown!r} is not allowed",
                                  hint="choices: " + ", ".join(str(c) for c in choices)))
    return out


def active_seats(rs: Ruleset, options: dict,
                 players: int | None = None) -> list[tuple[str, str | None]]:
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
    where: tuple[str, int, int] = \
        rs.where.get("players") or rs.where.get("game", (str(rs.path), 1, 1))
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
        at: tuple[str, int, int]
        if not fits:
            at = opt["at"]
            raise DiagnosticError(Diagnostic(*at, "OPTION", f"no value of option "
                                             f"{name!r} seats {players} players"))
        if name in out and _coerce(out[name], opt["choices"]) not in fits:
            at = opt["at"]
            raise DiagnosticError(Diagnostic(
                *at, "OPTION", f"option {name}={out[name]} does not seat {players} "
                f"players", hint=f"{name}={fits[0]} does"))
        out[name] = fits[0]
    return out


def validate_ruleset(path: str | Path) -> list[Diagnostic]:
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


def tune_gc() -> None:
    """Make the collector look at young objects less often. A game makes many
    short-lived containers (options, tuples, lists) and keeps only a few
    hundred, so Python's default (every 700 new containers) mostly scans the
    same game state again: every 5,000 saves about a fiftieth of a random
    game. Called by the command line, and by tools/bench for every version
    it measures, the hand-written one included."""
    young, *older = gc.get_threshold()
    if 0 < young < GC_YOUNG:
        gc.set_threshold(GC_YOUNG, *older)


def _coerce(value, choices):
    if isinstance(value, str):
        for c in choices:
            if str(c).lower() == value.lower():
                return c
    return value
