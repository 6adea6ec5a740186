"""Runs the integer SASS that ptxas emits for one PTX instruction, on one thread.

sm_90 has no video datapath: ptxas expands vadd ... vset, vadd2 ... vset4 into ordinary integer
SASS (PRMT, IADD3, IMAD.WIDE, SHF, ISETP, SEL, LOP3, IDP), and that expansion is what the H200
computes. This emulator covers the opcodes those expansions use (an unknown one raises), so that
the chip's semantics of any video form can be evaluated on this machine:

    compile_many([...])            # one ptxas run for many instructions
    run('vadd.u32.u32.u32.sat %r0,%r1.b0,%r2;', {'%r1': 0xff, '%r2': 1})

Each instruction is compiled into a kernel that loads every %rN it names from global memory,
executes it and stores its destination. Needs ptxas (PATH) and nvdisasm ($NVDISASM, default the
nvidia-cuda-nvdisasm wheel's binary in /tmp/mufu). Checked against the H200's own results:
scripts/video_sass_table.py --check tests/data/video_h200_vectors.txt.
"""
import os
import re
import subprocess
import tempfile

NVDISASM = os.environ.get('NVDISASM', '/tmp/mufu/pylib/nvidia/cu13/bin/nvdisasm')
M32 = 0xFFFFFFFF
CACHE = {}

def regs_of(ins):
    return list(dict.fromkeys(re.findall(r'%r\d+', ins)))

def compile_sass(ins):
    """The SASS lines of `ins`'s kernel and the registers it loads, in load order."""
    compile_many([ins])
    return CACHE[ins]

def kernel_ptx(name, ins):
    rs = regs_of(ins)
    loads = ''.join(f' ld.global.u32 {r},[%p+{4*i}];\n' for i, r in enumerate(rs))
    dst = re.match(r'\s*\S+\s+(%r\d+)', ins).group(1)
    return f""".visible .entry {name}(.param .u64 p){{
 .reg .u32 {','.join(rs)}; .reg .u64 %p;
 ld.param.u64 %p,[p];
{loads} {ins}
 st.global.u32 [%p+{4*len(rs)}],{dst};
 ret;
}}
"""

def compile_many(insns):
    """Compiles the instructions not yet cached, one kernel each, in one ptxas run."""
    todo = [i for i in dict.fromkeys(insns) if i not in CACHE]
    if not todo: return
    ptx = ".version 8.0\n.target sm_90\n.address_size 64\n" + ''.join(
        kernel_ptx(f'k{n}', i) for n, i in enumerate(todo))
    d = tempfile.mkdtemp(prefix='video_sass')
    open(f'{d}/x.ptx', 'w').write(ptx)
    subprocess.run(['ptxas', '-arch=sm_90', f'{d}/x.ptx', '-o', f'{d}/x.cubin'], check=True)
    out = subprocess.run([NVDISASM, '-c', f'{d}/x.cubin'], check=True, capture_output=True, text=True).stdout
    cur = None; funcs = {}
    for l in out.splitlines():
        m = re.match(r'\.text\.(k\d+):', l)
        if m: cur = funcs.setdefault(int(m.group(1)[1:]), []); continue
        m = re.match(r'\s+/\*[0-9a-f]{4}\*/\s+(.*?)\s*;', l)
        if m and cur is not None: cur.append(m.group(1))
    for n, i in enumerate(todo):
        CACHE[i] = (funcs[n], regs_of(i))

def sx(v, bits=32):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v

class Emu:
    def __init__(s):
        s.R = {}; s.P = {'PT': True, 'UPT': True}; s.UR = {}; s.mem = {}
    def rv(s, t):
        t = t.replace('.reuse', '')
        neg = inv = False
        if t.startswith('-'): neg = True; t = t[1:]
        if t.startswith('~'): inv = True; t = t[1:]
        if t == 'RZ': v = 0
        elif t == 'URZ': v = 0
        elif re.fullmatch(r'R\d+', t): v = s.R.get(int(t[1:]), 0)
        elif re.fullmatch(r'UR\d+', t): v = s.UR.get(int(t[2:]), 0)
        elif re.fullmatch(r'-?0x[0-9a-f]+|-?\d+', t): v = int(t, 0) & M32
        else: raise ValueError('operand ' + t)
        if inv: v = ~v & M32
        if neg: v = (-v) & M32
        return v
    def rv64(s, t):
        t = t.replace('.reuse', '')
        if t.startswith('-'): return (-s.rv64(t[1:])) & ((1 << 64) - 1)
        if t in ('RZ', 'URZ'): return 0
        if t.startswith('UR'):
            n = int(t[2:]); return s.UR.get(n, 0) | (s.UR.get(n + 1, 0) << 32)
        n = int(t[1:]); return s.R.get(n, 0) | (s.R.get(n + 1, 0) << 32)
    def pv(s, t):
        neg = t.startswith('!'); t = t.lstrip('!')
        v = s.P.get(t, False)
        return (not v) if neg else v
    def wr(s, t, v):
        if t in ('RZ', 'URZ'): return
        if t.startswith('UR'): s.UR[int(t[2:])] = v & M32
        else: s.R[int(t[1:])] = v & M32
    def wr64(s, t, v):
        if t.startswith('UR'): n = int(t[2:]); s.UR[n] = v & M32; s.UR[n + 1] = v >> 32
        else: n = int(t[1:]); s.R[n] = v & M32; s.R[n + 1] = v >> 32
    def wp(s, t, v):
        if t not in ('PT', 'UPT'): s.P[t] = bool(v)

    def step(s, line):
        m = re.match(r'@(!?U?P\d|!?U?PT)\s+(.*)', line)
        if m:
            if not s.pv(m.group(1)): return
            line = m.group(2)
        op, _, rest = line.partition(' ')
        ops = [o.strip() for o in rest.split(',')] if rest else []
        base = op.split('.')
        mods = set(base[1:]); name = base[0]
        if name.startswith('U') and name[1:] in ('PRMT', 'IADD3', 'SEL', 'LOP3', 'SHF', 'IMAD', 'ISETP', 'IMNMX', 'VIMNMX', 'MOV', 'LEA', 'IABS', 'FLO', 'POPC', 'BMSK'):
            name = name[1:]
        if name in ('EXIT', 'BRA', 'NOP', 'LDC', 'ULDC'): return
        if name == 'LDG':
            m = re.search(r'\[R\d+\.64(\+0x([0-9a-f]+))?\]', ops[1])
            off = int(m.group(2), 16) if m.group(2) else 0
            s.wr(ops[0], s.mem[off]); return
        if name == 'STG':
            m = re.search(r'\[R\d+\.64(\+0x([0-9a-f]+))?\]', ops[0])
            off = int(m.group(2), 16) if m.group(2) else 0
            s.mem[off] = s.rv(ops[1]); return
        if name in ('MOV', 'UMOV'):
            s.wr(ops[0], s.rv(ops[1])); return
        if name == 'PRMT':
            a, sel, b = s.rv(ops[1]), s.rv(ops[2]), s.rv(ops[3])
            assert mods == set(), op
            x = a | (b << 32); r = 0
            for i in range(4):
                nb = (sel >> (4 * i)) & 0xF
                byte = (x >> (8 * (nb & 7))) & 0xFF
                if nb & 8: byte = 0xFF if byte & 0x80 else 0
                r |= byte << (8 * i)
            s.wr(ops[0], r); return
        if name == 'IADD3':
            dst = ops[0]; preds = []; i = 1
            while re.match(r'!?U?P', ops[i]):
                preds.append(ops[i]); i += 1
            # -x enters the carry chain as ~x + 1 (so x - 0 carries out, as the hardware's does)
            def term(t):
                t = t.replace('.reuse', '')
                if t.startswith('-'): return (~s.rv(t[1:]) & M32) + 1
                return s.rv(t)
            a, b, c = term(ops[i]), term(ops[i + 1]), term(ops[i + 2])
            cin = ops[i + 3:]
            if 'X' in mods:
                tot = a + b + c + sum(1 for p in cin if s.pv(p))
            else:
                tot = a + b + c
            # negated operands: -x is ~x + 1, carries counted that way
            s.wr(dst, tot)
            carry = tot >> 32
            if len(preds) == 1: s.wp(preds[0], carry & 1)
            elif len(preds) == 2:
                s.wp(preds[0], carry >= 1); s.wp(preds[1], carry >= 2)
            return
        if name == 'LEA':
            if 'HI' in mods:
                # LEA.HI[.X][.SX32] d, a, b, [hi,] shift [, P]
                a = s.rv(ops[1]); b = s.rv(ops[2])
                if 'SX32' in mods:
                    hi = M32 if a >> 31 else 0; k = 3
                else:
                    hi = s.rv(ops[3]); k = 4
                sh = s.rv(ops[k]); cin = s.pv(ops[k + 1]) if 'X' in mods else 0
                v = (((hi << 32) | a) << sh) >> 32
                s.wr(ops[0], b + v + cin); return
            a, b, sh = s.rv(ops[1]), s.rv(ops[2]), s.rv(ops[3])
            s.wr(ops[0], (a << sh) + b); return
        if name == 'IMAD':
            if 'MOV' in mods: s.wr(ops[0], s.rv(ops[3])); return
            if 'IADD' in mods: s.wr(ops[0], s.rv(ops[1]) * s.rv(ops[2]) + s.rv(ops[3])); return
            if 'SHL' in mods: s.wr(ops[0], s.rv(ops[1]) * s.rv(ops[2]) + s.rv(ops[3])); return
            if 'WIDE' in mods:
                a, b = s.rv(ops[1]), s.rv(ops[2])
                if 'U32' not in mods: a, b = sx(a), sx(b)
                v = (a * b + s.rv64(ops[3])) & ((1 << 64) - 1)
                s.wr64(ops[0], v); return
            if 'HI' in mods:
                a, b = s.rv(ops[1]), s.rv(ops[2])
                if 'U32' not in mods: a, b = sx(a), sx(b)
                cin = s.pv(ops[4]) if 'X' in mods else 0
                s.wr(ops[0], ((a * b) >> 32) + s.rv(ops[3]) + cin); return
            if 'X' in mods:
                s.wr(ops[0], s.rv(ops[1]) * s.rv(ops[2]) + s.rv(ops[3]) + s.pv(ops[4])); return
            assert mods <= {'U32'}, op
            s.wr(ops[0], s.rv(ops[1]) * s.rv(ops[2]) + s.rv(ops[3])); return
        if name == 'ISETP':
            cmpop = [m for m in ('EQ', 'NE', 'LT', 'LE', 'GT', 'GE') if m in mods][0]
            comb = [m for m in ('AND', 'OR', 'XOR') if m in mods][0]
            a, b = s.rv(ops[2]), s.rv(ops[3])
            if 'U32' not in mods: a, b = sx(a), sx(b)
            lt, eq = a < b, a == b
            res = {'EQ': eq, 'NE': not eq, 'LT': lt, 'LE': lt or eq, 'GT': not (lt or eq), 'GE': not lt}[cmpop]
            if 'EX' in mods:
                low = s.pv(ops[5])
                if cmpop == 'EQ': res = eq and low
                elif cmpop == 'NE': res = (not eq) or low
                else: res = (res and not eq) or (eq and low)
            p = s.pv(ops[4])
            res = {'AND': res and p, 'OR': res or p, 'XOR': res != p}[comb]
            assert ops[1] in ('PT', 'UPT'), line
            s.wp(ops[0], res)
            return
        if name == 'LOP3':
            i = 1; pd = None
            if re.match(r'U?P', ops[0]): pd = ops[0]; dst = ops[1]; i = 2
            else:
                dst = ops[0]
                if re.match(r'U?P', ops[1]) and ops[1] not in ('PT', 'UPT'): pd = ops[1]; i = 2
            a, b, c = s.rv(ops[i]), s.rv(ops[i + 1]), s.rv(ops[i + 2]); lut = s.rv(ops[i + 3])
            r = 0
            for bit in range(32):
                idx = (((a >> bit) & 1) << 2) | (((b >> bit) & 1) << 1) | ((c >> bit) & 1)
                r |= ((lut >> idx) & 1) << bit
            if re.match(r'U?R', dst): s.wr(dst, r)
            if pd: s.wp(pd, r != 0)
            return
        if name == 'SEL':
            s.wr(ops[0], s.rv(ops[1]) if s.pv(ops[3]) else s.rv(ops[2])); return
        if name == 'SHF':
            d, lo, sh, hi = ops
            lo, sh, hi = s.rv(lo), s.rv(sh), s.rv(hi)
            wide = 64 if ('U64' in mods or 'S64' in mods) else 32
            signed = 'S32' in mods or 'S64' in mods
            if 'W' in mods: sh &= wide - 1
            else: sh = min(sh, wide)
            if 'L' in mods:
                v = (((hi << 32) | lo) << sh)
            else:
                if wide == 32:
                    # 32-bit right shifts take hi only (the .HI form) or the funnel
                    x = (sx(hi) << 32 | lo) if signed else ((hi << 32) | lo)
                else:
                    x = (sx(hi) << 32 | lo) if signed else ((hi << 32) | lo)
                v = x >> sh
            r = (v >> 32) if 'HI' in mods else v
            s.wr(d, r); return
        if name in ('IMNMX', 'VIMNMX'):
            a, b = s.rv(ops[1]), s.rv(ops[2])
            ua = a; ub = b
            if 'U32' not in mods: a, b = sx(a), sx(b)
            mn = ops[3] if len(ops) > 3 else None
            takemin = s.pv(mn)
            r = min(a, b) if takemin else max(a, b)
            s.wr(ops[0], r); return
        if name == 'I2I':
            tys = [m for m in base[1:] if m[0] in 'US' and m[1:].isdigit()]
            dt, st = tys[0], tys[1]
            v = s.rv(ops[1]); v = sx(v, int(st[1:])) if st[0] == 'S' else v & ((1 << int(st[1:])) - 1)
            bits = int(dt[1:])
            lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if dt[0] == 'S' else (0, (1 << bits) - 1)
            assert 'SAT' in mods, line
            s.wr(ops[0], min(max(v, lo), hi)); return
        if name == 'IDP':
            # IDP.4A.Ua.Ub d, a, b, c: c + sum of the four byte products; .2A.LO/.HI: halves of a
            # times bytes of b (low or high pair).
            a, b, c = s.rv(ops[1]), s.rv(ops[2]), s.rv(ops[3])
            tys = [m for m in base[1:] if m in ('U8', 'S8', 'U16', 'S16')]
            def el(v, i, t):
                w = int(t[1:]); x = (v >> (w * i)) & ((1 << w) - 1)
                return sx(x, w) if t[0] == 'S' else x
            if '4A' in mods:
                tot = c + sum(el(a, i, tys[0]) * el(b, i, tys[1]) for i in range(4))
            else:
                off = 2 if 'HI' in mods else 0
                tot = c + sum(el(a, i, tys[0]) * el(b, i + off, tys[1]) for i in range(2))
            s.wr(ops[0], tot); return
        if name == 'VABSDIFF4':
            # VABSDIFF4.U8[.ACC] d, a, b, c: the four bytes' |a_i - b_i|, or (.ACC) their sum plus c
            a, b, c = s.rv(ops[1]), s.rv(ops[2]), s.rv(ops[3])
            assert 'U8' in mods, line
            diffs = [abs(((a >> (8 * i)) & 0xFF) - ((b >> (8 * i)) & 0xFF)) for i in range(4)]
            if 'ACC' in mods:
                s.wr(ops[0], c + sum(diffs))
            else:
                s.wr(ops[0], sum(x << (8 * i) for i, x in enumerate(diffs)))
            return
        if name == 'IABS':
            s.wr(ops[0], abs(sx(s.rv(ops[1])))); return
        if name == 'VIADD':
            s.wr(ops[0], s.rv(ops[1]) + s.rv(ops[2])); return
        if name == 'ISCADD':
            s.wr(ops[0], (s.rv(ops[1]) << s.rv(ops[3])) + s.rv(ops[2])); return
        if name == 'FLO':
            v = s.rv(ops[1]); s.wr(ops[0], v.bit_length() - 1 if v else M32); return
        if name in ('POPC',):
            s.wr(ops[0], bin(s.rv(ops[1])).count('1')); return
        if name == 'BMSK':
            s.wr(ops[0], ((1 << s.rv(ops[2])) - 1) << s.rv(ops[1])); return
        raise NotImplementedError(line)

def run(ins, values):
    """values: dict reg name -> u32. Returns the destination's value."""
    lines, rs = compile_sass(ins)
    e = Emu()
    for i, r in enumerate(rs): e.mem[4 * i] = values.get(r, 0)
    for l in lines: e.step(l)
    return e.mem[4 * len(rs)]
