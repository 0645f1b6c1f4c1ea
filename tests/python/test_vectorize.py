"""copper.vectorize against numpy.vectorize on both devices: output dtypes, values,
broadcasting, layouts, otypes, several outputs and the errors."""
import math

import numpy as np
import pytest

import copper as cp

NUMERIC = [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64]


def check(func, *args, otypes=None, rtol=0.0, atol=0.0):
    """copper.vectorize(func) on copper versions of `args` against numpy.vectorize(func)."""
    expected = np.vectorize(func, otypes=otypes)(*args)
    got = cp.vectorize(func, otypes=otypes)(*[cp.asarray(a) if isinstance(a, np.ndarray) else a for a in args])
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
    else:
        expected, got = (expected,), (got,)
    for e, g in zip(expected, got):
        assert g.dtype == e.dtype, (g.dtype, e.dtype)
        assert g.shape == e.shape
        if e.dtype.kind == "f" and e.size:  # FMA contraction and cancellation: a few ulps of the largest value
            atol = max(atol, 8 * np.finfo(e.dtype).eps * float(np.abs(e).max()))
        if rtol or atol:
            np.testing.assert_allclose(g.get(), e, rtol=rtol, atol=atol)
        else:
            np.testing.assert_array_equal(g.get(), e)


def draw(rng, dtype, shape):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    if dtype.kind in "iu":
        bound = 5 if dtype.itemsize == 1 else 50  # results stay in range for every test's function
        low = 1 if dtype.kind == "u" else -bound
        return rng.integers(low, bound, shape, endpoint=True).astype(dtype)
    return rng.uniform(-10, 10, shape).astype(dtype)


def poly(x, y):
    return x * y + 3 * x - 1


@pytest.mark.parametrize("dtype", NUMERIC)
def test_arithmetic_with_literals_keeps_numpy_dtypes(device, rng, dtype):
    if np.dtype(dtype).kind == "b":
        pytest.skip("NumPy rejects bool - int")
    check(poly, draw(rng, dtype, 40), draw(rng, dtype, 40), rtol=1e-6 if np.dtype(dtype).kind == "f" else 0)


@pytest.mark.parametrize("a,b", [(np.int8, np.uint8), (np.int32, np.float32), (np.int64, np.float32),
                                 (np.uint64, np.int64), (np.float32, np.float64), (np.bool_, np.int16)])
def test_mixed_dtypes_promote_as_numpy(device, rng, a, b):
    check(lambda_free_add, draw(rng, a, 30), draw(rng, b, 30), rtol=1e-6)


def lambda_free_add(x, y):
    return x + y


def relu_scaled(x, scale):
    y = x * scale
    if y > 0:
        return y
    else:
        return y * 0.5


def test_if_else_and_locals(device, rng):
    x = draw(rng, np.float32, 100)
    check(relu_scaled, x, np.float32(1.5), rtol=1e-6)
    check(relu_scaled, x.astype(np.float64), 2.0)


def piecewise(x):
    if x < -1:
        r = -1.0
    elif x < 1:
        r = float(x * x)
    else:
        r = math.sqrt(x)
    return r


def test_elif_chain_with_math_is_python_float(device, rng):
    # math.sqrt returns a Python float, so the result is float64 even for float32 inputs.
    # (numpy.vectorize computes the values on Python floats, copper on the NumPy dtypes:
    # float32 intermediates differ in the last float32 bits.)
    check(piecewise, draw(rng, np.float32, 200), rtol=1e-6)


def every_math(x):
    a = math.sin(x) + math.cos(x) + math.tanh(x) + math.atan2(x, 2.0) + math.hypot(x, 3.0)
    b = math.exp(x / 10) + math.log(abs(x) + 1) + math.log10(abs(x) + 2) + math.log2(abs(x) + 1)
    c = math.floor(x) + math.ceil(x) + math.fabs(x) + math.copysign(2.0, x)
    d = math.erf(x) + math.expm1(x / 20) + math.log1p(abs(x)) + math.degrees(x) + math.radians(x) + math.pi
    return a + b + c + d


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_math_functions(device, rng, dtype):
    # numpy.vectorize computes on Python floats; copper keeps float32 intermediates float32.
    tol = 1e-6 if dtype == np.float32 else 1e-12
    check(every_math, draw(rng, dtype, 64), rtol=tol, atol=tol)


def python_ints(x, y):
    return x // y + x % y + (x ** 2) - abs(x) + min(x, y) - max(x, y, 3)


def unsigned_ints(x, y):
    return x // y + x % y + x ** 3


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64])
def test_integer_floor_division_and_modulo_follow_python(device, rng, dtype):
    x = draw(rng, dtype, 200)
    y = draw(rng, dtype, 200)
    y[y == 0] = 3
    check(unsigned_ints if np.dtype(dtype).kind == "u" else python_ints, x, y)


def float_divmod(x, y):
    return x // y, x % y


def test_float_floor_division_and_modulo(device, rng):
    x = rng.uniform(-20, 20, 300)
    y = rng.choice([-3.5, -1.0, 0.25, 2.0, 7.0], 300)
    check(float_divmod, x, y)
    check(float_divmod, x.astype(np.float32), y.astype(np.float32))


def true_division(x, y):
    return x / y


def test_integer_true_division_is_float64(device, rng):
    x, y = draw(rng, np.int32, 50), draw(rng, np.int32, 50)
    y[y == 0] = 7
    check(true_division, x, y)


def compare(x, y):
    return x < y and not x == 0


def test_comparisons_return_bool(device, rng):
    check(compare, draw(rng, np.float64, 60), draw(rng, np.float64, 60))
    check(compare, draw(rng, np.int16, 60), draw(rng, np.int16, 60))


def loops(x):
    total = 0
    k = 0
    while k < 5:
        k += 1
        if k == 2:
            continue
        total += x * k
    for j in range(3):
        if j == 2:
            break
        total -= j
    return total


def test_loops_inside_the_function(device, rng):
    check(loops, draw(rng, np.float32, 40), rtol=1e-6)
    check(loops, draw(rng, np.int64, 40))


def ternary(x):
    return x if x > 0 else -x


def casts(x):
    return int(x) + float(x) + np.float32(x) * 2


def test_ternary_and_casts(device, rng):
    check(ternary, draw(rng, np.int32, 30))
    check(casts, draw(rng, np.float64, 30), rtol=1e-7)


@pytest.mark.parametrize("shapes", [((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((), (5,)), ((0, 3), (3,)), ((), ())])
def test_broadcasting(device, rng, shapes):
    a = draw(rng, np.float64, shapes[0])
    b = draw(rng, np.float64, shapes[1])
    if a.size == 0 or b.size == 0:  # numpy.vectorize needs otypes for empty inputs
        check(poly, a, b, otypes=[np.float64])
    else:
        check(poly, a, b)


def test_non_contiguous_and_negative_strides(device, rng):
    x = draw(rng, np.float32, (6, 8))
    y = draw(rng, np.float32, (8, 6))
    expected = np.vectorize(poly)(x[::-2, 1::3], y.T[::-2, 1::3])
    cx, cy = cp.asarray(x), cp.asarray(y)
    got = cp.vectorize(poly)(cx[::-2, 1::3], cy.T[::-2, 1::3])
    np.testing.assert_allclose(got.get(), expected, rtol=1e-6)


def test_scalars_and_python_numbers(device, rng):
    x = draw(rng, np.int32, 20)
    check(poly, x, 2)        # a Python int argument is int64, as numpy.vectorize's asanyarray
    check(poly, x, 2.5)
    check(poly, np.float32(2), np.float32(3))  # all scalars: a 0-d result
    got = cp.vectorize(poly)(2, 3)
    assert got.shape == () and got.dtype == np.int64 and int(got) == 11


def test_lists_and_numpy_arrays_are_converted(device):
    got = cp.vectorize(poly)([1, 2, 3], np.array([1.5, 2.5, 3.5]))
    np.testing.assert_array_equal(got.get(), np.vectorize(poly)([1, 2, 3], np.array([1.5, 2.5, 3.5])))


def test_otypes(device, rng):
    x = draw(rng, np.float64, 30)
    check(poly, x, x, otypes=[np.float32], rtol=1e-6)
    check(poly, x, x, otypes="i")


def sum_and_difference(x, y):
    return x + y, x - y


def test_several_outputs(device, rng):
    check(sum_and_difference, draw(rng, np.int32, 20), draw(rng, np.float32, 20), rtol=1e-6)


def test_decorator_forms_and_keywords(device, rng):
    @cp.vectorize
    def twice(x):
        """doubles"""
        return 2 * x

    @cp.vectorize(otypes=[np.float64])
    def half(x):
        return x / 2

    x = cp.asarray(draw(rng, np.int16, 10))
    assert twice(x).dtype == np.int16 and twice.__doc__ == "doubles"
    np.testing.assert_array_equal(twice(x).get(), 2 * x.get())
    assert half(x).dtype == np.float64
    np.testing.assert_array_equal(cp.vectorize(poly)(x, y=x).get(), np.vectorize(poly)(x.get(), y=x.get()))


GLOBAL_SCALE = 3


def uses_global(x):
    return x * GLOBAL_SCALE + np.sqrt(np.float32(4))


def test_globals_are_constants(device, rng):
    check(uses_global, draw(rng, np.float32, 10), rtol=1e-6)


def test_cached_per_dtype(device):
    v = cp.vectorize(poly)
    v(cp.arange(3), cp.arange(3))
    v(cp.arange(4), cp.arange(4))
    assert len(v._kernels) == 1
    v(cp.arange(3, dtype=cp.float32), cp.arange(3))
    assert len(v._kernels) == 2


def uses_try(x):
    try:
        return x
    except Exception:
        return x


def uses_thread_index(x):
    return x + cp.jit.threadIdx.x


def returns_nothing(x):
    x + 1


def test_errors_name_the_python_line(device):
    with pytest.raises(NotImplementedError, match=r"test_vectorize\.py:\d+: copper.jit cannot translate the statement Try"):
        cp.vectorize(uses_try)(cp.arange(3))
    with pytest.raises(NotImplementedError, match="outside a GPU kernel"):
        cp.vectorize(uses_thread_index)(cp.arange(3))
    with pytest.raises(TypeError, match="must return a value"):
        cp.vectorize(returns_nothing)(cp.arange(3))
    with pytest.raises(NotImplementedError, match="excluded"):
        cp.vectorize(poly, excluded={1})
    with pytest.raises(NotImplementedError, match="signature"):
        cp.vectorize(poly, signature="(n),(n)->()")
    with pytest.raises(TypeError, match="complex"):
        cp.vectorize(poly)(cp.ones(2, dtype=cp.complex64), 1)


def test_translation_is_kept_on_disk(device, monkeypatch, tmp_path):
    import copper._vectorize as vec
    monkeypatch.setenv("COPPER_CACHE_DIR", str(tmp_path))
    x = cp.arange(5, dtype=cp.float32)
    expected = cp.vectorize(relu_scaled)(x, np.float32(2)).get()

    def no_translation(*a, **k):
        raise AssertionError("translated again")
    monkeypatch.setattr(vec.vectorize, "_translate", no_translation)
    np.testing.assert_array_equal(cp.vectorize(relu_scaled)(x, np.float32(2)).get(), expected)


VECTORIZED = [(poly, [np.int32, np.float32]), (relu_scaled, [np.float32, np.float32]), (piecewise, [np.float64]),
              (every_math, [np.float32]), (every_math, [np.int64]), (python_ints, [np.int8, np.int8]),
              (unsigned_ints, [np.uint64, np.uint64]), (float_divmod, [np.float32, np.float32]),
              (loops, [np.float64]), (casts, [np.float32]), (compare, [np.uint16, np.int16]),
              (sum_and_difference, [np.int32, np.float64])]


@pytest.mark.parametrize("func,dtypes", VECTORIZED, ids=lambda v: getattr(v, "__name__", None))
def test_translations_compile_with_nvrtc(func, dtypes):
    # The GPU runs the same preamble through NVRTC: compile it for sm_90 (no GPU needed)
    # inside a kernel that calls it as ElementwiseKernel's operation does.
    from test_raw_kernel import HAS_NVRTC
    if not HAS_NVRTC:
        pytest.skip("needs NVRTC (the CUDA toolkit)")
    from copper.jit._cache import Recorder
    from copper.jit._types import c_name
    dtypes = [np.dtype(t) for t in dtypes]
    source = cp.vectorize(func)._translate(dtypes, Recorder())
    ins = [f"{c_name(t)} in{k}" for k, t in enumerate(dtypes)]
    outs = [f"{c_name(np.dtype(t.split()[0]))}* out{k}_p" for k, t in enumerate(source["out_params"].split(", "))]
    body = "".join(f"auto& out{k} = *out{k}_p;" for k in range(len(outs))) + source["operation"]
    code = source["preamble"] + f'\nextern "C" __global__ void k({", ".join(ins + outs)}) {{ {body} }}\n'
    cp.RawKernel(code, "k").compile()
