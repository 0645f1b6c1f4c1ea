"""Where the CPU backend's matmul finds a fast BLAS when the system has none but the
reference one: NumPy's wheels carry an OpenBLAS (numpy.libs/libscipy_openblas64_*.so, with
64-bit integers); the core tries it after a system OpenBLAS or MKL and before libblas.so.3
(COPPER_BLAS_FALLBACK, read at the first matmul; src/backend/cpu/cpu_blas.cpp)."""
import glob
import importlib.util
import os


def _numpy_openblas():
    spec = importlib.util.find_spec("numpy")
    if spec is None or not spec.origin:
        return None
    libs = os.path.join(os.path.dirname(os.path.dirname(spec.origin)), "numpy.libs")
    found = sorted(glob.glob(os.path.join(libs, "libscipy_openblas*.so*")))
    return found[0] if found else None


if not os.environ.get("COPPER_BLAS_FALLBACK"):
    _path = _numpy_openblas()
    if _path:
        os.environ["COPPER_BLAS_FALLBACK"] = _path
