// A small JSON writer for --json output: objects, arrays, strings, numbers, booleans.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::harness {

class Json {
 public:
  Json& beginObject();
  Json& endObject();
  Json& beginArray();
  Json& endArray();
  Json& key(const std::string& k);
  Json& value(const std::string& s);
  Json& value(const char* s) { return value(std::string(s)); }
  Json& value(double d);  // 6 significant digits (statistics); null when not finite
  // A number with `significantDigits` (9 reads an f32 back exactly, 17 an f64); null when not
  // finite.
  Json& number(double d, int significantDigits);
  Json& value(uint64_t u);
  Json& value(int64_t i);
  Json& value(int i) { return value(int64_t(i)); }
  Json& value(unsigned u) { return value(uint64_t(u)); }
  Json& value(bool b);
  Json& null();
  template <class T>
  Json& field(const std::string& k, const T& v) {
    key(k);
    return value(v);
  }
  const std::string& str() const { return out_; }

 private:
  void separate();
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool afterKey_ = false;
};

std::string jsonEscape(const std::string& s);

}  // namespace warpsim::harness
