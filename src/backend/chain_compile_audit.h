// A development check, no GPU needed: with COPPER_CHAIN_COMPILE_AUDIT=<seconds>, every
// distinct chain the CPU backend runs also has its CUDA kernels generated (elementwise, or
// a fed reduction in the rows and block shapes, and one thread per row for rows of up to
// 32) and compiled with NVRTC. A compile slower than <seconds> is logged in
// <COPPER_CHAIN_COMPILE_AUDIT_DIR (default /tmp)>/chain_compile_audit.log with the source
// kept beside it; the source is written before the compile, so one that never finishes
// stays too. Each compile runs in a child process, ended after COPPER_CHAIN_COMPILE_AUDIT_CAP
// seconds (default 3x the limit, at least 60) and logged as not finished. Session 40 found that NVRTC spent minutes on a float16 chain that CuPy's logic
// tests make (scripts/chain-compile-audit runs CuPy's suite so).
#pragma once

#include "backend/fused_chain.h"

namespace copper::backend {

void audit_chain_compile(const Chain& chain);

}  // namespace copper::backend
