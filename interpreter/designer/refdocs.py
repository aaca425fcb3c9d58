"""`rulebook docs PATH`: a rules reference made from the ruleset alone.

The reference is built once as a list of blocks (headings, paragraphs,
tables, nested lists of sentences, the board's picture) and written out as
GitHub Markdown or as one self-contained HTML page (the template
templates/html/docs.html). The sentences of the rules come from
`describe`; the board's picture from `boardsvg`. Every
text from the ruleset is escaped for the format written, and nothing in the
output depends on the time, the machine or the folder's absolute path.
"""
from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path


from ..language import ast as A
from . import boardsvg
from ..model.logwords import and_list
from .describe import (
    Line,
    Vocab,
    ability_heading,
    block,
    expr,
    on_heading,
    rounds_sentence,
    stmt,
    words,
)

_PLACES = re.compile(r"\{([a-z][a-z0-9_]*)\}")


# ---- the document -------------------------------------------------------------
class Doc:
    def __init__(self):
        self.blocks = []

    def h(self, level: int, text: object, anchor: str | None = None) -> None:
        self.blocks.append(("h", level, str(text), anchor))

    def p(self, text: object) -> None:
        if text:
            self.blocks.append(("p", str(text)))

    def note(self, text: object) -> None:
        self.blocks.append(("note", str(text)))

    def lines(self, lines: list) -> None:
        if lines:
            self.blocks.append(("list", lines))

    def table(self, head: list, rows: list) -> None:
        if rows:
            self.blocks.append(("table", [str(h) for h in head],
                                [[_cell(c) for c in r] for r in rows]))

    def svg(self, text: str) -> None:
        if text:
            self.blocks.append(("svg", text))


def _cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return ", ".join(_cell(x) for x in v)
    if isinstance(v, dict):
        return json.dumps(_plain(v), ensure_ascii=False)
    return str(v)


def _plain(v):
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


# ---- Markdown -----------------------------------------------------------------
_MD_SPECIAL = re.compile(r"([\\`*\[\]])")


def _md(text: str) -> str:
    """Ruleset text as literal Markdown: no markup, no raw HTML."""
    text = escape(str(text), quote=False)
    text = _MD_SPECIAL.sub(r"\\\1", text)
    text = re.sub(r"\s*\n\s*", " ", text)
    if re.match(r"^(#|[-+>]|\d+[.)])", text):
        text = "\\" + text
    return text


def _md_cell(text: str) -> str:
    return _md(text).replace("|", "\\|")


def _md_lines(lines, depth=0) -> list:
    out = []
    for ln in lines:
        out.append("  " * depth + "- " + _md(ln.text))
        out.extend(_md_lines(ln.children, depth + 1))
    return out


def to_markdown(doc: Doc) -> str:
    out = []
    for b in doc.blocks:
        kind = b[0]
        if kind == "h":
            out.append("#" * b[1] + " " + _md(b[2]))
        elif kind == "p":
            out.append(_md(b[1]))
        elif kind == "note":
            out.append("_" + _md(b[1]) + "_")
        elif kind == "list":
            out.append("\n".join(_md_lines(b[1])))
        elif kind == "table":
            head, rows = b[1], b[2]
            text = ["| " + " | ".join(_md_cell(h) for h in head) + " |",
                    "|" + "---|" * len(head)]
            text += ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in rows]
            out.append("\n".join(text))
        elif kind == "svg":
            out.append("_The board's picture is in the HTML reference "
                       "(`rulebook docs PATH --format html`)._")
    return "\n\n".join(out) + "\n"


# ---- HTML ---------------------------------------------------------------------
def _tokens(lines) -> list:
    """Nested lines as a flat run of (tag, text): ("ul", ""), ("li", text),
    ("/li", ""), ("/ul", ""), so that the template needs no recursion."""
    out, stack = [], [iter(lines)]
    out.append(("ul", ""))
    while stack:
        ln = next(stack[-1], None)
        if ln is None:
            stack.pop()
            out.append(("/ul", ""))
            if stack:
                out.append(("/li", ""))
            continue
        out.append(("li", ln.text))
        if ln.children:
            out.append(("ul", ""))
            stack.append(iter(ln.children))
        else:
            out.append(("/li", ""))
    return out


def to_html(doc: Doc, title: str) -> str:
    """The page (templates/html/docs.html): every block in order, the
    second-level headings as a table of contents after the first."""
    from .pages import built, render

    blocks = []
    for b in doc.blocks:
        kind = b[0]
        if kind == "h":
            blocks.append({"kind": kind, "level": b[1], "text": b[2], "anchor": b[3]})
        elif kind in ("p", "note"):
            blocks.append({"kind": kind, "text": b[1]})
        elif kind == "list":
            blocks.append({"kind": kind, "tokens": _tokens(b[1])})
        elif kind == "table":
            blocks.append({"kind": kind, "head": b[1], "rows": b[2]})
        elif kind == "svg":  # boardsvg.svg escaped every text it holds
            blocks.append({"kind": kind, "svg": built(b[1])})
    toc = [(b[3], b[2]) for b in doc.blocks if b[0] == "h" and b[1] == 2 and b[3]]
    return render("docs.html", title=title, blocks=blocks, toc=toc)


# ---- reading the YAML for the texts people wrote ------------------------------
def _yaml(path):
    from ..load.yamlio import load_yaml

    try:
        doc = load_yaml(Path(path), [])
    except Exception:  # the ruleset loaded; a text we cannot read is left out
        return None
    return doc if isinstance(doc, dict) else None


def _text(v) -> str:
    return str(v).strip() if isinstance(v, (str, int, float)) and not isinstance(v, bool) else ""


def _rel(rs, path) -> str:
    try:
        return Path(path).resolve().relative_to(Path(rs.path).resolve()).as_posix()
    except (ValueError, OSError):
        return Path(path).name


# ---- the reference ------------------------------------------------------------
class Reference:
    def __init__(self, rs, variant=None):
        self.rs = rs
        self.variant = variant
        self.v = Vocab(rs)
        self.doc = Doc()
        self.game = _yaml(Path(rs.path) / "game.yaml") or {}

    def build(self) -> Doc:
        rs, d = self.rs, self.doc
        d.h(1, rs.name or rs.id)
        d.p(_text(self.game.get("description")))
        d.note(f"A rules reference generated by rulebook docs from the ruleset {rs.id}"
               + (f", with its variant {self.variant}" if self.variant else "")
               + ". Every sentence below is made from the rule files and the data.")
        for part in (self.players, self.options, self.components, self.pieces, self.zones,
                     self.variables, self.board, self.tables, self.flow, self.phases,
                     self.functions, self.triggers, self.abilities, self.winning,
                     self.variants):
            part()
        return d

    # -- who plays
    def players(self) -> None:
        rs, d = self.rs, self.doc
        d.h(2, "Players", "players")
        lo, hi = rs.min_players, rs.max_players
        count = f"{lo}" if lo == hi else f"{lo} to {hi}"
        default = rs.default_players or hi
        d.p(f"{count} {'player' if hi == 1 else 'players'}"
            + (f" ({default} unless asked otherwise)" if lo != hi else "")
            + ". The seats, in seat order:")
        d.table(["seat", "name", "played by"],
                [[sid, name, "the rules (a bot)" if sid in rs.bots else "a player"]
                 for sid, name in rs.seats])
        if rs.sides:
            d.p("Sides that never choose but own pieces and can win:")
            d.table(["side", "name"], [[sid, name] for sid, name in rs.sides])

    def options(self) -> None:
        rs, d = self.rs, self.doc
        if not rs.options:
            return
        raw = self.game.get("options") or {}
        d.h(2, "Options", "options")
        d.p("Chosen before the game (--option NAME=VALUE):")
        rows = []
        for name, o in rs.options.items():
            choices = o["choices"] or ([f"every {words(o['from'])}"] if o.get("from") else [])
            default = o["default"]
            shown = "drawn at random" if default in (None, "random") else default
            desc = _text((raw.get(name) or {}).get("description")) if isinstance(
                raw.get(name), dict) else ""
            seats = "; ".join(f"{k}: {', '.join(v)}" for k, v in o.get("seats", {}).items())
            rows.append([name, desc + (f" Seats: {seats}." if seats else ""), choices, shown])
        d.table(["option", "what it sets", "choices", "default"], rows)

    # -- things on the table
    def components(self) -> None:
        rs, d = self.rs, self.doc
        if not rs.kinds:
            return
        from ..model.logwords import plural

        d.h(2, "Components", "components")
        texts, descs = self._item_texts()
        for kname, k in rs.kinds.items():
            d.h(3, plural(words(kname)).capitalize())
            d.p(descs.get(kname, ""))
            if k.zone:
                d.p(f"They start in {self._zone_words('game', k.zone)}.")
            if k.attributes:
                d.table(["attribute", "type", "default"],
                        [[n, _type(a), a.default if a.has_default else "(each gives one)"]
                         for n, a in k.attributes.items()])
            if k.properties:
                d.p("They change during play: " + ", ".join(
                    f"{words(n)} (starting at {_start(v)})" for n, v in k.properties.items()) + ".")
            comps = [c for c in rs.components if c.kind == kname]
            shown = list(k.attributes) + [
                p for p in k.properties
                if any(c.values.get(p, k.properties[p]) != k.properties[p] for c in comps)]
            rows, ruled = [], []
            for group in _groups(comps):
                c = group[0]
                cid = c.id.rsplit("-", 1)[0] if c.copies else c.id
                text = texts.get((c.path, c.line, c.col, c.id), texts.get((c.path, c.line, c.col), ""))
                if text and "{" in text:
                    text = _PLACES.sub(lambda m: _cell(c.values.get(m.group(1), m.group(0))), text)
                rows.append([cid, len(group)] + [c.values.get(n, k.properties.get(n))
                                                 for n in shown] + [text])
                if c.rules is not None and c.rules.items:
                    name = c.values.get("name")
                    ruled.append((name if isinstance(name, str) and name.strip() else cid, c))
            head = ["id", "count"] + [words(n) for n in shown] + ["text"]
            if not any(r[-1] for r in rows):  # no item has a text
                head, rows = head[:-1], [r[:-1] for r in rows]
            d.table(head, rows)
            for cid, c in ruled:
                d.h(4, f"The rules on {cid}")
                self.v.owner_kind = kname
                lines = []
                for it in c.rules.items:
                    lines.extend(stmt(it, self.v))
                self.v.owner_kind = None
                d.lines(lines)

    def _item_texts(self):
        """(path, line, col) of an item's id -> its text; kind -> description."""
        texts, descs = {}, {}
        from ..load.yamlio import position

        for kname, k in self.rs.kinds.items():
            doc = _yaml(k.path)
            if not doc:
                continue
            descs[kname] = _text(doc.get("description"))
            for item in doc.get("items") or []:
                if isinstance(item, dict) and "id" in item:
                    texts[(k.path, *position(item, "id"))] = _text(item.get("text"))
            each = doc.get("each")
            if isinstance(each, dict) and "id" in each:
                texts[(k.path, *position(each, "id"))] = _text(each.get("text"))
        return texts, descs

    def pieces(self) -> None:
        rs, d = self.rs, self.doc
        if not rs.pieces:
            return
        raw = self.game.get("pieces") or {}
        d.h(2, "Pieces", "pieces")
        d.p("Interchangeable pieces each side owns, in its supply until placed:")
        notes = dict(rs.money)
        rows = []
        for name in rs.pieces:
            per = rs.piece_supply.get(name) or {}
            supply = ", ".join([f"{k}: {n}" for k, n in per.items()]
                               + ([f"others: {rs.pieces[name]}"] if per else [str(rs.pieces[name])]))
            got = raw.get(name)
            spec = got if isinstance(got, dict) else {}
            rows.append([name, supply, notes.get(name, ""), _text(spec.get("description"))])
        d.table(["piece", "each side starts with", "worth", "description"], rows)
        if rs.money:
            d.p(f"Money is paid in notes ({', '.join(n for n, _ in rs.money)}); "
                f"{self.v.sides.get(rs.bank, rs.bank)} holds the rest and makes change.")

    def _zone_words(self, scope, name):
        w = self.v.zones.get((scope, name), words(name))
        return {"game": f"the {w}", "side": f"each side's {w}",
                "space": f"the {w} of each space"}[scope]

    def zones(self) -> None:
        rs, d = self.rs, self.doc
        if not rs.zones:
            return
        raw = self.game.get("zones") or {}
        d.h(2, "Zones", "zones")
        d.p("Where components lie. The first item of a zone is its top.")
        scope_words = {"game": "one for the game", "side": "one per side", "space": "one per space"}
        vis = {"public": "everyone", "owner": "its owner only", "hidden": "nobody"}
        rows = []
        for (scope, name), z in rs.zones.items():
            spec = (raw.get(scope) or {}).get(name) if isinstance(raw.get(scope), dict) else None
            desc = _text(spec.get("description")) if isinstance(spec, dict) else ""
            rows.append([self.v.zones[(scope, name)], scope_words[scope], z.type,
                         vis.get(z.visibility, z.visibility),
                         "yes" if z.live else "no", desc])
        d.table(["zone", "how many", "kind", "who sees inside", "cards' rules work there",
                 "description"], rows)

    def variables(self) -> None:
        rs, d = self.rs, self.doc
        if not rs.game_vars and not rs.side_vars:
            return
        d.h(2, "What the game keeps count of", "variables")
        vis = {"owner": "its side only", "hidden": "nobody"}
        rows = [[words(n), "the game", _start(val), vis.get(rs.var_visibility.get(("game", n)),
                                                             "everyone")]
                for n, val in rs.game_vars.items()]
        rows += [[words(n), "each side", _start(val),
                  vis.get(rs.var_visibility.get(("side", n)), "everyone")]
                 for n, val in rs.side_vars.items()]
        d.table(["name", "kept for", "starts at", "who sees it"], rows)

    def board(self) -> None:
        rs, d = self.rs, self.doc
        if not rs.spaces:
            return
        d.h(2, "The board", "board")
        bf = rs.where.get(("board-file",))
        raw = _yaml(bf) if bf else None
        raw = raw or {}
        d.p(_text(raw.get("description")))
        d.svg(boardsvg.svg(rs, f"the board of {rs.name or rs.id}"))
        attrs = list(rs.space_attrs)
        d.h(3, "Spaces")
        d.table(["space"] + [words(a) for a in attrs],
                [[sid] + [values.get(a) for a in attrs] for sid, values in rs.spaces])
        if rs.tracks:
            d.h(3, "Tracks")
            got = raw.get("tracks")
            tracks = got if isinstance(got, dict) else {}
            d.table(["track", "spaces in order", "loops round", "description"],
                    [[name, spaces, "yes" if loop else "no",
                      _text((tracks.get(name) or {}).get("description"))
                      if isinstance(tracks.get(name), dict) else ""]
                     for name, (spaces, loop) in rs.tracks.items()])
        if rs.links:
            d.h(3, "Links")
            d.table(["link", "joins"],
                    [[kind, "; ".join(f"{a} \u2013 {b}" for a, b in pairs)]
                     for kind, pairs in rs.links.items()])

    def tables(self) -> None:
        rs, d = self.rs, self.doc
        if not rs.tables:
            return
        d.h(2, "Tables", "tables")
        d.p("Numbers and lists the rules look up.")
        for name, value in rs.tables.items():
            d.h(3, f"Table {name}")
            if isinstance(value, dict) and value and all(isinstance(x, dict) for x in value.values()):
                cols = list(dict.fromkeys(c for x in value.values() for c in x))
                d.table(["key"] + cols, [[k] + [x.get(c) for c in cols] for k, x in value.items()])
            elif isinstance(value, dict):
                d.table(["key", "value"], [[k, x] for k, x in value.items()])
            elif isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
                cols = list(dict.fromkeys(c for x in value for c in x))
                d.table(["#"] + cols, [[i] + [x.get(c) for c in cols] for i, x in enumerate(value)])
            elif isinstance(value, list):
                d.table(["#", "value"], [[i, x] for i, x in enumerate(value)])
            else:
                d.p(f"{name}: {_cell(value)}")

    # -- the rules
    def _items(self, cls):
        """The definitions of one class in the rule files; for phases and
        functions the last definition of each name (an override replaces)."""
        out: dict = {}
        for m in self.rs.modules:
            for it in m.items:
                if isinstance(it, cls):
                    key = getattr(it, "name", None) if cls in (A.Phase, A.Func) else id(it)
                    out.pop(key, None)
                    out[key] = it
        return list(out.values())

    def flow(self) -> None:
        d = self.doc
        games = self._items(A.Game)
        parts = {p.part: p for p in self._items(A.GamePart)}
        d.h(2, "How a game goes", "flow")
        if not games:
            d.p("The rules have no game block.")
            return
        g = games[-1]
        d.h(3, "Setup")
        if "setup" in parts:
            d.note("As this version replaces it:")
            d.lines(block(parts["setup"].body, self.v))
        elif g.setup:
            d.lines(block(g.setup, self.v))
        else:
            d.p("Nothing is done before the first round besides putting every component "
                "in its starting zone.")
        d.h(3, "Rounds")
        d.p(rounds_sentence(g, self.v))
        d.h(3, "The finish")
        if "finish" in parts:
            d.note("As this version replaces it:")
            d.lines(block(parts["finish"].body, self.v))
        elif g.finish:
            d.lines(block(g.finish, self.v))
        else:
            d.p("Nothing more happens when the rounds are over.")
        summary = parts["summary"].body if "summary" in parts else g.summary
        if summary:
            d.h(3, "The summary after each round")
            d.lines(block(summary, self.v))

    def phases(self) -> None:
        d = self.doc
        phases = {p.name: p for p in self._items(A.Phase)}
        if not phases:
            return
        games = self._items(A.Game)
        order = [n for n, _ in games[-1].phases] if games else []
        d.h(2, "The phases", "phases")
        for name in list(dict.fromkeys(order + list(phases))):
            p = phases.get(name)
            if p is None:
                continue
            d.h(3, f"Phase {words(name)}" + ("" if name in order else " (never played)"))
            if p.override:
                d.note("This version replaces the phase of the game it builds on.")
            d.lines(block(p.body, self.v) or [Line("Nothing happens.")])

    def functions(self) -> None:
        d = self.doc
        funcs = self._items(A.Func)
        if not funcs:
            return
        d.h(2, "Rules used in several places", "functions")
        d.p("The steps the rules above carry out by name.")
        for f in funcs:
            d.h(3, words(f.name) + (f" ({', '.join(f.params)})" if f.params else ""))
            if f.override:
                d.note("This version replaces the rule of the game it builds on.")
            d.lines(block(f.body, self.v) or [Line("Nothing happens.")])

    def triggers(self) -> None:
        d = self.doc
        handlers = self._items(A.On)
        if not handlers:
            return
        d.h(2, "Triggers", "triggers")
        d.p("What happens whenever the rules say an event happens (cards may add their own, "
            "listed with the components).")
        for h in handlers:
            d.h(3, f"On {words(h.event)}")
            d.lines([Line(on_heading(h, self.v) + ":", block(h.body, self.v))])

    def abilities(self) -> None:
        d = self.doc
        abilities = self._items(A.Ability)
        if not abilities:
            return
        d.h(2, "Abilities", "abilities")
        d.p("What a player may do while a window is open (cards may add their own).")
        for a in abilities:
            d.h(3, f"\u201c{a.label}\u201d at {words(a.window)}")
            d.lines([Line(ability_heading(a, self.v) + ":", block(a.body, self.v))])

    def winning(self) -> None:
        rs, d = self.rs, self.doc
        d.h(2, "Scoring and winning", "winning")
        if rs.score_var:
            d.p(f"The score shown for each player is their {words(rs.score_var)}.")
        elif rs.score_fn:
            d.p(f"The score shown for each player is what {words(rs.score_fn)} gives for them "
                "(see the functions).")
        found: list = []
        for where, body in self._bodies():
            _wins(body, [], where, self.v, found)
        if not found:
            d.p("No rule names a winner: the game ends without one.")
            return
        d.p("The game is won, or ended, in these places:")
        d.lines([Line(f"In {where}: " + "".join(c + ", " for c in conds) + _lower(text))
                 for where, conds, text in found])

    def _bodies(self):
        games = self._items(A.Game)
        parts = {p.part: p for p in self._items(A.GamePart)}
        if games:
            g = games[-1]
            for part in ("setup", "finish"):
                body = parts[part].body if part in parts else getattr(g, part)
                if body:
                    yield f"the {part}", body
        for p in self._items(A.Phase):
            yield f"phase {words(p.name)}", p.body
        for f in self._items(A.Func):
            yield words(f.name), f.body
        for h in self._items(A.On):
            yield f"the {words(h.event)} trigger", h.body
        for a in self._items(A.Ability):
            yield f"the ability \u201c{a.label}\u201d", a.body
        for c in self.rs.components:
            if c.rules is not None:
                for it in c.rules.items:
                    yield f"the rules on {c.id}", it.body

    def variants(self) -> None:
        rs, d = self.rs, self.doc
        if not rs.variants and not rs.overlays:
            return
        d.h(2, "Variants and overlays", "variants")
        if rs.variants:
            d.p("Played with --variant NAME; each is a folder under variants/.")
        for name in rs.variants:
            vdir = Path(rs.path) / "variants" / name
            raw = _yaml(vdir / "variant.yaml") or {}
            d.h(3, f"Variant {name}" + (f": {_text(raw.get('name'))}" if raw.get("name") else ""))
            d.p(_text(raw.get("description")))
            facts = []
            bots = raw.get("bots") or []
            if bots:
                facts.append(Line("The rules play " + ", ".join(map(str, bots)) + "."))
            pl = raw.get("players")
            if isinstance(pl, dict):
                facts.append(Line(f"For {pl.get('min')} to {pl.get('max')} players"
                                  + (f" ({pl['default']} unless asked otherwise)"
                                     if pl.get("default") is not None else "") + "."))
            elif pl is not None:
                facts.append(Line(f"For {_cell(pl)} players."))
            for opt, change in (raw.get("set_options") or {}).items():
                if not isinstance(change, dict):
                    continue
                said = []
                if "choices" in change:
                    said.append("its choices narrowed to " + _cell(change["choices"]))
                if "default" in change:
                    said.append(f"its default set to {_cell(change['default'])}")
                facts.append(Line(f"The option {opt} has " + " and ".join(said) + "."))
            for opt in raw.get("options") or {}:
                facts.append(Line(f"Adds the option {opt}."))
            facts.extend(_changes(vdir, rs))
            for opt, table in (raw.get("overlays") or {}).items():
                for value, subs in table.items():
                    for sub in (subs if isinstance(subs, list) else [subs]):
                        odir = vdir / str(sub)
                        oraw = _yaml(odir / "overlay.yaml") or {}
                        title = _text(oraw.get("name")) or str(sub)
                        desc = _text(oraw.get("description"))
                        facts.append(Line(f"With option {opt} = {value}, the overlay {title} "
                                          f"applies" + (f": {desc.rstrip('.')}" if desc else "")
                                          + ".",
                                          _changes(odir, rs)))
            d.lines(facts)
        if rs.overlays:
            d.p("This reference describes the game with these layers applied: "
                + ", ".join(f"{n or i} ({_rel(rs, f)})" for i, n, f in rs.overlays) + ".")


def _changes(folder: Path, rs) -> list:
    """What the rule files of a variant or overlay folder replace and add."""
    from ..language.parser import Source, parse
    from ..load.yamlio import read_text

    out: list = []
    groups: dict = {}
    try:
        files = sorted(folder.glob("*.rules"))
    except OSError:
        return out
    for f in files:
        text = read_text(f, [])
        if text is None:
            continue
        try:
            mod = parse(Source(str(f), text))
        except Exception:
            out.append(Line(f"{f.name} cannot be read."))
            continue
        for it in mod.items:
            if isinstance(it, A.Phase):
                groups.setdefault(("Replaces" if it.override else "Adds", "the phase",
                                   "the phases"), []).append(words(it.name))
            elif isinstance(it, A.Func):
                groups.setdefault(("Replaces" if it.override else "Adds", "the rule",
                                   "the rules"), []).append(words(it.name))
            elif isinstance(it, A.GamePart):
                groups.setdefault(("Replaces", "the game's", "the game's"), []).append(it.part)
            elif isinstance(it, A.On):
                groups.setdefault(("Adds", "a trigger on", "triggers on"), []).append(
                    words(it.event))
            elif isinstance(it, A.Ability):
                groups.setdefault(("Adds", "the ability", "the abilities"), []).append(
                    f"\u201c{it.label}\u201d at {words(it.window)}")
            elif isinstance(it, A.Game):
                groups.setdefault(("Gives", "a game block of its own", ""), []).append("")
    for (verb, one, many), names in groups.items():
        names = list(dict.fromkeys(names))
        if not many:
            out.append(Line(f"{verb} {one}."))
        elif one == "the game's":
            out.append(Line(f"{verb} the game's {and_list(names)}."))
        else:
            out.append(Line(f"{verb} {one if len(names) == 1 else many} {and_list(names)}."))
    return out


def _lower(t: str) -> str:
    first = t.split(" ", 1)[0]
    return t[:1].lower() + t[1:] if first in ("The", "Every") else t


def _wins(body, conds, where, v, found):
    """Every `win` and `end game` in a block, with the conditions around it."""
    for s in body or []:
        if isinstance(s, (A.Win, A.EndGame)):
            found.append((where, list(conds), stmt(s, v)[0].text))
        elif isinstance(s, A.If):
            nots: list = []
            for cond, b in s.branches:
                _wins(b, conds + [f"if {' and '.join(nots + [expr(cond, v)])}"], where, v, found)
                nots.append(f"not ({expr(cond, v)})")
            if s.orelse:
                _wins(s.orelse, conds + [f"if {' and '.join(nots)}"], where, v, found)
        elif isinstance(s, A.For):
            head = (f"for each player {s.var}" if isinstance(s.iter, A.Name)
                    and s.iter.id == "players" else f"for each {s.var} in {expr(s.iter, v)}")
            if s.cond is not None:
                head += f" for which {expr(s.cond, v)}"
            _wins(s.body, conds + [head], where, v, found)
        elif isinstance(s, A.Choose):
            for o in s.options:
                what = f"enters a number {o.var}" if isinstance(o, A.NumberOption) else \
                    f"chooses {expr(o.label, v)}"
                _wins(o.body, conds + [f"when {expr(s.player, v)} {what}"], where, v, found)
        elif isinstance(s, A.Trigger):
            _wins(s.default, conds, where, v, found)
        elif isinstance(s, A.Window):
            _wins(s.after, conds, where, v, found)
        elif isinstance(s, (A.While, A.Repeat, A.Turn)):
            _wins(s.body, conds, where, v, found)


def _groups(comps):
    """Components with copies made by one item's `count:` together."""
    out: list = []
    for c in comps:
        if (c.copies and out and out[-1][0].copies
                and (out[-1][0].path, out[-1][0].line, out[-1][0].col) == (c.path, c.line, c.col)
                and out[-1][0].id.rsplit("-", 1)[0] == c.id.rsplit("-", 1)[0]):
            out[-1].append(c)
        else:
            out.append([c])
    return out


def _type(a) -> str:
    if a.type == "enum":
        return "one of " + ", ".join(map(str, a.values or []))
    return {"int": "number", "str": "text", "bool": "yes/no", "space": "a space",
            "spaces": "a list of spaces", "any": "any value"}.get(a.type, a.type)


def _start(v) -> str:
    if v is None:
        return "none (set by the rules)"
    if v == "":
        return "an empty text"
    return _cell(v)


def reference(path: str | Path, variant: str | None = None, options: dict | None = None,
              fmt: str = "md") -> str:
    """The reference of a ruleset folder that loads without errors."""
    from ..load.ruleset import load_ruleset

    rs, _ = load_ruleset(Path(path), variant, options)
    doc = Reference(rs, variant).build()
    if fmt == "html":
        return to_html(doc, f"{rs.name or rs.id} \u2014 rules reference")
    return to_markdown(doc)
