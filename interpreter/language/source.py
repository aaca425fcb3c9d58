"""Where a rule text sits in its file: a `.rules` file, or a YAML string
(a card's `rules:`) with its line and column offsets, so that every position
the parser reports is a real `path:line:col`."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Source:
    path: str
    text: str
    line0: int = 0  # file line of the text's first line, minus one
    col0: int = 0  # column offset of every line (YAML block) ...
    first_only: bool = False  # ... or of the first line only (YAML flow scalar)

    def pos(self, line: int, col: int) -> tuple[int, int]:
        if self.first_only and line > 1:
            return self.line0 + line, col
        return self.line0 + line, self.col0 + col

    def line_text(self, line: int) -> str:
        lines = self.text.splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""
