"""The `rulebook` command line (placeholder until the engine lands)."""
import click


@click.group()
def main():
    """Validate, play and simulate rulesets."""
