"""`rulebook coverage`: what the scenarios and random games ran, and what never did."""
import json

import pytest
from helpers import RACE, ROOT, cli_raising, copy_ruleset

STEP = '  return p.laps * len(track("loop"))'
GUARD = "  if p.laps > 100 { warp(p) }"
# the guard goes in just before that line, so it takes that line's number
ARM = "if race.rules:%d" % next(i for i, line in enumerate(
    (RACE / "race.rules").read_text().splitlines(), 1) if line.startswith(STEP))


def run(*args):
    return cli_raising("coverage", *args)


def report(path, *args):
    r = run(path, "--format", "json", *args)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def race(tmp_path, unreachable=None):
    """Tutorial Race with a rule no game can reach: nobody runs 100 laps, so
    `warp` is never called and the `if` arm in `progress` never runs."""
    folder = copy_ruleset("tutorial_race", tmp_path / "race")
    rules = folder / "race.rules"
    text = rules.read_text()
    assert STEP in text
    text = text.replace(STEP, GUARD + "\n" + STEP)
    text += "\n# never reached\ndef warp(p) {\n  p.laps += 5\n}\n"
    rules.write_text(text)
    assert ARM == f"if race.rules:{text.splitlines().index(GUARD) + 1}"
    if unreachable is not None:
        game = folder / "game.yaml"
        game.write_text(game.read_text() + "coverage:\n  unreachable:\n" + "".join(
            f"    - name: {json.dumps(n)}\n      why: {json.dumps(w)}\n" for n, w in unreachable))
    return folder, ARM


def test_the_unreachable_rule_and_branch_are_all_that_never_ran(tmp_path):
    folder, arm = race(tmp_path)
    rep = report(folder, "--games", "5")
    assert rep["never_ran"] == ["function warp", arm]
    counts = {it["name"]: it["count"] for it in rep["items"]}
    for name in ("setup", "phase race", "function advance", "function progress",
                 "handler of landed", "when race.rules:38", "option race.rules:20",
                 "trigger landed race.rules:34", "decision move"):
        assert counts[name] > 0, name
    assert counts["function warp"] == 0 and counts[arm] == 0
    assert len(rep["scenarios"]) == 4 and all(s["ok"] for s in rep["scenarios"])
    assert rep["summary"]["rule"] == {"ran": 6, "total": 7, "percent": 85.7}
    assert rep["warnings"] == []


def test_decision_labels_are_counted(tmp_path):
    folder, _ = race(tmp_path)
    rep = report(folder, "--games", "3", "--no-scenarios")
    move = next(it for it in rep["items"] if it["name"] == "decision move")
    labels = move["labels"]
    assert labels and all(k.startswith("move:") and k[5:] in "123456" for k in labels)
    # every game asks `move` once per turn (a double asks nothing: one option)
    assert 0 < sum(labels.values()) <= move["count"]
    assert rep["scenarios"] == []


def test_text_report_lists_what_never_ran(tmp_path):
    folder, arm = race(tmp_path)
    r = run(folder, "--games", "2", "--no-scenarios")
    assert r.exit_code == 0, r.output
    tail = r.output[r.output.index("never ran:"):]
    assert "function warp" in tail and arm in tail


def test_unreachable_by_design_and_unknown_names(tmp_path):
    folder, arm = race(tmp_path, unreachable=[
        ("function warp", "nobody runs 100 laps"),
        (ARM, "the same"),
        ("function nope", "a typo"),
        ("phase race", "wrongly listed"),
    ])
    rep = report(folder, "--games", "2")
    assert rep["never_ran"] == []
    assert rep["by_design"] == [{"name": "function warp", "why": "nobody runs 100 laps"},
                                {"name": arm, "why": "the same"}]
    warp = next(it for it in rep["items"] if it["name"] == "function warp")
    assert warp["status"] == "unreachable by design"
    assert len(rep["warnings"]) == 2
    assert "'function nope'" in rep["warnings"][0] and "no item" in rep["warnings"][0]
    assert "'phase race'" in rep["warnings"][1] and "ran" in rep["warnings"][1]
    assert rep["summary"]["rule"]["percent"] == 100.0
    r = run(folder, "--games", "1", "--no-scenarios")
    assert "unreachable by design: function warp (nobody runs 100 laps)" in r.output


def test_json_is_the_same_every_run(tmp_path):
    folder, _ = race(tmp_path)
    a = run(folder, "--games", "3", "--format", "json", "--seed", "7")
    b = run(folder, "--games", "3", "--format", "json", "--seed", "7")
    assert a.exit_code == 0 and a.output == b.output


def test_html_is_one_escaped_page(tmp_path):
    hostile = "<script>alert('x')</script>"
    folder, _ = race(tmp_path, unreachable=[(hostile, "<b>why</b>"),
                                            ("function warp", "<i>dice</i> & co")])
    out = tmp_path / "coverage.html"
    r = run(folder, "--games", "1", "--no-scenarios", "--format", "html", "-o", out)
    assert r.exit_code == 0, r.output
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page and "<i>" not in page
    assert "&lt;script&gt;" in page and "&lt;i&gt;dice&lt;/i&gt; &amp; co" in page
    assert "function warp" in page


def test_fail_under(tmp_path):
    folder, _ = race(tmp_path)
    assert run(folder, "--games", "1", "--no-scenarios", "--fail-under", "100").exit_code == 1
    assert run(folder, "--games", "1", "--no-scenarios", "--fail-under", "50").exit_code == 0


def test_a_broken_ruleset_exits_1_with_a_located_message(tmp_path):
    r = run(tmp_path / "nothing-here")
    assert r.exit_code == 1
    assert "Traceback" not in r.output
    folder, _ = race(tmp_path)
    rules = folder / "race.rules"
    rules.write_text(rules.read_text() + "\nphase broken {\n  if {\n}\n")
    r = run(folder, "--games", "1")
    assert r.exit_code == 1
    assert "race.rules:" in r.output and "Traceback" not in r.output


# random games the shipped rulesets are covered with, besides their scenarios
GAMES = 5
# each shipped ruleset: the base game and the variants held to full coverage
# on their own (PARTIAL: only their own files), all from one run of its
# scenarios, shared by its tests (grouped on one pytest-xdist worker)
SHIPPED = {"smile_and_gun": [None, "solo"], "chicago": [None],
           "moonshine_kingdom": [None, "blood-oath"], "scarface_1920": [None, "solo"]}
PARTIAL = [("scarface_1920", "solo")]
_REPORTS: dict = {}


def shipped_report(name, variant):
    if name not in _REPORTS:
        from interpreter.designer.rulecoverage import cover_all
        variants = SHIPPED[name]
        _REPORTS[name] = dict(zip(variants, cover_all(ROOT / "rules" / name, variants,
                                                      games=GAMES, fmt="json")))
    return _REPORTS[name][variant]


def _cases(partial):
    return [pytest.param(n, v, marks=pytest.mark.xdist_group(f"coverage-{n}"),
                         id=f"{n}-{v or 'base'}")
            for n, vs in SHIPPED.items() for v in vs if ((n, v) in PARTIAL) == partial]


@pytest.mark.parametrize("name,variant", _cases(partial=False))
def test_every_shipped_rule_and_card_is_reached_or_unreachable_by_design(name, variant):
    """The scenarios and a few seeded random games reach every item of the
    game, or game.yaml (variant.yaml) says why it cannot run; no listed name
    is stale."""
    rep = shipped_report(name, variant)
    assert rep["variant"] == variant
    assert rep["never_ran"] == [], rep["never_ran"]
    assert rep["warnings"] == [], rep["warnings"]
    assert rep["failed_games"] == 0 and all(s["ok"] for s in rep["scenarios"])
    assert len(rep["scenarios"]) == len(list((ROOT / "rules" / name).rglob("*.scenario.yaml")))
    assert all(it["why"] for it in rep["by_design"])


def test_one_run_of_the_scenarios_counts_for_every_variant(tmp_path):
    """cover_all: each variant's report is what cover() gives it alone."""
    from interpreter.designer.rulecoverage import cover, cover_all
    folder, _ = race(tmp_path)
    variant = folder / "variants" / "long"
    variant.mkdir(parents=True)
    (variant / "variant.yaml").write_text("kind: variant\nid: long\nname: Long\n")
    both = cover_all(folder, [None, "long"], games=2, fmt="json")
    assert both == [cover(folder, games=2, fmt="json"),
                    cover(folder, games=2, variant="long", fmt="json")]
    assert [r["variant"] for r in both] == [None, "long"]


def test_a_variant_lists_what_it_cannot_reach_on_its_own(tmp_path):
    """game.yaml's list names the base game's items; a variant.yaml's list
    replaces it when that variant is covered."""
    folder, arm = race(tmp_path, unreachable=[("function warp", "base reason"),
                                              (ARM, "base reason")])
    variant = folder / "variants" / "long"
    variant.mkdir(parents=True)
    (variant / "variant.yaml").write_text(
        "kind: variant\nid: long\nname: Long\ncoverage:\n  unreachable:\n"
        "    - name: function warp\n      why: still nobody runs 100 laps\n")
    base = report(folder, "--games", "1", "--no-scenarios")
    assert [b["why"] for b in base["by_design"]] == ["base reason", "base reason"]
    rep = report(folder, "--games", "1", "--no-scenarios", "--variant", "long")
    assert rep["by_design"] == [{"name": "function warp", "why": "still nobody runs 100 laps"}]
    assert arm in rep["never_ran"] and "function warp" not in rep["never_ran"]
    assert rep["warnings"] == []


def test_an_overlay_may_not_list_unreachable_items(tmp_path):
    folder, _ = race(tmp_path)
    layer = folder / "variants" / "long"
    (layer / "extra").mkdir(parents=True)
    (layer / "variant.yaml").write_text(
        "kind: variant\nid: long\nname: Long\noptions:\n  extra:\n    choices: [none, more]\n"
        "    default: none\noverlays:\n  extra:\n    more: extra\n")
    (layer / "extra" / "overlay.yaml").write_text(
        "kind: overlay\nid: extra\nname: Extra\ncoverage:\n  unreachable: []\n")
    r = cli_raising("validate", folder)
    assert r.exit_code == 1
    assert "overlay.yaml:" in r.output and "only game.yaml and a variant.yaml" in r.output


# A variant that plays only part of its base game: its own files are reached
# in full (or listed in its variant.yaml); the base game's items it shares are
# held by the base game's test above, where its random games reach them.
@pytest.mark.parametrize("name,variant", _cases(partial=True))
def test_a_variant_reaches_every_rule_of_its_own(name, variant):
    rep = shipped_report(name, variant)
    own = [it["name"] for it in rep["items"] if it["status"] == "never ran"
           and it["where"].startswith(f"variants/{variant}/")]
    assert own == []
    assert any(it["where"].startswith(f"variants/{variant}/") for it in rep["items"])
    assert rep["warnings"] == [], rep["warnings"]
    assert rep["failed_games"] == 0 and all(s["ok"] for s in rep["scenarios"])
    assert all(it["why"] for it in rep["by_design"])
