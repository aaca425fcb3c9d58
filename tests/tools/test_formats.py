"""`rulebook play --format text|jsonl|html`: the log as JSON lines or as
one self-contained HTML page, as the designer or one seat may read it."""
import html
import json
import re

from helpers import RULES, cli_raising, edit


def run(*args):
    return cli_raising("play", *args)


def test_jsonl_is_the_log_as_the_log_file_has_it(tmp_path):
    log = tmp_path / "log.jsonl"
    r = run(RULES / "tutorial_race", "--seed", "2", "--format", "jsonl", "--log", log)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == log.read_text().splitlines()
    assert all(json.loads(line)["text"] for line in r.output.splitlines())


def test_a_seats_jsonl_holds_only_what_it_may_read(tmp_path):
    log = tmp_path / "log.jsonl"
    r = run(RULES / "chicago", "--option", "bosses=2", "--seed", "1", "--format", "jsonl",
            "--view", "boss1", "--log", log)
    assert r.exit_code == 0, r.output
    mine = [json.loads(x) for x in r.output.splitlines()]
    every = [json.loads(x) for x in log.read_text().splitlines()]
    secret = {e["text"] for e in every if e.get("see", "all") != "all" and "boss1" not in e["see"]}
    assert secret and not secret & {e["text"] for e in mine}


def test_html_is_one_page_with_rounds_a_chart_and_escaped_text(ruleset_copy):
    rules = ruleset_copy("tutorial_race", to="race")
    edit(rules / "race.rules", '    log "{p} completes lap {p.laps}"',
         '    log "<b>{p}</b> & <script>x</script> completes lap {p.laps}"')
    r = run(rules, "--seed", "1", "--format", "html")
    assert r.exit_code == 0, r.output
    page = r.output
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    rounds = re.findall(r"<summary>round (\d+)</summary>", page)
    assert len(rounds) >= 2 and rounds == sorted(rounds, key=int) and len(set(rounds)) == len(rounds)
    assert page.count("<polyline") == 2 and ">end</text>" in page  # a line per runner
    assert "&lt;b&gt;red&lt;/b&gt; &amp; &lt;script&gt;x&lt;/script&gt;" in page
    assert "<script" not in page and "<b>" not in page
    assert not re.search(r"(src|href)=", page)  # nothing loaded from anywhere
    assert "red (winner)" in page or "blue (winner)" in page


def test_html_of_a_seat_marks_no_secrets_and_hides_them():
    r = run(RULES / "chicago", "--option", "bosses=2", "--seed", "1", "--format", "html",
            "--view", "boss1")
    designer = run(RULES / "chicago", "--option", "bosses=2", "--seed", "1", "--format", "html")
    assert r.exit_code == 0 and designer.exit_code == 0
    assert "[seen by" in designer.output and "[seen by" not in r.output
    assert "boss1's view" in html.unescape(r.output)  # (an apostrophe escaped either way)


def test_a_format_and_json_or_quiet_do_not_mix():
    for flag in ("--json", "--quiet"):
        r = run(RULES / "tutorial_race", "--format", "html", flag)
        assert r.exit_code == 2 and "--format html prints the log" in r.output
