#!/usr/bin/env python3
"""What ptxas makes of mma.sync.aligned.m8n8k4 with f16 A and B for sm_90, checked against
warpsim's model (isa/insns/mma_m8n8k4_f16.h).

sm_90 has no tensor-core instruction of this shape: ptxas replaces it with a call to a routine
__cuda_sm_8x_mma_<a>_<b>_<d>_f16_f16_<c> of plain SASS (SHFL.IDX, HADD2.F32, FMUL, FFMA, FADD,
F2FP). This script writes one kernel per form (A and B .row/.col, D.C in f16.f16, f32.f16,
f32.f32; ptxas refuses f16.f32), compiles it with `ptxas -arch=sm_90`, disassembles it with
nvdisasm, runs the routine symbolically for the 32 lanes (every input a symbol: register, lane,
half) and compares each D element's expression with the model's: the same layouts and the same
operations on the same elements in the same order (FADD's operands may come in either order;
that only picks which NaN payload a NaN-canonicalising FADD drops).

Usage: python3 scripts/probes/mma/m8n8k4_sass.py [NVDISASM]
  (NVDISASM defaults to `nvdisasm` on PATH; `pip download nvidia-cuda-nvdisasm` has one.)
Prints one line per form and exits 1 when any element differs.
"""
import os
import re
import subprocess
import sys
import tempfile

ZERO = ('zero',)


def kernel_ptx(al, bl, d, c):
    """A kernel that loads A, B, C from global memory (per thread: a0 a1 b0 b1 at offsets
    0..12, C's registers from 16), runs the mma and stores D's registers from offset 64."""
    nd, nc = (4 if d == 'f16' else 8), (4 if c == 'f16' else 8)
    dt, ct = ('b32' if d == 'f16' else 'f32'), ('b32' if c == 'f16' else 'f32')
    s = '.version 8.0\n.target sm_90\n.address_size 64\n'
    s += '.visible .entry k(.param .u64 p) {\n .reg .b64 %rd<4>; .reg .b32 %a<2>; .reg .b32 %b<2>;\n'
    s += f' .reg .{ct} %c<8>; .reg .{dt} %d<8>; .reg .b32 %t;\n'
    s += ' ld.param.u64 %rd1, [p];\n mov.u32 %t, %tid.x; mul.wide.u32 %rd2, %t, 128;\n'
    s += ' add.u64 %rd1, %rd1, %rd2;\n'
    for i in range(2):
        s += f' ld.global.b32 %a{i}, [%rd1+{4 * i}];\n ld.global.b32 %b{i}, [%rd1+{8 + 4 * i}];\n'
    for i in range(nc):
        s += f' ld.global.{ct} %c{i}, [%rd1+{16 + 4 * i}];\n'
    dl = ','.join(f'%d{i}' for i in range(nd))
    cl = ','.join(f'%c{i}' for i in range(nc))
    s += f' mma.sync.aligned.m8n8k4.{al}.{bl}.{d}.f16.f16.{c} {{{dl}}}, {{%a0,%a1}}, {{%b0,%b1}}, {{{cl}}};\n'
    for i in range(nd):
        s += f' st.global.{dt} [%rd1+{64 + 4 * i}], %d{i};\n'
    return s + ' ret;\n}\n'


def parse(sass):
    ins, labels, pending = [], {}, None
    for line in sass.splitlines():
        m = re.match(r'^(\$__internal\S*|k):\s*$', line)
        if m:
            pending = m.group(1)
            continue
        m = re.match(r'\s*/\*([0-9a-f]{4})\*/\s+(.*?)\s*;', line)
        if m:
            if pending:
                labels[pending] = len(ins)
                pending = None
            ins.append(m.group(2))
    return ins, labels


def run(sass, c_half):
    """Each output word's expression per (lane, D register)."""
    ins, labels = parse(sass)
    R = [dict() for _ in range(32)]
    P = [dict() for _ in range(32)]
    pc, stack, outs = labels['k'], [], {}

    def val(l, tok):
        tok = tok.replace('.reuse', '')
        if tok in ('RZ', '-RZ'):
            return 0
        return R[l][tok] if tok.startswith('R') else int(tok, 16)

    while True:
        text = ins[pc]
        op, _, rest = text.partition(' ')
        args = [x.strip() for x in rest.split(',')] if rest else []
        nxt = pc + 1
        if op == 'EXIT':
            return outs
        if op == 'SHFL.IDX':  # every lane reads its source lane's register before any writes
            assert args[0] == 'PT' and args[4] == '0x1f', text
            snap = [dict(r) for r in R]
            for l in range(32):
                src = val(l, args[3])
                R[l][args[1]] = snap[src & 31][args[2]]
        for l in range(32):
            if op in ('LDC', 'LDC.64', 'ULDC.64', 'IMAD.WIDE.U32', 'SHFL.IDX', 'CALL.REL.NOINC',
                      'RET.REL.NODEC', 'BRA', 'NOP'):
                pass
            elif op == 'S2R':
                R[l][args[0]] = l if args[1] == 'SR_LANEID' else None
            elif op == 'LDG.E':
                m = re.search(r'\+0x([0-9a-f]+)\]', args[1])
                off = int(m.group(1), 16) if m else 0
                if off < 16:
                    nm = ['a0', 'a1', 'b0', 'b1'][off // 4]
                    R[l][args[0]] = ('h', (nm, l, 0), (nm, l, 1))
                else:
                    nm = 'c%d' % ((off - 16) // 4)
                    R[l][args[0]] = ('h', (nm, l, 0), (nm, l, 1)) if c_half else ('in', nm, l)
            elif op == 'STG.E':
                off = int(re.search(r'\+0x([0-9a-f]+)\]', args[0]).group(1), 16)
                outs[(l, (off - 0x40) // 4)] = R[l][args[1]]
            elif op == 'MOV':
                R[l][args[0]] = val(l, args[1])
            elif op == 'HFMA2.MMA':
                assert args[1:] == ['-RZ', 'RZ', '0', '0'], text
                R[l][args[0]] = 0
            elif op == 'LOP3.LUT':
                assert args[3] == 'RZ', text
                x, y, lut = val(l, args[1]), val(l, args[2]), int(args[4], 16)
                R[l][args[0]] = {0xc0: x & y, 0x3c: x ^ y}[lut] & 0xffffffff
            elif op == 'IADD3':
                R[l][args[0]] = (val(l, args[1]) + val(l, args[2]) + val(l, args[3])) & 0xffffffff
            elif op == 'SHF.R.U32.HI':
                assert args[1] == 'RZ', text
                R[l][args[0]] = val(l, args[3]) >> int(args[2], 16)
            elif op == 'ISETP.NE.U32.AND':
                P[l][args[0]] = val(l, args[2]) != int(args[3], 16)
            elif op == 'SEL':
                p = args[3]
                take = P[l][p.lstrip('!')] ^ p.startswith('!')
                R[l][args[0]] = val(l, args[1]) if take else val(l, args[2])
            elif op == 'PRMT':  # half-word selections only
                x, y = val(l, args[1]), val(l, args[3])
                R[l][args[0]] = {'0x5410': ('h', x[1], y[1]), '0x7632': ('h', x[2], y[2])}[args[2]]
            elif op == 'HADD2.F32':
                assert args[1] == '-RZ', text
                reg, half = args[2].replace('.reuse', '').split('.')
                R[l][args[0]] = ('cvt', val(l, reg)[1 if half == 'H0_H0' else 2])
            elif op == 'FFMA':
                z = lambda t: ZERO if t == 'RZ' else val(l, t)
                R[l][args[0]] = ('fma', z(args[1]), z(args[2]), z(args[3]))
            elif op == 'FMUL':
                R[l][args[0]] = ('mul', val(l, args[1]), val(l, args[2]))
            elif op == 'FADD':
                R[l][args[0]] = ('add', val(l, args[1]), val(l, args[2]))
            elif op == 'F2FP.F16.F32.PACK_AB':  # low half from the second source
                R[l][args[0]] = ('h', ('f16', val(l, args[2])), ('f16', val(l, args[1])))
            else:
                raise SystemExit('unknown SASS: ' + text)
        if op == 'CALL.REL.NOINC':
            stack.append(nxt)
            nxt = labels[re.search(r'\((\S+)\)', text).group(1)]
        elif op == 'RET.REL.NODEC':
            nxt = stack.pop()
        pc = nxt


# ---- the model (isa/insns/mma_m8n8k4_f16.h) ------------------------------------------------
def pair(lane):
    return (lane >> 2) & 3


def upper(lane):
    return 4 if lane >= 16 else 0


def a_at(col, lane, i):  # (row, k)
    return (i + upper(lane), lane % 4) if col else (lane % 4 + upper(lane), i)


def b_at(col, lane, i):  # (k, column)
    return (i, lane % 4 + upper(lane)) if col else (lane % 4, i + upper(lane))


def c_at(f16, lane, i):  # (row, column)
    if f16:
        return (lane % 4 + upper(lane), i)
    return ((lane & 1) + (i & 2) + upper(lane), (i & 1) + (lane & 2) + (i & 4))


def named(e, a_col, b_col):
    """The expression with every input symbol replaced by its matrix element."""
    t = e[0]
    if t == 'cvt':
        nm, lane, h = e[1]
        i = int(nm[1]) * 2 + h
        if nm[0] == 'a':
            return ('A', pair(lane)) + a_at(a_col, lane, i)
        if nm[0] == 'b':
            return ('B', pair(lane)) + b_at(b_col, lane, i)
        return ('C', pair(lane)) + c_at(True, lane, int(nm[1:]) * 2 + h)
    if t == 'in':
        return ('C', pair(e[2])) + c_at(False, e[2], int(e[1][1:]))
    if t == 'zero':
        return e
    return (t,) + tuple(named(x, a_col, b_col) for x in e[1:])


def model(q, r, c, d_f16):
    A = lambda k: ('A', q, r, k)
    B = lambda k: ('B', q, k, c)
    if not d_f16:
        s = ZERO
        for k in range(4):
            s = ('fma', A(k), B(k), s)
        return ('add', ('C', q, r, c), s)
    lo = ('fma', A(1), B(1), ('mul', A(0), B(0)))
    hi = ('fma', A(3), B(3), ('mul', A(2), B(2)))
    return ('f16', ('add', ('add', ('C', q, r, c), lo), hi))


def canon(e):  # FADD's and FMUL's operands in a fixed order
    if isinstance(e, tuple) and e and e[0] in ('add', 'mul'):
        return (e[0],) + tuple(sorted((canon(e[1]), canon(e[2])), key=repr))
    if isinstance(e, tuple) and e and e[0] in ('fma', 'f16'):
        return (e[0],) + tuple(canon(x) for x in e[1:])
    return e


def main():
    nvdisasm = sys.argv[1] if len(sys.argv) > 1 else 'nvdisasm'
    bad_forms = 0
    with tempfile.TemporaryDirectory() as tmp:
        for al in ('row', 'col'):
            for bl in ('row', 'col'):
                for d, c in (('f16', 'f16'), ('f32', 'f16'), ('f32', 'f32')):
                    ptx, cubin = os.path.join(tmp, 'k.ptx'), os.path.join(tmp, 'k.cubin')
                    with open(ptx, 'w') as f:
                        f.write(kernel_ptx(al, bl, d, c))
                    subprocess.run(['ptxas', '-arch=sm_90', ptx, '-o', cubin], check=True)
                    sass = subprocess.run([nvdisasm, '-c', cubin], check=True,
                                          capture_output=True, text=True).stdout
                    routine = re.search(r'__cuda_sm_8x_mma_\w+', sass).group(0)
                    outs = run(sass, c == 'f16')
                    d_f16 = d == 'f16'
                    bad = n = 0
                    for (lane, reg), e in outs.items():
                        parts = [(e[1], 2 * reg), (e[2], 2 * reg + 1)] if d_f16 else [(e, reg)]
                        for x, i in parts:
                            r, col = c_at(d_f16, lane, i)
                            n += 1
                            got = canon(named(x, al == 'col', bl == 'col'))
                            if got != canon(model(pair(lane), r, col, d_f16)):
                                bad += 1
                    bad_forms += bad != 0
                    print(f'{al}.{bl}.{d}.f16.f16.{c}: {routine}: {n - bad} of {n} D elements '
                          f'as the model computes them')
    sys.exit(1 if bad_forms else 0)


if __name__ == '__main__':
    main()
