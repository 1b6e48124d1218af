"""The version of tactica (a module of its own, so that the cache and the web pages can
read it without importing the package's public API)."""

__version__ = "0.1.0"
