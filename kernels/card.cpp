#include "kernels/card.h"

#include <bit>
#include <cstring>
#include <stdexcept>

#include "isa/insns/tensor_map.h"

namespace warpsim::kernels {

uint32_t elemBytes(ElemType t) {
  switch (t) {
    case ElemType::U8:
    case ElemType::S8:
      return 1;
    case ElemType::U16:
    case ElemType::S16:
    case ElemType::F16:
    case ElemType::BF16:
      return 2;
    case ElemType::U32:
    case ElemType::S32:
    case ElemType::F32:
      return 4;
    case ElemType::U64:
    case ElemType::S64:
    case ElemType::F64:
      return 8;
  }
  throw std::logic_error("elemBytes: unknown ElemType");
}

const char* elemName(ElemType t) {
  switch (t) {
    case ElemType::U8:
      return "u8";
    case ElemType::S8:
      return "s8";
    case ElemType::U16:
      return "u16";
    case ElemType::S16:
      return "s16";
    case ElemType::U32:
      return "u32";
    case ElemType::S32:
      return "s32";
    case ElemType::U64:
      return "u64";
    case ElemType::S64:
      return "s64";
    case ElemType::F16:
      return "f16";
    case ElemType::BF16:
      return "bf16";
    case ElemType::F32:
      return "f32";
    case ElemType::F64:
      return "f64";
  }
  throw std::logic_error("elemName: unknown ElemType");
}

namespace {
// Scalars are passed as their little-endian bytes; the hosts we build on are little endian,
// so a memcpy of the value is that encoding.
template <class T>
KernelArg scalarArg(T v) {
  static_assert(std::endian::native == std::endian::little);
  KernelArg a;
  a.kind = KernelArg::Kind::Scalar;
  a.scalar.resize(sizeof(T));
  std::memcpy(a.scalar.data(), &v, sizeof(T));
  return a;
}
}  // namespace

KernelArg KernelArg::buf(size_t index) {
  KernelArg a;
  a.kind = Kind::Buffer;
  a.buffer = index;
  return a;
}
KernelArg KernelArg::tensorMap(size_t buffer, std::vector<uint8_t> encoded) {
  KernelArg a;
  a.kind = Kind::TensorMap;
  a.buffer = buffer;
  a.scalar = std::move(encoded);
  return a;
}

std::vector<uint8_t> KernelArg::paramBytes(const std::vector<uint64_t>& addresses) const {
  switch (kind) {
    case Kind::Scalar:
      return scalar;
    case Kind::Buffer: {
      std::vector<uint8_t> p(8);
      std::memcpy(p.data(), &addresses.at(buffer), 8);
      return p;
    }
    case Kind::TensorMap: {
      namespace tmap = isa::insns::tmap;
      tmap::TensorMap m;
      if (scalar.size() != sizeof m || !tmap::load(scalar.data(), m))
        throw std::logic_error("a tensor-map argument that is not one of warpsim's encodings");
      m.globalAddress = addresses.at(buffer);
      std::vector<uint8_t> p(sizeof m);
      tmap::store(m, p.data());
      return p;
    }
  }
  return {};
}

KernelArg KernelArg::u32(uint32_t v) { return scalarArg(v); }
KernelArg KernelArg::s32(int32_t v) { return scalarArg(v); }
KernelArg KernelArg::u64(uint64_t v) { return scalarArg(v); }
KernelArg KernelArg::f32(float v) { return scalarArg(v); }
KernelArg KernelArg::f64(double v) { return scalarArg(v); }

}  // namespace warpsim::kernels
