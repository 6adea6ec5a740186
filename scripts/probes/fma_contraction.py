#!/usr/bin/env python3
"""Which mul + add/sub pairs ptxas contracts into FFMA (docs/FIDELITY.md, "Contraction").

Random straight-line f32 programs (one basic block): mul/add/sub with random .rn/.ftz/.sat
modifiers and random stores. For each, the rule below predicts how many add/sub ptxas turns
into FFMA; the cubin's SASS (nvdisasm) gives the count. Investigation only, not run by CI:
  pip install nvidia-cuda-nvdisasm; NVDISASM=<its nvdisasm> python3 fma_contraction.py FIRST N
"""
import os, random, subprocess, sys
NVD=os.environ.get("NVDISASM", "nvdisasm")
def gen(seed):
    R=random.Random(seed)
    lines=[]; nregs=6; defs={}  # reg -> instr index
    instrs=[]
    for i in range(R.randint(6,14)):
        kind=R.choice(["mul","mul","add","sub","st"])
        if kind=="st":
            if nregs>6:
                r=R.randrange(6,nregs)
                instrs.append(("st",None,[r],{}))
            continue
        mods={"rn": R.random()<0.2, "ftz": R.random()<0.25, "sat": R.random()<0.1}
        a=R.randrange(nregs); b=R.randrange(nregs)
        instrs.append((kind,nregs,[a,b],mods)); nregs+=1
    # every value never stored or used: store the last one
    return instrs,nregs
def text(instrs,nregs):
    s=[".version 9.0",".target sm_90",".address_size 64",".visible .entry k(.param .u64 p)","{",
       f"  .reg .f32 %f<{nregs+1}>;","  .reg .b64 %rd<2>;","  ld.param.u64 %rd1, [p];"]
    for r in range(6): s.append(f"  ld.global.f32 %f{r}, [%rd1+{4*r}];")
    off=64
    for kind,d,src,m in instrs:
        if kind=="st":
            s.append(f"  st.global.f32 [%rd1+{off}], %f{src[0]};"); off+=4; continue
        mod=("."+"rn" if m["rn"] else "")+(".ftz" if m["ftz"] else "")+(".sat" if m["sat"] else "")
        s.append(f"  {kind}{mod}.f32 %f{d}, %f{src[0]}, %f{src[1]};")
    s.append(f"  st.global.f32 [%rd1+{off}], %f{nregs-1};")
    s.append("  ret;"); s.append("}")
    return "\n".join(s)+"\n"
def predict(instrs,nregs):
    # dead code first: an instruction is live if a store needs its value, transitively
    live=set(); need={nregs-1}
    for i in range(len(instrs)-1,-1,-1):
        k,d,src,m=instrs[i]
        if k=="st" or d in need:
            live.add(i); need.update(src)
    # uses of each register (live instruction indices); the final store uses the last register
    uses={}
    for i,(k,d,src,m) in enumerate(instrs):
        if i not in live: continue
        for r in src: uses.setdefault(r,[]).append(i)
    uses.setdefault(nregs-1,[]).append(len(instrs))
    definer={d:i for i,(k,d,src,m) in enumerate(instrs) if d is not None}
    def fusable_pair(mi, ai):
        mk,md,ms,mm=instrs[mi]; ak,ad,asrc,am=instrs[ai]
        return mk=="mul" and ak in("add","sub") and not mm["rn"] and not am["rn"] and not mm["sat"] and mm["ftz"]==am["ftz"]
    # a mul can be consumed only if every use is an add/sub taking it once as a fusable product
    def mul_ok(r):
        mi=definer.get(r)
        if mi is None or instrs[mi][0]!="mul": return False
        for u in uses.get(r,[]):
            if u>=len(instrs): return False
            k,d,src,m=instrs[u]
            if k not in("add","sub") or src.count(r)!=1 or not fusable_pair(mi,u): return False
        return True
    # A mul is contracted only if every live use consumes it as its product: each add/sub takes
    # the first of its operands that is such a mul; a mul some use does not take stays.
    cand={r for r in definer if mul_ok(r)}
    while True:
        choice={}
        for i,(k,d,src,m) in enumerate(instrs):
            if k in("add","sub") and i in live:
                choice[i]=next((r for r in src if r in cand), None)
        drop={r for r in cand if any(choice.get(u)!=r for u in uses.get(r,[]))}
        if not drop: break
        cand-=drop
    return sum(1 for i,r in choice.items() if r is not None)

def ffma(ptx):
    open("r.ptx","w").write(ptx)
    if subprocess.run(["ptxas","-arch=sm_90","r.ptx","-o","r.cubin"]).returncode: return None
    out=subprocess.run([NVD,"-c","r.cubin"],capture_output=True,text=True).stdout
    return sum(1 for l in out.splitlines() if "FFMA" in l)
agree=0; n=int(sys.argv[2]); bad=[]
for seed in range(int(sys.argv[1]), int(sys.argv[1])+n):
    ins,nr=gen(seed); p=text(ins,nr); got=ffma(p); want=predict(ins,nr)
    if got==want: agree+=1
    else: bad.append((seed,want,got))
print(f"{n} programs: {agree} agree; differing: {bad[:12]}")
