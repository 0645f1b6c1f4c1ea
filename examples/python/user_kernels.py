"""User kernels from C++ source strings, as CuPy's: ElementwiseKernel and ReductionKernel.

The same code runs on a GPU (compiled by NVRTC) and on the CPU (compiled by the system
C++ compiler); compiled kernels are cached on disk, so a second run starts at once.

    python examples/python/user_kernels.py          # COPPER_DEVICE=cpu|cuda picks the device
"""
import numpy as np

import copper as cp

# 1. Elementwise with typed parameters; the loop over elements is written for you.
squared_diff = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")

# 2. Type placeholders: T is whatever dtype the arguments have (all Ts must agree).
axpy = cp.ElementwiseKernel("T a, T x, T y", "T z", "z = a * x + y", "axpy")

# 3. raw arguments are indexed by your code: `i` is the element, _ind.size() the count.
add_reverse = cp.ElementwiseKernel("T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1]", "add_reverse")

# 4. A histogram: atomics on a raw output.
histogram = cp.ElementwiseKernel("int32 x", "raw int32 counts", "atomicAdd(&counts[x], 1)", "histogram")

# 5. Reductions: map, reduce two values a and b, then post-map into the output.
l2norm = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")


def main():
    rng = np.random.default_rng(0)
    nx = rng.random((1000, 64), dtype=np.float32)
    ny = rng.random(64, dtype=np.float32)
    x, y = cp.asarray(nx), cp.asarray(ny)
    checks = {
        "squared_diff": np.allclose(squared_diff(x, y).get(), (nx - ny) ** 2),
        "axpy": np.allclose(axpy(np.float32(2), x, y).get(), 2 * nx + ny),
        "add_reverse": np.allclose(add_reverse(y, y).get(), ny + ny[::-1]),
        "l2norm": np.allclose(l2norm(x, axis=1).get(), np.linalg.norm(nx, axis=1), rtol=1e-5),
    }
    data = rng.integers(0, 10, 10000).astype(np.int32)
    counts = cp.zeros(10, dtype=np.int32)
    histogram(cp.asarray(data), counts)
    checks["histogram"] = (counts.get() == np.bincount(data, minlength=10)).all()
    for name, ok in checks.items():
        print(f"{name:14s} {'ok' if ok else 'WRONG'}")
    print("user kernels: ok" if all(checks.values()) else "user kernels: FAILED")


if __name__ == "__main__":
    main()
