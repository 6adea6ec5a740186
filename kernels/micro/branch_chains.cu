// Branch costs (issue 9): one warp's chain of dependent rounds, each through an if/else whose
// two bodies are too long for ptxas to predicate (a branch and, where the lanes may split, a
// BSSY/BSYNC pair in SASS). The three launches differ only in which way the lanes go.

__device__ __forceinline__ unsigned leftBody(unsigned v) {
  for (int k = 0; k < 4; ++k) {  // xorshift rounds: 12 dependent integer operations
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
  }
  return v;
}

__device__ __forceinline__ unsigned rightBody(unsigned v) {
  for (int k = 0; k < 6; ++k) v = v * 0x9E3779B1u + (v >> 16);  // 12 or more dependent ones
  return v;
}

// `iters` rounds. mode 0: every lane goes left every round (the branch is never taken the
// other way); mode 1: all lanes go the same way, left or right by the round (a pseudo-random
// sequence); mode 2: the odd lanes go left and the even ones right every round (the warp runs
// both bodies and reconverges).
extern "C" __global__ void micro_branch_chain(unsigned* out, const unsigned* in, unsigned mode,
                                              unsigned iters) {
  unsigned v = in[threadIdx.x];
  for (unsigned i = 0; i < iters; ++i) {
    const bool left = mode == 0 ? true : mode == 1 ? ((i * 0x9E3779B9u) >> 31) != 0
                                                   : (threadIdx.x & 1) != 0;
    v = left ? leftBody(v) : rightBody(v);
  }
  out[threadIdx.x] = v;
}
