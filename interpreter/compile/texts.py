"""Texts: log lines, prompts and texts built by interpolation, and the
secrets they carry (a hidden component, a picked card's field)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..language import ast as A
from .common import Var, _pure
from .compilerstate import CompilerState

if TYPE_CHECKING:
    from .common import Scope


class Texts(CompilerState):
    """The Compiler's texts (a part of compiler.Compiler)."""

    def e_Str(self, n: A.Str, scope: Scope) -> tuple[str, str]:
        """A text built by interpolation. Its values may hide something from
        some seat (a component lying where not everyone sees it, a field of
        a card a secret decision picked, a secret text): then B_built makes
        it a secret text (views.Secret), which keeps what it shows from those
        who may not see it wherever the text goes. The plain joined code
        stays the fast way when checks made in place show nothing hides."""
        raw: list[str]  # the code of its words and values, alternating
        parts, raw, grows, tests, built = [], [], False, [], False
        lit = ""  # the literal text raw ends with
        for p in n.parts:
            if isinstance(p, str):
                parts.append(repr(p))
                if len(raw) % 2:  # (text after text: one literal)
                    lit += p
                    raw[-1] = repr(lit)
                else:
                    lit = p
                    raw.append(repr(p))
                continue
            if not raw:
                raw.append("''")  # (no text before the first value)
            code, t, shown = self.shown_code(p, scope)
            raw.append(shown)
            if "G.sourced(" in shown:
                tests.append("not G._picked")
            obj = self.id_of.get(id(p))
            if obj is not None and (shown.startswith("G.ident(") or
                                    shown.startswith("G.sourced(G.ident(")):
                if _pure(p):
                    o = obj[0]
                    tests.append(f"({o}.__class__ is not Comp or {o}.zone is None or "
                                 f"{o}.zone.visibility == 'public')")
                else:
                    built = True
            if t == "int":
                parts.append(f"str({code})")
            elif t in ("side", "space"):
                parts.append(f"{code}.id")
            elif t.startswith("comp"):
                parts.append(f"{code}.id")
                if _pure(p):
                    tests.append(f"({code}.zone is None or {code}.zone.visibility == 'public')")
                else:
                    built = True
            elif t == "str" and isinstance(p, A.Attr) and p.name == "id" and \
                    code.endswith(".id"):
                parts.append(code)  # a known side's, space's or component's id: fixed
            elif t == "str":
                parts.append(code)
                grows = True
                if id(p) in self.fixed_fields:
                    pass
                elif _pure(p):  # a text that may be a secret one
                    tests.append(f"{code}.__class__ is not Secret")
                else:
                    built = True
            else:
                parts.append(f"show(G, {code})")
                grows = True
                if id(p) in self.fixed_fields:
                    pass
                elif _pure(p):  # a value that may hide something: a text, a number ...?
                    tests.append(f"{code}.__class__ in PLAIN")
                else:
                    built = True
            raw.append("''")  # the text after it (more may join it)
            lit = ""
        if built:
            return f"B_built(G, ({', '.join(raw)},))", "str"
        if not parts:
            return "''", "str"
        joined = parts[0] if len(parts) == 1 else " + ".join(parts)
        # text made of other text can double each turn of a loop: keep it bounded
        if grows and len(parts) > 1:
            joined = f"B_text(G, {joined})"
        self.joined[id(n)] = joined  # (lazy_label reads what the words are made of)
        if tests:
            return f"({joined} if {' and '.join(dict.fromkeys(tests))} else " \
                f"B_built(G, ({', '.join(raw)},)))", "str"
        return joined, "str"

    def reading(self, p: A.Node, scope: Scope) -> tuple[str, str, list[str]]:
        """expr(p), and the components whose fields it reads (as code), in
        case one is a card a secret decision picked (Game.sourced)."""
        saved = self._reads, self._reads_scope
        self._reads, self._reads_scope = [], scope
        try:
            code, t = self.expr(p, scope)
            return code, t, self._reads
        finally:
            self._reads, self._reads_scope = saved

    def shown_code(self, p: A.Node, scope: Scope) -> tuple[str, str, str]:
        """reading(p) for a value a text shows: (code, type, the code of its
        value as the text's secrets need it). A component's id shows the
        component (`{c.id}` of a card lying hidden is 'a card' to those who may
        not see it, Game.ident); a field read goes with what it was read from
        (Game.sourced)."""
        code, t, reads = self.reading(p, scope)
        raw = code
        obj = self.id_of.get(id(p))
        if obj is not None and (obj[1] == "any" or obj[1].startswith("comp")):
            reads = [r for r in reads if r != obj[0]]
            raw = f"G.ident({obj[0]})"
        if reads:
            raw = f"G.sourced({raw}, ({', '.join(reads)},), {self.read_field(p, scope)!r})"
        return code, t, raw

    def s_Log(self, s: A.Log, scope: Scope, ind: int) -> None:
        to = ""
        if s.to is not None:
            code, t = self.expr(s.to, scope)
            self.check_sides(s.to, t, "a log line is for a side or a list of sides")
            to = f", {code}"
        else:
            self.public_text(s.value, scope, "this log line is read by everyone")
        self.only_reads(s.value, "a log text", "a log line is made only when a log is kept")
        if isinstance(s.value, A.Str) and any(not isinstance(p, str) for p in s.value.parts):
            items = self.text_parts(s.value, scope)
            self.emit(ind, f"if G.logging: G.log_text(lambda: ({', '.join(items)},){to})",
                      s.span)
            return
        code, _ = self.expr(s.value, scope)
        # (made by Game.text_of: a log text spends no steps and never fails a game)
        self.emit(ind, f"if G.logging: G.log_text(lambda: (show(G, {code}),){to})", s.span)

    def text_parts(self, value: A.Node, scope: Scope) -> list[str]:
        """A text's parts as code, literal text and values alternating: the
        values go to the log as they are, so that a component some seat may
        not see is shown to it as "a card" (views.py)."""
        if not isinstance(value, A.Str):
            return [f"show(G, {self.expr(value, scope)[0]})"]
        parts = [""]
        for p in value.parts:
            if isinstance(p, str):
                parts[-1] += p
                continue
            parts += [self.shown_value(p, scope), ""]
        return [repr(p) if i % 2 == 0 else p for i, p in enumerate(parts)]

    def shown_value(self, p: A.Node, scope: Scope) -> str:
        """A value inserted in a log text or a prompt, as code. One read from a
        component's fields ({c.rank}) is as secret as the component: it goes
        with it (views.Sourced), so that those who may not see the component
        read what it is, not what it says."""
        return self.shown_code(p, scope)[2]

    def read_field(self, p: A.Node, scope: Scope) -> str | None:
        """The field a shown value reads (`{c.rank}`, or `{r}` kept by `let r = c.rank`)."""
        if isinstance(p, A.Attr):
            return p.name
        v = scope.lookup(p.id) if isinstance(p, A.Name) else None
        return v.field if v is not None else None

    def log_clause(self, node: A.Node | None, scope: Scope, subject: str) -> str | None:
        """A statement's `log TEXT` (or `log x => TEXT`, x being what the
        event moved, drew, rolled, paid, placed or chose, of type `subject`) as
        code for a function giving the line's parts; None without one."""
        if node is None:
            return None
        var, inner, body = "l_", scope, node
        if isinstance(node, A.Lambda):
            inner = scope.child()
            inner.names[node.param] = Var(f"l_{node.param}", subject)
            var, body = f"l_{node.param}", node.body
        self.public_text(body, inner, "this log line is read by everyone who sees the event")
        self.only_reads(body, "a log text", "a log line is made only when a log is kept")
        return f"(lambda {var}: ({', '.join(self.text_parts(body, inner))},))"
