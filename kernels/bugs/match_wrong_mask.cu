// synccheck: grouping lanes by key with __match_any_sync whose member mask (0xffff) leaves out
// the upper half-warp, which executes it too.
extern "C" __global__ void match_wrong_mask(const int* key, unsigned* peers) {
  const unsigned lane = threadIdx.x;
  peers[lane] = __match_any_sync(0x0000ffffu, key[lane]);
}

extern "C" __global__ void match_wrong_mask_fixed(const int* key, unsigned* peers) {
  const unsigned lane = threadIdx.x;
  peers[lane] = __match_any_sync(0xffffffffu, key[lane]);
}
