"""`rulebook lint PATH`: findings beyond validation, with stable LINT- codes.

A ruleset is linted as its base game, each variant and each overlay a
variant's options select, as `validate` checks it; a finding is reported
when it holds in every one of those that reads its file (a table only a
variant reads is not unused). The checker's own warnings come in under lint
codes too. game.yaml's `lint:` block turns codes off (`disable:`) or accepts
one finding with a reason (`allow:`, matched by code and name).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..support.diagnostics import Diagnostic, render, waste
from .lintcheck import LINT_CODES, Finding, check, finding
from ..support.terminal import echo

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


def _combos(path):
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


def _files(rs) -> set:
    paths = {m.span.path for m in rs.modules} | {c.path for c in rs.components}
    paths |= {k.path for k in rs.kinds.values()}
    for w in rs.where.values():
        if isinstance(w, tuple) and w and isinstance(w[0], str):
            paths.add(w[0])
    return paths


def lint_ruleset(path) -> tuple[list[Finding], list[Diagnostic]]:
    """(findings, errors): errors when the ruleset does not load or check."""
    from ..run.engine import load_program
    from ..load.ruleset import load_ruleset

    seen: dict = {}  # finding key -> (finding, combos it was found in)
    loaded = []  # the files each combo read
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
    return _configured(base, out), []


def _indescribable(rs) -> list[Finding]:
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


def _configured(rs, found: list[Finding]) -> list[Finding]:
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
            where = rs.where.get(("lint-allow", i)) or rs.where.get("lint") or (
                str(rs.path / "game.yaml"), 1, 1)
            out.append(finding(*where, "LINT-ALLOW-STALE", entry["name"],
                               f"nothing matches this accepted {entry['code']} finding "
                               f"about {entry['name']!r}",
                               hint="delete the entry, or correct its code or name"))
    for code in sorted(off - set(LINT_CODES)):
        where = rs.where.get("lint") or (str(rs.path / "game.yaml"), 1, 1)
        out.append(finding(*where, "LINT-ALLOW-STALE", code, f"no lint code {code!r}",
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


@click.command("lint")
@click.argument("path", required=False)
@click.option("--format", "fmt", type=click.Choice(["full", "concise", "json", "sarif"]),
              default="full", show_default=True,
              help="full: with the source line and a caret; concise: one line each; json; "
              "sarif (for editors and code scanning).")
@click.option("--show-allowed", is_flag=True,
              help="Also list the findings game.yaml's lint: allow: accepts, with the reason.")
@click.option("--codes", "list_codes", is_flag=True, help="List the lint codes and stop.")
def command(path, fmt, show_allowed, list_codes):
    """Find what is probably a mistake in the ruleset at PATH: unused
    definitions, rules that never run, constant conditions, one-option
    decisions, draws from zones nothing fills, near-miss names.

    Exit 0 when nothing (unaccepted) is found, 1 otherwise."""
    if list_codes:
        for code, meaning in LINT_CODES.items():
            echo(f"{code:26} {meaning}")
        return
    if not path:
        raise click.UsageError("lint needs a ruleset folder")
    from .commands import fail
    from ..load.yamlio import is_dir

    if not is_dir(Path(path)):
        fail([Diagnostic(str(path), 1, 1, "FILE-MISSING", "no ruleset folder here")],
              "json" if fmt in ("json", "sarif") else "text")
    found, errors = lint_ruleset(path)
    if errors:
        fail(errors, "json" if fmt in ("json", "sarif") else "text")
    shown = [f for f in found if show_allowed or not f.allowed]
    open_ = [f for f in found if not f.allowed]
    if fmt == "json":
        echo(json.dumps([f.to_json() for f in shown], indent=2))
    elif fmt == "sarif":
        echo(json.dumps(sarif(shown), indent=2))
    else:
        for f in shown:
            text = f.short() if fmt == "concise" else f.long()
            if f.allowed:
                text += f"\n    accepted: {f.allowed}" if fmt == "full" else \
                    f" [accepted: {f.allowed}]"
            echo(text, err=True)  # findings are diagnostics: stderr
        accepted = len(found) - len(open_)
        echo(f"{len(open_)} finding(s)" + (f", {accepted} accepted in game.yaml"
                                            if accepted else ""))
    sys.exit(1 if open_ else 0)


__all__ = ["command", "lint_ruleset", "sarif", "render"]
