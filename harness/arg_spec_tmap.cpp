#include "harness/arg_spec_tmap.h"

#include <algorithm>
#include <climits>
#include <cstdint>

#include "isa/insns/tensor_map.h"

namespace warpsim::harness {
namespace {

namespace tmap = isa::insns::tmap;
using kernels::ElemType;

std::optional<tmap::DataType> mapType(ElemType t) {
  switch (t) {
    case ElemType::U8:
      return tmap::DataType::U8;
    case ElemType::U16:
      return tmap::DataType::U16;
    case ElemType::U32:
      return tmap::DataType::U32;
    case ElemType::S32:
      return tmap::DataType::S32;
    case ElemType::U64:
      return tmap::DataType::U64;
    case ElemType::S64:
      return tmap::DataType::S64;
    case ElemType::F16:
      return tmap::DataType::F16;
    case ElemType::BF16:
      return tmap::DataType::BF16;
    case ElemType::F32:
      return tmap::DataType::F32;
    case ElemType::F64:
      return tmap::DataType::F64;
    default:
      return std::nullopt;
  }
}

// "A,B,C" -> numbers; throws naming `what`.
std::vector<uint64_t> numbers(const std::string& s, const std::string& what, size_t position,
                              const std::string& text) {
  IntegerList<uint64_t> l = parseIntegerList<uint64_t>(s);
  if (l.bad) badArg(position, text, what + ": '" + *l.bad + "' is not a non-negative integer");
  return std::move(l.values);
}

}  // namespace

std::optional<TensorMapArg> parseTensorMapArg(
    const std::string& text, size_t position, const std::vector<kernels::HostBuffer>& buffers,
    const std::function<ParsedArg(const std::string&)>& parseBuffer) {
  // NAME= comes before the first bracket (box=... does not name the argument).
  size_t eq = text.find('=');
  if (eq != std::string::npos && eq > text.find_first_of("[(")) eq = std::string::npos;
  const std::string name = eq == std::string::npos ? "" : text.substr(0, eq);
  const std::string rest = eq == std::string::npos ? text : text.substr(eq + 1);
  const bool own = rest.rfind("tmap.", 0) == 0;
  if (!own && rest.rfind("tmap(", 0) != 0) return std::nullopt;
  const size_t open = rest.find('[');
  size_t index = buffers.size();
  std::string typeName;
  if (own) {
    if (name.empty()) badArg(position, text, "a tensor map that makes its tensor needs NAME=");
    if (open == std::string::npos) badArg(position, text, "expected tmap.TYPE[D0,...]:box=...");
    typeName = rest.substr(5, open - 5);
  } else {
    const size_t close = rest.find(')');
    if (close == std::string::npos || close + 1 != open)
      badArg(position, text, "expected tmap(BUFFER)[D0,...]:box=...");
    const std::string bufferName = rest.substr(5, close - 5);
    for (size_t i = 0; i < buffers.size(); ++i)
      if (buffers[i].name == bufferName) index = i;
    if (index == buffers.size())
      badArg(position, text, "no buffer named '" + bufferName + "' given before it");
    typeName = kernels::elemName(buffers[index].type);
  }
  std::optional<tmap::DataType> type;
  for (unsigned t = 0; t <= unsigned(ElemType::F64); ++t)
    if (typeName == kernels::elemName(ElemType(t))) type = mapType(ElemType(t));
  if (!type)
    badArg(position, text,
           "a tensor map cannot hold '" + typeName +
               "' elements (u8 u16 u32 s32 u64 s64 f16 bf16 f32 f64)");
  const size_t shut = rest.find(']', open);
  if (shut == std::string::npos) badArg(position, text, "expected ']' after the dimensions");
  const std::vector<uint64_t> dims =
      numbers(rest.substr(open + 1, shut - open - 1), "dimensions", position, text);
  const unsigned rank = unsigned(dims.size());
  if (rank > 5) badArg(position, text, "a tensor map has 1 to 5 dimensions");
  const unsigned e = tmap::elementBytes(*type);
  std::vector<uint64_t> strides(rank > 1 ? rank - 1 : 0), box, elem(rank, 1);
  uint64_t dense = e;
  for (unsigned d = 0; d + 1 < rank; ++d) strides[d] = dense *= dims[d];
  unsigned swizzle = 0, fill = 0;
  // im2col (cuTensorMapEncodeIm2col): the pixel box's corners per spatial dimension and the
  // channels and pixels a copy moves. Any of them makes the map an im2col one.
  std::vector<int64_t> lower, upper;
  std::optional<uint64_t> channels, pixels;
  std::string init;
  if (shut + 1 < rest.size() && rest[shut + 1] != ':')
    badArg(position, text, "expected ':' after the dimensions");
  const std::vector<std::string> fields =
      shut + 1 < rest.size() ? splitColons(rest.substr(shut + 2)) : std::vector<std::string>{};
  for (size_t f = 0; f < fields.size(); ++f) {
    const std::string& field = fields[f];
    const size_t fe = field.find('=');
    const std::string key = field.substr(0, fe),
                      value = fe == std::string::npos ? "" : field.substr(fe + 1);
    auto perDim = [&](size_t want) {
      std::vector<uint64_t> v = numbers(value, key, position, text);
      if (v.size() != want)
        badArg(position, text,
               key + " needs " + std::to_string(want) + " values, " + std::to_string(v.size()) +
                   " given");
      return v;
    };
    auto corner = [&]() {
      IntegerList<int64_t> l = parseIntegerList<int64_t>(value);
      if (l.bad) badArg(position, text, key + ": '" + *l.bad + "' is not an integer");
      if (rank < 3 || l.values.size() != rank - 2)
        badArg(position, text,
               key + " needs one value per spatial dimension (" +
                   (rank < 3 ? std::string("an im2col map has 3 to 5 dimensions")
                             : std::to_string(rank - 2)) +
                   "), " + std::to_string(l.values.size()) + " given");
      return std::move(l.values);
    };
    auto single = [&]() { return perDim(1)[0]; };
    if (key == "box") {
      box = perDim(rank);
    } else if (key == "lower") {
      lower = corner();
    } else if (key == "upper") {
      upper = corner();
    } else if (key == "channels") {
      channels = single();
    } else if (key == "pixels") {
      pixels = single();
    } else if (key == "strides") {
      strides = perDim(rank - 1);
    } else if (key == "elem") {
      elem = perDim(rank);
    } else if (key == "swizzle") {
      static const char* kNames[] = {"none", "32B", "64B", "128B"};
      swizzle = 4;
      for (unsigned k = 0; k < 4; ++k)
        if (value == kNames[k]) swizzle = k;
      if (swizzle == 4) badArg(position, text, "swizzle must be none, 32B, 64B or 128B");
    } else if (key == "fill") {
      if (value != "zero" && value != "nan") badArg(position, text, "fill must be zero or nan");
      fill = value == "nan";
    } else if (own && f + 1 == fields.size()) {
      init = field;  // the last field of a map that makes its tensor: how to fill it
    } else {
      badArg(position, text,
             "unknown field '" + key +
                 "' (box=, or lower=, upper=, channels=, pixels=; strides=, elem=, swizzle=, "
                 "fill=" +
                 (own ? ", then INIT)" : ")"));
    }
  }
  const bool im2col = !lower.empty() || !upper.empty() || channels || pixels;
  if (im2col && !box.empty())
    badArg(position, text,
           "box= is a tiled map's; an im2col map takes lower=, upper=, channels= and pixels=");
  if (im2col && (lower.empty() || upper.empty() || !channels || !pixels))
    badArg(position, text, "an im2col map needs lower=, upper=, channels= and pixels=");
  if (!im2col && box.empty()) badArg(position, text, "the box is missing (box=B0,...)");
  // The tensor must lie inside the buffer: its last element at the sum of the strides.
  uint64_t last = e;
  for (unsigned d = 0; d < rank; ++d)
    last += (dims[d] ? dims[d] - 1 : 0) * (d == 0 ? e : strides[d - 1]);
  TensorMapArg out;
  if (own) {
    ParsedArg b = parseBuffer(name + "=" + typeName + "[" + std::to_string((last + e - 1) / e) +
                              "]" + (init.empty() ? "" : ":" + init));
    out.tensor = std::move(b.buffer);
    out.initialized = !init.empty();
  } else if (last > buffers[index].bytes.size()) {
    badArg(position, text,
           "the tensor spans " + std::to_string(last) + " bytes; buffer '" + buffers[index].name +
               "' holds " + std::to_string(buffers[index].bytes.size()));
  }
  std::vector<uint32_t> box32(box.begin(), box.end()), elem32(elem.begin(), elem.end());
  for (unsigned d = 0; d < rank; ++d)
    if ((!im2col && box[d] > 256) || elem[d] > 8)
      badArg(position, text, "box values must be 1..256 and elem values 1..8");
  tmap::TensorMap m;
  std::string why;
  if (im2col) {
    // Saturated into the encoder's types, whose rules then name what is out of range.
    auto toInt = [](int64_t v) { return int(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)); };
    auto toUnsigned = [](uint64_t v) { return unsigned(std::min<uint64_t>(v, UINT32_MAX)); };
    std::vector<int> lo, hi;
    for (int64_t v : lower) lo.push_back(toInt(v));
    for (int64_t v : upper) hi.push_back(toInt(v));
    why = tmap::encodeIm2col(m, unsigned(*type), rank, 0, dims.data(), strides.data(), lo.data(),
                             hi.data(), toUnsigned(*channels), toUnsigned(*pixels), elem32.data(),
                             0, swizzle, 0, fill);
    if (!why.empty()) badArg(position, text, why + " (cuTensorMapEncodeIm2col's rule)");
  } else {
    why = tmap::encodeTiled(m, unsigned(*type), rank, 0, dims.data(), strides.data(), box32.data(),
                            elem32.data(), 0, swizzle, 0, fill);
    if (!why.empty()) badArg(position, text, why + " (cuTensorMapEncodeTiled's rule)");
  }
  std::vector<uint8_t> bytes(sizeof m);
  tmap::store(m, bytes.data());
  out.map.arg = kernels::KernelArg::tensorMap(index, std::move(bytes));
  return out;
}

}  // namespace warpsim::harness
