"""The package's version (also in pyproject.toml); ``ssi.__version__``."""
__version__ = "0.1.0"
