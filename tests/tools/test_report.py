"""`rulebook report`: the balance report, its statistics, and the same report
from one process, from worker processes and from a Dask cluster."""
import importlib.util
import json
import sys

import pytest
from helpers import cli

from interpreter.designer.report import lead_changes, summarize, wilson

HAS_DASK = importlib.util.find_spec("distributed") is not None


def _run(*args):
    return cli("report", *args)


def _json(*args):
    res = _run(*args, "--format", "json")
    assert res.exit_code == 0, res.output
    return res.stdout


# ------------------------------------------------------------ same seeds, same report
@pytest.fixture(scope="module")
def single():
    return _json("rules/smile_and_gun", "--games", "24", "--seed", "5", "--workers", "1")


def test_two_workers_equal_one(single):
    assert _json("rules/smile_and_gun", "--games", "24", "--seed", "5", "--workers", "2") \
        == single


@pytest.mark.skipif(not HAS_DASK, reason="dask[distributed] is not installed")
def test_local_dask_cluster_equals_one_process(single):
    assert _json("rules/smile_and_gun", "--games", "24", "--seed", "5", "--workers", "2",
                 "--scheduler", "local") == single


def test_failed_games_read_the_same_on_dask():
    args = ["rules/tutorial_race", "--games", "6", "--max-steps", "30", "--format", "json"]
    one = _run(*args, "--workers", "1")
    assert one.exit_code == 1  # every game ran out of steps: reported, then exit 1
    rep = json.loads(one.stdout)
    assert rep["failed"] == 6 and rep["finished"] == 0
    assert rep["failures"]["codes"] == {"RUNTIME": 6}
    first = rep["failures"]["first"][0]
    assert first["seed"] == 0 and first["error"].startswith("rules/tutorial_race/race.rules:")
    if HAS_DASK:
        dask = _run(*args, "--workers", "2", "--scheduler", "local")
        assert dask.exit_code == 1
        assert dask.stdout == one.stdout


def test_report_contents_add_up(single):
    rep = json.loads(single)
    assert rep["ruleset"] == "smile_and_gun" and rep["games"] == 24 and rep["seed"] == 5
    assert rep["finished"] + rep["failed"] == 24
    wins = sum(s["wins"] for s in rep["seats"])
    assert wins + rep["ties"] == rep["finished"]
    assert sum(rep["outcomes"].values()) == rep["finished"]
    assert [s["seat"] for s in rep["seats"]] == ["green", "yellow"]
    for s in rep["seats"]:
        assert s["games"] == rep["finished"]
        lo, hi = s["ci95"]
        assert lo <= s["rate"] <= hi
    # green's turn always comes first in this game: its numbers are that seat's
    first, green = rep["first_player"], rep["seats"][0]
    assert first["seats"] == ["green"]
    assert (first["wins"], first["games"], first["ci95"]) == \
        (green["wins"], green["games"], green["ci95"])
    assert first["expected"] == 0.5
    assert first["advantage"] == round(green["rate"] - 0.5, 4)
    # both character options are drawn at random: their values' games add up
    for name in ("shadow", "infusion"):
        opt = rep["options"][name]
        assert opt["random"] is True
        assert sum(v["games"] for v in opt["values"]) == rep["finished"]
        assert len(opt["values"]) > 1
    assert sum(n for _, n in rep["length"]["histogram"]) == rep["finished"]
    assert rep["margins"]["games"] == rep["finished"]
    assert rep["margins"]["min"] >= 0


# ------------------------------------------------------------ statistics
def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.1611, abs=1e-4)
    assert wilson(20, 20)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_lead_changes():
    a, b, c = "a", "b", "c"
    series = [{a: 0, b: 0, c: 0},   # no leader
              {a: 3, b: 1, c: 0},   # a
              {a: 3, b: 3, c: 0},   # shared: no change
              {a: 3, b: 5, c: 0},   # b: 1
              {a: 6, b: 5, c: 0},   # a: 2
              {a: 6, b: 5, c: 9},   # c: 3
              {a: 6, b: 5, c: 9}]   # c still
    assert lead_changes(series) == 3
    assert lead_changes([{a: 1, b: 0}, {a: 1, b: 1}, {a: 2, b: 1}]) == 0
    assert lead_changes([]) == 0


def _rec(seed, winners, seats=("x", "y"), rounds=3, scores=None, series=(), options=None,
         drawn=(), held=None, code=None, first=""):
    first = list(seats)[0] if first == "" else first
    return {"seed": seed, "seats": list(seats), "first": first if not code else None,
            "winners": list(winners), "rounds": rounds,
            "scores": scores, "series": list(series), "options": options or {},
            "drawn": list(drawn), "held": held or {}, "code": code,
            "error": f"f.rules:1:1: {code} broke" if code else None}


def test_summarize_counts_ties_failures_options_and_holdings():
    recs = [
        _rec(3, ["x"], rounds=2, scores={"x": 5, "y": 2}, options={"o": "hi"}, drawn=["o"],
             series=[{"x": 1, "y": 2}, {"x": 5, "y": 2}], held={"z": {"x": "k1", "y": "k2"}}),
        _rec(1, ["y"], rounds=4, scores={"x": 1, "y": 4}, options={"o": "lo"}, drawn=["o"],
             held={"z": {"x": "k2", "y": "k1"}}),
        _rec(2, ["x", "y"], rounds=4, scores={"x": 3, "y": 3}, options={"o": "lo"},
             drawn=["o"], held={"z": {"x": "k1", "y": "k2"}}),
        _rec(4, [], rounds=5, scores={"x": 0, "y": 7}, options={"o": "hi"}, drawn=["o"],
             held={"z": {"x": "k1"}}),  # y held nothing there: no holdings table for z
        _rec(0, [], code="RUNTIME"),
    ]
    rep = summarize(recs, {"ruleset": "t"}, {"o": ["lo", "hi"]})
    assert (rep["games"], rep["finished"], rep["failed"], rep["ties"]) == (5, 4, 1, 2)
    assert rep["outcomes"] == {"x": 1, "y": 1, "tie": 2}
    assert [(s["seat"], s["wins"], s["games"], s["shared_wins"]) for s in rep["seats"]] == \
        [("x", 1, 4, 1), ("y", 1, 4, 1)]
    assert rep["first_player"]["wins"] == 1 and rep["first_player"]["expected"] == 0.5
    assert rep["length"]["histogram"] == [[2, 1], [4, 2], [5, 1]]
    assert rep["length"]["mean"] == 3.75 and rep["length"]["median"] == 4
    assert (rep["margins"]["min"], rep["margins"]["max"], rep["margins"]["mean"]) == (0, 7, 3.25)
    assert rep["margins"]["winner_not_top_score"] == 0
    assert rep["lead_changes"]["histogram"] == [[1, 1]]  # y led, then x
    assert rep["failures"] == {"codes": {"RUNTIME": 1}, "first": [
        {"seed": 0, "code": "RUNTIME", "error": "f.rules:1:1: RUNTIME broke"}]}
    opt = rep["options"]["o"]
    assert opt["random"] is True
    assert [v["value"] for v in opt["values"]] == ["lo", "hi"]  # the ruleset's order
    lo, hi = opt["values"]
    assert (lo["games"], lo["ties"], lo["seats"]["y"]["wins"]) == (2, 1, 1)
    assert (hi["games"], hi["ties"], hi["seats"]["x"]["wins"]) == (2, 1, 1)
    # lo: y 1/2, tie 1/2 against all: x 1/4, y 1/4, tie 1/2 -> distance 0.25
    assert lo["shift"] == 0.25 and hi["shift"] == 0.25 and opt["shift"] == 0.25
    assert rep["held"] == {}
    del recs[3]
    held = summarize(recs, {})["held"]["z"]
    assert [(h["component"], h["games"], h["wins"]) for h in held] == [("k1", 3, 2), ("k2", 3, 0)]
    assert held[0]["seats"] == {"x": 2, "y": 1}


# ------------------------------------------------------------ the command line
def test_html_report_has_plots_and_name(tmp_path):
    out = tmp_path / "report.html"
    res = _run("rules/tutorial_race", "--games", "10", "--workers", "1", "--format", "html",
               "-o", str(out))
    assert res.exit_code == 0, res.output
    assert res.stdout == ""
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert "<svg" in page or "<img src=\"data:" in page
    assert "Tutorial Race" in page and "tutorial_race" in page
    assert "<th>win rate</th>" in page
    assert "wrote" in res.stderr and "10 games" in res.stderr


def test_markdown_report_is_a_table():
    res = _run("rules/tutorial_race", "--games", "10", "--workers", "1")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == "# Balance report: Tutorial Race (tutorial\\_race)"
    i = lines.index("| seat | games | wins | win rate | 95% interval | shared wins |")
    assert lines[i + 1] == "|---|---|---|---|---|---|"
    assert lines[i + 2].startswith("| red | 10 | ")
    assert "<svg" not in res.stdout


def test_ruleset_text_is_escaped():
    from interpreter.designer.report import to_html, to_markdown
    rep = summarize([_rec(0, ["<b>x</b>"], seats=["<b>x</b>", "y|z"])],
                    {"ruleset": "r", "name": "<script>alert(1)</script>", "variant": None,
                     "seed": 0, "agents": "random", "players": None, "options_given": {}})
    page = to_html(rep)
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert "<b>x</b>" not in page
    md = to_markdown(rep)
    assert "<script>" not in md and "y\\|z" in md


def test_bad_path_is_a_located_diagnostic():
    res = _run("rules/no_such_game", "--games", "3")
    assert res.exit_code == 1
    assert "rules/no_such_game" in res.output
    assert "Traceback" not in res.output


def test_unknown_option_is_a_usage_error():
    res = _run("rules/tutorial_race", "--games", "3", "--option", "nope=1")
    assert res.exit_code == 2
    assert "OPTION" in res.output and "Traceback" not in res.output


@pytest.mark.skipif(not HAS_DASK, reason="dask[distributed] is not installed")
def test_unreachable_scheduler_fails_cleanly():
    res = _run("rules/tutorial_race", "--games", "3", "--scheduler", "tcp://127.0.0.1:9",
               "--connect-timeout", "1")
    assert res.exit_code == 1
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in res.output
    assert "Traceback" not in res.output


def test_scheduler_without_dask_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    res = _run("rules/tutorial_race", "--games", "3", "--scheduler", "local")
    assert res.exit_code == 2
    assert "pip install 'rulebook-interpreter[cluster]'" in res.output
    assert "Traceback" not in res.output


# ------------------------------------------------------------ who moved first
def test_the_first_player_is_whoever_moved_first_not_the_first_seat():
    """Chicago shuffles the bosses' turn order: the report counts the seat
    whose turn came first in each game."""
    rep = json.loads(_json("rules/chicago", "--games", "30", "--workers", "1"))
    first = rep["first_player"]
    assert len(first["seats"]) > 1 and first["games"] == rep["finished"]
    assert sum(b["games"] for b in first["by_seat"]) == first["games"]
    assert sum(b["wins"] for b in first["by_seat"]) == first["wins"]


def test_first_mover_against_its_own_games():
    recs = [_rec(0, ["y"], first="y"), _rec(1, ["x"], first="y"), _rec(2, ["y"], first="y"),
            _rec(3, ["x"], first="x"), _rec(4, [], first=None)]  # no turns in that one
    f = summarize(recs, {})["first_player"]
    assert (f["seats"], f["games"], f["wins"], f["expected"]) == (["x", "y"], 4, 3, 0.5)
    assert [(b["seat"], b["games"], b["wins"]) for b in f["by_seat"]] == [("x", 1, 1),
                                                                          ("y", 3, 2)]
    none = summarize([_rec(0, ["x"], first=None)], {})
    assert none["first_player"]["games"] == 0
    from interpreter.designer.report import to_markdown
    assert "nobody moved first" in to_markdown({**none, "name": "t", "ruleset": "t",
                                                 "variant": None, "seed": 0, "agents": "random",
                                                 "players": None, "options_given": {}})


# ------------------------------------------------------------ charts read right
def test_chart_data_matches_the_report():
    from interpreter.designer.report import charts
    recs = [_rec(i, ["x"] if i % 3 else ["y"], rounds=4 + i % 2, scores={"x": i, "y": 1},
                 series=[{"x": 0, "y": 1}, {"x": 2, "y": 1}] if i % 2 else [{"x": 2, "y": 0}])
            for i in range(6)]
    rep = summarize(recs, {})
    by = {c["title"]: c for c in charts(rep)}
    win = by["Win rate per seat"]
    assert win["x"] == ["x", "y"] and win["y"] == [s["rate"] for s in rep["seats"]]
    assert win["line"]["y"] == 0.5 and win["ylim"] == [0, 1]
    for lo, s in zip(win["err"][0], rep["seats"]):
        assert lo == round(s["rate"] - s["ci95"][0], 4)
    length = by["Game length"]
    assert length["x"] == [4, 5] and length["y"] == [3, 3] and length["xlim"] == [3, 6]
    leads = by["Lead changes per game"]
    assert leads["x"] == [0, 1] and leads["xlim"] == [-1, 2] and sum(leads["y"]) == 6


def test_a_count_the_same_in_every_game_draws_no_lone_bar():
    from interpreter.designer.report import charts
    recs = [_rec(i, ["x"], rounds=5, scores={"x": 3, "y": 1}, series=[{"x": 3, "y": 1}])
            for i in range(4)]
    rep = summarize(recs, {})
    titles = [c["title"] for c in charts(rep)]
    assert "Lead changes per game" not in titles  # every game: 0, said in the table
    length = next(c for c in charts(rep) if c["title"] == "Game length")
    assert length["x"] == [5] and length["xlim"] == [4, 6]  # one bar among its neighbours


def test_html_report_draws_every_chart(tmp_path):
    out = tmp_path / "r.html"
    res = _run("rules/tutorial_race", "--games", "20", "--workers", "1", "--format", "html",
               "-o", str(out))
    assert res.exit_code == 0, res.output
    page = out.read_text()
    rep = json.loads(_json("rules/tutorial_race", "--games", "20", "--workers", "1"))
    from interpreter.designer.report import charts
    for c in charts(rep):
        assert f"<figcaption>{c['title']}</figcaption>" in page
    assert page.count("<svg") >= 2


def test_json_flag_is_the_json_format():
    a = _run("rules/tutorial_race", "--games", "5", "--workers", "1", "--json")
    assert a.exit_code == 0 and a.stdout == _json("rules/tutorial_race", "--games", "5",
                                                  "--workers", "1")
