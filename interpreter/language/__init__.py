"""The rule language: its grammar (rules.lark), the parser that turns rule
text into the syntax tree (ast), and the types the checker reasons with."""
