"""The fast back end's step checks wait across plain lines (stepchecks.py):
which ones go, which stay, and what a failure then reports."""
from interpreter.compile.stepchecks import CHECK, deferred_checks


def _run(lines):
    out, spans = deferred_checks(lines, list(range(len(lines))))
    assert len(out) == len(spans)
    return out, spans


def test_a_check_waits_for_the_next_one_across_plain_lines():
    lines = ["def f_a(G):",
             "    G.fuel -= 1",
             f"    {CHECK}",
             "    l_x = G.v_a + len(G.z_pool.items)",
             "    if l_x > 2:",
             "        l_x = l_x - 1",
             "    G.fuel -= 2",
             f"    {CHECK}",             # stays: a store to the game follows
             "    G.v_b = l_x",
             "    G.fuel -= 1",
             f"    {CHECK}",             # stays: a call follows
             "    f_g(G)"]
    out, spans = _run(lines)
    assert out.count(f"    {CHECK}") == 2
    assert out.index("    G.fuel -= 2") + 1 == out.index(f"    {CHECK}")  # the first went
    assert spans[out.index("    G.v_b = l_x") - 1] == 7


def test_a_check_before_a_block_end_or_a_return_stays():
    lines = ["def f_a(G, l_p):",
             "    if l_p:",
             "        G.fuel -= 1",
             f"        {CHECK}",
             "    G.fuel -= 1",
             f"    {CHECK}",
             "    return l_p"]
    out, _ = _run(lines)
    assert out == lines


def test_an_innermost_plain_loop_checks_once_after_it():
    lines = ["def f_a(G):",
             "    _r1 = []",
             "    for l_i in G.z_pool.items[:]:",
             "        G.fuel -= 1",
             f"        {CHECK}",
             "        if l_i.u_value > 3:",
             "            _r1.append(l_i)",
             "    return _r1"]
    out, spans = _run(lines)
    assert f"        {CHECK}" not in out
    at = out.index(f"    {CHECK}")
    assert out[at - 1] == "            _r1.append(l_i)" and spans[at] == 2  # the loop's line
    assert out.count("        G.fuel -= 1") == 1  # every step still paid


def test_loops_that_call_or_hold_loops_keep_their_checks():
    calls = ["def f_a(G):",
             "    for l_i in G.z_pool.items[:]:",
             "        G.fuel -= 1",
             f"        {CHECK}",
             "        f_b(G, l_i)"]
    nested = ["def f_a(G):",
              "    _o1 = []",
              "    for l_i in G.z_pool.items[:]:",
              "        G.fuel -= 3",
              f"        {CHECK}",
              "        for l_j in G.z_pool.items[:]:",
              "            _o1.append((l_i, l_j))",
              "    return _o1"]
    appends = ["def f_a(G, l_xs):",
               "    for l_i in G.z_pool.items[:]:",
               "        G.fuel -= 1",
               f"        {CHECK}",
               "        l_xs.append(l_i)"]  # not a list of the function's own
    for lines in (calls, nested, appends):
        assert _run(lines)[0] == lines


def test_a_failure_once_the_budget_is_spent_reports_running_out():
    from pathlib import Path

    from interpreter.run.engine import Game, load_program
    program, _ = load_program(Path(__file__).resolve().parents[2] / "rules" / "tutorial_race")
    game = Game(program, agents=[None, None])
    assert game._failure("used .at of none") == "used .at of none"
    game.fuel, game.reserve = -1, 0
    assert "steps without the game ending" in game._failure("used .at of none")
