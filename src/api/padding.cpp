// numpy.pad: the result is allocated once with the input in its centre, then every axis's
// pad areas are written through slicing views of it, axis by axis (the region of interest
// spans the already padded earlier axes and the original extent of the later ones), the
// way NumPy fills them, so corners and the iterated reflect/wrap chunks come out the same.
#include <algorithm>
#include <string>

#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/padding.hpp"
#include "copper/reductions.hpp"
#include "copper/statistics.hpp"
#include "copper/ufuncs.hpp"

namespace copper {
namespace {

template <class T>
std::pair<T, T> pair_for(const AxisPairs<T>& pairs, int axis, const char* what) {
  if (pairs.size() == 1) return pairs[0];
  if (static_cast<int>(pairs.size()) <= axis)
    throw ValueError(std::string("pad: ") + what + " needs one pair per axis or a single pair");
  return pairs[static_cast<std::size_t>(axis)];
}

// roi[..., start:stop:step, ...] on `axis`.
ndarray at_axis(const ndarray& a, int axis, std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                std::optional<std::int64_t> step = std::nullopt) {
  Index idx(static_cast<std::size_t>(axis), Slice());
  idx.push_back(Slice(start, stop, step));
  return a[idx];
}

void set_pad_area(const ndarray& roi, int axis, std::pair<std::int64_t, std::int64_t> w, const operand& left,
                  const operand& right) {
  at_axis(roi, axis, std::nullopt, w.first).assign(left);
  at_axis(roi, axis, roi.shape()[axis] - w.second, std::nullopt).assign(right);
}

std::pair<ndarray, ndarray> edges(const ndarray& roi, int axis, std::pair<std::int64_t, std::int64_t> w) {
  const std::int64_t right = roi.shape()[axis] - w.second;
  return {at_axis(roi, axis, w.first, w.first + 1), at_axis(roi, axis, right - 1, right)};
}

ndarray linear_ramp(const Scalar& end, const ndarray& edge, std::int64_t width, int axis, DType dtype) {
  return linspace(operand(end), squeeze(edge, std::vector<int>{axis}), width, false, dtype, axis, edge.device());
}

std::pair<ndarray, ndarray> stats(const ndarray& roi, int axis, std::pair<std::int64_t, std::int64_t> w,
                                  std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>> length,
                                  const std::string& mode) {
  const std::int64_t left_index = w.first, right_index = roi.shape()[axis] - w.second;
  const std::int64_t max_length = right_index - left_index;
  std::int64_t left_length = length.first.value_or(max_length), right_length = length.second.value_or(max_length);
  if (left_length > max_length) left_length = max_length;
  if (right_length > max_length) right_length = max_length;
  if ((left_length == 0 || right_length == 0) && (mode == "maximum" || mode == "minimum"))
    throw ValueError("stat_length of 0 yields no value for padding");
  auto stat = [&](const ndarray& chunk) {
    ndarray r = mode == "maximum"   ? amax(chunk, axis, {.keepdims = true})
                : mode == "minimum" ? amin(chunk, axis, {.keepdims = true})
                : mode == "mean"    ? mean(chunk, axis, {.keepdims = true})
                                    : median(chunk, axis, std::nullopt, false, true);
    return is_integer(roi.dtype()) ? around(r) : r;  // NumPy rounds half to even before the cast
  };
  const ndarray left = stat(at_axis(roi, axis, left_index, left_index + left_length));
  if (left_length == right_length && right_length == max_length) return {left, left};
  return {left, stat(at_axis(roi, axis, right_index - right_length, right_index))};
}

// One round of reflection (include_edge: symmetric); returns the widths still to fill.
std::pair<std::int64_t, std::int64_t> reflect_both(const ndarray& roi, int axis, std::pair<std::int64_t, std::int64_t> w,
                                                   bool odd, std::int64_t period, bool include_edge) {
  auto [left_pad, right_pad] = w;
  std::int64_t old_length = roi.shape()[axis] - right_pad - left_pad, edge_offset;
  if (include_edge) {
    old_length = old_length / period * period;
    edge_offset = 1;
  } else {
    old_length = (old_length - 1) / (period - 1) * (period - 1) + 1;
    edge_offset = 0;
    old_length -= 1;
  }
  const std::int64_t n = roi.shape()[axis];
  if (left_pad > 0) {
    const std::int64_t chunk_length = std::min(old_length, left_pad);
    const std::int64_t stop = left_pad - edge_offset, start = stop + chunk_length;
    // start:stop:-1 where stop may be -1 (NumPy's slice reaching the first element).
    ndarray chunk = at_axis(roi, axis, start, stop < 0 ? std::nullopt : std::optional<std::int64_t>(stop), -1);
    if (odd) chunk = subtract(multiply(2, at_axis(roi, axis, left_pad, left_pad + 1)), chunk);
    at_axis(roi, axis, left_pad - chunk_length, left_pad).assign(chunk);
    left_pad -= chunk_length;
  }
  if (right_pad > 0) {
    const std::int64_t chunk_length = std::min(old_length, right_pad);
    const std::int64_t start = n - right_pad + edge_offset - 2, stop = start - chunk_length;
    ndarray chunk = at_axis(roi, axis, start, stop < 0 ? std::nullopt : std::optional<std::int64_t>(stop), -1);
    if (odd) chunk = subtract(multiply(2, at_axis(roi, axis, n - right_pad - 1, n - right_pad)), chunk);
    const std::int64_t at = n - right_pad;
    at_axis(roi, axis, at, at + chunk_length).assign(chunk);
    right_pad -= chunk_length;
  }
  return {left_pad, right_pad};
}

std::pair<std::int64_t, std::int64_t> wrap_both(const ndarray& roi, int axis, std::pair<std::int64_t, std::int64_t> w,
                                                std::int64_t period) {
  auto [left_pad, right_pad] = w;
  const std::int64_t n = roi.shape()[axis];
  const std::int64_t period_now = n - right_pad - left_pad;
  const std::int64_t p = period_now / period * period;  // whole periods only
  std::int64_t new_left = 0, new_right = 0;
  if (left_pad > 0) {
    const std::int64_t end = left_pad + p, start = end - std::min(p, left_pad);
    const ndarray chunk = at_axis(roi, axis, start, end);
    if (left_pad > p) {
      at_axis(roi, axis, left_pad - p, left_pad).assign(chunk);
      new_left = left_pad - p;
    } else {
      at_axis(roi, axis, std::nullopt, left_pad).assign(chunk);
    }
  }
  if (right_pad > 0) {
    const std::int64_t start = n - right_pad - p, end = start + std::min(p, right_pad);
    const ndarray chunk = at_axis(roi, axis, start, end);
    if (right_pad > p) {
      at_axis(roi, axis, n - right_pad, n - right_pad + p).assign(chunk);
      new_right = right_pad - p;
    } else {
      at_axis(roi, axis, n - right_pad, std::nullopt).assign(chunk);
    }
  }
  return {new_left, new_right};
}

}  // namespace

ndarray pad(const ndarray& array, const AxisPairs<std::int64_t>& pad_width, const std::string& mode,
            const PadOptions& options) {
  static const char* modes[] = {"constant", "edge",    "linear_ramp", "maximum", "mean", "median",
                                "minimum",  "reflect", "symmetric",   "wrap",    "empty"};
  if (std::find(std::begin(modes), std::end(modes), mode) == std::end(modes))
    throw ValueError("mode '" + mode + "' is not supported");
  if (options.reflect_type != "even" && options.reflect_type != "odd")
    throw ValueError("reflect_type must be 'even' or 'odd'");
  const int nd = array.ndim();
  if (pad_width.size() != 1 && static_cast<int>(pad_width.size()) != nd)
    throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: (" +
                     std::to_string(pad_width.size()) + ",2)  and requested shape (" + std::to_string(nd) + ",2)");
  std::vector<std::pair<std::int64_t, std::int64_t>> widths;
  Shape shape = array.shape();
  Index centre;
  for (int ax = 0; ax < nd; ++ax) {
    const auto w = pair_for(pad_width, ax, "pad_width");
    if (w.first < 0 || w.second < 0) throw ValueError("index can't contain negative values");
    widths.push_back(w);
    shape[ax] += w.first + w.second;
    centre.push_back(Slice(w.first, w.first + array.shape()[ax]));
  }
  const Order order = array.is_f_contiguous() && !array.is_c_contiguous() ? Order::F : Order::C;
  ndarray padded = empty(shape, array.dtype(), order, array.device());
  padded.assign(centre, array);
  if (mode == "empty") return padded;
  if (mode != "constant" && array.size() == 0) {
    for (int ax = 0; ax < nd; ++ax)
      if (array.shape()[ax] == 0 && (widths[ax].first || widths[ax].second))
        throw ValueError("can't extend empty axis " + std::to_string(ax) +
                         " using modes other than 'constant' or 'empty'");
    return padded;
  }
  for (int ax = 0; ax < nd; ++ax) {
    // The region of interest: earlier axes in full, later ones at their original extent.
    Index roi_index(static_cast<std::size_t>(ax + 1), Slice());
    roi_index.insert(roi_index.end(), centre.begin() + ax + 1, centre.end());
    const ndarray roi = padded[roi_index];
    auto w = widths[ax];
    if (mode == "constant") {
      const auto v = pair_for(options.constant_values, ax, "constant_values");
      set_pad_area(roi, ax, w, v.first, v.second);
    } else if (mode == "edge") {
      const auto e = edges(roi, ax, w);
      set_pad_area(roi, ax, w, e.first, e.second);
    } else if (mode == "linear_ramp") {
      const auto v = pair_for(options.end_values, ax, "end_values");
      const auto e = edges(roi, ax, w);
      const ndarray left = linear_ramp(v.first, e.first, w.first, ax, roi.dtype());
      const ndarray right = at_axis(linear_ramp(v.second, e.second, w.second, ax, roi.dtype()), ax, std::nullopt,
                                    std::nullopt, -1);
      set_pad_area(roi, ax, w, left, right);
    } else if (mode == "maximum" || mode == "minimum" || mode == "mean" || mode == "median") {
      const auto len = pair_for(options.stat_length, ax, "stat_length");
      if ((len.first && *len.first < 0) || (len.second && *len.second < 0))
        throw ValueError("index can't contain negative values");
      const auto s = stats(roi, ax, w, len, mode);
      set_pad_area(roi, ax, w, s.first, s.second);
    } else if (mode == "reflect" || mode == "symmetric") {
      if (array.shape()[ax] == 1 && (w.first > 0 || w.second > 0)) {
        const auto e = edges(roi, ax, w);  // NumPy's legacy: a length-1 axis extends its edge
        set_pad_area(roi, ax, w, e.first, e.second);
        continue;
      }
      while (w.first > 0 || w.second > 0)
        w = reflect_both(roi, ax, w, options.reflect_type == "odd", array.shape()[ax], mode == "symmetric");
    } else {  // wrap
      while (w.first > 0 || w.second > 0) w = wrap_both(roi, ax, w, array.shape()[ax]);
    }
  }
  return padded;
}

}  // namespace copper
