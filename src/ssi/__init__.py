"""ssi: exact, fast online SGD for sequence single-index models and single-layer attention."""
from .problems import Problem

__version__ = "0.1.0"
__all__ = ["Problem"]
