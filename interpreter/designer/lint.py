"""`rulebook lint PATH`: findings beyond validation, with stable LINT- codes.

A ruleset is linted as its base game, each variant and each overlay a
variant's options select, as `validate` checks it; a finding is reported
when it holds in every one of those that reads its file (a table only a
variant reads is not unused). The checker's own warnings come in under lint
codes too. game.yaml's `lint:` block turns codes off (`disable:`) or accepts
one finding with a reason (`allow:`, matched by code and name).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from ..support.diagnostics import Diagnostic, render, waste
from .lintcheck import LINT_CODES, Finding, check, finding

if TYPE_CHECKING:
    from ..load.ruleset import Ruleset

# the checker's warnings, by the start of their message, and their lint code
_WARNINGS = [
    ("phase ", "LINT-UNUSED-PHASE"),
    ("no rule triggers event", "LINT-NEVER-FIRES"),
    ("no rule opens window", "LINT-NEVER-FIRES"),
    ("event ", "LINT-NEVER-FIRES"),
    ("this expression does nothing", "LINT-NO-EFFECT"),
]


def _from_warning(d: Diagnostic) -> Finding:
    code = next((c for start, c in _WARNINGS if d.message.startswith(start)), "LINT-NO-EFFECT")
    parts = d.message.split("'")
    name = parts[1] if len(parts) > 2 else f"line {d.line}"
    return Finding(d.path, d.line, d.col, code, d.message, severity="warning", hint=d.hint,
                   name=name)


def _combos(path: str | Path) -> Iterator[tuple[str | None, dict]]:
    """(variant, options) of every game `validate` checks."""
    from ..load.ruleset import load_ruleset

    yield None, {}
    rs, _ = load_ruleset(Path(path))
    for variant in rs.variants:
        vrs, _ = load_ruleset(Path(path), variant)
        yield variant, {}
        for opt, table in vrs.overlay_map.items():
            for value in table:
                yield variant, {opt: value}


def _files(rs: Ruleset) -> set[str]:
    paths = {m.span.path for m in rs.modules} | {c.path for c in rs.components}
    paths |= {k.path for k in rs.kinds.values()}
    for w in rs.where.values():
        if isinstance(w, tuple) and w and isinstance(w[0], str):
            paths.add(w[0])
    return paths


def lint_ruleset(path: str | Path) -> tuple[list[Finding], list[Diagnostic]]:
    """(findings, errors): errors when the ruleset does not load or check."""
    from ..run.engine import load_program
    from ..load.ruleset import load_ruleset

    seen: dict = {}  # finding key -> (finding, combos it was found in)
    loaded: list[set[str]] = []  # the files each combo read
    base = None
    for variant, options in _combos(path):
        rs, diags = load_ruleset(Path(path), variant, options)
        errors = [d for d in diags if d.severity == "error"]
        program, pdiags = (None, diags) if errors else load_program(
            path, variant=variant, options=options, backend="reference")
        errors = [d for d in pdiags if d.severity == "error"]
        if errors:
            return [], errors
        if base is None:
            base = rs
        # the checker's warnings about waste are lint's; its likely mistakes
        # (REF-TEXT) are validate's alone
        found = check(rs) + [_from_warning(d) for d in pdiags if waste(d)]
        found += _indescribable(rs)
        combo = len(loaded)
        loaded.append(_files(rs))
        for f in found:
            key = (f.code, f.name, f.path, f.line, f.col)
            seen.setdefault(key, (f, set()))[1].add(combo)
    out = []
    for key, (f, combos) in seen.items():
        wanted = {i for i, files in enumerate(loaded) if f.path in files}
        if wanted <= combos:
            out.append(f)
    assert base is not None  # (the base game is the first combo)
    return _configured(base, out), []


def _indescribable(rs: Ruleset) -> list[Finding]:
    """Constructs the generated reference cannot say in words (rulebook docs)."""
    try:
        from .describe import indescribable
    except ImportError:
        return []
    out = []
    for node in indescribable(rs):
        s = node.span
        out.append(finding(s.path, s.line, s.col, "LINT-NO-DESCRIPTION", type(node).__name__,
                           f"rulebook docs has no words for this {type(node).__name__}"))
    return out


def _configured(rs: Ruleset, found: list[Finding]) -> list[Finding]:
    """Apply game.yaml's `lint:` block: drop disabled codes, mark accepted
    findings, and report accepted ones that no longer match anything."""
    cfg = rs.lint or {}
    off = set(cfg.get("disable") or [])
    out = [f for f in found if f.code not in off]
    for i, entry in enumerate(cfg.get("allow") or []):
        hits = [f for f in out if f.code == entry["code"] and f.name == entry["name"]]
        for f in hits:
            f.allowed = entry["why"]
        if not hits:
            where: tuple[str, int, int] = rs.where.get(("lint-allow", i)) or \
                rs.where.get("lint") or (str(rs.path / "game.yaml"), 1, 1)
            out.append(finding(*where, "LINT-ALLOW-STALE", entry["name"],
                               f"nothing matches this accepted {entry['code']} finding "
                               f"about {entry['name']!r}",
                               hint="delete the entry, or correct its code or name"))
    for code in sorted(off - set(LINT_CODES)):
        block: tuple[str, int, int] = rs.where.get("lint") or (str(rs.path / "game.yaml"), 1, 1)
        out.append(finding(*block, "LINT-ALLOW-STALE", code, f"no lint code {code!r}",
                           hint="rulebook lint --codes lists them"))
    return sorted(out, key=lambda f: (f.path, f.line, f.col, f.code, f.name))


def sarif(findings: list[Finding]) -> dict:
    """SARIF 2.1.0, the format code-scanning tools and editors read."""
    used = sorted({f.code for f in findings})
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "rulebook lint",
                "informationUri": "https://example.invalid/rulebook",
                "rules": [{"id": c, "shortDescription": {"text": LINT_CODES.get(c, c)}}
                          for c in used]}},
            "results": [{
                "ruleId": f.code,
                "level": "note" if f.allowed else "warning",
                "message": {"text": f.message + (f" ({f.hint})" if f.hint else "")},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": Path(f.path).as_posix()},
                    "region": {"startLine": max(f.line, 1), "startColumn": max(f.col, 1)}}}],
                **({"suppressions": [{"kind": "external", "justification": f.allowed}]}
                   if f.allowed else {}),
            } for f in findings]}]}


__all__ = ["lint_ruleset", "sarif", "render"]
