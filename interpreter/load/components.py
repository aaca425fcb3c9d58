"""Loading a ruleset, part two: component files (kinds, their attributes
and properties, items, `product` lists and the rules written on cards)."""
from __future__ import annotations

import difflib
import itertools
import re
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.scalarstring import LiteralScalarString, FoldedScalarString

from ..language import ast as A
from ..language.parser import Source, parse
from ..support.diagnostics import DiagnosticError
from ..support.limits import MAX_COMPONENTS, MAX_COPIES
from .definitions import _ID, _PLACES, COMP_RESERVED, AttrDef, CompDef, KindDef
from .loaderstate import LoaderState
from .yamlio import position, read_text, shorten


class Components(LoaderState):
    """The loader's component files (a part of ruleset._Loader)."""

    def load_components(self, f: Path, doc: CommentedMap) -> None:
        rs = self.rs
        kname = doc["component"]
        attrs = {n: self.attr_def(f, doc["attributes"], n, a)
                 for n, a in (doc.get("attributes") or {}).items()}
        props = dict(doc.get("properties") or {})
        for n in list(attrs) + list(props):
            node = doc["attributes"] if n in attrs else doc["properties"]
            rs.where.setdefault(("kind-attr", kname, n), (str(f), *position(node, n, at_key=True)))
            if n in COMP_RESERVED:
                self.err(f, *position(node, n, at_key=True), "DUP-ID",
                         f"{n!r} is a built-in attribute of components")
        both = set(attrs) & set(props)
        for n in both:
            self.err(f, *position(doc["properties"], n, at_key=True), "DUP-ID",
                     f"{n!r} is both an attribute and a property")
        if kname in rs.kinds:
            k = rs.kinds[kname]
            self.err(f, *position(doc, "component"), "DUP-ID",
                     f"component kind {kname!r} is already defined in {k.path}:{k.line}")
            return
        zone = doc.get("zone")
        rs.kinds[kname] = KindDef(kname, attrs, props, zone, str(f), position(doc, "component")[0])
        if zone is not None:
            rs.where[("kind-zone", kname)] = (str(f), *position(doc, "zone"))
        for item in list(doc.get("items") or []) + self.product_items(f, doc):
            if self.too_many:
                return
            values = self.item_values(f, item, attrs, props, kname)
            count = item.get("count")
            if count is not None and count > MAX_COPIES:  # refused before any id is made
                self.err(f, *position(item, "count"), "LIMIT",
                         f"{shorten(item['id'])!r} asks for {count:,} copies; the limit is "
                         f"{MAX_COPIES:,} copies of one item")
                self.broken.add("components")
                continue
            if len(rs.components) + (count or 1) > MAX_COMPONENTS:
                self.err(f, *position(item, "count" if count is not None else "id"), "LIMIT",
                         f"with {shorten(item['id'])!r} the ruleset has more than "
                         f"{MAX_COMPONENTS:,} components, the limit")
                self.broken.add("components")
                self.too_many = True
                return
            ids = [item["id"]] if count is None else [f"{item['id']}-{i}" for i in range(1, count + 1)]
            rules = None
            if "rules" in item:
                rules = self.card_rules(f, item, item["id"])
            dups = [cid for cid in ids if ("comp", cid) in rs.where]
            if dups:  # one diagnostic per item, however many copies it makes
                p0, l0, _ = rs.where[("comp", dups[0])]
                more = f" (and {len(dups) - 1} more of its {len(ids)} copies)" if len(dups) > 1 else ""
                self.err(f, *position(item, "id", at_key=True), "DUP-ID",
                         f"{dups[0]!r} is defined twice (first at {p0}:{l0}){more}")
            for cid in ids:
                if cid in dups:
                    continue
                self.define(("comp", cid), f, item, "id")
                line, col = position(item, "id")
                rs.components.append(CompDef(cid, kname, values, rules, str(f), line, col,
                                             count is not None))

    def product_items(self, f: Path, doc: CommentedMap) -> list[CommentedMap]:
        """The items of `product` (every combination of its lists, the first
        outermost) with `each` filled in: `{key}` in a text is the item's
        value of that product key. Each item is placed at `each` in the file,
        for the messages about it."""
        product, each = doc.get("product"), doc.get("each")
        if not product or not each:
            return []
        keys, lists = list(product), [list(v) for v in product.values()]
        size = 1
        for choices in lists:
            size *= len(choices)
        if size * int(each.get("count") or 1) > MAX_COMPONENTS:
            self.err(f, *position(doc, "product", at_key=True), "LIMIT",
                     f"the product makes {size:,} items; the limit is {MAX_COMPONENTS:,} "
                     "components")
            self.broken.add("components")
            return []
        names = doc.get("names") or {}
        for key in names:
            if key not in keys:
                self.err(f, *position(names, key, at_key=True), "REF-UNDEF",
                         f"names gives words for {key!r}, which is not a product key "
                         f"({', '.join(keys)})")
                return []
        words = {key: {str(v): str(w) for v, w in (table or {}).items()}
                 for key, table in names.items()}
        for key, text in each.items():
            found = _PLACES.findall(text) if isinstance(text, str) else []
            bad = [k for k, _ in found if k not in keys]
            if bad:
                self.err(f, *position(each, key), "REF-UNDEF",
                         f"each.{key} names {{{bad[0]}}}, which is not a product key "
                         f"({', '.join(keys)})")
                return []
            unnamed = [k for k, named in found if named and k not in words]
            if unnamed:
                self.err(f, *position(each, key), "REF-UNDEF",
                         f"each.{key} reads {{{unnamed[0]}.name}}, but `names` gives no "
                         f"words for {unnamed[0]!r}",
                         hint=f"add names: {{{unnamed[0]}: {{VALUE: WORD, ...}}}}")
                return []
        line, col = position(doc, "each", at_key=True)
        out = []
        for combo in itertools.product(*lists):
            values = dict(zip(keys, combo))
            item = CommentedMap(values)
            for key, v in each.items():
                item[key] = _PLACES.sub(lambda m: _word(words, m, values), v) \
                    if isinstance(v, str) and key != "rules" else v
            item.lc.line, item.lc.col = line - 1, col - 1
            if not _ID.match(item["id"]):
                self.err(f, line, col, "SCHEMA-VALUE",
                         f"each.id makes {shorten(item['id'])!r}, not an id (small letters, "
                         "digits, - and _)")
                return []
            out.append(item)
        return out

    def card_rules(self, f: Path, item: CommentedMap, owner: str) -> A.Module | None:
        text = item["rules"]
        line, col = position(item, "rules")
        if f not in self.raw:  # the file was read and checked once already by load_yaml
            self.raw[f] = (read_text(f, []) or "").splitlines()
        raw = self.raw[f]
        if isinstance(text, (LiteralScalarString, FoldedScalarString)):
            # block scalar: content starts on the next line, indented
            indent = 0
            for ln in raw[line:]:
                if ln.strip():
                    indent = len(ln) - len(ln.lstrip())
                    break
            src = Source(str(f), str(text), line0=line, col0=indent)
        else:
            # a quoted scalar's text starts after its quote
            quoted = line <= len(raw) and raw[line - 1][col - 1:col] in ("'", '"')
            src = Source(str(f), str(text), line0=line - 1, col0=col - 1 + quoted, first_only=True)
        try:
            mod = parse(src)
        except DiagnosticError as e:
            self.diags.extend(e.diagnostics)
            return None
        for it in mod.items:
            if isinstance(it, (A.On, A.Ability)):
                it.owner = owner
            else:
                self.err(it.span.path, it.span.line, it.span.col, "SYNTAX",
                         "a component's rules may hold only 'on' and 'ability' handlers")
        return mod

    def attr_def(self, f: Path, node: CommentedMap, name: str, a: Any) -> AttrDef:
        if "enum" in a:
            t = "enum"
        else:
            t = a.get("type", "any")
        d = AttrDef(t, list(a["enum"]) if "enum" in a else None, a.get("default"), "default" in a)
        if d.has_default and not self.type_ok(d, d.default):
            self.err(f, *position(node[name], "default"), "SCHEMA-TYPE",
                     f"default of {name!r} does not fit its type {t}")
        return d

    def type_ok(self, d: AttrDef, v: object) -> bool:
        if d.type == "int":
            return isinstance(v, int) and not isinstance(v, bool)
        if d.type == "bool":
            return isinstance(v, bool)
        if d.type in ("str", "space"):
            return isinstance(v, str)
        if d.type == "spaces":
            return isinstance(v, list) and all(isinstance(x, str) for x in v)
        if d.type == "enum":
            return v in (d.values or ())  # (an enum always has its list)
        return True

    def item_values(self, f: Path, item: CommentedMap, attrs: dict[str, AttrDef], props: dict,
                    what: str) -> dict:
        values = {}
        for key in item:
            if key in ("id", "count", "rules", "text"):
                continue
            if key in attrs:
                d = attrs[key]
                v = item[key]
                if not self.type_ok(d, v):
                    want = f"one of {', '.join(d.values or ())}" if d.type == "enum" else d.type
                    code = "SCHEMA-VALUE" if d.type == "enum" else "SCHEMA-TYPE"
                    self.err(f, *position(item, key), code,
                             f"{what} {item.get('id')!r}: {key} must be {want}, got {v!r}")
                values[key] = list(v) if isinstance(v, list) else v
                if d.type in ("space", "spaces"):
                    self.rs.where.setdefault(("space-refs",), []).append((f, item, key))
            elif key in props:
                values[key] = item[key]
            else:  # an item's own keys (count, rules ...) are names it may mean too
                near = difflib.get_close_matches(
                    str(key), list(attrs) + list(props) + ["id", "count", "rules", "text"], n=1)
                self.err(f, *position(item, key, at_key=True), "SCHEMA-UNKNOWN-KEY",
                         f"{what} {item.get('id')!r} has unknown attribute {key!r}",
                         hint=f"did you mean {near[0]!r}?" if near else
                         "declare it under 'attributes' or 'properties'")
        for name, d in attrs.items():
            if name not in values:
                if d.has_default:
                    values[name] = d.default
                else:
                    self.err(f, *position(item), "SCHEMA-MISSING",
                             f"{what} {item.get('id')!r} is missing attribute {name!r}")
        return values


def _word(words: dict, m: re.Match, values: dict) -> str:
    """`{key}`: the item's value of a product key; `{key.name}`: its word
    from `names`, or the value itself where `names` gives none."""
    value = str(values[m.group(1)])
    return words[m.group(1)].get(value, value) if m.group(2) else value
