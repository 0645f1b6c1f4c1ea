// What Backend::fft is asked to do: a batch of complex-to-complex, real-to-complex or
// complex-to-real transforms over the trailing axes of strided views. The front end
// (src/api/fft_*.cpp) has padded, cropped, cast and moved the axes already.
#pragma once
#include <cstdint>

namespace copper::backend {

struct ArrayView;
class Backend;

enum class FftKind : std::uint8_t { c2c, r2c, c2r };

struct FftJob {
  FftKind kind = FftKind::c2c;
  bool forward = true;  // c2c direction: exp(-2 pi i jk/n) when true; r2c is forward, c2r inverse
  int rank = 1;         // the last `rank` axes (1 to 3) are transformed, the leading ones are the batch
  double scale = 1.0;   // the result is multiplied by it (NumPy's norm factor)
  // The backend may overwrite `in` (a complex-to-real transform does: the front end sets
  // this when `in` is a temporary of its own, so no protective copy is needed).
  bool input_is_scratch = false;
};

// Multiplies every element of a float or complex view by `scale` (real and imaginary
// parts each, so infinities stay put) through the backend's elementwise multiply.
void scale_view(Backend& backend, const ArrayView& view, double scale);

}  // namespace copper::backend
