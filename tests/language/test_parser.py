import pytest

from interpreter.language.parser import Source, parse
from interpreter.support.diagnostics import DiagnosticError


def test_else_on_its_own_line_continues_the_if():
    m = parse(Source("t.rules", "phase a {\n if x { y = 1 }\n # note\n else { y = 2 }\n}"))
    (stmt,) = m.items[0].body
    assert stmt.orelse is not None


def test_syntax_error_has_position_and_expectation():
    with pytest.raises(DiagnosticError) as e:
        parse(Source("t.rules", "phase a {\n  x = y z\n}"))
    (d,) = e.value.diagnostics
    assert (d.path, d.line, d.col, d.code) == ("t.rules", 2, 9, "SYNTAX")
    assert "expected" in d.message


def test_position_inside_yaml_block_is_mapped_to_the_file():
    src = Source("cards.yaml", "on x() {\n  y = = 2\n}", line0=10, col0=6)
    with pytest.raises(DiagnosticError) as e:
        parse(src)
    d = e.value.diagnostics[0]
    assert (d.line, d.col) == (12, 13)


def test_every_broken_item_in_a_file_is_reported():
    text = "phase a {\n  let x = = 1\n}\ndef f() { return 1 }\ndef g( { }\nphase b {\n  if { }\n}\n"
    with pytest.raises(DiagnosticError) as e:
        parse(Source("t.rules", text))
    assert [(d.line, d.col) for d in e.value.diagnostics] == [(2, 11), (5, 8), (7, 6)]
