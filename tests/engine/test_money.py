"""Money as notes: exact payments with change made at the bank."""
import textwrap

import pytest
from helpers import compiled, write_files

from interpreter.run.engine import Game, load_program

GAME = """
kind: game
id: market
name: Market
seats: [{id: ann}, {id: bob}]
sides: [{id: bank}]
pieces:
  n1000: {value: 1000, supply: {bank: 10, ann: 1}}
  n500: {value: 500, supply: {bank: 10}}
  n100: {value: 100, supply: {bank: 10, bob: 2}}
money: {bank: bank, notes: [n1000, n500, n100]}
variables:
  game: {amount: 0}
"""

RULES = """
game {
  setup {
    pay amount from ann to bob
  }
  rounds 0 { }
}
"""


def program(tmp_path, rules=RULES):
    return compiled(write_files(tmp_path, {"game.yaml": textwrap.dedent(GAME),
                                           "flow.rules": rules}))


def run(prog, amount):
    game = Game(prog, seed=1)
    game.v_amount = amount
    prog.setup(game)
    return game


def test_a_note_is_broken_at_the_bank_to_pay_exactly(tmp_path):
    g = run(program(tmp_path), 600)
    ann, bob, bank = g.n_ann, g.n_bob, g.n_bank
    assert (ann.u_n1000, ann.u_n500, ann.u_n100) == (0, 0, 4)
    assert (bob.u_n1000, bob.u_n500, bob.u_n100) == (0, 1, 3)
    assert (bank.u_n1000, bank.u_n500, bank.u_n100) == (11, 9, 5)
    g.check_invariants()


def test_paying_with_exact_notes_needs_no_change(tmp_path):
    g = run(program(tmp_path), 1000)
    assert (g.n_ann.u_n1000, g.n_bob.u_n1000, g.n_bank.u_n1000) == (0, 1, 10)


def test_cash_counts_values(tmp_path):
    rules = RULES.replace("pay amount from ann to bob", "amount = cash(bob) + cash(bank)")
    g = run(program(tmp_path, rules), 0)
    assert g.v_amount == 200 + 10 * 1000 + 10 * 500 + 10 * 100


def test_paying_more_than_you_hold_is_a_rule_error(tmp_path):
    prog = program(tmp_path)
    game = Game(prog, seed=1)
    game.v_amount = 1500
    with pytest.raises(Exception, match="holds only 1000"):
        prog.setup(game)


def test_money_needs_a_declared_bank(tmp_path):
    (tmp_path / "game.yaml").write_text(textwrap.dedent(GAME).replace("bank: bank, notes",
                                                                      "bank: vault, notes"))
    (tmp_path / "flow.rules").write_text(RULES)
    _, diags = load_program(tmp_path)
    assert [d.code for d in diags if d.severity == "error"] == ["REF-UNDEF"]
    assert "vault" in diags[0].message


def test_change_comes_from_another_side_when_the_bank_has_none(tmp_path):
    prog = program(tmp_path)
    game = Game(prog, seed=1)
    bank = game.n_bank
    bank.u_n500, bank.u_n100 = 0, 0  # nobody can break ann's 1000 note...
    game.n_bob.u_n500 = 1          # ...so she hands it over and bob gives 500 back
    game.v_amount = 500
    prog.setup(game)
    assert (game.n_ann.u_n1000, game.n_ann.u_n500) == (0, 1)
    assert game.n_bob.u_n1000 == 1 and game.n_bob.u_n500 == 0 and game.n_bob.u_n100 == 2
