"""Development tooling of the lingualite repository (not part of the installed package)."""
