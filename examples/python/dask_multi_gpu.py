"""Spreading a copper computation over several GPUs, or several machines, with Dask.

The pattern: one Dask worker per GPU, each worker seeing only its own GPU (the
CUDA_VISIBLE_DEVICES environment variable, so copper's default device in that worker is
"its" GPU), and a Dask array whose chunks are copper arrays made on the workers. Dask
plans the work chunk by chunk; each chunk's operations run in copper on the GPU that holds
it, and only small results travel back to the client.

Run from a build tree (one GPU, or none: then one CPU worker):
    PYTHONPATH=build/python python3 examples/python/dask_multi_gpu.py
Options: --workers N (default: one per GPU, at least 1), --rows, --cols, --chunk-rows,
--scheduler tcp://host:8786 (use a running cluster: see below), --threads (Dask's threaded
scheduler in this process, no cluster).

Several machines: start a scheduler on one host and, on every host, one worker per GPU:
    dask scheduler                                              # prints tcp://host:8786
    CUDA_VISIBLE_DEVICES=0 dask worker tcp://host:8786 --nthreads 1 --resources GPU=1
    CUDA_VISIBLE_DEVICES=1 dask worker tcp://host:8786 --nthreads 1 --resources GPU=1
then run this program with --scheduler tcp://host:8786. Every worker needs copper importable
(PYTHONPATH or pip install). See docs/interop.md.
"""
import argparse
import logging
import os
import time

import numpy as np

os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "error")  # the cluster's INFO lines are noise here

import copper as cp


def gpu_count():
    try:
        return cp.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


def start_cluster(workers):
    """A local cluster with one single-threaded worker process per GPU, each pinned to its
    GPU; without GPUs, CPU workers. (dask-cuda's LocalCUDACluster does the same; this uses
    plain distributed, so nothing else is needed.)"""
    from distributed import Nanny, Scheduler, SpecCluster

    gpus = gpu_count()
    specs = {}
    for i in range(workers):
        env = {"CUDA_VISIBLE_DEVICES": str(i % gpus)} if gpus else {"COPPER_DEVICE": "cpu"}
        specs[f"worker-{i}"] = {"cls": Nanny, "options": {"nthreads": 1, "env": env, "resources": {"GPU": 1}}}
    return SpecCluster(scheduler={"cls": Scheduler, "options": {"dashboard_address": ":0"}}, workers=specs,
                       silence_logs=logging.ERROR)


def random_block(block_info=None, seed=0):
    """One chunk, made where it will be used (on the worker's GPU): rows of a random matrix
    whose values depend only on the seed and the chunk's place, so the result is the same
    however the chunks are spread."""
    (r0, r1), (c0, c1) = block_info[None]["array-location"]
    rng = cp.random.default_rng(seed + r0)
    return rng.standard_normal((r1 - r0, c1 - c0))


def matches_numpy(args, mean, cov, top):
    """The same analysis in NumPy, on the same numbers: every chunk remade on the CPU."""
    blocks = []
    for r0 in range(0, args.rows, args.chunk_rows):
        r1 = min(r0 + args.chunk_rows, args.rows)
        info = {None: {"array-location": [(r0, r1), (0, args.cols)]}}
        with _cpu_default():
            blocks.append(np.asarray(random_block(block_info=info).get()))
    x = np.concatenate(blocks)
    want_mean = x.mean(axis=0)
    c = x - want_mean
    want_cov = (c.T @ c) / (args.rows - 1)
    want_top = np.abs(c).max()
    good = (np.allclose(mean.get(), want_mean, rtol=1e-9, atol=1e-12) and np.allclose(cov.get(), want_cov, rtol=1e-9,
                                                                                        atol=1e-12)
            and np.isclose(float(top), want_top, rtol=1e-12))
    print("matches NumPy: " + ("yes" if good else "NO"))
    return good


class _cpu_default:
    """Makes the CPU copper's default device for a block of code."""

    def __enter__(self):
        self.before = cp.get_default_device()
        cp.set_default_device("cpu")

    def __exit__(self, *exc):
        cp.set_default_device(self.before)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=max(gpu_count(), 1))
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--cols", type=int, default=64)
    parser.add_argument("--chunk-rows", type=int, default=25_000)
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    parser.add_argument("--threads", action="store_true", help="Dask's threaded scheduler, no cluster")
    parser.add_argument("--check", action="store_true",
                        help="recompute the results with NumPy from the same chunks (made on the CPU: copper's "
                             "generators give the same numbers on every device) and compare")
    args = parser.parse_args()

    import dask.array as da

    client = cluster = None
    if not args.threads:
        from distributed import Client
        if args.scheduler:
            client = Client(args.scheduler)
        else:
            cluster = start_cluster(args.workers)
            client = Client(cluster)
        print(f"cluster: {len(client.scheduler_info()['workers'])} workers")
    else:
        print("scheduler: threads (this process)")

    chunks = (args.chunk_rows, args.cols)
    x = da.map_blocks(random_block, chunks=da.core.normalize_chunks(chunks, (args.rows, args.cols)),
                      dtype=np.float64, meta=cp.empty((0, 0)))

    # A small analysis, written as NumPy code: column statistics, a Gram matrix and a
    # normalized projection. Each chunk's work runs in copper on its worker's device.
    start = time.perf_counter()
    mean = x.mean(axis=0)
    centered = x - mean
    cov = (centered.T @ centered) / (args.rows - 1)
    top = abs(centered).max()
    if client is not None:
        mean, cov, top = client.compute([mean, cov, top], sync=True)
    else:
        mean, cov, top = da.compute(mean, cov, top, scheduler="threads")
    elapsed = time.perf_counter() - start

    assert isinstance(cov, cp.ndarray), type(cov)  # results come back as copper arrays
    eig = cp.linalg.eigvalsh(cov)
    print(f"{args.rows} x {args.cols} float64 in {x.npartitions} chunks: {elapsed:.2f} s")
    print(f"max |mean| {float(abs(mean).max()):.4f}, max |x - mean| {float(top):.3f}, "
          f"covariance eigenvalues in [{float(eig[0]):.3f}, {float(eig[-1]):.3f}]")
    # Standard normal data: means near 0, covariance near the identity.
    ok = float(abs(mean).max()) < 0.05 and abs(float(cp.trace(cov)) / args.cols - 1) < 0.05
    print("dask multi-gpu: ok" if ok else "dask multi-gpu: unexpected statistics")
    if args.check:
        ok = matches_numpy(args, mean, cov, top) and ok
    if client is not None:
        client.close()
    if cluster is not None:
        cluster.close()


if __name__ == "__main__":
    main()
