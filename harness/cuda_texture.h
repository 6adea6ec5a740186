// Texture and surface objects on the real GPU, for the CUDA backend: a buffer whose bytes are
// a warpsim texture object (isa/insns/texture_object.h: the 128-byte descriptor, then the
// texels; what `--arg NAME=tex2d[...]` and the texture cards make) becomes what the CUDA
// driver makes of it: a CUDA array holding the texels and a texture (or surface) object over
// it, whose handle replaces the buffer's address as a kernel argument. A surface's texels are
// read back from its array. The driver's entry points come from the backend's dlopen'ed
// libcuda.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace warpsim::harness {

class CudaTextures {
 public:
  // Binds the entry points from `lib` (a dlopen handle of libcuda.so.1). `check` turns a
  // CUresult into an exception naming the call.
  CudaTextures(void* lib, void (*check)(int result, const char* call, const void* self),
               const void* self);
  ~CudaTextures();
  CudaTextures(const CudaTextures&) = delete;
  CudaTextures& operator=(const CudaTextures&) = delete;

  // After `bytes` were copied to the buffer at `address`: when they hold a texture or surface
  // object, (re)creates its array and object on the GPU.
  void adopt(uint64_t address, const void* bytes, uint64_t size);
  // The object's handle for a buffer that holds one, else 0.
  uint64_t handleFor(uint64_t address) const;
  // After the buffer at `address` was copied to `dst`: a surface's texels, from its array.
  void copyBack(uint64_t address, void* dst, uint64_t size);
  void release(uint64_t address);

 private:
  struct Api;
  struct Object;
  std::unique_ptr<Api> api_;
  std::map<uint64_t, std::unique_ptr<Object>> objects_;
  void (*check_)(int, const char*, const void*);
  const void* self_;
};

}  // namespace warpsim::harness
