// The argument handling ElementwiseKernel and ReductionKernel calls share: array
// arguments and their device, and the outputs (given and checked, or allocated).
#include "api/array_factory.h"
#include "api/user_kernel.h"

namespace copper::api {

CallArrays call_arrays(const std::vector<operand>& args, std::size_t nin, std::size_t nout) {
  CallArrays call;
  call.outs_given = args.size() == nin + nout && nout > 0;
  std::vector<const ndarray*> arrays;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (args[k].is_array()) arrays.push_back(&args[k].array());
    else if (k >= nin) throw TypeError("Output arguments must be copper.ndarray");
  }
  if (call.outs_given)
    for (std::size_t k = nin; k < args.size(); ++k) call.outs.push_back(&args[k].array());
  call.device = common_device(arrays, default_device());
  return call;
}

std::vector<ndarray> make_outputs(const std::vector<KernelParam>& params, const CallArrays& call, const Shape& shape,
                                  const std::vector<DType>& dtypes, bool raw_shape_known) {
  std::vector<ndarray> outs;
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (!call.outs_given) {
      if (params[k].raw && !raw_shape_known) throw ValueError("Output array size is Undecided");
      outs.push_back(allocate(shape, dtypes[k], call.device));
    } else {
      const ndarray& o = *call.outs[k];
      if (!params[k].raw && o.shape() != shape) throw ValueError("Out shape is mismatched");
      outs.push_back(o);
    }
  }
  return outs;
}

}  // namespace copper::api
