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
- the ``rulebook`` commands the guide shows succeed, and ``python -m pytest
  PATH`` lines name scenarios that pass.

Failures name the README line of the example, e.g. ``README.md:962: ...``.
Diagnostics in the rule files the tests write are mapped back to README lines:
a snippet is written after blank lines so that its file lines *are* README
lines.
"""
from __future__ import annotations

import difflib
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main
from interpreter.engine import Game, StopGame, load_program
from interpreter.scenario import run_scenario_file

ROOT = Path(__file__).resolve().parent.parent
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
TOP_LEVEL = re.compile(r"^(game|phase|def|on|ability)\b")

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
        """('sampler' | 'tutorial_race', file name) for a file block, else None."""
        first = self.text.split("\n", 1)[0]
        m = re.match(r"^# (sampler|tutorial_race)/(\S+)$", first)
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

    def files(self, folder):
        return [b for b in self.blocks if b.target and b.target[0] == folder]

    @property
    def sampler(self):
        return {b.target[1]: b for b in self.files("sampler")}

    @property
    def snippets(self):
        return [b for b in self.blocks if b.lang == "rules" and not b.target]


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


def _write_ruleset(folder: Path, guide: Guide, rules: dict[str, str], game=True) -> dict:
    """The sampler's YAML from the guide, the base rules and `rules` ({file: text}).

    Returns {file name: README line of its line 1} for mapping diagnostics."""
    folder.mkdir(parents=True, exist_ok=True)
    origins = {}
    for name, block in guide.sampler.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(block.body, encoding="utf-8")
        origins[Path(name).name] = block.line + 1
    files = {"base.rules": BASE_RULES, **({"base_game.rules": BASE_GAME_RULES} if game else {}),
             **rules}
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return origins


def _where(d, origins) -> str:
    name = Path(d.path).name
    if name == EXAMPLES_FILE and name in origins:  # columns there are not README columns
        return f"README.md:{origins[name] + d.line - 1}"
    if name in origins:
        return f"README.md:{origins[name] + d.line - 1}:{d.col}"
    return f"{name}:{d.line}:{d.col} (written by this test)"


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
def test_every_code_block_is_checked():
    """A block these tests do not understand would silently go unchecked."""
    problems = []
    for b in GUIDE.blocks:
        if b.target is None and b.lang != "rules":
            problems.append(f"README.md:{b.line - 1}: a ```{b.lang} block that is neither a "
                            "rules snippet nor a '# sampler/NAME' or '# tutorial_race/NAME' file")
    for folder in ("sampler", "tutorial_race"):
        names = [b.target[1] for b in GUIDE.files(folder)]
        for b in GUIDE.files(folder):
            if names.count(b.target[1]) > 1:
                problems.append(f"README.md:{b.line}: {folder}/{b.target[1]} is shown twice")
    if "game.yaml" not in GUIDE.sampler:
        problems.append("README.md: no '# sampler/game.yaml' block")
    if not GUIDE.snippets or not GUIDE.examples:
        problems.append("README.md: no rules snippets or table examples were found")
    if problems:
        _fail("\n".join(problems))


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
    scen.parent.mkdir()
    scen.write_text(SECTION4_SCENARIOS[name], encoding="utf-8")
    result = run_scenario_file(scen)
    if not result.ok:
        _fail(f"README.md:{block.line}: with the sampler's cards, the section 4 example "
              f"does not behave as the guide says ({name}):\n"
              + _report(result.diagnostics, origins))


# --------------------------------------------------------- the guide's commands
@pytest.mark.parametrize("line,command", GUIDE.commands, ids=_ids(GUIDE.commands, lambda c: c[0]))
def test_guide_command_works(line, command):
    words = shlex.split(command)
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
    r = CliRunner().invoke(main, abs_[1:])
    if r.exit_code != 0:
        _fail(f"README.md:{line}: `{command}` exits {r.exit_code}:\n{r.output[-2000:]}"
              + (f"\n{r.exception!r}" if r.exit_code != 1 else ""))
    want = GUIDE.expected_output.get(command)
    if want is not None and want not in r.output:
        _fail(f"README.md:{line}: the guide says `{command}` prints {want!r}; it does not")
