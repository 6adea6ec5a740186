// Throwaway: runs every card on the real GPU through the driver API and compares with the
// card's reference (and, for the approx cards, with a double-precision softmax/attention).
#include <cuda.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "kernels/buffers.h"
#include "kernels/card.h"
#include "kernels/lowp.h"
#include "kernels/ptx_registry.h"

using namespace warpsim::kernels;

#define CK(x)                                                              \
  do {                                                                     \
    CUresult r_ = (x);                                                     \
    if (r_ != CUDA_SUCCESS) {                                              \
      const char* s_ = nullptr;                                            \
      cuGetErrorString(r_, &s_);                                           \
      std::printf("CUDA error %d (%s) at %s:%d: %s\n", r_, s_ ? s_ : "?", \
                  __FILE__, __LINE__, #x);                                 \
      std::exit(2);                                                        \
    }                                                                      \
  } while (0)

static uint64_t ordered(uint64_t bits, int width) {
  const uint64_t sign = uint64_t(1) << (width - 1);
  const uint64_t mask = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  bits &= mask;
  return (bits & sign) ? (~bits & mask) : (bits | sign);
}

struct Diff {
  uint64_t maxUlp = 0, mismatches = 0, firstIndex = ~0ull;
};

static Diff compare(const HostBuffer& want, const std::vector<uint8_t>& got) {
  Diff d;
  const uint32_t eb = elemBytes(want.type);
  const bool isFloat = want.type == ElemType::F16 || want.type == ElemType::BF16 ||
                       want.type == ElemType::F32 || want.type == ElemType::F64;
  for (size_t i = 0; i < want.bytes.size() / eb; ++i) {
    uint64_t a = 0, b = 0;
    std::memcpy(&a, &want.bytes[i * eb], eb);
    std::memcpy(&b, &got[i * eb], eb);
    if (a == b) continue;
    ++d.mismatches;
    if (d.firstIndex == ~0ull) d.firstIndex = i;
    uint64_t u = ~0ull;
    if (isFloat) {
      const uint64_t oa = ordered(a, eb * 8), ob = ordered(b, eb * 8);
      u = oa > ob ? oa - ob : ob - oa;
    }
    if (u > d.maxUlp) d.maxUlp = u;
  }
  return d;
}

static float ulpF(float a, float b) {
  uint32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  const uint64_t oa = ordered(x, 32), ob = ordered(y, 32);
  return float(oa > ob ? oa - ob : ob - oa);
}

// Double-precision references for the approx cards: max ulp of (float)exact vs a float buffer.
static void doubleCheck(const Card& c, const Problem& p, const std::vector<uint8_t>& devOut,
                        const HostBuffer& refOut) {
  std::vector<double> exact;
  if (c.name == "softmax_row") {
    const auto x = readBuffer<float>(p.buffers[0]);
    const uint64_t cols = p.size, rows = x.size() / cols;
    exact.resize(x.size());
    for (uint64_t r = 0; r < rows; ++r) {
      double m = -INFINITY, s = 0;
      for (uint64_t j = 0; j < cols; ++j) m = std::max(m, double(x[r * cols + j]));
      for (uint64_t j = 0; j < cols; ++j) s += std::exp(double(x[r * cols + j]) - m);
      for (uint64_t j = 0; j < cols; ++j) exact[r * cols + j] = std::exp(double(x[r * cols + j]) - m) / s;
    }
  } else if (c.name == "attention_fwd") {
    const auto Q = readBuffer<float>(p.buffers[0]), K = readBuffer<float>(p.buffers[1]),
               V = readBuffer<float>(p.buffers[2]);
    const uint64_t S = p.size, D = 64;
    exact.resize(S * D);
    std::vector<double> sc(S);
    for (uint64_t r = 0; r < S; ++r) {
      double m = -INFINITY, l = 0;
      for (uint64_t j = 0; j < S; ++j) {
        double s = 0;
        for (uint64_t d = 0; d < D; ++d) s += double(Q[r * D + d]) * K[j * D + d];
        sc[j] = s * 0.125;
        m = std::max(m, sc[j]);
      }
      for (uint64_t j = 0; j < S; ++j) l += (sc[j] = std::exp(sc[j] - m));
      for (uint64_t d = 0; d < D; ++d) {
        double a = 0;
        for (uint64_t j = 0; j < S; ++j) a += sc[j] * V[j * D + d];
        exact[r * D + d] = a / l;
      }
    }
  } else {
    return;
  }
  std::vector<float> dev(exact.size()), ref = readBuffer<float>(refOut);
  std::memcpy(dev.data(), devOut.data(), dev.size() * 4);
  float devMax = 0, refMax = 0, devRefMax = 0;
  std::map<int, uint64_t> hist;
  for (size_t i = 0; i < exact.size(); ++i) {
    devMax = std::max(devMax, ulpF(dev[i], float(exact[i])));
    refMax = std::max(refMax, ulpF(ref[i], float(exact[i])));
    const float u = ulpF(dev[i], ref[i]);
    devRefMax = std::max(devRefMax, u);
    ++hist[int(u)];
  }
  std::printf("    double-check %s: chip-vs-double %.0f ulp, ref-vs-double %.0f ulp, chip-vs-ref %.0f; hist:",
              c.name.c_str(), devMax, refMax, devRefMax);
  for (auto [k, v] : hist) std::printf(" %d:%llu", k, (unsigned long long)v);
  std::printf("\n");
}

int main(int argc, char** argv) {
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  std::map<std::string, CUmodule> modules;
  int failures = 0;
  std::mt19937_64 sizeRng(12345);
  for (const Card& c : allCards()) {
    if (argc > 1 && std::string(argv[1]) != "all" && std::string(argv[1]).find(c.name) == std::string::npos) continue;
    if (!modules.count(c.source)) {
      std::string ptx(ptxFor(c.source));
      char log[8192] = {0};
      CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
      void* vals[] = {log, (void*)(uintptr_t)sizeof(log)};
      CUmodule m;
      CUresult r = cuModuleLoadDataEx(&m, ptx.c_str(), 2, opts, vals);
      if (r != CUDA_SUCCESS) {
        std::printf("JIT of %s failed: %d\n%s\n", c.source.c_str(), r, log);
        ++failures;
        continue;
      }
      modules[c.source] = m;
    }
    std::vector<uint64_t> sizes{c.minSize, c.defaultSize, c.maxSize};
    std::vector<uint64_t> seeds{1, 77};
    const int extra = argc > 2 ? std::atoi(argv[2]) : 0;
    for (int k = 0; k < 4 + extra; ++k) sizes.push_back(c.minSize + sizeRng() % (c.maxSize - c.minSize + 1));
    if (extra) { sizes.resize(3 + 2 * extra / 3); for (int k = 0; k < 3 * extra / 2; ++k) sizes.push_back(c.defaultSize); seeds = {1}; }
    uint64_t worst = 0, runs = 0;
    std::map<uint64_t, uint64_t> worstHist;
    for (size_t si = 0; si < sizes.size(); ++si)
      for (uint64_t seed0 : seeds) {
        const uint64_t size = sizes[si];
        const uint64_t seed = extra ? 1000 + si : seed0;
        Problem p = c.make(size, seed);
        Problem want = p;
        c.reference(want);
        std::vector<CUdeviceptr> ptrs(p.buffers.size());
        for (size_t b = 0; b < p.buffers.size(); ++b) {
          CK(cuMemAlloc(&ptrs[b], std::max<size_t>(p.buffers[b].bytes.size(), 16)));
          if (!p.buffers[b].bytes.empty())
            CK(cuMemcpyHtoD(ptrs[b], p.buffers[b].bytes.data(), p.buffers[b].bytes.size()));
        }
        for (const Launch& l : p.launches) {
          CUfunction f;
          CK(cuModuleGetFunction(&f, modules[c.source], l.entry.c_str()));
          std::vector<void*> params;
          for (const KernelArg& a : l.args)
            params.push_back(a.kind == KernelArg::Kind::Buffer ? (void*)&ptrs[a.buffer]
                                                               : (void*)a.scalar.data());
          CK(cuLaunchKernel(f, l.grid.x, l.grid.y, l.grid.z, l.block.x, l.block.y, l.block.z,
                            l.dynamicShared, nullptr, params.data(), nullptr));
          CK(cuCtxSynchronize());
        }
        bool ok = true;
        for (size_t b = 0; b < p.buffers.size(); ++b) {
          std::vector<uint8_t> got(p.buffers[b].bytes.size());
          if (!got.empty()) CK(cuMemcpyDtoH(got.data(), ptrs[b], got.size()));
          const Diff d = compare(want.buffers[b], got);
          if (want.buffers[b].isOutput) { worst = std::max(worst, d.maxUlp); }
          const bool pass = d.mismatches == 0 || (d.maxUlp <= c.tolerance.maxUlp && want.buffers[b].isOutput);
          if (want.buffers[b].isOutput) ++worstHist[d.maxUlp];
          if ((!pass || d.mismatches) && !extra)
            std::printf("  %-22s size %-7llu seed %-3llu buf %-12s %s: %llu/%llu differ, max ulp %llu, first %llu\n",
                        c.name.c_str(), (unsigned long long)size, (unsigned long long)seed,
                        p.buffers[b].name.c_str(), pass ? "within tol" : "FAIL",
                        (unsigned long long)d.mismatches,
                        (unsigned long long)(got.size() / elemBytes(p.buffers[b].type)),
                        (unsigned long long)d.maxUlp, (unsigned long long)d.firstIndex);
          ok = ok && pass;
          if (want.buffers[b].isOutput && size == c.defaultSize && seed == 1)
            doubleCheck(c, p, got, want.buffers[b]);
        }
        ++runs;
        for (auto ptr : ptrs) CK(cuMemFree(ptr));
        if (!ok) ++failures;
      }
    std::printf("%-22s done (tolerance %u): %llu runs, worst %llu ulp; per-run max:", c.name.c_str(),
                c.tolerance.maxUlp, (unsigned long long)runs, (unsigned long long)worst);
    for (auto [k, v] : worstHist) std::printf(" %llu:%llu", (unsigned long long)k, (unsigned long long)v);
    std::printf("\n");
    std::fflush(stdout);
  }
  std::printf("FAILURES: %d\n", failures);
  return failures ? 1 : 0;
}
