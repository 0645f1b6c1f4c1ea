// The parts of user-kernel source generation both backends share: CuPy's type names,
// the prologue, #line bookkeeping (compiler messages point into the user's code),
// parameter declarations, collapsed loop layouts, the parameter block (the same bytes
// are kernel parameters on the GPU and the entry's arguments on the CPU) and the
// source hash that keys compiled kernels.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "backend/collapse_dims.h"
#include "backend/user_kernel_job.h"

namespace copper::backend {

// CuPy's spelling of a dtype in kernel code: "float", "long long", "float16", "complex<float>".
const char* user_type_name(DType t);

// What every user kernel starts with. device: NVRTC's embedded headers by #include, then
// ops/user_kernel_types.h inline; host: every header inline (the source stands alone).
std::string user_kernel_prologue(bool device);

// The op functors (copper::ops::invoke<Op, R>, ops::cast) for generated kernels that
// compute as the built-in ufuncs do (copper.fuse): one text for both compilers, NVRTC
// including the embedded headers, the host compiler reading them inline.
std::string user_ops_source();

// Source text that counts its lines, so that after a block of user code `#line` can
// point the compiler back at the generated file.
class SourceWriter {
 public:
  explicit SourceWriter(std::string file) : file_(std::move(file)) {}
  SourceWriter& operator<<(std::string_view s);
  // `code` numbered from line 1 of `label` in compiler messages.
  void user_block(const std::string& label, const std::string& code);
  const std::string& str() const { return text_; }

 private:
  std::string file_, text_;
  int lines_ = 0;  // newlines written so far
};

std::string typedef_lines(const UserTypedefs& typedefs);
// "#line 1 "<name>_preamble"" block and friends, skipped when empty.
void add_preamble(SourceWriter& w, const UserKernelCode& code, const UserTypedefs& typedefs);

// The kernel parameter for an argument: "float* _raw_x", "const T z",
// "copper::user::RawArray<const T, 2, true> y".
std::string param_decl(const UserKernelArg& a);
// A raw argument's type: "copper::user::RawArray<const T, 2, true>".
std::string raw_type(const UserKernelArg& a);
// The loop's reference to an array argument's element at `address` (an lvalue of the
// storage type): "const T& x = <address>;".
std::string element_ref(const UserKernelArg& a, const std::string& address);
// element_ref, but a const bool element is bound by value as its byte != 0: a bool view of
// other data may hold any byte, which C++ code reading a bool may pass on (3 + 4 is 7).
// Both backends' kernels bind their array arguments with it.
std::string element_load(const UserKernelArg& a, const std::string& address);
bool c_contiguous(const ArrayView& v);

// The address of an `array` argument's element: "_raw_x[<index>]" in a contiguous loop,
// "copper::user::at_offset(_raw_x, <offset>)" (a byte offset) in a strided one.
std::string element_address(const UserKernelArg& a, bool contiguous, const std::string& index,
                            const std::string& offset);

// collapse_dims (backend/collapse_dims.h), NotImplementedError past kUserMaxDims dimensions.
using UserLayout = CollapsedDims;
UserLayout collapse_layout(const Shape& shape, const std::vector<const Strides*>& strides);
constexpr int kUserMaxDims = 16;  // copper::kern::kMaxDims, copper::user::HostLayout

// One blob per kernel parameter, 8-byte aligned: pointers()[k] points at the k-th.
class ParamBlock {
 public:
  void add_bytes(const void* p, std::size_t n);
  template <class T> void add(const T& v) { add_bytes(&v, sizeof v); }
  // A pointer (array), a RawArray descriptor (raw) or the value (scalar).
  void add_arg(const UserKernelArg& a);
  // copper::kern::StridedLayout<K> / copper::user::HostLayout<K> bytes; fast_div holds
  // (divisor, mul, shift) per dimension (zeros where unused).
  void add_layout(const UserLayout& l, const std::vector<std::array<unsigned, 3>>& fast_div);
  void* const* pointers();
  std::size_t total_bytes() const { return total_; }

 private:
  std::vector<std::vector<std::uint64_t>> blobs_;
  std::vector<void*> pointers_;
  std::size_t total_ = 0;
};

// Two independent 64-bit hashes of a source and its length: a collision needs both to
// collide on texts of one length.
struct SourceHash {
  std::uint64_t h1 = 0, h2 = 0, length = 0;
  std::string hex() const;
};
SourceHash hash_source(std::string_view text);

// Everything about a call that the generated source depends on besides the layout
// class: placeholder types and each argument's kind, dtype, constness and raw layout.
std::string call_signature(const UserKernelCode& code, const UserTypedefs& typedefs,
                           const std::vector<UserKernelArg>& args);

// Ids for user kernels in the memo caches: unique per kernel object.
std::uint64_t next_user_kernel_id();

}  // namespace copper::backend
