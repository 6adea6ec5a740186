// synccheck: a ballot over the upper half-warp names the lower half in its member mask.
extern "C" __global__ void ballot_wrong_mask(const int* x, unsigned* bits) {
  const unsigned lane = threadIdx.x;
  if (lane >= 16) {
    const unsigned b = __ballot_sync(0x0000ffffu, x[lane] > 0);
    if (lane == 16) *bits = b;
  }
}

extern "C" __global__ void ballot_wrong_mask_fixed(const int* x, unsigned* bits) {
  const unsigned lane = threadIdx.x;
  if (lane >= 16) {
    const unsigned b = __ballot_sync(0xffff0000u, x[lane] > 0);
    if (lane == 16) *bits = b;
  }
}
