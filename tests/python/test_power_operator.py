"""`x ** 2` with a Python-scalar exponent on a float array takes NumPy's square() fast
path: bit-identical to NumPy's operator (which also squares), NaN and inf included."""
import numpy as np
import pytest

import copper as cp
from conftest import random_array


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("exponent", [2, 2.0])
def test_square_fast_path_matches_numpy(device, rng, dtype, exponent):
    n = random_array(rng, (7, 5), dtype, low=-1e3, high=1e3)
    n.flat[:3] = [np.nan, np.inf, -np.inf]
    c = cp.asarray(n)
    result = c ** exponent
    with np.errstate(over="ignore"):  # float16 squares of 1e3 overflow to inf, on purpose
        expected = n ** exponent
    assert result.dtype == expected.dtype
    np.testing.assert_array_equal(result.get(), expected)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64])
def test_integer_square_still_wraps_like_numpy(device, rng, dtype):
    n = random_array(rng, (9,), dtype)
    result = cp.asarray(n) ** 2
    np.testing.assert_array_equal(result.get(), n ** 2)
    assert result.dtype == (n ** 2).dtype
