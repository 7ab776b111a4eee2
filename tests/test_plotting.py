"""The figure style: the palette written out in ssi.plotting is seaborn's, and importing it is cheap."""
import subprocess
import sys

import seaborn as sns

from ssi import plotting


def test_palette_is_seaborns_colorblind_palette():
    assert len(plotting.PALETTE) == 10
    assert [tuple(c) for c in plotting.PALETTE] == [tuple(c) for c in sns.color_palette("colorblind")]


def test_figure_style_does_not_import_seaborn():
    # the reason the palette is written out: every figure job would pay seaborn's ~1 s import
    code = "import sys, ssi.plotting; print('seaborn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
