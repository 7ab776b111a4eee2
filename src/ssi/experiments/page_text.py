"""Formatting shared by the generated tables of the result pages (``*_tables`` modules; only
the page generator, workflow/pagegen, imports them)."""
from __future__ import annotations

from .claim_text import finite, power_of_ten


def steps_text(x) -> str:
    """A count of SGD steps, three significant digits: 663, 1.32·10⁵, 10⁶ (exactly); "n/a" when not finite."""
    if not finite(x):
        return "n/a"
    if x < 1e4:
        return f"{x:.0f}"
    mantissa, exponent = f"{x:.2e}".split("e")
    power = power_of_ten(10 ** int(exponent))
    return power if x == 10 ** int(exponent) else f"{mantissa}·{power}"


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def scientific(x, digits: int = 1) -> str:
    """x in scientific notation with a superscript exponent: 4.1·10⁻⁶; "n/a" when not finite."""
    if not finite(x):
        return "n/a"
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    return f"{mantissa}·10{str(int(exponent)).translate(_SUPERSCRIPT)}"
