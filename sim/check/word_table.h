// An open-addressing hash table from a word address to a value (racecheck's writers of global
// words in a launch): linear probing in two flat arrays, no allocation per entry.
#pragma once

#include <cstdint>
#include <vector>

namespace warpsim::check {

template <class V>
class WordTable {
 public:
  // The value of `word`, default-constructed on first use.
  V& operator[](uint64_t word) {
    if (2 * (size_ + 1) > keys_.size()) grow();
    size_t i = slot(word);
    while (keys_[i] != kEmpty && keys_[i] != word) i = (i + 1) & (keys_.size() - 1);
    if (keys_[i] == kEmpty) {
      keys_[i] = word;
      ++size_;
    }
    return values_[i];
  }
  // The value of `word`, or nullptr when absent.
  const V* find(uint64_t word) const {
    if (keys_.empty()) return nullptr;
    for (size_t i = slot(word);; i = (i + 1) & (keys_.size() - 1)) {
      if (keys_[i] == word) return &values_[i];
      if (keys_[i] == kEmpty) return nullptr;
    }
  }
  void clear() {
    keys_.clear();
    values_.clear();
    size_ = 0;
  }
  size_t size() const { return size_; }

 private:
  static constexpr uint64_t kEmpty = ~0ull;  // not a word address (addresses / 4 < 2^62)
  size_t slot(uint64_t word) const {
    return size_t((word * 0x9E3779B97F4A7C15ull) >> 32) & (keys_.size() - 1);
  }
  void grow() {
    std::vector<uint64_t> keys = std::move(keys_);
    std::vector<V> values = std::move(values_);
    const size_t capacity = keys.empty() ? 1024 : 2 * keys.size();
    keys_.assign(capacity, kEmpty);
    values_.assign(capacity, V{});
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i] != kEmpty) {
        size_t j = slot(keys[i]);
        while (keys_[j] != kEmpty) j = (j + 1) & (capacity - 1);
        keys_[j] = keys[i];
        values_[j] = std::move(values[i]);
      }
  }

  std::vector<uint64_t> keys_;
  std::vector<V> values_;
  size_t size_ = 0;
};

}  // namespace warpsim::check
