"""Shared by every test folder. pytest puts this folder on the import path
for this conftest, so a test in any folder imports tests/helpers.py (the
repository's paths, `rulebook` run in-process) as `helpers`."""
