// cuGetExportTable: the private tables the CUDA runtime asks the driver for, by UUID. What each
// slot does was learned by running nvcc 13's libcudart_static against this library with every
// slot logging (WARPSIM_EXEC_TRACE=1), and from ZLUDA's and others' notes on these tables:
//   6bd5fb6c-5bf4-e74a-8987-d93912fd9df9  the runtime's interface: slot 1 loads a module from a
//       fatbinary wrapper (__fatBinC_Wrapper_t), slot 2 retains the primary context, slots 6 and
//       8 load a module with extra arguments (wrapper first / fatbinary header first), slot 12
//       loads the JIT compilers. The first word of a table is its size in bytes.
//   a094798c-2e74-2e74-93f2-0800200c0a66  tools callback hooks: slots 2 and 6 hand out scratch
//       buffers, 1 and 4 report events (no profiler here: no-ops).
//   42d85a81-23f6-cb47-8298-f6e78a3aecdc  tools thread-local storage: slot 2 a no-op.
//   c693336e-1121-df11-a8c3-68f355d89593  context-local storage: put, delete, get (no size word).
//   263e8860-7cd2-6143-92f6-bbd5006dfa7e  context checks: slot 2 says the context is fine.
//   d4082055-bde6-704b-8d34-ba123c66e1f2  the integrity check (see integrityCheck).
//   f8cff951-2146-8b4e-b9e2-fb469e7c0dd9  a start-up bypass: must be CUDA_ERROR_NOT_FOUND, or
//       the runtime skips its ordinary initialization.
// Any other UUID answers CUDA_ERROR_NOT_FOUND (logged under WARPSIM_EXEC_TRACE).
#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "harness/driver/device_attributes.h"
#include "harness/driver/internal.h"
#include "harness/driver/md2.h"

using namespace warpsim::driver;

namespace {

using Word = uintptr_t;

// A slot whose meaning is unknown: succeed, and say so when tracing.
template <int Table, int Slot>
Word unknownSlot(Word a, Word b, Word c, Word d, Word e, Word f) {
  if (driver().options.trace)
    std::fprintf(stderr, "warpsim: private table %d slot %d called (%#lx, %#lx, %#lx)\n", Table,
                 Slot, static_cast<unsigned long>(a), static_cast<unsigned long>(b),
                 static_cast<unsigned long>(c));
  return 0;
}

template <int Table, int Slot>
Word slot() {
  return reinterpret_cast<Word>(&unknownSlot<Table, Slot>);
}

// ---- the runtime's interface ---------------------------------------------------------------

// The runtime's images load lazily, as on the chip (Driver::loadImage).
CUresult moduleFromWrapper(CUmodule* module, const void* wrapper) {
  return loadModule(reinterpret_cast<void**>(module), wrapper, true);
}

CUresult primaryContext(CUcontext* ctx, CUdevice dev) { return cuDevicePrimaryCtxRetain(ctx, dev); }

CUresult moduleFromWrapperExt(CUmodule* module, const void* wrapper, void*, void*, unsigned) {
  return loadModule(reinterpret_cast<void**>(module), wrapper, true);
}

CUresult moduleFromFatbinExt(const void* fatbin, CUmodule* module, void*, void*, unsigned) {
  return loadModule(reinterpret_cast<void**>(module), fatbin, true);
}

void noteSize(size_t) {}

CUresult loadCompilers() { return CUDA_SUCCESS; }

const Word kRuntimeInterface[13] = {
    13 * sizeof(Word),
    reinterpret_cast<Word>(&moduleFromWrapper),
    reinterpret_cast<Word>(&primaryContext),
    slot<0, 3>(),
    slot<0, 4>(),
    slot<0, 5>(),
    reinterpret_cast<Word>(&moduleFromWrapperExt),
    reinterpret_cast<Word>(&noteSize),
    reinterpret_cast<Word>(&moduleFromFatbinExt),
    slot<0, 9>(),
    slot<0, 10>(),
    slot<0, 11>(),
    reinterpret_cast<Word>(&loadCompilers),
};

// ---- tools hooks ---------------------------------------------------------------------------

void toolsEvent(unsigned, void*) {}

// Scratch space the runtime writes its tool-callback records into.
template <size_t N>
void toolsBuffer(void** ptr, size_t* size) {
  static unsigned char buffer[N];
  if (ptr) *ptr = buffer;
  if (size) *size = N;
}

const Word kToolsHooks[7] = {
    7 * sizeof(Word),
    reinterpret_cast<Word>(&toolsEvent),
    reinterpret_cast<Word>(&toolsBuffer<1024>),
    slot<1, 3>(),
    reinterpret_cast<Word>(&toolsEvent),
    slot<1, 5>(),
    reinterpret_cast<Word>(&toolsBuffer<16>),
};

void toolsTls(void*) {}

const Word kToolsTls[4] = {4 * sizeof(Word), slot<2, 1>(), reinterpret_cast<Word>(&toolsTls),
                           slot<2, 3>()};

// ---- context-local storage -----------------------------------------------------------------

CUcontext contextOrCurrent(CUcontext c) { return c ? c : currentContext(); }

CUresult storagePut(CUcontext ctx, void* key, void* value, void* destructor) {
  return api(
      [&](Driver& d) {
        d.contextStorage[{contextOrCurrent(ctx), key}] = value;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult storageDelete(CUcontext ctx, void* key) {
  return api(
      [&](Driver& d) {
        d.contextStorage.erase({contextOrCurrent(ctx), key});
        return CUDA_SUCCESS;
      },
      false);
}

CUresult storageGet(void** value, CUcontext ctx, void* key) {
  return api(
      [&](Driver& d) {
        auto it = d.contextStorage.find({contextOrCurrent(ctx), key});
        *need(value) = it == d.contextStorage.end() ? nullptr : it->second;
        return it == d.contextStorage.end() ? CUDA_ERROR_NOT_FOUND : CUDA_SUCCESS;
      },
      false);
}

const Word kContextStorage[4] = {reinterpret_cast<Word>(&storagePut),
                                 reinterpret_cast<Word>(&storageDelete),
                                 reinterpret_cast<Word>(&storageGet), 0};

// ---- context checks ------------------------------------------------------------------------

CUresult contextCheck(CUcontext, unsigned* result, const void** detail) {
  if (result) *result = 0;
  return CUDA_SUCCESS;
}

unsigned contextCheckFlags() { return 0; }

const Word kContextChecks[4] = {4 * sizeof(Word), slot<4, 1>(),
                                reinterpret_cast<Word>(&contextCheck),
                                reinterpret_cast<Word>(&contextCheckFlags)};

// ---- integrity check ------------------------------------------------------------------------

// The runtime asks for check values of protocol versions 13000, 13001 and 13002 and fails to
// initialize unless each is right. Versions ending in 0 and 1 expect constants; the others an
// HMAC-MD2, keyed with a fixed 16-byte key, of (driver version, protocol version, process id,
// thread id, the addresses of the runtime-interface table, of this table and of this function,
// the caller's Unix time) followed by each device's (UUID, PCI domain, bus, device). Learned from
// ZLUDA's notes on this table (its constants and the layout of the hashed record).
CUresult integrityCheck(unsigned version, unsigned long long seconds, unsigned long long* result);

const Word kIntegrityCheck[3] = {3 * sizeof(Word), reinterpret_cast<Word>(&integrityCheck),
                                 slot<5, 2>()};

CUresult integrityCheck(unsigned version, unsigned long long seconds, unsigned long long* result) {
  if (!result) return CUDA_ERROR_INVALID_VALUE;
  if (driver().options.trace)
    std::fprintf(stderr, "warpsim: integrity check, version %u\n", version);
  if (version % 10 < 2) {
    result[0] = version % 10 == 0 ? 0x3341181C03CB675Cull : 0x1841181C03CB675Cull;
    result[1] = 0x8ED383AA1F4CD1E8ull;
    return CUDA_SUCCESS;
  }
  struct Record {
    uint32_t driverVersion, version, process, thread;
    uint64_t runtimeTable, integrityTable, function, seconds;
  } r{uint32_t(kDriverVersion),
      version,
      uint32_t(getpid()),
      uint32_t(pthread_self()),
      reinterpret_cast<uint64_t>(kRuntimeInterface),
      reinterpret_cast<uint64_t>(kIntegrityCheck),
      reinterpret_cast<uint64_t>(&integrityCheck),
      seconds};
  static_assert(sizeof(Record) == 48);
  struct DeviceRecord {
    CUuuid uuid;
    int32_t pciDomain, pciBus, pciDevice;
  } dev{};
  static_assert(sizeof(DeviceRecord) == 28);
  cuDeviceGetUuid(&dev.uuid, 0);
  dev.pciDomain = *deviceAttribute(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
  dev.pciBus = *deviceAttribute(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
  dev.pciDevice = *deviceAttribute(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
  std::vector<uint8_t> message(sizeof r + sizeof dev);
  std::memcpy(message.data(), &r, sizeof r);
  std::memcpy(message.data() + sizeof r, &dev, sizeof dev);
  static constexpr std::array<uint8_t, 16> kKey = {0x14, 0x6A, 0xDD, 0xAE, 0x53, 0xA9, 0xA7, 0x52,
                                                   0xAA, 0x08, 0x41, 0x36, 0x0B, 0xF5, 0x5A, 0x9F};
  const Md2Digest d = hmacMd2(kKey, message);
  std::memcpy(result, d.data(), 16);
  return CUDA_SUCCESS;
}

struct Table {
  unsigned char uuid[16];
  const Word* words;
};

const Table kTables[] = {
    {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d,
      0xf9},
     kRuntimeInterface},
    {{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a,
      0x66},
     kToolsHooks},
    {{0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec,
      0xdc},
     kToolsTls},
    {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95,
      0x93},
     kContextStorage},
    {{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa,
      0x7e},
     kContextChecks},
    {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1,
      0xf2},
     kIntegrityCheck},
};

}  // namespace

namespace warpsim::driver {

CUresult exportTable(const void** table, const CUuuid* id) {
  if (!table || !id) return CUDA_ERROR_INVALID_VALUE;
  for (const Table& t : kTables)
    if (std::memcmp(t.uuid, id->bytes, 16) == 0) {
      *table = t.words;
      return CUDA_SUCCESS;
    }
  if (driver().options.trace) {
    std::fprintf(stderr, "warpsim: cuGetExportTable: no table ");
    for (int i = 0; i < 16; ++i)
      std::fprintf(stderr, "%02x", static_cast<unsigned char>(id->bytes[i]));
    std::fprintf(stderr, "\n");
  }
  *table = nullptr;
  return CUDA_ERROR_NOT_FOUND;
}

}  // namespace warpsim::driver

extern "C" CUresult cuGetExportTable(const void** table, const CUuuid* id) {
  return exportTable(table, id);
}
