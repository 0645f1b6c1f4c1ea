// CpuBackend::scatter_apply (ufunc.at): NumPy's order, one target at a time, so
// repeated indices accumulate. Where a binary op's loop reads and writes the target's
// own dtype, a typed function per (op, dtype) applies it in place; otherwise (unary ops,
// mixed dtypes) each element goes through the op's elementwise loop with casts around it.
#include <optional>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_elementwise_loops.h"
#include "backend/cpu/cpu_indexing.h"
#include "backend/cpu/thread_pool.h"

namespace copper::backend::cpu {

namespace {

using namespace indexing;

using ApplyFn = void (*)(char* target, const char* value);

template <class Op, class T, int N>
void apply_one(char* target, const char* value) {
  T x;
  std::memcpy(&x, target, sizeof(T));
  if constexpr (N == 1) {
    x = ops::invoke<Op, T>(x);
  } else {
    T y;
    std::memcpy(&y, value, sizeof(T));
    x = ops::invoke<Op, T>(x, y);
  }
  std::memcpy(target, &x, sizeof(T));
}

template <class Op, int N, class T>
constexpr ApplyFn apply_for() {
  if constexpr (ops::has_loop<Op, N, T>) {
    if constexpr (ops::nout_v<Op, N, T> == 1 && ops::is_same_v<ops::stored_result_t<Op, N, T>, T> &&
                  ops::is_same_v<ops::op_input_t<Op, T, N - 1>, T>)
      return &apply_one<Op, T, N>;
    else return nullptr;
  } else {
    return nullptr;
  }
}

struct ApplyTable {
  ApplyFn fn[ops::num_ufuncs][num_dtypes] = {};
};

template <class Op, int N, class... T>
void add_apply(ApplyTable& table, ops::UfuncId id, ops::type_list<T...>) {
  ApplyFn fns[] = {apply_for<Op, N, T>()...};
  for (int d = 0; d < num_dtypes; ++d) table.fn[static_cast<int>(id)][d] = fns[d];
}

const ApplyTable& apply_table() {
  static const ApplyTable table = [] {
    ApplyTable t;
    // Binary ops only (add.at, maximum.at, ...); unary ones take the casting path.
#define COPPER_ADD_APPLY_2(name) add_apply<ops::name, 2>(t, ops::UfuncId::name, ops::all_types{});
    COPPER_BINARY_UFUNCS(COPPER_ADD_APPLY_2)
#undef COPPER_ADD_APPLY_2
    return t;
  }();
  return table;
}

// One element through the op's loop: target cast to `loop`, op, result cast back.
class CastingApply {
 public:
  CastingApply(CpuBackend& be, ops::UfuncId op, DType loop, DType target)
      : be_(be), fn_(elementwise_loop(op, loop)), loop_(loop), out_(*ops::out_dtype(op, loop)), target_(target) {
    if (!fn_) throw NotImplementedError("no CPU loop for ufunc '" + std::string(ops::info(op).name) + "'");
  }
  void operator()(char* target, const char* value, bool binary) {
    be_.copy(ArrayView{target, target_, {}, {}}, ArrayView{in_, loop_, {}, {}});
    ArrayView in[2] = {ArrayView{in_, loop_, {}, {}}, ArrayView{const_cast<char*>(value), loop_, {}, {}}};
    const ArrayView out{res_, out_, {}, {}};
    fn_(std::span<const ArrayView>(in, binary ? 2 : 1), std::span<const ArrayView>(&out, 1));
    be_.copy(ArrayView{res_, out_, {}, {}}, ArrayView{target, target_, {}, {}});
  }

 private:
  CpuBackend& be_;
  LoopFn fn_;
  DType loop_, out_, target_;
  alignas(16) char in_[16];
  alignas(16) char res_[16];
};

}  // namespace

void CpuBackend::scatter_apply(ops::UfuncId op, DType loop, const ArrayView& dst, const IndexArrays& index,
                               const ArrayView* values) {
  const bool binary = values != nullptr;
  // Without values the B + R walk still needs an operand: a zero-strided stand-in.
  ArrayView other;
  if (binary) {
    other = *values;
  } else {
    other.data = nullptr;
    other.dtype = loop;
    other.shape = index.arrays.at(0).shape;
    other.shape.insert(other.shape.end(), dst.shape.begin() + static_cast<std::ptrdiff_t>(index.arrays.size()),
                       dst.shape.end());
    other.strides.assign(other.shape.size(), 0);
  }
  IndexJob j = make_job(dst, index, other);
  if (j.nb == 0 || j.nr == 0) return;
  check_all_indices(j, index, dst);  // before the first write
  ApplyFn typed = dst.dtype == loop ? apply_table().fn[static_cast<int>(op)][static_cast<int>(loop)] : nullptr;
  std::optional<CastingApply> casting;
  if (!typed) casting.emplace(*this, op, loop, dst.dtype);
  char* const dbase = static_cast<char*>(dst.data);
  const char* const vbase = static_cast<const char*>(other.data);
  Odometer odo(j.b_shape, j.odometer_strides, 0);
  std::int64_t off;
  for (std::int64_t b = 0; b < j.nb; ++b, odo.next()) {
    indexed_offset(odo, index, dst, b, off, nullptr);
    char* target = dbase + off;
    const char* value = vbase + odo.offset(0);
    Odometer row(j.r_shape, {&j.indexed_r, &j.other_r}, 0);
    for (std::int64_t r = 0; r < j.nr; ++r, row.next()) {
      if (typed) typed(target + row.offset(0), value + row.offset(1));
      else (*casting)(target + row.offset(0), value + row.offset(1), binary);
    }
  }
}

}  // namespace copper::backend::cpu
