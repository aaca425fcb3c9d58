"""The four HTML pages (the game log, the rules reference, the coverage
page, the balance report) come from the Jinja2 templates of one folder,
interpreter/templates/html/, through designer/pages.py: one frame, one
stylesheet written once into each page, autoescaping on. A text a ruleset
gives (its name, an option's value, a log line, a choice's label) never
becomes markup in any of them, and no control character reaches a page."""
from __future__ import annotations

import io
import re
import shutil
import tokenize
from pathlib import Path

import pytest
from helpers import ROOT, RULES, cli

from interpreter.designer import pages

PACKAGE = ROOT / "interpreter"
TEMPLATES = PACKAGE / "templates" / "html"
EVIL = "<script>alert({n})</script>"
CONTROLS = "\x1b[2K\x1b]52;c;aGVsbG8=\x07\u009b2J"
# markup that belongs in a template, not in a Python string (a regex group (?P<head>) is none)
PAGE_TAGS = re.compile(r"(?<!\?P)<(!DOCTYPE|html|head|body|style|h[1-6]|table|tr|td|th|ul|li|"
                       r"details|summary|figure|nav)\b", re.I)


def markup_in_strings(source: str) -> list:
    """(line, text) of every string literal of a module that holds page markup."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.STRING and PAGE_TAGS.search(tok.string):
            out.append((tok.start[0], tok.string[:60]))
        elif getattr(tokenize, "FSTRING_MIDDLE", None) == tok.type and PAGE_TAGS.search(
                tok.string):
            out.append((tok.start[0], tok.string[:60]))
    return out


def test_no_python_module_writes_page_markup():
    found = {str(p.relative_to(ROOT)): hits for p in sorted(PACKAGE.rglob("*.py"))
             if (hits := markup_in_strings(p.read_text(encoding="utf-8")))}
    assert found == {}


def test_the_markup_check_can_fail():
    assert markup_in_strings('x = 1\npage = "<!DOCTYPE html>\\n<html lang=en>"\n') == [
        (2, '"<!DOCTYPE html>\\n<html lang=en>"')]
    assert markup_in_strings("s = f'<style>{css}</style>'\n")
    assert markup_in_strings("s = '<svg width=\"3\">'\n") == []  # a drawing is no page


def test_one_template_folder_one_frame_one_stylesheet():
    names = sorted(p.name for p in TEMPLATES.iterdir())
    assert names == ["base.html", "charts.html", "coverage.html", "docs.html", "log.html",
                     "macros.html", "page.css", "report.html"]
    for page in ("coverage.html", "docs.html", "log.html", "report.html"):
        assert (TEMPLATES / page).read_text().count('{% extends "base.html" %}') == 1
    assert sum("page.css" in (TEMPLATES / n).read_text() for n in names if n != "page.css") == 1
    env = pages.environment()
    assert env.autoescape is True and env.undefined.__name__ == "StrictUndefined"


# ------------------------------------------------------------ a hostile ruleset
HOSTILE_RULES = f"""
game {{
  setup {{ for p in players {{ p.at = space("start") }} }}
  rounds 3 {{ race }}
  finish {{ win most(players, p => p.laps) }}
}}
phase race {{
  for p in players {{
    turn p {{
      log "{EVIL.format(n=3)} {CONTROLS} {{p}}"
      choose p as mood "how?" {{
        option "{EVIL.format(n=4)}{CONTROLS}" {{ p.laps += 1 }}
        option "calm" {{ }}
      }}
    }}
  }}
}}
"""


def hostile(tmp_path) -> Path:
    """tutorial_race with a name, an option's values, a log line and a
    choice's labels that are HTML and control characters."""
    folder = tmp_path / "race"
    shutil.copytree(RULES / "tutorial_race", folder, ignore=shutil.ignore_patterns("scenarios"))
    (folder / "race.rules").write_text(HOSTILE_RULES)
    game = (folder / "game.yaml").read_text().replace(
        "name: Tutorial Race", f'name: "Race {EVIL.format(n=1)} \\e[2K"').replace(
        "options:\n", "options:\n  mood:\n    description: \"<i>how</i>\"\n"
        f"    choices: ['{EVIL.format(n=2)}', calm]\n    default: random\n")
    (folder / "game.yaml").write_text(game)
    return folder


def every_page(folder: Path, out: Path) -> dict:
    """The four pages of `folder`, by name (the log from standard output,
    the others written to files)."""
    r = cli("play", folder, "--seed", "1", "--format", "html")
    assert r.exit_code == 0, r.output
    got = {"log": r.output}
    for name, args in (("docs", ["docs", folder, "--format", "html"]),
                       ("coverage", ["coverage", folder, "--games", "4", "--format", "html"]),
                       ("report", ["report", folder, "--games", "12", "--workers", "1",
                                   "--format", "html"])):
        r = cli(*args, "-o", out / f"{name}.html")
        assert r.exit_code == 0, r.output
        got[name] = (out / f"{name}.html").read_text(encoding="utf-8")
    return got


@pytest.fixture(scope="module")
def hostile_pages(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pages")
    return every_page(hostile(tmp), tmp)


@pytest.mark.parametrize("name", ["log", "docs", "coverage", "report"])
def test_a_rulesets_markup_is_text_on_every_page(hostile_pages, name):
    page = hostile_pages[name]
    assert page.startswith("<!DOCTYPE html>\n") and page.endswith("</html>\n")
    assert "<script" not in page and "<i>" not in page
    shown = {"log": [3, 4], "docs": [1, 2, 3, 4], "coverage": [4], "report": [1, 2]}[name]
    for n in shown:
        assert f"&lt;script&gt;alert({n})&lt;/script&gt;" in page, n


@pytest.mark.parametrize("name", ["log", "docs", "coverage", "report"])
def test_no_control_character_reaches_a_page(hostile_pages, name):
    page = hostile_pages[name]
    assert not [c for c in page if not c.isprintable() and c not in "\n"], name
    assert "\\x1b[2K" in page  # shown, escaped


@pytest.mark.parametrize("name", ["log", "docs", "coverage", "report"])
def test_each_page_holds_the_stylesheet_once(hostile_pages, name):
    page = hostile_pages[name]
    css = (TEMPLATES / "page.css").read_text()
    assert pages.stylesheet() == css
    assert page.count(css.strip()) == 1 and page.count("<style>") == 1
    assert page.count("<!DOCTYPE html>") == 1 and page.count("</html>") == 1


def test_the_report_and_the_log_draw_their_charts_with_one_helper(hostile_pages):
    """Both pages' charts come from charts.html (its attributes), the option
    chart labels its hostile value as text, and no page holds matplotlib's
    output."""
    for name in ("log", "report"):
        page = hostile_pages[name]
        assert page.count('font-family="system-ui, sans-serif" font-size="11"') == \
            page.count("<svg"), name
        assert "matplotlib" not in page.lower()
    report = hostile_pages["report"]
    assert "<figcaption>Win rate by option mood</figcaption>" in report
    chart = report[report.index("Win rate by option mood"):]
    chart = chart[:chart.index("</svg>")]
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in chart


def test_every_page_is_made_from_the_templates_folder(tmp_path, monkeypatch):
    """Pointed at a copy of the folder whose frame says so, every page says
    so: none is made elsewhere."""
    from jinja2 import FileSystemLoader

    copy = tmp_path / "html"
    shutil.copytree(TEMPLATES, copy)
    base = (copy / "base.html").read_text()
    (copy / "base.html").write_text(base.replace("<body>", "<body>\n<p>from the copy</p>"))
    env = pages.environment()
    monkeypatch.setattr(env, "loader", FileSystemLoader(str(copy)))
    env.cache.clear()
    try:
        got = every_page(RULES / "tutorial_race", tmp_path)
    finally:
        env.cache.clear()
    for name, page in got.items():
        assert page.count("<p>from the copy</p>") == 1, name


# ------------------------------------------------------------ the chart helper
def test_axis_ticks_are_round_and_cover_the_values():
    from interpreter.designer.charts import ticks
    assert ticks(0, 1) == [0, 0.2, 0.4, 0.6, 0.8, 1]
    assert ticks(0, 22200, whole=True) == [0, 5000, 10000, 15000, 20000, 25000]
    assert ticks(-5, 1, whole=True) == [-6, -4, -2, 0, 2]
    assert ticks(0, 3, whole=True) == [0, 1, 2, 3]  # counts: never a step of 0.5


def test_histogram_bins_are_numpys():
    """The bins matplotlib's hist drew (numpy.histogram), for the same count."""
    from interpreter.designer.charts import histogram_bins
    assert histogram_bins([1, 2, 2, 3, 10], 5) == ([1, 2.8, 4.6, 6.4, 8.2, 10], [3, 1, 0, 0, 1])
    assert histogram_bins([0, 5, 10], 5) == ([0, 2, 4, 6, 8, 10], [1, 0, 1, 0, 1])
    assert histogram_bins([4, 4], 5) == ([3.5, 3.7, 3.9, 4.1, 4.3, 4.5], [0, 0, 2, 0, 0])


def test_a_score_chart_shows_every_score_and_name():
    from interpreter.designer.charts import draw
    c = draw({"kind": "lines", "title": "score", "x": ["round 1", "round 2", "end"],
              "series": {"red": [0, 3, 5], "<b>blue</b>": [1, None, 2]}})
    tips = [s.tip for s in c.shapes if s.kind == "dot"]
    assert tips == ["red, round 1: 0", "red, round 2: 3", "red, end: 5",
                    "<b>blue</b>, round 1: 1", "<b>blue</b>, end: 2"]
    assert [s.text for s in c.shapes if s.kind == "path"] == ["", ""]
    labels = [s.text for s in c.shapes if s.kind == "text"]
    assert {"round 1", "end", "red", "<b>blue</b>", "0", "5"} <= set(labels)
    svg = pages.environment().from_string(
        '{% from "charts.html" import chart %}{{ chart(c) }}').render(c=c)
    assert "<b>" not in svg and "&lt;b&gt;blue&lt;/b&gt;" in svg and svg.count("<polyline") == 2
