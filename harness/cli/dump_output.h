// `--dump NAME[:PATH]` after a run: a buffer printed (its first elements, or all of them),
// written to a file (raw bytes, or numpy's .npy), or given in --json output.
#pragma once

#include <cstdint>
#include <ostream>

#include "harness/arg_spec.h"
#include "harness/json.h"
#include "kernels/card.h"

namespace warpsim::cli {

// Elements a dump shows unless --dump-limit says otherwise.
inline constexpr uint64_t kDefaultDumpLimit = 16;

// "y (f32[4]): 0x40a00000 (5) ... " with at most `limit` elements (0 = all), then " ..." when
// there are more.
void printDump(const kernels::HostBuffer& b, uint64_t limit, std::ostream& os);

// The file of a --dump NAME:PATH (numpy's format when PATH ends in .npy); throws
// harness::ArgError when it cannot be written.
void writeDumpFile(const kernels::HostBuffer& b, const harness::DumpSpec& d);

// {"name", "type", "count", "values": [...at most `limit` (0 = all)...], "complete", "path"?}:
// integers exact, floats with the digits that read back to the same value (null for NaN and
// infinities; "bits" holds every element's bit pattern as hex when the buffer has one).
void dumpJson(harness::Json& j, const kernels::HostBuffer& b, const harness::DumpSpec& d,
              uint64_t limit);

}  // namespace warpsim::cli
