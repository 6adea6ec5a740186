// European option pricing by Black-Scholes, as the CUDA samples write it and build it
// (--use_fast_math): logf, expf and sqrtf become lg2.approx, ex2.approx and sqrt.approx, the
// divisions div.approx and rcp.approx, and the normal CDF is the Abramowitz-Stegun polynomial.
// A grid-stride loop prices one option per thread and iteration.
// nvcc-flags: --use_fast_math

__device__ __forceinline__ float normalCdf(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
              a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;
  const float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  const float c =
      rsqrt2pi * expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0f - c : c;
}

extern "C" __global__ void black_scholes_fast_f32(float* __restrict__ call,
                                                  float* __restrict__ put,
                                                  const float* __restrict__ price,
                                                  const float* __restrict__ strike,
                                                  const float* __restrict__ years, float riskfree,
                                                  float volatility, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const float s = price[i], x = strike[i], t = years[i];
    const float sqrtT = sqrtf(t);
    const float d1 = (logf(s / x) + (riskfree + 0.5f * volatility * volatility) * t) /
                     (volatility * sqrtT);
    const float d2 = d1 - volatility * sqrtT;
    const float cndD1 = normalCdf(d1), cndD2 = normalCdf(d2);
    const float discount = expf(-riskfree * t);
    call[i] = s * cndD1 - x * discount * cndD2;
    put[i] = x * discount * (1.0f - cndD2) - s * (1.0f - cndD1);
  }
}
