// Fibers: one per GPU thread, switched cooperatively at barriers and warp collectives.
//
// On x86-64 the switch is eight instructions (callee-saved registers and the stack pointer), far
// cheaper than swapcontext, which makes a sigprocmask system call on every switch. Elsewhere, or
// with -DCASS_CPU_UCONTEXT (to compare), ucontext is used.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

namespace cass {
namespace detail {

using FiberFn = void (*)(void*);

#if defined(__x86_64__) && !defined(CASS_CPU_UCONTEXT)
#define CASS_CPU_FIBER_KIND "asm"
extern "C" void cass_cpu_switch(void** save_sp, void* to_sp);
extern "C" void cass_cpu_fiber_start();
// .weak: the runtime is header-only, so a program made of several translation units must not see
// duplicate definitions.
__asm__(
    ".text\n"
    ".weak cass_cpu_switch\n"
    ".type cass_cpu_switch,@function\n"
    ".p2align 4\n"
    "cass_cpu_switch:\n"
    "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
    "  movq %rsp, (%rdi)\n"
    "  movq %rsi, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
    "  ret\n"
    ".size cass_cpu_switch, .-cass_cpu_switch\n"
    ".weak cass_cpu_fiber_start\n"
    ".type cass_cpu_fiber_start,@function\n"
    "cass_cpu_fiber_start:\n"
    "  movq %r12, %rdi\n"
    "  callq *%r13\n"
    "  ud2\n"
    ".size cass_cpu_fiber_start, .-cass_cpu_fiber_start\n");

struct Context {
  void* sp = nullptr;
};

inline void ctx_init(Context& c, void* stack, std::size_t size, FiberFn fn, void* arg) {
  std::uintptr_t top = (reinterpret_cast<std::uintptr_t>(stack) + size) & ~std::uintptr_t(15);
  // Seven words popped by cass_cpu_switch (six registers and the return address); top - 72 leaves
  // the stack 16-byte aligned at the call in cass_cpu_fiber_start, as the ABI requires.
  void** sp = reinterpret_cast<void**>(top - 72);
  sp[0] = nullptr;                                     // r15
  sp[1] = nullptr;                                     // r14
  sp[2] = reinterpret_cast<void*>(fn);                 // r13: entry
  sp[3] = arg;                                         // r12: its argument
  sp[4] = nullptr;                                     // rbx
  sp[5] = nullptr;                                     // rbp
  sp[6] = reinterpret_cast<void*>(&cass_cpu_fiber_start);
  c.sp = sp;
}

inline void ctx_switch(Context& from, Context& to) { cass_cpu_switch(&from.sp, to.sp); }

#else
#define CASS_CPU_FIBER_KIND "ucontext"
}  // namespace detail
}  // namespace cass
#include <ucontext.h>
namespace cass {
namespace detail {

struct Context {
  ucontext_t uc;
};

inline void uc_entry(unsigned fn_hi, unsigned fn_lo, unsigned arg_hi, unsigned arg_lo) {
  auto fn = reinterpret_cast<FiberFn>((std::uintptr_t(fn_hi) << 32) | fn_lo);
  fn(reinterpret_cast<void*>((std::uintptr_t(arg_hi) << 32) | arg_lo));
}

inline void ctx_init(Context& c, void* stack, std::size_t size, FiberFn fn, void* arg) {
  getcontext(&c.uc);
  c.uc.uc_stack.ss_sp = stack;
  c.uc.uc_stack.ss_size = size;
  c.uc.uc_link = nullptr;
  auto f = reinterpret_cast<std::uintptr_t>(fn);
  auto a = reinterpret_cast<std::uintptr_t>(arg);
  makecontext(&c.uc, reinterpret_cast<void (*)()>(&uc_entry), 4, unsigned(f >> 32), unsigned(f),
              unsigned(a >> 32), unsigned(a));
}

inline void ctx_switch(Context& from, Context& to) { swapcontext(&from.uc, &to.uc); }
#endif

// Stacks for the fibers of one worker, reused block after block. Each has a guard region below it
// (64 KiB, and the build adds -fstack-clash-protection so a large frame probes page by page): an
// overflow faults there, and the SIGSEGV handler in sched.hpp reports it with the setting to raise.
// The whole pool is one address-space reservation (MAP_NORESERVE: only touched pages cost memory).
struct StackPool {
  static constexpr std::size_t kGuard = 64 * 1024;
  char* base = nullptr;
  std::size_t count = 0;
  std::size_t stride = 0;
  std::size_t bytes = 0;  // usable stack per fiber

  // Room for n fibers of `stack` bytes each; false when the address space for it cannot be had.
  bool ensure(std::size_t n, std::size_t stack) {
    if (n <= count) return true;
    // One page more than stack and guard, so the stride is no multiple of 64 KiB: the stack tops,
    // which the fibers touch in turn at every switch, then spread over the cache sets instead of
    // all mapping to the same few (the tiled matmul ran 25% slower without the page).
    std::size_t new_stride = stack + kGuard + static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    void* p = mmap(nullptr, n * new_stride, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return false;
    char* b = static_cast<char*>(p);
    for (std::size_t i = 0; i < n; ++i) {
      if (mprotect(b + i * new_stride + kGuard, stack, PROT_READ | PROT_WRITE) != 0) {
        munmap(b, n * new_stride);
        return false;
      }
    }
    if (base != nullptr) munmap(base, count * stride);
    base = b;
    count = n;
    stride = new_stride;
    bytes = stack;
    return true;
  }
  void* stack(std::size_t i) const { return base + i * stride + kGuard; }
  std::size_t size() const { return bytes; }
  // Whether addr lies in one of the guard regions (a fiber ran off the end of its stack).
  bool in_guard(const void* addr) const {
    const char* a = static_cast<const char*>(addr);
    if (base == nullptr || a < base || a >= base + count * stride) return false;
    return static_cast<std::size_t>(a - base) % stride < kGuard;
  }
};

}  // namespace detail
}  // namespace cass
