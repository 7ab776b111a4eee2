"""``python -m ssi``: the command line of :mod:`ssi.cli`."""
import sys

from .cli import main

sys.exit(main())
