#!/usr/bin/env python3
"""Packs what device_fastmath.cu wrote for the trip back (at most 8 files of 16 MiB).

Dense outputs are smooth in their input, so each is stored as its second difference (exactly
reversible: the first two values are kept in the header), narrowed to int8/int16 when it fits,
and xz-compressed; the results are bundled into tar files under 15 MiB each.
Usage: device_fastmath_pack.py RAWDIR OUTDIR
Unpack: python3 scripts/device_fastmath_pack.py --unpack FILE.d2.xz OUT.u32
"""
import io, lzma, os, sys, tarfile
from concurrent.futures import ProcessPoolExecutor
import numpy as np

def pack_one(args):
    src, dst = args
    ext = src.rsplit(".", 1)[1]
    v = np.fromfile(src, dtype=np.uint16 if ext == "u16" else np.uint32).astype(np.int64)
    d2 = np.diff(v, n=2)
    for t in (np.int8, np.int16, np.int32, np.int64):
        if d2.size == 0 or (d2.min() >= np.iinfo(t).min and d2.max() <= np.iinfo(t).max):
            break
    head = f"d2 {ext} {v.size} {np.dtype(t).name} {int(v[0])} {int(v[1])}\n".encode()
    data = lzma.compress(head + d2.astype(t).tobytes(), preset=6)
    with open(dst, "wb") as f:
        f.write(data)
    return os.path.basename(dst), len(data)

def unpack(src, dst):
    raw = lzma.decompress(open(src, "rb").read())
    nl = raw.index(b"\n")
    _, ext, n, t, v0, v1 = raw[:nl].decode().split()
    d2 = np.frombuffer(raw[nl + 1:], dtype=np.dtype(t)).astype(np.int64)
    d1 = np.concatenate([[int(v1) - int(v0)], d2]).cumsum()
    v = np.concatenate([[int(v0)], int(v0) + d1.cumsum()])
    assert v.size == int(n)
    v.astype(np.uint16 if ext == "u16" else np.uint32).tofile(dst)

def main():
    if sys.argv[1] == "--unpack":
        unpack(sys.argv[2], sys.argv[3])
        return
    raw, out = sys.argv[1], sys.argv[2]
    dense = os.path.join(raw, "dense")
    tmp = os.path.join(raw, "packed")
    os.makedirs(tmp, exist_ok=True)
    jobs = [(os.path.join(dense, f), os.path.join(tmp, f.rsplit(".", 1)[0] + ".d2.xz"))
            for f in sorted(os.listdir(dense)) if f.endswith((".u16", ".u32"))]
    with ProcessPoolExecutor(16) as ex:
        sizes = list(ex.map(pack_one, jobs))
    for name, size in sizes:
        print(f"packed {name} {size}")
    extra = [os.path.join(raw, "hashes.bin"), os.path.join(raw, "forms.txt"),
             os.path.join(dense, "index.txt")]
    files = extra + [j[1] for j in jobs]
    bundles, cur, cur_size = [], [], 0
    for f in files:
        s = os.path.getsize(f)
        if cur and cur_size + s > 15 * 2**20:
            bundles.append(cur)
            cur, cur_size = [], 0
        cur.append(f)
        cur_size += s
    bundles.append(cur)
    if len(bundles) > 7:
        print(f"too many bundles: {len(bundles)}", file=sys.stderr)
    for i, b in enumerate(bundles[:7]):
        with tarfile.open(os.path.join(out, f"fastmath{i}.tar"), "w") as t:
            for f in b:
                t.add(f, arcname=os.path.basename(f))
        print(f"bundle {i}: {[os.path.basename(f) for f in b]}")

if __name__ == "__main__":
    main()
