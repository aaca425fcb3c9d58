"""A ruleset reads nothing outside the folder the user named (issue 30,
items 6 and 7): not through a variant, overlay or `variants/` folder that is
a symbolic link out of it, and not through a scenario's or a save's
`ruleset:` naming a folder elsewhere. Nothing from outside is quoted either."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RACE = ROOT / "rules" / "tutorial_race"
SECRET = "AWS_KEY=hunter2"


def rulebook(*args, cwd=None):
    r = subprocess.run([sys.executable, "-m", "interpreter", *map(str, args)], cwd=cwd,
                       capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout + r.stderr


def secrets(folder: Path) -> Path:
    """A folder of files that look like rule files and hold a secret on each line."""
    folder.mkdir(parents=True)
    (folder / "variant.yaml").write_text(f"kind: variant\nid: x\nname: {SECRET}\n[{SECRET}\n")
    (folder / "game.yaml").write_text(f"kind: game\n[{SECRET}\n")
    (folder / "leak.rules").write_text(f"{SECRET} {{\n")
    return folder


def race_copy(tmp_path) -> Path:
    folder = tmp_path / "rs"
    shutil.copytree(RACE, folder)
    return folder


@pytest.mark.parametrize("link", ["variants/evil", "variants"])
def test_a_folder_linked_out_of_the_ruleset_is_never_read(tmp_path, link):
    outside = secrets(tmp_path / "outside" / "evil")
    rs = race_copy(tmp_path)
    if link == "variants":
        shutil.rmtree(rs / "variants", ignore_errors=True)
        os.symlink(outside.parent, rs / "variants")
    else:
        (rs / "variants").mkdir(exist_ok=True)
        os.symlink(outside, rs / link)
    for args in (["validate", rs], ["play", rs, "--variant", "evil", "--seed", "1"],
                 ["info", rs, "--variant", "evil"], ["lint", rs], ["docs", rs]):
        code, out = rulebook(*args)
        assert SECRET not in out, (args, out)
        assert "Traceback" not in out and "INTERNAL" not in out, (args, out)
    code, out = rulebook("validate", rs)
    assert code == 1 and "variants/evil/variant.yaml:1:1: FILE-MISSING" in out, out
    assert "symbolic link out of the ruleset folder" in out
