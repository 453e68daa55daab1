// Build-time settings of the CPU runtime and the exit codes the Python side recognises.
#pragma once

#ifndef CASS_CPU_WARP_SIZE
#define CASS_CPU_WARP_SIZE 32
#endif
#if CASS_CPU_WARP_SIZE != 32 && CASS_CPU_WARP_SIZE != 64
#error "CASS_CPU_WARP_SIZE must be 32 or 64"
#endif

// KiB of stack per GPU thread (fiber); the environment variable CASS_CPU_STACK_KB overrides it at
// run time. 512 KiB is CUDA's limit on local memory per thread, so any thread's local arrays fit.
// Reserved with MAP_NORESERVE: only touched pages cost memory, but the reservation counts against
// an address-space limit (RLIMIT_AS), which sched.hpp checks before each launch.
#ifndef CASS_CPU_STACK_KB
#define CASS_CPU_STACK_KB 512
#endif

#define CASS_CPU_MAX_BLOCK_THREADS 1024
#define CASS_CPU_SHARED_PER_BLOCK 49152
#define CASS_CPU_SHARED_PER_BLOCK_OPTIN 232448

// Distinctive exit codes (kept in sync with cass_lsp/cpu/outcome.py).
#define CASS_CPU_EXIT_DEADLOCK 86
#define CASS_CPU_EXIT_UNSUPPORTED 87
#define CASS_CPU_EXIT_TIMEOUT 88

// HIP mode changes only what differs in signature between the two APIs (64-bit ballot masks).
#ifndef CASS_CPU_HIP
#define CASS_CPU_HIP 0
#endif
