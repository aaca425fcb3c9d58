"""The engine and the schemas must not know any particular game."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Our own list of words from the four proving-ground games. A hit in the
# engine or the schemas means game knowledge leaked out of rules/.
GAME_WORDS = r"""
bluecoats? infusions? gumshoe rmc rue.morgue gattory hat.tokens? shadow.cards?
shylock moonshine havana harbormaster kingpins? mobsters? safehouses?
speakeas(?:y|ies) scarface eliot thugs? neighbou?rhoods? dealers? alcohol
guns? liquor barrels? blowback enforcers? crime.rates? raids? police
bribes? bribery empire.marks? districts? bosses? gangs? detention
superpowers? banknotes? merchants? bootlegg\w* prohibition heartchanger
soulbond knockoff wanderlust historian
"""
PATTERN = re.compile(r"\b(" + "|".join(GAME_WORDS.split()) + r")\b", re.IGNORECASE)


def _hits():
    for top in ("interpreter", "schemas"):
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            if path.suffix not in {".py", ".lark", ".json", ".yaml", ".yml", ".toml", ".txt"}:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for m in PATTERN.finditer(line):
                    yield f"{path.relative_to(ROOT)}:{n}: {m.group(0)}"


def test_engine_and_schemas_know_no_game():
    assert list(_hits()) == []


def test_the_word_list_can_fail(tmp_path):
    # The pattern itself must catch a leaked word.
    assert PATTERN.search("if token.kind == 'Bluecoat':")


def test_rules_hold_no_python():
    assert sorted(ROOT.joinpath("rules").rglob("*.py")) == []
