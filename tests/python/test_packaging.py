"""The version is written in three places (CMake project, pyproject.toml, the Python
package); they must agree, or pip and find_package would disagree about what is installed."""
import pathlib
import re
import tomllib

import copper as cp

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_versions_agree():
    cmake = re.search(r"project\(copper VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text()).group(1)
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert cmake == pyproject == cp.__version__


def test_package_exposes_runtime_controls():
    # The README documents these; scripts and benchmarks rely on them.
    for name in ["get_default_device", "set_default_device", "get_num_threads", "set_num_threads",
                 "synchronize", "asarray", "asnumpy"]:
        assert callable(getattr(cp, name)), name


def test_set_num_threads_round_trips():
    saved = cp.get_num_threads()
    try:
        cp.set_num_threads(1)
        assert cp.get_num_threads() == 1
    finally:
        cp.set_num_threads(saved)
    assert cp.get_num_threads() == saved
