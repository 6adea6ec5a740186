// An L1 hit's cost against the lines and sectors a request touches (issue 9: the model's LSU
// takes l1.sectors_per_cycle sectors a cycle whatever lines they lie in; attention_fwd's loads
// of K touch 18 sectors a request). Each lane chases its own word of a 4 KB table that the first
// trip brings into the L1, so every later load hits: lane l reads word l * stride, and the
// stride decides the request's shape: 0 one sector, 1 one line of four sectors, 2 two lines of
// eight, 4 four lines of sixteen, 8 eight lines of 32 (a sector a lane), 16 and 32 sixteen and
// 32 lines of 32 sectors, 33 32 lines of 32 sectors whose words lie in different banks of the
// data array (at 32 all lie in the first), and 9 words in 32 banks again but 9 lines of 32
// sectors. The table holds multiples of its size (unknown to the compiler), so
// each load's address depends on the last load and stays where the stride put it.
extern "C" __global__ void micro_l1_lines(unsigned* out, const unsigned* table, unsigned stride,
                                          unsigned iters) {
  const unsigned at = threadIdx.x % 32 * stride;
  unsigned v = 0;
  for (unsigned i = 0; i < iters; ++i) v += table[(at + v) % 1024];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
