"""A table of what the H200 computes for every video instruction form.

    python3 scripts/video_sass_table.py SEED PER_FORM [dense] > tests/data/video_sass_table.txt
    python3 scripts/video_sass_table.py --check tests/data/video_h200_vectors.txt

The forms: every type combination of vadd vsub vabsdiff vmin vmax vshl vshr vset with and
without .sat, with each secondary operation and each merge destination (.b0-.b3, .h0, .h1),
shift modes, comparisons; vmad with every type combination, .sat, .po, .shr7/.shr15 and each
negation; the SIMD forms with masks and selectors; a few immediate operands. Operand selectors
are random (seeded), `dense` makes whole words likelier. Each form gets PER_FORM input vectors
(edge values likelier), evaluated on the SASS that ptxas emits for it (scripts/sass_int_emu.py).
--check replays the chip's recorded results through the same emulator.
"""
import itertools
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sass_int_emu as sassemu


def check(path):
    """Each recorded chip result (`alone, GPU X`) against the emulated SASS; returns failures."""
    ok = bad = 0
    for line in open(path):
        if line.startswith('#') or '`' not in line:
            continue
        ins = re.search(r'`([^`]*)`', line).group(1)
        vals = {k: int(v, 16) for k, v in re.findall(r'(%[rp]\d+) = (0x[0-9a-f]+)', line.split('`')[2].split(':')[0])}
        gpu = int(re.search(r'alone, GPU (0x[0-9a-f]+)', line).group(1), 16)
        on = True
        g = re.match(r'@(!?)(%p\d+)\s+(.*)', ins)
        if g:
            on = (vals[g.group(2)] != 0) != (g.group(1) == '!')
            ins = g.group(3)
        if not ins.startswith('v'):
            continue  # the file keeps one cvt line; it is no video instruction
        dst = re.match(r'\s*\S+\s+(%r\d+)', ins).group(1)
        r = sassemu.run(ins, vals) if on else vals[dst]
        if r == gpu:
            ok += 1
        else:
            bad += 1
            print(f'differs: {ins} {vals}: chip 0x{gpu:x}, SASS 0x{r:x}')
    print(f'{ok} agree, {bad} differ')
    return bad


if len(sys.argv) > 2 and sys.argv[1] == '--check':
    sys.exit(1 if check(sys.argv[2]) else 0)
rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
T = ['u32', 's32']
EDGE = [0, 1, 2, 0x7f, 0x80, 0x81, 0xfe, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff,
        0x80000000, 0x80000001, 0xfffffffe, 0xffffffff]
def val():
    k = rng.random()
    if k < 0.3: return rng.choice(EDGE)
    if k < 0.6: return sum(rng.choice([0, 0x7f, 0x80, 0xff, 1, 0xfe, rng.randrange(256)]) << (8 * i) for i in range(4))
    return rng.getrandbits(32)
def shift():
    return rng.choice([0, 1, 7, 8, 15, 16, 31, 32, 33, 40, 63, 64, 255, rng.randrange(64), rng.getrandbits(32)])
SSEL = ['', '.b0', '.b1', '.b2', '.b3', '.h0', '.h1']
ASEL = ['', '', '', '', '.b0', '.b1', '.b2', '.b3', '.h0', '.h1'] if len(sys.argv) > 3 else SSEL
forms = []
for op in ['vadd', 'vsub', 'vabsdiff', 'vmin', 'vmax', 'vshl', 'vshr']:
    for d, a, b in itertools.product(T, T, T):
        if op in ('vshl', 'vshr') and b != 'u32': continue
        for sat in ['', '.sat']:
            modes = ['.clamp', '.wrap'] if op in ('vshl', 'vshr') else ['']
            for mode in modes:
                for sec in ['', '.add', '.min', '.max'] + SSEL[1:]:
                    isMerge = sec.startswith('.b') or sec.startswith('.h')
                    dd = '%r0' + (sec if isMerge else '')
                    mods = f'{op}.{d}.{a}.{b}{sat}{mode}' + ('' if isMerge else sec)
                    ops = [dd, '%r1' + rng.choice(ASEL), '%r2' + rng.choice(ASEL)]
                    if sec: ops.append('%r3')
                    forms.append((mods + ' ' + ','.join(ops) + ';', 'shift' if op in ('vshl', 'vshr') else ''))
for a, b in itertools.product(T, T):
    for cmp in ['eq', 'ne', 'lt', 'le', 'gt', 'ge']:
        for sec in ['', '.add', '.min', '.max'] + SSEL[1:]:
            isMerge = sec.startswith('.b') or sec.startswith('.h')
            ops = ['%r0' + (sec if isMerge else ''), '%r1' + rng.choice(ASEL), '%r2' + rng.choice(ASEL)]
            if sec: ops.append('%r3')
            forms.append((f'vset.{a}.{b}.{cmp}' + ('' if isMerge else sec) + ' ' + ','.join(ops) + ';', ''))
for d, a, b in itertools.product(T, T, T):
    for sat in ['', '.sat']:
        for scale in ['', '.shr7', '.shr15']:
            for po, neg in [('', ''), ('', 'a'), ('', 'b'), ('', 'c'), ('', 'ab'), ('.po', '')]:
                ops = ['%r0', ('-' if 'a' in neg else '') + '%r1' + rng.choice(SSEL),
                       ('-' if 'b' in neg else '') + '%r2' + rng.choice(SSEL), ('-' if 'c' in neg else '') + '%r3']
                forms.append((f'vmad.{d}.{a}.{b}{po}{sat}{scale} ' + ','.join(ops) + ';', ''))
MASK2 = ['', '.h0', '.h1', '.h10']
MASK4 = ['', '.b0', '.b1', '.b2', '.b3', '.b10', '.b20', '.b31', '.b210', '.b321', '.b3210', '.b32', '.b30']
for op in ['vadd', 'vsub', 'vavrg', 'vabsdiff', 'vmin', 'vmax', 'vset']:
    for n in (2, 4):
        for d, a, b in itertools.product(T, T, T):
            if op == 'vset' and d == 's32': continue
            for sat, acc in [('', ''), ('.sat', ''), ('', '.add')]:
                if op == 'vset' and sat: continue
                for rep in range(2):
                    if op == 'vset':
                        mods = f'vset{n}.{a}.{b}.{rng.choice(["eq","ne","lt","le","gt","ge"])}{acc}'
                    else:
                        mods = f'{op}{n}.{d}.{a}.{b}{sat}{acc}'
                    def sel():
                        if rng.random() < 0.4: return ''
                        k = 4 if n == 2 else 8
                        return ('.h' if n == 2 else '.b') + ''.join(str(rng.randrange(k)) for _ in range(n))
                    dm = rng.choice(MASK2 if n == 2 else MASK4)
                    forms.append((mods + f' %r0{dm},%r1{sel()},%r2{sel()},%r3;', ''))
# A few immediate operands, the way the random programs write them (c of vmad, b of shifts).
for op in ['vmad.s32.u32.u32', 'vmad.u32.u32.u32', 'vmad.u32.s32.u32.sat', 'vmad.s32.s32.s32.shr15', 'vmad.u32.u32.u32.po.shr7']:
    for imm in ['0x80000000', '-1981210687', '2147483647', '-1', '0xffffffff', '7']:
        forms.append((f'{op} %r0,%r1.h1,%r2,{imm};', ''))
for op in ['vshl.u32.u32.u32.clamp.max', 'vshl.s32.u32.u32.wrap', 'vshr.s32.s32.u32.clamp.sat', 'vshr.u32.u32.u32.wrap.add']:
    for imm in ['0', '1', '29', '31', '32', '33', '40']:
        forms.append((f'{op} %r0,%r1.b2,{imm}' + (',%r3;' if re.search(r'\.(add|min|max)$', op) else ';'), ''))
print(f'{len(forms)} forms', file=sys.stderr)
print('# What the H200 computes for each video instruction form, evaluated on the integer SASS that')
print(f'# ptxas (-arch=sm_90) emits for it: `python3 scripts/video_sass_table.py {" ".join(sys.argv[1:])}`.')
print('# Each line: INSTR; the registers before -> the destination after.')
sassemu.compile_many([f for f, _ in forms])
per = int(sys.argv[2]) if len(sys.argv) > 2 else 4
for f, kind in forms:
    for _ in range(per):
        vals = {'%r1': val(), '%r2': shift() if kind == 'shift' else val(), '%r3': val(), '%r0': val()}
        rs = sassemu.regs_of(f)
        r = sassemu.run(f, vals)
        # %r0 is only ever the destination: its value before does not matter
        print(f + ' ' + ' '.join(f'{x}=0x{vals[x]:x}' for x in rs if x != '%r0') + f' -> 0x{r:x}')
