// memcheck: an error path that traps: a negative count makes the kernel execute trap.
extern "C" __global__ void trap_on_error(const int* count, int* y) {
  const unsigned i = threadIdx.x;
  if (count[i] < 0) asm volatile("trap;");
  y[i] = 2 * count[i];
}

extern "C" __global__ void trap_on_error_fixed(const int* count, int* y) {
  const unsigned i = threadIdx.x;
  y[i] = count[i] < 0 ? 0 : 2 * count[i];
}
