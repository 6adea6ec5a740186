// Texture and surface instructions through texture/surface objects (PTX ISA, "Texture
// Instructions" and "Surface Instructions"), the handle in a 64-bit register:
//   tex{.base}.{1d,2d,3d,a1d,a2d,cube,acube}.v4.{f32,s32,u32}.{f32,s32}   d, [h, {coords}]
//   tex.level.{1d,2d,3d}.v4.(types)                                d, [h, {coords}], lod
//   tex.grad.{1d,2d,3d,cube,acube}.v4.(types)                      d, [h, {coords}], {ddx}, {ddy}
//   tld4.{r,g,b,a}.{2d,a2d,cube,acube}.v4.{f32,s32,u32}.f32        d, [h, {coords}]
//   txq.{width,height,depth,array_size,normalized_coords,filter_mode,addr_mode_0..2,
//        num_mipmap_levels,num_samples}.b32                       d, [h]
//   txq.level.{width,height,depth}.b32                            d, [h], lod
//   suld.b.{1d,2d,3d,a1d,a2d}{.v2,.v4}.{b8,b16,b32,b64}{.trap,.clamp,.zero}  d, [h, {coords}]
//   sust.b.(the same)                                             [h, {coords}], {data}
//   sust.p.{1d,2d,3d}{.v2,.v4}.b32.(clamp)                        [h, {coords}], {data}
//   sured.b.{add,min,max,and,or}.(geometry).{u32,s32,b32,u64,s64,b64}  [h, {coords}], a
//   sured.p.{add,min,max,and,or}.{1d,2d,3d}.{b32,b64}.(clamp)     [h, {coords}], a
//   suq.{width,height,depth,array_size}.b32                       d, [h]
// The handle is the device address of a descriptor (isa/insns/texture_object.h), read with
// global loads; texels are read and written with global accesses too, so the checkers and the
// timing model see them. Which texels and weights: isa/insns/texture_sample.h; which mipmap
// levels (tex.level, tex.grad, and tex on a mipmapped texture): isa/insns/texture_mipmap.h;
// what the formatted surface forms convert: isa/insns/surface_format.h.
// Refused at load, as the chip's driver refuses them on sm_90 (isa/diagnostic.h Refusal):
// txq/suq .channel_data_type and .channel_order (the module does not load), tex.2dms/a2dms
// (the kernel is not found) and independent mode (the parser refuses .texmode_independent).
// Not yet: f16 results, offsets and depth compare; they fault "not supported yet".
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <memory>
#include <optional>

#include "isa/insns/addresses.h"
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"
#include "isa/insns/surface_format.h"
#include "isa/insns/texture_mipmap.h"
#include "isa/insns/texture_sample.h"

namespace warpsim::isa::insns {
namespace {

using tex::Object;

// Inst::flags
constexpr uint32_t kDimsMask = 3;      // 1, 2, 3
constexpr uint32_t kLayered = 4;       // a1d / a2d
constexpr uint32_t kIntCoords = 8;     // .s32 coordinates
constexpr uint32_t kDstShift = 4;      // bits 4..5: 0 f32, 1 s32, 2 u32
constexpr uint32_t kCompShift = 6;     // tld4 component, bits 6..7
constexpr uint32_t kClampShift = 8;    // suld/sust: 0 trap, 1 clamp, 2 zero (bits 8..9)
constexpr uint32_t kBytesShift = 10;   // suld/sust: element bytes (bits 10..14)
constexpr uint32_t kVecShift = 16;     // suld/sust: vector width (bits 16..18)
constexpr uint32_t kQueryShift = 20;   // txq/suq: the query (bits 20..24)
constexpr uint32_t kCube = 1u << 30;   // tex.cube / tex.acube (with kLayered for acube)
constexpr uint32_t kLevel = 1u << 20;  // tex.level: ops[2] is the level of detail
constexpr uint32_t kGrad = 1u << 21;   // tex.grad: ops[2], ops[3] are d/dx and d/dy
constexpr uint32_t kRedShift = 25;     // sured: the reduction (kReductions' index), bits 25..29

// The new forms' flags, in bits the others leave free for their instructions.
constexpr uint32_t kFormatted = 1u << 15;   // sust.p / sured.p: x counts samples, not bytes
constexpr uint32_t kLevelQuery = 1u << 19;  // txq.level: ops[2] is the level

enum class Query : uint8_t {
  Width,
  Height,
  Depth,
  ArraySize,
  Normalized,
  FilterMode,
  Addr0,
  Addr1,
  Addr2,
  MipLevels,
  Samples
};

// The descriptors of the lanes' handles: read once per distinct handle, checked.
struct Descriptors {
  std::array<Object, kWarpSize> obj;
};

// The descriptor at handle h, read for lane `lead` and checked (a bad one traps that lane).
Object readDescriptor(Exec& x, const Inst& in, unsigned lead, uint64_t h, tex::Kind want) {
  uint64_t addrs[kWarpSize] = {}, words[kWarpSize * 4] = {};
  uint8_t raw[tex::kDescriptorBytes];
  for (unsigned part = 0; part < tex::kDescriptorBytes / 32; ++part) {
    addrs[lead] = h + part * 32;
    x.machine->load(in, Space::Global, LaneMask{1} << lead, addrs, 8, 4, words);
    std::memcpy(raw + part * 32, words + lead * 4, 32);
  }
  Object o;
  std::memcpy(&o, raw, sizeof o);
  std::string bad = tex::validate(o);
  if (bad.empty() && o.kind != want)
    bad = want == tex::Kind::Surface ? "is a texture, not a surface" : "is a surface object";
  if (!bad.empty()) {
    const std::string why = "the handle " + std::to_string(h) + " " + bad;
    x.machine->trap(in, LaneMask{1} << lead, why.c_str());
  }
  return o;
}

void readDescriptors(Exec& x, const Inst& in, const uint64_t* handles, Descriptors& d,
                     tex::Kind want) {
  LaneMask todo = x.mask;
  while (todo) {
    const unsigned lead = unsigned(std::countr_zero(todo));
    const uint64_t h = handles[lead];
    const Object o = readDescriptor(x, in, lead, h, want);
    forLanes(todo, [&](unsigned l) {
      if (handles[l] == h) {
        d.obj[l] = o;
        todo &= ~(LaneMask{1} << l);
      }
    });
  }
}

// The coordinate operand's element `i` (a vector, or a single register).
const Opnd& coordOp(const Inst& in, unsigned i) {
  const Opnd& c = in.ops[1].elems.size() > 0 ? in.ops[1].elems[0] : in.ops[1];
  return c.kind == OpndKind::Vec ? c.elems[i] : c;
}
// Element `i` of a vector operand (or the operand itself when it is one register).
const Opnd& vecElem(const Opnd& v, unsigned i) { return v.kind == OpndKind::Vec ? v.elems[i] : v; }
const Opnd& surfCoordOp(const Inst& in, unsigned addrOp, unsigned i) {
  const Opnd& c = in.ops[addrOp].elems[0];
  return c.kind == OpndKind::Vec ? c.elems[i] : c;
}

void handlesOf(const Exec& x, const Opnd& a, uint64_t* out) { laneAddresses(x, a, x.mask, out); }

void writeDest(Exec& x, const Opnd& d, unsigned lane, unsigned i, uint64_t v) {
  const Opnd& e = d.kind == OpndKind::Vec ? d.elems[i] : d;
  if (e.kind == OpndKind::Reg) x.reg(e)[lane] = v;
}

// Reads the texels of every lane's taps: texel bytes per (lane, tap). Left uninitialized (4 KiB
// a warp-instruction): only a lane's fetched taps are read, a border tap never.
struct Texels {
  std::array<std::array<std::array<uint8_t, 16>, 8>, kWarpSize> bytes;
};

// Copies `ch` channels of `cb` bytes each from the loaded words to a texel's bytes, with the
// size a constant (a memcpy call per lane and channel was a tenth of a filtered fetch).
template <unsigned CB>
void copyChannels(const uint64_t* words, unsigned ch, uint8_t* texel) {
  for (unsigned c = 0; c < ch; ++c) std::memcpy(texel + c * CB, &words[c], CB);
}

void fetchTaps(Exec& x, const Inst& in, LaneMask mask, const Descriptors& d,
               const uint64_t* handles, const std::array<tex::Footprint, kWarpSize>& fp,
               Texels& out) {
  unsigned taps = 0;  // the most any lane's footprint has: 1, 2, 4 or 8
  forLanes(mask, [&](unsigned l) { taps = std::max(taps, fp[l].n); });
  for (unsigned t = 0; t < taps; ++t) {
    // Lanes are grouped by texel size: one warp-wide load per tap and size.
    LaneMask pending = 0;
    forLanes(mask, [&](unsigned l) {
      if (t < fp[l].n && fp[l].taps[t].offset != tex::kBorder) pending |= LaneMask{1} << l;
    });
    while (pending) {
      const unsigned lead = unsigned(std::countr_zero(pending));
      const unsigned cb = tex::channelBytes(d.obj[lead].channel), ch = d.obj[lead].channels;
      LaneMask group = 0;
      uint64_t addrs[kWarpSize] = {};
      forLanes(pending, [&](unsigned l) {
        if (tex::channelBytes(d.obj[l].channel) == cb && d.obj[l].channels == ch) {
          group |= LaneMask{1} << l;
          addrs[l] = handles[l] + uint64_t(d.obj[l].dataOffset) + uint64_t(fp[l].taps[t].offset);
        }
      });
      pending &= ~group;
      uint64_t vals[kWarpSize * 4];  // the load writes every lane of `group`
      x.machine->load(in, Space::Global, group, addrs, cb, ch, vals);
      forLanes(group, [&](unsigned l) {
        uint8_t* texel = out.bytes[l][t].data();
        if (cb == 4)
          copyChannels<4>(vals + l * ch, ch, texel);
        else if (cb == 2)
          copyChannels<2>(vals + l * ch, ch, texel);
        else
          copyChannels<1>(vals + l * ch, ch, texel);
      });
    }
  }
}

// The border color as texel bytes of the object's format (float formats; integer formats
// read the border as zero, which is what CUDA's default border color is).
void borderTexel(const Object& o, uint8_t* texel) {
  std::memset(texel, 0, 16);
  if (o.channel == tex::Channel::F32) std::memcpy(texel, o.border, 4u * o.channels);
}

float fetchedFloat(const Object& o, const tex::Tap& tap, const uint8_t* bytes, unsigned c) {
  if (c >= o.channels) return tex::missingChannel(c);
  if (tap.offset == tex::kBorder) return o.border[c];
  return tex::channelAsFloat(o, bytes, c);
}

// The second mipmap level a blended fetch reads: its descriptors, footprints, texels and weights.
struct UpperLevel {
  Descriptors d;
  std::array<tex::Footprint, kWarpSize> fp;
  Texels texels;
  double blend[kWarpSize] = {};
};

// The descriptor without its level-of-detail bias.
Object unbiased(const Object& o) {
  Object u = o;
  u.lodBias = 0;
  return u;
}

// A tex.2d.v4.f32.f32 whose lanes all read one texture (`handle`, its descriptor o) of f32 channels
// filtered linearly (tex::isPlainBilinearF32: resize_bilinear's fetch), with no observer: the taps
// and sums of texture_sample.h's bilinear forms, the texels read in place, four warp-wide checks
// (one a tap). Returns false, having written nothing, where it does not apply (an observer, a tap
// outside one allocation: the general path then loads, and faults, as always).
bool plainBilinear(Exec& x, const Inst& in, uint64_t handle, const Object& o) {
  constexpr uint32_t kOther = kLayered | kIntCoords | kCube | kLevel | kGrad;
  if ((in.flags & kOther) || (in.flags & kDimsMask) != 2 || ((in.flags >> kDstShift) & 3) != 0 ||
      !tex::isPlainBilinearF32(o))
    return false;
  const uint64_t *cx = x.reg(coordOp(in, 0)), *cy = x.reg(coordOp(in, 1));
  std::array<tex::Bilinear, kWarpSize> taps;
  forLanes(x.mask, [&](unsigned l) {
    taps[l] = tex::bilinearTaps(o, fp::f32(uint32_t(cx[l])), fp::f32(uint32_t(cy[l])));
  });
  const unsigned ch = o.channels;
  const uint64_t first = handle + uint64_t(o.dataOffset);
  const uint8_t* at[4][kWarpSize];  // tap t's texel of lane l
  for (unsigned t = 0; t < 4; ++t) {
    uint64_t addrs[kWarpSize];
    forLanes(x.mask, [&](unsigned l) { addrs[l] = first + taps[l].offset[t]; });
    Machine::DirectRegion r;
    if (!x.machine->direct(Space::Global, x.mask, addrs, 4 * ch, false, r) || r.laneStride)
      return false;
    forLanes(x.mask, [&](unsigned l) { at[t][l] = r.host + (addrs[l] - r.origin); });
  }
  uint64_t* out[4];  // writeDest's registers (null: none)
  for (unsigned c = 0; c < 4; ++c) {
    const Opnd& e = vecElem(in.ops[0], c);
    out[c] = e.kind == OpndKind::Reg ? x.reg(e) : nullptr;
  }
  // Channel by channel (the lanes' taps and texels are all read already, so a destination that
  // is also a coordinate register changes nothing), in channel order as writeDest writes them.
  for (unsigned c = 0; c < 4; ++c) {
    if (!out[c]) continue;
    if (c >= ch) {
      const uint64_t missing = fp::bits(tex::missingChannel(c));
      forLanes(x.mask, [&](unsigned l) { out[c][l] = missing; });
      continue;
    }
    forLanes(x.mask, [&](unsigned l) {
      float texel[4];
      for (unsigned t = 0; t < 4; ++t) std::memcpy(&texel[t], at[t][l] + 4 * c, 4);
      out[c][l] = fp::bits(tex::bilinearF32(texel, taps[l].weight));
    });
  }
  return true;
}

void runTex(Exec& x, const Inst& in) {
  if (!x.mask) return;
  const unsigned dims = in.flags & kDimsMask;
  const bool layered = in.flags & kLayered, intCoords = in.flags & kIntCoords;
  const unsigned dst = (in.flags >> kDstShift) & 3;
  uint64_t handles[kWarpSize] = {};
  handlesOf(x, in.ops[1], handles);
  // The lanes' descriptors; when they all name one texture (the common case) it is read once
  // and the plain bilinear fetch tried before the general path.
  const unsigned lead = unsigned(std::countr_zero(x.mask));
  bool uniform = true;
  forLanes(x.mask, [&](unsigned l) { uniform &= handles[l] == handles[lead]; });
  std::optional<Object> one;
  if (uniform) {
    one = readDescriptor(x, in, lead, handles[lead], tex::Kind::Texture);
    if (plainBilinear(x, in, handles[lead], *one)) return;
  }
  Descriptors d;
  if (one)
    forLanes(x.mask, [&](unsigned l) { d.obj[l] = *one; });
  else
    readDescriptors(x, in, handles, d, tex::Kind::Texture);
  // Mipmaps: each lane's descriptor becomes that of the level it reads; the lanes in `blended`
  // blend in a second level (`up`) by up->blend[lane] (isa/insns/texture_mipmap.h). The second
  // level's state (13 KiB) is made only for a mipmapped texture.
  std::unique_ptr<UpperLevel> up;
  LaneMask blended = 0;
  forLanes(x.mask, [&](unsigned l) {
    if (d.obj[l].levels <= 1) return;
    if (!up) up = std::make_unique<UpperLevel>();
    // A mipmapped texture's coordinates are normalized whatever the descriptor says (the H200:
    // mipmap_probe.h200.txt, un2 with normalizedCoords = 0 reads as normalized).
    d.obj[l].normalizedCoords = 1;
    const Object& o = d.obj[l];
    float lod = 0;
    if (in.flags & kLevel) lod = fp::f32(uint32_t(x.reg(in.ops[2])[l]));
    if (in.flags & kGrad) {
      // A cube map's gradients are of the direction: three components (bindTex checks).
      const unsigned n = (in.flags & kCube) ? 3 : dims;
      float dx[3] = {}, dy[3] = {};
      for (unsigned i = 0; i < n; ++i) {
        dx[i] = fp::f32(uint32_t(x.reg(vecElem(in.ops[2], i))[l]));
        dy[i] = fp::f32(uint32_t(x.reg(vecElem(in.ops[3], i))[l]));
      }
      if (in.flags & kCube) {
        const unsigned first = layered ? 1 : 0;
        float dir[3];
        for (unsigned i = 0; i < 3; ++i)
          dir[i] = fp::f32(uint32_t(x.reg(coordOp(in, first + i))[l]));
        lod = tex::lodFromCubeGradients(o, dir, dx, dy);
      } else {
        lod = tex::lodFromGradients(o, dx, dy);
      }
    }
    // A plain tex (and tex.base) reads level 0 without the bias, within the level clamps (the
    // H200: texture_forms_probe's Bl, bias 1.5, reads level 0; Bc, min clamp 2, level 2; the
    // mipmap probe's lb2 and ub2 plain fetches likewise).
    const bool plain = !(in.flags & (kLevel | kGrad));
    const tex::MipChoice c = plain ? tex::mipLevels(unbiased(o), 0) : tex::mipLevels(o, lod);
    if (c.n == 2 && !intCoords) {  // integer coordinates address one level's texels
      up->d.obj[l] = tex::levelOf(o, c.level[1]);
      blended |= LaneMask{1} << l;
      up->blend[l] = c.weight;
    }
    d.obj[l] = tex::levelOf(o, c.level[0]);
  });
  // Lane l's footprint in level object o (the base level's descriptor, or a mip level's).
  const auto footprintIn = [&](const Object& o, unsigned l, tex::Footprint& out) {
    if (in.flags & kCube) {
      // A direction (x, y, z) picks a face (a layer) and normalized coordinates on it.
      const unsigned first = layered ? 1 : 0;
      const tex::CubeCoords cc =
          tex::cubeCoords(fp::f32(uint32_t(x.reg(coordOp(in, first))[l])),
                          fp::f32(uint32_t(x.reg(coordOp(in, first + 1))[l])),
                          fp::f32(uint32_t(x.reg(coordOp(in, first + 2))[l])));
      // An index past the last cube (a negative one too, as unsigned) reads the last cube's
      // face (the H200, mipmap_probe.h200.txt: CAl cubelayer at layers -1 and 2 of 2).
      const uint32_t cubes = std::max<uint32_t>(1, o.layers / 6);
      const uint32_t cubeIndex =
          layered ? std::min(uint32_t(x.reg(coordOp(in, 0))[l]), cubes - 1) : 0;
      Object face = o;
      face.normalizedCoords = 1;
      face.address[0] = face.address[1] = tex::Address::Clamp;
      if (o.seamlessCubemap && o.filter == tex::Filter::Linear) {
        tex::seamlessCubeFootprint(face, cc.s, cc.t, cubeIndex * 6, cc.face, out);
        return;
      }
      const float st[2] = {cc.s, cc.t};
      tex::footprint(face, st, nullptr, false, cubeIndex * 6 + cc.face, out);
      return;
    }
    const unsigned first = layered ? 1 : 0;
    float c[3] = {};
    int32_t ic[3] = {};
    for (unsigned i = 0; i < dims; ++i) {
      const uint64_t v = x.reg(coordOp(in, first + i))[l];
      c[i] = fp::f32(uint32_t(v));
      ic[i] = int32_t(uint32_t(v));
    }
    const uint32_t layer = layered ? uint32_t(x.reg(coordOp(in, 0))[l]) : 0;
    if (intCoords) {
      // Integer coordinates address texels directly, unfiltered.
      Object point = o;
      point.filter = tex::Filter::Point;
      tex::footprint(point, c, ic, true, layer, out);
    } else {
      tex::footprint(o, c, ic, false, layer, out);
    }
  };
  std::array<tex::Footprint, kWarpSize> fp;
  forLanes(x.mask, [&](unsigned l) {
    const Object& o = d.obj[l];
    if (!(in.flags & kCube) && (o.dims != dims || bool(o.layered) != layered)) {
      const std::string why = "tex of " + std::to_string(dims) + "-d" +
                              (layered ? " layered" : "") + " geometry on a " +
                              std::to_string(o.dims) + "-d" + (o.layered ? " layered" : "") +
                              " texture object";
      x.machine->trap(in, LaneMask{1} << l, why.c_str());
    }
    if ((in.flags & kCube) && !o.cube)
      x.machine->trap(in, LaneMask{1} << l, "tex.cube on a texture that is not a cube map");
    if (!(in.flags & kCube) && o.cube)
      x.machine->trap(in, LaneMask{1} << l, "tex of a cube map needs .cube or .acube");
    footprintIn(o, l, fp[l]);
  });
  Texels texels;
  fetchTaps(x, in, x.mask, d, handles, fp, texels);
  if (blended) {
    // The second level's footprint, at the same coordinates (its own size and texels).
    forLanes(blended, [&](unsigned l) { footprintIn(up->d.obj[l], l, up->fp[l]); });
    fetchTaps(x, in, blended, up->d, handles, up->fp, up->texels);
  }
  forLanes(x.mask, [&](unsigned l) {
    const Object& o = d.obj[l];
    const tex::Footprint& f = fp[l];
    // What the fetch returns is the descriptor's, not the instruction's: a descriptor that reads
    // floats (a float or UNORM/SNORM format, or the normalized-float read mode) gives their bits
    // to tex.s32/.u32 as well (measured: the probe's normread section, docs/FIDELITY.md).
    if (tex::readsFloat(o) && (blended >> l & 1)) {
      // Both levels' taps in one weighted sum, rounded once (texture_mipmap.h).
      const tex::Footprint both = tex::blendedFootprint(f, up->fp[l], up->blend[l]);
      const uint8_t* tapBytes[tex::kMaxTaps];
      for (unsigned i = 0; i < f.n; ++i) tapBytes[i] = texels.bytes[l][i].data();
      for (unsigned i = 0; i < up->fp[l].n; ++i) tapBytes[f.n + i] = up->texels.bytes[l][i].data();
      for (unsigned c = 0; c < 4; ++c)
        writeDest(x, in.ops[0], l, c, fp::bits(tex::filteredChannel(o, both, tapBytes, c)));
    } else if (tex::readsFloat(o)) {
      // One level: point sampling returns the texel's float as it is (NaN payloads and -0
      // survive), linear filtering the weighted sum.
      const uint8_t* tapBytes[8];
      for (unsigned i = 0; i < f.n; ++i) tapBytes[i] = texels.bytes[l][i].data();
      for (unsigned c = 0; c < 4; ++c) {
        const float v = c >= o.channels ? tex::missingChannel(c)
                        : f.n == 1      ? fetchedFloat(o, f.taps[0], tapBytes[0], c)
                                        : tex::filteredChannel(o, f, tapBytes, c);
        writeDest(x, in.ops[0], l, c, fp::bits(v));
      }
    } else {
      // An element-type read of integers (tex.v4.s32/u32, point sampling): the raw channels.
      uint8_t border[16];
      borderTexel(o, border);
      const uint8_t* texel = f.taps[0].offset == tex::kBorder ? border : texels.bytes[l][0].data();
      for (unsigned c = 0; c < 4; ++c) {
        uint32_t v = c < o.channels ? tex::channelAsInt(o, texel, c) : 0u;
        if (dst == 0)
          v = fp::bits(
              float(c < o.channels ? tex::channelAsFloat(o, texel, c) : tex::missingChannel(c)));
        writeDest(x, in.ops[0], l, c, v);
      }
    }
  });
}

void runTld4(Exec& x, const Inst& in) {
  if (!x.mask) return;
  const bool layered = in.flags & kLayered;
  const unsigned comp = (in.flags >> kCompShift) & 3;
  const unsigned dst = (in.flags >> kDstShift) & 3;
  uint64_t handles[kWarpSize] = {};
  handlesOf(x, in.ops[1], handles);
  Descriptors d;
  readDescriptors(x, in, handles, d, tex::Kind::Texture);
  std::array<tex::Footprint, kWarpSize> fp;
  std::array<tex::CubeCorner, kWarpSize> corner;
  forLanes(x.mask, [&](unsigned l) {
    const unsigned first = layered ? 1 : 0;
    if (in.flags & kCube) {
      const Object& o = d.obj[l];
      if (!o.cube)
        x.machine->trap(in, LaneMask{1} << l, "tld4.cube on a texture that is not a cube map");
      // As tex.cube: an index past the last cube reads the last.
      const uint32_t cubes = std::max<uint32_t>(1, o.layers / 6);
      const uint32_t cube = layered ? std::min(uint32_t(x.reg(coordOp(in, 0))[l]), cubes - 1) : 0;
      fp[l] = tex::cubeGatherFootprint(o, fp::f32(uint32_t(x.reg(coordOp(in, first))[l])),
                                       fp::f32(uint32_t(x.reg(coordOp(in, first + 1))[l])),
                                       fp::f32(uint32_t(x.reg(coordOp(in, first + 2))[l])), cube,
                                       corner[l]);
      return;
    }
    const float cx = fp::f32(uint32_t(x.reg(coordOp(in, first))[l]));
    const float cy = fp::f32(uint32_t(x.reg(coordOp(in, first + 1))[l]));
    const uint32_t layer = layered ? uint32_t(x.reg(coordOp(in, 0))[l]) : 0;
    if (d.obj[l].dims != 2)
      x.machine->trap(in, LaneMask{1} << l, "tld4 on a texture that is not 2-d");
    fp[l] = tex::gatherFootprint(d.obj[l], cx, cy, layer);
  });
  Texels texels;
  fetchTaps(x, in, x.mask, d, handles, fp, texels);
  forLanes(x.mask, [&](unsigned l) {
    const Object& o = d.obj[l];
    for (unsigned t = 0; t < 4; ++t) {
      const uint8_t* bytes = texels.bytes[l][t].data();
      uint32_t v;
      const tex::CubeCorner& c = corner[l];
      if (dst == 0 && int(t) == c.tap) {
        // A seamless cube's corner: the three texels about it blended (texture_sample.h).
        tex::Footprint blend;
        const uint8_t* from[3];
        blend.n = 3;
        for (unsigned i = 0; i < 3; ++i) {
          blend.taps[i] = {fp[l].taps[c.others[i]].offset, c.weights[i] / 256.0};
          from[i] = texels.bytes[l][c.others[i]].data();
        }
        v = fp::bits(comp < o.channels ? tex::filteredChannel(o, blend, from, comp)
                                       : tex::missingChannel(comp));
      } else if (dst == 0)
        v = fp::bits(fetchedFloat(o, fp[l].taps[t], bytes, comp));
      else if (comp >= o.channels)
        v = comp == 3 ? 1u : 0u;
      else
        v = fp[l].taps[t].offset == tex::kBorder ? 0u : tex::channelAsInt(o, bytes, comp);
      writeDest(x, in.ops[0], l, t, v);
    }
  });
}

void runQuery(Exec& x, const Inst& in, tex::Kind kind) {
  if (!x.mask) return;
  uint64_t handles[kWarpSize] = {};
  handlesOf(x, in.ops[1], handles);
  Descriptors d;
  readDescriptors(x, in, handles, d, kind);
  const auto q = Query((in.flags >> kQueryShift) & 31);
  forLanes(x.mask, [&](unsigned l) {
    const Object& o = d.obj[l];
    uint32_t v = 0;
    switch (q) {
      case Query::Width:
        v = o.width;
        break;
      case Query::Height:
        v = o.dims >= 2 ? o.height : 1;
        break;
      case Query::Depth:
        v = o.dims >= 3 ? o.depth : 1;
        break;
      case Query::ArraySize:
        v = o.layered ? o.layers : 0;
        break;
      case Query::Normalized:
        v = o.normalizedCoords;
        break;
      case Query::FilterMode:
        v = uint32_t(o.filter);  // cudaFilterModePoint 0, cudaFilterModeLinear 1
        break;
      case Query::Addr0:
      case Query::Addr1:
      case Query::Addr2:
        // cudaAddressModeWrap 0, Clamp 1, Mirror 2, Border 3: the enum's own order.
        v = uint32_t(o.address[unsigned(q) - unsigned(Query::Addr0)]);
        break;
      case Query::MipLevels:
        v = o.levels;  // 1: a texture without mipmaps has its one level
        break;
      case Query::Samples:
        v = 1;
        break;
    }
    if (in.flags & kLevelQuery) {
      // txq.level: the size of mip level `lod`; 0 for a level past the last or negative, and for
      // an axis the texture lacks (the H200: a 2-d texture's depth is 0 at every level).
      const auto lod = int32_t(uint32_t(x.reg(in.ops[2])[l]));
      v = lod < 0 || lod >= int32_t(std::max<uint8_t>(o.levels, 1)) ? 0
          : q == Query::Width  ? tex::levelSize(o.width, unsigned(lod))
          : q == Query::Height ? (o.dims >= 2 ? tex::levelSize(o.height, unsigned(lod)) : 0)
                               : (o.dims >= 3 ? tex::levelSize(o.depth, unsigned(lod)) : 0);
    }
    x.reg(in.ops[0])[l] = v;
  });
}
void runTxq(Exec& x, const Inst& in) { runQuery(x, in, tex::Kind::Texture); }
void runSuq(Exec& x, const Inst& in) { runQuery(x, in, tex::Kind::Surface); }

// suld / sust: the byte address of each lane's access, or a lane left out (.zero) or trapped.
enum class SurfaceAccess : uint8_t { Load, Store, Reduce };

// sured's operations on the texel (old) and the operand (a), by type.
template <class T>
uint64_t redAdd(uint64_t old, uint64_t a, uint64_t) {
  return uint64_t(T(old) + T(a));
}
template <class T>
uint64_t redMin(uint64_t old, uint64_t a, uint64_t) {
  return uint64_t(std::min(T(old), T(a)));
}
template <class T>
uint64_t redMax(uint64_t old, uint64_t a, uint64_t) {
  return uint64_t(std::max(T(old), T(a)));
}
uint64_t redAnd(uint64_t old, uint64_t a, uint64_t) { return old & a; }
uint64_t redOr(uint64_t old, uint64_t a, uint64_t) { return old | a; }

// Indexed by (in.flags >> kRedShift): op * 4 + {u32, s32, u64, s64}.
constexpr AtomFn kReductions[] = {redAdd<uint32_t>,
                                  redAdd<uint32_t>,
                                  redAdd<uint64_t>,
                                  redAdd<uint64_t>,
                                  redMin<uint32_t>,
                                  redMin<int32_t>,
                                  redMin<uint64_t>,
                                  redMin<int64_t>,
                                  redMax<uint32_t>,
                                  redMax<int32_t>,
                                  redMax<uint64_t>,
                                  redMax<int64_t>,
                                  redAnd,
                                  redAnd,
                                  redAnd,
                                  redAnd,
                                  redOr,
                                  redOr,
                                  redOr,
                                  redOr};

// sust.p: each lane's source words converted to its surface's channels (surface_format.h), a
// channel the vector lacks written as 0; lanes grouped by sample layout, one warp-wide store per
// group.
void storeFormatted(Exec& x, const Inst& in, const Descriptors& d, LaneMask live,
                    const uint64_t* addrs, unsigned vec) {
  const Opnd& data = in.ops[1];
  while (live) {
    const Object& lead = d.obj[unsigned(std::countr_zero(live))];
    LaneMask group = 0;
    forLanes(live, [&](unsigned l) {
      if (d.obj[l].channel == lead.channel && d.obj[l].channels == lead.channels &&
          d.obj[l].normalizedFormat == lead.normalizedFormat)
        group |= LaneMask{1} << l;
    });
    live &= ~group;
    // The whole sample is written: a channel the vector lacks reads 0 after (the H200).
    const unsigned n = lead.channels;
    uint64_t vals[kWarpSize * 4] = {};
    forLanes(group, [&](unsigned l) {
      for (unsigned i = 0; i < std::min(vec, n); ++i) {
        const auto word = uint32_t(x.reg(vecElem(data, i))[l]);
        vals[l * n + i] = lead.normalizedFormat ? tex::normalizedChannel(lead.channel, word)
                                                : tex::formattedChannel(lead.channel, word);
      }
    });
    x.machine->store(in, Space::Global, group, addrs, tex::channelBytes(lead.channel), n, vals);
  }
}

// sured.p: the sample reduced as .u32/.u64 or .s32/.s64 by its format's signedness.
void reduceFormatted(Exec& x, const Inst& in, const Descriptors& d, LaneMask live,
                     const uint64_t* addrs, unsigned bytes) {
  LaneMask isSigned = 0;
  forLanes(live, [&](unsigned l) {
    if (tex::reducesSigned(d.obj[l].channel)) isSigned |= LaneMask{1} << l;
  });
  uint64_t a[kWarpSize] = {}, old[kWarpSize] = {};
  forLanes(live, [&](unsigned l) { a[l] = x.reg(in.ops[1])[l]; });
  const uint32_t fn = in.flags >> kRedShift;  // the unsigned reduction's index
  for (const LaneMask group : {live & ~isSigned, live & isSigned})
    if (group)
      x.machine->atomic(in, Space::Global, group, addrs, bytes,
                        kReductions[fn | (group & isSigned ? 1u : 0u)], a, a, old);
}

template <SurfaceAccess Access>
void runSurface(Exec& x, const Inst& in) {
  if (!x.mask) return;
  constexpr bool Store = Access != SurfaceAccess::Load;
  const unsigned addrOp = Store ? 0 : 1, dataOp = Store ? 1 : 0;
  const unsigned dims = in.flags & kDimsMask;
  const bool layered = in.flags & kLayered;
  const unsigned clampMode = (in.flags >> kClampShift) & 3;
  const unsigned bytes = (in.flags >> kBytesShift) & 31, vec = (in.flags >> kVecShift) & 7;
  const unsigned access = bytes * vec;
  const bool formatted = in.flags & kFormatted;
  uint64_t handles[kWarpSize] = {};
  handlesOf(x, in.ops[addrOp], handles);
  Descriptors d;
  readDescriptors(x, in, handles, d, tex::Kind::Surface);
  uint64_t addrs[kWarpSize] = {};
  LaneMask live = 0;
  forLanes(x.mask, [&](unsigned l) {
    const Object& o = d.obj[l];
    const unsigned first = layered ? 1 : 0;
    int64_t c[3] = {0, 0, 0};
    for (unsigned i = 0; i < dims; ++i)
      c[i] = int32_t(uint32_t(x.reg(surfCoordOp(in, addrOp, first + i))[l]));
    int64_t layer = layered ? int64_t(uint32_t(x.reg(surfCoordOp(in, addrOp, 0))[l])) : 0;
    // x counts bytes (sust.p: samples; sured.p: words of its operand's size, the H200's .b32 on a
    // u32 x 2 surface reducing word x of the row, not sample x); y, z and the layer count rows,
    // slices and layers.
    const uint64_t unit = Access == SurfaceAccess::Reduce ? bytes : tex::texelBytes(o);
    const int64_t limit[3] = {formatted ? int64_t(o.width * tex::texelBytes(o) / unit) - 1
                                        : int64_t(o.width) * tex::texelBytes(o) - int64_t(access),
                              int64_t(o.dims >= 2 ? o.height : 1) - 1,
                              int64_t(o.dims >= 3 ? o.depth : 1) - 1};
    bool out = layer >= int64_t(o.layers) || (layered && !o.layered);
    for (unsigned i = 0; i < 3; ++i) out = out || c[i] < 0 || c[i] > limit[i];
    if (out) {
      if (clampMode == 0) {
        const char* op = Access == SurfaceAccess::Load    ? "suld"
                         : Access == SurfaceAccess::Store ? "sust"
                                                          : "sured";
        const std::string why = std::string(op) + " outside the surface (x " +
                                std::to_string(c[0]) + (formatted ? " samples" : " bytes") +
                                ", y " + std::to_string(c[1]) + ", z " + std::to_string(c[2]) + ")";
        // An illegal address on the chip (cudaErrorIllegalAddress), not a trap.
        x.machine->addressFault(in, l, why);
      }
      if (clampMode == 2) return;  // .zero: loads read zeros, stores are dropped
      for (unsigned i = 0; i < 3; ++i)
        c[i] = std::clamp<int64_t>(c[i], 0, std::max<int64_t>(limit[i], 0));
      layer = std::min<int64_t>(layer, o.layers - 1);
    }
    const uint64_t xBytes = formatted ? uint64_t(c[0]) * unit : uint64_t(c[0]);
    addrs[l] = handles[l] + uint64_t(o.dataOffset) + xBytes + uint64_t(c[1]) * o.pitch +
               uint64_t(c[2] + layer) * o.slicePitch;
    live |= LaneMask{1} << l;
  });
  uint64_t vals[kWarpSize * 4] = {};
  const Opnd& data = in.ops[dataOp];
  if (formatted) {
    if constexpr (Access == SurfaceAccess::Reduce)
      reduceFormatted(x, in, d, live, addrs, bytes);
    else if constexpr (Access == SurfaceAccess::Store)
      storeFormatted(x, in, d, live, addrs, vec);
    return;
  }
  if constexpr (Access == SurfaceAccess::Reduce) {
    uint64_t a[kWarpSize] = {}, old[kWarpSize] = {};
    forLanes(live, [&](unsigned l) { a[l] = x.reg(data)[l]; });
    if (live)
      x.machine->atomic(in, Space::Global, live, addrs, bytes, kReductions[in.flags >> kRedShift],
                        a, a, old);
  } else if constexpr (Store) {
    forLanes(live, [&](unsigned l) {
      for (unsigned i = 0; i < vec; ++i) {
        const Opnd& e = data.kind == OpndKind::Vec ? data.elems[i] : data;
        vals[l * vec + i] = x.reg(e)[l];
      }
    });
    if (live) x.machine->store(in, Space::Global, live, addrs, bytes, vec, vals);
  } else {
    if (live) x.machine->load(in, Space::Global, live, addrs, bytes, vec, vals);
    forLanes(x.mask, [&](unsigned l) {
      for (unsigned i = 0; i < vec; ++i)
        writeDest(x, data, l, i, (live >> l & 1) ? vals[l * vec + i] : 0);
    });
  }
}

// Decodes the geometry word into flags; false when not executed yet.
bool geometryFlags(const Mods& m, uint32_t& flags) {
  if (m.has("1d"))
    flags |= 1;
  else if (m.has("2d"))
    flags |= 2;
  else if (m.has("3d"))
    flags |= 3;
  else if (m.has("a1d"))
    flags |= 1 | kLayered;
  else if (m.has("a2d"))
    flags |= 2 | kLayered;
  else if (m.has("cube"))
    flags |= 2 | kCube;
  else if (m.has("acube"))
    flags |= 2 | kLayered | kCube;
  else
    return false;
  return true;
}

// The coordinate count of a geometry as PTX writes it: 3d and a2d pad to four.
unsigned coordCount(uint32_t flags) {
  if (flags & kCube) return 4;  // cube: {x, y, z, _}; acube: {index, x, y, z}
  const unsigned dims = flags & kDimsMask;
  const unsigned n = dims + ((flags & kLayered) ? 1 : 0);
  return n == 3 ? 4 : n;
}

std::string checkAddress(const Inst& in, unsigned op, uint32_t flags) {
  const Opnd& a = in.ops[op];
  if (a.kind != OpndKind::Addr || a.baseSlot == kNoSlot || a.elems.size() != 1)
    return msg(in, "takes [handle, {coordinates}] with the handle in a register");
  const Opnd& c = a.elems[0];
  const unsigned n = c.kind == OpndKind::Vec ? unsigned(c.elems.size()) : 1;
  if (n != coordCount(flags))
    return msg(in, "takes " + std::to_string(coordCount(flags)) + " coordinates, not " +
                       std::to_string(n));
  if (c.kind == OpndKind::Vec)
    for (const Opnd& e : c.elems)
      if (e.kind != OpndKind::Reg) return msg(in, "takes coordinates in registers or immediates");
  return "";
}

uint32_t dstFlags(Type t) {
  return uint32_t(t == Type::S32 ? 1 : t == Type::U32 ? 2 : 0) << kDstShift;
}

std::string bindTex(Inst& in) {
  const Mods& m = in.mods;
  uint32_t flags = 0;
  const bool level = m.has("level"), grad = m.has("grad");
  const size_t operands = 2 + (level ? 1 : 0) + (grad ? 2 : 0);
  // The multisample geometries: ptxas assembles them, but the chip's driver loads the module
  // without the kernel ("named symbol not found"; CUDA makes no multisample textures).
  if (m.has("2dms") || m.has("a2dms"))
    throw Refused{Refusal::KernelNotFound,
                  msg(in,
                      "reads a multisample texture: the CUDA driver for sm_90 loads the "
                      "module without this kernel (CUDA_ERROR_NOT_FOUND, as on the chip)")};
  // tex.base reads the base level as a plain tex does (its level of detail is 0).
  const bool geometry = geometryFlags(m, flags);
  if (!geometry || m.types.size() != 2 || m.vec != 4 || in.ops.size() != operands ||
      in.ops[0].kind != OpndKind::Vec ||
      (in.ops[1].kind == OpndKind::Addr && in.ops[1].elems.size() != 1)) {
    in.run = notSupportedHandler;  // samplers (independent mode), f16 results: not yet
    return "";
  }
  if (level) {
    if (in.ops[2].kind != OpndKind::Reg) return msg(in, "takes its level of detail in a register");
    flags |= kLevel;
  }
  if (grad) {
    const unsigned dims = (flags & kCube) ? 3 : flags & kDimsMask;  // a direction's three
    for (unsigned i = 2; i < 4; ++i) {
      const Opnd& g = in.ops[i];
      const unsigned n = g.kind == OpndKind::Vec ? unsigned(g.elems.size()) : 1;
      if (n < dims || (g.kind != OpndKind::Vec && g.kind != OpndKind::Reg))
        return msg(in, "takes gradients of " + std::to_string(dims) + " coordinates");
    }
    flags |= kGrad;
  }
  const Type dt = m.types[0], ct = m.types[1];
  if (dt != Type::F32 && dt != Type::S32 && dt != Type::U32)
    return msg(in, "returns .f32, .s32 or .u32");
  if (ct != Type::F32 && ct != Type::S32) return msg(in, "takes .f32 or .s32 coordinates");
  if (in.ops[0].elems.size() != 4) return msg(in, "writes a vector of 4 registers");
  flags |= dstFlags(dt) | (ct == Type::S32 ? kIntCoords : 0);
  if (auto e = checkAddress(in, 1, flags); !e.empty()) return e;
  in.flags = flags;
  in.cls = InsnClass::LoadGlobal;
  in.run = runTex;
  return "";
}

std::string bindTld4(Inst& in) {
  const Mods& m = in.mods;
  uint32_t flags = 0;
  unsigned comp = 0;
  if (m.has("r"))
    comp = 0;
  else if (m.has("g"))
    comp = 1;
  else if (m.has("b"))
    comp = 2;
  else if (m.has("a"))
    comp = 3;
  else
    return msg(in, "needs a component (.r, .g, .b or .a)");
  const bool ok = (m.has("2d") && (flags |= 2)) || (m.has("a2d") && (flags |= 2 | kLayered)) ||
                  (m.has("cube") && (flags |= 2 | kCube)) ||
                  (m.has("acube") && (flags |= 2 | kLayered | kCube));
  if (!ok || m.types.size() != 2 || in.ops.size() != 2 || in.ops[0].kind != OpndKind::Vec) {
    in.run = notSupportedHandler;  // samplers, offsets, depth compare: not yet
    return "";
  }
  const Type dt = m.types[0];
  if (dt != Type::F32 && dt != Type::S32 && dt != Type::U32)
    return msg(in, "returns .f32, .s32 or .u32");
  if (m.types[1] != Type::F32) return msg(in, "takes .f32 coordinates");
  if (in.ops[0].elems.size() != 4) return msg(in, "writes a vector of 4 registers");
  flags |= dstFlags(dt) | comp << kCompShift;
  if (auto e = checkAddress(in, 1, flags); !e.empty()) return e;
  in.flags = flags;
  in.cls = InsnClass::LoadGlobal;
  in.run = runTld4;
  return "";
}

std::string bindQuery(Inst& in, bool surface) {
  static constexpr std::pair<std::string_view, Query> kTex[] = {
      {"width", Query::Width},
      {"height", Query::Height},
      {"depth", Query::Depth},
      {"array_size", Query::ArraySize},
      {"normalized_coords", Query::Normalized},
      {"filter_mode", Query::FilterMode},
      {"addr_mode_0", Query::Addr0},
      {"addr_mode_1", Query::Addr1},
      {"addr_mode_2", Query::Addr2},
      {"num_mipmap_levels", Query::MipLevels},
      {"num_samples", Query::Samples}};
  const Mods& m = in.mods;
  // ptxas assembles them, but the chip's driver does not load a module that holds them.
  if (m.has("channel_data_type") || m.has("channel_order"))
    throw Refused{Refusal::ModuleNotSupported,
                  msg(in,
                      "queries the channel data type or order: the CUDA driver for sm_90 "
                      "does not load a module that does (CUDA_ERROR_NOT_SUPPORTED, as on "
                      "the chip)")};
  const bool level = m.has("level");
  int q = -1;
  for (const auto& [word, query] : kTex)
    if (m.has(word) && (!surface || query <= Query::ArraySize)) q = int(query);
  if (q < 0) {
    in.run = notSupportedHandler;  // memory_layout, sampler queries (independent mode): not yet
    return "";
  }
  if (level && (surface || q > int(Query::Depth)))
    return msg(in, "queries a level's .width, .height or .depth");
  if (auto e = expectOperands(in, level ? 3 : 2); !e.empty()) return e;
  if (in.ops[1].kind != OpndKind::Addr || in.ops[1].baseSlot == kNoSlot)
    return msg(in, "takes the object's handle in a register: [%rd]");
  if (level && in.ops[2].kind != OpndKind::Reg) return msg(in, "takes the level in a register");
  in.flags = uint32_t(q) << kQueryShift | (level ? kLevelQuery : 0);
  in.cls = InsnClass::LoadGlobal;
  in.run = surface ? runSuq : runTxq;
  return "";
}
std::string bindTxq(Inst& in) { return bindQuery(in, false); }
std::string bindSuq(Inst& in) { return bindQuery(in, true); }

template <SurfaceAccess Access>
std::string bindSurface(Inst& in) {
  constexpr bool Store = Access != SurfaceAccess::Load;
  const Mods& m = in.mods;
  uint32_t flags = 0;
  // sust.p / sured.p: formatted, on 1d, 2d and 3d surfaces (PTX ISA); there is no suld.p.
  const bool formatted = m.has("p") && Access != SurfaceAccess::Load;
  if ((!m.has("b") && !formatted) || !geometryFlags(m, flags) || (flags & kCube) ||
      (formatted && (flags & kLayered)) || m.types.size() != 1 || in.ops.size() != 2) {
    in.run = notSupportedHandler;  // suld.p, 2dms surfaces: not in the PTX ISA for sm_90
    return "";
  }
  if (formatted) flags |= kFormatted;
  unsigned bytes = 0;
  if constexpr (Access == SurfaceAccess::Reduce) {
    // sured.b.OP.GEOM.TYPE: OP add, min, max, and, or; TYPE u32 s32 b32 u64 s64 b64.
    static constexpr std::string_view kOps[] = {"add", "min", "max", "and", "or"};
    int op = -1;
    for (int i = 0; i < 5; ++i)
      if (m.has(kOps[i])) op = i;
    const Type t = m.types[0];
    const bool wide = typeBits(t) == 64, isSigned = t == Type::S32 || t == Type::S64;
    if (op < 0) return msg(in, "needs an operation (.add, .min, .max, .and or .or)");
    if (typeBits(t) != 32 && typeBits(t) != 64) return msg(in, "takes a 32- or 64-bit type");
    if (op >= 3 && isSigned) return msg(in, "takes .b32 or .b64 for .and and .or");
    if (formatted && t != Type::B32 && t != Type::B64) return msg(in, "takes .b32 or .b64");
    if (formatted && wide && op != 1 && op != 2)
      return msg(in, "takes .b64 for .min and .max only");
    bytes = wide ? 8 : 4;
    flags |= uint32_t(op * 4 + (wide ? 2 : 0) + (isSigned ? 1 : 0)) << kRedShift;
  } else {
    switch (m.types[0]) {
      case Type::B8:
        bytes = 1;
        break;
      case Type::B16:
        bytes = 2;
        break;
      case Type::B32:
        bytes = 4;
        break;
      case Type::B64:
        bytes = 8;
        break;
      default:
        return msg(in, "takes .b8, .b16, .b32 or .b64");
    }
    if (formatted && bytes != 4) return msg(in, "takes .b32 words");
  }
  const unsigned clamp = m.has("zero") ? 2 : m.has("clamp") ? 1 : 0;
  flags |= clamp << kClampShift | bytes << kBytesShift | uint32_t(m.vec) << kVecShift;
  const unsigned addrOp = Store ? 0 : 1;
  if (auto e = checkAddress(in, addrOp, flags); !e.empty()) return e;
  const Opnd& data = in.ops[Store ? 1 : 0];
  const unsigned n = data.kind == OpndKind::Vec ? unsigned(data.elems.size()) : 1;
  if (n != m.vec) return msg(in, "takes " + std::to_string(m.vec) + " data registers");
  in.flags = flags;
  in.cls = Access == SurfaceAccess::Reduce  ? InsnClass::AtomicGlobal
           : Access == SurfaceAccess::Store ? InsnClass::StoreGlobal
                                            : InsnClass::LoadGlobal;
  in.run = runSurface<Access>;
  return "";
}

}  // namespace

std::vector<OpcodeSpec> texture() {
  const std::vector<Type> texTypes = {Type::F32, Type::S32, Type::U32, Type::F16};
  const std::vector<Type> bits = {Type::B8, Type::B16, Type::B32, Type::B64};
  // Every modifier parses (cube, level, grad, sampler forms); the binders execute the forms
  // listed at the top and leave the rest faulting "not supported yet".
  std::vector<OpcodeSpec> specs = {
      {"tex",
       "texture",
       InsnClass::LoadGlobal,
       Role::Compute,
       Operation::Other,
       texTypes,
       {"*"},
       bindTex},
      {"tld4",
       "texture",
       InsnClass::LoadGlobal,
       Role::Compute,
       Operation::Other,
       texTypes,
       {"*"},
       bindTld4},
      {"txq",
       "texture",
       InsnClass::LoadGlobal,
       Role::Compute,
       Operation::Other,
       {Type::B32},
       {"*"},
       bindTxq},
      {"suq",
       "texture",
       InsnClass::LoadGlobal,
       Role::Compute,
       Operation::Other,
       {Type::B32},
       {"*"},
       bindSuq},
      {"suld",
       "texture",
       InsnClass::LoadGlobal,
       Role::Compute,
       Operation::Other,
       bits,
       {"*"},
       bindSurface<SurfaceAccess::Load>},
      {"sust",
       "texture",
       InsnClass::StoreGlobal,
       Role::Effect,
       Operation::Other,
       bits,
       {"*"},
       bindSurface<SurfaceAccess::Store>},
      {"sured",
       "texture",
       InsnClass::AtomicGlobal,
       Role::Effect,
       Operation::Other,
       {Type::U32, Type::S32, Type::B32, Type::U64, Type::S64, Type::B64},
       {"*"},
       bindSurface<SurfaceAccess::Reduce>}};
  // Texture coordinates are vectors even of one element: `{%f1}` is not `%f1` there.
  for (OpcodeSpec& s : specs) s.forms.oneElementVectors = s.opcode == "tex" || s.opcode == "tld4";
  return specs;
}

}  // namespace warpsim::isa::insns
