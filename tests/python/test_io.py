"""File and buffer I/O through the host (issue 14): NumPy's formats in and out, copper
arrays on the device, NumPy as the oracle."""
import io

import numpy as np
import pytest

import copper as cp
from conftest import random_array


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.uint64, np.float16, np.float32, np.complex128])
def test_save_load_npy(device, tmp_path, dtype):
    h = random_array(np.random.default_rng(3), (3, 4), dtype)
    path = tmp_path / "a.npy"
    cp.save(path, cp.asarray(h)[:, ::-2])
    np.testing.assert_array_equal(np.load(path), h[:, ::-2])  # NumPy reads what copper wrote
    back = cp.load(path)
    assert isinstance(back, cp.ndarray) and back.dtype == dtype and str(back.device) == device
    np.testing.assert_array_equal(back.get(), h[:, ::-2])
    np.save(path, h)  # copper reads what NumPy wrote
    np.testing.assert_array_equal(cp.load(path).get(), h)


def test_load_to_a_device_and_pickles(tmp_path):
    path = tmp_path / "a.npy"
    np.save(path, np.arange(5))
    assert cp.load(path, device="cpu").device == cp.Device("cpu")
    with open(tmp_path / "p.npy", "wb") as f:
        np.save(f, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError):
        cp.load(tmp_path / "p.npy")  # allow_pickle=False, as NumPy's default


@pytest.mark.parametrize("compressed", [False, True])
def test_savez(device, tmp_path, compressed):
    rng = np.random.default_rng(4)
    x, y = random_array(rng, (5,), np.float64), random_array(rng, (2, 2), np.int32)
    path = tmp_path / "z.npz"
    (cp.savez_compressed if compressed else cp.savez)(path, cp.asarray(x), named=cp.asarray(y))
    with np.load(path) as ref:
        assert sorted(ref.files) == ["arr_0", "named"]
        np.testing.assert_array_equal(ref["named"], y)
    with cp.load(path) as z:
        assert sorted(z.files) == ["arr_0", "named"] and "named" in z
        assert isinstance(z["arr_0"], cp.ndarray)
        np.testing.assert_array_equal(z["arr_0"].get(), x)
        np.testing.assert_array_equal(z["named"].get(), y)


def test_savetxt_loadtxt(device, tmp_path):
    h = random_array(np.random.default_rng(5), (4, 3), np.float64)
    path = tmp_path / "t.txt"
    cp.savetxt(path, cp.asarray(h), fmt="%.6f", delimiter=",", header="a,b,c")
    ref = io.StringIO()
    np.savetxt(ref, h, fmt="%.6f", delimiter=",", header="a,b,c")
    assert path.read_text() == ref.getvalue()
    back = cp.loadtxt(path, delimiter=",", dtype=np.float32)
    np.testing.assert_array_equal(back.get(), np.loadtxt(path, delimiter=",", dtype=np.float32))
    cols = cp.loadtxt(path, delimiter=",", unpack=True, usecols=(0, 2))
    assert len(cols) == 2 and all(isinstance(c, cp.ndarray) for c in cols)
    np.testing.assert_array_equal(cols[1].get(), np.loadtxt(path, delimiter=",", usecols=(0, 2), unpack=True)[1])


def test_genfromtxt(device):
    text = "1,2,3\n4,,6\n# comment\n7,8,9\n"
    expected = np.genfromtxt(io.StringIO(text), delimiter=",", filling_values=-1)
    got = cp.genfromtxt(io.StringIO(text), delimiter=",", filling_values=-1)
    assert isinstance(got, cp.ndarray)
    np.testing.assert_array_equal(got.get(), expected)
    with pytest.raises(NotImplementedError):
        cp.genfromtxt(io.StringIO(text), delimiter=",", usemask=True)


def test_from_buffer_string_file_iter_regex(device, tmp_path):
    h = np.arange(10, dtype=np.int32)
    got = cp.frombuffer(h.tobytes(), dtype=np.int32, count=4, offset=8)
    np.testing.assert_array_equal(got.get(), np.frombuffer(h.tobytes(), dtype=np.int32, count=4, offset=8))
    np.testing.assert_array_equal(cp.fromstring("1 2 3", dtype=int, sep=" ").get(), np.fromstring("1 2 3", dtype=int, sep=" "))
    path = tmp_path / "raw.bin"
    h.tofile(path)
    np.testing.assert_array_equal(cp.fromfile(path, dtype=np.int32, offset=4).get(), np.fromfile(path, dtype=np.int32, offset=4))
    np.testing.assert_array_equal(cp.fromiter((i * i for i in range(5)), dtype=np.float32).get(),
                                  np.fromiter((i * i for i in range(5)), dtype=np.float32))
    (tmp_path / "r.txt").write_text("x=1 y=2\nx=3 y=4\n")
    dt = np.dtype([("x", np.int64)])
    with pytest.raises(Exception):  # structured dtypes cannot live on a copper device
        cp.fromregex(tmp_path / "r.txt", r"x=(\d+)", dt)


def test_fromfunction(device):
    got = cp.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=np.int64)
    assert isinstance(got, cp.ndarray) and str(got.device) == device
    np.testing.assert_array_equal(got.get(), np.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=np.int64))
    got = cp.fromfunction(lambda i, j, k=0: (i == j) + k, (2, 2), k=5)
    np.testing.assert_array_equal(got.get(), np.fromfunction(lambda i, j, k=0: (i == j) + k, (2, 2), k=5))


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex128])
def test_tofile_dump_dumps(device, tmp_path, dtype):
    import pickle
    h = random_array(np.random.default_rng(5), (3, 4), dtype)
    x = cp.asarray(h, device=device)[::-1, 1::2]  # a non-contiguous view: C order on the way out
    x.tofile(tmp_path / "a.bin")
    h[::-1, 1::2].tofile(tmp_path / "b.bin")
    assert (tmp_path / "a.bin").read_bytes() == (tmp_path / "b.bin").read_bytes()
    fmt = "%s" if np.dtype(dtype).kind == "c" else "%.3f"
    x.tofile(str(tmp_path / "a.txt"), sep=",", format=fmt)
    h[::-1, 1::2].tofile(str(tmp_path / "b.txt"), sep=",", format=fmt)
    assert (tmp_path / "a.txt").read_text() == (tmp_path / "b.txt").read_text()
    back = pickle.loads(x.dumps())
    assert isinstance(back, cp.ndarray) and str(back.device) == device
    np.testing.assert_array_equal(back.get(), h[::-1, 1::2])
    x.dump(tmp_path / "a.pkl")
    with open(tmp_path / "a.pkl", "rb") as f:
        np.testing.assert_array_equal(pickle.load(f).get(), h[::-1, 1::2])
    with open(tmp_path / "b.pkl", "wb") as f:
        x.dump(f)
    np.testing.assert_array_equal(pickle.loads((tmp_path / "b.pkl").read_bytes()).get(), h[::-1, 1::2])
