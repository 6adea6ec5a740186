#!/usr/bin/env python3
"""Captures Triton kernels on the H200 for replay in CI (tests/recorded/triton/).

Run on the device machine (Triton, PyTorch and CuPy installed): compiles Triton kernels
(vector add, row softmax, layer norm, two f16 matmuls that Triton builds on wgmma, one
through TMA with device-side tensor maps, a flash-attention forward) for sm_90, saves each one's PTX, runs that very PTX
through the driver (cuModuleLoadData, as the harness's CUDA backend does) on inputs from a
seeded generator that tests/replay/triton_replay_test.cpp reproduces, and writes
  OUT/<name>.ptx      the PTX Triton generated
  OUT/<name>.out      the output buffer's raw bytes (little-endian f32)
  OUT/cases.txt       per kernel: launch geometry, shared memory, arguments, input generator
                      seeds, output hash (FNV-1a 64); and the special-register probe's values
Usage: python3 scripts/capture_triton.py OUTDIR [CASE...]   (CASE: only these kernels)
Ran on the H200 on 2026-12-03 (Triton 3.6.0) for vector_add, softmax and layernorm:
tests/recorded/triton/ holds what it wrote (the .out files left out: the hashes decide). The
matmul, matmul_masked and attention jobs ran there on 2026-12-05 (`JOBS=triton bash
scripts/device_batch.sh`), with layernorm again: its .out showed the contraction that the
simulator lacked (tests/recorded/triton/README.md). matmul_tma (device-side tensor maps in
Triton's global scratch, which the script then allocates zeroed and records as the `scratch`
buffer) ran on 2026-12-05 on an H100 the device tool lent.
"""
import os
import re
import sys
import traceback

import cupy as cp
import numpy as np
import torch
import triton
import triton.language as tl

M64 = (1 << 64) - 1


def inputs(seed, count):
    """f32 in [-4, 4), exact: splitmix64 of seed + (i+1) * golden, top 24 bits * 2^-21 - 4."""
    golden = np.uint64(0x9E3779B97F4A7C15)
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + golden * (np.arange(count, dtype=np.uint64) + np.uint64(1))
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return ((z >> np.uint64(40)).astype(np.float64) * 2.0**-21 - 4.0).astype(np.float32)


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & M64
    return h


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(in_ptr + row * stride + offs, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * stride + offs, num / den, mask=mask)


@triton.jit
def layernorm(x_ptr, y_ptr, w_ptr, b_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / n_cols
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(y_ptr + row * stride + offs, xc * rstd * w + b, mask=mask)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C (f32, M x N) = A (f16, M x K, row-major) @ B (f16, K x N, row-major)."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :],
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :],
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def matmul_tma(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr):
    """The same product through TMA: tensor descriptors that the kernel builds in its global
    scratch (tensormap.replace on device), tiles loaded by cp.async.bulk.tensor under mbarriers
    and C stored by a bulk tensor store. M, N, K: multiples of the tiles."""
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = a_desc.load([pid_m * BM, k0])
        b = b_desc.load([k0, pid_n * BN])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc)


@triton.jit
def attention(q_ptr, k_ptr, v_ptr, o_ptr, seq, scale, HEAD: tl.constexpr, BM: tl.constexpr,
              BN: tl.constexpr):
    """O = softmax(Q K^T * scale) V per (batch*head), online softmax in base 2 (flash attention
    forward); Q, K, V f16 [bh, seq, HEAD], O f32."""
    pid_m = tl.program_id(0)
    base = tl.program_id(1) * seq * HEAD
    rm = pid_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, HEAD)
    q = tl.load(q_ptr + base + rm[:, None] * HEAD + rd[None, :], mask=rm[:, None] < seq, other=0.0)
    m_i = tl.full((BM,), float("-inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, HEAD), tl.float32)
    qk_scale = scale * 1.4426950408889634
    for start in range(0, seq, BN):
        kv = start + rn
        k = tl.load(k_ptr + base + kv[None, :] * HEAD + rd[:, None], mask=kv[None, :] < seq,
                    other=0.0)
        qk = tl.dot(q, k) * qk_scale
        qk = tl.where(kv[None, :] < seq, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + base + kv[:, None] * HEAD + rd[None, :], mask=kv[:, None] < seq,
                    other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + base + rm[:, None] * HEAD + rd[None, :], acc, mask=rm[:, None] < seq)


def entry_params(ptx):
    """[(type, name)] of the .entry's parameters, in order."""
    m = re.search(r"\.entry\s+(\w+)\s*\((.*?)\)", ptx, re.S)
    params = []
    for p in m.group(2).split(","):
        words = p.split()
        if not words:
            continue
        params.append((words[1], words[-1]))
    return m.group(1), params


def run_ptx(ptx, entry, grid, block, shared, args):
    mod = cp.cuda.function.Module()
    mod.load(ptx.encode() + b"\0")
    f = mod.get_function(entry)
    if shared > 48 * 1024:
        # Above 48 KiB a kernel must opt in, as Triton's launcher does.
        attr = getattr(cp.cuda.driver, "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES", 8)
        cp.cuda.driver.funcSetAttribute(f.ptr, attr, shared)
    f(grid, block, tuple(args), shared_mem=shared)
    cp.cuda.runtime.deviceSynchronize()


def capture(out, lines, name, kernel, grid, buffers, scalars, output, constexprs, options=None):
    """buffers: [(name, seed or None, count[, "f16"])], args in order: buffers then scalars.
    An f16 buffer holds the seeded f32 inputs rounded to nearest even."""
    host = {}
    for buf in buffers:
        bname, seed, count = buf[:3]
        dtype = buf[3] if len(buf) > 3 else "f32"
        v = inputs(seed, count) if seed is not None else np.zeros(count, np.float32)
        host[bname] = v.astype(np.float16) if dtype == "f16" else v
    tensors = {k: torch.from_numpy(v.copy()).cuda() for k, v in host.items()}
    args = [tensors[b[0]] for b in buffers] + [v for _, _, v in scalars]
    compiled = kernel[grid](*args, **constexprs, **(options or {}))
    torch.cuda.synchronize()
    via_triton = tensors[output].cpu().numpy().tobytes()
    ptx = compiled.asm["ptx"]
    entry, params = entry_params(ptx)
    block = compiled.metadata.num_warps * 32
    shared = compiled.metadata.shared
    # The same PTX through the driver, the way the simulator will run it.
    dev = {k: cp.asarray(v) for k, v in host.items()}
    kargs, argdesc = [], []
    grid3 = tuple(grid) + (1,) * (3 - len(grid))
    # Triton's first hidden parameter is its global scratch: null unless the kernel asks for
    # some (device-side tensor descriptors), then global_scratch_size bytes per program,
    # zeroed, as its launcher allocates them.
    scratch_bytes = getattr(compiled.metadata, "global_scratch_size", 0) or 0
    scratch_words = (scratch_bytes * grid3[0] * grid3[1] * grid3[2] + 3) // 4
    scratch_given = False
    for i, (ptype, pname) in enumerate(params):
        if i < len(buffers):
            kargs.append(dev[buffers[i][0]])
            argdesc.append("buffer " + buffers[i][0])
        elif i < len(buffers) + len(scalars):
            kind, _, v = scalars[i - len(buffers)]
            kargs.append(np.int32(v) if kind == "s32" else np.float32(v))
            raw = np.int32(v).view(np.uint32) if kind == "s32" else np.float32(v).view(np.uint32)
            argdesc.append("%s %08x" % (kind, int(raw)))
        elif scratch_words and not scratch_given:
            dev["scratch"] = cp.zeros(scratch_words, dtype=cp.float32)
            kargs.append(dev["scratch"])
            argdesc.append("buffer scratch")
            scratch_given = True
        else:
            kargs.append(np.uint64(0))  # a hidden scratch pointer Triton passes as null
            argdesc.append("null " + pname)
    run_ptx(ptx, entry, grid3, (block, 1, 1), shared, kargs)
    result = cp.asnumpy(dev[output]).tobytes()
    with open(os.path.join(out, name + ".ptx"), "w") as f:
        f.write(ptx)
    with open(os.path.join(out, name + ".out"), "wb") as f:
        f.write(result)
    lines.append("case %s" % name)
    lines.append("ptx %s.ptx" % name)
    lines.append("entry %s" % entry)
    lines.append("grid %d %d %d" % grid3)
    lines.append("block %d 1 1" % block)
    lines.append("shared %d" % shared)
    for buf in buffers:
        bname, seed, count = buf[:3]
        dtype = buf[3] if len(buf) > 3 else "f32"
        lines.append("buffer %s %s %d %s" % (bname, dtype, count,
                                             "zero" if seed is None else "seed %d" % seed))
    if scratch_given:
        lines.append("buffer scratch f32 %d zero" % scratch_words)
    for a in argdesc:
        lines.append("arg " + a)
    lines.append("output %s fnv1a64 %016x data %s.out" % (output, fnv1a64(result), name))
    lines.append("triton_run_matches %d" % int(via_triton == result))
    lines.append("end")
    print(name, entry, "params", len(params), "block", block, "shared", shared,
          "same as triton's run:", via_triton == result, flush=True)


PROBE = r"""
.version 9.0
.target sm_90
.address_size 64
.visible .entry probe(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 sh[40];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %reserved_smem_offset_begin;
  mov.u32 %r2, %reserved_smem_offset_end;
  mov.u32 %r3, %reserved_smem_offset_cap;
  mov.u32 %r4, %reserved_smem_offset_0;
  mov.u32 %r5, %reserved_smem_offset_1;
  mov.u32 %r6, %aggr_smem_size;
  mov.u32 %r7, %total_smem_size;
  mov.u32 %r8, %dynamic_smem_size;
  mov.u32 %r9, sh;
  mov.u32 %r10, WARP_SZ;
  mov.u32 %r11, %nclusterid.x;
  mov.u32 %r12, %cluster_nctaid.x;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};
  st.global.v4.u32 [%rd1+32], {%r9, %r10, %r11, %r12};
  ret;
}
"""


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    lines = ["warpsim-triton 1", "triton %s torch %s device %s" % (
        triton.__version__, torch.__version__, torch.cuda.get_device_name())]
    n = 98765
    rows, cols = 64, 1000
    jobs = [
        ("vector_add", vector_add, (triton.cdiv(n, 1024),),
         [("x", 11, n), ("y", 12, n), ("out", None, n)], [("s32", "n", n)], "out"),
        ("softmax", softmax, (rows,), [("out", None, rows * cols), ("x", 21, rows * cols)],
         [("s32", "stride", cols), ("s32", "n_cols", cols)], "out"),
        ("layernorm", layernorm, (rows,),
         [("x", 31, rows * cols), ("y", None, rows * cols), ("w", 32, cols), ("b", 33, cols)],
         [("s32", "stride", cols), ("s32", "n_cols", cols), ("f32", "eps", 1e-5)], "y"),
    ]
    jobs = [j + ({"BLOCK": 1024}, None) for j in jobs]
    # Two matmuls: an aligned one (128x128x64 tiles, 8 warps: two warpgroups of wgmma) and one
    # whose edges are masked (zero-filled loads) with 64x64x32 tiles and 4 warps.
    M, N, K = 256, 256, 256
    jobs.append(("matmul", matmul, (M // 128, N // 128),
                 [("a", 41, M * K, "f16"), ("b", 42, K * N, "f16"), ("c", None, M * N)],
                 [("s32", "M", M), ("s32", "N", N), ("s32", "K", K)], "c",
                 {"BM": 128, "BN": 128, "BK": 64}, {"num_warps": 8, "num_stages": 3}))
    M2, N2, K2 = 200, 136, 96
    jobs.append(("matmul_masked", matmul, (triton.cdiv(M2, 64), triton.cdiv(N2, 64)),
                 [("a", 43, M2 * K2, "f16"), ("b", 44, K2 * N2, "f16"), ("c", None, M2 * N2)],
                 [("s32", "M", M2), ("s32", "N", N2), ("s32", "K", K2)], "c",
                 {"BM": 64, "BN": 64, "BK": 32}, {"num_warps": 4, "num_stages": 2}))
    bh, seq, head = 2, 200, 64
    jobs.append(("attention", attention, (triton.cdiv(seq, 64), bh),
                 [("q", 51, bh * seq * head, "f16"), ("k", 52, bh * seq * head, "f16"),
                  ("v", 53, bh * seq * head, "f16"), ("o", None, bh * seq * head)],
                 [("s32", "seq", seq), ("f32", "scale", 0.125)], "o",
                 {"HEAD": head, "BM": 64, "BN": 64}, {"num_warps": 4, "num_stages": 2}))
    # The TMA matmul: descriptors built on the device (tensormap.replace in global scratch).
    jobs.append(("matmul_tma", matmul_tma, (M // 128, N // 128),
                 [("a", 45, M * K, "f16"), ("b", 46, K * N, "f16"), ("c", None, M * N)],
                 [("s32", "M", M), ("s32", "N", N), ("s32", "K", K)], "c",
                 {"BM": 128, "BN": 128, "BK": 64}, {"num_warps": 8, "num_stages": 3}))
    # Triton asks the program for the global scratch that device-side descriptors live in.
    triton.set_allocator(
        lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    only = set(sys.argv[2:])
    for name, kernel, grid, buffers, scalars, output, constexprs, options in jobs:
        if only and name not in only:
            continue
        try:
            capture(out, lines, name, kernel, grid, buffers, scalars, output, constexprs, options)
        except Exception:
            traceback.print_exc()
    try:
        probe = cp.zeros(12, dtype=cp.uint32)
        run_ptx(PROBE, "probe", (1, 1, 1), (1, 1, 1), 96, [probe])
        lines.append("probe " + " ".join("%d" % v for v in cp.asnumpy(probe)))
    except Exception:
        traceback.print_exc()
    with open(os.path.join(out, "cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
