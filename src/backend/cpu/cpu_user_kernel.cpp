#include "backend/cpu/cpu_user_kernel.h"

#include "backend/cpu/cpu_user_kernel_compile.h"
#include "backend/cpu/thread_pool.h"
#include "backend/user_kernel_layout.h"
#include "backend/user_kernel_memo.h"
#include "backend/user_kernel_source.h"

namespace copper::backend::cpu {
namespace {

using EntryFn = void (*)(void* const*, long long, long long);

using Plan = UserElementwiseLayout;
Plan plan(const UserElementwiseJob& job) { return user_elementwise_layout(job); }

std::string make_source(const UserElementwiseJob& job, const Plan& p) {
  const UserKernelCode& code = *job.code;
  SourceWriter w(code.name + "_generated.cpp");
  w << user_kernel_prologue(false);
  add_preamble(w, code, job.typedefs);
  const std::string nargs = std::to_string(job.args.size()), k = std::to_string(p.arrays.size());
  w << "extern \"C\" void copper_user_entry(void* const* _args, long long _begin, long long _end) {\n";
  w << unpack_user_args(job.args);
  w << "  const long long _n = *reinterpret_cast<const long long*>(_args[" << nargs << "]);\n";
  if (!p.contiguous)
    w << "  const auto& _layout = *reinterpret_cast<const copper::user::HostLayout<" << k << ">*>(_args[" << nargs
      << " + 1]);\n";
  w << "  copper::user::Indexer _ind{_n, 0};\n  (void)_ind;\n";
  if (!code.loop_prep.empty()) {
    w.user_block(code.name + "_loop_prep", code.loop_prep);
    w << ";\n";
  }
  if (p.contiguous) {
    w << "  for (ptrdiff_t i = _begin; i < _end; ++i) {\n";
  } else {
    w << "  copper::user::HostStridedIter<" << k << "> _it;\n  _it.start(_layout, _begin);\n"
      << "  for (ptrdiff_t i = _begin; i < _end; ++i, _it.next()) {\n";
  }
  w << "    _ind.set(i);\n";
  for (std::size_t a = 0; a < p.arrays.size(); ++a) {
    const UserKernelArg& arg = job.args[p.arrays[a]];
    const std::string address = element_address(arg, p.contiguous, "i", "_it.off[" + std::to_string(a) + "]");
    w << "    " << element_load(arg, address) << "\n";
  }
  w.user_block(code.name, code.operation);
  w << ";\n  }\n";
  if (!code.after_loop.empty()) {
    w.user_block(code.name + "_after_loop", code.after_loop);
    w << ";\n";
  }
  w << "}\n";
  return w.str();
}

}  // namespace

std::string unpack_user_args(const std::vector<UserKernelArg>& args) {
  std::string s;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const UserKernelArg& a = args[k];
    const std::string slot = "_args[" + std::to_string(k) + "]";
    const std::string c = a.is_const ? "const " : "";
    switch (a.kind) {
      case UserArgKind::array:
        s += "  " + c + a.ctype + "* _raw_" + a.name + " = *reinterpret_cast<" + c + a.ctype + "* const*>(" + slot + ");\n";
        break;
      case UserArgKind::scalar:
        s += "  " + c + a.ctype + " " + a.name + " = *reinterpret_cast<const " + a.ctype + "*>(" + slot + ");\n";
        break;
      case UserArgKind::raw:
        s += "  const " + raw_type(a) + "& " + a.name + " = *reinterpret_cast<const " + raw_type(a) + "*>(" + slot + ");\n";
        break;
    }
  }
  return s;
}

std::string user_elementwise_source(const UserElementwiseJob& job) { return make_source(job, plan(job)); }

void run_user_elementwise(const UserElementwiseJob& job) {
  const std::int64_t n = shape_size(job.shape);
  if (n == 0) return;
  const Plan p = plan(job);
  // Memo per kernel object and call signature: a repeated call builds no source.
  static UserKernelMemo<EntryFn> memo;
  const std::string key = call_signature(*job.code, job.typedefs, job.args) +
                          (p.contiguous ? "|C" : "|S" + std::to_string(p.arrays.size()));
  const EntryFn fn = memo.get(key, [&] {
    void* lib = user_library(make_source(job, p));
    return reinterpret_cast<EntryFn>(user_symbol(lib, "copper_user_entry"));
  });
  ParamBlock block;
  for (const auto& a : job.args) block.add_arg(a);
  block.add(static_cast<long long>(n));
  if (!p.contiguous) block.add_layout(p.layout, {});
  void* const* params = block.pointers();
  parallel_for(n, 16384, [&](std::int64_t begin, std::int64_t end) { fn(params, begin, end); });
}

}  // namespace copper::backend::cpu
