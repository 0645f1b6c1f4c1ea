"""copper.x.allow_synchronize (CuPy's cupyx.allow_synchronize): host waits for a device
raise DeviceSynchronized while disallowed, on either backend; device work does not."""
import threading

import numpy as np
import pytest

import copper as cp
import copper.x as cx


def test_host_copies_and_synchronize_raise_while_disallowed(device):
    a = cp.asarray([2.0, 3.0, 5.0], device=device)
    with cx.allow_synchronize(False):
        b = cp.sqrt(a * 2 + 1)  # queued device work is fine
        c = b.sum(axis=0, keepdims=True)
        for host_wait in (b.get, c.item, lambda: float(c[0]), lambda: repr(b), b.tolist,
                          lambda: cp.asnumpy(b), lambda: cp.synchronize(), lambda: cp.cuda.Stream.null.synchronize()):
            with pytest.raises(cx.DeviceSynchronized, match="Device synchronization was detected while disallowed"):
                host_wait()
    np.testing.assert_allclose(b.get(), np.sqrt(np.array([2.0, 3.0, 5.0]) * 2 + 1))  # allowed again after


def test_nesting_restores_the_outer_setting(device):
    a = cp.arange(4, device=device)
    with cx.allow_synchronize(True):
        with cx.allow_synchronize(False):
            with pytest.raises(cx.DeviceSynchronized):
                a.get()
            with cx.allow_synchronize(True):
                a.get()
            with pytest.raises(cx.DeviceSynchronized):
                a.get()
        a.get()
    assert issubclass(cx.DeviceSynchronized, RuntimeError)


def test_the_setting_belongs_to_the_thread(device):
    a = cp.arange(4, device=device)
    seen = []
    with cx.allow_synchronize(False):
        t = threading.Thread(target=lambda: seen.append(a.get().tolist()))  # another thread: allowed
        t.start()
        t.join()
        with pytest.raises(cx.DeviceSynchronized):
            a.get()
    assert seen == [[0, 1, 2, 3]]


def test_an_exception_in_the_block_restores_the_setting(device):
    a = cp.arange(3, device=device)
    with pytest.raises(KeyError):
        with cx.allow_synchronize(False):
            raise KeyError("x")
    a.get()


def test_data_dependent_shapes_wait_for_the_gpu(device):
    # A mask's count and nonzero's size are read back from the GPU: a synchronization the
    # flag must catch there (CuPy's nonzero raises too). The CPU backend computes them in
    # host memory, with nothing to wait for.
    if not device.startswith("cuda"):
        pytest.skip("no device to wait for on the CPU backend")
    rng = np.random.default_rng(5)
    x = rng.standard_normal(50)
    a = cp.asarray(x, device=device)
    with cx.allow_synchronize(False):
        for call in (lambda: a[a > 0], lambda: cp.nonzero(a > 0), lambda: cp.flatnonzero(a), lambda: cp.unique(a)):
            with pytest.raises(cx.DeviceSynchronized):
                call()
        mask = a > 0  # device work still queues
    np.testing.assert_array_equal(mask.get(), x > 0)
    np.testing.assert_array_equal(a[mask].get(), x[x > 0])  # allowed again after
