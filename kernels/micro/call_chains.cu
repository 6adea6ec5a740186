// Call and return costs (issue 9): one warp's chain of dependent calls to __noinline__ device
// functions, without a stack frame and with one, by the whole warp or by half of it. The timing
// model charges what the SASS of a call adds (the frame's STL/LDL, the calling convention, the
// CALL/RET's resolution); these launches measure it on the chip.

// A leaf: its argument and result stay in registers (ptxas -v: 0 bytes stack frame).
__device__ __noinline__ unsigned callLeaf(unsigned v) { return v * 3u + 1u; }

// Not a tail call (the result is used after it returns), so each level keeps what it needs
// across the call in a stack frame that it saves on entry and restores before returning.
__device__ __noinline__ unsigned callDeep(unsigned v, unsigned depth) {
  if (depth == 0) return v + 1u;
  return callDeep(v ^ depth, depth - 1) * 5u + depth;
}

// `iters` dependent calls by the warp's lanes below `lanes` (32: all; 16: half, the other half
// waiting where the branch reconverges): mode 0 calls the leaf; mode 1 calls callDeep at depth
// 1 (two frames saved and restored a round); mode 2 at depth lane % 2 (the lanes' calls diverge
// inside the function).
extern "C" __global__ void micro_call_chain(unsigned* out, const unsigned* in, unsigned mode,
                                            unsigned lanes, unsigned iters) {
  unsigned v = in[threadIdx.x];
  if (threadIdx.x % 32 < lanes) {
    for (unsigned i = 0; i < iters; ++i)
      v = mode == 0 ? callLeaf(v) : callDeep(v, mode == 1 ? 1u : threadIdx.x % 2);
  }
  out[threadIdx.x] = v;
}
