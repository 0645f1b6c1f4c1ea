// Distributions with array-valued parameters: NumPy's broadcasting of parameters with
// `size` (and np.broadcast's error messages), NumPy's parameter checks, then one
// Backend::random_params call on the default device. Checks read the parameters on the
// host (at their own shape, not broadcast).
#include <cmath>

#include "api/array_factory.h"
#include "api/random_internal.h"
#include "copper/manipulation.hpp"

namespace copper::random {

using RKind = ops::philox::Kind;

namespace {

// "(2, 3)", "(3,)", "()" as Python prints a tuple.
std::string tuple_str(const Shape& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

// np.broadcast(*args).shape: dimension by dimension from the outside, naming the first
// argument that conflicts with the one that set the dimension.
Shape numpy_broadcast(const std::vector<Shape>& args) {
  std::size_t nd = 0;
  for (const Shape& s : args) nd = std::max(nd, s.size());
  Shape out(nd, 1);
  for (std::size_t i = 0; i < nd; ++i) {
    std::size_t setter = 0;
    for (std::size_t j = 0; j < args.size(); ++j) {
      const std::int64_t k = static_cast<std::int64_t>(i + args[j].size()) - static_cast<std::int64_t>(nd);
      if (k < 0) continue;
      const std::int64_t d = args[j][static_cast<std::size_t>(k)];
      if (d == 1) continue;
      if (out[i] == 1) {
        out[i] = d;
        setter = j;
      } else if (out[i] != d) {
        throw ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg " +
                         std::to_string(setter) + " with shape " + tuple_str(args[setter]) + " and arg " +
                         std::to_string(j) + " with shape " + tuple_str(args[j]) + ".");
      }
    }
  }
  return out;
}

ndarray as_param_array(const Param& p, DType t) {
  if (!p.is_array()) return full({}, Scalar(p.value()), t, default_device());
  return asarray(p.array(), t, default_device());
}

// `arr`: some parameter of the draw has dimensions (NumPy's array path and messages).
void check(const ParamSpec& spec, const std::vector<double>& values, bool arr) {
  const std::string name = spec.name;
  switch (spec.constraint) {
    case Constraint::none: return;
    case Constraint::non_negative:
      for (double v : values)
        if (!std::isnan(v) && std::signbit(v)) throw ValueError(name + " < 0");
      return;
    case Constraint::positive:
      for (double v : values)
        if (v <= 0) throw ValueError(name + " <= 0");
      return;
    case Constraint::unit_interval:
      for (double v : values)
        if (!(v >= 0 && v <= 1)) throw ValueError(arr ? "p < 0, p > 1 or p contains NaNs" : "p < 0, p > 1 or p is NaN");
      return;
    case Constraint::poisson_lam: {
      constexpr double kMaxLam = 9.223372006484771e18;  // NumPy's: samples stay well inside int64
      for (double v : values)
        if (v < 0 || (!arr && std::isnan(v))) throw ValueError(arr ? "lam < 0 or lam contains NaNs" : "lam < 0 or lam is NaN");
      for (double v : values)
        if (!(v < kMaxLam)) throw ValueError("lam value too large");
      return;
    }
    case Constraint::open_unit:
      for (double v : values)
        if (!(v > 0 && v <= 1)) throw ValueError("p <= 0, p > 1 or p contains NaNs");
      return;
    case Constraint::logseries_p:
      for (double v : values)
        if (!(v >= 0 && v < 1)) throw ValueError(arr ? "p < 0, p >= 1 or p contains NaNs" : "p < 0, p >= 1 or p is NaN");
      return;
    case Constraint::above_one:
      for (double v : values)
        if (!(v > 1)) throw ValueError(arr ? "a <= 1 or a contains NaNs" : "a <= 1 or a is NaN");
      return;
  }
}

Shape shape_of(const Param& p) { return p.is_array() ? p.array().shape() : Shape{}; }

// Element strides (C order, 0 along broadcast dimensions) of shape s broadcast to target.
std::vector<std::int64_t> element_strides(const Shape& s, const Shape& target) {
  std::vector<std::int64_t> out(target.size(), 0);
  std::int64_t step = 1;
  for (std::size_t k = s.size(); k-- > 0;) {
    const std::size_t d = target.size() - s.size() + k;
    out[d] = s[k] == 1 ? 0 : step;
    step *= s[k];
  }
  return out;
}

// Broadcasts the parameter arrays to `shape` and runs the backend's draw.
ndarray run_param_draw(Generator& g, RKind kind, const std::vector<ndarray>& params, const Shape& shape, DType dtype,
                       std::uint64_t max_range, std::uint64_t high_exclusive) {
  const std::int64_t n = shape_size(shape);
  const bool stream = ops::philox::is_stream_kind(kind);
  if (stream && n > 0xffffffffLL) throw ValueError("random: at most 2**32 - 1 values per draw from this distribution");
  std::vector<ndarray> views;
  for (const ndarray& a : params) views.push_back(broadcast_to(a, shape));
  ndarray out = api::allocate(shape, dtype, default_device());
  const std::uint64_t blocks = stream ? 1
                                      : ops::philox::blocks_for(kind, static_cast<int>(itemsize(dtype)), max_range,
                                                                static_cast<std::uint64_t>(n));
  ops::philox::RandomParams p = GeneratorAccess::take(g, blocks);
  p.range = max_range;
  p.low = high_exclusive;
  if (n == 0) return out;
  std::vector<backend::ArrayView> v;
  for (const ndarray& a : views) v.push_back(backend::view_of(a));
  api::backend_of(out).random_params(kind, p, v, backend::view_of(out));
  return out;
}

// The dtype the backend writes for a requested result dtype (the rest is converted after).
DType backend_dtype(RKind kind, DType want) {
  if (!ops::philox::is_stream_kind(kind)) return float64;
  const copper::Kind k = copper::kind(want);
  if (ops::philox::kind_is_discrete(kind)) return k == copper::Kind::int_ || k == copper::Kind::uint_ ? want : int64;
  return want == float32 || want == float64 ? want : float64;
}

}  // namespace

Shape draw_shape(const std::vector<Shape>& params, const OptShape& size) {
  if (!size) return numpy_broadcast(params);
  check_size(*size);
  std::vector<Shape> args{*size};
  args.insert(args.end(), params.begin(), params.end());
  const Shape b = numpy_broadcast(args);
  if (b != *size)
    throw ValueError("Output size " + tuple_str(*size) + " is not compatible with broadcast dimensions of inputs " +
                     tuple_str(b) + ".");
  return b;
}

std::vector<double> host_values(const Param& p) {
  if (!p.is_array()) return {p.value()};
  return p.array().to_vector<double>();
}

bool any_array(const std::vector<ParamSpec>& specs) {
  for (const ParamSpec& s : specs)
    if (!shape_of(s.value).empty()) return true;
  return false;
}

ndarray param_draw(Generator& g, RKind kind, const std::vector<ParamSpec>& specs, const OptShape& size, DType dtype) {
  const bool arrays = any_array(specs);
  std::vector<Shape> shapes;
  std::vector<ndarray> params;
  for (std::size_t k = 0; k < specs.size(); ++k) {
    const ParamSpec& spec = specs[k];
    const bool is_int = ops::philox::param_is_int(kind, static_cast<int>(k));
    if (kind == RKind::binomial && is_int && spec.value.is_array() &&
        !can_cast(spec.value.array().dtype(), int64, Casting::safe))
      throw TypeError("Cannot cast array data from " + dtype_repr(spec.value.array().dtype()) +
                      " to dtype('int64') according to the rule 'safe'");
    check(spec, host_values(spec.value), arrays);
    shapes.push_back(shape_of(spec.value));
  }
  const Shape shape = draw_shape(shapes, size);
  for (std::size_t k = 0; k < specs.size(); ++k)
    params.push_back(as_param_array(specs[k].value, ops::philox::param_is_int(kind, static_cast<int>(k)) ? int64 : float64));
  const DType wide = backend_dtype(kind, dtype);
  ndarray out = run_param_draw(g, kind, params, shape, wide, 0, 0);
  return wide == dtype ? out : out.astype(dtype);
}

ndarray uniform_params(Generator& g, const Param& low, const Param& high, const OptShape& size, bool legacy) {
  const std::vector<double> lo = host_values(low), hi = host_values(high);
  const Shape both = numpy_broadcast({shape_of(low), shape_of(high)});
  const std::vector<std::int64_t> ls = element_strides(shape_of(low), both), hs = element_strides(shape_of(high), both);
  std::vector<double> range(static_cast<std::size_t>(shape_size(both)));
  for (std::size_t i = 0; i < range.size(); ++i) {  // high - low over the broadcast bounds, C order
    std::int64_t rest = static_cast<std::int64_t>(i), li = 0, hj = 0;
    for (std::size_t d = both.size(); d-- > 0;) {
      const std::int64_t k = rest % both[d];
      rest /= both[d];
      li += k * ls[d];
      hj += k * hs[d];
    }
    range[i] = hi[static_cast<std::size_t>(hj)] - lo[static_cast<std::size_t>(li)];
  }
  for (double r : range)
    if (!std::isfinite(r)) throw OverflowError("Range exceeds valid bounds");
  if (!legacy)
    for (double r : range)
      if (std::signbit(r)) throw ValueError("high - low < 0");
  return param_draw(g, RKind::uniform, {{low, "low", Constraint::none}, {high, "high", Constraint::none}}, size,
                    float64);
}

namespace {

// An integer array's values as 128-bit integers (exact for every integer dtype).
std::vector<__int128> wide_values(const ndarray& a) {
  std::vector<__int128> out;
  if (kind(a.dtype()) == copper::Kind::uint_) {
    for (std::uint64_t v : a.to_vector<std::uint64_t>()) out.push_back(v);
  } else {
    for (std::int64_t v : a.to_vector<std::int64_t>()) out.push_back(v);
  }
  return out;
}

ndarray bits_array(const std::vector<__int128>& values, const Shape& shape) {
  std::vector<std::uint64_t> bits(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) bits[i] = static_cast<std::uint64_t>(values[i]);
  return array(bits.data(), shape, uint64, default_device());
}

}  // namespace

ndarray integers_params(Generator& g, const ndarray& low_in, const std::optional<ndarray>& high_in,
                        const OptShape& size, DType dtype, bool endpoint) {
  const copper::Kind k = kind(dtype);
  if (dtype != bool_ && k != copper::Kind::int_ && k != copper::Kind::uint_)
    throw TypeError("Unsupported dtype " + dtype_repr(dtype) + " for integers");
  const bool one_arg = !high_in.has_value();
  std::vector<__int128> lo = one_arg ? std::vector<__int128>{0} : wide_values(low_in);
  std::vector<__int128> hi = wide_values(one_arg ? low_in : *high_in);
  const Shape lo_shape = one_arg ? Shape{} : low_in.shape(), hi_shape = one_arg ? low_in.shape() : high_in->shape();
  if (one_arg)
    for (__int128 h : hi)
      if (endpoint ? h < 0 : h <= 0) throw ValueError(endpoint ? "high < 0" : "high <= 0");
  const auto [lo_bound, hi_bound] = integer_range(dtype);
  const std::string tname(name(dtype));
  for (__int128 v : lo)
    if (v < lo_bound) throw ValueError("low is out of bounds for " + tname);
  for (__int128 v : hi)
    if ((endpoint ? v : v - 1) > hi_bound) throw ValueError("high is out of bounds for " + tname);
  const Shape both = numpy_broadcast({lo_shape, hi_shape});
  const std::vector<std::int64_t> ls = element_strides(lo_shape, both), hs = element_strides(hi_shape, both);
  std::uint64_t max_range = 0;
  for (std::int64_t i = 0, m = shape_size(both); i < m; ++i) {
    std::int64_t rest = i, li = 0, hj = 0;
    for (std::size_t d = both.size(); d-- > 0;) {
      const std::int64_t q = rest % both[d];
      rest /= both[d];
      li += q * ls[d];
      hj += q * hs[d];
    }
    const __int128 l = lo[static_cast<std::size_t>(li)], h = hi[static_cast<std::size_t>(hj)] - (endpoint ? 0 : 1);
    if (l > h) throw ValueError(endpoint ? "low > high" : "low >= high");
    max_range = std::max(max_range, static_cast<std::uint64_t>(h - l));
  }
  const Shape shape = draw_shape({lo_shape, hi_shape}, size);
  return run_param_draw(g, RKind::integers, {bits_array(lo, lo_shape), bits_array(hi, hi_shape)}, shape, dtype,
                        max_range, endpoint ? 0 : 1);
}

}  // namespace copper::random
