// A linear recursion as nvcc compiles it, for scripts/device_stack.sh: each call's frame is what
// ptxas makes of a real C++ function (registers saved across the call), unlike the hand-written
// tests/data/recursive_depth.ptx. The result folds every level's value in a way no compiler can
// turn into a loop (the multiply depends on the recursive call's result).
__device__ __noinline__ unsigned down(unsigned n, unsigned salt) {
  if (n == 0) return salt;
  const unsigned below = down(n - 1, salt * 1664525u + 1013904223u);
  return below * (salt | 1u) + n;
}

extern "C" __global__ void rec_linear(unsigned depth, unsigned* out) {
  out[threadIdx.x] = down(depth, threadIdx.x + 7u);
}
