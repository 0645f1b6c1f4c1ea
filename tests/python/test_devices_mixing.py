"""Choosing devices (COPPER_DEVICE, device=, set_default_device) and what happens when
one op is given arrays on different devices: a ValueError naming both, with every array
left untouched. Without a usable GPU, asking for one raises a clear RuntimeError."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import copper as cp

HAVE_GPU = cp.cuda.is_available()
requires_gpu = pytest.mark.skipif(not HAVE_GPU, reason="needs a GPU usable by copper")
cpu_only = pytest.mark.skipif(HAVE_GPU, reason="checks the behaviour without a usable GPU")

# The registry's words, with or without the CUDA backend compiled in.
NO_GPU = r"device cuda:\d+ requested, but (no CUDA driver or GPU was found|copper was built without the CUDA backend)"
MIXED = r"arrays are on different devices \({} and {}\); move one with asarray\(x, device=\.\.\.\) first"


# ---------------------------------------------------------------- COPPER_DEVICE

DEVICE_SCRIPT = """
import copper as cp
print(cp.get_default_device())
try:
    print(cp.zeros(2).device)
except Exception as e:
    print(type(e).__name__ + ": " + str(e))
"""


def _run_with_copper_device(value):
    env = dict(os.environ)
    env.pop("COPPER_DEVICE", None)
    if value is not None:
        env["COPPER_DEVICE"] = value
    done = subprocess.run([sys.executable, "-c", DEVICE_SCRIPT], env=env, capture_output=True, text=True,
                          timeout=120)
    return done.returncode, done.stdout.strip().splitlines(), done.stderr


@pytest.mark.parametrize("value", [None, "cpu", "cuda", "cuda:0"])
def test_copper_device_chooses_the_default_device(value):
    code, lines, stderr = _run_with_copper_device(value)
    assert code == 0, stderr
    if value == "cpu" or (value is None and not HAVE_GPU):
        assert lines == ["cpu", "cpu"]
    elif HAVE_GPU:  # unset, "cuda" and "cuda:0" all mean the first GPU
        assert lines == ["cuda:0", "cuda:0"]
    else:  # asked for a GPU that is not there: named as the default, refused on use
        assert lines[0] == "cuda:0"
        assert lines[1].startswith("RuntimeError: ")
        assert re.search(NO_GPU, lines[1]), lines[1]


def test_copper_device_rejects_a_bad_name():
    code, lines, stderr = _run_with_copper_device("tpu")
    assert code != 0 or any("ValueError" in line for line in lines)
    assert "invalid device 'tpu': expected 'cpu', 'cuda' or 'cuda:N'" in stderr + "\n".join(lines)


# ---------------------------------------------------------------- without a GPU

@cpu_only
def test_asking_for_a_gpu_without_one_is_a_clear_runtime_error():
    assert cp.cuda.is_available() is False
    before = cp.get_default_device()
    with pytest.raises(RuntimeError, match=NO_GPU):
        cp.zeros(3, device="cuda")
    with pytest.raises(RuntimeError, match=NO_GPU):
        cp.asarray(np.arange(3.0), device="cuda:0")
    with pytest.raises(RuntimeError, match=NO_GPU):
        cp.set_default_device("cuda")
    assert cp.get_default_device() == before
    with pytest.raises(RuntimeError, match=r"(?i)cuda|gpu"):
        cp.cuda.Stream(device=1)  # device 0 stands for the CPU; no other exists
    x = cp.arange(4.0)  # the CPU keeps working
    np.testing.assert_array_equal((x * 2).get(), np.arange(4.0) * 2)


def test_a_bad_device_name_is_a_value_error():
    with pytest.raises(ValueError, match=r"invalid device 'cuda:x': expected 'cpu', 'cuda' or 'cuda:N'"):
        cp.zeros(3, device="cuda:x")


# ---------------------------------------------------------------- mixing devices (GPU)

@pytest.fixture
def pair(rng):
    """The same random float64 data on the CPU and on GPU 0, plus the NumPy original."""
    n = rng.uniform(-10, 10, (3, 4))
    return n, cp.asarray(n, device="cpu"), cp.asarray(n, device="cuda:0")


def _untouched(array, original):
    np.testing.assert_array_equal(array.get(), original)


@requires_gpu
def test_binary_ops_refuse_mixed_devices(pair):
    n, c, g = pair
    with pytest.raises(ValueError, match=MIXED.format("cpu", "cuda:0")):
        c + g
    with pytest.raises(ValueError, match=MIXED.format("cuda:0", "cpu")):
        g * c
    with pytest.raises(ValueError, match=MIXED.format("cpu", "cuda:0")):
        cp.add(c, g)
    with pytest.raises(ValueError, match=MIXED.format("cuda:0", "cpu")):
        cp.arctan2(g, c)
    _untouched(c, n)
    _untouched(g, n)


@requires_gpu
def test_out_and_in_place_on_another_device_leave_it_untouched(pair):
    n, c, g = pair
    with pytest.raises(ValueError, match=MIXED.format("cuda:0", "cpu")):
        cp.add(g, g, out=c)
    with pytest.raises(ValueError, match=MIXED.format("cpu", "cuda:0")):
        c += g
    with pytest.raises(ValueError, match=MIXED.format("cuda:0", "cpu")):
        g -= c
    with pytest.raises(ValueError, match=MIXED.format("cuda:0", "cpu")):
        cp.sqrt(g, out=c)
    _untouched(c, n)
    _untouched(g, n)


@requires_gpu
def test_other_families_refuse_mixed_devices(pair):
    n, c, g = pair
    with pytest.raises(ValueError, match=MIXED.format("cpu", "cuda:0")):
        cp.where(c > 0, c, g)
    with pytest.raises(ValueError, match=MIXED.format("cpu", "cuda:0")):
        cp.concatenate([c, g])
    with pytest.raises(ValueError, match=MIXED.format("cpu", "cuda:0")):
        cp.copyto(c, g)
    out = cp.zeros(4, device="cpu")
    with pytest.raises(ValueError, match=MIXED.format("cuda:0", "cpu")):
        cp.sum(g, axis=0, out=out)
    with pytest.raises(ValueError, match=MIXED.format("cuda:0", "cpu")):
        cp.cumsum(g, axis=1, out=cp.zeros((3, 4), device="cpu"))
    _untouched(c, n)
    _untouched(g, n)
    np.testing.assert_array_equal(out.get(), np.zeros(4))


@requires_gpu
def test_moving_first_makes_mixing_work(pair):
    n, c, g = pair
    moved = cp.asarray(g, device="cpu")
    assert str(moved.device) == "cpu"
    np.testing.assert_array_equal((c + moved).get(), n + n)
    up = cp.asarray(c, device="cuda:0")
    assert str(up.device) == "cuda:0"
    np.testing.assert_array_equal((g * up).get(), n * n)


@requires_gpu
def test_numpy_arrays_and_scalars_follow_the_copper_array(pair):
    n, c, g = pair
    other = np.arange(4.0)
    r = g + other
    assert str(r.device) == "cuda:0"
    np.testing.assert_array_equal(r.get(), n + other)
    r = 2.5 * g - 1
    assert str(r.device) == "cuda:0"
    np.testing.assert_array_equal(r.get(), 2.5 * n - 1)


@requires_gpu
def test_asking_for_a_missing_gpu_is_a_clear_runtime_error():
    missing = cp.cuda.device_count()
    before = cp.get_default_device()
    with pytest.raises(RuntimeError, match=rf"(cuda:|device ){missing}\b"):
        cp.zeros(3, device=f"cuda:{missing}")
    with pytest.raises(RuntimeError, match=rf"(cuda:|device ){missing}\b"):
        cp.set_default_device(f"cuda:{missing}")
    assert cp.get_default_device() == before
