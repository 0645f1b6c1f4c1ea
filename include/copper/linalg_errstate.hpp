// CuPy's cupyx.errstate(linalg=...): what a numerical failure of a LAPACK / cuSOLVER
// routine (a singular matrix in inv or solve, one not positive definite in cholesky, no
// convergence in eigh, eig or svd) does, per thread. `raise` (the default, NumPy's
// behaviour) throws LinAlgError; `ignore` returns the routine's output as it stands (inf
// or NaN entries) and skips reading the status back, so no op waits for a GPU for it.
#pragma once
#include <string_view>

namespace copper::linalg {

enum class ErrorMode : unsigned char { ignore, raise };

ErrorMode get_error_mode();
ErrorMode set_error_mode(ErrorMode mode);  // returns the previous mode
ErrorMode error_mode_from_name(std::string_view name);  // "ignore" | "raise", else ValueError
std::string_view error_mode_name(ErrorMode mode);

// Sets a mode for a scope and restores the previous one on exit.
class errstate {
 public:
  explicit errstate(ErrorMode mode) : previous_(set_error_mode(mode)) {}
  ~errstate() { set_error_mode(previous_); }
  errstate(const errstate&) = delete;
  errstate& operator=(const errstate&) = delete;

 private:
  ErrorMode previous_;
};

}  // namespace copper::linalg
