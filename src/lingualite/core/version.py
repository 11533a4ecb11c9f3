"""The package version, one place (``lingualite --version``, the service's ``/health`` and metrics)."""

__version__ = "0.1.0"
