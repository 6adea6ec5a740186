// initcheck: a per-thread table (in local memory: it is indexed by a run-time value) of which
// only the first half is filled, then read at an index from the input.
extern "C" __global__ void uninit_local_array(const int* idx, float* y) {
  float table[16];
  const unsigned t = threadIdx.x;
  for (int k = 0; k < 8; ++k) table[k] = float(k * t);
  y[t] = table[idx[t] & 15];
}

extern "C" __global__ void uninit_local_array_fixed(const int* idx, float* y) {
  float table[16];
  const unsigned t = threadIdx.x;
  for (int k = 0; k < 16; ++k) table[k] = float(k * t);
  y[t] = table[idx[t] & 15];
}
