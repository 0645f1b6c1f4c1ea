// Running numpy.fft's 1-d steps through Backend::fft: steps over distinct axes are
// merged into multi-axis transforms (NumPy pads, crops and transforms one axis at a
// time; padding one axis commutes with transforming another, so all of it happens on
// the input once), the input is cast and padded in one copy, outputs are laid out in
// the input's memory order, and out= is written directly when its dtype allows.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "api/array_factory.h"
#include "api/fft_internal.h"
#include "api/ufunc.h"
#include "copper/errors.hpp"
#include "copper/manipulation.hpp"

namespace copper::api::fft_detail {
namespace {

using backend::FftKind;

// One backend call: transforms over up to 3 distinct axes.
struct Group {
  FftKind kind;
  bool forward;
  std::vector<int> axes;  // a real transform's halved axis last
  std::vector<std::int64_t> n;
};

// A new array of `shape` in the memory order of `ref` (NumPy's 'K'), so a transposed
// input gives a transposed result and both are walked the same way.
ndarray allocate_like(const ndarray& ref, const Shape& shape, DType dtype) {
  const int nd = ref.ndim();
  std::vector<int> order(nd);
  std::iota(order.begin(), order.end(), 0);
  if (!ref.is_c_contiguous())
    std::stable_sort(order.begin(), order.end(),
                     [&](int x, int y) { return std::abs(ref.strides()[x]) > std::abs(ref.strides()[y]); });
  Shape permuted(nd);
  std::vector<int> inverse(nd);
  for (int i = 0; i < nd; ++i) {
    permuted[i] = shape[order[i]];
    inverse[order[i]] = i;
  }
  return allocate(permuted, dtype, ref.device()).transpose(inverse);
}

// Whether x is the whole of its buffer (a temporary of ours, not a cropped view of one).
bool whole_buffer(const ndarray& x) {
  return x.offset() == 0 && static_cast<std::size_t>(x.nbytes()) == x.buffer()->nbytes();
}

ndarray transform(ndarray x, const Group& g, double scale, bool scratch, const ndarray* dest) {
  const bool single = single_precision(x.dtype());
  const DType in_dtype = g.kind == FftKind::r2c ? real_dtype(single) : complex_dtype(single);
  const DType out_dtype = g.kind == FftKind::c2r ? real_dtype(single) : complex_dtype(single);
  const std::size_t k = g.axes.size();
  Shape need = x.shape(), out_shape = x.shape();
  for (std::size_t i = 0; i < k; ++i) {
    const bool halved = i + 1 == k;
    need[g.axes[i]] = halved && g.kind == FftKind::c2r ? g.n[i] / 2 + 1 : g.n[i];
    out_shape[g.axes[i]] = halved && g.kind == FftKind::r2c ? g.n[i] / 2 + 1 : g.n[i];
  }
  // Cropping is a view; padding and casting are one copy into zeros.
  Shape kept = x.shape();
  bool pad = false;
  for (int ax : g.axes) {
    pad = pad || kept[ax] < need[ax];
    kept[ax] = std::min(kept[ax], need[ax]);
  }
  if (kept != x.shape()) x = x.view_as(x.dtype(), kept, x.strides(), x.offset());
  if (pad || x.dtype() != in_dtype) {
    ndarray t = allocate_like(x, need, in_dtype);
    backend::Backend& b = backend_of(t);
    if (pad && t.size()) b.fill(backend::view_of(t), Scalar(0));
    if (x.size()) b.copy(backend::view_of(x), backend::view_of(t.view_as(in_dtype, x.shape(), t.strides(), t.offset())));
    x = t;
    scratch = true;
  }
  ndarray out;
  if (dest) out = *dest;
  else if (g.kind == FftKind::c2c && scratch && whole_buffer(x)) out = x;  // in place
  else out = allocate_like(x, out_shape, out_dtype);
  if (out.size() == 0) return out;

  // Batch axes first, the transformed ones last.
  std::vector<int> perm;
  for (int d = 0; d < x.ndim(); ++d)
    if (std::find(g.axes.begin(), g.axes.end(), d) == g.axes.end()) perm.push_back(d);
  perm.insert(perm.end(), g.axes.begin(), g.axes.end());
  const backend::FftJob job{g.kind, g.forward, static_cast<int>(k), scale, scratch};
  backend_of(x).fft(job, backend::view_of(x.transpose(perm)), backend::view_of(out.transpose(perm)));
  return out;
}

// NumPy's steps as backend calls: distinct axes merge (a real transform's step stays
// first for r2c and last for c2r), repeated axes run one step at a time.
std::vector<Group> group_steps(const std::vector<Step>& steps) {
  std::vector<int> axes;
  for (const Step& s : steps) axes.push_back(s.axis);
  std::sort(axes.begin(), axes.end());
  std::vector<Group> groups;
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) {
    for (const Step& s : steps) groups.push_back({s.kind, s.forward, {s.axis}, {s.n}});
    return groups;
  }
  const bool r2c = steps.front().kind == FftKind::r2c, c2r = steps.back().kind == FftKind::c2r;
  std::vector<Step> complex(steps.begin() + (r2c ? 1 : 0), steps.end() - (c2r ? 1 : 0));
  // The real group takes up to two complex axes with it (the last ones of the call).
  Group real{r2c ? FftKind::r2c : FftKind::c2r, !c2r, {}, {}};
  if (r2c || c2r) {
    const Step& rs = r2c ? steps.front() : steps.back();
    const std::size_t take = std::min<std::size_t>(2, complex.size());
    for (std::size_t i = complex.size() - take; i < complex.size(); ++i) {
      real.axes.push_back(complex[i].axis);
      real.n.push_back(complex[i].n);
    }
    complex.resize(complex.size() - take);
    real.axes.push_back(rs.axis);
    real.n.push_back(rs.n);
  }
  if (r2c) groups.push_back(real);
  for (std::size_t i = 0; i < complex.size(); i += 3) {
    Group g{FftKind::c2c, complex[i].forward, {}, {}};
    for (std::size_t j = i; j < std::min(i + 3, complex.size()); ++j) {
      g.axes.push_back(complex[j].axis);
      g.n.push_back(complex[j].n);
    }
    groups.push_back(g);
  }
  if (c2r) groups.push_back(real);
  return groups;
}

}  // namespace

bool single_precision(DType t) {
  return t == DType::float16 || t == DType::float32 || t == DType::complex64;
}

void check_n(std::int64_t n) {
  if (n < 1) throw ValueError("Invalid number of FFT data points (" + std::to_string(n) + ") specified.");
}

void check_forward_norm(const std::string& norm) {
  if (norm != "backward" && norm != "ortho" && norm != "forward")
    throw ValueError("Invalid norm value " + norm + "; should be \"backward\",\"ortho\" or \"forward\".");
}

std::string swap_direction(const std::string& norm) {
  if (norm == "backward") return "forward";
  if (norm == "forward") return "backward";
  if (norm == "ortho") return norm;
  throw ValueError("Invalid norm value " + norm + "; should be \"backward\", \"ortho\" or \"forward\".");
}

double norm_factor(const std::string& norm, std::int64_t n, DType input) {
  if (norm != "ortho" && norm != "forward") return 1.0;
  if (input != DType::float16) {
    return norm == "ortho" ? 1.0 / std::sqrt(static_cast<double>(n)) : 1.0 / static_cast<double>(n);
  }
  // NumPy computes the factor of float16 input in float16: reciprocal(sqrt(n, float16)).
  auto half = [](double v) { return Scalar::typed(Scalar(v), DType::float16).to_double(); };
  const double m = half(static_cast<double>(n));
  return half(1.0 / (norm == "ortho" ? half(std::sqrt(m)) : m));
}

ndarray run_steps(const ndarray& a, const std::vector<Step>& steps, DType result, const std::optional<ndarray>& out,
                  const char* ufunc, bool input_is_scratch) {
  Shape final_shape = a.shape();
  double scale = 1.0;
  for (const Step& s : steps) {
    final_shape[s.axis] = s.kind == FftKind::r2c ? s.n / 2 + 1 : s.n;
    scale *= s.scale;
  }
  if (out) {
    if (out->shape() != final_shape) throw ValueError("output array has wrong shape.");
    common_device({&a, &*out}, a.device());
    if (!can_cast(result, out->dtype(), Casting::same_kind))
      throw TypeError(std::string("Cannot cast ufunc '") + ufunc + "' output from " + dtype_repr(result) + " to " +
                      dtype_repr(out->dtype()) + " with casting rule 'same_kind'");
  }
  const bool single = single_precision(a.dtype());
  const DType computed = steps.back().kind == FftKind::c2r ? real_dtype(single) : complex_dtype(single);
  const bool direct = out && out->dtype() == computed && result == computed && !overlaps(*out, a);

  const std::vector<Group> groups = group_steps(steps);
  ndarray x = a;
  bool scratch = input_is_scratch;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const bool last = i + 1 == groups.size();
    x = transform(x, groups[i], last ? scale : 1.0, scratch, last && direct ? &*out : nullptr);
    scratch = true;
  }
  if (direct) return *out;
  if (out) {
    copyto(*out, x);
    return *out;
  }
  if (x.dtype() != result) {  // float16 in, float16 out (computed in float32)
    ndarray r = allocate_like(x, x.shape(), result);
    if (r.size()) backend_of(r).copy(backend::view_of(x), backend::view_of(r));
    return r;
  }
  return x;
}

}  // namespace copper::api::fft_detail
