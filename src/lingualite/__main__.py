"""``python -m lingualite``: the same command line as ``lingualite``."""

from lingualite.cli.main import main

if __name__ == "__main__":
    main()
