// ReductionKernel on the CPU. The generated library has three entry points:
// copper_reduce_part (map + reduce one row's elements [j0, j1) into a partial),
// copper_reduce_finish (combine a row's partials, post_map into the outputs) and
// copper_partial_size. Rows run in parallel; few long rows are split into chunks of a
// fixed size, so results do not depend on the thread count.
#include <algorithm>
#include <cstddef>
#include <memory>

#include "backend/cpu/cpu_user_kernel.h"
#include "backend/cpu/cpu_user_kernel_compile.h"
#include "backend/cpu/thread_pool.h"
#include "backend/user_kernel_layout.h"
#include "backend/user_kernel_memo.h"
#include "backend/user_kernel_source.h"

namespace copper::backend::cpu {
namespace {

using PartFn = void (*)(void* const*, long long, long long, long long, void*);
using FinishFn = void (*)(void* const*, long long, const void*, long long);
using SizeFn = long long (*)();

struct Entries {
  PartFn part;
  FinishFn finish;
  long long partial_size;
};

using Plan = UserReductionLayout;
Plan plan(const UserReductionJob& job) { return user_reduction_layout(job); }

std::string combine(const std::string& value, bool has_identity) {
  if (has_identity) return "_acc = _copper_reduce(_acc, " + value + ");";
  return "if (_valid) _acc = _copper_reduce(_acc, " + value + "); else { _acc = " + value + "; _valid = 1; }";
}

std::string make_source(const UserReductionJob& job, const Plan& p) {
  const UserKernelCode& code = *job.code;
  const bool has_identity = !code.identity.empty();
  const std::string nargs = std::to_string(job.args.size());
  const std::string kio = std::to_string(p.inputs.size() + p.outputs.size()), ki = std::to_string(p.inputs.size());
  SourceWriter w(code.name + "_generated.cpp");
  w << user_kernel_prologue(false);
  add_preamble(w, code, job.typedefs);
  w << "typedef " << code.reduce_type << " _type_reduce;\n";
  w << "struct _copper_partial { _type_reduce v; int valid; };\n";
  w << "static inline _type_reduce _copper_reduce(const _type_reduce& a, const _type_reduce& b) {\n  return (\n";
  w.user_block(code.name + "_reduce", code.reduce_expr);
  w << "  );\n}\n";
  w << "extern \"C\" long long copper_partial_size() { return sizeof(_copper_partial); }\n";
  auto prologue = [&] {
    w << unpack_user_args(job.args);
    w << "  const long long _nrows = *reinterpret_cast<const long long*>(_args[" << nargs << "]);\n";
    w << "  const long long _nred = *reinterpret_cast<const long long*>(_args[" << nargs << " + 1]);\n";
    w << "  (void)_nrows; (void)_nred;\n";
    if (!p.contiguous) {
      w << "  const auto& _out_layout = *reinterpret_cast<const copper::user::HostLayout<" << kio << ">*>(_args["
        << nargs << " + 2]);\n";
      w << "  const auto& _red_layout = *reinterpret_cast<const copper::user::HostLayout<" << ki << ">*>(_args["
        << nargs << " + 3]);\n";
      w << "  copper::user::HostStridedIter<" << kio << "> _o;\n  _o.start(_out_layout, _row);\n";
      w << "  (void)_red_layout;\n";
    }
    w << "  const copper::user::Indexer _out_ind{_nrows, _row};\n  copper::user::Indexer _in_ind{_nrows * _nred, 0};\n"
      << "  (void)_out_ind; (void)_in_ind;\n";
  };

  // Map and reduce the elements [j0, j1) of one row.
  w << "extern \"C\" void copper_reduce_part(void* const* _args, long long _row, long long _j0, long long _j1, "
       "void* _partial) {\n";
  prologue();
  w << "  _type_reduce _acc = _type_reduce(" << code.identity << ");\n  int _valid = " << (has_identity ? "1" : "0")
    << ";\n";
  if (p.contiguous) {
    w << "  for (long long _j = _j0; _j < _j1; ++_j) {\n";
  } else {
    w << "  copper::user::HostStridedIter<" << ki << "> _r;\n  if (_j0 < _j1) _r.start(_red_layout, _j0);\n"
      << "  for (long long _j = _j0; _j < _j1; ++_j, _r.next()) {\n";
  }
  w << "    _in_ind.set(_row * _nred + _j);\n";
  for (std::size_t a = 0; a < p.inputs.size(); ++a) {
    const UserKernelArg& arg = job.args[p.inputs[a]];
    const std::string as = std::to_string(a);
    const std::string address =
        element_address(arg, p.contiguous, "_row * _nred + _j", "_o.off[" + as + "] + _r.off[" + as + "]");
    w << "    " << element_load(arg, address) << "\n";
  }
  w << "    const _type_reduce _m = static_cast<_type_reduce>(\n";
  w.user_block(code.name + "_map", code.map_expr);
  w << "    );\n    " << combine("_m", has_identity) << "\n  }\n";
  w << "  *static_cast<_copper_partial*>(_partial) = _copper_partial{_acc, _valid};\n}\n";

  // Combine a row's partials and write its outputs.
  w << "extern \"C\" void copper_reduce_finish(void* const* _args, long long _row, const void* _partials, "
       "long long _count) {\n";
  prologue();
  w << "  const _copper_partial* _p = static_cast<const _copper_partial*>(_partials);\n"
       "  _type_reduce _acc = _p[0].v;\n  int _valid = _p[0].valid;\n"
       "  for (long long _s = 1; _s < _count; ++_s) {\n    if (!_p[_s].valid) continue;\n    "
    << combine("_p[_s].v", false) << "\n  }\n";
  for (std::size_t a = 0; a < p.outputs.size(); ++a) {
    const UserKernelArg& arg = job.args[p.outputs[a]];
    const std::string address =
        element_address(arg, p.contiguous, "_row", "_o.off[" + std::to_string(p.inputs.size() + a) + "]");
    w << "  " << element_ref(arg, address) << "\n";
  }
  w << "  {\n    const _type_reduce& a = _acc;\n    (void)a;\n";
  w.user_block(code.name + "_post_map", code.post_map_expr);
  w << "    ;\n  }\n}\n";
  return w.str();
}

// Chunk length and count for rows of n elements: fixed, so results do not depend on the
// thread count; only few long rows are split.
constexpr long long kChunk = 65536;

}  // namespace

std::string user_reduction_source(const UserReductionJob& job) { return make_source(job, plan(job)); }

void run_user_reduction(const UserReductionJob& job) {
  const long long nrows = shape_size(job.kept), nred = shape_size(job.reduced);
  if (nrows == 0) return;
  const Plan p = plan(job);
  static UserKernelMemo<Entries> memo;
  const std::string key = "reduce|" + call_signature(*job.code, job.typedefs, job.args) +
                          (p.contiguous ? "|C" : "|S") + std::to_string(p.inputs.size()) + "," +
                          std::to_string(p.outputs.size());
  const Entries e = memo.get(key, [&] {
    void* lib = user_library(make_source(job, p));
    Entries built{};
    built.part = reinterpret_cast<PartFn>(user_symbol(lib, "copper_reduce_part"));
    built.finish = reinterpret_cast<FinishFn>(user_symbol(lib, "copper_reduce_finish"));
    built.partial_size = reinterpret_cast<SizeFn>(user_symbol(lib, "copper_partial_size"))();
    return built;
  });
  ParamBlock block;
  for (const auto& a : job.args) block.add_arg(a);
  block.add(nrows);
  block.add(nred);
  if (!p.contiguous) {
    block.add_layout(p.out_layout, {});
    block.add_layout(p.red_layout, {});
  }
  void* const* params = block.pointers();
  const std::size_t psize = static_cast<std::size_t>(e.partial_size);
  auto buffer = [](std::size_t bytes) {  // max_align_t-aligned scratch for partials
    return std::make_unique<std::max_align_t[]>(bytes / sizeof(std::max_align_t) + 1);
  };
  const long long chunks = (nrows < 64 && nred >= 2 * kChunk) ? std::min<long long>((nred + kChunk - 1) / kChunk, 4096) : 1;
  if (chunks == 1) {
    const long long grain = std::max<long long>(1, 32768 / std::max<long long>(nred, 1));
    parallel_for(nrows, grain, [&](std::int64_t begin, std::int64_t end) {
      auto partial = buffer(psize);
      for (long long r = begin; r < end; ++r) {
        e.part(params, r, 0, nred, partial.get());
        e.finish(params, r, partial.get(), 1);
      }
    });
    return;
  }
  const long long chunk_len = (nred + chunks - 1) / chunks;
  auto partials = buffer(psize * static_cast<std::size_t>(nrows * chunks));
  char* base = reinterpret_cast<char*>(partials.get());
  parallel_for(nrows * chunks, 1, [&](std::int64_t begin, std::int64_t end) {
    for (long long t = begin; t < end; ++t) {
      const long long r = t / chunks, j0 = (t % chunks) * chunk_len;
      e.part(params, r, j0, std::min(nred, j0 + chunk_len), base + static_cast<std::size_t>(t) * psize);
    }
  });
  for (long long r = 0; r < nrows; ++r) e.finish(params, r, base + static_cast<std::size_t>(r * chunks) * psize, chunks);
}

}  // namespace copper::backend::cpu
