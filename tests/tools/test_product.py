"""Decks from a product: `product` and `each` in a components file make one
item per combination of the lists, with templated ids and texts."""

from helpers import compiled, copy_ruleset, edit

from interpreter.run.engine import Game, load_program

CARDS = """kind: components
component: card
attributes:
  suit: {enum: [clubs, diamonds, hearts, spades]}
  rank: {type: int}
  name: {type: str}
properties:
  up: false
zone: deck
items:
  - {id: joker, suit: spades, rank: 0, name: Joker}
product:
  suit: [clubs, diamonds, hearts, spades]
  rank: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
each:
  id: "{suit}-{rank}"
  name: "{rank} of {suit}"
  text: "The {rank} of {suit}."
"""


def _ruleset(tmp_path, cards):
    rules = copy_ruleset("tutorial_race", tmp_path / "race")
    edit(rules / "game.yaml", "    cup: {description: The two dice}",
         "    cup: {description: The two dice}\n    deck: {type: deck}")
    (rules / "cards.yaml").write_text(cards)
    return rules


def test_a_product_makes_every_combination_in_order(tmp_path):
    program = compiled(_ruleset(tmp_path, CARDS))
    cards = [c for c in program.rs.components if c.kind == "card"]
    assert len(cards) == 53 and cards[0].id == "joker"
    assert [c.id for c in cards[1:4]] == ["clubs-2", "clubs-3", "clubs-4"]
    assert cards[-1].id == "spades-14" and cards[14].id == "diamonds-2"
    game = Game(program, agents=[None, None])
    q = game.comps_by_id["hearts-12"]
    assert (q.u_suit, q.u_rank, q.u_name, q.u_up) == ("hearts", 12, "12 of hearts", False)
    assert [c.id for c in game.z_deck.items[:2]] == ["joker", "clubs-2"]  # file order


def test_product_mistakes_are_located(tmp_path):
    cases = [
        (CARDS.replace('"{rank} of {suit}"', '"{rank} of {colour}"'), "REF-UNDEF",
         "names {colour}, which is not a product key"),
        (CARDS.replace('id: "{suit}-{rank}"', 'id: "{suit} {rank}"'), "SCHEMA-VALUE",
         "each.id makes 'clubs 2', not an id"),
        (CARDS.replace("  rank: [2, 3,", "  rank: [two, 3,"), "SCHEMA-TYPE", "rank must be int"),
        (CARDS.replace("  rank: [2, 3,", "  colour: [red]\n  rank: [2, 3,"),
         "SCHEMA-UNKNOWN-KEY", "unknown attribute 'colour'"),
        (CARDS.replace("  rank: [2, 3,", "  a: [" + ", ".join(["1"] * 300) + "]\n"
                       "  b: [" + ", ".join(["1"] * 300) + "]\n  rank: [2, 3,"),
         "LIMIT", "the product makes"),
        (CARDS.split("product:")[0] + "each:\n  id: x\n", "SCHEMA-MISSING",
         "'each' in the file needs 'product' beside it"),
    ]
    for cards, code, words in cases:
        _, diags = load_program(_ruleset(tmp_path / code, cards))
        hits = [d for d in diags if d.code.startswith(code) and words in d.message]
        assert hits, (code, [d.short() for d in diags])
        assert all(d.path.endswith("cards.yaml") and d.line > 1 for d in hits), hits[0].short()
