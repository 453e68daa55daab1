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

// Stacks for the fibers of one worker, reused block after block; each has a guard page below it so
// an overflow faults instead of corrupting the neighbouring fiber.
struct StackPool {
  char* base = nullptr;
  std::size_t count = 0;
  std::size_t page = 0;
  std::size_t stride = 0;

  void ensure(std::size_t n) {
    if (n <= count) return;
    if (base != nullptr) munmap(base, count * stride);
    page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    stride = CASS_CPU_STACK_SIZE + page;
    void* p = mmap(nullptr, n * stride, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      std::fprintf(stderr, "cass-cpu: cannot reserve fiber stacks for %zu threads\n", n);
      std::abort();
    }
    base = static_cast<char*>(p);
    for (std::size_t i = 0; i < n; ++i) mprotect(base + i * stride, page, PROT_NONE);
    count = n;
  }
  void* stack(std::size_t i) const { return base + i * stride + page; }
  std::size_t size() const { return CASS_CPU_STACK_SIZE; }
};

}  // namespace detail
}  // namespace cass
