"""What designers use on top of a game: scenarios, simulation, lint, docs,
coverage, reports, benchmarks, the pytest plugin and the HTML and SVG pages."""
