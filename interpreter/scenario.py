"""Scenario files (filled in next)."""


def validate_scenario(path):
    return []
