"""From a Ruleset to Python: the checker and code generator, and the fast
back end's passes (inlining, unrolling, step checks)."""
