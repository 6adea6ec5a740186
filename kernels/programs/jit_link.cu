// JIT linking through the driver API, as NVIDIA's ptxjit sample does: a kernel's PTX text and
// a function it calls, in a second PTX input (both written here by hand), go through
// cuLinkCreate / cuLinkAddData / cuLinkComplete, the linked
// image is loaded with cuModuleLoadData and launched with cuLaunchKernel. A bad input type is
// refused. Run it: warpsim exec build/programs/jit_link
// nvcc-flags: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "check.h"

#define CU_CHECK(call)                                                                 \
  do {                                                                                 \
    const CUresult r_ = (call);                                                        \
    if (r_ != CUDA_SUCCESS) {                                                          \
      const char* s_ = nullptr;                                                        \
      cuGetErrorName(r_, &s_);                                                         \
      std::printf("%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, s_ ? s_ : "?"); \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)

// out[i] = 3 * i + 1 for i < n, through affine_of, which the second input defines: the link
// resolves the first's .extern declaration against it.
const char* kPtx = R"(.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 r) affine_of (.param .b32 x);
.visible .entry affine(.param .u64 out, .param .u32 n)
{
  .reg .pred %p;
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p, %r2, %r1;
  @%p ret;
  {
  .param .b32 x;
  .param .b32 r;
  st.param.b32 [x], %r2;
  call.uni (r), affine_of, (x);
  ld.param.b32 %r3, [r];
  }
  mul.wide.u32 %rd2, %r2, 4;
  add.u64 %rd2, %rd1, %rd2;
  st.global.u32 [%rd2], %r3;
  ret;
}
)";

const char* kLibraryPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .func (.param .b32 r) affine_of (.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  mad.lo.u32 %r2, %r1, 3, 1;
  st.param.b32 [r], %r2;
  ret;
}
)";

int main() {
  CHECK(cudaFree(nullptr));  // the runtime makes the primary context current
  CUlinkState link;
  CU_CHECK(cuLinkCreate(0, nullptr, nullptr, &link));
  CU_CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(kPtx), std::strlen(kPtx) + 1,
                         "affine.ptx", 0, nullptr, nullptr));
  CU_CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(kLibraryPtx),
                         std::strlen(kLibraryPtx) + 1, "affine_of.ptx", 0, nullptr, nullptr));
  if (cuLinkAddData(link, CU_JIT_INPUT_NVVM, const_cast<char*>(kPtx), 4, "x.nvvm", 0, nullptr,
                    nullptr) == CUDA_SUCCESS) {
    std::printf("jit_link: FAILED: NVVM input accepted\n");
    return 1;
  }
  void* image = nullptr;
  size_t bytes = 0;
  CU_CHECK(cuLinkComplete(link, &image, &bytes));
  CUmodule module;
  CU_CHECK(cuModuleLoadData(&module, image));
  CU_CHECK(cuLinkDestroy(link));  // the module keeps its code
  CUfunction affine;
  CU_CHECK(cuModuleGetFunction(&affine, module, "affine"));
  const unsigned n = 100;
  CUdeviceptr out;
  CU_CHECK(cuMemAlloc(&out, 128 * sizeof(unsigned)));
  CU_CHECK(cuMemsetD32(out, 0, 128));
  void* args[] = {&out, const_cast<unsigned*>(&n)};
  CU_CHECK(cuLaunchKernel(affine, 1, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
  unsigned h[128];
  CU_CHECK(cuMemcpyDtoH(h, out, sizeof h));
  for (unsigned i = 0; i < 128; ++i)
    if (h[i] != (i < n ? 3 * i + 1 : 0)) {
      std::printf("jit_link: FAILED at %u: %u\n", i, h[i]);
      return 1;
    }
  std::printf("jit_link: PASSED (%zu-byte image)\n", bytes);
  return 0;
}
