// CudaBackend::run_chain and its code generator (see cuda_fused_chain.h).
#include "backend/cuda/cuda_fused_chain.h"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_fp_errors.h"
#include "backend/cuda/cuda_graph.h"
#include "backend/cuda/cuda_reduce.h"
#include "backend/cuda/cuda_user_kernel.h"
#include "backend/cuda/elementwise_launch.h"
#include "backend/cuda/kernel_cache.h"
#include "backend/cuda/kernel_cache_probe.h"
#include "backend/cuda/kernel_families.h"
#include "backend/cuda/nvrtc_api.h"
#include "copper/errors.hpp"
#include "ops/catalogue.h"

namespace copper::backend::cuda {
namespace {

constexpr unsigned kBlock = 256;

// The type a kernel loads an element of dtype t as: the device type, but a bool as its
// byte (copper::kern::loaded_t, common.cuh), which converts to the bool the steps take.
std::string loaded_type(DType t) { return std::string("copper::kern::loaded_t<") + device_type_name(t) + ">"; }
// Distinct chain structures remembered per process; past it the memo starts over (the
// compiled kernels stay in the kernel cache, so a forgotten structure costs a source
// build and a hash, not a compile).
constexpr std::size_t kMaxMemo = 4096;
// Steps x positions per thread past which the vector width halves (see make_plan).
constexpr std::size_t kMaxUnrolledSteps = 64;
// Kernel parameter bytes a generated kernel may take; a chain that needs more runs step by
// step (or, for the steps after a reduction, as a chain of their own).
constexpr std::size_t kMaxParamBytes = 4000;
// Distinct strided views a chain kernel reads (each one more row of strides in the
// kernel's StridedLayout); chains with more run step by step.
constexpr std::size_t kMaxGathers = 4;

// Where a step's operand lives in the kernel: a value parameter, a broadcast element
// (loaded once per thread), a memory slot (loaded and stored per position), a gathered
// view (loaded per position through its strides) or a scratch slot (a register only).
enum class From : unsigned char { value = 'v', broadcast = 'b', memory = 'm', gather = 'g', scratch = 's' };

struct OperandRef {
  From from = From::value;
  int index = 0;  // into the values, broadcasts, memory slots, gathers or scratch slots
};

// A read-only view the chain reads with its own strides (Chain::views).
struct GatherSlot {
  const void* data;
  DType dtype;
  int view;
};

// One buffer position the chain reads or writes over the whole shape (C order).
struct MemorySlot {
  void* data;
  DType dtype;
  bool loaded;  // read before any step writes it: the kernel loads it
  bool stored;  // written: the kernel stores its final value
};

struct Plan {
  bool fusable = true;  // false: the steps run one by one as eager kernels
  std::vector<MemorySlot> memory;
  std::vector<const ChainOperand*> broadcasts;
  std::vector<GatherSlot> gathers;
  std::vector<const unsigned char*> values;  // each value parameter's bytes
  std::vector<DType> value_dtypes;
  std::vector<std::array<OperandRef, 3>> in;  // per step
  std::vector<OperandRef> out;                // per step
  std::vector<bool> checked;                  // per step: records errstate's flags
  bool any_checked = false;
  // Some step computes in float16 or converts to or from it: the device's float16 is
  // software conversions around float math, branches NVRTC's optimizer takes very long
  // over once a body is unrolled (see make_plan).
  bool half_steps = false;
  int vec = 1;           // positions per thread and loop trip (16-byte accesses)
  bool index32 = true;   // 32-bit positions
};

// errstate: the eager kernel of this step would be the checked variant (run_ufunc).
bool step_checked(const ChainStep& s, bool fp_ready) {
  return fp_ready && s.kind == StepKind::ufunc && s.fp_mask != 0 && ufunc_reports_fp(s.op, s.loop, s.out.dtype);
}

// Kernel parameter bytes, each parameter padded as the widest one could be.
std::size_t param_bytes(const Plan& p) {
  std::size_t bytes = 8 * (1 + p.memory.size() + p.broadcasts.size() + p.gathers.size()) + 16 * p.values.size();
  if (!p.gathers.empty()) bytes += sizeof(StridedLayoutParam<kMaxGathers>);
  if (p.any_checked) bytes += 16 + 4 * static_cast<std::size_t>(std::count(p.checked.begin(), p.checked.end(), true));
  return bytes;
}

// `given` (the steps after a reduction): the reduction's output, whose value the kernel has
// before the first step: a scratch slot already written, or memory slot 0, stored and not
// loaded.
Plan make_plan(const Chain& chain, bool fp_ready, const ChainReduction* given = nullptr) {
  Plan p;
  const std::size_t nsteps = chain.steps.size();
  p.in.resize(nsteps);
  p.out.resize(nsteps);
  p.checked.resize(nsteps);
  std::vector<DType> scratch_dtype(chain.scratch_itemsize.size(), DType::bool_);
  std::vector<bool> scratch_written(chain.scratch_itemsize.size(), false);
  if (given && given->out_scratch >= 0) {
    scratch_dtype[static_cast<std::size_t>(given->out_scratch)] = given->out.dtype;
    scratch_written[static_cast<std::size_t>(given->out_scratch)] = true;
  } else if (given) {
    p.memory.push_back(MemorySlot{given->out.data, given->out.dtype, false, true});
  }
  // One buffer position read or written as two dtypes (a view of another type) cannot
  // live in one register: such chains run step by step.
  auto memory_ref = [&](const ChainOperand& o, bool write) {
    for (std::size_t k = 0; k < p.memory.size(); ++k) {
      MemorySlot& m = p.memory[k];
      if (m.data != o.data) continue;
      if (m.dtype != o.dtype) p.fusable = false;
      m.stored = m.stored || write;
      return OperandRef{From::memory, static_cast<int>(k)};
    }
    p.memory.push_back(MemorySlot{o.data, o.dtype, !write, write});
    return OperandRef{From::memory, static_cast<int>(p.memory.size() - 1)};
  };
  auto gather_ref = [&](const ChainOperand& o) {
    const Strides& st = chain.views[static_cast<std::size_t>(o.view)];
    for (std::size_t k = 0; k < p.gathers.size(); ++k) {
      const GatherSlot& g = p.gathers[k];
      if (g.data == o.data && g.dtype == o.dtype && chain.views[static_cast<std::size_t>(g.view)] == st)
        return OperandRef{From::gather, static_cast<int>(k)};
    }
    p.gathers.push_back(GatherSlot{o.data, o.dtype, o.view});
    return OperandRef{From::gather, static_cast<int>(p.gathers.size() - 1)};
  };
  for (std::size_t i = 0; i < nsteps; ++i) {
    const ChainStep& s = chain.steps[i];
    for (int k = 0; k < s.nin; ++k) {
      const ChainOperand& o = s.in[k];
      OperandRef& r = p.in[i][k];
      if (o.value) {
        r = {From::value, static_cast<int>(p.values.size())};
        p.values.push_back(s.values[k]);
        p.value_dtypes.push_back(o.dtype);
      } else if (o.broadcast) {
        r = {From::broadcast, static_cast<int>(p.broadcasts.size())};
        p.broadcasts.push_back(&o);
      } else if (o.view >= 0) {
        r = gather_ref(o);
      } else if (o.scratch >= 0) {
        r = {From::scratch, o.scratch};
        if (!scratch_written[o.scratch] || scratch_dtype[o.scratch] != o.dtype) p.fusable = false;
      } else {
        r = memory_ref(o, false);
      }
    }
    if (s.out.scratch >= 0) {
      p.out[i] = {From::scratch, s.out.scratch};
      scratch_dtype[s.out.scratch] = s.out.dtype;
      scratch_written[s.out.scratch] = true;
    } else {
      p.out[i] = memory_ref(s.out, true);
    }
    p.checked[i] = step_checked(s, fp_ready);
    p.any_checked = p.any_checked || p.checked[i];
    bool half = s.out.dtype == DType::float16 || (s.kind == StepKind::ufunc && s.loop == DType::float16);
    for (int k = 0; k < s.nin; ++k) half = half || s.in[k].dtype == DType::float16;
    p.half_steps = p.half_steps || half;
  }
  // As many positions per access as fit in 16 bytes for the widest memory operand, if
  // every memory operand is aligned to that, and while the unrolled body stays small:
  // NVRTC's time grows with steps x positions (an 80-step int8 chain at 16 positions per
  // thread took two minutes), and long chains have loads enough in flight without it.
  std::size_t widest = 1;
  for (const MemorySlot& m : p.memory) widest = std::max(widest, static_cast<std::size_t>(itemsize(m.dtype)));
  p.vec = static_cast<int>(std::max<std::size_t>(1, 16 / widest));
  while (p.vec > 1 && p.vec * nsteps > kMaxUnrolledSteps) p.vec /= 2;
  // float16 steps one position per thread: unrolled, their conversions' branches took
  // NVRTC 3.8 s at 2 positions, over 100 s at 4 and minutes at 8 (|y| and a == y of
  // one-element operands, isclose's start), 0.1 s at 1.
  if (p.half_steps) p.vec = 1;
  while (p.vec > 1 && !std::all_of(p.memory.begin(), p.memory.end(), [&](const MemorySlot& m) {
           return aligned(m.data, static_cast<std::size_t>(itemsize(m.dtype)) * static_cast<std::size_t>(p.vec));
         }))
    p.vec /= 2;
  p.index32 = fits_index32(chain.size);
  if (param_bytes(p) > kMaxParamBytes || p.gathers.size() > kMaxGathers ||
      (!p.gathers.empty() && chain.shape.size() > static_cast<std::size_t>(kMaxDims)))
    p.fusable = false;
  return p;
}

// What the generated source depends on, as bytes: the memo's key.
std::string structure_of(const Chain& chain, const Plan& p) {
  std::string k;
  k.reserve(16 + 4 * p.memory.size() + 24 * chain.steps.size());
  auto put = [&](unsigned v) {
    k.push_back(static_cast<char>(v & 0xff));
    k.push_back(static_cast<char>((v >> 8) & 0xff));
  };
  put(static_cast<unsigned>(p.vec));
  put(p.index32);
  put(static_cast<unsigned>(p.memory.size()));
  for (const MemorySlot& m : p.memory) put(static_cast<unsigned>(m.dtype) | (m.loaded << 8) | (m.stored << 9));
  put(static_cast<unsigned>(p.broadcasts.size()));
  for (const ChainOperand* b : p.broadcasts) put(static_cast<unsigned>(b->dtype));
  put(static_cast<unsigned>(p.gathers.size()));
  for (const GatherSlot& g : p.gathers) put(static_cast<unsigned>(g.dtype));
  for (std::size_t i = 0; i < chain.steps.size(); ++i) {
    const ChainStep& s = chain.steps[i];
    put(static_cast<unsigned>(s.kind));
    put(s.kind == StepKind::ufunc ? static_cast<unsigned>(s.op) : 0u);
    put(static_cast<unsigned>(s.out.dtype) | (static_cast<unsigned>(s.nin) << 5) | (p.checked[i] << 7));
    for (int j = 0; j < s.nin; ++j) {
      put(static_cast<unsigned>(p.in[i][j].from) | (static_cast<unsigned>(s.in[j].dtype) << 8));
      put(static_cast<unsigned>(p.in[i][j].index));
    }
    put(static_cast<unsigned>(p.out[i].from));
    put(static_cast<unsigned>(p.out[i].index));
  }
  return k;
}

std::string num(std::size_t v) { return std::to_string(v); }

// The final value of a buffer the chain writes, handed to a reduction it feeds.
struct Reduced {
  OperandRef ref;
  DType dtype;
};

// chain_body: every step at one position, loaded slots by value, stored slots by
// reference (and, when the chain feeds a reduction, the reduced buffer's final value too).
// `outline`: the body is one function that its callers call (not inlined into each).
std::string body_source(const Chain& chain, const Plan& p, const Reduced* reduced, const std::string& prefix = "",
                        const ChainReduction* given = nullptr, bool outline = false) {
  std::string s, params;
  if (given) params = std::string("const ") + device_type_name(given->out.dtype) + " res";
  auto param = [&](const std::string& decl) { params += (params.empty() ? "" : ", ") + decl; };
  for (std::size_t k = 0; k < p.memory.size(); ++k)
    if (p.memory[k].loaded) param(std::string("const ") + device_type_name(p.memory[k].dtype) + " m" + num(k));
  for (std::size_t k = 0; k < p.memory.size(); ++k)
    if (p.memory[k].stored) param(std::string(device_type_name(p.memory[k].dtype)) + "& o" + num(k));
  for (std::size_t k = 0; k < p.broadcasts.size(); ++k)
    param(std::string("const ") + device_type_name(p.broadcasts[k]->dtype) + " b" + num(k));
  for (std::size_t k = 0; k < p.gathers.size(); ++k)
    param(std::string("const ") + device_type_name(p.gathers[k].dtype) + " g" + num(k));
  for (std::size_t k = 0; k < p.values.size(); ++k)
    param(std::string("const ") + device_type_name(p.value_dtypes[k]) + " v" + num(k));
  for (std::size_t i = 0; i < chain.steps.size(); ++i)
    if (p.checked[i]) param("unsigned& f" + num(i));
  if (reduced) param(std::string(device_type_name(reduced->dtype)) + "& red");
  s += std::string(outline ? "__device__ __noinline__ void " : "__device__ __forceinline__ void ") + prefix +
       "chain_body(" + params + ") {\n";
  std::vector<std::string> memory_now(p.memory.size()), scratch_now(chain.scratch_itemsize.size());
  for (std::size_t k = 0; k < p.memory.size(); ++k)
    if (p.memory[k].loaded) memory_now[k] = "m" + num(k);
  if (given && given->out_scratch >= 0) scratch_now[static_cast<std::size_t>(given->out_scratch)] = "res";
  else if (given) memory_now[0] = "res";
  for (std::size_t i = 0; i < chain.steps.size(); ++i) {
    const ChainStep& st = chain.steps[i];
    std::string a[3], args;
    for (int j = 0; j < st.nin; ++j) {
      const OperandRef& r = p.in[i][j];
      a[j] = r.from == From::value       ? "v" + num(static_cast<std::size_t>(r.index))
             : r.from == From::broadcast ? "b" + num(static_cast<std::size_t>(r.index))
             : r.from == From::gather    ? "g" + num(static_cast<std::size_t>(r.index))
             : r.from == From::memory    ? memory_now[r.index]
                                         : scratch_now[r.index];
      args += (j ? ", " : "") + a[j];
    }
    const std::string r = "r" + num(i), R = device_type_name(st.out.dtype);
    std::string functor;
    switch (st.kind) {
      case StepKind::cast: s += "  const " + R + " " + r + " = copper::ops::cast<" + R + ">(" + a[0] + ");\n"; break;
      case StepKind::where: s += "  const " + R + " " + r + " = " + a[0] + " ? " + a[1] + " : " + a[2] + ";\n"; break;
      case StepKind::ufunc:
        functor = "copper::ops::" + std::string(ops::info(st.op).name);
        s += "  const " + R + " " + r + " = copper::ops::invoke<" + functor + ", " + R + ">(" + args + ");\n";
        break;
    }
    if (p.checked[i]) {
      s += "  f" + num(i) + " |= copper::ops::fp::classify<" + functor + ">(" + r + ", " + args + ")";
      if (st.nin == 2) s += " | copper::ops::fp::classify_int_division<" + functor + ">(" + args + ")";
      s += ";\n";
    }
    (p.out[i].from == From::memory ? memory_now : scratch_now)[p.out[i].index] = r;
  }
  for (std::size_t k = 0; k < p.memory.size(); ++k)
    if (p.memory[k].stored) s += "  o" + num(k) + " = " + memory_now[k] + ";\n";
  if (reduced)
    s += "  red = " + (reduced->ref.from == From::memory ? memory_now : scratch_now)[reduced->ref.index] + ";\n";
  s += "}\n";
  return s;
}

std::string fp_includes(const Plan& p) {
  return p.any_checked ? "#include \"ops/scalar_fp_errors.h\"\n#include \"copper_kernels/fp_errors.cuh\"\n" : "";
}

// chain_body's arguments, with `load(k)` and `store(k)` naming memory slot k's element.
// `prefix` names the body and the kernel's variables of a second chain in one kernel (the
// steps after a reduction: "a"); `given` is the value their body starts from.
template <class Load, class Store> std::string body_call(const Chain& chain, const Plan& p, Load load, Store store,
                                                         const char* reduced = nullptr, const std::string& prefix = "",
                                                         const char* given = nullptr) {
  std::string a;
  auto arg = [&](const std::string& x) { a += (a.empty() ? "" : ", ") + x; };
  if (given) arg(given);
  for (std::size_t k = 0; k < p.memory.size(); ++k)
    if (p.memory[k].loaded) arg(load(k));
  for (std::size_t k = 0; k < p.memory.size(); ++k)
    if (p.memory[k].stored) arg(store(k));
  for (std::size_t k = 0; k < p.broadcasts.size(); ++k) arg(prefix + "b" + num(k));
  for (std::size_t k = 0; k < p.gathers.size(); ++k) arg(prefix + "g" + num(k));
  for (std::size_t k = 0; k < p.values.size(); ++k) arg(prefix + "v" + num(k));
  for (std::size_t i = 0; i < chain.steps.size(); ++i)
    if (p.checked[i]) arg(prefix + "f" + num(i));
  if (reduced) arg(reduced);
  return prefix + "chain_body(" + a + ")";
}

// The kernel parameters after the position count (elementwise) or the ReduceParams (a fed
// reduction): memory slots, broadcast elements, values, errstate's slots and masks.
std::string chain_kernel_params(const Chain& chain, const Plan& p, const std::string& prefix = "") {
  std::string kparams;
  for (std::size_t k = 0; k < p.memory.size(); ++k) kparams += ", char* " + prefix + "p" + num(k);
  for (std::size_t k = 0; k < p.broadcasts.size(); ++k) kparams += ", const char* " + prefix + "q" + num(k);
  for (std::size_t k = 0; k < p.gathers.size(); ++k) kparams += ", const char* " + prefix + "r" + num(k);
  for (std::size_t k = 0; k < p.values.size(); ++k)
    kparams += ", const " + std::string(device_type_name(p.value_dtypes[k])) + " " + prefix + "v" + num(k);
  if (!p.gathers.empty())
    kparams += ", const __grid_constant__ copper::kern::StridedLayout<" + num(p.gathers.size()) + "> " + prefix + "gl";
  if (p.any_checked) {
    kparams += ", unsigned* " + prefix + "fp_word, copper::kern::FpErrorRecord* " + prefix + "fp_record";
    for (std::size_t i = 0; i < chain.steps.size(); ++i)
      if (p.checked[i]) kparams += ", unsigned " + prefix + "mask" + num(i);
  }
  return kparams;
}

// `flags` prefixes the flag variables (a member of the feed: "feed."), `prefix` the kernel's
// parameters (see body_call).
std::string record_flags(const Chain& chain, const Plan& p, const std::string& flags, const std::string& prefix = "") {
  std::string s;
  for (std::size_t i = 0; i < chain.steps.size(); ++i)
    if (p.checked[i])
      s += "  record_fp_errors(" + prefix + "fp_word, " + prefix + "fp_record, " + flags + prefix + "f" + num(i) +
           " & " + prefix + "mask" + num(i) + ", " + num(static_cast<std::size_t>(chain.steps[i].op)) + "u);\n";
  return s;
}

// Declares g0, g1, ...: view k's element at byte offset `offset(k)` from its base.
template <class Offset> std::string gather_reads(const Plan& p, Offset offset) {
  std::string s;
  for (std::size_t k = 0; k < p.gathers.size(); ++k) {
    const std::string T = device_type_name(p.gathers[k].dtype);
    s += " const " + T + " g" + num(k) + " = *reinterpret_cast<const " + loaded_type(p.gathers[k].dtype) + "*>(r" +
         num(k) + " + " + offset(k) + ");";
  }
  return s;
}

// Declares g0, g1, ...: each gathered view's element at position `pos` (of type I), whose
// byte offsets `layout` (a StridedLayout over the chain's shape) gives.
std::string gather_loads(const Plan& p, const std::string& pos, const std::string& layout) {
  if (p.gathers.empty()) return "";
  std::string s = "long long go[" + num(p.gathers.size()) + "]; copper::kern::offsets(" + layout + ", " + pos + ", go);";
  return s + gather_reads(p, [](std::size_t k) { return "go[" + num(k) + "]"; }) + " ";
}

std::string make_source(const Chain& chain, const Plan& p) {
  std::string s = source_prologue() + fp_includes(p) + body_source(chain, p, nullptr);

  // The kernel: positions (or vectors of them) in a grid-stride loop.
  const std::string kparams = "long long n_" + chain_kernel_params(chain, p);
  s += "extern \"C\" __global__ void __launch_bounds__(" + num(kBlock) + ") copper_chain(" + kparams + ") {\n";
  s += "  using namespace copper::kern;\n";
  s += p.index32 ? "  typedef unsigned I;\n" : "  typedef long long I;\n";
  s += "  const I n = static_cast<I>(n_);\n  const I step = static_cast<I>(gridDim.x) * blockDim.x;\n"
       "  const I tid = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x;\n";
  for (std::size_t k = 0; k < p.broadcasts.size(); ++k) {
    const std::string T = device_type_name(p.broadcasts[k]->dtype);
    s += "  const " + T + " b" + num(k) + " = *reinterpret_cast<const " + loaded_type(p.broadcasts[k]->dtype) + "*>(q" +
         num(k) + ");\n";
  }
  for (std::size_t i = 0; i < chain.steps.size(); ++i)
    if (p.checked[i]) s += "  unsigned f" + num(i) + " = 0;\n";
  // A chain that loads nothing per position (its operands one-element arrays and values)
  // computes the same values everywhere: once per thread, before the loops, which then
  // only store them. Left in the unrolled loop, NVRTC's loop-invariant motion over such
  // bodies can take minutes.
  const bool invariant = p.gathers.empty() && std::none_of(p.memory.begin(), p.memory.end(),
                                                           [](const MemorySlot& m) { return m.loaded; });
  if (invariant) {
    for (std::size_t k = 0; k < p.memory.size(); ++k)
      s += "  " + std::string(device_type_name(p.memory[k].dtype)) + " h" + num(k) + ";\n";
    s += "  " + body_call(chain, p, [](std::size_t) { return std::string(); }, [](std::size_t k) { return "h" + num(k); }) +
         ";\n";
  }
  auto call = [&](auto load, auto store) {
    if (!invariant) return body_call(chain, p, load, store);
    std::string a;
    for (std::size_t k = 0; k < p.memory.size(); ++k) a += (a.empty() ? "" : "; ") + store(k) + " = h" + num(k);
    return a;
  };
  const std::string V = num(static_cast<std::size_t>(p.vec));
  auto vec_type = [&](std::size_t k) { return "Vec<" + std::string(device_type_name(p.memory[k].dtype)) + ", " + V + ">"; };
  auto loaded_vec_type = [&](std::size_t k) { return "Vec<" + loaded_type(p.memory[k].dtype) + ", " + V + ">"; };
  std::string tail_start = "tid";
  if (p.vec > 1) {
    s += "  const I nv = n / " + V + ";\n  for (I i = tid; i < nv; i += step) {\n";
    for (std::size_t k = 0; k < p.memory.size(); ++k) {
      if (p.memory[k].loaded)
        s += "    const " + loaded_vec_type(k) + " l" + num(k) + " = reinterpret_cast<const " + loaded_vec_type(k) + "*>(p" +
             num(k) + ")[i];\n";
      if (p.memory[k].stored) s += "    " + vec_type(k) + " s" + num(k) + ";\n";
    }
    s += "#pragma unroll\n    for (int j = 0; j < " + V + "; ++j) { " + gather_loads(p, "i * " + V + " + j", "gl") +
         call([](std::size_t k) { return "l" + num(k) + ".v[j]"; }, [](std::size_t k) { return "s" + num(k) + ".v[j]"; }) +
         "; }\n";
    for (std::size_t k = 0; k < p.memory.size(); ++k)
      if (p.memory[k].stored) s += "    reinterpret_cast<" + vec_type(k) + "*>(p" + num(k) + ")[i] = s" + num(k) + ";\n";
    s += "  }\n";
    tail_start = "nv * " + V + " + tid";
  }
  auto element = [&](std::size_t k, bool write) {
    const DType t = p.memory[k].dtype;
    return write ? std::string("reinterpret_cast<") + device_type_name(t) + "*>(p" + num(k) + ")[i]"
                 : "reinterpret_cast<const " + loaded_type(t) + "*>(p" + num(k) + ")[i]";
  };
  s += "  for (I i = " + tail_start + "; i < n; i += step) { " + gather_loads(p, "i", "gl") +
       call([&](std::size_t k) { return element(k, false); }, [&](std::size_t k) { return element(k, true); }) + "; }\n";
  s += record_flags(chain, p, "");
  s += "}\n";
  return without_unused_complex_math(std::move(s));
}

// A reduction's main kernel whose input the chain computes (ReduceFeed): ChainFeed gives
// the reduction element i of its input as the chain's final value of the reduced buffer
// at position i, storing the chain's other written buffers there on the way (the
// reduction asks for each element once). Positions come from the addresses the reduction
// would read, relative to the reduced buffer's position `origin`.
std::string make_feed_source(const Chain& chain, const Plan& p, const Reduced& reduced, ops::ReduceOp op,
                             DType out, ReduceShape shape, ReduceMode mode) {
  const std::string In = device_type_name(reduced.dtype);
  std::string s = reduce_source_head() + fp_includes(p) + body_source(chain, p, &reduced);
  s += reducer_typedefs("copper_reduce", op, reduced.dtype, out);
  s += "struct ChainFeed {\n  const char* origin;\n";
  for (std::size_t k = 0; k < p.memory.size(); ++k) s += "  char* p" + num(k) + ";\n";
  for (std::size_t k = 0; k < p.broadcasts.size(); ++k)
    s += "  " + std::string(device_type_name(p.broadcasts[k]->dtype)) + " b" + num(k) + ";\n";
  for (std::size_t k = 0; k < p.gathers.size(); ++k) s += "  const char* r" + num(k) + ";\n";
  if (!p.gathers.empty()) s += "  const copper::kern::StridedLayout<" + num(p.gathers.size()) + ">* gl;\n";
  for (std::size_t k = 0; k < p.values.size(); ++k)
    s += "  " + std::string(device_type_name(p.value_dtypes[k])) + " v" + num(k) + ";\n";
  for (std::size_t i = 0; i < chain.steps.size(); ++i)
    if (p.checked[i]) s += "  mutable unsigned f" + num(i) + ";\n";
  // Long chains, chains over narrow types (16-byte vectors of 8 or 16 elements) and
  // chains with float16 steps are called through one function: inlined into every load
  // site of the reduction templates (a dozen, each unrolled over a vector), their bodies
  // multiply NVRTC's time (a 2-step float16 chain inlined took 15 s).
  const std::size_t vector_elements = 16 / static_cast<std::size_t>(itemsize(reduced.dtype));
  const bool inline_value = !p.half_steps && chain.steps.size() * std::max<std::size_t>(vector_elements, 1) <= 8;
  // compute(i, loaded slots' elements at i): the chain at position i.
  std::string loaded_params;
  for (std::size_t k = 0; k < p.memory.size(); ++k)
    if (p.memory[k].loaded) loaded_params += ", const " + std::string(device_type_name(p.memory[k].dtype)) + " m" + num(k);
  s += std::string("  ") + (inline_value ? "__device__ __forceinline__" : "__device__ __noinline__") + " " + In +
       " compute(long long i" + loaded_params + ") const {\n    " + In + " red;\n";
  if (!p.gathers.empty())
    s += "    " + gather_loads(p, std::string(p.index32 ? "static_cast<unsigned>(i)" : "i"), "*gl") + "\n";
  for (std::size_t k = 0; k < p.memory.size(); ++k)
    if (p.memory[k].stored) s += "    " + std::string(device_type_name(p.memory[k].dtype)) + " s" + num(k) + ";\n";
  s += "    " + body_call(chain, p, [](std::size_t k) { return "m" + num(k); }, [](std::size_t k) { return "s" + num(k); },
                        "red") +
       ";\n";
  for (std::size_t k = 0; k < p.memory.size(); ++k)
    if (p.memory[k].stored)
      s += "    reinterpret_cast<" + std::string(device_type_name(p.memory[k].dtype)) + "*>(p" + num(k) + ")[i] = s" +
           num(k) + ";\n";
  s += "    return red;\n  }\n";
  // The loaded slots' elements as compute()'s arguments: `element(k)` names slot k's.
  auto loaded_args = [&](auto element) {
    std::string a;
    for (std::size_t k = 0; k < p.memory.size(); ++k)
      if (p.memory[k].loaded) a += ", " + element(k);
    return a;
  };
  s += "  template <class T> __device__ __forceinline__ T at(const char* q) const {\n"
       "    const long long i = (q - origin) / static_cast<long long>(sizeof(T));\n    return compute(i" +
       loaded_args([&](std::size_t k) {
         return "reinterpret_cast<const " + loaded_type(p.memory[k].dtype) + "*>(p" + num(k) + ")[i]";
       }) +
       ");\n  }\n";
  // A vector of V positions (i a multiple of V): with p.vec > 1 every loaded slot is
  // aligned for V-element vectors, loaded as such (16-byte loads, as the eager reduction's).
  s += "  template <class T, int V> __device__ __forceinline__ copper::kern::Vec<T, V> vec16(const char* q) const {\n"
       "    const long long i = (q - origin) / static_cast<long long>(sizeof(T));\n    copper::kern::Vec<T, V> r;\n";
  auto vec_type = [&](std::size_t k) { return "copper::kern::Vec<" + loaded_type(p.memory[k].dtype) + ", V>"; };
  if (p.vec > 1)
    for (std::size_t k = 0; k < p.memory.size(); ++k)
      if (p.memory[k].loaded)
        s += "    const " + vec_type(k) + " l" + num(k) + " = reinterpret_cast<const " + vec_type(k) + "*>(p" + num(k) +
             ")[i / V];\n";
  s += "#pragma unroll\n    for (int j = 0; j < V; ++j) r.v[j] = compute(i + j" +
       loaded_args([&](std::size_t k) {
         return p.vec > 1 ? "l" + num(k) + ".v[j]"
                          : "reinterpret_cast<const " + loaded_type(p.memory[k].dtype) + "*>(p" +
                                num(k) + ")[i + j]";
       }) +
       ");\n    return r;\n  }\n};\n";
  s += std::string("extern \"C\" __global__ void __launch_bounds__(256) ") + kReduceMainEntry +
       "(const copper::kern::ReduceParams p, const char* origin" + chain_kernel_params(chain, p) + ") {\n";
  s += "  using namespace copper::kern;\n  ChainFeed feed;\n  feed.origin = origin;\n";
  for (std::size_t k = 0; k < p.memory.size(); ++k) s += "  feed.p" + num(k) + " = p" + num(k) + ";\n";
  for (std::size_t k = 0; k < p.broadcasts.size(); ++k) {
    const std::string T = device_type_name(p.broadcasts[k]->dtype);
    s += "  feed.b" + num(k) + " = *reinterpret_cast<const " + loaded_type(p.broadcasts[k]->dtype) + "*>(q" + num(k) +
         ");\n";
  }
  for (std::size_t k = 0; k < p.gathers.size(); ++k) s += "  feed.r" + num(k) + " = r" + num(k) + ";\n";
  if (!p.gathers.empty()) s += "  feed.gl = &gl;\n";
  for (std::size_t k = 0; k < p.values.size(); ++k) s += "  feed.v" + num(k) + " = v" + num(k) + ";\n";
  for (std::size_t i = 0; i < chain.steps.size(); ++i)
    if (p.checked[i]) s += "  feed.f" + num(i) + " = 0;\n";
  s += "  " + reduce_template_call(shape, mode, "copper_reduce", "feed") + "\n";
  s += record_flags(chain, p, "feed.");
  s += "}\n";
  return without_unused_complex_math(std::move(s));
}

// The steps after the chain's reduction as a chain of their own over its output (the
// reduction's output given, see make_plan), for one kernel with the fed reduction.
struct Tail {
  Chain chain;
  Plan plan;
};
std::optional<Tail> tail_of(const Chain& chain, bool fp_ready) {
  if (chain.after.empty() || !chain.reduction) return std::nullopt;
  Tail t;
  t.chain = after_chain(chain);
  t.plan = make_plan(t.chain, fp_ready, &*chain.reduction);
  t.plan.vec = 1;
  if (!t.plan.fusable || !t.plan.gathers.empty()) return std::nullopt;
  return t;
}

// Whether a serial fed reduction's rows lie along the chain's innermost axis (one reduced
// axis of unit stride, as long as that axis): a view's element j of a row is then its
// element 0 plus j times its innermost stride, with no division per element.
bool rows_along_inner_axis(const Chain& chain) {
  const ChainReduction& r = *chain.reduction;
  return r.nreduce == 1 && !r.in.shape.empty() && !chain.shape.empty() &&
         r.in.strides.back() == itemsize(r.in.dtype) && r.in.shape.back() == chain.shape.back();
}

// The gathered views over the chain's shape less its innermost axis, collapsed: where a serial
// reduction's rows lie along that axis (rows_along_inner_axis), row q starts at offsets(rows, q),
// with one division per outer axis instead of one per axis of the whole chain.
CollapsedLayout row_layout(const Chain& chain, const Plan& p) {
  const Shape outer(chain.shape.begin(), chain.shape.end() - 1);
  std::vector<Strides> strides;
  strides.reserve(p.gathers.size());
  for (const GatherSlot& g : p.gathers) {
    const Strides& v = chain.views[static_cast<std::size_t>(g.view)];
    strides.emplace_back(v.begin(), v.end() - 1);
  }
  std::vector<const Strides*> ptrs;
  for (const Strides& st : strides) ptrs.push_back(&st);
  return collapse(outer, ptrs);
}

// Bytes of the serial kernel's parameters past the chain's own: origin, each view's innermost
// stride and the tail's.
std::size_t serial_extra_bytes(const Plan& p, const Tail* tail) {
  return 8 * (1 + p.gathers.size()) + (tail ? param_bytes(tail->plan) : 0);
}

// tail_of where the serial kernel has room for its parameters beside the chain's.
std::optional<Tail> serial_tail(const Chain& chain, const Plan& p, bool fp_ready) {
  std::optional<Tail> tail = tail_of(chain, fp_ready);
  if (tail && param_bytes(p) + sizeof(ReduceParams) + serial_extra_bytes(p, &*tail) > kMaxParamBytes) tail.reset();
  return tail;
}

// row_layout where the serial kernel takes it (rows along the innermost axis, views gathered,
// room among the parameters, at most kMaxDims dimensions).
std::optional<CollapsedLayout> serial_rows(const Chain& chain, const Plan& p, const Tail* tail) {
  if (p.gathers.empty() || !rows_along_inner_axis(chain)) return std::nullopt;
  const std::size_t layout_bytes = sizeof(StridedLayoutParam<1>) + (p.gathers.size() - 1) * 8 * kMaxDims;
  if (param_bytes(p) + sizeof(ReduceParams) + serial_extra_bytes(p, tail) + layout_bytes > kMaxParamBytes)
    return std::nullopt;
  CollapsedLayout l = row_layout(chain, p);
  if (l.shape.size() > static_cast<std::size_t>(kMaxDims)) return std::nullopt;
  return l;
}

// Elements per output of the chain's reduction.
std::int64_t serial_row_length(const Chain& chain) {
  const ChainReduction& r = *chain.reduction;
  std::int64_t n = 1;
  for (std::size_t d = r.in.shape.size() - static_cast<std::size_t>(r.nreduce); d < r.in.shape.size(); ++d)
    n *= r.in.shape[d];
  return n;
}

// How a serial kernel reaches its rows' elements: constants of its source and parts of its key.
struct SerialAccess {
  int row_ndim = -1;    // dimensions of the row layout `rl` (serial_rows); -1: none
  bool direct = false;  // output c is row c and output element c (see serial_access)
  bool off32 = false;   // every view's byte offsets over the row layout fit in an int
  unsigned vec = 0;     // bit k: view k's row is one aligned vector of nred elements
};

// The serial kernel's access for `rows` (serial_rows). direct: the reduction's input (whose
// first element is the chain's first position) in C order, its output C-contiguous over
// the input's other axes, positions in 32 bits. off32: for each view, the largest offset's
// magnitude (every axis at its far end, the row's elements included) is below 2^31, so
// the offsets are products of ints. vec: a view whose row is contiguous, nred * itemsize
// is 4, 8 or 16 bytes, and whose start and outer strides are multiples of that, so each
// row is one aligned load (fewer load instructions and L1 requests for short rows).
SerialAccess serial_access(const Chain& chain, const Plan& p, const std::optional<CollapsedLayout>& rows) {
  SerialAccess a;
  if (!rows) return a;
  a.row_ndim = static_cast<int>(rows->shape.size());
  const ChainReduction& r = *chain.reduction;
  a.direct = p.index32 && is_c_contiguous_view(r.in) && is_c_contiguous_view(r.out) &&
             r.out.shape == Shape(r.in.shape.begin(), r.in.shape.end() - 1);
  const std::int64_t nred = serial_row_length(chain);
  a.off32 = true;
  for (std::size_t k = 0; k < p.gathers.size(); ++k) {
    const GatherSlot& g = p.gathers[k];
    const std::int64_t isz = itemsize(g.dtype);
    const std::int64_t inner = chain.views[static_cast<std::size_t>(g.view)].back();
    const std::int64_t bytes = nred * isz;  // a row's, where it is contiguous
    std::int64_t reach = (nred - 1) * (inner < 0 ? -inner : inner) + isz;
    bool aligned_rows = a.direct && inner == isz && (bytes == 4 || bytes == 8 || bytes == 16) &&
                        reinterpret_cast<std::uintptr_t>(g.data) % static_cast<std::uintptr_t>(bytes) == 0;
    for (std::size_t d = 0; d < rows->shape.size(); ++d) {
      const std::int64_t st = rows->strides[k][d];
      reach += (rows->shape[d] - 1) * (st < 0 ? -st : st);
      aligned_rows = aligned_rows && st % bytes == 0;
    }
    a.off32 = a.off32 && reach < (std::int64_t{1} << 31);
    if (aligned_rows) a.vec |= 1u << k;
  }
  return a;
}

// ReduceShape::rows_serial, for a fed reduction whose rows the eager rows shape gives one
// lane each (short rows: launch_reduce): one thread per output folds its row's elements in
// index order, as that lane does, each computed by the chain's steps at its position; then
// the steps after the reduction (`tail`) run on the result at the output's position, so
// `sqrt(sum((a - b)**2, axis=-1))` writes only the sqrt (and the sum only if someone holds
// it). Kernel parameters: ReduceParams, origin, the chain's, each view's innermost stride,
// the row layout `rl` where `a.row_ndim` >= 0 (row_layout, that many dimensions), the tail's
// (prefixed "a"). `a.direct` (serial_access): output c is row c of the chain and element c
// of the output, so no offsets are derived from ReduceParams, and each thread takes several
// rows at once, their views' elements loaded before any is used.
std::string make_serial_feed_source(const Chain& chain, const Plan& p, const Reduced& reduced, ops::ReduceOp op,
                                    DType out, const Tail* tail, const SerialAccess& a) {
  const std::string In = device_type_name(reduced.dtype), Out = device_type_name(out);
  std::string s = reduce_source_head() + fp_includes(p) + (tail && !p.any_checked ? fp_includes(tail->plan) : "") +
                  body_source(chain, p, &reduced, "", nullptr, p.half_steps);
  if (tail) s += body_source(tail->chain, tail->plan, nullptr, "a", &*chain.reduction, tail->plan.half_steps);
  s += reducer_typedefs("copper_reduce", op, reduced.dtype, out);
  std::string params = "const copper::kern::ReduceParams p, const char* origin" + chain_kernel_params(chain, p);
  for (std::size_t k = 0; k < p.gathers.size(); ++k) params += ", const long long gs" + num(k);
  const bool along = rows_along_inner_axis(chain);
  const bool rows = a.row_ndim >= 0;  // serial_rows: along the innermost axis, views gathered
  // go: the views' byte offsets of row `row` (the row layout's), ints where they fit (off32).
  auto row_offsets = [&](const std::string& indent, const std::string& row) {
    return indent + (a.off32 ? "int" : "long long") + " go[" + num(p.gathers.size()) + "];\n" + indent +
           "offsets_fixed<" + num(static_cast<std::size_t>(a.row_ndim)) + ">(rl, " + row + ", go);\n";
  };
  if (rows) params += ", const __grid_constant__ copper::kern::StridedLayout<" + num(p.gathers.size()) + "> rl";
  if (tail) params += chain_kernel_params(tail->chain, tail->plan, "a");
  s += std::string("extern \"C\" __global__ void __launch_bounds__(256) ") + kReduceMainEntry + "(" + params + ") {\n";
  s += "  using namespace copper::kern;\n  typedef copper_reduce::R R;\n";
  s += p.index32 ? "  typedef unsigned I;\n" : "  typedef long long I;\n";
  auto broadcasts = [&](const Plan& q, const std::string& prefix) {
    for (std::size_t k = 0; k < q.broadcasts.size(); ++k) {
      const std::string T = device_type_name(q.broadcasts[k]->dtype);
      s += "  const " + T + " " + prefix + "b" + num(k) + " = *reinterpret_cast<const " + loaded_type(q.broadcasts[k]->dtype) +
           "*>(" + prefix + "q" +
           num(k) + ");\n";
    }
  };
  auto flags = [&](const Chain& c, const Plan& q, const std::string& prefix) {
    for (std::size_t i = 0; i < c.steps.size(); ++i)
      if (q.checked[i]) s += "  unsigned " + prefix + "f" + num(i) + " = 0;\n";
  };
  broadcasts(p, "");
  flags(chain, p, "");
  if (tail) {
    broadcasts(tail->plan, "a");
    flags(tail->chain, tail->plan, "a");
  }
  // The row length is a constant of the kernel (at most 32 here: launch_reduce), so the
  // row's loop unrolls and each view's offsets along it are constants times its stride.
  const std::int64_t nred = serial_row_length(chain);
  s += "  constexpr long long nred = " + num(static_cast<std::size_t>(nred)) + ";\n";
  auto element = [&](const Plan& q, std::size_t k, const std::string& base, const std::string& at, bool write) {
    const DType t = q.memory[k].dtype;
    return (write ? std::string("reinterpret_cast<") + device_type_name(t) : "reinterpret_cast<const " + loaded_type(t)) +
           "*>(" + base + num(k) + ")[" + at + "]";
  };
  // The row's values through the chain's steps (v[j], position i), the fold, the steps
  // after it at output position `o` and the store there: the part both loops share.
  auto row_body = [&](const std::string& indent, const std::string& o) {
    std::string b;
    for (std::size_t k = 0; k < p.memory.size(); ++k)
      if (p.memory[k].stored) b += indent + "  " + device_type_name(p.memory[k].dtype) + " s" + num(k) + ";\n";
    b += indent + "  " + In + " red;\n" + indent + "  " +
         body_call(chain, p, [&](std::size_t k) { return element(p, k, "p", "i", false); },
                   [](std::size_t k) { return "s" + num(k); }, "red") +
         ";\n";
    for (std::size_t k = 0; k < p.memory.size(); ++k)
      if (p.memory[k].stored) b += indent + "  " + element(p, k, "p", "i", true) + " = s" + num(k) + ";\n";
    b += indent + "  v[j] = red;\n" + indent + "}\n" + indent + "const " + Out + " res = fold_row<R>(v);\n";
    if (tail) {
      const Plan& q = tail->plan;
      for (std::size_t k = 0; k < q.memory.size(); ++k)
        if (q.memory[k].stored) b += indent + device_type_name(q.memory[k].dtype) + " as" + num(k) + ";\n";
      b += indent +
           body_call(tail->chain, q, [&](std::size_t k) { return element(q, k, "ap", o, false); },
                     [](std::size_t k) { return "as" + num(k); }, nullptr, "a", "res") +
           ";\n";
      for (std::size_t k = 0; k < q.memory.size(); ++k)
        if (q.memory[k].stored) b += indent + element(q, k, "ap", o, true) + " = as" + num(k) + ";\n";
    } else {
      b += indent + "reinterpret_cast<" + Out + "*>(p.out)[" + o + "] = res;\n";
    }
    return b;
  };
  // The kernel's end: both chains' floating-point flags recorded.
  auto finish = [&] {
    return record_flags(chain, p, "") + (tail ? record_flags(tail->chain, tail->plan, "", "a") : "") + "}\n";
  };
  if (a.direct) {
    // U rows per thread and pass (fewer for longer rows, whose elements fill registers):
    // the views' elements of all U first, so U rows' loads are in flight together.
    const int U = nred <= 2 ? 4 : nred <= 4 ? 2 : 1;
    s += "  constexpr int U = " + num(static_cast<std::size_t>(U)) +
         ";\n  const I nout = static_cast<I>(p.nout);\n  const I step = gridDim.x * 256u;\n"
         "  for (I c0 = blockIdx.x * 256u + threadIdx.x; c0 < nout; c0 += U * step) {\n";
    for (std::size_t k = 0; k < p.gathers.size(); ++k)
      s += "    " + std::string(device_type_name(p.gathers[k].dtype)) + " G" + num(k) + "[U][nred];\n";
    s += "#pragma unroll\n    for (int u = 0; u < U; ++u) {\n      const I c = c0 + u * step;\n"
         "      if (c >= nout) break;\n" + row_offsets("      ", "c");
    for (std::size_t k = 0; k < p.gathers.size(); ++k) {
      const std::string T = loaded_type(p.gathers[k].dtype), K = num(k);
      if (a.vec >> k & 1) {
        s += "      {\n        const Vec<" + T + ", nred> w = *reinterpret_cast<const Vec<" + T + ", nred>*>(r" + K +
             " + go[" + K + "]);\n#pragma unroll\n        for (int j = 0; j < nred; ++j) G" + K +
             "[u][j] = w.v[j];\n      }\n";
      } else {
        s += "#pragma unroll\n      for (int j = 0; j < nred; ++j)\n        G" + K + "[u][j] = *reinterpret_cast<const " +
             T + "*>(r" + K + " + go[" + K + "] + j * gs" + K + ");\n";
      }
    }
    s += "    }\n#pragma unroll\n    for (int u = 0; u < U; ++u) {\n      const I c = c0 + u * step;\n"
         "      if (c >= nout) break;\n      " + In + " v[nred];\n#pragma unroll\n      for (int j = 0; j < nred; ++j) {\n";
    if (!p.memory.empty()) s += "        const I i = c * static_cast<I>(nred) + j;\n";
    for (std::size_t k = 0; k < p.gathers.size(); ++k)
      s += "        const " + std::string(device_type_name(p.gathers[k].dtype)) + " g" + num(k) + " = G" + num(k) +
           "[u][j];\n";
    s += row_body("      ", "c") + "    }\n  }\n";
    return s + finish();
  }
  s += "  for (long long c = blockIdx.x * 256LL + threadIdx.x; c < p.nout; c += gridDim.x * 256LL) {\n"
       "    long long in_off, out_off;\n    kept_offsets(p, c, in_off, out_off);\n"
       "    const long long i0 = (p.in + in_off - origin) / static_cast<long long>(sizeof(" +
       In + "));\n    const long long o = out_off / static_cast<long long>(sizeof(" + Out + "));\n";
  if (rows)
    s += row_offsets("    ", "static_cast<I>(i0) / static_cast<I>(nred)");
  else if (along && !p.gathers.empty())
    s += "    long long go[" + num(p.gathers.size()) + "];\n    offsets(gl, static_cast<I>(i0), go);\n";
  s += "    " + In + " v[nred];\n#pragma unroll\n    for (long long j = 0; j < nred; ++j) {\n";
  // Position i: for memory slots, and for views where the row does not lie along the innermost axis.
  if (!p.memory.empty() || (!along && !p.gathers.empty()))
    s += "      const long long i = i0 + j * (p.red_stride / static_cast<long long>(sizeof(" + In + ")));\n";
  if (along) {
    if (!p.gathers.empty()) s += "     " + gather_reads(p, [](std::size_t k) { return "go[" + num(k) + "] + j * gs" + num(k); }) + "\n";
  } else {
    s += "      " + gather_loads(p, "static_cast<I>(i)", "gl") + "\n";
  }
  s += row_body("    ", "o") + "  }\n";
  return without_unused_complex_math(s + finish());
}

// A chain feeding its reduction: room for the ReduceParams among the parameters; p.vec is
// the reduction's vector width (16 bytes of its input) when every loaded slot is aligned
// for vectors of that many elements (and the input's position for 16 bytes), else 1.
Plan make_feed_plan(const Chain& chain, bool fp_ready) {
  Plan p = make_plan(chain, fp_ready);
  if (param_bytes(p) + sizeof(ReduceParams) + 8 > kMaxParamBytes) p.fusable = false;
  p.vec = 1;
  if (!chain.reduction) return p;
  const std::size_t isz = static_cast<std::size_t>(itemsize(chain.reduction->in.dtype));
  if (isz >= 16 || 16 % isz != 0 || !aligned(chain.reduction->in.data, 16)) return p;
  const std::size_t v = 16 / isz;
  if (std::all_of(p.memory.begin(), p.memory.end(), [&](const MemorySlot& m) {
        return !m.loaded || aligned(m.data, std::min<std::size_t>(16, static_cast<std::size_t>(itemsize(m.dtype)) * v));
      }))
    p.vec = static_cast<int>(v);
  return p;
}

// The reduction's input as the chain leaves it: the last step's result in its buffer, of
// the reduction's input dtype; none when the chain cannot feed the reduction.
std::optional<Reduced> reduced_of(const Chain& chain, const Plan& p) {
  if (!p.fusable || !chain.reduction) return std::nullopt;
  std::optional<Reduced> reduced;
  for (std::size_t i = 0; i < chain.steps.size(); ++i)
    if (chain.steps[i].out.data == chain.reduction->in.data) reduced = Reduced{p.out[i], chain.steps[i].out.dtype};
  if (reduced && reduced->dtype != chain.reduction->in.dtype) reduced.reset();
  return reduced;
}

// Compiled chain kernels by structure and device (null: NVRTC refused it, and the steps'
// own kernels run, reporting whatever is wrong with them), and the background compiler.
struct Kernels {
  std::mutex mutex;
  std::condition_variable wake;
  std::unordered_map<std::string, CUfunction> memo;
  struct Job {
    int device;
    std::string key, source;
    const char* entry;
  };
  std::deque<Job> queue;
  std::unordered_set<std::string> queued;  // keys waiting or compiling
  bool worker_started = false;
  bool compiling = false;  // the worker is inside NVRTC or the driver
  bool stopping = false;   // the process is exiting: compile nothing more
  std::condition_variable idle;
};

Kernels& kernels() {
  static auto* k = new Kernels;  // never destroyed: the worker may still use it at exit
  return *k;
}

CUfunction compile_chain(int device, const std::string& source, const char* entry) {
  try {
    return get_kernel(device, user_kernel_key(kFamilyFusedChain, hash_source(source)), [&] { return source; }, entry);
  } catch (const CompileError&) {
    return nullptr;
  }
}

void remember(Kernels& k, std::string key, CUfunction fn) {
  if (k.memo.size() >= kMaxMemo) k.memo.clear();
  k.memo.insert_or_assign(std::move(key), fn);
}

void stop_worker();

// One thread compiles new chain kernels in order; a failure (NVRTC's, or a driver going
// away at exit) leaves the chain to run step by step.
void compile_worker() {
  Kernels& k = kernels();
  int exit_handlers = 1;  // start_worker's
  for (;;) {
    Kernels::Job job;
    {
      std::unique_lock lock(k.mutex);
      k.wake.wait(lock, [&] { return !k.queue.empty() || k.stopping; });
      if (k.stopping) return;
      job = std::move(k.queue.front());
      k.queue.pop_front();
      k.compiling = true;
      // Exit runs handlers newest first, and NVRTC registers the destructors of the state it
      // builds lazily while it compiles: registering stop_worker again before each compile
      // (the first few hundred; by then NVRTC has built what it builds) makes exit wait for
      // this compile before it tears down what earlier compiles built. Without it, a process
      // that exited during a compile crashed or hung inside nvrtcCompileProgram (ctest with
      // fusion on, 2026-12-04).
      if (exit_handlers < 256 && std::atexit(stop_worker) == 0) ++exit_handlers;
    }
    CUfunction fn = nullptr;
    try {
      fn = compile_chain(job.device, job.source, job.entry);
    } catch (...) {
      fn = nullptr;
    }
    std::lock_guard lock(k.mutex);
    k.compiling = false;
    k.idle.notify_all();
    k.queued.erase(job.key);
    remember(k, std::move(job.key), fn);
  }
}

// At exit, before NVRTC's and the driver's own teardown (registered earlier, so run
// later): a compile in progress finishes and nothing new starts.
void stop_worker() {
  Kernels& k = kernels();
  std::unique_lock lock(k.mutex);
  k.stopping = true;
  k.queue.clear();
  k.wake.notify_all();
  k.idle.wait(lock, [&] { return !k.compiling; });
}

// Starts the worker (under k.mutex). NVRTC is loaded and compiles an empty kernel here
// first, so the teardown of what its first compile builds comes after stop_worker's at
// exit; false when it cannot (chains then run op by op).
bool start_worker(Kernels& k, int device) {
  if (k.worker_started) return true;
  try {
    compile_cubin("extern \"C\" __global__ void copper_warm_up() {}", device_info(device).arch);
  } catch (const std::exception&) {
    return false;
  }
  std::atexit(stop_worker);
  std::thread(compile_worker).detach();
  k.worker_started = true;
  return true;
}

// A new chain structure compiles before its chain runs, as a new eager kernel does; with
// COPPER_FUSION_COMPILE=background it compiles on one thread while its chains run step by
// step. Sync is the default: on an H200 a fresh process's first fused formula took 62 ms
// compiled first against 207 ms in the background (2026-12-04), and a process that exits
// during a background compile can crash inside NVRTC, whose lazily built state is torn
// down under the compile (ctest with fusion on: 3 of 323 test processes, after the
// ordering in start_worker and compile_worker; 15 before).
bool compile_in_background() {
  const char* v = std::getenv("COPPER_FUSION_COMPILE");
  return v && std::string_view(v) == "background";
}

// The compiled kernel (`entry`) of a structure (`key`, device included) on `device`, or
// null: not compiled yet (it is being compiled in the background) or refused by NVRTC.
template <class MakeSource>
CUfunction structure_kernel(int device, std::string key, MakeSource make_source, const char* entry) {
  Kernels& k = kernels();
  {
    std::lock_guard lock(k.mutex);
    if (auto it = k.memo.find(key); it != k.memo.end()) return it->second;
    if (k.queued.contains(key)) return nullptr;
  }
  std::string source = make_source();
  if (!compile_in_background() || kernel_on_disk(device, source, entry)) {
    const CUfunction fn = compile_chain(device, source, entry);  // a cached cubin loads in about a millisecond
    std::lock_guard lock(k.mutex);
    remember(k, std::move(key), fn);
    return fn;
  }
  std::lock_guard lock(k.mutex);
  if (k.stopping || !start_worker(k, device) || !k.queued.insert(key).second) return nullptr;
  k.queue.push_back(Kernels::Job{device, std::move(key), std::move(source), entry});
  k.wake.notify_one();
  return nullptr;
}

CUfunction fused_kernel(int device, const Chain& chain, const Plan& p) {
  std::string key = structure_of(chain, p);
  key.push_back(static_cast<char>(device));
  return structure_kernel(device, std::move(key), [&] { return make_source(chain, p); }, "copper_chain");
}

// The chain's memory and broadcast pointers and values as kernel arguments, then errstate's
// slots and masks (chain_kernel_params' order), appended to `args`; `storage` holds what
// they point at and must outlive the launch.
struct ChainArgs {
  std::vector<void*> pointers;
  alignas(8) unsigned char layout[sizeof(StridedLayoutParam<kMaxGathers>)];  // StridedLayoutParam<gathers>
  FpErrorSlots slots{};
  std::vector<unsigned> masks;
};

// The gathered views' StridedLayout<G> over the chain's shape, as its bytes.
template <int G> void put_layout(const CollapsedLayout& l, unsigned char* to) {
  const StridedLayoutParam<G> param = strided_param<G>(l);
  std::memcpy(to, &param, sizeof(param));
}
// `l` as the StridedLayout<gathers> of that many operands.
void put_gather_layout(const CollapsedLayout& l, std::size_t gathers, unsigned char* to) {
  switch (gathers) {
    case 1: put_layout<1>(l, to); break;
    case 2: put_layout<2>(l, to); break;
    case 3: put_layout<3>(l, to); break;
    default: put_layout<4>(l, to); break;
  }
  static_assert(kMaxGathers == 4, "one case per gather count");
}
void gather_layout(const Chain& chain, const Plan& p, unsigned char* to) {
  std::vector<const Strides*> strides;
  for (const GatherSlot& g : p.gathers) strides.push_back(&chain.views[static_cast<std::size_t>(g.view)]);
  put_gather_layout(collapse(chain.shape, strides), p.gathers.size(), to);
}

void append_chain_args(int device, const Chain& chain, const Plan& p, ChainArgs& storage, std::vector<void*>& args) {
  storage.pointers.reserve(p.memory.size() + p.broadcasts.size() + p.gathers.size());
  for (const MemorySlot& m : p.memory) storage.pointers.push_back(m.data);
  for (const ChainOperand* b : p.broadcasts) storage.pointers.push_back(b->data);
  for (const GatherSlot& g : p.gathers) storage.pointers.push_back(const_cast<void*>(g.data));
  for (void*& ptr : storage.pointers) args.push_back(&ptr);
  for (const unsigned char* v : p.values) args.push_back(const_cast<unsigned char*>(v));
  if (!p.gathers.empty()) {
    gather_layout(chain, p, storage.layout);
    args.push_back(storage.layout);
  }
  if (p.any_checked) {
    storage.slots = fp_error_slots(device);
    args.push_back(&storage.slots.device_word);
    args.push_back(&storage.slots.host);
    storage.masks.reserve(chain.steps.size());
    for (std::size_t i = 0; i < chain.steps.size(); ++i)
      if (p.checked[i]) storage.masks.push_back(chain.steps[i].fp_mask);
    for (unsigned& m : storage.masks) args.push_back(&m);
  }
}

// The chain as one eager kernel per step, each reading and writing memory: scratch
// buffers get memory first (those results got none at their call).
void run_steps(CudaBackend& be, Chain& chain) {
  keep_all_in_memory(chain);
  const Shape& shape = chain.shape;
  const Strides zeros(shape.size(), 0);
  for (const ChainStep& s : chain.steps) {
    std::array<ArrayView, 3> in;
    for (int k = 0; k < s.nin; ++k) {
      const ChainOperand& o = s.in[k];
      const Strides strides = (o.value || o.broadcast) ? zeros
                              : o.view >= 0        ? chain.views[static_cast<std::size_t>(o.view)]
                                                   : c_strides(shape, itemsize(o.dtype));
      in[k] = ArrayView{o.value ? const_cast<unsigned char*>(s.values[k]) : o.data, o.dtype, shape, strides, o.value};
    }
    const ArrayView out{s.out.data, s.out.dtype, shape, c_strides(shape, itemsize(s.out.dtype))};
    switch (s.kind) {
      case StepKind::cast: be.copy(in[0], out); break;
      case StepKind::where: be.where(in[0], in[1], in[2], out); break;
      case StepKind::ufunc:
        run_ufunc(be.index(), s.op, s.loop, std::span<const ArrayView>(in.data(), static_cast<std::size_t>(s.nin)),
                  std::span<const ArrayView>(&out, 1), s.fp_mask);
        break;
    }
  }
}

// Makes the chain's stream (its context) current for the run. The stream that was current
// (the reader's, when a read on another stream runs the chain) then waits for the chain, so
// what it does next sees the chain's writes.
class StreamScope {
 public:
  StreamScope(int device, const std::shared_ptr<void>& context) : device_(device) {
    if (!context) return;
    auto wanted = std::static_pointer_cast<copper::cuda::StreamState>(context);
    auto now = current_stream_shared(device);
    if (now == wanted) return;
    previous_ = std::move(now);
    chain_stream_ = wanted->handle;
    set_current_stream_shared(std::move(wanted));
  }
  ~StreamScope() {
    if (!previous_) return;
    const Driver& d = driver();
    CUevent done = nullptr;
    if (!capture_active(device_) && d.cuEventCreate(&done, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS) {
      if (d.cuEventRecord(done, chain_stream_) == CUDA_SUCCESS) d.cuStreamWaitEvent(previous_->handle, done, 0);
      d.cuEventDestroy(done);  // released once the wait is done
    }
    set_current_stream_shared(std::move(previous_));
  }
  StreamScope(const StreamScope&) = delete;
  StreamScope& operator=(const StreamScope&) = delete;

 private:
  int device_;
  CUstream chain_stream_ = nullptr;
  std::shared_ptr<copper::cuda::StreamState> previous_;
};

}  // namespace

std::string fused_reduction_source(const Chain& chain, ReduceShape shape, ReduceMode mode, bool fp_ready) {
  const Plan p = make_feed_plan(chain, fp_ready);
  const std::optional<Reduced> reduced = reduced_of(chain, p);
  if (!reduced) return std::string();
  if (shape == ReduceShape::rows_serial) {
    const std::optional<Tail> tail = serial_tail(chain, p, fp_ready);
    const Tail* t = tail ? &*tail : nullptr;
    return make_serial_feed_source(chain, p, *reduced, chain.reduction->op, chain.reduction->out.dtype, t,
                                   serial_access(chain, p, serial_rows(chain, p, t)));
  }
  return make_feed_source(chain, p, *reduced, chain.reduction->op, chain.reduction->out.dtype, shape, mode);
}

std::string fused_chain_source(const Chain& chain, bool fp_ready) {
  const Plan p = make_plan(chain, fp_ready);
  return p.fusable ? make_source(chain, p) : std::string();
}

bool CudaBackend::can_chain(const ChainStep& step) const {
  // Not while a graph is captured: the chain might run after the capture ends.
  return (step.kind != StepKind::ufunc || ops::info(step.op).nout == 1) && !capture_active(index_);
}

std::shared_ptr<void> CudaBackend::chain_context() const { return current_stream_shared(index_); }

std::shared_ptr<Buffer> CudaBackend::allocate_for_chain(const std::shared_ptr<void>& context, std::size_t nbytes) {
  StreamScope stream(index_, context);  // the chain's stream current for the allocation
  return allocate(nbytes);
}

namespace {

// The chain as one elementwise kernel (or its steps one by one).
void run_elementwise(CudaBackend& be, Chain& chain, bool fp_ready) {
  const int device = be.index();
  const Plan p = make_plan(chain, fp_ready);
  const CUfunction fn = p.fusable ? fused_kernel(device, chain, p) : nullptr;
  if (!fn) {
    run_steps(be, chain);
    return;
  }
  long long n = chain.size;
  std::vector<void*> args{&n};
  ChainArgs storage;
  append_chain_args(device, chain, p, storage, args);
  // One thread per vector and a grid covering them once (at least a wave), as the eager
  // contiguous kernels.
  const std::int64_t work = (chain.size + p.vec - 1) / p.vec;
  const unsigned wave = grid_for(device, work, kBlock, resident_blocks_per_sm(fn, kBlock));
  const unsigned grid = static_cast<unsigned>(std::clamp<std::int64_t>((work + kBlock - 1) / kBlock, wave, 1 << 30));
  launch(device, fn, grid, kBlock, args.data(), "fused elementwise chain");
}

// The chain's reduction with the steps computing its input (make_feed_source); false, having
// run nothing, when that kernel is not ready or the chain does not fit one.
// `after_done`: the kernel also ran the steps after the reduction (rows_serial with a tail).
bool run_fed_reduction(int device, const Chain& chain, bool fp_ready, bool& after_done) {
  const ChainReduction& r = *chain.reduction;
  const Plan p = make_feed_plan(chain, fp_ready);
  const std::optional<Reduced> reduced = reduced_of(chain, p);
  if (!reduced) return false;
  const std::optional<Tail> tail = serial_tail(chain, p, fp_ready);
  const std::optional<CollapsedLayout> rows = serial_rows(chain, p, tail ? &*tail : nullptr);
  const SerialAccess access = serial_access(chain, p, rows);
  const std::string structure = structure_of(chain, p);
  const bool along = rows_along_inner_axis(chain);
  bool serial = false;
  ReduceFeed feed;
  feed.serial_rows = true;
  feed.kernel = [&](ReduceShape shape, ReduceMode mode) {
    serial = shape == ReduceShape::rows_serial;
    std::string key = structure;
    for (unsigned v : {static_cast<unsigned>(reduced->ref.from), static_cast<unsigned>(reduced->ref.index),
                       static_cast<unsigned>(r.op), static_cast<unsigned>(r.out.dtype), static_cast<unsigned>(shape),
                       static_cast<unsigned>(mode), static_cast<unsigned>(device)})
      key.push_back(static_cast<char>(v));
    key += "reduce";
    if (serial) {
      key.push_back(static_cast<char>(along));
      key.push_back(static_cast<char>(serial_row_length(chain)));  // at most 32
      key.push_back(static_cast<char>(access.row_ndim + 1));       // 0 to kMaxDims + 1
      key.push_back(static_cast<char>(access.direct | access.off32 << 1 | access.vec << 2));  // vec: 4 bits
      if (tail) key += "after" + structure_of(tail->chain, tail->plan);
    }
    return structure_kernel(
        device, std::move(key),
        [&] {
          return serial ? make_serial_feed_source(chain, p, *reduced, r.op, r.out.dtype, tail ? &*tail : nullptr,
                                                  access)
                        : make_feed_source(chain, p, *reduced, r.op, r.out.dtype, shape, mode);
        },
        kReduceMainEntry);
  };
  // Arguments past those a kernel declares are not read: the serial kernel's extra ones
  // (each view's innermost stride, the row layout, the tail's) go last.
  const void* origin = r.in.data;
  feed.args.push_back(&origin);
  ChainArgs storage, tail_storage;
  append_chain_args(device, chain, p, storage, feed.args);
  std::vector<long long> inner_strides;
  inner_strides.reserve(p.gathers.size());
  for (const GatherSlot& g : p.gathers) inner_strides.push_back(chain.views[static_cast<std::size_t>(g.view)].back());
  for (long long& st : inner_strides) feed.args.push_back(&st);
  alignas(8) unsigned char row_param[sizeof(StridedLayoutParam<kMaxGathers>)];
  if (rows) {
    put_gather_layout(*rows, p.gathers.size(), row_param);
    feed.args.push_back(row_param);
  }
  if (tail) append_chain_args(device, tail->chain, tail->plan, tail_storage, feed.args);
  const bool ran = launch_reduce(device, r.op, r.in, r.nreduce, r.out, &feed);
  after_done = ran && serial && tail;
  return ran;
}

}  // namespace

void CudaBackend::run_chain(Chain& chain) {
  if (chain.steps.empty() || chain.size == 0) return;
  make_current(index_);
  StreamScope stream(index_, chain.context);
  auto watches = [](const ChainStep& s) { return s.fp_mask != 0; };
  const bool watched = std::any_of(chain.steps.begin(), chain.steps.end(), watches) ||
                       std::any_of(chain.after.begin(), chain.after.end(), watches);
  const bool fp_ready = watched && fp_error_slots_ready(index_);
  if (!chain.reduction) {
    run_elementwise(*this, chain, fp_ready);
    return;
  }
  bool after_done = false;
  if (!run_fed_reduction(index_, chain, fp_ready, after_done)) {
    // Not fused (yet): the reduction's input goes through memory.
    keep_in_memory(chain, chain.reduction->in.data);
    run_elementwise(*this, chain, fp_ready);
    const ChainReduction& r = *chain.reduction;
    reduce(r.op, r.in, r.nreduce, r.out);
  }
  if (!after_done) run_after_steps(*this, chain);
}

}  // namespace copper::backend::cuda
