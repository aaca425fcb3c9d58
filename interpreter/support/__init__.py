"""Ground floor: what every stage leans on and nothing of the language — the
limits, diagnostics and their rendering, escaping for terminals, the file
confinement rules, package resources, the disk cache and the console."""
