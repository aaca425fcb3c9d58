"""pytest plugin: collects `*.scenario.yaml` files as test items (filled in later)."""
