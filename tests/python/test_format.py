"""repr/str of copper arrays against NumPy's, character for character."""
import numpy as np
import pytest
from conftest import ALL_DTYPES, FLOAT_DTYPES, COMPLEX_DTYPES, INT_DTYPES, random_array

import copper as cp

# Float16 draws overflow to inf on purpose, and nan/inf complex parts are built by arithmetic.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

SHAPES = [(), (0,), (0, 3), (3, 0, 2), (1,), (5,), (3, 4), (2, 3, 4), (2, 1, 3, 1)]
LARGE_SHAPES = [(1001,), (2000,), (10, 20, 30), (3, 1500), (1, 1, 1200), (7, 7, 7, 7)]

# Print settings worth covering: defaults, low/high precision, every floatmode and sign,
# suppress, narrow lines, custom nan/inf text, and a low threshold that summarizes.
OPTION_SETS = [
    {},
    {"precision": 3},
    {"precision": 12, "floatmode": "fixed"},
    {"precision": 4, "floatmode": "fixed"},
    {"floatmode": "unique"},
    {"floatmode": "maxprec_equal"},
    {"precision": 2, "floatmode": "maxprec_equal"},
    {"suppress": True},
    {"suppress": True, "precision": 4},
    {"linewidth": 30},
    {"linewidth": 120},
    {"sign": "+"},
    {"sign": " "},
    {"nanstr": "NaN", "infstr": "Infinity"},
    {"threshold": 10, "edgeitems": 2},
    {"threshold": 5, "edgeitems": 1, "linewidth": 20},
]


def assert_prints_like(np_arr, cp_arr=None, **options):
    """repr and str of the copper array equal NumPy's under the same print options."""
    np_arr = np.asarray(np_arr)
    if cp_arr is None:
        cp_arr = cp.asarray(np_arr)
    with np.printoptions(**options), cp.printoptions(**options):
        assert repr(cp_arr) == repr(np_arr)
        assert str(cp_arr) == str(np_arr)


def magnitude_values(rng, shape, dtype):
    """Floats spread over many decades, so some arrays go scientific and some positional."""
    dtype = np.dtype(dtype)
    real = np.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype
    lo, hi = (-6, 4) if real == np.float16 else (-30, 30) if real == np.float32 else (-300, 300)
    decades = rng.integers(lo, hi, size=shape)
    span = rng.integers(0, 3)  # 0: one decade, 1: a few, 2: wide
    if span == 0:
        decades = np.full(shape, rng.integers(-3, 5))
    elif span == 1:
        decades = rng.integers(-2, 4, size=shape)
    vals = rng.standard_normal(shape) * 10.0 ** decades
    if dtype.kind == "c":
        vals = vals + 1j * rng.standard_normal(shape) * 10.0 ** rng.integers(-2, 4, size=shape)
    return np.asarray(vals).astype(dtype)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_random_arrays(device, rng, dtype, shape):
    assert_prints_like(random_array(rng, shape, dtype))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", LARGE_SHAPES)
def test_summarized_arrays(device, rng, dtype, shape):
    bound = 60000 if dtype in (np.float16,) else 10**6
    assert_prints_like(random_array(rng, shape, dtype, low=-bound, high=bound))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_print_options(device, rng, dtype, options):
    for shape in [(), (7,), (3, 5), (2, 3, 4), (40,)]:
        assert_prints_like(random_array(rng, shape, dtype), **options)
        if np.dtype(dtype).kind in "fc":
            assert_prints_like(magnitude_values(rng, shape, dtype), **options)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + COMPLEX_DTYPES)
def test_magnitudes(device, rng, dtype):
    # Many small arrays: each decides positional vs scientific and its digit counts on its own.
    for _ in range(150):
        shape = (int(rng.integers(1, 6)),)
        assert_prints_like(magnitude_values(rng, shape, dtype))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_special_values(device, rng, dtype):
    info = np.finfo(dtype)
    specials = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5, 1e-4, 9.999e-5, 1e-5, 1e3, 1e6, 1e8,
                99999999.0, 1e16, 0.1, 1 / 3, 2 / 3, 123456789.123, 0.125, 0.375]
    specials += [float(info.max), float(-info.max), float(info.tiny), float(info.smallest_subnormal), float(info.eps)]
    values = np.array(specials).astype(dtype)
    for i in range(len(values)):
        assert_prints_like(values[i:i + 1])
        assert_prints_like(values[i:i + 3])
        assert_prints_like(np.array(values[i]))
    assert_prints_like(values)
    assert_prints_like(np.array([np.nan, np.nan], dtype))
    assert_prints_like(np.array([np.inf, np.nan, -np.inf], dtype))
    assert_prints_like(np.array([-0.0, 0.0], dtype))
    assert_prints_like(np.array([np.nan, 1.5, -np.inf], dtype), sign="+")
    assert_prints_like(np.array([np.nan, 1.5, np.inf], dtype), sign=" ")
    assert_prints_like(np.array([np.nan, 2e-9], dtype), nanstr="not-a-number")


def test_float16_every_value(device):
    # All finite float16 values, a few at a time: digit search of the shortest decimal for halves.
    bits = np.arange(0, 0x7C00, dtype=np.uint16)
    halves = np.concatenate([bits, bits | 0x8000]).view(np.float16)
    for start in range(0, halves.size, 997):
        chunk = halves[start:start + 4]
        assert_prints_like(chunk)
        assert_prints_like(np.array(chunk[0]))
    # float16 str of 0-d arrays over every value, in one string per block to keep it quick.
    np_strs = [str(v) for v in halves[::7]]
    cp_strs = [str(cp.asarray(np.array(v))) for v in halves[::7]]
    assert cp_strs == np_strs


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_shortest_digits_random_bits(device, rng, dtype):
    # Random bit patterns reach every exponent, including powers of two (unequal margins).
    n = 3000
    itype = np.uint32 if dtype == np.float32 else np.uint64
    bits = rng.integers(0, np.iinfo(itype).max, size=n, dtype=itype, endpoint=True)
    values = bits.view(dtype)
    values = values[np.isfinite(values)]
    powers = np.ldexp(np.ones(40, dtype), rng.integers(-120, 120, size=40)).astype(dtype)
    for v in np.concatenate([values[:800], powers]):
        a = np.array([v])
        assert_prints_like(a, floatmode="unique")
        assert str(cp.asarray(np.array(v))) == str(np.array(v))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_extremes(device, rng, dtype):
    info = np.iinfo(dtype)
    values = np.array([info.min, info.max, 0, 1, info.max // 3, info.min // 7], dtype=dtype)
    assert_prints_like(values)
    assert_prints_like(values, sign="+")
    assert_prints_like(values, sign=" ")
    full_range = rng.integers(info.min, info.max, size=(4, 9), dtype=dtype, endpoint=True)
    assert_prints_like(full_range)
    assert_prints_like(full_range, linewidth=40)
    positives = np.abs(rng.integers(0, 100, size=6)).astype(dtype)
    assert_prints_like(positives, sign=" ")


def test_bools(device, rng):
    assert_prints_like(np.array([True, False]))
    assert_prints_like(np.array([False, False]))
    assert_prints_like(np.array([True, True]))
    assert_prints_like(np.array(True))
    assert_prints_like(np.array(False))
    assert_prints_like(rng.random((3, 30)) < 0.5)
    assert_prints_like(rng.random(5000) < 0.5)


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
def test_complex_mixed(device, rng, dtype):
    re = rng.choice([-2.5, 0.0, -0.0, 1.0, 3.25, np.nan, np.inf, -np.inf, 1e-7, 1e9], size=40)
    im = rng.choice([-2.5, 0.0, -0.0, 1.0, 3.25, np.nan, np.inf, -np.inf, 1e-7, 1e9], size=40)
    values = (re + 1j * im).astype(dtype)
    values.imag = im  # keep signed zeros and infinities exactly as drawn
    values.real = re
    for i in range(0, 40, 3):
        assert_prints_like(values[i:i + 3])
        assert_prints_like(np.array(values[i]))
    assert_prints_like(values.reshape(5, 8))
    assert_prints_like(values, sign="+")
    assert_prints_like(values, floatmode="maxprec_equal")


def test_line_wrapping(device, rng):
    for width in [10, 20, 33, 50, 75, 76, 100]:
        a = rng.uniform(-1000, 1000, size=(3, 23))
        assert_prints_like(a, linewidth=width)
        assert_prints_like(a.astype(np.int16), linewidth=width)
        assert_prints_like(np.arange(2000).reshape(2, 1000), linewidth=width)
        # The dtype suffix moves to its own line when the last line is full.
        assert_prints_like(np.arange(30, dtype=np.int8), linewidth=width)
        assert_prints_like(np.arange(12, dtype=np.float32).reshape(3, 4), linewidth=width)


def test_summarization_settings(device, rng):
    a = rng.integers(-50, 50, size=(12, 13, 14))
    for edge in [0, 1, 2, 3, 6, 7]:
        assert_prints_like(a, edgeitems=edge)
        assert_prints_like(a, edgeitems=edge, threshold=100)
    assert_prints_like(a, threshold=a.size)  # exactly at the threshold: printed whole
    assert_prints_like(a[:3, :3, :3], threshold=0)
    assert_prints_like(np.arange(10), threshold=9, edgeitems=5)
    # Column widths come only from the shown elements: a huge hidden middle value changes nothing.
    b = np.ones(2000)
    b[1000] = 1e30
    assert_prints_like(b)
    c = np.arange(2000, dtype=np.int64)
    c[1000] = -10**15
    assert_prints_like(c)


def test_views(device, rng):
    # Strided, transposed and reversed copper views print like the same NumPy views.
    host = rng.uniform(-10, 10, size=(6, 7, 8))
    arr = cp.asarray(host)
    assert_prints_like(host[::2, ::-1, 1::3], arr[::2, ::-1, 1::3])
    assert_prints_like(host.T, arr.T)
    assert_prints_like(host[:, 3], arr[:, 3])
    assert_prints_like(host[2, 3, 4], arr[2, 3, 4]) if isinstance(arr[2, 3, 4], cp.ndarray) else None
    big = rng.integers(-1000, 1000, size=(50, 60, 70))
    big_cp = cp.asarray(big)
    assert_prints_like(big[::-1, 5:, ::2], big_cp[::-1, 5:, ::2])
    assert_prints_like(big.T, big_cp.T)
    # NumPy views transferred as they are (non-contiguous on the host side).
    assert_prints_like(host[::-1, :, ::2])


def test_zero_dim_every_dtype(device, rng):
    for dtype in ALL_DTYPES:
        for v in random_array(rng, (4,), dtype):
            assert_prints_like(np.array(v))
    for v in [1e16, 1.5e16, 9.99e15, 1e-4, 9.99e-5, -0.0, np.nan, -np.inf, 123.0]:
        for dtype in FLOAT_DTYPES:
            assert_prints_like(np.array(v, dtype))
    for v in [2j, -0.0 + 2j, 1.5 + np.nan * 1j, complex(np.inf, -np.inf), complex(0, np.nan), 1 + 0j,
              complex(-1e20, 1e-20), complex(np.nan, 0)]:
        for dtype in COMPLEX_DTYPES:
            z = np.array(0, dtype)
            z.real, z.imag = v.real, v.imag
            assert_prints_like(z)


def test_empty_arrays(device):
    for shape in [(0,), (0, 3), (3, 0), (2, 0, 4), (0, 0)]:
        for dtype in ALL_DTYPES:
            assert_prints_like(np.zeros(shape, dtype))


def test_array_repr_and_str_functions(device, rng):
    a = rng.uniform(-1, 1, size=(4, 6))
    c = cp.asarray(a)
    assert cp.array_repr(c) == np.array_repr(a)
    assert cp.array_str(c) == np.array_str(a)
    assert cp.array_repr(c, max_line_width=30, precision=3) == np.array_repr(a, max_line_width=30, precision=3)
    assert cp.array_str(c, precision=2, suppress_small=True) == np.array_str(a, precision=2, suppress_small=True)
    tiny = np.array([1e-12, 1.5])
    assert cp.array_str(cp.asarray(tiny), suppress_small=True) == np.array_str(tiny, suppress_small=True)
    assert cp.array2string(c, separator=", ", prefix="x(") == np.array2string(a, separator=", ", prefix="x(")
    assert cp.array2string(c, threshold=5, edgeitems=1, sign="+") == np.array2string(a, threshold=5, edgeitems=1,
                                                                                      sign="+")
    assert cp.array2string(c, floatmode="fixed", precision=2, suffix=")") == np.array2string(
        a, floatmode="fixed", precision=2, suffix=")")


def test_format_dunder(device):
    assert format(cp.asarray(np.array(1.5)), ".3f") == format(np.array(1.5), ".3f")
    assert format(cp.asarray(np.array(3)), "05d") == format(np.array(3), "05d")
    assert format(cp.asarray(np.array(np.float32(0.1))), "") == format(np.array(np.float32(0.1)), "")
    assert format(cp.asarray(np.array(True)), ">6") == format(np.array(True), ">6")
    assert format(cp.asarray(np.array([1, 2])), "") == format(np.array([1, 2]), "")
    assert f"{cp.asarray(np.array([1.5, 2.0]))}" == f"{np.array([1.5, 2.0])}"
    with pytest.raises(TypeError, match="unsupported format string passed to"):
        format(cp.asarray(np.array([1, 2])), "5")


def test_huge_broadcast_view_prints_from_its_corners(device, rng):
    # 10^12 elements (4 TB if gathered): a summarized print copies only the corners it shows.
    host = rng.uniform(-5, 5, size=(1, 7)).astype(np.float32)
    np_view = np.broadcast_to(host, (10**6, 10**5, 7))
    cp_view = cp.broadcast_to(cp.asarray(host), (10**6, 10**5, 7))
    assert_prints_like(np_view, cp_view)
