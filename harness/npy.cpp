#include "harness/npy.h"

namespace warpsim::harness {

std::string npyDescr(kernels::ElemType t) {
  using kernels::ElemType;
  switch (t) {
    case ElemType::U8:
      return "|u1";
    case ElemType::S8:
      return "|i1";
    case ElemType::U16:
    case ElemType::BF16:  // bit patterns: numpy has no bfloat16
      return "<u2";
    case ElemType::S16:
      return "<i2";
    case ElemType::U32:
      return "<u4";
    case ElemType::S32:
      return "<i4";
    case ElemType::U64:
      return "<u8";
    case ElemType::S64:
      return "<i8";
    case ElemType::F16:
      return "<f2";
    case ElemType::F32:
      return "<f4";
    case ElemType::F64:
      return "<f8";
  }
  return "|u1";
}

bool isNpyPath(const std::string& path) {
  return path.size() > 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
}

std::string npyFile(const kernels::HostBuffer& b) {
  std::string header = "{'descr': '" + npyDescr(b.type) + "', 'fortran_order': False, 'shape': (" +
                       std::to_string(b.count()) + ",), }";
  // The format pads the header with spaces and a final newline so that the data starts on a
  // 64-byte boundary (10 bytes of magic, version and header length come first).
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += char(header.size() & 0xFF);
  out += char(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char*>(b.bytes.data()), b.bytes.size());
  return out;
}

}  // namespace warpsim::harness
