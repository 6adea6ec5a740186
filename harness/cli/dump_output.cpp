#include "harness/cli/dump_output.h"

#include <cmath>
#include <fstream>

#include "harness/arg_spec_texture.h"
#include "harness/compare.h"
#include "harness/npy.h"
#include "isa/fp.h"
#include "isa/insns/texture_object.h"
#include "isa/types.h"

namespace warpsim::cli {

using kernels::ElemType;

namespace {

uint64_t shown(const kernels::HostBuffer& b, uint64_t limit) {
  return limit == 0 ? b.count() : std::min(limit, b.count());
}

// One element as a JSON number; false when it has none (NaN, an infinity).
bool elementJson(harness::Json& j, ElemType t, uint64_t bits) {
  double d;
  int digits = 9;  // f32 and narrower read back from 9 significant digits
  switch (t) {
    case ElemType::F16:
      d = double(fp::f16ToF32(uint16_t(bits)));
      break;
    case ElemType::BF16:
      d = double(fp::bf16ToF32(uint16_t(bits)));
      break;
    case ElemType::F32:
      d = double(fp::f32(uint32_t(bits)));
      break;
    case ElemType::F64:
      d = fp::f64(bits);
      digits = 17;
      break;
    case ElemType::S8:
    case ElemType::S16:
    case ElemType::S32:
    case ElemType::S64:
      j.value(isa::signExtend(bits, kernels::elemBytes(t) * 8));
      return true;
    default:
      j.value(bits);
      return true;
  }
  j.number(d, digits);
  return std::isfinite(d);
}

}  // namespace

void printDump(const kernels::HostBuffer& whole, uint64_t limit, std::ostream& os) {
  // A texture or surface argument (harness/arg_spec_texture.h) prints its texels, after the
  // object's descriptor.
  kernels::HostBuffer b = whole;
  const bool object = harness::isTextureObject(whole);
  if (object) b.bytes.erase(b.bytes.begin(), b.bytes.begin() + isa::tex::kDescriptorBytes);
  const uint64_t n = b.count(), show = shown(b, limit);
  os << b.name << (object ? " texels" : "") << " (" << kernels::elemName(b.type) << "[" << n
     << "]):";
  for (uint64_t i = 0; i < show; ++i)
    os << " " << harness::formatElement(b.type, harness::elementBits(b, i));
  if (show < n) os << " ...";
  os << "\n";
}

void writeDumpFile(const kernels::HostBuffer& b, const harness::DumpSpec& d) {
  std::ofstream f(d.path, std::ios::binary);
  if (harness::isNpyPath(d.path)) {
    const std::string npy = harness::npyFile(b);
    f.write(npy.data(), std::streamsize(npy.size()));
  } else {
    f.write(reinterpret_cast<const char*>(b.bytes.data()), std::streamsize(b.bytes.size()));
  }
  if (!f.flush())
    throw harness::ArgError("--dump '" + d.buffer + ":" + d.path + "': cannot write the file");
}

void dumpJson(harness::Json& j, const kernels::HostBuffer& b, const harness::DumpSpec& d,
              uint64_t limit) {
  const uint64_t show = shown(b, limit);
  j.beginObject().field("name", b.name).field("type", kernels::elemName(b.type));
  j.field("count", b.count());
  if (!d.path.empty()) j.field("path", d.path);
  bool allFinite = true;
  j.key("values").beginArray();
  for (uint64_t i = 0; i < show; ++i)
    allFinite = elementJson(j, b.type, harness::elementBits(b, i)) && allFinite;
  j.endArray();
  if (!allFinite) {
    j.key("bits").beginArray();
    for (uint64_t i = 0; i < show; ++i) {
      char hex[24];
      std::snprintf(hex, sizeof hex, "0x%0*llx", int(kernels::elemBytes(b.type) * 2),
                    (unsigned long long)harness::elementBits(b, i));
      j.value(hex);
    }
    j.endArray();
  }
  j.field("complete", show == b.count());
  j.endObject();
}

}  // namespace warpsim::cli
