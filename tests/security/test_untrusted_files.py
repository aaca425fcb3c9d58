"""Rule folders and scenarios are untrusted input: every problem in reading
them is a located diagnostic, never a hang, a traceback or INTERNAL.

Each test copies a real ruleset into a temporary folder, injects one bad
input, runs `rulebook validate --format json` and checks the exact code and
the line:col computed from the edited text (as tests/language/test_diagnostics.py
does). Inputs that would take long to process (an alias bomb, huge counts)
are refused before any work proportional to their expanded size is done.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from helpers import at, copy_ruleset, inject, line_col, locate, only, validate

from interpreter.load.ruleset import load_ruleset
from interpreter.support.limits import (
    MAX_COMPONENTS,
    MAX_COPIES,
    MAX_FILE_BYTES,
    MAX_NUMBER,
    MAX_PATH_CHARS,
    MAX_SPACES,
    MAX_YAML_DEPTH,
    MAX_YAML_NODES,
)


# ---------------------------------------------------------------- helpers
# (rs and race, fresh copies of smile_and_gun and tutorial_race, are fixtures
# of tests/conftest.py; inject, locate, validate, only and at are in
# tests/helpers.py)
def write_scenario(folder: Path, body: str) -> tuple[Path, str]:
    path = folder.parent / "test.scenario.yaml"
    text = f"scenario: an untrusted scenario\n{body}"
    path.write_text(text, encoding="utf-8")
    return path, text


# ---------------------------------------------------------------- file size
@pytest.mark.parametrize("name", ["board.yaml", "flow.rules"])
def test_a_file_over_the_size_limit_is_refused_before_reading(rs, name):
    path = rs / name
    with path.open("a", encoding="utf-8") as fh:
        fh.write("# " + "x" * MAX_FILE_BYTES + "\n")
    d = only(validate(rs), "LIMIT")
    at(d, path, 1, 1)
    assert f"{MAX_FILE_BYTES:,} bytes" in d["message"]


def test_a_scenario_over_the_size_limit_is_refused(race):
    path, _ = write_scenario(race, "ruleset: race\n# " + "x" * MAX_FILE_BYTES + "\n")
    d = only(validate(path), "LIMIT")
    at(d, path, 1, 1)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_not_read(rs):
    os.mkfifo(rs / "pipe.yaml")  # opening it to read would wait for a writer forever
    d = only(validate(rs), "FILE-MISSING")
    at(d, rs / "pipe.yaml", 1, 1)
    assert "not a regular file" in d["message"]


# ---------------------------------------------------------------- encoding
def _write_bytes_after(path: Path, needle: str, raw: bytes) -> tuple[int, int]:
    """Insert raw bytes just before `needle`; (line, col) where they start."""
    text = path.read_text(encoding="utf-8")
    assert text.count(needle) == 1
    i = text.index(needle)
    path.write_bytes(text[:i].encode("utf-8") + raw + text[i:].encode("utf-8"))
    return line_col(text, i)


@pytest.mark.parametrize("name, needle", [("board.yaml", "warehouses, railyard]}"),
                                          ("flow.rules", "fill_city()\n")])
def test_a_file_that_is_not_utf8_is_file_encoding_at_the_first_bad_byte(rs, name, needle):
    line, col = _write_bytes_after(rs / name, needle, "é".encode("latin-1"))
    d = only(validate(rs), "FILE-ENCODING")
    at(d, rs / name, line, col)
    assert "0xe9" in d["message"]


def test_utf8_before_the_bad_byte_counts_as_characters(rs):
    # the column counts characters: 'ü' (two bytes in UTF-8) before the bad byte is one
    line, col = _write_bytes_after(rs / "board.yaml", "warehouses, railyard]}",
                                   "ü".encode() + b"\xff")
    d = only(validate(rs), "FILE-ENCODING")
    at(d, rs / "board.yaml", line, col + 1)


def test_a_utf16_file_is_file_encoding(rs):
    path = rs / "dice.yaml"
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))
    d = only(validate(rs), "FILE-ENCODING")
    at(d, path, 1, 1)


@pytest.mark.parametrize("name, needle", [("board.yaml", "warehouses, railyard]}"),
                                          ("flow.rules", "fill_city()\n")])
def test_a_nul_byte_makes_a_file_binary(rs, name, needle):
    line, col = _write_bytes_after(rs / name, needle, b"\x00")
    d = only(validate(rs), "FILE-ENCODING")
    at(d, rs / name, line, col)
    assert "NUL" in d["message"]


def test_random_binary_garbage_is_file_encoding(rs):
    (rs / "junk.yaml").write_bytes(b"kind: tables\n\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    d = only(validate(rs), "FILE-ENCODING")
    at(d, rs / "junk.yaml", 2, 1)


def test_a_control_character_in_yaml_is_located(rs):
    text = inject(rs, "board.yaml", "warehouses, railyard]}", "warehouses, rail\x07yard]}")
    d = only(validate(rs), "YAML-SYNTAX")
    at(d, rs / "board.yaml", *locate(text, "\x07"))
    assert "#x0007" in d["message"]


# ---------------------------------------------------------------- YAML aliases
ALIAS_BOMB = """kind: tables
tables:
  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]
  a1: &a1 [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0]
  a2: &a2 [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1]
  a3: &a3 [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2]
  a4: &a4 [*a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3]
  a5: &a5 [*a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4]
  a6: &a6 [*a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5]
  a7: &a7 [*a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6]
  a8: &a8 [*a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7]
  a9: &a9 [*a8, *a8, *a8, *a8, *a8, *a8, *a8, *a8, *a8]
"""


def test_an_alias_bomb_is_refused_at_the_alias_that_overflows(rs):
    assert len(ALIAS_BOMB) < 2048
    (rs / "bomb.yaml").write_text(ALIAS_BOMB, encoding="utf-8")
    # the expanded size, as a designer would count it: a0 holds 9 values, a<k> 9 * a<k-1>
    sizes = [1 + 9]
    for _ in range(9):
        sizes.append(1 + 9 * sizes[-1])
    where = None
    total = 1 + 2 + 1 + 1  # the file's mapping, kind: tables, the key 'tables', its mapping
    for k in range(10):
        total += 1  # the key a<k>
        if k == 0:
            total += sizes[0]
            continue
        total += 1  # the list a<k>
        for j in range(9):
            total += sizes[k - 1]
            if total > MAX_YAML_NODES and where is None:
                where = (k, j)
    assert where is not None
    k, j = where
    expected = locate(ALIAS_BOMB, f"*a{k - 1}", after=f"  a{k}: ", nth=j + 1)
    d = only(validate(rs), "YAML-ALIAS")
    at(d, rs / "bomb.yaml", *expected)
    assert f"{MAX_YAML_NODES:,}" in d["message"]


def test_small_aliases_and_merge_keys_still_work_beside_a_refused_cycle(rs):
    # an ordinary `<<: *defaults` is fine; only the self-referencing alias is refused
    text = ("kind: tables\ntables:\n  base: &defaults {cost: 2, gain: 1}\n"
            "  dear: {<<: *defaults, cost: 5}\n  plain: *defaults\n"
            "  loop: &me [1, 2, *me]\n")
    (rs / "extra.yaml").write_text(text, encoding="utf-8")
    d = only(validate(rs), "YAML-ALIAS")
    at(d, rs / "extra.yaml", *locate(text, "*me"))
    assert "*me" in d["message"] and "cycle" in d["message"]
    (rs / "extra.yaml").write_text(text.replace("  loop: &me [1, 2, *me]\n", ""),
                                   encoding="utf-8")
    assert [d for d in validate(rs) if d["severity"] == "error"] == []


def test_a_mapping_that_aliases_itself_is_a_cycle(rs):
    text = inject(rs, "tables.yaml", "tables:\n", "tables:\n  me: &m {a: 1, b: *m}\n")
    d = only(validate(rs), "YAML-ALIAS")
    at(d, rs / "tables.yaml", *locate(text, "*m"))


# ---------------------------------------------------------------- nesting
@pytest.mark.parametrize("depth", [MAX_YAML_DEPTH + 1, 100_000])
def test_nesting_deeper_than_the_limit_is_located_at_the_first_level_too_deep(rs, depth):
    # the file's mapping and 'tables' are two levels; a table's list opens at level 3
    lists, fine = depth - 2, MAX_YAML_DEPTH - 2  # `ok` nests exactly to the limit
    text = inject(rs, "tables.yaml", "tables:\n",
                  "tables:\n  ok: " + "[" * fine + "]" * fine + "\n"
                  "  deep: " + "[" * lists + "]" * lists + "\n")
    d = only(validate(rs), "LIMIT")
    line, col = locate(text, "[", after="deep:")  # level MAX + 1 is list MAX - 1
    at(d, rs / "tables.yaml", line, col + MAX_YAML_DEPTH - 2)
    assert str(MAX_YAML_DEPTH) in d["message"]


def test_nesting_in_block_style_is_limited_too(rs):
    text = inject(rs, "tables.yaml", "tables:\n",
                  "tables:\n  deep:\n    " + "- " * (MAX_YAML_DEPTH - 1) + "x\n")
    d = only(validate(rs), "LIMIT")
    at(d, rs / "tables.yaml", *locate(text, "- ", after="deep:", nth=MAX_YAML_DEPTH - 1))


def test_an_alias_cannot_nest_deeper_than_the_limit(rs):
    half = MAX_YAML_DEPTH // 2 + 2
    anchored = "&deep " + "[" * half + "]" * half
    text = inject(rs, "tables.yaml", "tables:\n",
                  f"tables:\n  a: {anchored}\n  b: " + "[" * half + "*deep" + "]" * half + "\n")
    d = only(validate(rs), "LIMIT")
    at(d, rs / "tables.yaml", *locate(text, "*deep"))
    assert "*deep" in d["message"]


# ---------------------------------------------------------------- numbers
def test_an_integer_of_thousands_of_digits_is_a_located_limit(rs):
    text = inject(rs, "tables.yaml", "tables:\n", "tables:\n  huge: " + "9" * 5000 + "\n")
    d = only(validate(rs), "LIMIT")
    at(d, rs / "tables.yaml", *locate(text, "9" * 5000))


@pytest.mark.parametrize("value", [MAX_NUMBER + 1, -(MAX_NUMBER + 1), 10 ** 4000])
def test_an_integer_past_max_number_is_a_limit_at_the_value(rs, value):
    # the largest number allowed, either sign, is fine
    text = inject(rs, "tables.yaml", "tables:\n",
                  f"tables:\n  big: [{MAX_NUMBER}, {-MAX_NUMBER}, {value}]\n")
    d = only(validate(rs), "LIMIT")
    line, col = locate(text, f", {value}]")
    at(d, rs / "tables.yaml", line, col + len(", "))
    assert f"{MAX_NUMBER:,}" in d["message"]


def test_a_big_integer_key_is_a_limit_at_the_key(rs):
    key = str(MAX_NUMBER * 10)
    text = inject(rs, "tables.yaml", "tables:\n", f"tables:\n  big: {{{key}: 1}}\n")
    d = only(validate(rs), "LIMIT")
    at(d, rs / "tables.yaml", *locate(text, key))


def test_a_big_hex_integer_is_a_limit(rs):
    text = inject(rs, "tables.yaml", "tables:\n", "tables:\n  big: 0x" + "f" * 40 + "\n")
    d = only(validate(rs), "LIMIT")
    at(d, rs / "tables.yaml", *locate(text, "0x", after="big: "))


@pytest.mark.parametrize("name, old, new, shown", [
    ("dice.yaml", "count: 13}", "count: 2.0}", "2.0"),
    ("dice.yaml", "count: 13}", "count: 1e9}", "1e9"),
    ("game.yaml", "\nplayers: 2\n", "\nplayers: 2.0\n", "2.0"),
    ("game.yaml", "supply: 35", "supply: 3.0", "3.0"),
    ("game.yaml", "\nplayers: 2\n", "\nplayers: &two true\n", "&two"),
])
def test_a_decimal_or_a_truth_where_a_whole_number_is_wanted_is_schema_type(rs, name, old, new,
                                                                            shown):
    text = inject(rs, name, old, new)
    d = only(validate(rs), "SCHEMA-TYPE")
    at(d, rs / name, *locate(text, shown, after=new.strip()[:5]))
    assert "whole number" in d["message"]


# ---------------------------------------------------------------- counts
def test_a_count_over_max_copies_is_refused_at_the_count(rs):
    text = inject(rs, "dice.yaml", "count: 13}", f"count: {MAX_COPIES + 1}}}")
    d = only(validate(rs), "LIMIT")
    at(d, rs / "dice.yaml", *locate(text, str(MAX_COPIES + 1)))
    assert f"{MAX_COPIES:,}" in d["message"]


def test_a_huge_count_is_refused_without_making_the_copies(rs):
    # 50 million ids would take gigabytes; the count is refused as it is read
    text = inject(rs, "dice.yaml", "count: 13}", "count: 50000000}")
    d = only(validate(rs), "LIMIT")
    at(d, rs / "dice.yaml", *locate(text, "50000000"))
    rs_, diags = load_ruleset(rs)
    assert len(rs_.components) < MAX_COMPONENTS


def test_more_than_max_components_in_all_is_refused_at_the_item(rs):
    already = len(load_ruleset(rs)[0].components)
    per = MAX_COPIES
    n = MAX_COMPONENTS // per + 1
    items = "".join(f"  - {{id: chip{i}, count: {per}}}\n" for i in range(n))
    text = f"kind: components\ncomponent: chip\nzone: pool\nitems:\n{items}"
    (rs / "zz_chips.yaml").write_text(text, encoding="utf-8")  # loads after the others
    # the item whose copies take the total past the limit
    crossing = next(i for i in range(n) if already + per * (i + 1) > MAX_COMPONENTS)
    d = only(validate(rs), "LIMIT")
    at(d, rs / "zz_chips.yaml", *locate(text, str(per), after=f"chip{crossing},"))
    assert f"{MAX_COMPONENTS:,}" in d["message"]


def test_a_board_with_more_than_max_spaces_is_refused_at_the_first_space_too_many(race):
    spaces = "".join(f"  - {{id: x{i}}}\n" for i in range(MAX_SPACES + 5))
    text = inject(race, "board.yaml", "spaces:\n", "spaces:\n" + spaces)
    d = only(validate(race), "LIMIT")
    at(d, race / "board.yaml", *locate(text, f"{{id: x{MAX_SPACES}}}"))
    assert f"{MAX_SPACES:,}" in d["message"]


# ---------------------------------------------------------------- paths
def test_a_scenario_ruleset_path_too_long_for_the_system_is_file_missing(race):
    name = "r" * 300  # longer than a file name may be: the system says ENAMETOOLONG
    path, text = write_scenario(race, f"ruleset: {name}\n")
    d = only(validate(path), "FILE-MISSING")
    at(d, path, *locate(text, name))


def test_a_scenario_ruleset_path_over_max_path_chars_is_a_limit(race):
    name = "/".join(["r" * 99] * (MAX_PATH_CHARS // 100 + 1))
    path, text = write_scenario(race, f"ruleset: {name}\n")
    d = only(validate(path), "LIMIT")
    at(d, path, *locate(text, name))
    assert f"{MAX_PATH_CHARS:,}" in d["message"]


def test_a_nul_in_a_scenario_ruleset_path_is_file_missing(race):
    path, text = write_scenario(race, 'ruleset: "ra\\0ce"\n')
    d = only(validate(path), "FILE-MISSING")
    at(d, path, *locate(text, '"ra'))
    assert "\x00" not in d["message"]


def test_a_scenario_variant_name_too_long_is_an_option_error(race):
    path, _ = write_scenario(race, "ruleset: race\nvariant: " + "v" * 300 + "\n")
    d = only(validate(path), "OPTION")
    at(d, path, 3, 10)  # the scenario's own `variant:`, which names no variant
    assert "no variant" in d["message"] and len(d["message"]) < 200


def test_a_ruleset_folder_path_over_max_path_chars_is_a_limit(tmp_path):
    long = tmp_path / ("x" * (MAX_PATH_CHARS + 1))
    rs_, diags = load_ruleset(long)
    assert [(d.code, d.line, d.col) for d in diags] == [("LIMIT", 1, 1)]
    assert f"{MAX_PATH_CHARS:,}" in diags[0].message


@pytest.fixture
def solo(tmp_path) -> Path:
    return copy_ruleset("smile_and_gun", tmp_path / "sg", "scenarios", "__pycache__")


def _the_cask(solo: Path) -> Path:
    """A scenario playing the solo variant with the overlay of the-cask."""
    path, _ = write_scenario(solo, "ruleset: sg\nvariant: solo\noptions: {scenario: the-cask}\n")
    return path


def test_an_overlay_folder_name_too_long_is_file_missing(solo):
    name = "c" * 300
    text = inject(solo, "variants/solo/variant.yaml", "the-cask: campaign/the-cask",
                  f"the-cask: campaign/{name}")
    d = only(validate(_the_cask(solo)), "FILE-MISSING")
    at(d, solo / "variants" / "solo" / "variant.yaml", *locate(text, "scenario:", after="options:"))
    assert "309 characters" in d["message"] and len(d["message"]) < 200


def test_an_overlay_folder_outside_the_variant_is_refused(solo):
    outside = solo.parent / "elsewhere"  # a real overlay, but not inside the variant
    shutil.copytree(solo / "variants" / "solo" / "campaign" / "the-cask", outside)
    text = inject(solo, "variants/solo/variant.yaml", "the-cask: campaign/the-cask",
                  "the-cask: ../../../elsewhere")
    d = only(validate(_the_cask(solo)), "FILE-MISSING")
    at(d, solo / "variants" / "solo" / "variant.yaml", *locate(text, "scenario:", after="options:"))
    assert "inside the variant" in d["message"]


def test_the_safe_path_predicates_answer_false_instead_of_raising(tmp_path):
    from interpreter.load.yamlio import exists, is_dir, is_file, read_text

    for bad in ["n" * 300, "a\0b", "x" * (MAX_PATH_CHARS + 1), tmp_path / ("d" * 300) / "f"]:
        assert (is_dir(bad), is_file(bad), exists(bad)) == (False, False, False)
    assert is_dir(tmp_path) and exists(tmp_path) and not is_file(tmp_path)
    diags = []
    assert read_text(tmp_path / ("f" * 300), diags) is None
    assert [d.code for d in diags] == ["FILE-MISSING"]
    diags = []
    assert read_text("a\0b", diags) is None and [d.code for d in diags] == ["FILE-MISSING"]


# ---------------------------------------------------------------- long values in messages
def test_a_long_unknown_key_is_cut_short_in_the_message(rs):
    key = "k" * 300
    text = inject(rs, "game.yaml", "\nplayers: 2\n", f"\nplayers: 2\n{key}: 1\n")
    d = only(validate(rs), "SCHEMA-UNKNOWN-KEY")
    at(d, rs / "game.yaml", *locate(text, key))
    assert len(d["message"]) < 200 and "300 characters" in d["message"]


def test_a_huge_string_is_cut_short_in_the_message(rs):
    huge = "x" * (MAX_FILE_BYTES // 2)
    text = inject(rs, "game.yaml", "\nplayers: 2\n", f"\nplayers: {huge}\n")
    d = only(validate(rs), "SCHEMA-TYPE")
    at(d, rs / "game.yaml", *locate(text, huge[:10]))
    assert len(d["message"]) < 300


@pytest.mark.parametrize("error", [RecursionError, MemoryError])
def test_the_yaml_reader_running_out_is_a_limit_not_a_crash(rs, monkeypatch, error):
    # the bounds above keep ruamel well inside Python's limits; this is the net
    from ruamel.yaml import YAML

    def load(self, stream):
        raise error("maximum recursion depth exceeded" if error is RecursionError else "")

    monkeypatch.setattr(YAML, "load", load)
    errors = [d for d in validate(rs) if d["severity"] == "error"]
    assert errors and {(d["code"], d["line"], d["col"]) for d in errors} == {("LIMIT", 1, 1)}
    assert {Path(d["path"]).name for d in errors} >= {"game.yaml", "board.yaml"}
