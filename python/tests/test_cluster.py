"""Thread-block clusters and cooperative launches: cluster= and cooperative=."""

import pathlib

import numpy as np
import pytest

import warpsim

ROOT = pathlib.Path(__file__).resolve().parents[2]
# nvcc 13's PTX of README.md's cluster example: each CTA reads 100 + its right neighbour's rank
# out of the neighbour's shared memory (cluster.map_shared_rank).
NEIGHBOUR = (ROOT / "tests" / "data" / "cluster_neighbour.ptx").read_text()


def test_cluster_reads_the_neighbours_shared_memory():
    kernel = warpsim.Module.from_ptx(NEIGHBOUR, name="cluster_neighbour.ptx").get_kernel("neighbour")
    out = np.zeros(8, dtype=np.uint32)
    kernel(8, 32, (out,), cluster=4)
    np.testing.assert_array_equal(out, [101, 102, 103, 100, 101, 102, 103, 100])
    kernel(8, 32, (out,), cluster=(2, 1, 1))
    np.testing.assert_array_equal(out, [101, 100] * 4)


def test_bad_cluster_shape_is_the_chips_error():
    kernel = warpsim.Module.from_ptx(NEIGHBOUR, name="cluster_neighbour.ptx").get_kernel("neighbour")
    out = np.zeros(8, dtype=np.uint32)
    with pytest.raises(ValueError, match="CUDA_ERROR_INVALID_CLUSTER_SIZE"):
        kernel(8, 32, (out,), cluster=3)


def test_cooperative_grid_too_large_is_refused():
    kernel = warpsim.Module.from_ptx(NEIGHBOUR, name="cluster_neighbour.ptx").get_kernel("neighbour")
    out = np.zeros(132 * 33, dtype=np.uint32)
    with pytest.raises(ValueError, match="CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"):
        kernel(132 * 33, 32, (out,), cooperative=True)
