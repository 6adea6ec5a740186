// Typed views of a card's byte buffers, and the small geometry helpers every card uses.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/card.h"

namespace warpsim::kernels {

template <class T>
HostBuffer makeBuffer(std::string name, ElemType type, const std::vector<T>& values,
                      bool isOutput) {
  if (sizeof(T) != elemBytes(type))
    throw std::logic_error("makeBuffer(" + name + "): element size does not match its type");
  HostBuffer b;
  b.name = std::move(name);
  b.type = type;
  b.isOutput = isOutput;
  b.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

// A pure output starts as a recognisable non-zero pattern, so that an element the kernel
// fails to write (or the simulator fails to store) differs from the expected value.
inline HostBuffer poisonBuffer(std::string name, ElemType type, uint64_t count) {
  HostBuffer b;
  b.name = std::move(name);
  b.type = type;
  b.isOutput = true;
  b.bytes.assign(count * elemBytes(type), uint8_t(0xA5));
  return b;
}

template <class T>
std::vector<T> readBuffer(const HostBuffer& b) {
  if (sizeof(T) != elemBytes(b.type) || b.bytes.size() % sizeof(T))
    throw std::logic_error("readBuffer(" + b.name + "): element size does not match its type");
  std::vector<T> v(b.bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), b.bytes.data(), b.bytes.size());
  return v;
}

template <class T>
void writeBuffer(HostBuffer& b, const std::vector<T>& values) {
  if (sizeof(T) != elemBytes(b.type) || values.size() * sizeof(T) != b.bytes.size())
    throw std::logic_error("writeBuffer(" + b.name + "): size or type does not match");
  if (!values.empty()) std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
}

// The value of a scalar argument, as the reference reads back what make() chose.
template <class T>
T scalarOf(const KernelArg& a) {
  if (a.kind != KernelArg::Kind::Scalar || a.scalar.size() != sizeof(T))
    throw std::logic_error("scalarOf: not a scalar of this size");
  T v;
  std::memcpy(&v, a.scalar.data(), sizeof(T));
  return v;
}

inline Tolerance bitExact() { return {}; }

inline uint32_t ceilDiv(uint64_t a, uint64_t b) { return uint32_t((a + b - 1) / b); }
inline uint64_t roundUp(uint64_t a, uint64_t m) { return (a + m - 1) / m * m; }

// A launch over `threads` threads in 1-D blocks of `block`.
inline Launch launch1d(std::string entry, uint64_t threads, uint32_t block,
                       std::vector<KernelArg> args, uint32_t dynamicShared = 0) {
  Launch l;
  l.entry = std::move(entry);
  l.grid = {ceilDiv(threads == 0 ? 1 : threads, block), 1, 1};
  l.block = {block, 1, 1};
  l.dynamicShared = dynamicShared;
  l.args = std::move(args);
  return l;
}

}  // namespace warpsim::kernels
