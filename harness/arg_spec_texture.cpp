#include "harness/arg_spec_texture.h"

#include <cstring>
#include <vector>

#include "isa/insns/texture_object.h"

namespace warpsim::harness {
namespace {

namespace tex = isa::tex;

struct FormatName {
  const char* name;
  tex::Channel channel;
  const char* elem;  // the buffer element type of one channel
};
constexpr FormatName kFormats[] = {
    {"u8", tex::Channel::U8, "u8"},    {"s8", tex::Channel::S8, "s8"},
    {"u16", tex::Channel::U16, "u16"}, {"s16", tex::Channel::S16, "s16"},
    {"u32", tex::Channel::U32, "u32"}, {"s32", tex::Channel::S32, "s32"},
    {"f16", tex::Channel::F16, "f16"}, {"f32", tex::Channel::F32, "f32"}};

}  // namespace

std::optional<ParsedArg> parseTextureArg(
    const std::string& text, size_t position,
    const std::function<ParsedArg(const std::string&)>& parseBuffer) {
  std::string name, rest = text;
  const size_t eq = rest.find('='), bracket = rest.find('[');
  if (eq != std::string::npos && (bracket == std::string::npos || eq < bracket)) {
    name = rest.substr(0, eq);
    rest = rest.substr(eq + 1);
  }
  const size_t b0 = rest.find('[');
  if (b0 == std::string::npos) return std::nullopt;
  const std::string kindWord = rest.substr(0, b0);
  tex::Object o;
  if (kindWord == "tex1d" || kindWord == "surf1d")
    o.dims = 1;
  else if (kindWord == "tex2d" || kindWord == "surf2d")
    o.dims = 2;
  else if (kindWord == "tex3d" || kindWord == "surf3d")
    o.dims = 3;
  else
    return std::nullopt;
  const bool surface = kindWord[0] == 's';
  o.kind = surface ? tex::Kind::Surface : tex::Kind::Texture;
  const size_t b1 = rest.find(']');
  if (b1 == std::string::npos) badArg(position, text, "missing ']'");
  // The extents.
  uint32_t* extent[3] = {&o.width, &o.height, &o.depth};
  const IntegerList<uint64_t> extents =
      parseIntegerList<uint64_t>(rest.substr(b0 + 1, b1 - b0 - 1));
  if (extents.bad) badArg(position, text, "the extent '" + *extents.bad + "' is not in 1..65536");
  if (extents.values.size() != o.dims)
    badArg(position, text, kindWord + " takes " + std::to_string(o.dims) + " extents");
  for (unsigned i = 0; i < o.dims; ++i) {
    const uint64_t v = extents.values[i];
    if (v == 0 || v > 65536)
      badArg(position, text, "the extent '" + std::to_string(v) + "' is not in 1..65536");
    *extent[i] = uint32_t(v);
  }
  std::vector<std::string> fields =
      b1 + 1 < rest.size() ? splitColons(rest.substr(b1 + 2)) : std::vector<std::string>{};
  if (b1 + 1 < rest.size() && rest[b1 + 1] != ':') badArg(position, text, "expected ':' after ']'");
  const size_t needed = surface ? 1 : 4;
  if (fields.size() < needed)
    badArg(position, text,
           surface ? "expected " + kindWord + "[...]:FORMAT[:INIT]"
                   : "expected " + kindWord + "[...]:FORMAT:FILTER:ADDRESS:norm=0|1[:INIT]");
  // FORMAT
  std::string format = fields[0], base = format;
  o.channels = 1;
  if (const size_t x = format.find('x'); x != std::string::npos) {
    base = format.substr(0, x);
    const std::string n = format.substr(x + 1);
    if (n != "1" && n != "2" && n != "4")
      badArg(position, text, "the format '" + format + "' has 1, 2 or 4 channels");
    o.channels = uint8_t(n[0] - '0');
  }
  const FormatName* f = nullptr;
  for (const FormatName& k : kFormats)
    if (base == k.name) f = &k;
  if (!f)
    badArg(position, text, "unknown format '" + format + "' (u8 s8 u16 s16 u32 s32 f16 f32[xN])");
  o.channel = f->channel;
  size_t next = 1;
  bool readGiven = false;
  if (!surface) {
    if (fields[1] == "point")
      o.filter = tex::Filter::Point;
    else if (fields[1] == "linear")
      o.filter = tex::Filter::Linear;
    else
      badArg(position, text, "the filter '" + fields[1] + "' is not point or linear");
    tex::Address a;
    if (fields[2] == "wrap")
      a = tex::Address::Wrap;
    else if (fields[2] == "clamp")
      a = tex::Address::Clamp;
    else if (fields[2] == "mirror")
      a = tex::Address::Mirror;
    else if (fields[2] == "border")
      a = tex::Address::Border;
    else
      badArg(position, text,
             "the address mode '" + fields[2] + "' is not wrap, clamp, mirror or border");
    o.address[0] = o.address[1] = o.address[2] = a;
    if (fields[3] != "norm=0" && fields[3] != "norm=1")
      badArg(position, text, "expected norm=0 or norm=1, not '" + fields[3] + "'");
    o.normalizedCoords = fields[3] == "norm=1";
    if ((a == tex::Address::Wrap || a == tex::Address::Mirror) && !o.normalizedCoords)
      badArg(position, text, "wrap and mirror need normalized coordinates (norm=1)");
    next = 4;
    if (fields.size() > 4 && fields[4].rfind("read=", 0) == 0) {
      if (fields[4] != "read=elem" && fields[4] != "read=norm")
        badArg(position, text, "expected read=elem or read=norm, not '" + fields[4] + "'");
      o.readNormalized = fields[4] == "read=norm";
      readGiven = true;
      next = 5;
    }
    const bool narrowInt = !tex::isFloatChannel(o.channel) && tex::channelBytes(o.channel) <= 2;
    if (o.readNormalized && !narrowInt)
      badArg(position, text, "read=norm applies to 8- and 16-bit integer formats only");
    if (!readGiven && narrowInt && o.filter == tex::Filter::Linear) o.readNormalized = 1;
    if (o.filter == tex::Filter::Linear && !tex::isFloatChannel(o.channel) && !o.readNormalized)
      badArg(position, text, "linear filtering needs a float format or read=norm");
  }
  std::string init;
  for (size_t i = next; i < fields.size(); ++i) init += (i > next ? ":" : "") + fields[i];
  tex::packDense(o);
  const uint64_t channels = tex::dataBytes(o) / tex::channelBytes(o.channel);
  std::string bufferText = (name.empty() ? "" : name + "=") + std::string(f->elem) + "[" +
                           std::to_string(channels) + "]" + (init.empty() ? "" : ":" + init);
  ParsedArg out;
  try {
    out = parseBuffer(bufferText);
  } catch (const ArgError& e) {
    // The buffer's message quotes the texels' buffer text: name the argument as written.
    std::string m = e.what();
    if (const size_t at = m.find("'" + bufferText + "'"); at != std::string::npos)
      m.replace(at, bufferText.size() + 2, "'" + text + "'");
    throw ArgError(m);
  }
  // The descriptor goes first: the handle is the buffer's address.
  std::vector<uint8_t> bytes(tex::kDescriptorBytes);
  std::memcpy(bytes.data(), &o, sizeof o);
  bytes.insert(bytes.end(), out.buffer.bytes.begin(), out.buffer.bytes.end());
  out.buffer.bytes = std::move(bytes);
  return out;
}

bool isTextureObject(const kernels::HostBuffer& b) {
  if (b.bytes.size() < tex::kDescriptorBytes) return false;
  tex::Object o;
  std::memcpy(&o, b.bytes.data(), sizeof o);
  return o.magic == tex::kMagic && tex::validate(o).empty() &&
         o.dataOffset == int64_t(tex::kDescriptorBytes) &&
         tex::kDescriptorBytes + tex::dataBytes(o) == b.bytes.size();
}

}  // namespace warpsim::harness
