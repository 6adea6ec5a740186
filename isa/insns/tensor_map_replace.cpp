// tensormap.replace (sm_90a), which edits a tensor map in global or shared memory field by
// field (PTX ISA, "tensormap.replace"), and tensormap.cp_fenceproxy, which copies a map edited
// in shared memory to global memory for the copies that read it:
//   tensormap.replace.tile.{global_address,rank}{.ss}.b1024.type [addr], new_val;
//   tensormap.replace.tile.{box_dim,global_dim,global_stride,element_stride}{.ss}.b1024.type
//       [addr], ord, new_val;
//   tensormap.replace.tile.{elemtype,interleave_layout,swizzle_mode,swizzle_atomicity,
//       fill_mode}{.ss}.b1024.type [addr], new_val;
// The map is warpsim's encoding (tensor_map.h), as cuTensorMapEncodeTiled writes it. Triton
// builds its device-side maps this way from 128 zero bytes: a replace into bytes that hold no
// map starts one (all fields zero, like the chip's zeroed descriptor), and the copy that uses
// it checks it then. The values are the PTX ones: rank is the rank minus one, global_dim the
// dimension itself, global_stride[ord] the byte stride of dimension ord + 1, elemtype, swizzle,
// interleave and fill the CUtensorMap* enumerations' values.
#include <cstring>

#include "isa/insns/addresses.h"
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"
#include "isa/insns/tensor_map.h"
#include "isa/insns/tensor_map_access.h"

namespace warpsim::isa::insns {
namespace {

enum class Field : uint32_t {
  GlobalAddress,
  Rank,
  BoxDim,
  GlobalDim,
  GlobalStride,
  ElementStride,
  ElemType,
  Interleave,
  Swizzle,
  SwizzleAtomicity,
  Fill,
};

constexpr std::string_view kFieldNames[] = {
    "global_address", "rank",     "box_dim",           "global_dim",   "global_stride",
    "element_stride", "elemtype", "interleave_layout", "swizzle_mode", "swizzle_atomicity",
    "fill_mode"};

bool takesOrdinal(Field f) {
  return f == Field::BoxDim || f == Field::GlobalDim || f == Field::GlobalStride ||
         f == Field::ElementStride;
}

// Sets `f` of map m (ordinal `ord`) to v; "" or why the value is out of range.
std::string replace(tmap::TensorMap& m, Field f, uint32_t ord, uint64_t v) {
  const auto range = [](const char* what, uint64_t lo, uint64_t hi) {
    return std::string(what) + " must be " + std::to_string(lo) + ".." + std::to_string(hi);
  };
  if (takesOrdinal(f) && ord > 4) return "the ordinal must be 0..4";
  switch (f) {
    case Field::GlobalAddress:
      if (v % 16) return "the global address must be 16-byte aligned";
      m.globalAddress = v;
      return "";
    case Field::Rank:
      if (v > 4) return range("the rank (minus one)", 0, 4);
      m.rank = uint8_t(v + 1);
      return "";
    case Field::BoxDim:
      if (v < 1 || v > 256) return range("a box dimension", 1, 256);
      m.boxDim[ord] = uint32_t(v);
      return "";
    case Field::GlobalDim:
      if (v < 1 || v > (uint64_t(1) << 32))
        return range("a global dimension", 1, uint64_t(1) << 32);
      m.globalDimMinus1[ord] = uint32_t(v - 1);
      return "";
    case Field::GlobalStride:
      if (ord > 3) return "the ordinal of a global stride must be 0..3";
      if (v % 16 || v >= (uint64_t(1) << 40))
        return "a global stride must be a multiple of 16 below 2^40";
      m.globalStrides[ord + 1] = v;
      return "";
    case Field::ElementStride:
      if (v < 1 || v > 8) return range("an element stride", 1, 8);
      m.elementStrides[ord] = uint32_t(v);
      return "";
    case Field::ElemType:
      if (v >= tmap::kDataTypes) return "element type " + std::to_string(v) + " is not simulated";
      m.dataType = tmap::DataType(v);
      m.globalStrides[0] = tmap::elementBytes(m.dataType);
      return "";
    case Field::Interleave:
      if (v != 0) return "interleaved layouts are not simulated";
      m.interleave = 0;
      return "";
    case Field::Swizzle:
      if (v > 3) return "swizzle modes other than none, 32B, 64B and 128B are not simulated";
      m.swizzle = tmap::Swizzle(v);
      return "";
    case Field::SwizzleAtomicity:
      if (v != 0) return "swizzle atomicities other than 16B are not simulated";
      return "";
    case Field::Fill:
      if (v > 1) return range("the fill mode", 0, 1);
      m.oobFillNaN = uint8_t(v);
      return "";
  }
  return "";
}

void replaceH(Exec& x, const Inst& in) {
  const Field f = Field(in.flags);
  const bool ordinal = takesOrdinal(f);
  uint64_t addrs[kWarpSize];
  laneAddresses(x, in.ops[0], x.mask, addrs);
  const uint64_t* ords = ordinal ? x.reg(in.ops[1]) : nullptr;
  const uint64_t* values = x.reg(in.ops[ordinal ? 2 : 1]);
  const bool wide = in.mods.types.back() == Type::B64;
  forLanes(x.mask, [&](unsigned l) {
    if (addrs[l] % 64)
      x.machine->trap(in, LaneMask{1} << l, "the tensor map is not 64-byte aligned");
    uint8_t bytes[128];
    tmap::loadBytes(x, in, addressedSpace(in), l, addrs[l], bytes);
    tmap::TensorMap m;
    if (!tmap::load(bytes, m)) {
      std::memcpy(&m, bytes, sizeof m);
      if (m.magic != tmap::kMagic) m = tmap::TensorMap{};  // bytes that hold no map: start one
      m.magic = tmap::kMagic;
    }
    const uint64_t v = wide ? values[l] : uint32_t(values[l]);
    const std::string why = replace(m, f, ordinal ? uint32_t(ords[l]) : 0, v);
    if (!why.empty()) {
      const std::string text = "'" + in.text + "': " + why;
      x.machine->trap(in, LaneMask{1} << l, text.c_str());
    }
    tmap::store(m, bytes);
    tmap::storeBytes(x, in, addressedSpace(in), l, addrs[l], bytes);
  });
}

// tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
// [dst], [src], 128: each active lane copies the 128-byte map at src in shared memory to dst in
// global memory; the release fence that orders it for the tensormap proxy needs nothing more
// here, since every access is performed when it issues.
void copyFenceProxyH(Exec& x, const Inst& in) {
  uint64_t dst[kWarpSize], src[kWarpSize];
  laneAddresses(x, in.ops[0], x.mask, dst);
  laneAddresses(x, in.ops[1], x.mask, src);
  const uint64_t* size = x.reg(in.ops[2]);
  forLanes(x.mask, [&](unsigned l) {
    if (size[l] != 128) {
      const std::string text = "'" + in.text + "': the size must be 128 (a tensor map's bytes)";
      x.machine->trap(in, LaneMask{1} << l, text.c_str());
    }
    uint8_t bytes[128];
    tmap::loadBytes(x, in, Space::Shared, l, src[l], bytes);
    tmap::storeBytes(x, in, Space::Global, l, dst[l], bytes);
  });
}

std::string bindCopyFenceProxy(Inst& in) {
  const Mods& m = in.mods;
  if (!m.has("global") || !m.has("shared::cta") || !m.has("tensormap::generic") ||
      !m.has("release") || !m.has("sync") || !m.has("aligned"))
    return msg(in,
               "is tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release"
               ".scope.sync.aligned");
  if (in.ops.size() != 3 || in.ops[0].kind != OpndKind::Addr || in.ops[1].kind != OpndKind::Addr)
    return msg(in, "takes a global address, a shared address and the size (128)");
  in.cls = InsnClass::StoreGlobal;
  in.run = copyFenceProxyH;
  return "";
}

std::string bindReplace(Inst& in) {
  const Mods& m = in.mods;
  if (!m.has("replace") || !m.has("tile"))
    return msg(in, "is tensormap.replace.tile or tensormap.cp_fenceproxy");
  if (m.space != Space::None && m.space != Space::Global && m.space != Space::Shared)
    return msg(in, "edits a map in global or shared::cta memory");
  int field = -1;
  for (size_t i = 0; i < std::size(kFieldNames); ++i)
    if (m.has(kFieldNames[i])) field = int(i);
  if (field < 0) return msg(in, "needs the field it replaces (.global_address, .rank, ...)");
  const Field f = Field(field);
  const Type want = f == Field::GlobalAddress || f == Field::GlobalStride ? Type::B64 : Type::B32;
  if (m.types.empty() || m.types.back() != want)
    return msg(in, std::string("takes the value as .") + (want == Type::B64 ? "b64" : "b32"));
  in.flags = uint32_t(field);
  in.run = replaceH;
  const size_t n = takesOrdinal(f) ? 3 : 2;
  if (in.ops.size() != n || in.ops[0].kind != OpndKind::Addr)
    return msg(in, takesOrdinal(f) ? "takes an address, an ordinal and a value"
                                   : "takes an address and a value");
  return expectRegs(
      in, takesOrdinal(f) ? std::initializer_list<size_t>{1, 2} : std::initializer_list<size_t>{1});
}

}  // namespace

std::vector<OpcodeSpec> tensorMapFamily() {
  std::vector<std::string_view> mods = {"replace", "tile",        "global",
                                        "shared",  "shared::cta", "b1024"};
  mods.insert(mods.end(), std::begin(kFieldNames), std::end(kFieldNames));
  return {{"tensormap",
           "tensormap",
           InsnClass::StoreGlobal,
           Role::Compute,
           Operation::Other,
           {Type::B32, Type::B64},
           mods,
           bindReplace},
          // Untyped: the copy of an edited map to global memory.
          {"tensormap",
           "tensormap",
           InsnClass::StoreGlobal,
           Role::Compute,
           Operation::Other,
           {},
           {"cp_fenceproxy", "global", "shared::cta", "tensormap::generic", "release", "cta",
            "cluster", "gpu", "sys", "sync", "aligned"},
           bindCopyFenceProxy}};
}

}  // namespace warpsim::isa::insns
