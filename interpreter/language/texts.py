"""The texts a ruleset's fixed fields can hold, for checking comparisons.

`c.title == "contact"` is always false when no component's title is
"contact": almost always a typo of a name the data does have. A field is
*fixed* when no rule can change it: `id`, `kind`, `name`, a component
kind's attributes, a space's attributes and the keys of the tables' rows.
A property or a side variable of that name (rules set them) makes the
field unknown: its texts cannot be listed from the data.

`validate` warns about such a comparison (REF-TEXT); `lint` leaves it to
validate (its LINT-DID-YOU-MEAN covers the comparisons this cannot judge).
"""
from __future__ import annotations

from typing import Any


def fixed_texts(rs: Any) -> dict[str, set[str]]:  # a load.ruleset.Ruleset (a floor above)
    """field name -> every text that field holds somewhere in the ruleset;
    only fields no rule can change. Kept on the ruleset (made once)."""
    got = getattr(rs, "_fixed_texts", None)
    if got is not None:
        return got
    changing = set(rs.side_vars) | set(rs.game_vars)
    for k in rs.kinds.values():
        changing |= set(k.properties)
    out: dict = {"id": set(), "kind": set(rs.kinds), "name": set()}
    out["id"] |= {c.id for c in rs.components} | {sid for sid, _ in rs.spaces}
    out["id"] |= {sid for sid, _ in rs.seats + rs.sides}
    out["name"] |= {n for _, n in rs.seats + rs.sides if n}
    out["name"] |= {n for _, n in rs.zones}

    def add(field: str, value: Any) -> None:
        if field in changing:
            return
        if isinstance(value, str):
            out.setdefault(field, set()).add(value)
        elif value is None or isinstance(value, (int, bool, float)):
            out.setdefault(field, set())
        # lists and records: the field is not compared as one text; leave it out

    for k in rs.kinds.values():
        for name, a in k.attributes.items():
            if name in changing:
                continue
            out.setdefault(name, set())
            if a.values:
                out[name] |= {str(v) for v in a.values}
    for c in rs.components:
        for field, value in c.values.items():
            add(field, value)
    for _, values in rs.spaces:
        for field, value in (values or {}).items():
            add(field, value)

    def rows(v: Any, depth: int = 0) -> None:
        if depth > 64:
            return
        if isinstance(v, dict):
            for k, x in v.items():
                add(str(k), x)
                rows(x, depth + 1)
        elif isinstance(v, list):
            for x in v:
                rows(x, depth + 1)
    rows(rs.tables)
    # a field that is a list somewhere, or is set by rules, was never added
    # or is left as is: only fields with a set stand
    for name in changing:
        out.pop(name, None)
    try:
        rs._fixed_texts = out
    except AttributeError:  # a ruleset that takes no new attributes: work it out again
        pass
    return out
