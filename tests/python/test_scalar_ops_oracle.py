"""Runs the scalar-op checker (tests/python/scalar_ops_oracle.py): every functor in
src/ops/scalar_ops.h, compiled as the backends compile it, against NumPy on edge
values and random inputs, plus each op's supported-type table against NumPy's."""
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs a C++ compiler to build the checker")
def test_scalar_ops_match_numpy():
    result = subprocess.run([sys.executable, str(ROOT / "tests/python/scalar_ops_oracle.py"), "-n", "500"],
                            cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
