"""The entry points a new user meets run and give right answers: the Python and C++
examples (at small sizes), the code blocks in README.md, and the benchmark script."""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

import copper as cp

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
# Small enough to take seconds, big enough to cross the CPU backend's threading threshold.
SMALL = {"COPPER_DEMO_SIZE": "60", "COPPER_DEMO_REPEATS": "1", "COPPER_DEMO_SWEEP_MAX": "1e5"}


def build_dir():
    """The CMake build tree the tested copper comes from (None for an installed package)."""
    if os.environ.get("COPPER_BUILD_DIR"):
        return pathlib.Path(os.environ["COPPER_BUILD_DIR"])
    candidate = pathlib.Path(cp.__file__).resolve().parents[2]  # <build>/python/copper/__init__.py
    return candidate if (candidate / "CMakeCache.txt").exists() else None


def run(cmd, device, extra_env=None, timeout=300):
    env = dict(os.environ, COPPER_DEVICE=device, **(extra_env or {}))
    package_root = str(pathlib.Path(cp.__file__).resolve().parents[1])
    env["PYTHONPATH"] = package_root + os.pathsep + env.get("PYTHONPATH", "")
    result = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert result.returncode == 0, f"{cmd} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    return result.stdout


def readme_blocks(language):
    text = (ROOT / "README.md").read_text()
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


def test_python_first_steps(device):
    out = run([sys.executable, str(EXAMPLES / "python" / "first_steps.py")], device)
    assert f"default device: {device}" in out
    assert "first steps: ok" in out


def test_python_seed_workloads(device):
    out = run([sys.executable, str(EXAMPLES / "python" / "seed_workloads.py")], device, SMALL)
    assert "all results match" in out
    # Every workload reported a row: five seed workloads and the sweep 1e3, 1e4, 1e5.
    assert len(re.findall(r" ok$", out, flags=re.M)) == 8, out


def test_python_seed_workloads_options_override_environment(device):
    out = run([sys.executable, str(EXAMPLES / "python" / "seed_workloads.py"), "--size", "12", "--sweep-max",
               "1e3"], device, SMALL)
    assert "(12,12,12)" in out and "(12,1,12)" in out
    assert "all results match" in out


def test_readme_python_blocks(device, tmp_path):
    blocks = readme_blocks("python")
    assert blocks, "README.md has no python example"
    for i, code in enumerate(blocks):
        script = tmp_path / f"readme_{i}.py"
        script.write_text(code)
        run([sys.executable, str(script)], device)


@pytest.mark.parametrize("name", ["first_steps", "seed_workloads"])
def test_cpp_examples(device, name):
    build = build_dir()
    exe = build / "examples" / "cpp" / name if build else None
    if exe is None or not exe.exists():
        pytest.skip("C++ examples are built by scripts/setup (not part of a pip install)")
    out = run([str(exe)], device, SMALL)
    if name == "seed_workloads":
        assert "all results match" in out


def static_dependencies(build):
    """The linker arguments a static libcopper needs after -lcopper (CUDA's static runtime,
    Highway, libdl), as the build lists them; none for a shared one."""
    flags = build / "copper_link_flags.txt"
    if (build / "libcopper.so").exists() or not flags.exists():
        return []
    return [line for line in flags.read_text().splitlines() if line]


def test_readme_cpp_block_compiles_and_runs(device, tmp_path):
    build = build_dir()
    compiler = shutil.which("g++") or shutil.which("c++")
    has_library = build is not None and any((build / name).exists() for name in ("libcopper.a", "libcopper.so"))
    if not has_library or compiler is None:
        pytest.skip("needs a build tree with libcopper and a C++ compiler")
    blocks = readme_blocks("cpp")
    assert blocks, "README.md has no C++ example"
    for i, code in enumerate(blocks):
        source = tmp_path / f"readme_{i}.cpp"
        source.write_text(code)
        exe = tmp_path / f"readme_{i}"
        subprocess.run([compiler, "-std=c++20", "-O1", f"-I{ROOT / 'include'}", str(source), f"-L{build}",
                        f"-Wl,-rpath,{build}", "-lcopper", *static_dependencies(build), "-pthread", "-o", str(exe)],
                       check=True, timeout=300)
        run([str(exe)], device)


def test_benchmark_script_writes_tables_and_plots(device, tmp_path):
    pytest.importorskip("matplotlib")
    out = run([sys.executable, str(ROOT / "bench" / "run_benchmarks.py"), "--size", "20", "--sweep-max", "1e4",
               "--thread-elements", "1e4", "--repeats", "1", "--libs", "numpy,copper", "--out", str(tmp_path)],
              device)
    assert "### Seed workloads" in out
    for name in ["benchmarks.json", "benchmarks.csv", "summary.md", "sweep_speedup.png", "thread_scaling.png"]:
        assert (tmp_path / name).stat().st_size > 0, name


def test_python_custom_kernels(device):
    # RawKernel lessons: run and checked on a GPU; compiled only (or skipped without NVRTC) elsewhere.
    out = run([sys.executable, str(EXAMPLES / "python" / "custom_kernels.py")], device, SMALL)
    assert re.search(r"^custom kernels: (ok|skipped)", out, flags=re.M), out
    if device.startswith("cuda"):
        assert "custom kernels: ok\n" in out and len(re.findall(r"  ok$", out, flags=re.M)) == 5, out


def test_python_jit_kernels(device):
    # copper.jit lessons: run and checked on a GPU; translated and compiled (or skipped without
    # NVRTC) elsewhere, where the vectorize lesson runs on the CPU.
    out = run([sys.executable, str(EXAMPLES / "python" / "jit_kernels.py")], device, SMALL)
    assert re.search(r"^jit kernels: (ok|skipped)", out, flags=re.M), out
    if device.startswith("cuda"):
        assert "jit kernels: ok\n" in out and len(re.findall(r"  ok$", out, flags=re.M)) == 6, out


def test_cpp_custom_kernels(device):
    build = build_dir()
    exe = build / "examples" / "cpp" / "custom_kernels" if build else None
    if exe is None or not exe.exists():
        pytest.skip("C++ examples are built by scripts/setup (not part of a pip install)")
    out = run([str(exe)], device, SMALL)
    assert re.search(r"^custom kernels: (ok|skipped)", out, flags=re.M), out
    if device.startswith("cuda"):
        assert "custom kernels: ok\n" in out and len(re.findall(r"  ok$", out, flags=re.M)) == 5, out


@pytest.mark.parametrize("mode", [["--threads"], ["--workers", "2"]])
def test_python_dask_multi_gpu(device, mode):
    pytest.importorskip("dask.array")
    pytest.importorskip("distributed")
    out = run([sys.executable, str(EXAMPLES / "python" / "dask_multi_gpu.py"), "--rows", "4000", "--cols", "8",
               "--chunk-rows", "1000", *mode], device)
    assert "dask multi-gpu: ok" in out, out
