"""Random streams for the compiled kernels: SFC64, a ziggurat normal and a Marsaglia–Tsang gamma.

docs/theory.md, "Random streams". One stream per replicate: the 256-bit state of Chris
Doty-Humphrey's SFC64 generator, seeded from a :class:`numpy.random.SeedSequence` exactly as
:class:`numpy.random.SFC64` seeds itself (the raw 64-bit outputs are the same, bit for bit). A
kernel loads a replicate's state into four local variables (:func:`load`), draws with
:func:`next_uint64`, :func:`uniform`, :func:`normal` and :func:`gamma` (each takes and returns the
four words, so that the state stays in registers) and stores it back at the end of its call
(:func:`store`): the numbers depend only on the stream, not on how a run is split into calls,
blocks of replicates or threads.

The normal is Marsaglia and Tsang's ziggurat with 256 layers of equal area (tables computed at
import, :func:`ziggurat_tables`): 8 bits choose the layer, 1 bit the sign and 52 bits the
abscissa, so one 64-bit draw suffices in ~99 % of the cases; the rest go through the exact
wedge and tail rejections. The gamma (and χ² = 2·gamma(k/2)) is Marsaglia and Tsang's
squeeze-rejection on that normal and a uniform of the same stream.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

#: number of ziggurat layers (8 bits of the 64-bit draw)
LAYERS = 256
#: right edge of the ziggurat's base layer for 256 layers (Marsaglia and Tsang 2000)
_R = 3.6541528853610088

_U64 = np.uint64
_ONE = _U64(1)
_S3, _S11, _S24, _S40, _S8, _S9, _S12 = _U64(3), _U64(11), _U64(24), _U64(40), _U64(8), _U64(9), _U64(12)
_BYTE = _U64(0xFF)
_TO_UNIT = 2.0 ** -53
_TO_HALF = 2.0 ** -52


def ziggurat_tables(layers=LAYERS, r=_R):
    """Tables of the standard normal ziggurat with ``layers`` layers of equal area.

    With f(x) = exp(−x²/2) and v = r f(r) + ∫_r^∞ f, the abscissae are x_0 = v/f(r) (the base
    layer, whose part beyond r is the tail), x_1 = r, f(x_{i+1}) = f(x_i) + v/x_i, and
    x_layers = 0, so that every layer [0, x_i] × [f(x_i), f(x_{i+1})] (base: [0, x_0] × [0, f(r)])
    has area v.

    Returns
    -------
    k : ndarray of uint64 (layers,)
        ⌊2⁵² x_{i+1}/x_i⌋: a 52-bit abscissa below it lies under f in the whole layer.
    w : ndarray (layers,)
        x_i / 2⁵², the scale of the 52-bit abscissa.
    f : ndarray (layers + 1,)
        f(x_i), with f(x_layers) = 1.
    """
    from scipy.special import erfc

    fr = math.exp(-0.5 * r * r)
    v = r * fr + math.sqrt(math.pi / 2) * erfc(r / math.sqrt(2))
    x = np.empty(layers + 1)
    x[0], x[1] = v / fr, r
    for i in range(1, layers - 1):
        x[i + 1] = math.sqrt(-2.0 * math.log(math.exp(-0.5 * x[i] ** 2) + v / x[i]))
    x[layers] = 0.0
    f = np.exp(-0.5 * x * x)
    f[0] = fr                           # the base layer's top is f(r): its bottom is 0, see _normal_slow
    k = np.floor(2.0 ** 52 * x[1:] / x[:-1]).astype(np.uint64)
    return k, x[:-1] * _TO_HALF, f


_K, _W, _F = ziggurat_tables()


def seed_state(seed_sequence):
    """The SFC64 state (4 uint64 words: a, b, c, counter) of :class:`numpy.random.SFC64` seeded with
    ``seed_sequence``: three words of ``generate_state`` and the counter 1, then 12 outputs
    discarded."""
    a, b, c = (int(w) for w in seed_sequence.generate_state(3, np.uint64))
    state = np.array([a, b, c, 1], dtype=np.uint64)
    s0, s1, s2, s3 = _advance(state[0], state[1], state[2], state[3], 12)
    state[:] = (s0, s1, s2, s3)
    return state


def replicate_states(seed_sequences):
    """One stream state per SeedSequence: an array (len, 4) of uint64, row i for ``seed_sequences[i]``."""
    states = np.empty((len(seed_sequences), 4), dtype=np.uint64)
    for i, seq in enumerate(seed_sequences):
        states[i] = seed_state(seq)
    return states


@njit(inline="always")
def load(state):
    """The four words of a stream's ``state`` array, as locals."""
    return state[0], state[1], state[2], state[3]


@njit(inline="always")
def store(state, s0, s1, s2, s3):
    """Write the four words back into the stream's ``state`` array."""
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


@njit(inline="always")
def next_uint64(s0, s1, s2, s3):
    """One SFC64 step: ``(s0, s1, s2, s3, output)``."""
    out = s0 + s1 + s3
    s3 = s3 + _ONE
    s0 = s1 ^ (s1 >> _S11)
    s1 = s2 + (s2 << _S3)
    s2 = ((s2 << _S24) | (s2 >> _S40)) + out
    return s0, s1, s2, s3, out


@njit(cache=True)
def _advance(s0, s1, s2, s3, n):
    for _ in range(n):
        s0, s1, s2, s3, _out = next_uint64(s0, s1, s2, s3)
    return s0, s1, s2, s3


@njit(inline="always")
def uniform(s0, s1, s2, s3):
    """A uniform on (0, 1] (53 bits): ``(s0, s1, s2, s3, u)``."""
    s0, s1, s2, s3, r = next_uint64(s0, s1, s2, s3)
    return s0, s1, s2, s3, ((r >> _S11) + _ONE) * _TO_UNIT


@njit
def _normal_slow(s0, s1, s2, s3, layer, x, negative):
    """The ziggurat's rejections: ``x`` (≥ 0) lies in ``layer`` beyond the part under f."""
    while True:
        if layer == 0:                      # tail beyond r (Marsaglia 1964), exact
            while True:
                s0, s1, s2, s3, u1 = uniform(s0, s1, s2, s3)
                s0, s1, s2, s3, u2 = uniform(s0, s1, s2, s3)
                t = -math.log(u1) / _R
                if -2.0 * math.log(u2) > t * t:
                    x = _R + t
                    break
            return s0, s1, s2, s3, -x if negative else x
        s0, s1, s2, s3, u = uniform(s0, s1, s2, s3)
        if _F[layer] + (u - _TO_UNIT) * (_F[layer + 1] - _F[layer]) < math.exp(-0.5 * x * x):
            return s0, s1, s2, s3, -x if negative else x
        # rejected: a fresh draw of the whole ziggurat
        s0, s1, s2, s3, r = next_uint64(s0, s1, s2, s3)
        layer = r & _BYTE
        negative = ((r >> _S8) & _ONE) != _U64(0)
        m = r >> _S12
        x = m * _W[layer]
        if m < _K[layer]:
            return s0, s1, s2, s3, -x if negative else x


@njit(inline="always")
def normal(s0, s1, s2, s3):
    """A standard normal (ziggurat): ``(s0, s1, s2, s3, z)``."""
    s0, s1, s2, s3, r = next_uint64(s0, s1, s2, s3)
    layer = r & _BYTE
    m = r >> _S12
    x = m * _W[layer]
    if m < _K[layer]:
        return s0, s1, s2, s3, -x if (r >> _S8) & _ONE else x
    return _normal_slow(s0, s1, s2, s3, layer, x, ((r >> _S8) & _ONE) != _U64(0))


@njit
def _gamma_small(s0, s1, s2, s3, shape):
    # shape ≤ 1: gamma(shape) = gamma(shape + 1) · U^(1/shape) (Marsaglia and Tsang 2000, §6)
    b = shape + 1.0 - 1.0 / 3.0
    s0, s1, s2, s3, g = gamma(s0, s1, s2, s3, b, 1.0 / math.sqrt(9.0 * b))
    s0, s1, s2, s3, u = uniform(s0, s1, s2, s3)
    return s0, s1, s2, s3, g * u ** (1.0 / shape)


#: the gamma sampler's second squeeze (docs/theory.md, "Random streams"): for |y| ≤ 0.1 with
#: y = c z, log U < z²/2 + b(1 − v + log v) holds, in floating point too, whenever
#: U < 1 − κ b y⁴ − μ (1 + b), with κ = (3/4)/0.9⁴ and μ ≥ 100 times the test's rounding error
_SQUEEZE_Y = 0.1
_SQUEEZE_KAPPA = 0.75 / 0.9 ** 4
_SQUEEZE_MU = 1e-13


@njit(inline="always")
def gamma(s0, s1, s2, s3, b, c):
    """A gamma(shape) draw, shape > 1, with ``b = shape − 1/3`` and ``c = 1/√(9b)`` (computed
    once by the caller; :func:`gamma_constants`): Marsaglia–Tsang, ``(s0, s1, s2, s3, g)``.

    Two squeezes come before the exact test: Marsaglia and Tsang's U < 1 − 0.0331 z⁴ and one for
    small c z that accepts all but ~1/b of the draws without a logarithm. A squeeze only accepts
    draws that the exact test accepts, so the draws are the exact test's, bit for bit."""
    while True:
        s0, s1, s2, s3, x = normal(s0, s1, s2, s3)
        y = c * x
        v = 1.0 + y
        if v <= 0.0:
            continue
        v = v * v * v
        s0, s1, s2, s3, u = uniform(s0, s1, s2, s3)
        yy = y * y
        if abs(y) <= _SQUEEZE_Y and u < 1.0 - _SQUEEZE_KAPPA * b * (yy * yy) - _SQUEEZE_MU * (1.0 + b):
            return s0, s1, s2, s3, b * v
        xx = x * x
        if u < 1.0 - 0.0331 * xx * xx or math.log(u) < 0.5 * xx + b * (1.0 - v + math.log(v)):
            return s0, s1, s2, s3, b * v


@njit(inline="always")
def gamma_constants(shape):
    """``(b, c)`` of :func:`gamma` for ``shape`` (> 1; for shape ≤ 1, unused by :func:`any_gamma`: NaN)."""
    if shape <= 1.0:
        return math.nan, math.nan
    b = shape - 1.0 / 3.0
    return b, 1.0 / math.sqrt(9.0 * b)


@njit(inline="always")
def any_gamma(s0, s1, s2, s3, shape, b, c):
    """A gamma(shape) draw for any shape > 0 (``b``, ``c`` from :func:`gamma_constants` if shape > 1)."""
    if shape > 1.0:
        return gamma(s0, s1, s2, s3, b, c)
    return _gamma_small(s0, s1, s2, s3, shape)


# --- bulk draws (tests, benchmarks) --------------------------------------------------------------
@njit(cache=True)
def raw(state, n):
    """``n`` raw 64-bit outputs of the stream ``state`` (advanced in place)."""
    out = np.empty(n, dtype=np.uint64)
    s0, s1, s2, s3 = load(state)
    for i in range(n):
        s0, s1, s2, s3, out[i] = next_uint64(s0, s1, s2, s3)
    store(state, s0, s1, s2, s3)
    return out


@njit(cache=True)
def normals(state, n):
    """``n`` standard normals from the stream ``state`` (advanced in place)."""
    out = np.empty(n)
    s0, s1, s2, s3 = load(state)
    for i in range(n):
        s0, s1, s2, s3, out[i] = normal(s0, s1, s2, s3)
    store(state, s0, s1, s2, s3)
    return out


@njit(cache=True)
def chi2s(state, n, dof):
    """``n`` χ²_dof draws (2·gamma(dof/2)) from the stream ``state`` (advanced in place)."""
    out = np.empty(n)
    shape = 0.5 * dof
    b, c = gamma_constants(shape)
    s0, s1, s2, s3 = load(state)
    for i in range(n):
        s0, s1, s2, s3, g = any_gamma(s0, s1, s2, s3, shape, b, c)
        out[i] = 2.0 * g
    store(state, s0, s1, s2, s3)
    return out
