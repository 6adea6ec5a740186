// schedules: a stream compaction that takes each kept element's output slot from a global
// atomic counter. No two threads write one slot, so no race checker reports it, but which
// element lands in which slot depends on the order the CTAs (and warps) reach the atomic: the
// output changes from run to run on the chip.
extern "C" __global__ void atomic_ticket_order(const int* x, int* out, unsigned* count) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = x[i];
  if (v % 3 == 0) out[atomicAdd(count, 1u)] = v;
}

// The fix keeps the input's order: each warp ranks its kept elements by a ballot, and each CTA
// writes its own segment (the segments are joined by a later pass, or read with the counts).
extern "C" __global__ void atomic_ticket_order_fixed(const int* x, int* out, unsigned* count) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = x[i];
  const bool keep = v % 3 == 0;
  const unsigned kept = __ballot_sync(0xffffffffu, keep);
  const unsigned lane = threadIdx.x % 32;
  if (keep) out[blockIdx.x * blockDim.x + __popc(kept & ((1u << lane) - 1))] = v;
  if (lane == 0) atomicAdd(count, unsigned(__popc(kept)));
}
