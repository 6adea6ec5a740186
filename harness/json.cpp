#include "harness/json.h"

#include <cmath>
#include <cstdio>

namespace warpsim::harness {

std::string jsonEscape(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        o += "\\\"";
        break;
      case '\\':
        o += "\\\\";
        break;
      case '\n':
        o += "\\n";
        break;
      case '\t':
        o += "\\t";
        break;
      case '\r':
        o += "\\r";
        break;
      default:
        if (c < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += char(c);
        }
    }
  }
  return o;
}

void Json::separate() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
}

Json& Json::beginObject() {
  separate();
  out_ += '{';
  first_.push_back(true);
  return *this;
}
Json& Json::endObject() {
  out_ += '}';
  first_.pop_back();
  return *this;
}
Json& Json::beginArray() {
  separate();
  out_ += '[';
  first_.push_back(true);
  return *this;
}
Json& Json::endArray() {
  out_ += ']';
  first_.pop_back();
  return *this;
}
Json& Json::key(const std::string& k) {
  separate();
  out_ += '"' + jsonEscape(k) + "\":";
  afterKey_ = true;
  return *this;
}
Json& Json::value(const std::string& s) {
  separate();
  out_ += '"' + jsonEscape(s) + '"';
  return *this;
}
Json& Json::value(double d) {
  separate();
  if (!std::isfinite(d)) {
    out_ += "null";
    return *this;
  }
  char b[40];
  std::snprintf(b, sizeof b, "%.6g", d);
  out_ += b;
  return *this;
}
Json& Json::number(double d, int significantDigits) {
  separate();
  if (!std::isfinite(d)) {
    out_ += "null";
    return *this;
  }
  char b[40];
  std::snprintf(b, sizeof b, "%.*g", significantDigits, d);
  out_ += b;
  return *this;
}
Json& Json::value(uint64_t u) {
  separate();
  out_ += std::to_string(u);
  return *this;
}
Json& Json::value(int64_t i) {
  separate();
  out_ += std::to_string(i);
  return *this;
}
Json& Json::value(bool b) {
  separate();
  out_ += b ? "true" : "false";
  return *this;
}
Json& Json::null() {
  separate();
  out_ += "null";
  return *this;
}

}  // namespace warpsim::harness
