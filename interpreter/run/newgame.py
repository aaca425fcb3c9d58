"""A new game's board and components, made by code written once per layout.

Every game of a program starts from the same spaces, components, zones and
piece rows (engine._Layout). Made by loops over field dicts, each value
costs a call of setattr and each zone or row a constructor call; written
out as straight-line code (one store per value) the same objects come out
at a fraction of the cost, which counts when a designer simulates
thousands of short games. The code holds no rule text: every value comes
from the constants list K by position (numbers, true/false and none are
written as themselves), and attribute names are the engine's own or
py_name()'s identifiers. It runs with no built-ins at all.

Each object gets its attributes in the order the loops gave them, so the
games are the same object for object.
"""
from __future__ import annotations

import keyword
from typing import TYPE_CHECKING, Any, Callable

from ..model.state import Comp, FrozenList, PieceRow, Space, Zone
from ..support.diskcache import compiled_code

if TYPE_CHECKING:
    from .gamestate import GameState
    from .program import _Layout, _Template

FILE = "<new game>"
LOOPED = 2_000  # more components than this are made by loops (see _components_looped)


def builder(tpl: _Template, lay: _Layout, nsides: int) -> Callable[[GameState], None]:
    """A function build(G) that gives G's sides their variables and zones,
    and sets G's game zones, spaces, tracks and components."""
    text, consts = source(tpl, lay, nsides)
    ns: dict[str, Any] = {"__builtins__": {}}
    exec(compiled_code(text, FILE), ns)
    build = ns["build"]
    return lambda G: build(G, consts, object.__new__, Space, Comp, Zone, PieceRow, FrozenList,
                           setattr)


def source(tpl: _Template, lay: _Layout, nsides: int) -> tuple[str, tuple]:
    """The builder's code, and the constants it reads by position."""
    w = _Writer()
    w.line("def build(G, K, new, Space, Comp, Zone, PieceRow, FrozenList, setattr):")
    w.line(" sides = G.sides")
    for j in range(nsides):
        w.line(f" s = sides[{j}]")
        for k, v in tpl.side_vars.items():
            w.line(f" s.{_ident(k)} = {w.k(v)}")
        for py, name, z in tpl.side_zones:
            w.line(f" s.{_ident(py)} = {w.zone(name, 's', 's', None, z, side=True)}")
    w.line(" zones = G.zones = {}")
    for name, z in tpl.game_zones:
        zv = w.zone(name, "None", None, name, z)
        w.line(f" G.{_ident('z_' + name)} = {zv}")
        w.line(f" zones[{w.k(name)}] = {zv}")
    if len(lay.space_fields) > LOOPED:
        _spaces_looped(w, tpl, lay, nsides)
    else:
        _spaces(w, tpl, lay, nsides)
    if len(lay.comp_fields) > LOOPED:
        _components_looped(w, lay, nsides)
    else:
        _components(w, lay, nsides)
    return "\n".join(w.lines) + "\n", tuple(w.consts)


def _spaces(w: _Writer, tpl: _Template, lay: _Layout, nsides: int) -> None:
    """Spaces and tracks as straight-line code: one store per value."""
    # their fields first (refs may point forward), as the loops did
    for i, fields in enumerate(lay.space_fields):
        w.line(f" s{i} = new(Space)")
        for k, v in fields.items():
            if k == "_links":
                v = tpl.space_links[i]  # the slot kept its place in the order
            w.line(f" s{i}.{_ident(k)} = {w.k(v)}")
    w.line(f" spaces = G.spaces = [{', '.join(f's{i}' for i in range(len(lay.space_fields)))}]")
    w.line(" G.spaces_by_id = {sp.id: sp for sp in spaces}")
    for i, (refs, fields) in enumerate(zip(tpl.space_refs, lay.space_fields)):
        for py, kind, v in refs:
            w.line(f" s{i}.{_ident(py)} = {_ref(kind, v)}")
        for py, name, z in tpl.space_zones:
            zid = f"{fields['id']}.{name}"
            w.line(f" s{i}.{_ident(py)} = {w.zone(name, f's{i}', None, zid, z)}")
        for piece, attr in lay.space_own:
            w.line(f" s{i}.{_ident(attr)} = {w.row(piece, f's{i}', nsides)}")
    tracks = ", ".join(f"{w.k(name)}: ([{', '.join(f's{x}' for x in at)}], {w.k(loop)}, "
                       f"{w.k(pos)})" for name, at, loop, pos in tpl.track_places)
    w.line(f" G.tracks = {{{tracks}}}")


def _spaces_looped(w: _Writer, tpl: _Template, lay: _Layout, nsides: int) -> None:
    """Spaces and tracks as loops over constant tables (as
    _components_looped): the same objects, attributes in the same order."""
    fields = [{_ident(k): (tpl.space_links[i] if k == "_links" else v) for k, v in f.items()}
              for i, f in enumerate(lay.space_fields)]
    per = [([(_ident(py), kind, v) for py, kind, v in refs],
            [(_ident(py), name, f"{f['id']}.{name}", z.type, z.visibility, z.live)
             for py, name, z in tpl.space_zones])
           for refs, f in zip(tpl.space_refs, lay.space_fields)]
    own = [(piece, _ident(attr)) for piece, attr in lay.space_own]
    w.line(" spaces = G.spaces = []")
    w.line(f" for f in {w.k(fields)}:")
    w.line("  s = new(Space)")
    w.line("  s.__dict__.update(f)")
    w.line("  spaces.append(s)")
    w.line(" G.spaces_by_id = {sp.id: sp for sp in spaces}")
    w.line(" i = 0")
    w.line(f" for refs, szones in {w.k(per)}:")
    w.line("  s = spaces[i]")
    w.line("  i += 1")
    w.line("  for py, kind, v in refs:")
    w.line("   setattr(s, py, spaces[v] if kind == 'space' else FrozenList([spaces[x] for x in v]))")
    w.line("  for py, name, zid, kind, vis, live in szones:")
    w.line("   z = new(Zone)")
    for attr, code in (("name", "name"), ("owner", "s"), ("holder", "None"), ("id", "zid"),
                       ("items", "[]"), ("kind", "kind"), ("visibility", "vis"), ("live", "live")):
        w.line(f"   z.{attr} = {code}")
    w.line("   setattr(s, py, z)")
    w.line(f"  for piece, attr in {w.k(own)}:")
    w.line("   r = new(PieceRow)")
    w.line("   r.piece = piece")
    w.line("   r.location = s")
    w.line(f"   r.counts = [{', '.join('0' for _ in range(nsides))}]")
    w.line("   setattr(s, attr, r)")
    w.line(f" G.tracks = {{name: ([spaces[x] for x in at], loop, pos) for name, at, loop, pos in "
           f"{w.k([tuple(t) for t in tpl.track_places])}}}")


def _components(w: _Writer, lay: _Layout, nsides: int) -> None:
    """Components as straight-line code: one store per value."""
    refs: dict = {}
    for i, py, kind, v in lay.comp_refs:
        refs.setdefault(i, []).append((py, kind, v))
    own = dict(lay.comp_own)
    for i, fields in enumerate(lay.comp_fields):
        w.line(f" c{i} = new(Comp)")
        w.line(f" c{i}.__dict__.update({w.k(fields)})")
    for i in range(len(lay.comp_fields)):  # references and rows after, as the loops did
        for py, kind, v in refs.get(i, ()):
            w.line(f" c{i}.{_ident(py)} = {_ref(kind, v)}")
    for i in range(len(lay.comp_fields)):
        for piece, attr in own.get(i, ()):
            w.line(f" c{i}.{_ident(attr)} = {w.row(piece, f'c{i}', nsides)}")
    n = len(lay.comp_fields)
    w.line(f" G.comps = [{', '.join(f'c{i}' for i in range(n))}]")
    w.line(f" G.comps_by_id = {{{', '.join(f'{w.k(cid)}: c{i}' for i, cid in enumerate(lay.comp_ids))}}}")
    kinds = ", ".join(f"{w.k(kind)}: [{', '.join(f'c{i}' for i in idxs)}]"
                      for kind, idxs in lay.kinds.items())
    w.line(f" G.comps_by_kind = {{{kinds}}}")
    for zname, idxs in lay.starts.items():
        w.line(f" z = zones[{w.k(zname)}]")
        w.line(f" z.items = [{', '.join(f'c{i}' for i in idxs)}]")
        for i in idxs:
            w.line(f" c{i}.zone = z")


def _components_looped(w: _Writer, lay: _Layout, nsides: int) -> None:
    """Components as loops over constant tables: the same objects, in the
    same order, with the same attributes in the same order; code whose size
    does not grow with the components (a ruleset of tens of thousands would
    otherwise cost minutes and gigabytes to compile)."""
    own = dict(lay.comp_own)
    fields = w.k(list(lay.comp_fields))
    refs = w.k([(i, _ident(py), kind, v) for i, py, kind, v in
                sorted(lay.comp_refs, key=lambda r: r[0])])
    rows = w.k([(i, piece, _ident(attr)) for i in range(len(lay.comp_fields))
                for piece, attr in own.get(i, ())])
    w.line(" cs = []")
    w.line(f" for f in {fields}:")
    w.line("  c = new(Comp)")
    w.line("  c.__dict__.update(f)")
    w.line("  cs.append(c)")
    w.line(f" for i, py, kind, v in {refs}:")
    w.line("  setattr(cs[i], py, spaces[v] if kind == 'space' else FrozenList([spaces[x] for x in v]))")
    w.line(f" for i, piece, attr in {rows}:")
    w.line("  r = new(PieceRow)")
    w.line("  r.piece = piece")
    w.line("  r.location = cs[i]")
    w.line(f"  r.counts = [{', '.join('0' for _ in range(nsides))}]")
    w.line("  setattr(cs[i], attr, r)")
    w.line(" G.comps = cs")
    w.line(f" G.comps_by_id = {{cid: cs[i] for i, cid in {w.k(list(enumerate(lay.comp_ids)))}}}")
    w.line(f" G.comps_by_kind = {{kind: [cs[i] for i in idxs] for kind, idxs in "
           f"{w.k(list(lay.kinds.items()))}}}")
    w.line(f" for zname, idxs in {w.k(list(lay.starts.items()))}:")
    w.line("  z = zones[zname]")
    w.line("  z.items = [cs[i] for i in idxs]")
    w.line("  for i in idxs:")
    w.line("   cs[i].zone = z")


class _Writer:
    def __init__(self):
        self.lines: list = []
        self.consts: list = []
        self.zones = 0

    def line(self, text: str) -> None:
        self.lines.append(text)

    def k(self, v: Any) -> str:
        """A value as code: itself if a plain number, true/false or none,
        else its place in K."""
        if v is None or type(v) is bool or (type(v) is int and abs(v) < 2**62):
            return repr(v)
        self.consts.append(v)
        return f"K[{len(self.consts) - 1}]"

    def zone(self, name: str, owner: str, holder: str | None, zid: str | None, z: Any,
             side: bool = False) -> str:
        """A new zone (as Zone.__init__ fills it), in a fresh local name; a
        side's zone is named after the side's id, known when the game is."""
        self.zones += 1
        v = f"z{self.zones}"
        self.line(f" {v} = new(Zone)")
        zid = f"{owner}.id + {self.k('.' + name)}" if side else self.k(zid)
        for attr, code in (("name", self.k(name)), ("owner", owner), ("holder", str(holder)),
                           ("id", zid), ("items", "[]"), ("kind", self.k(z.type)),
                           ("visibility", self.k(z.visibility)), ("live", self.k(z.live))):
            self.line(f" {v}.{attr} = {code}")
        return v

    def row(self, piece: str, location: str, nsides: int) -> str:
        self.line(" r = new(PieceRow)")
        self.line(f" r.piece = {self.k(piece)}")
        self.line(f" r.location = {location}")
        self.line(f" r.counts = [{', '.join('0' for _ in range(nsides))}]")
        return "r"


def _ref(kind: str, v: Any) -> str:
    if kind == "space":
        return f"s{v}"
    return f"FrozenList([{', '.join(f's{x}' for x in v)}])"


def _ident(name: str) -> str:
    """An attribute name as written in the code: only identifiers the engine
    made (py_name), never anything else."""
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("__"):
        raise ValueError(f"not an attribute name: {name!r}")
    return name
