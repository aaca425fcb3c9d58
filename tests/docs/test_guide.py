"""The designers' guide (rules/README.md) must not drift from the language.

Every example in the guide is pulled out of the README and checked:

- the sampler's YAML files (``# sampler/NAME`` blocks) load and check cleanly,
  together with a little flow of our own (BASE_RULES, BASE_GAME_RULES);
- the tutorial's files (``# tutorial_race/NAME`` blocks) are byte for byte the
  real files in rules/tutorial_race/, and every real file is shown;
- every ```rules snippet compiles against the sampler, without errors and
  without warnings other than UNREACHABLE;
- every example in a table with an ``Example`` column, and every inline
  "`EXPR` is NUMBER" claim, compiles and evaluates in the sampler, and gives
  the result the guide states (``→ VALUE``) where it states one;
- the section-4 mini example really makes the sampler's event cards behave as
  the guide says (run as scenarios);
- the sampler's money, per-side supplies and seat-picking option do what
  sections 2.1 and 3.6 say (`pay` making change, `give`, two traders; run as
  scenarios), and a payment larger than the payer's cash fails with the
  error the guide quotes;
- the sampler's variant (``# sampler/variants/ID/...`` blocks, section 12) is
  built on the sampler with the section-3.3 game block as its flow, and
  checks cleanly with every overlay its options select (``rulebook validate``);
  every one of its files is really read; rules snippets that use ``override``
  or ``original(...)`` compile inside that variant; the sampler's scenarios
  (``# sampler/scenarios/...`` blocks) pass, and so do scenarios of our own
  that check what section 12 says the variant, its overlays and its bots do;
  a bot's log line shown in the guide is one the variant really writes;
- the ``rulebook`` commands the guide shows succeed, and ``python -m pytest
  PATH`` lines name scenarios that pass.

Failures name the README line of the example, e.g. ``README.md:962: ...``.
Diagnostics in the rule files the tests write are mapped back to README lines:
a snippet is written after blank lines so that its file lines *are* README
lines.
"""
from __future__ import annotations

import difflib
import posixpath
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers import ROOT, cli, write_files

from interpreter.designer.scenario import run_scenario_file
from interpreter.load.ruleset import load_ruleset
from interpreter.run.engine import Game, StopGame, load_program, validate_ruleset

README = ROOT / "rules" / "README.md"
TUTORIAL = ROOT / "rules" / "tutorial_race"

# ----------------------------------------------------------------- scaffolding
# The guide shows the sampler's YAML files complete but its rules only as
# snippets. These rules give it a game block and open every event and window
# the snippets hook into (income, bonus_income, stopped, the market window, the
# take_turn function), so a snippet's handlers and abilities are reachable.
BASE_RULES = """\
def base_setup() {
  move component(options.event) to in_play
  shuffle deck
  for p in players { p.at = space("ash") }
}
phase base_round {
  draw 3 from deck to market
  for p in players {
    turn p {
      trigger income(p) { p.coins += 1 }
      p.coins += sum(collect bonus_income(p))
      roll cup
      p.at = step("ring", p.at, component("d6-1").value)
      trigger stopped(p, p.at)
      window market() for p
    }
  }
  move market to discard
}
def take_turn(p) {
  window market() for p
}
"""

# Left out when a snippet brings its own game block.
BASE_GAME_RULES = """\
game {
  setup {
    base_setup()
  }
  rounds options.length {
    base_round
  }
  finish {
    win most(players, p => p.coins)
  }
}
"""

# Section 3.6: "In the examples below `p` and `q` are players (`amber`,
# `jade`), `s` is a space, `c` a card and `d` a die." Statement snippets and
# table examples run inside a function that declares them.
LOCALS = ['let p = amber', 'let q = jade', 'let s = space("ash")',
          'let c = component("lantern")', 'let d = component("d6-1")']
TOP_LEVEL = re.compile(r"^(game|phase|def|on|ability|override)\b")

# Section 4 says what the sampler's event cards do to the mini example's
# `phase trade`: the Boom adds a coin of income, the Drought replaces the
# income with a loss, the Fair offers "sell" at the market, the Toll makes a
# player who stops on its holder's town pay a coin.
SECTION4_MARKER = ("phase trade", "collect bonus_income(p)")
SECTION4_SCENARIOS = {
    "boom": """\
scenario: boom
ruleset: ..
options: {event: boom, length: 3}
rig: {rolls: [1, 2, 3]}
stop: {after: trade, round: 1}
expect:
  - that:
      - amber.coins == 5
      - jade.coins == 5
      - amber.at == space("birch")
      - slate.at == space("dune")
""",
    "drought": """\
scenario: drought
ruleset: ..
options: {event: drought}
rig: {rolls: [1, 2, 3]}
stop: {after: trade, round: 1}
expect:
  - that:
      - amber.coins == 2
""",
    "fair-and-toll": """\
scenario: fair and toll
ruleset: ..
options: {event: fair}
arrange: |
  move component("lantern") to amber.hand
  move component("toll") to jade.hand
  jade.at = space("birch")
rig: {rolls: [1, 4, 4]}
stop: {after: trade, round: 1}
script:
  - amber: sell
  - jade: pass
expect:
  - that:
      - amber.coins == 3 + 1 + 2 - 1
      - jade.coins == 3 + 1 + 1
      - component("lantern") in discard
      - component("toll").holder == jade
""",
}

# Section 12: the sampler's variants are built on the sampler whose flow is
# the game block of section 3.3 (phases income and trade), as the guide says.
VARIANT_BASE_MARKER = ("rounds options.length", "phase income", "phase trade")
VARIANT_BASE_FILE = "guide_flow.rules"
# A rules snippet that needs a variant: it overrides or calls `original`.
NEEDS_VARIANT = re.compile(r"^override\b|\boriginal\(", re.M)
# A bot's decision as the log shows it (an indented line in the guide).
BOT_LOG_LINE = re.compile(r"^ {4,}(\w+ \(bot\) \S+: .*)$")

# What section 12 says the solo variant does, beyond the scenario it shows:
# greedy rivals (an overlay) raise the budget to 3 through a table and never
# buy a card that costs 1; ruthless rivals (greedy, then a second overlay)
# earn a coin more a round; a bot takes the first of equally ranked options;
# a bot is never offered an ability (jade holds a card at the Fair and is not
# asked, or the unscripted decision would fail the scenario); the finish
# override sells the rivals' cards before the base finish decides; and the
# mandatory `length` refuses another value.
SECTION12_SCENARIOS = {
    "greedy": """\
scenario: greedy
ruleset: ..
variant: solo
options: {rivals: greedy}
arrange: |
  move component("coin-4") to amber.hand
rig: {draws: {deck: [coin-1, coin-2, coin-3, toll, lantern]}}
stop: {after: trade, round: 1}
script:
  - amber: sell
expect:
  - that:
      - tables.rival_budget == 3
      - component("toll").holder == jade
      - jade.coins == 3 + 2 + 2 - 3
      - component("lantern").holder == slate
""",
    "ruthless": """\
scenario: ruthless
ruleset: ..
variant: solo
options: {rivals: ruthless}
arrange: |
  move component("coin-4") to amber.hand
rig: {draws: {deck: [coin-1, coin-2, coin-3, toll, lantern]}}
stop: {after: trade, round: 1}
script:
  - amber: sell
expect:
  - that:
      - amber.coins == 3 + 2 + 1
      - component("toll").holder == jade
      - jade.coins == 3 + 2 + 2 + 1 - 3
      - slate.coins == 3 + 2 + 2 + 1 - 2
""",
    "ties-and-windows": """\
scenario: equal ranks, and no abilities for bots
ruleset: ..
variant: solo
arrange: |
  move component("lantern") to jade.hand
rig: {draws: {deck: [toll, coin-3, coin-4, coin-1, coin-2]}}
stop: {after: trade, round: 1}
expect:
  - that:
      - component("coin-1").holder == jade
      - component("coin-2").holder == slate
      - component("lantern").holder == jade
""",
    "greedy-passes": """\
scenario: greedy rivals never buy a card that costs 1
ruleset: ..
variant: solo
options: {rivals: greedy}
rig: {draws: {deck: [toll, coin-3, coin-4, coin-1, coin-2]}}
stop: {after: trade, round: 1}
expect:
  - that:
      - jade.bought == 0
      - component("coin-1") in deck
      - component("lantern").holder == slate
""",
    "finish": """\
scenario: the rivals sell their cards before the base finish decides
ruleset: ..
variant: solo
start: {round: 5, phase: trade}
arrange: |
  move deck to discard
  move component("lantern") to jade.hand
  amber.coins = 10
  jade.coins = 10
  slate.coins = 9
expect:
  - that:
      - jade.coins == 11
      - winners == [jade]
""",
}
SECTION12_REFUSED = {  # scenario -> the diagnostic code it must fail with
    "mandatory-length": ("""\
scenario: a solo game lasts five rounds
ruleset: ..
variant: solo
options: {length: 3}
expect:
  - that: ["round == 0"]
""", "OPTION"),
}

# Sections 2.1 and 3.6: what the guide says the sampler's money, supplies and
# seats do. Each scenario runs in the sampler with the base rules above (the
# Boom in play, so nobody is asked anything) and is tied to the README line
# that holds its marker: amber pays jade 3 with a crown and two pennies and
# keeps four pennies (her crown changed at the bank); a payment of 0 or less
# pays nothing; when the bank pays, the payee makes the change; when neither
# the bank nor the payee can, another side does; when nobody can, the payer
# hands over the crown and gets change back; `give` gives what there is, or
# all; the bank owns no cubes and every other side 20, a crown and two
# pennies; with two traders slate is none and bandits' index is 2. Amounts
# are written as the guide tells them (10 + 1: one crown more).
MONEY_AND_SEATS = {
    "pay-changes-a-note": ("**pay AMOUNT from SIDE to SIDE**", """\
scenario: amber pays jade 3 with a crown and two pennies
ruleset: ..
options: {event: boom}
arrange: |
  pay 3 from amber to jade
  pay 0 from jade to amber
  pay -2 from jade to amber
stop: {after: base_round, round: 1}
expect:
  - that:
      - amber.crowns == 0
      - amber.pennies == 4
      - jade.crowns == 1
      - jade.pennies == 5
      - bank.crowns == 10 + 1
      - bank.pennies == 20 - 5
      - cash(amber) + cash(jade) + cash(bank) == 7 + 7 + 70
"""),
    "the-bank-pays": ("**pay AMOUNT from SIDE to SIDE**", """\
scenario: the bank, without pennies, pays amber 3, and amber makes the change
ruleset: ..
options: {event: boom}
arrange: |
  give all pennies from bank to amber
  pay 3 from bank to amber
stop: {after: base_round, round: 1}
expect:
  - that:
      - amber.crowns == 1 + 1
      - amber.pennies == 2 + 20 - 5 + 3
      - bank.crowns == 10 - 1
      - bank.pennies == 5 - 3
      - bandits.pennies == 2
"""),
    "another-side-changes": ("**pay AMOUNT from SIDE to SIDE**", """\
scenario: neither the bank nor jade can change amber's crown, the bandits can
ruleset: ..
options: {event: boom}
arrange: |
  give all pennies from bank to bandits
  pay 3 from amber to jade
stop: {after: base_round, round: 1}
expect:
  - that:
      - amber.crowns == 0
      - amber.pennies == 4
      - jade.pennies == 5
      - bandits.crowns == 1 + 1
      - bandits.pennies == 2 + 20 - 5
      - bank.crowns == 10
"""),
    "change-back": ("**pay AMOUNT from SIDE to SIDE**", """\
scenario: nobody can change amber's crown, so she pays 3 with it and gets 2 back
ruleset: ..
options: {event: boom}
arrange: |
  place all pennies of bank at space("ash")
  place all pennies of bandits at space("ash")
  place all pennies of amber at space("ash")
  pay 3 from amber to jade
stop: {after: base_round, round: 1}
expect:
  - that:
      - amber.crowns == 0
      - amber.pennies == 2
      - jade.crowns == 2
      - jade.pennies == 0
      - bank.crowns == 10
"""),
    "give": ("**give N PIECE from SIDE to SIDE**", """\
scenario: give gives what there is, or all
ruleset: ..
options: {event: boom}
arrange: |
  give 5 crowns from jade to amber
  give all pennies from slate to amber
  give 3 cubes from bandits to amber
stop: {after: base_round, round: 1}
expect:
  - that:
      - amber.crowns == 2
      - jade.crowns == 0
      - amber.pennies == 4
      - slate.pennies == 0
      - amber.cubes == 23
      - bandits.cubes == 17
"""),
    "supplies": ("**Pieces.**", """\
scenario: the bank owns no cubes, the other sides 20, a crown and two pennies
ruleset: ..
options: {event: boom}
stop: {after: base_round, round: 1}
expect:
  - that:
      - bank.cubes == 0
      - every(players, p => p.cubes == 20)
      - bandits.cubes == 20
      - every(sides, s => s == bank or (s.crowns == 1 and s.pennies == 2))
      - bank.crowns == 10
      - bank.pennies == 20
"""),
    "two-traders": ("**Seats chosen by an option.**", """\
scenario: two traders
ruleset: ..
options: {event: boom, traders: 2}
stop: {after: base_round, round: 1}
expect:
  - that:
      - players == [amber, jade]
      - sides == [amber, jade, bandits, bank]
      - slate == none
      - bandits.index == 2
"""),
}
# A payment larger than the payer's cash: the RUNTIME error the guide quotes.
MONEY_REFUSED = ("**pay AMOUNT from SIDE to SIDE**", """\
scenario: amber pays 8 with 7
ruleset: ..
options: {event: boom}
arrange: |
  pay 8 from amber to jade
expect:
  - that: ["true"]
""", "RUNTIME")

SNIPPET_FILE = "guide_snippet.rules"
EXAMPLES_FILE = "guide_examples.rules"
EVAL_SEED = 3


# ------------------------------------------------------------ reading the guide
@dataclass(frozen=True)
class Block:
    lang: str
    line: int  # README line of the block's first line (the one after the fence)
    text: str

    @property
    def target(self):
        """('sampler' | 'tutorial_race' | 'examples', file name) for a file
        block, else None (an examples block quotes part of a recipe's file)."""
        first = self.text.split("\n", 1)[0]
        m = re.match(r"^# (sampler|tutorial_race|examples)/(\S+)$", first)
        return (m.group(1), m.group(2)) if m else None

    @property
    def body(self):
        """A file block's content, without its '# folder/name' line."""
        return self.text.split("\n", 1)[1] if self.target else self.text


@dataclass(frozen=True)
class Example:
    line: int
    expr: str
    stated: str | None  # the result the guide gives, if it gives one
    kind: str  # "table" or "prose"


@dataclass
class Guide:
    path: Path
    blocks: list = field(default_factory=list)
    examples: list = field(default_factory=list)
    commands: list = field(default_factory=list)  # (line, command)
    expected_output: dict = field(default_factory=dict)  # command -> text it must print
    bot_log: list = field(default_factory=list)  # (line, a bot's log line the guide shows)

    def files(self, folder):
        return [b for b in self.blocks if b.target and b.target[0] == folder]

    @property
    def sampler(self):
        return {b.target[1]: b for b in self.files("sampler")}

    @property
    def snippets(self):
        return [b for b in self.blocks if b.lang == "rules" and not b.target]

    @property
    def variants(self):
        """Ids of the sampler's variants (``# sampler/variants/ID/variant.yaml``)."""
        return sorted(m.group(1) for name in self.sampler
                      if (m := re.fullmatch(r"variants/([^/]+)/variant\.yaml", name)))

    @property
    def scenarios(self):
        return [b for name, b in self.sampler.items() if name.startswith("scenarios/")]


def _cells(row: str) -> list[str]:
    row = row.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return [c.strip() for c in re.split(r"(?<!\\)\|", row)]


def read_guide(path: Path = README) -> Guide:
    guide = Guide(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    in_block = [False] * len(lines)
    i = 0
    while i < len(lines):
        m = re.match(r"^\s*```(\S*)\s*$", lines[i])
        if m:
            j = i + 1
            while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
                j += 1
            assert j < len(lines), f"{path.name}:{i + 1}: this code block is never closed"
            guide.blocks.append(Block(m.group(1), i + 2, "\n".join(lines[i + 1:j]) + "\n"))
            for k in range(i, j + 1):
                in_block[k] = True
            i = j
        i += 1

    # tables with an "Example" column: each `code` span is an example, and a
    # "→ VALUE" right after it is the result the guide states
    for idx, line in enumerate(lines):
        if in_block[idx] or not line.startswith("|") or "Example" not in _cells(line):
            continue
        col = _cells(line).index("Example")
        j = idx + 2
        while j < len(lines) and lines[j].startswith("|"):
            cells = _cells(lines[j])
            if col < len(cells):
                parts = re.split(r"`([^`]+)`", cells[col])
                for n in range(1, len(parts), 2):
                    after = parts[n + 1].strip()
                    stated = after[1:].strip() if after.startswith("→") else None
                    guide.examples.append(
                        Example(j + 1, parts[n].replace("\\|", "|"), stated or None, "table"))
            j += 1

    for idx, line in enumerate(lines):
        if in_block[idx]:
            continue
        # prose claims such as "`7 / 2` is 3"
        if not line.startswith("|"):
            for m in re.finditer(r"`([^`]+)` is (-?\d+)\b", line):
                guide.examples.append(Example(idx + 1, m.group(1), m.group(2), "prose"))
        # indented command lines
        m = re.match(r"^ {4}((?:rulebook|python -m pytest) .*)$", line)
        if m:
            guide.commands.append((idx + 1, m.group(1).split("  #")[0].strip()))
        m = BOT_LOG_LINE.match(line)
        if m:
            guide.bot_log.append((idx + 1, m.group(1).strip()))
    text = " ".join(lines)
    for m in re.finditer(r'try `(rulebook [^`]+)`\s+and\s+look\s+for\s+"([^"]+)"', text):
        guide.expected_output[m.group(1)] = m.group(2)
    return guide


GUIDE = read_guide()


def _ids(items, line_of):
    seen: dict = {}
    out = []
    for it in items:
        key = f"README.md:{line_of(it)}"
        seen[key] = seen.get(key, 0) + 1
        out.append(key if seen[key] == 1 else f"{key}#{seen[key]}")
    return out


# ------------------------------------------------------------ building rulesets
def _snippet_file(block: Block) -> str:
    """The snippet as a rules file whose line numbers are README line numbers.

    Top-level forms are written as they are; statements go inside a function
    that declares p, q, s, c and d, its head on the lines just before."""
    code = [ln for ln in block.text.splitlines()
            if ln.strip() and not ln.strip().startswith("#")]
    top = bool(code) and bool(TOP_LEVEL.match(code[0])) and all(
        TOP_LEVEL.match(ln) or ln.startswith((" ", "\t", "}")) for ln in code)
    if top:
        return "\n" * (block.line - 1) + block.text
    head = ["def guide_snippet() {", *("  " + x for x in LOCALS)]
    assert block.line > len(head), "a snippet this close to the top cannot be padded"
    return "\n" * (block.line - 1 - len(head)) + "\n".join(head) + "\n" + block.text + "}\n"


def _write_ruleset(folder: Path, guide: Guide, rules: dict[str, str], game=True,
                   base=True) -> dict:
    """The sampler's files from the guide (its YAML, and its variants and
    scenarios, which a plain load does not read), the base rules (unless
    `base` is false) and `rules` ({path in the folder: text}).

    Returns {path in the folder: README line of its line 1} for mapping
    diagnostics."""
    write_files(folder, {name: block.body for name, block in guide.sampler.items()})
    write_files(folder, {**({"base.rules": BASE_RULES} if base else {}),
                         **({"base_game.rules": BASE_GAME_RULES} if game else {}), **rules})
    return {name: block.line + 1 for name, block in guide.sampler.items()}


def _origin(path: str, origins):
    """The key of `origins` naming this file: the longest that ends its path
    (so variants/solo/tables.yaml is not taken for the base's tables.yaml)."""
    path = Path(path).as_posix()
    keys = [k for k in origins if path == k or path.endswith("/" + k)]
    return max(keys, key=len) if keys else None


def _where(d, origins) -> str:
    key = _origin(d.path, origins)
    if key == EXAMPLES_FILE:  # columns there are not README columns
        return f"README.md:{origins[key] + d.line - 1}"
    if key is not None:
        return f"README.md:{origins[key] + d.line - 1}:{d.col}"
    return f"{Path(d.path).name}:{d.line}:{d.col} (written by this test)"


def _bad(diags):
    """Errors, and warnings other than UNREACHABLE (a snippet's phase that the
    base game does not list is fine)."""
    return [d for d in diags if d.severity == "error"
            or (d.severity == "warning" and d.code != "UNREACHABLE")]


def _report(diags, origins) -> str:
    return "\n".join(f"  {_where(d, origins)}: {d.code} {d.message}"
                     + (f" ({d.hint})" if d.hint else "") for d in diags)


def _fail(message: str):
    """One clear failure message, without a Python traceback."""
    pytest.fail(message, pytrace=False)


# ------------------------------------------------------------ the guide's shape
def test_cookbook_quotes_are_word_for_word():
    """A `# examples/NAME/FILE` block is a part of that recipe's real file."""
    blocks = GUIDE.files("examples")
    assert len(blocks) >= 10
    for b in blocks:
        real = ROOT / "rules" / "examples" / b.target[1]
        if not real.is_file():
            _fail(f"README.md:{b.line}: there is no rules/examples/{b.target[1]}")
        if b.body not in real.read_text(encoding="utf-8"):
            _fail(f"README.md:{b.line}: this is not word for word in rules/examples/"
                  f"{b.target[1]}")


def test_every_code_block_is_checked():
    """A block these tests do not understand would silently go unchecked."""
    problems = []
    for b in GUIDE.blocks:
        if b.target is None and b.lang not in ("rules", "python"):
            problems.append(f"README.md:{b.line - 1}: a ```{b.lang} block that is neither a "
                            "rules snippet, a Python example nor a '# sampler/NAME' or "
                            "'# tutorial_race/NAME' file")
    for folder in ("sampler", "tutorial_race"):
        names = [b.target[1] for b in GUIDE.files(folder)]
        for b in GUIDE.files(folder):
            if names.count(b.target[1]) > 1:
                problems.append(f"README.md:{b.line}: {folder}/{b.target[1]} is shown twice")
    for b in GUIDE.files("sampler"):  # a file where the loader never looks is never checked
        name = b.target[1]
        if not (re.fullmatch(r"[^/]+\.(yaml|rules)", name)
                or re.fullmatch(r"variants/[^/]+/([^/]+/)*[^/]+\.(yaml|rules)", name)
                or re.fullmatch(r"scenarios/[^/]+\.scenario\.yaml", name)):
            problems.append(f"README.md:{b.line}: sampler/{name} is neither a ruleset file, "
                            "a file of a variant or overlay folder under variants/, nor a "
                            "scenarios/*.scenario.yaml file")
    if "game.yaml" not in GUIDE.sampler:
        problems.append("README.md: no '# sampler/game.yaml' block")
    if not GUIDE.snippets or not GUIDE.examples:
        problems.append("README.md: no rules snippets or table examples were found")
    if problems:
        _fail("\n".join(problems))


def test_every_python_example_runs(monkeypatch, capsys):
    """```python blocks run as they stand, from the repository's top folder."""
    blocks = [b for b in GUIDE.blocks if b.lang == "python" and b.target is None]
    assert blocks
    monkeypatch.chdir(ROOT)
    for b in blocks:
        text = "\n" * (b.line - 1) + b.text  # README lines in a traceback
        exec(compile(text, "README.md", "exec"), {"__name__": "guide_example"})
        assert capsys.readouterr().out, f"README.md:{b.line}: the example prints nothing"


# ------------------------------------------------------------------- the sampler
def test_sampler_files_validate(tmp_path):
    origins = _write_ruleset(tmp_path / "sampler", GUIDE, {})
    _, diags = load_program(tmp_path / "sampler")
    if diags:
        _fail("the sampler's files (with the test's base rules) do not check cleanly:\n"
              + _report(diags, origins))


# ------------------------------------------------------------------ the tutorial
TUTORIAL_BLOCKS = GUIDE.files("tutorial_race")


@pytest.mark.parametrize("block", TUTORIAL_BLOCKS, ids=_ids(TUTORIAL_BLOCKS, lambda b: b.line))
def test_tutorial_file_equals_the_real_one(block):
    name = block.target[1]
    real = TUTORIAL / name
    if not real.is_file():
        _fail(f"README.md:{block.line}: shows tutorial_race/{name}, which does not exist "
              f"in {TUTORIAL}")
    actual = real.read_text(encoding="utf-8")
    if actual != block.body:
        diff = "".join(difflib.unified_diff(
            actual.splitlines(True), block.body.splitlines(True),
            f"rules/tutorial_race/{name}", f"README.md:{block.line + 1}"))
        _fail(f"README.md:{block.line}: tutorial_race/{name} differs from the real file:\n"
              f"{diff}")


def test_every_tutorial_file_is_shown():
    shown = {b.target[1] for b in TUTORIAL_BLOCKS}
    missing = sorted(
        str(f.relative_to(TUTORIAL)) for f in TUTORIAL.rglob("*")
        if f.is_file() and f.name != "ASSUMPTIONS.md"
        and not any(part.startswith((".", "__")) for part in f.relative_to(TUTORIAL).parts)
        and str(f.relative_to(TUTORIAL)) not in shown)
    if missing:
        _fail("files of rules/tutorial_race/ that the guide does not show: " + ", ".join(missing))


# ------------------------------------------------------------------- snippets
@pytest.mark.parametrize("block", GUIDE.snippets, ids=_ids(GUIDE.snippets, lambda b: b.line))
def test_rule_snippet_compiles(block, tmp_path):
    if NEEDS_VARIANT.search(block.text):  # override / original(): only in a variant
        if not GUIDE.variants:
            _fail(f"README.md:{block.line}: this snippet needs a variant, but the guide "
                  "shows no '# sampler/variants/ID/variant.yaml' block")
        rel = f"variants/{GUIDE.variants[0]}/{SNIPPET_FILE}"
        origins = _write_variant_sampler(tmp_path, GUIDE, {rel: _snippet_file(block)})
        origins[rel] = 1
        bad = _bad(validate_ruleset(tmp_path))
        if bad:
            _fail(f"README.md:{block.line}: the rules snippet does not compile in the "
                  f"sampler's variant {GUIDE.variants[0]}:\n" + _report(bad, origins))
        return
    own_game = bool(re.search(r"^game\s*\{", block.text, re.M))
    origins = _write_ruleset(tmp_path, GUIDE, {SNIPPET_FILE: _snippet_file(block)},
                             game=not own_game)
    origins[SNIPPET_FILE] = 1
    _, diags = load_program(tmp_path)
    bad = _bad(diags)
    if bad:
        _fail(f"README.md:{block.line}: the rules snippet does not compile in the sampler:\n"
              + _report(bad, origins))


# -------------------------------------------------------------- table examples
@dataclass
class Outcome:
    value: str | None = None
    problem: str | None = None


def _example_def(k: int, ex: Example) -> str:
    return f"def guide_example_{k}() {{ {'; '.join(LOCALS)}; return str({ex.expr}) }}"


def _evaluate(folder: Path, guide: Guide, examples: list) -> list[Outcome]:
    """Compile all examples at once and evaluate each in the sampler after setup.

    If the whole does not compile cleanly, each example is tried on its own,
    so every failure is pinned to its own README line."""
    text = "".join(_example_def(k, ex) + "\n" for k, ex in enumerate(examples))
    origins = _write_ruleset(folder, guide, {EXAMPLES_FILE: text})
    program, diags = load_program(folder)
    bad = _bad(diags)
    if bad or program is None:
        if len(examples) > 1:
            return [_evaluate(folder.with_name(f"{folder.name}-{k}"), guide, [ex])[0]
                    for k, ex in enumerate(examples)]
        origins[EXAMPLES_FILE] = examples[0].line  # the one def sits on line 1
        return [Outcome(problem="it does not compile:\n" + _report(bad, origins))]
    out = [Outcome(problem="not evaluated") for _ in examples]

    def evaluate_all(game):  # called after setup, as a scenario's `arrange` would be
        for k in range(len(examples)):
            try:
                # a rules function NAME compiles to f_NAME (as scenario checks use it)
                out[k] = Outcome(value=program.ns[f"f_guide_example_{k}"](game))
            except Exception as e:  # noqa: BLE001 - a failing example is a finding
                out[k] = Outcome(problem=f"it fails when evaluated: {type(e).__name__}: {e}")
        raise StopGame()

    try:
        Game(program, seed=EVAL_SEED).run(None, evaluate_all)
    except Exception as e:  # noqa: BLE001 - the sampler's own setup failed
        for o in out:
            o.problem = f"the sampler's setup failed: {e}"
    return out


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory):
    outcomes = _evaluate(tmp_path_factory.mktemp("examples") / "rs", GUIDE, GUIDE.examples)
    return dict(zip(GUIDE.examples, outcomes))


@pytest.mark.parametrize("example", GUIDE.examples, ids=_ids(GUIDE.examples, lambda e: e.line))
def test_example_gives_what_the_guide_states(example, evaluated):
    got = evaluated[example]
    where = f"README.md:{example.line}: `{example.expr}`"
    if got.problem is not None:
        _fail(f"{where}: {got.problem}")
    if example.stated is not None and got.value != example.stated:
        _fail(f"{where} gives {got.value!r} in the sampler, but the guide says "
              f"{example.stated!r}")


# ---------------------------------------------------- section 4 card behaviour
def _section4_block():
    for b in GUIDE.snippets:
        if all(m in b.text for m in SECTION4_MARKER):
            return b
    return None


@pytest.mark.parametrize("name", sorted(SECTION4_SCENARIOS))
def test_section4_cards_do_what_the_guide_says(name, tmp_path):
    block = _section4_block()
    if block is None:
        _fail("README.md: the section 4 mini example (a `phase trade` with "
              "`collect bonus_income(p)`) is gone")
    game = BASE_GAME_RULES.replace("base_round", "trade")
    origins = _write_ruleset(tmp_path, GUIDE, {SNIPPET_FILE: _snippet_file(block),
                                               "base_game.rules": game})
    origins[SNIPPET_FILE] = 1
    scen = tmp_path / "scenarios" / f"{name}.scenario.yaml"
    scen.parent.mkdir(exist_ok=True)
    scen.write_text(SECTION4_SCENARIOS[name], encoding="utf-8")
    result = run_scenario_file(scen)
    if not result.ok:
        _fail(f"README.md:{block.line}: with the sampler's cards, the section 4 example "
              f"does not behave as the guide says ({name}):\n"
              + _report(result.diagnostics, origins))


# -------------------------------------- sections 2.1 and 3.6: money and seats
def _readme_line(marker: str) -> int:
    for n, line in enumerate(README.read_text(encoding="utf-8").splitlines(), 1):
        if marker in line:
            return n
    _fail(f"README.md: no line holds {marker!r}, whose claims this test checks")


@pytest.mark.parametrize("name", sorted(MONEY_AND_SEATS))
def test_money_and_seats_do_what_the_guide_says(name, tmp_path):
    marker, text = MONEY_AND_SEATS[name]
    line = _readme_line(marker)
    origins = _write_ruleset(tmp_path, GUIDE, {})
    result = _run_scenario(tmp_path, f"guide-{name}.scenario.yaml", text)
    if not result.ok:
        _fail(f"README.md:{line}: the sampler does not do what the guide says ({name}):\n"
              + _report(result.diagnostics, origins))


def test_paying_too_much_fails_as_the_guide_says(tmp_path):
    marker, text, code = MONEY_REFUSED
    line = _readme_line(marker)
    _write_ruleset(tmp_path, GUIDE, {})
    result = _run_scenario(tmp_path, "guide-pay-too-much.scenario.yaml", text)
    found = [d for d in result.diagnostics if d.code == code]
    if result.ok or not found:
        _fail(f"README.md:{line}: paying more than the payer holds should fail with {code}, "
              "but: " + ("it passes" if result.ok
                         else "; ".join(d.short() for d in result.diagnostics)))
    guide = " ".join(README.read_text(encoding="utf-8").split())
    if found[0].message not in guide:
        _fail(f"README.md:{line}: the guide does not quote the error as the engine writes "
              f"it: {found[0].message!r}")


# ------------------------------------------------ section 12: the sampler's variant
def _variant_base_block():
    for b in GUIDE.snippets:
        if all(m in b.text for m in VARIANT_BASE_MARKER) and re.search(r"^game\s*\{", b.text,
                                                                      re.M):
            return b
    return None


def _write_variant_sampler(folder: Path, guide: Guide, rules=None) -> dict:
    """The sampler with its variants and scenarios, its flow being the game
    block of section 3.3 (not this test's base rules), plus `rules`."""
    block = _variant_base_block()
    if block is None:
        _fail("README.md: the section 3.3 game block (`rounds options.length` with phases "
              "income and trade), the base of the sampler's variants, is gone")
    origins = _write_ruleset(folder, guide, {VARIANT_BASE_FILE: _snippet_file(block),
                                             **(rules or {})}, game=False, base=False)
    origins[VARIANT_BASE_FILE] = 1
    return origins


def _need_variant():
    if not GUIDE.variants:
        _fail("README.md: no '# sampler/variants/ID/variant.yaml' block: section 12's "
              "sampler variant is gone")


def test_sampler_variants_validate(tmp_path):
    """`rulebook validate` on the sampler: the base, each variant, each overlay."""
    _need_variant()
    origins = _write_variant_sampler(tmp_path, GUIDE)
    bad = _bad(validate_ruleset(tmp_path))
    if bad:
        _fail("the sampler's variants (on the section 3.3 game) do not check cleanly:\n"
              + _report(bad, origins))
    # a variant's file that no layer reads would go unchecked
    read = set()
    for vid in GUIDE.variants:
        rs, _ = load_ruleset(tmp_path, vid)
        read.add(f"variants/{vid}")
        read.update(posixpath.normpath(f"variants/{vid}/{sub}")
                    for table in rs.overlay_map.values() for subs in table.values()
                    for sub in subs)
    unread = [f"README.md:{b.line}: sampler/{name} is in no variant folder and in no overlay "
              "folder that an option value selects: nothing reads it"
              for name, b in GUIDE.sampler.items()
              if name.startswith("variants/") and posixpath.dirname(name) not in read]
    if unread:
        _fail("\n".join(unread))


def _run_scenario(folder: Path, name: str, text: str | None = None):
    """Run scenarios/NAME in the sampler variant folder, writing it first if given."""
    scen = folder / "scenarios" / name
    if text is not None:
        scen.parent.mkdir(parents=True, exist_ok=True)
        scen.write_text(text, encoding="utf-8")
    return run_scenario_file(scen)


@pytest.mark.parametrize("block", GUIDE.scenarios, ids=_ids(GUIDE.scenarios, lambda b: b.line))
def test_sampler_scenario_passes(block, tmp_path):
    origins = _write_variant_sampler(tmp_path, GUIDE)
    result = _run_scenario(tmp_path, Path(block.target[1]).name)
    if not result.ok:
        _fail(f"README.md:{block.line}: the sampler's scenario fails:\n"
              + _report(result.diagnostics, origins))


def _variant_line():
    return GUIDE.sampler[f"variants/{GUIDE.variants[0]}/variant.yaml"].line


@pytest.mark.parametrize("name", sorted(SECTION12_SCENARIOS))
def test_section12_variant_does_what_the_guide_says(name, tmp_path):
    _need_variant()
    origins = _write_variant_sampler(tmp_path, GUIDE)
    result = _run_scenario(tmp_path, f"guide-{name}.scenario.yaml", SECTION12_SCENARIOS[name])
    if not result.ok:
        _fail(f"README.md:{_variant_line()}: the sampler's solo variant does not behave as "
              f"section 12 says ({name}):\n" + _report(result.diagnostics, origins))


@pytest.mark.parametrize("name", sorted(SECTION12_REFUSED))
def test_section12_variant_refuses_what_the_guide_says(name, tmp_path):
    _need_variant()
    _write_variant_sampler(tmp_path, GUIDE)
    text, code = SECTION12_REFUSED[name]
    result = _run_scenario(tmp_path, f"guide-{name}.scenario.yaml", text)
    if result.ok or not any(d.code == code for d in result.diagnostics):
        _fail(f"README.md:{_variant_line()}: the sampler's solo variant should refuse this "
              f"with {code} ({name}), but: "
              + ("it passes" if result.ok else "; ".join(d.short() for d in result.diagnostics)))


@pytest.mark.parametrize("line,text", GUIDE.bot_log, ids=_ids(GUIDE.bot_log, lambda x: x[0]))
def test_bot_log_line_shown_is_real(line, text, tmp_path):
    """A bot's log line the guide shows is written by one of the sampler's scenarios."""
    _write_variant_sampler(tmp_path, GUIDE)
    seen = []
    for block in GUIDE.scenarios:
        result = _run_scenario(tmp_path, Path(block.target[1]).name)
        if result.game is not None:
            seen += [e["text"] for e in result.game.log if "(bot)" in e["text"]]
    if text not in seen:
        _fail(f"README.md:{line}: no scenario of the sampler logs {text!r}; its bots log:\n"
              + "\n".join(f"  {s}" for s in seen))


# --------------------------------------------------------- the guide's commands
@pytest.fixture(scope="module")
def guide_tmp(tmp_path_factory):
    """The guide's /tmp, private to this run (no other run writes there)."""
    return tmp_path_factory.mktemp("guide-tmp")


def _guide_words(command, tmp):
    return [w.replace("/tmp/", f"{tmp}/", 1) if w.startswith("/tmp/") else w
            for w in shlex.split(command)]


def _make_guide_files(command, tmp):
    """A command that reads a /tmp file the guide wrote with an earlier
    command (a replay of a save) gets it made first, so each runs alone."""
    for w in shlex.split(command):
        if w.startswith("/tmp/") and not Path(w.replace("/tmp/", f"{tmp}/", 1)).exists():
            for _, earlier in GUIDE.commands:
                if earlier == command:
                    break
                if w in shlex.split(earlier):
                    cli(*_guide_words(earlier, tmp)[1:])


@pytest.mark.parametrize("line,command", GUIDE.commands, ids=_ids(GUIDE.commands, lambda c: c[0]))
def test_guide_command_works(line, command, guide_tmp):
    _make_guide_files(command, guide_tmp)
    words = _guide_words(command, guide_tmp)
    abs_ = [str(ROOT / w) if not w.startswith("-") and (ROOT / w).exists() else w for w in words]
    if command.startswith("python -m pytest"):
        paths = [Path(w) for w in abs_[3:] if not w.startswith("-")]
        files = sorted(f for p in paths for f in p.rglob("*.scenario.yaml"))
        if not files:
            _fail(f"README.md:{line}: `{command}` finds no scenarios")
        failed = [f"  {f.name}: " + "; ".join(d.short() for d in r.diagnostics)
                  for f in files if not (r := run_scenario_file(f)).ok]
        if failed:
            _fail(f"README.md:{line}: `{command}` has failing scenarios:\n" + "\n".join(failed))
        return
    r = cli(*abs_[1:])
    if r.exit_code != 0:
        _fail(f"README.md:{line}: `{command}` exits {r.exit_code}:\n{r.output[-2000:]}"
              + (f"\n{r.exception!r}" if r.exit_code != 1 else ""))
    want = GUIDE.expected_output.get(command)
    if want is not None and want not in r.output:
        _fail(f"README.md:{line}: the guide says `{command}` prints {want!r}; it does not")
