"""`rulebook serve` in a real browser: Debian's Chromium driven by Playwright
against the server listening on loopback. Without a browser these tests
skip and say why; CI installs one and sets RULEBOOK_REQUIRE_BROWSER, so
that there a missing browser fails instead."""
from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
from helpers import RULES

from interpreter.run.engine import load_program
from interpreter.serve.app import Server, make_app

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _why_not() -> str | None:
    if CHROMIUM is None:
        return "no chromium on this machine (apt install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[dev]')"
    return None


WHY_NOT = _why_not()
if WHY_NOT and os.environ.get("RULEBOOK_REQUIRE_BROWSER"):
    raise RuntimeError(f"the browser tests must run here: {WHY_NOT}")
pytestmark = [pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or ""),
              pytest.mark.xdist_group("browser")]


class Running:
    """A server of `folder`'s ruleset on a free loopback port, in a thread."""

    def __init__(self, folder: Path, state: Path, port: int | None = None):
        import uvicorn

        program, diags = load_program(folder)
        assert program is not None, diags
        self.server = Server(program, {}, None, folder=state)
        self.server.resume()
        if port is None:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
        self.port = port
        self.uv = uvicorn.Server(uvicorn.Config(make_app(self.server), host="127.0.0.1",
                                                port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.uv.run, daemon=True)
        self.thread.start()
        end = time.monotonic() + 20
        while not self.uv.started:
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.02)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        self.uv.should_exit = True
        self.thread.join(timeout=20)
        self.server.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield b
        b.close()


def asked_or_over(page, timeout=20_000):
    page.wait_for_selector(".decision, .result", timeout=timeout)


def test_a_hot_seat_race_is_played_to_the_end_by_clicks(browser, tmp_path):
    run = Running(RULES / "tutorial_race", tmp_path / "state")
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone's screen
        page.goto(run.url(f"/?key={run.server.key}"))
        page.check("input[name=hot_seat]")
        page.fill("input[name=seed]", "5")
        page.click("text=Create the table")
        table = next(iter(run.server.tables.values()))
        page.click(f"a[href$='/t/{table.tid}/{table.host}']")
        clicks = 0
        while True:
            asked_or_over(page)
            if page.query_selector(".result"):
                break
            seq = page.get_attribute(".decision", "data-seq")
            page.click(".decision button.option >> nth=0")
            page.wait_for_function(
                f"!document.querySelector('.decision') || "
                f"document.querySelector('.decision').dataset.seq !== '{seq}'")
            clicks += 1
            assert clicks < 200
        assert table.finished and clicks == len(table.game.history)
        text = page.inner_text(".result")
        assert "winner" in text and table.game.winners[0].id in text
        assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1  # no sideways
        # the finished game viewed again, step by step, as the designer and as a seat
        page.click("a.replay")
        page.wait_for_selector("text=before decision 1 of")
        page.click("a[rel=next]")
        page.click("a[rel=next]")
        page.wait_for_selector("text=before decision 3 of")
        page.click("text=the designer")
        page.wait_for_selector("text=as the designer")
        page.click("a[rel=prev]")
        page.wait_for_selector("text=before decision 2 of")
        page.click("text=end")
        page.wait_for_selector(".result")
    finally:
        run.stop()


def test_each_browser_of_a_hidden_hand_game_shows_its_own_cards_only(browser, hands, tmp_path):
    run = Running(hands, tmp_path / "state")
    try:
        table = run.server.new_table(["person", "person"], seed=4)
        pages = {s.sid: browser.new_page() for s in table.seats}
        for s in table.seats:
            pages[s.sid].goto(run.url(f"/t/{table.tid}/{s.token}"))
        for _ in range(60):
            game = table.game
            for s in table.seats:
                page, side = pages[s.sid], next(p for p in game.players if p.id == s.sid)
                other = next(p for p in game.players if p.id != s.sid)
                page.wait_for_function("document.querySelector('#table h1') !== null")
                html = page.inner_html("#table").split('<section class="panel log">')[0]
                theirs = [c.id for c in other.u_hand.items]
                mine = [c.id for c in side.u_hand.items]
                assert not [c for c in theirs if f">{c}<" in html], (s.sid, theirs)
                assert all(f">{c}<" in html for c in mine), (s.sid, mine)
            if table.finished:
                break
            seat, _ = table.asking
            seq = table.seq
            page = pages[seat.sid]
            page.wait_for_selector(f".decision[data-seq='{seq}']")
            if page.query_selector(".decision button.option"):
                page.click(".decision button.option >> nth=0")
            else:  # a "choose some": the first groups, as many as needed
                page.click(".decision button[type=submit]")
            end = time.monotonic() + 20
            while not (table.finished or table.seq > seq):
                assert time.monotonic() < end
                if page.query_selector(".status.error"):
                    pytest.fail(page.inner_text(".status"))
                time.sleep(0.02)
            for p in pages.values():
                p.wait_for_function(
                    f"(document.querySelector('.decision') || {{dataset: {{}}}}).dataset.seq "
                    f"!== '{seq}'")
        assert table.finished
    finally:
        run.stop()


def test_undo_and_a_restart_in_the_middle(browser, tmp_path):
    state = tmp_path / "state"
    run = Running(RULES / "tutorial_race", state)
    table = run.server.new_table(["person", "person"], seed=6, hot_seat=True)
    page = browser.new_page()
    try:
        page.goto(run.url(f"/t/{table.tid}/{table.host}"))
        for _ in range(3):
            asked_or_over(page)
            seq = page.get_attribute(".decision", "data-seq")
            page.click(".decision button.option >> nth=-1")
            page.wait_for_function(f"document.querySelector('.decision') && "
                                   f"document.querySelector('.decision').dataset.seq !== '{seq}'")
        made = list(table.game.history)
        page.fill("form.undo input[name=to]", "1")
        page.click("form.undo button")
        end = time.monotonic() + 20
        while run.server.tables[table.tid] is table:
            assert time.monotonic() < end
            time.sleep(0.02)
        back = run.server.tables[table.tid]
        while back.game is None or len(back.game.history) != 1 or back.asking is None:
            assert time.monotonic() < end
            time.sleep(0.02)
        assert back.game.history == made[:1]
        page.wait_for_selector(f".decision[data-seq='{back.seq}']")
        old_seq = back.seq
    finally:
        run.stop()
    # the server stops in the middle of the game and starts again: the page
    # reconnects by itself and the table is where it was
    again = Running(RULES / "tutorial_race", state, run.port)
    try:
        resumed = again.server.tables[table.tid]
        end = time.monotonic() + 20
        while resumed.asking is None:
            assert time.monotonic() < end
            time.sleep(0.02)
        assert resumed.game.history == made[:1] and resumed.seq == old_seq + 1
        # the page reconnects by itself, and shows the decision asked anew
        page.wait_for_selector(f".decision[data-seq='{resumed.seq}']", timeout=30_000)
        seq = page.get_attribute(".decision", "data-seq")
        page.click(".decision button.option >> nth=0")
        page.wait_for_function(f"!document.querySelector('.decision') || "
                               f"document.querySelector('.decision').dataset.seq !== '{seq}'")
        assert len(resumed.game.history) == 2
    finally:
        again.stop()
