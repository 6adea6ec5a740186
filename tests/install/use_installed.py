"""The install_consumer test's Python half: imports the package that `cmake --install` put under
the prefix (PYTHONPATH is that prefix's site-packages alone) and runs a kernel with it:
y = 2 x over x = 0..63, printed as a sum. Usage: python3 use_installed.py SITE_PACKAGES_DIR"""

import pathlib
import sys

import numpy as np
import warpsim

PTX = r"""
.version 8.0
.target sm_90
.address_size 64
.visible .entry twice(.param .u64 x, .param .u64 y)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  shl.b32 %r3, %r2, 1;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r3;
  ret;
}
"""

site = pathlib.Path(sys.argv[1]).resolve()
where = pathlib.Path(warpsim.__file__).resolve()
if site not in where.parents:
    sys.exit(f"warpsim was imported from {where}, not from the install under {site}")
twice = warpsim.Module.from_ptx(PTX, name="twice.ptx").get_kernel("twice")
x = np.arange(64, dtype=np.uint32)
y = np.zeros(64, dtype=np.uint32)
result = twice(grid=1, block=64, args=(x, y))
print(f"python sum {int(y.sum())}, warp-instructions {result.stats.warp_instructions}")
