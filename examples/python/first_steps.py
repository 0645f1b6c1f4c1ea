"""First steps with copper: NumPy's API, one import changed.

Run from a build tree:   PYTHONPATH=build/python python3 examples/python/first_steps.py
or after `pip install .`: python3 examples/python/first_steps.py
"""
import numpy as np

import copper as cp

# Arrays live on a device: the GPU when one is present, else the CPU.
print("default device:", cp.get_default_device(), "| CPU threads:", cp.get_num_threads())

# Creating arrays works as in NumPy; dtypes are NumPy's own objects.
a = cp.arange(12).reshape(3, 4)
print("a =", a, sep="\n")
print("a.shape", a.shape, "a.dtype", a.dtype)

# Arithmetic broadcasts and follows NumPy 2 promotion: Python scalars are "weak".
b = a * 0.5 + 1  # float64
small = cp.ones(4, dtype=cp.float32) * 3  # stays float32: the scalar adapts
print("b.dtype", b.dtype, "| small.dtype", small.dtype)

# Reductions over axes, and universal functions.
row_norms = cp.sqrt(cp.sum(b**2, axis=-1))
print("row norms:", row_norms)

# In-place operators write into the array's own memory.
x = cp.ones((2, 3))
x *= 5
x += x
print("x after x *= 5; x += x:", x, sep="\n")

# Moving data: NumPy in with cp.asarray, out with .get() (or cp.asnumpy).
host = np.linspace(0, 1, 5)
on_device = cp.asarray(host)
back = (on_device * 2).get()
assert isinstance(back, np.ndarray)
np.testing.assert_allclose(back, host * 2)

# Errors are NumPy's exceptions with NumPy's messages.
try:
    cp.ones((2, 3)) + cp.ones(4)
except ValueError as err:
    print("ValueError:", err)

# The answer matches NumPy's, which is the whole point.
expected = np.sqrt(np.sum((np.arange(12).reshape(3, 4) * 0.5 + 1) ** 2, axis=-1))
np.testing.assert_allclose(row_norms.get(), expected, rtol=1e-15)
print("first steps: ok")
