// printf through vprintf, as nvcc compiles it: a real nvcc 13.0 kernel (its PTX embedded, so the
// test needs no nvcc) with %d %u %x %f %s %c %lld %5.2f and %%, a printf without arguments, and
// printf under divergence; warpsim's output text (LaunchResult::printfOutput) checked exactly,
// whole lines, CTA by CTA whatever order the host threads ran the CTAs in.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/func/printf_format.h"
#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::PtxRunner;

// nvcc 13.0 -ptx -arch=sm_90 of
//   #include <cstdio>
//   __global__ void hello(int base) {
//     int t = threadIdx.x;
//     printf("b%d t%u x=%x f=%f s=%s c=%c ll=%lld w=[%5.2f] 100%%\n", blockIdx.x, t, 250 + t,
//            0.25f * t, t % 2 ? "odd" : "even", 'A' + t, (long long)base * 1000000000LL + t,
//            -1.0 / 3);
//     if (t == 0) printf("end of block %d\n", blockIdx.x);
//     if (blockIdx.x == 0 && t == 1) printf("no args\n");
//   }
// The arguments go to a __local_depot buffer through st.local (cvta.local gives vprintf its
// generic address); the strings are .global byte arrays.
const std::string kHello = R"PTX(.version 9.0
.target sm_90
.address_size 64

	// .globl	_Z5helloi
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.global .align 1 .b8 $str[4] = {111, 100, 100};
.global .align 1 .b8 $str$1[5] = {101, 118, 101, 110};
.global .align 1 .b8 $str$2[53] = {98, 37, 100, 32, 116, 37, 117, 32, 120, 61, 37, 120, 32, 102, 61, 37, 102, 32, 115, 61, 37, 115, 32, 99, 61, 37, 99, 32, 108, 108, 61, 37, 108, 108, 100, 32, 119, 61, 91, 37, 53, 46, 50, 102, 93, 32, 49, 48, 48, 37, 37, 10};
.global .align 1 .b8 $str$3[17] = {101, 110, 100, 32, 111, 102, 32, 98, 108, 111, 99, 107, 32, 37, 100, 10};
.global .align 1 .b8 $str$4[9] = {110, 111, 32, 97, 114, 103, 115, 10};

.visible .entry _Z5helloi(
	.param .u32 _Z5helloi_param_0
)
{
	.local .align 8 .b8 	__local_depot0[56];
	.reg .b64 	%SP;
	.reg .b64 	%SPL;
	.reg .pred 	%p<6>;
	.reg .f32 	%f<3>;
	.reg .b32 	%r<10>;
	.reg .f64 	%fd<2>;
	.reg .b64 	%rd<19>;


	mov.u64 	%SPL, __local_depot0;
	cvta.local.u64 	%SP, %SPL;
	ld.param.u32 	%r3, [_Z5helloi_param_0];
	add.u64 	%rd2, %SP, 0;
	add.u64 	%rd1, %SPL, 0;
	mov.u32 	%r1, %tid.x;
	add.s32 	%r4, %r1, 250;
	cvt.rn.f32.s32 	%f1, %r1;
	mul.f32 	%f2, %f1, 0f3E800000;
	cvt.f64.f32 	%fd1, %f2;
	and.b32  	%r5, %r1, 1;
	setp.eq.b32 	%p1, %r5, 1;
	mov.u64 	%rd3, $str$1;
	cvta.global.u64 	%rd4, %rd3;
	mov.u64 	%rd5, $str;
	cvta.global.u64 	%rd6, %rd5;
	selp.b64 	%rd7, %rd6, %rd4, %p1;
	add.s32 	%r6, %r1, 65;
	mul.wide.s32 	%rd8, %r3, 1000000000;
	cvt.s64.s32 	%rd9, %r1;
	add.s64 	%rd10, %rd8, %rd9;
	mov.u32 	%r2, %ctaid.x;
	st.local.v2.u32 	[%rd1], {%r2, %r1};
	st.local.u32 	[%rd1+8], %r4;
	st.local.f64 	[%rd1+16], %fd1;
	st.local.u64 	[%rd1+24], %rd7;
	st.local.u32 	[%rd1+32], %r6;
	st.local.u64 	[%rd1+40], %rd10;
	mov.u64 	%rd11, -4623695617433709227;
	st.local.u64 	[%rd1+48], %rd11;
	mov.u64 	%rd12, $str$2;
	cvta.global.u64 	%rd13, %rd12;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd13;
	.param .b64 param1;
	st.param.b64 	[param1+0], %rd2;
	.param .b32 retval0;
	call.uni (retval0), 
	vprintf, 
	(
	param0, 
	param1
	);
	ld.param.b32 	%r7, [retval0+0];
	} // callseq 0
	setp.ne.s32 	%p2, %r1, 0;
	@%p2 bra 	$L__BB0_2;

	st.local.u32 	[%rd1], %r2;
	mov.u64 	%rd14, $str$3;
	cvta.global.u64 	%rd15, %rd14;
	{ // callseq 1, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd15;
	.param .b64 param1;
	st.param.b64 	[param1+0], %rd2;
	.param .b32 retval0;
	call.uni (retval0), 
	vprintf, 
	(
	param0, 
	param1
	);
	ld.param.b32 	%r8, [retval0+0];
	} // callseq 1

$L__BB0_2:
	setp.ne.s32 	%p3, %r2, 0;
	setp.ne.s32 	%p4, %r1, 1;
	or.pred  	%p5, %p3, %p4;
	@%p5 bra 	$L__BB0_4;

	mov.u64 	%rd17, $str$4;
	cvta.global.u64 	%rd18, %rd17;
	{ // callseq 2, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd18;
	.param .b64 param1;
	st.param.b64 	[param1+0], 0;
	.param .b32 retval0;
	call.uni (retval0), 
	vprintf, 
	(
	param0, 
	param1
	);
	ld.param.b32 	%r9, [retval0+0];
	} // callseq 2

$L__BB0_4:
	ret;

}

)PTX";

// What printf writes for block b, thread t of `hello` (a host snprintf of the same format).
std::string helloLine(unsigned b, unsigned t, int base) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "b%d t%u x=%x f=%f s=%s c=%c ll=%lld w=[%5.2f] 100%%\n", int(b), t,
                250 + t, double(0.25f * float(t)), t % 2 ? "odd" : "even", int('A' + t),
                static_cast<long long>(base) * 1000000000LL + t, -1.0 / 3);
  return buf;
}

TEST(Printf, NvccKernelOutputIsExactLineByLineInCtaOrder) {
  PtxRunner r(kHello);
  const std::string want =
      "b0 t0 x=fa f=0.000000 s=even c=A ll=7000000000 w=[-0.33] 100%\n"
      "b0 t1 x=fb f=0.250000 s=odd c=B ll=7000000001 w=[-0.33] 100%\n"
      "b0 t2 x=fc f=0.500000 s=even c=C ll=7000000002 w=[-0.33] 100%\n"
      "end of block 0\n"
      "no args\n"
      "b1 t0 x=fa f=0.000000 s=even c=A ll=7000000000 w=[-0.33] 100%\n"
      "b1 t1 x=fb f=0.250000 s=odd c=B ll=7000000001 w=[-0.33] 100%\n"
      "b1 t2 x=fc f=0.500000 s=even c=C ll=7000000002 w=[-0.33] 100%\n"
      "end of block 1\n"
      "b2 t0 x=fa f=0.000000 s=even c=A ll=7000000000 w=[-0.33] 100%\n"
      "b2 t1 x=fb f=0.250000 s=odd c=B ll=7000000001 w=[-0.33] 100%\n"
      "b2 t2 x=fc f=0.500000 s=even c=C ll=7000000002 w=[-0.33] 100%\n"
      "end of block 2\n";
  sim::LaunchOptions parallel, serial;
  parallel.threads = 2;
  serial.serial = true;
  for (const sim::LaunchOptions& o : {parallel, serial}) {
    const auto res = r.launch("_Z5helloi", {3, 1, 1}, {3, 1, 1}, {PtxRunner::u32(7)}, o);
    ASSERT_FALSE(res.fault) << res.fault->describe("");
    EXPECT_EQ(res.printfOutput, want);
  }
  // The format's arguments live in each thread's local memory.
  EXPECT_EQ(r.module().program.localBytesPerThread, 64u);
}

// 40 threads per CTA (a full and a partial warp), 5 CTAs on 2 host threads: every line is whole,
// the lines of one CTA come together and the CTAs come in order, whatever order they ran in.
TEST(Printf, ManyThreadsGiveWholeLinesGroupedByCtaInOrder) {
  PtxRunner r(kHello);
  sim::LaunchOptions o;
  o.threads = 2;
  const auto res = r.launch("_Z5helloi", {5, 1, 1}, {40, 1, 1}, {PtxRunner::u32(3)}, o);
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  ASSERT_FALSE(res.printfOutput.empty());
  EXPECT_EQ(res.printfOutput.back(), '\n');
  std::vector<std::string> lines;
  std::stringstream ss(res.printfOutput);
  for (std::string l; std::getline(ss, l);) lines.push_back(l + "\n");
  ASSERT_EQ(lines.size(), 5u * 41 + 1);
  size_t at = 0;
  for (unsigned b = 0; b < 5; ++b) {
    std::multiset<std::string> want, got;
    for (unsigned t = 0; t < 40; ++t) want.insert(helloLine(b, t, 3));
    want.insert("end of block " + std::to_string(b) + "\n");
    if (b == 0) want.insert("no args\n");
    for (size_t i = 0; i < want.size(); ++i) got.insert(lines[at++]);
    EXPECT_EQ(got, want) << "block " << b;
  }
  // Within a warp, the lanes print in lane order.
  EXPECT_EQ(lines[0], helloLine(0, 0, 3));
  EXPECT_EQ(lines[31], helloLine(0, 31, 3));
}

// A hand-written kernel: printf of a string in shared memory (a generic shared address), of a
// null %s, and with a format read from the .const space.
const std::string kHand = R"PTX(
.version 9.0
.target sm_90
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.const .align 1 .b8 fmt[21] = {91, 37, 115, 93, 91, 37, 115, 93, 32, 37, 48, 56, 88, 32, 37, 45, 52, 105, 124, 10};
.visible .entry hand()
{
  .local .align 8 .b8 __local_depot0[24];
  .reg .b32 %r<4>;
  .reg .b64 %rd<12>;
  .shared .align 1 .b8 str[4];
  mov.u32 %r1, 0x00694948;
  st.shared.u32 [str], %r1;
  mov.u64 %rd1, __local_depot0;
  cvta.local.u64 %rd2, %rd1;
  mov.u64 %rd3, str;
  cvta.shared.u64 %rd4, %rd3;
  st.local.u64 [__local_depot0], %rd4;
  mov.u64 %rd5, 0;
  st.local.u64 [__local_depot0+8], %rd5;
  mov.u32 %r2, 3054;
  st.local.u32 [__local_depot0+16], %r2;
  mov.u32 %r3, -12;
  st.local.u32 [__local_depot0+20], %r3;
  mov.u64 %rd6, fmt;
  cvta.const.u64 %rd7, %rd6;
  {
    .param .b64 param0;
    st.param.b64 [param0], %rd7;
    .param .b64 param1;
    st.param.b64 [param1], %rd2;
    .param .b32 retval0;
    call.uni (retval0), vprintf, (param0, param1);
  }
  ret;
}
)PTX";

TEST(Printf, StringsFromSharedMemoryNullStringsAndFlags) {
  PtxRunner r(kHand);
  const auto res = r.launch("hand", {1, 1, 1}, {2, 1, 1}, {});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  // "[%s][%s] %08X %-4i|\n": "HIi" from shared memory, a null pointer, 3054 = 0xBEE, -12.
  EXPECT_EQ(res.printfOutput, "[HIi][(null)] 00000BEE -12 |\n[HIi][(null)] 00000BEE -12 |\n");
}

}  // namespace
}  // namespace warpsim

namespace warpsim::sim {
namespace {

// CUDA's printf returns the number of arguments; vprintf's built-in writes what the formatter
// consumed: here an int, a double (8-byte aligned, after 4 bytes of padding) and a string.
TEST(PrintfFormat, CountsTheArgumentsItConsumes) {
  std::vector<uint8_t> buf(24, 0);
  const int32_t i = -7;
  const double d = 2.5;
  const uint64_t s = 0x1000;
  std::memcpy(buf.data(), &i, 4);
  std::memcpy(buf.data() + 8, &d, 8);
  std::memcpy(buf.data() + 16, &s, 8);
  const std::string str = "ok";
  PrintfMemory mem;
  mem.read = [&](uint64_t a, void* out, unsigned n) {
    if (a >= 0x2000 && a + n <= 0x2000 + buf.size()) {
      std::memcpy(out, buf.data() + (a - 0x2000), n);
      return true;
    }
    if (a >= 0x1000 && a + n <= 0x1000 + str.size() + 1) {
      std::memcpy(out, str.c_str() + (a - 0x1000), n);
      return true;
    }
    return false;
  };
  uint32_t consumed = 0;
  EXPECT_EQ(formatDevicePrintf("%d %.1f %s 100%%\n", 0x2000, mem, &consumed), "-7 2.5 ok 100%\n");
  EXPECT_EQ(consumed, 3u);
  EXPECT_EQ(formatDevicePrintf("no arguments\n", 0, mem, &consumed), "no arguments\n");
  EXPECT_EQ(consumed, 0u);
}

// A string reads to its NUL whatever its length and wherever its memory ends (the reader takes
// blocks of bytes where it can): a string that ends at the last byte of its memory, one whose
// memory ends before a NUL (unreadable), one longer than the limit (cut there), the empty one.
TEST(PrintfFormat, ReadsAStringToItsNulWhereverItsMemoryEnds) {
  std::vector<char> bytes;
  PrintfMemory mem;
  mem.read = [&](uint64_t a, void* out, unsigned n) {
    if (a < 0x1000 || a + n > 0x1000 + bytes.size()) return false;
    std::memcpy(out, bytes.data() + (a - 0x1000), n);
    return true;
  };
  std::string out;
  for (size_t len = 0; len < 70; ++len) {
    const std::string want(len, 'a' + char(len % 26));
    bytes.assign(want.begin(), want.end());
    bytes.push_back('\0');  // the NUL is the memory's last byte
    ASSERT_TRUE(readDeviceString(0x1000, mem, out)) << len;
    EXPECT_EQ(out, want);
    ASSERT_TRUE(readDeviceString(0x1000 + len / 2, mem, out)) << len;
    EXPECT_EQ(out, want.substr(len / 2));
    bytes.pop_back();  // no NUL before the memory ends
    EXPECT_FALSE(readDeviceString(0x1000, mem, out)) << len;
    bytes.push_back('\0');
    bytes.insert(bytes.end(), 40, 'z');  // readable bytes past the NUL change nothing
    ASSERT_TRUE(readDeviceString(0x1000, mem, out)) << len;
    EXPECT_EQ(out, want);
    ASSERT_TRUE(readDeviceString(0x1000, mem, out, len / 3)) << len;
    EXPECT_EQ(out, want.substr(0, len / 3));
  }
}

// One conversion of `format` with `v` as its argument buffer (8 bytes, as vprintf's for one
// argument).
template <class T>
std::string formatOne(const char* format, T v) {
  uint8_t buf[8] = {};
  std::memcpy(buf, &v, sizeof v);
  PrintfMemory mem;
  mem.read = [&](uint64_t a, void* out, unsigned n) {
    if (a < 0x2000 || a + n > 0x2000 + sizeof buf) return false;
    std::memcpy(out, buf + (a - 0x2000), n);
    return true;
  };
  return formatDevicePrintf(format, 0x2000, mem);
}

template <class T>
std::string hostFormat(const char* format, T v) {
  char out[512];
  std::snprintf(out, sizeof out, format, v);
  return out;
}

// The conversions without flags, width or precision take a path of their own (std::to_chars):
// their text must be snprintf's, for integers of every width and sign, doubles of every bit
// pattern, and the values whose sixth decimal is an exact tie (n / 128: glibc rounds ties to
// even, as to_chars must), zeros of either sign, infinities and NaNs.
RC_GTEST_PROP(PrintfFormat, PlainConversionsMatchSnprintf, ()) {
  const int32_t i = *rc::gen::arbitrary<int32_t>();
  const uint32_t u = *rc::gen::arbitrary<uint32_t>();
  const int64_t l = *rc::gen::arbitrary<int64_t>();
  const uint64_t ul = *rc::gen::arbitrary<uint64_t>();
  for (const char* f : {"%d", "%i"}) RC_ASSERT(formatOne(f, i) == hostFormat(f, i));
  for (const char* f : {"%u", "%x", "%X", "%o"}) RC_ASSERT(formatOne(f, u) == hostFormat(f, u));
  RC_ASSERT(formatOne("%lld", l) == hostFormat("%lld", (long long)l));
  RC_ASSERT(formatOne("%li", l) == hostFormat("%lli", (long long)l));
  for (const char* f : {"%llu", "%llx", "%llX", "%llo"})
    RC_ASSERT(formatOne(f, ul) == hostFormat(f, (unsigned long long)ul));
  const double doubles[] = {std::bit_cast<double>(ul),
                            double(i) / 128,
                            double(l) / 1024 / 1024,
                            std::ldexp(double(u), int(ul % 80) - 60),
                            double(std::bit_cast<float>(u)),
                            -0.0,
                            0.0,
                            0.0000005,
                            0.0078125,
                            -2.5e-6,
                            HUGE_VAL,
                            -HUGE_VAL,
                            std::nan(""),
                            -std::nan("")};
  for (const double d : doubles) {
    RC_ASSERT(formatOne("%f", d) == hostFormat("%f", d));
    RC_ASSERT(formatOne("%F", d) == hostFormat("%F", d));
    RC_ASSERT(formatOne("%lf", d) == hostFormat("%f", d));
  }
}

}  // namespace
}  // namespace warpsim::sim
