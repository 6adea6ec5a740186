// A path in the temporary folder that only this test process uses: two test runs on one machine
// (a developer's and a helper's ctest, or ctest -j) must not write or delete each other's files.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace warpsim::test {

// temp_directory_path()/NAME-PID, with NAME's extension (if any) kept last.
inline std::filesystem::path processTempPath(const std::string& name) {
  const std::filesystem::path n(name);
  return std::filesystem::temp_directory_path() /
         (n.stem().string() + "-" + std::to_string(::getpid()) + n.extension().string());
}

}  // namespace warpsim::test
