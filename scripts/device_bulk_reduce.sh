#!/usr/bin/env bash
# cp.reduce.async.bulk and TMA im2col on the H200 (docs/FIDELITY.md, "Bulk reductions", "TMA
# im2col mode"): scripts/device_probe_diff.sh runs scripts/probes/bulk_reduce/
# bulk_reduce_probe.cu (every .global pair over edge values, the .shared::cluster form in a
# cluster of 2, a tensor add) and im2col_probe.cu (im2col columns of a padded NHWC tensor at
# every 3 x 3 filter tap) natively and under `warpsim exec`, and diffs the two outputs.
#
# Carry build/bin and build/driver (the CLI, libtbb beside it, warpsim's libcuda).
# Run it in the repository root on the device machine:   bash scripts/device_bulk_reduce.sh
# Results, under $OUT (default /tmp/out):
#   bulk_reduce/PROBE.h200.txt  each probe on the chip
#   bulk_reduce/PROBE.sim.txt   each probe on the simulator (warpsim exec)
#   bulk_reduce/summary.txt     the device, the exit statuses, the diffs (none: they agree)
cd "$(dirname "$0")/.." || exit 2
SUBDIR=bulk_reduce WORK=${WORK:-/tmp/bulk_reduce} exec bash scripts/device_probe_diff.sh \
  scripts/probes/bulk_reduce/bulk_reduce_probe.cu scripts/probes/bulk_reduce/im2col_probe.cu
