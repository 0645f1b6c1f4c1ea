// Matrix and tensor products, diagonals and triangles (NumPy's top-level linear
// algebra; the decompositions of numpy.linalg live elsewhere).
#pragma once
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "copper/ndarray.hpp"

namespace copper {

// a @ b with NumPy's rules: stacks of matrices broadcast over the leading dimensions,
// a 1-d a is a row and a 1-d b a column (the added dimension is dropped again).
// out= takes any array of the result's shape the result can be cast to ('same_kind').
ndarray matmul(const ndarray& a, const ndarray& b, std::optional<ndarray> out = std::nullopt);
// numpy.matmul's other keywords: the loop dtype (inputs cast to it under `casting`), the
// casting rule of inputs and out=, and `axes`: where the core dimensions of a, b and the
// result lie (three entries: 2 axes per matrix, 1 per vector, none for a 0-d result).
struct MatmulOptions {
  std::optional<DType> dtype;
  Casting casting = Casting::same_kind;
  std::optional<std::vector<std::vector<int>>> axes;
  // conj(a) @ b (vecdot, vdot): a backend that can read a conjugated does (the CPU's dot
  // products of complex), others conjugate a copy of a first.
  bool conjugate_a = false;
};
ndarray matmul(const ndarray& a, const ndarray& b, std::optional<ndarray> out, const MatmulOptions& options);
// numpy.dot: products over the last axis of a and the second-to-last of b (multiply for
// 0-d). out= must be C-contiguous with the exact result dtype and shape, as NumPy asks.
ndarray dot(const ndarray& a, const ndarray& b, std::optional<ndarray> out = std::nullopt);
// sum(conj(a.ravel()) * b.ravel()) as a 0-d array.
ndarray vdot(const ndarray& a, const ndarray& b);
// Products over the last axes of both (multiply for 0-d).
ndarray inner(const ndarray& a, const ndarray& b);
// a.ravel()[:, None] * b.ravel()[None, :].
ndarray outer(const ndarray& a, const ndarray& b, std::optional<ndarray> out = std::nullopt);
// Sums over the last `axes` axes of a and the first `axes` of b, or over the given pairs.
ndarray tensordot(const ndarray& a, const ndarray& b, int axes = 2);
ndarray tensordot(const ndarray& a, const ndarray& b, const std::vector<int>& axes_a, const std::vector<int>& axes_b);
// Einstein summation ("ij,jk->ik", implicit output, "..." broadcasting, repeated
// indices for diagonals). Contracts pairwise, left to right, through matmul, in `dtype`
// (default: the operands' result type). One operand whose labels all reach the output
// (transposes, diagonals) gives a view of it, in its own dtype, as NumPy's einsum does.
ndarray einsum(const std::string& subscripts, const std::vector<ndarray>& operands,
               std::optional<DType> dtype = std::nullopt);
// NumPy's sublist form einsum(a, [0, 1], b, [1, 2], [0, 2]) as a subscripts string: labels
// 0-25 are 'A'-'Z', 26-51 'a'-'z', kEinsumEllipsis stands for '...'; ValueError outside.
inline constexpr int kEinsumEllipsis = -1;
std::string einsum_subscripts(const std::vector<std::vector<int>>& inputs,
                              const std::optional<std::vector<int>>& output = std::nullopt);
// Kronecker product: block (i, j) of the result is a[i, j] * b.
ndarray kron(const ndarray& a, const ndarray& b);
// 3-vector (or 2-vector) cross products along the given axes, broadcasting the rest.
ndarray cross(const ndarray& a, const ndarray& b, int axisa = -1, int axisb = -1, int axisc = -1,
              std::optional<int> axis = std::nullopt);

// The offset diagonal over axis1 and axis2, as a view appended as the last axis.
ndarray diagonal(const ndarray& a, int offset = 0, int axis1 = 0, int axis2 = 1);
// Sum of the diagonal (sum of diagonal(...) along its last axis; dtype/out as sum's).
ndarray trace(const ndarray& a, int offset = 0, int axis1 = 0, int axis2 = 1, std::optional<DType> dtype = std::nullopt,
              std::optional<ndarray> out = std::nullopt);
// 1-d v: a square array with v on diagonal k; 2-d v: its k-th diagonal.
ndarray diag(const ndarray& v, int k = 0);
// Lower (tril) / upper (triu) triangle of the last two axes, zeros elsewhere.
ndarray tril(const ndarray& m, int k = 0);
ndarray triu(const ndarray& m, int k = 0);

// float32 matmul on GPUs: "highest" (default, full float32 as NumPy) or "tf32" (tensor
// cores with 10-bit mantissa inputs: faster, about 1e-3 relative error). CPUs ignore it.
void set_matmul_precision(const std::string& precision);
std::string get_matmul_precision();

// numpy.linalg: decompositions, solvers and norms (src/api/linalg_*.cpp). Stacked input
// (..., M, N) runs every matrix; integer and bool input computes in float64, float16
// raises TypeError. LAPACK (CPU) and cuSOLVER (GPU) are loaded at run time;
// arrays stay on their device (see docs/architecture.md).
namespace linalg {

// ord of norm/cond: nothing (None), a number (inf and -inf included) or "fro"/"nuc".
using NormOrder = std::variant<std::monostate, double, std::string>;
ndarray norm(const ndarray& x, const NormOrder& ord = {}, std::optional<std::vector<int>> axis = std::nullopt,
             bool keepdims = false);
ndarray cond(const ndarray& x, const NormOrder& p = {});

ndarray det(const ndarray& a);
struct SlogdetResult {
  ndarray sign, logabsdet;
};
SlogdetResult slogdet(const ndarray& a);
ndarray inv(const ndarray& a);
// NumPy 2 rules: b is a vector only when it is 1-d; otherwise stacks of (M, K) broadcast with a's.
ndarray solve(const ndarray& a, const ndarray& b);
ndarray cholesky(const ndarray& a, bool upper = false);

struct EighResult {
  ndarray eigenvalues, eigenvectors;
};
EighResult eigh(const ndarray& a, const std::string& uplo = "L");
ndarray eigvalsh(const ndarray& a, const std::string& uplo = "L");

struct SVDResult {
  ndarray U, S, Vh;
};
SVDResult svd(const ndarray& a, bool full_matrices = true, bool hermitian = false);
ndarray svdvals(const ndarray& a, bool hermitian = false);  // svd(..., compute_uv=False)

// mode "reduced", "complete": Q and R; "r": R only (Q left null); "raw": Q holds h, R holds tau.
struct QRResult {
  ndarray Q, R;
};
QRResult qr(const ndarray& a, const std::string& mode = "reduced");

struct LstsqResult {
  ndarray x, residuals;
  std::int64_t rank = 0;
  ndarray s;
};
// rcond: nullopt means NumPy's default, eps * max(M, N).
LstsqResult lstsq(const ndarray& a, const ndarray& b, std::optional<double> rcond = std::nullopt);
// rcond: singular values below rcond * largest count as zero (NumPy's default 1e-15).
ndarray pinv(const ndarray& a, double rcond = 1e-15, bool hermitian = false);
// tol: absolute threshold; rtol: relative one (default eps * max(M, N)); tol wins when both given.
ndarray matrix_rank(const ndarray& a, std::optional<double> tol = std::nullopt, bool hermitian = false,
                    std::optional<double> rtol = std::nullopt);
ndarray matrix_power(const ndarray& a, std::int64_t n);

}  // namespace linalg

}  // namespace copper
