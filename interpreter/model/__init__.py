"""The game's objects as compiled rules see them (sides, spaces, components,
zones), and how each seat may see them: visibility, labels, log words."""
