// Kernel execution: blocks spread over a small pool of OS threads, the threads of one block run as
// fibers on one OS thread, switched only at __syncthreads, warp collectives and spin hints.
//
// A block starts as a plain loop over its threads on one stack: thread after thread runs to its end,
// with no fiber set up. That is the schedule the fibers would follow too (a fiber runs until it
// yields, and none has yielded yet), so when a thread reaches a yield point the loop's stack simply
// becomes that thread's fiber, the threads after it get fibers of their own, and the block goes on
// as fibers: the threads before it ended, exactly as they would have. A barrier-free kernel thus
// never pays for fibers, and no kernel needs to be known barrier-free beforehand. The plain loop
// runs a worker's whole share of the grid's blocks back to back, so a barrier-free launch costs
// one switch per share, not per block; after a block that went on as fibers it starts again.
//
// CASS_CPU_ORDER=reverse runs the threads of each block in reverse order (last thread first, and
// so at every step between barriers): a thread that reads another's shared store without a barrier
// between then sees it unwritten in one of the two orders (verification runs both). With
// CASS_CPU_ORDER_KERNEL=<name> only that kernel's launches run reversed (which kernel races).
//
// A block runs start to finish on one worker, so per-worker (thread_local) storage is per-block
// storage while the block runs: that is what makes `__shared__` = `static thread_local` correct.
// Deadlocks are detected rather than waited out: a barrier that can never complete (some threads
// exited while others wait, or no fiber can run) ends the program with CASS_CPU_EXIT_DEADLOCK.
#pragma once
#include <cstring>
#include <functional>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <tuple>
#include <type_traits>
#include <utility>

#include "config.hpp"
#include "fiber.hpp"
#include "record.hpp"
#include "types.hpp"

// The built-in variables are variables, as in CUDA (a host function may have a parameter named
// blockIdx). Each is per OS thread: the scheduler sets threadIdx before it resumes a fiber, and a
// block runs start to finish on one thread.
inline thread_local uint3 threadIdx{0, 0, 0};
inline thread_local uint3 blockIdx{0, 0, 0};
inline thread_local dim3 blockDim{1, 1, 1};
inline thread_local dim3 gridDim{1, 1, 1};

namespace cass {
namespace detail {

// A store of a built-in variable that g++ keeps where it stands, for the fault handler: the plain
// loop writes threadIdx so, per thread, and the handler finds the running thread from it (this_thread)
// even in a loop whose kernel reads no memory, where g++ would sink a plain store out of the loop or
// drop it. Volatile, not a fence: g++ still knows the value, so the kernel reads it from a register
// (a signal fence per thread, or a store through a pointer g++ cannot see through, made a saxpy's
// loop 1.5x slower). No access through a pointer moves across a volatile store to a variable the
// pointer might reach; one into a named array (__shared__, __device__) g++ could schedule across it.
inline void publish(unsigned& var, unsigned value) { *static_cast<volatile unsigned*>(&var) = value; }

using lanemask = unsigned long long;
constexpr lanemask kFullWarp = CASS_CPU_WARP_SIZE == 64 ? ~0ull : 0xffffffffull;

enum class State : unsigned char { Runnable, AtBarrier, AtWarp, Done };

struct Block;

struct Fiber {
  Context ctx;
  uint3 tid;
  unsigned lane, warp;
  State state;
  unsigned warp_ops;  // parity selects the exchange buffer, so a fast lane cannot overwrite a value not yet read
  Block* block;
};

struct Warp {
  lanemask live;     // lanes that exist and have not exited
  lanemask arrived;  // lanes waiting at a collective
  lanemask pending;  // lanes those waiters need
  unsigned long long slot[2][CASS_CPU_WARP_SIZE];
};

struct LaunchBase {
  void (*run_thread)(const LaunchBase*);
  FiberFn run_plain;  // the block's threads one after another (plain_loop), on one fiber's stack
  const char* name;
  dim3 grid, block;
  std::size_t shmem;
  bool reverse;  // its blocks' threads run last-first (CASS_CPU_ORDER)
};

struct Stats {
  unsigned long long thread_barriers, block_barriers, warp_collectives, switches, blocks, plain_blocks;
};

struct Worker;

struct Block {
  Fiber* fibers;
  unsigned n, live, done, at_barrier, bar_gen;
  unsigned bar_pred[2], bar_arrived[2];  // __syncthreads_count/and/or, double-buffered like warp slots
  Warp* warps;
  unsigned nwarps;
  Context sched;
  Context plain;         // where the plain loop starts
  bool reverse;          // CASS_CPU_ORDER=reverse
  bool aborted;  // a thread failed an assert or trapped: the rest of the block does not run
  uint3 idx;
  const LaunchBase* launch;
  Worker* worker;
};

struct Worker {
  Fiber* fibers = nullptr;
  unsigned capacity = 0;
  Warp* warps = nullptr;
  unsigned warp_capacity = 0;
  StackPool stacks;
  void* dyn_shared = nullptr;
  std::size_t dyn_capacity = 0;
  Block block{};
  unsigned long long next_block = 0, end_block = 0;  // the share of the grid the plain loop works through
  Stats stats{};
  Worker* next = nullptr;
};

// The GPU thread this OS thread runs (nullptr on the host), but in the plain loop the block's first
// fiber: there the running thread is the one threadIdx names (this_thread), as a store of the
// fiber per thread would cost a barrier-free kernel's loop one store more per thread.
inline thread_local Fiber* t_fiber = nullptr;
// The block this OS thread runs has turned to fibers: the plain loop's ended threads are counted
// out (settle). Per OS thread, as a block runs on one; and one byte, which the compiler knows a
// kernel's wider stores cannot change, so a plain loop reloads it only after a thread that called
// out of line (at a barrier, say), not after every thread of a barrier-free kernel.
inline thread_local bool t_settled = false;
inline thread_local const StackPool* t_stacks = nullptr;  // this worker's, for the overflow handler
inline thread_local void* t_dyn_shared = nullptr;
inline thread_local int t_last_error = 0;  // cudaError_t of the last failed launch, per host thread
// A device-side assert or trap ends the kernel and, as on a GPU, every later API call returns its
// error (cudaErrorAssert, cudaErrorLaunchFailure) until cudaDeviceReset.
inline int g_sticky_error = 0;

#ifdef CASS_CPU_COUNT_BARRIERS
#define CASS_CPU_COUNT(field) (++(field))
#else
#define CASS_CPU_COUNT(field) ((void)0)
#endif

[[noreturn]] inline void cannot_run(const char* what) {
  std::fflush(stdout);
  std::fprintf(stderr, "cannot run on CPU: %s\n", what);
  std::fflush(stderr);
  _exit(CASS_CPU_EXIT_UNSUPPORTED);
}

[[noreturn]] inline void deadlock(const Block& b, const Fiber* f, const char* why) {
  static int reporting = 0;
  if (__atomic_exchange_n(&reporting, 1, __ATOMIC_ACQ_REL) != 0) {
    for (;;) pause();  // another worker is reporting and will end the process
  }
  unsigned at_barrier = 0, at_warp = 0, exited = 0;
  for (unsigned i = 0; i < b.n; ++i) {
    at_barrier += b.fibers[i].state == State::AtBarrier;
    at_warp += b.fibers[i].state == State::AtWarp;
    exited += b.fibers[i].state == State::Done;
  }
  std::fflush(stdout);
  std::fprintf(stderr, "cass-cpu: deadlock in kernel %s, block (%u,%u,%u)", b.launch->name, b.idx.x, b.idx.y, b.idx.z);
  if (f != nullptr) std::fprintf(stderr, ", thread (%u,%u,%u)", f->tid.x, f->tid.y, f->tid.z);
  std::fprintf(stderr,
               ": %s; of %u threads %u wait at __syncthreads, %u at a warp collective, %u exited "
               "(on a GPU this barrier never completes: every thread of a block must reach each __syncthreads)\n",
               why, b.n, at_barrier, at_warp, exited);
  std::fflush(stderr);
  _exit(CASS_CPU_EXIT_DEADLOCK);
}

// The thread at position p of the block's run order, and the position of a thread.
inline Fiber& thread_at(Block& b, unsigned p) { return b.fibers[b.reverse ? b.n - 1 - p : p]; }
inline unsigned position(const Block& b, const Fiber* f) {
  unsigned i = static_cast<unsigned>(f - b.fibers);
  return b.reverse ? b.n - 1 - i : i;
}

// The running GPU thread (nullptr on the host). In the plain loop t_fiber is the block's first
// fiber and threadIdx says which thread runs; once the block turned to fibers, t_fiber is exact.
// The plain loop's case out of line: this is inlined into kernels (lane ids), the barriers and
// the collectives, which a bigger body would keep from being inlined in turn.
[[gnu::noinline]] inline Fiber* thread_from_index(Fiber* any) {
  return any->block->fibers + (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}
inline Fiber* this_thread() {
  Fiber* f = t_fiber;
  if (__builtin_expect(f == nullptr || t_settled, 1)) return f;
  return thread_from_index(f);
}

// Every lane of the block live, none waiting.
inline void init_warps(Block& b) {
  for (unsigned i = 0; i < b.nwarps; ++i) {
    Warp& w = b.warps[i];
    unsigned lanes = b.n - i * CASS_CPU_WARP_SIZE;
    w.live = lanes >= CASS_CPU_WARP_SIZE ? kFullWarp : (1ull << lanes) - 1;
    w.arrived = w.pending = 0;
    // Lanes beyond the block read as 0 from shuffles (what AMD's ds_bpermute gives for them).
    for (unsigned l = lanes; l < CASS_CPU_WARP_SIZE; ++l) w.slot[0][l] = w.slot[1][l] = 0;
  }
}

// The plain loop keeps no books per thread (that would cost more than a small kernel's body): the
// threads before the running one (t_fiber) ended, and the first yield point, or anything that asks
// which threads are live, counts them out (settle), once per block, before it looks. What only
// fibers use (warps, barrier counts) is set up here too, not at each block's start. Out of line,
// so that the barriers it sits in stay small enough to be inlined into kernels.
[[gnu::noinline]] inline void count_out_ended(Block& b) {
  t_fiber = this_thread();  // exact from here on: the block goes on as fibers
  t_settled = true;
  const unsigned running = position(b, t_fiber);
  b.at_barrier = b.bar_gen = 0;
  b.bar_pred[0] = b.bar_pred[1] = b.bar_arrived[0] = b.bar_arrived[1] = 0;
  init_warps(b);
  for (unsigned p = 0; p < b.n; ++p) {
    Fiber& g = thread_at(b, p);
    g.warp_ops = 0;
    if (p >= running) {
      g.state = State::Runnable;
      continue;
    }
    g.state = State::Done;
    b.warps[g.warp].live &= ~(1ull << g.lane);
  }
  b.live = b.n - running;
  b.done = running;
}

inline void settle(Block& b) {
  if (__builtin_expect(!t_settled, 0)) count_out_ended(b);
}

inline void yield(Fiber* f) {
  CASS_CPU_COUNT(f->block->worker->stats.switches);
  ctx_switch(f->ctx, f->block->sched);
}

// A failed device-side assert or __trap: this thread stops, its block and the kernel end, and the
// error sticks. The fiber is abandoned (never resumed), as a GPU abandons the kernel.
[[noreturn]] inline void abort_kernel(int error) {
  Fiber* f = this_thread();
  __atomic_store_n(&g_sticky_error, error, __ATOMIC_RELEASE);
  f->block->aborted = true;
  ctx_switch(f->ctx, f->block->sched);
  __builtin_unreachable();
}

// A spinning thread (failed CAS, __nanosleep) lets the others of its block run: without preemption
// a lock holder in the same block would otherwise never get to release the lock.
inline void spin_hint() {
  if (Fiber* any = t_fiber) {
    settle(*any->block);  // t_fiber is exact from here on
    yield(t_fiber);
  }
}

inline void release_barrier(Block& b) {
  unsigned p = b.bar_gen & 1;
  b.at_barrier = 0;
  ++b.bar_gen;
  b.bar_pred[p ^ 1] = 0;
  b.bar_arrived[p ^ 1] = 0;
  for (unsigned i = 0; i < b.n; ++i)
    if (b.fibers[i].state == State::AtBarrier) b.fibers[i].state = State::Runnable;
  CASS_CPU_COUNT(b.worker->stats.block_barriers);
}

// __syncthreads: returns how many arriving threads had pred != 0 (and via *arrived how many arrived).
inline unsigned block_barrier(int pred, unsigned* arrived = nullptr) {
  Block& b = *t_fiber->block;
  settle(b);
  Fiber* f = t_fiber;  // exact once settled
#ifndef CASS_CPU_EXITED_THREADS_ARRIVE
  if (b.done != 0) deadlock(b, f, "__syncthreads reached after other threads of the block exited");
#endif
  unsigned p = b.bar_gen & 1;
  b.bar_pred[p] += pred != 0;
  ++b.bar_arrived[p];
  CASS_CPU_COUNT(b.worker->stats.thread_barriers);
  if (++b.at_barrier == b.live) {
    release_barrier(b);
  } else {
    f->state = State::AtBarrier;
    yield(f);
  }
  if (arrived != nullptr) *arrived = b.bar_arrived[p];
  return b.bar_pred[p];
}

inline void release_warp(Block& b, Warp& w, lanemask want) {
  lanemask waiting = w.arrived & want;
  w.arrived &= ~want;
  w.pending = w.arrived != 0 ? w.pending & ~want : 0;
  Fiber* base = b.fibers + static_cast<unsigned>(&w - b.warps) * CASS_CPU_WARP_SIZE;
  while (waiting != 0) {
    Fiber& g = base[__builtin_ctzll(waiting)];
    if (g.state == State::AtWarp) g.state = State::Runnable;
    waiting &= waiting - 1;
  }
}

inline void warn_mask(const Fiber* f, lanemask mask) {
  static bool warned = false;
  if (__atomic_exchange_n(&warned, true, __ATOMIC_RELAXED)) return;
  std::fprintf(stderr,
               "cass-cpu: warning: kernel %s: lane %u of a %d-wide warp called a warp collective with mask "
               "0x%llx, which leaves it out (does the code assume 32-wide warps?)\n",
               f->block->launch->name, f->lane, CASS_CPU_WARP_SIZE, mask);
}

struct Exchange {
  const unsigned long long* slots;  // every lane's contribution, by lane
  lanemask members;                 // lanes that took part
};

// The one warp collective everything else is built on: publish a value, wait for the lanes the
// mask names (CUDA semantics; a 64-wide warp ignores masks like an AMD wavefront), read them all.
inline Exchange warp_exchange(unsigned long long mine, lanemask mask) {
  Block& b = *t_fiber->block;
  settle(b);
  Fiber* f = t_fiber;  // exact once settled
  Warp& w = b.warps[f->warp];
  unsigned par = f->warp_ops++ & 1;
  w.slot[par][f->lane] = mine;
  lanemask self = 1ull << f->lane;
#if CASS_CPU_WARP_SIZE == 64
  if ((mask & self) == 0) warn_mask(f, mask);
  lanemask want = w.live;
#else
  lanemask want = (mask | self) & w.live;
#endif
  CASS_CPU_COUNT(b.worker->stats.warp_collectives);
  w.arrived |= self;
  w.pending |= want;
  if ((w.arrived & want) == want) {
    release_warp(b, w, want);
  } else {
    f->state = State::AtWarp;
    yield(f);
  }
  return Exchange{w.slot[par], want};
}

// A thread returned from the kernel: it leaves its warp and the block.
inline void end_thread(Fiber* f) {
  Block& b = *f->block;
  f->state = State::Done;
  --b.live;
  ++b.done;
  Warp& w = b.warps[f->warp];
  w.live &= ~(1ull << f->lane);
  if (w.arrived != 0 && (w.arrived & w.pending & w.live) == (w.pending & w.live)) release_warp(b, w, w.pending & w.live);
  if (b.at_barrier != 0) {
#ifdef CASS_CPU_EXITED_THREADS_ARRIVE
    if (b.at_barrier == b.live) release_barrier(b);
#else
    deadlock(b, f, "a thread exited while others wait at __syncthreads");
#endif
  }
}

inline void fiber_main(void* arg) {
  Fiber* f = static_cast<Fiber*>(arg);
  Block& b = *f->block;
  b.launch->run_thread(b.launch);
  end_thread(f);
  ctx_switch(f->ctx, b.sched);  // a finished fiber is never resumed
  __builtin_unreachable();
}

// The block's threads in run order, each to its end, until one yields: that one is returned (it
// became a fiber, and the threads after it run as fibers), or nullptr when all ended. Run order is
// thread index order, x fastest, or its reverse (CASS_CPU_ORDER): each axis counts up or down, so a
// thread costs no division, and only threadIdx.x is written per thread (a kernel cannot assign the
// built-in variables), published where it stands: it is how this_thread, and so the fault handler,
// knows the running thread (no fiber pointer is stored per thread: on a store-bound core that one
// more store cost a saxpy's loop 15%).
template <class Kernel>
Fiber* run_in_order(Block& b, const dim3 dims, const Kernel& kernel) {
  const bool reverse = b.reverse;
  const unsigned step = reverse ? ~0u : 1u;  // -1 when the axes count down
  const auto first = [reverse](unsigned size) { return reverse ? size - 1 : 0u; };
  const auto end = [reverse](unsigned size) { return reverse ? ~0u : size; };  // one step past the last
  const unsigned x_first = first(dims.x), x_end = end(dims.x);
  for (unsigned z = first(dims.z); z != end(dims.z); z += step) {
    publish(threadIdx.z, z);
    for (unsigned y = first(dims.y); y != end(dims.y); y += step) {
      publish(threadIdx.y, y);
      for (unsigned x = x_first; x != x_end; x += step) {
        publish(threadIdx.x, x);
        kernel();  // inlined: the kernel is called in the loop, not through a pointer
        if (t_settled) return t_fiber;  // this thread yielded, and its fiber ran it to its end
      }
    }
  }
  return nullptr;
}

// Block number `linear` of the grid as an index: most grids are one-dimensional, and the three
// 64-bit divisions of the general case cost more than a small barrier-free block's threads.
inline uint3 block_index(unsigned long long linear, dim3 grid) {
  if (grid.y == 1 && grid.z == 1) return uint3{unsigned(linear), 0, 0};
  const unsigned long long gx = grid.x, gy = grid.y;
  return uint3{unsigned(linear % gx), unsigned((linear / gx) % gy), unsigned(linear / (gx * gy))};
}

// The blocks of the worker's share (run_blocks), back to back, each a plain loop over its threads,
// until one yields: that thread's block goes on as fibers.
template <class Kernel>
void run_plain_blocks(Worker& wk, const Kernel& kernel) {
  Block& b = wk.block;
  const dim3 dims = b.launch->block, grid = b.launch->grid;
  while (wk.next_block < wk.end_block) {
    if (__atomic_load_n(&g_sticky_error, __ATOMIC_ACQUIRE) != 0) return;  // the kernel was aborted
    b.idx = block_index(wk.next_block++, grid);
    blockIdx = b.idx;
    t_settled = false;
    t_fiber = b.fibers;  // the running thread is the one threadIdx names (this_thread)
    // All in memory before the block's threads run, for the fault handler (this_thread): g++
    // could otherwise sink these stores below the loop of a kernel that reads no memory.
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (Fiber* yielded = run_in_order(b, dims, kernel)) {
      end_thread(yielded);
      return;
    }
    CASS_CPU_COUNT(wk.stats.plain_blocks);
    CASS_CPU_COUNT(wk.stats.blocks);
  }
}

// The plain loops, on the stack of a block's first fiber: one switch for a worker's share of the
// grid, not one per block. A thread that yields keeps this stack as its fiber (the scheduler then
// gives the later threads theirs); when it ends, so does the loop, and the scheduler starts it
// again for the blocks after.
template <class LaunchType>
void plain_loop(void* arg) {
  Worker& wk = *static_cast<Worker*>(arg);
  const LaunchType& L = *static_cast<const LaunchType*>(wk.block.launch);
  using Params = typename LaunchType::ParamsType;
  if constexpr (std::is_trivially_copy_constructible_v<Params> && std::is_trivially_destructible_v<Params>) {
    // The share's own copy of the arguments (each thread copies them again, as its parameters),
    // which the compiler keeps in registers: the launch's it would reload after every thread, as
    // the kernel's stores might change them for all it knows.
    Params params = *L.params;
    run_plain_blocks(wk, [&] { std::apply(*L.body, params); });
  } else {
    run_plain_blocks(wk, [&] { LaunchType::call(L); });
  }
  ctx_switch(wk.block.plain, wk.block.sched);  // never resumed
  __builtin_unreachable();
}

inline Worker*& worker_list() {
  static Worker* head = nullptr;
  return head;
}

inline pthread_mutex_t& registry_mutex() {
  static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  return mu;
}

// ---- limits: fiber stacks, address space, stack overflow ----------------------------------------

inline std::size_t stack_bytes() {
  static const std::size_t n = [] {
    long kb = CASS_CPU_STACK_KB;
    if (const char* s = std::getenv("CASS_CPU_STACK_KB")) kb = std::strtol(s, nullptr, 10);
    if (kb < 64) kb = 64;  // below this even printf in a kernel overflows
    std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return (static_cast<std::size_t>(kb) * 1024 + page - 1) / page * page;
  }();
  return n;
}

// Writes what snprintf put in msg (n characters, or as many as fit) to stderr, from a signal
// handler: no stdio buffers.
inline void write_formatted(const char* msg, int n, std::size_t capacity) {
  std::size_t len = n < 0 ? 0 : static_cast<std::size_t>(n) < capacity ? static_cast<std::size_t>(n) : capacity - 1;
  ssize_t ignored = write(2, msg, len);
  (void)ignored;
}

[[noreturn]] inline void stack_overflow() {
  // In the SIGSEGV handler, on the alternate stack: leave with _exit.
  char msg[1024];
  const Fiber* f = this_thread();
  const Block& b = *f->block;
  int n = std::snprintf(msg, sizeof msg,
                        "cannot run on CPU: fiber stack overflow in kernel %s, block (%u,%u,%u), thread (%u,%u,%u): "
                        "a GPU thread needed more than the %zu KiB of stack each thread gets here (large local "
                        "arrays or deep recursion); raise CASS_CPU_STACK_KB (in the environment, or "
                        "-DCASS_CPU_STACK_KB=<KiB> among cass.verification.cpuArgs)\n",
                        b.launch->name, b.idx.x, b.idx.y, b.idx.z, f->tid.x, f->tid.y, f->tid.z, stack_bytes() / 1024);
  write_formatted(msg, n, sizeof msg);
  _exit(CASS_CPU_EXIT_UNSUPPORTED);
}

inline void on_segv(int, siginfo_t* info, void*) {
  const StackPool* stacks = t_stacks;
  const Fiber* f = this_thread();  // in the plain loop, the thread whose threadIdx the loop published
  if (f != nullptr && stacks != nullptr && stacks->in_guard(info->si_addr)) stack_overflow();
  if (f != nullptr) {
    // What a GPU reports as cudaErrorIllegalAddress; here the process dies, so say where.
    char msg[512];
    const Block& b = *f->block;
    int n = std::snprintf(msg, sizeof msg,
                          "cass-cpu: invalid memory access at %p in kernel %s, block (%u,%u,%u), thread (%u,%u,%u)\n",
                          info->si_addr, b.launch->name, b.idx.x, b.idx.y, b.idx.z, f->tid.x, f->tid.y, f->tid.z);
    write_formatted(msg, n, sizeof msg);
  }
  // Not a stack overflow: the default action (the fault repeats when the handler returns).
  signal(SIGSEGV, SIG_DFL);
}

// The overflow report runs on an alternate signal stack (the fiber's own is exhausted), one per
// OS thread that runs fibers; the handler is installed once, unless the program has its own.
inline void watch_stack_overflow() {
  static const bool installed = [] {
    struct sigaction old;
    if (sigaction(SIGSEGV, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) return false;
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = &on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGSEGV, &sa, nullptr) == 0;
  }();
  if (!installed) return;
  constexpr std::size_t kAltStack = 64 * 1024;
  stack_t ss;
  std::memset(&ss, 0, sizeof ss);
  ss.ss_sp = std::malloc(kAltStack);
  ss.ss_size = kAltStack;
  if (ss.ss_sp != nullptr) sigaltstack(&ss, nullptr);
}

inline Worker& this_worker() {
  static thread_local Worker* w = nullptr;
  if (w == nullptr) {
    w = new Worker();
    t_stacks = &w->stacks;
    watch_stack_overflow();
    pthread_mutex_lock(&registry_mutex());
    w->next = worker_list();
    worker_list() = w;
    pthread_mutex_unlock(&registry_mutex());
  }
  return *w;
}

// Fibers, warps, stacks and the dynamic shared buffer for blocks of this launch; false when the
// stacks do not fit in the address space left (the worker then sits the launch out).
inline bool prepare(Worker& wk, const LaunchBase& L) {
  const unsigned n = L.block.x * L.block.y * L.block.z;
  const unsigned nwarps = (n + CASS_CPU_WARP_SIZE - 1) / CASS_CPU_WARP_SIZE;
  if (!wk.stacks.ensure(n, stack_bytes())) return false;
  if (wk.capacity < n) {
    delete[] wk.fibers;
    wk.fibers = new Fiber[n];
    wk.capacity = n;
  }
  if (wk.warp_capacity < nwarps) {
    delete[] wk.warps;
    wk.warps = new Warp[nwarps];
    wk.warp_capacity = nwarps;
  }
  // What does not change from block to block, set once per launch (the divisions cost more than
  // a barrier-free block's threads).
  const unsigned bx = L.block.x, by = L.block.y;
  for (unsigned i = 0; i < n; ++i) {
    Fiber& f = wk.fibers[i];
    f.tid = uint3{i % bx, (i / bx) % by, i / (bx * by)};
    f.lane = i % CASS_CPU_WARP_SIZE;
    f.warp = i / CASS_CPU_WARP_SIZE;
    f.block = &wk.block;
  }
  if (L.shmem > wk.dyn_capacity) {
    std::free(wk.dyn_shared);
    wk.dyn_shared = std::aligned_alloc(256, (L.shmem + 255) & ~std::size_t(255));
    wk.dyn_capacity = L.shmem;
  }
  return true;
}

[[noreturn]] inline void no_room_for_stacks(const LaunchBase& L) {
  const unsigned long long n = 1ull * L.block.x * L.block.y * L.block.z;
  const std::size_t stride = stack_bytes() + StackPool::kGuard;
  rlimit lim{};
  getrlimit(RLIMIT_AS, &lim);
  char limit[96] = "no limit";
  if (lim.rlim_cur != RLIM_INFINITY)
    std::snprintf(limit, sizeof limit, "%llu MiB", static_cast<unsigned long long>(lim.rlim_cur >> 20));
  char what[1024];
  std::snprintf(what, sizeof what,
                "kernel %s: the fiber stacks of a %llu-thread block need %llu MiB of address space (%zu KiB each, "
                "CASS_CPU_STACK_KB), more than the address-space limit leaves (%s; in verification "
                "cass.verification.limits.memoryMb): raise the limit or lower CASS_CPU_STACK_KB",
                L.name, n, n * stride >> 20, stack_bytes() / 1024, limit);
  cannot_run(what);
}

inline bool run_reversed() {
  static const bool reverse = [] {
    const char* s = std::getenv("CASS_CPU_ORDER");
    return s != nullptr && std::strcmp(s, "reverse") == 0;
  }();
  return reverse;
}

inline bool identifier_char(char c) { return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z'); }

// Whether this launch's blocks run reversed: all with CASS_CPU_ORDER=reverse, or only a kernel whose
// launch text (`k`, `ns::k<float>`, `HIP_KERNEL_NAME(k<T>)`) names CASS_CPU_ORDER_KERNEL as a word.
inline bool reversed_for(const char* launch_name) {
  if (!run_reversed()) return false;
  static const char* const only = std::getenv("CASS_CPU_ORDER_KERNEL");
  if (only == nullptr || *only == '\0') return true;
  const std::size_t len = std::strlen(only);
  for (const char* at = std::strstr(launch_name, only); at != nullptr; at = std::strstr(at + 1, only)) {
    bool starts = at == launch_name || !identifier_char(at[-1]);
    if (starts && !identifier_char(at[len])) return true;
  }
  return false;
}

// Lanes waiting in coalesced_threads() (coop.hpp) learn who joined them only when no thread of
// the block can run on: this releases them and says whether it did.
inline bool (*g_release_stalled)(Block&) = nullptr;

// The rest of a block whose thread yielded in the plain loop, as fibers switched at barriers.
inline void run_as_fibers(Worker& wk) {
  Block& b = wk.block;
  const unsigned n = b.n;
  // The thread that yielded keeps the plain loop's stack (stack 0), the threads after it in run
  // order get stacks 1, 2, ... Their tops are staggered by a cache line per fiber: page-aligned
  // tops would all map to the same L1 sets, and the switch touches every fiber's top in turn.
  for (unsigned p = position(b, t_fiber) + 1; p < n; ++p)
    ctx_init(thread_at(b, p).ctx, wk.stacks.stack(p), wk.stacks.size() - (p % 64) * 64, &fiber_main, &thread_at(b, p));
  while (b.live != 0 && !b.aborted) {
    bool ran = false;
    for (unsigned p = 0; p < n && !b.aborted; ++p) {
      Fiber& f = thread_at(b, p);
      if (f.state != State::Runnable) continue;
      t_fiber = &f;
      threadIdx = f.tid;
      CASS_CPU_COUNT(wk.stats.switches);
      ctx_switch(b.sched, f.ctx);
      ran = true;
    }
    if (!ran && !b.aborted && (g_release_stalled == nullptr || !g_release_stalled(b)))
      deadlock(b, nullptr, "no thread can make progress (threads wait at different barriers or collectives)");
  }
  CASS_CPU_COUNT(wk.stats.blocks);
}

// Blocks first..last-1 of the launch (this worker's share), one after another.
inline void run_blocks(Worker& wk, const LaunchBase& L, unsigned long long first, unsigned long long last) {
  Block& b = wk.block;
  b.fibers = wk.fibers;
  b.n = L.block.x * L.block.y * L.block.z;
  b.warps = wk.warps;
  b.nwarps = (b.n + CASS_CPU_WARP_SIZE - 1) / CASS_CPU_WARP_SIZE;
  b.reverse = L.reverse;
  b.launch = &L;
  b.worker = &wk;
  blockDim = L.block;
  gridDim = L.grid;
  t_dyn_shared = wk.dyn_shared;
  wk.next_block = first;
  wk.end_block = last;
  while (wk.next_block < wk.end_block) {
    t_settled = b.aborted = false;
    ctx_init(b.plain, wk.stacks.stack(0), wk.stacks.size(), L.run_plain, &wk);
    CASS_CPU_COUNT(wk.stats.switches);
    ctx_switch(b.sched, b.plain);
    if (!t_settled || b.aborted) break;  // the share ran to its end (or the kernel was aborted)
    run_as_fibers(wk);
    if (b.aborted) break;
  }
  t_fiber = nullptr;
}

// ---- the pool of OS threads that run blocks -------------------------------------------------------

struct Pool {
  pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
  pthread_cond_t done = PTHREAD_COND_INITIALIZER;
  unsigned started = 0;
  unsigned long generation = 0;
  const LaunchBase* job = nullptr;
  unsigned long long next = 0, total = 0;
  unsigned long long share = 1;  // blocks a worker takes at a time
  unsigned busy = 0;
};

inline Pool& pool() {
  static Pool p;
  return p;
}

// The cores this process may run on (its affinity mask, which a cgroup's cpuset also sets), or
// CASS_CPU_THREADS. Workers count against the process cap (RLIMIT_NPROC counts threads, and
// verification's sandbox sets it): at most half of it, so the program's own threads and children
// still fit; a worker that cannot be created is done without (the launching thread runs blocks too).
inline unsigned worker_count() {
  static const unsigned n = [] {
    long v = 0;
    if (const char* s = std::getenv("CASS_CPU_THREADS")) v = std::strtol(s, nullptr, 10);
    if (v <= 0) {
      cpu_set_t set;
      v = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
    }
    rlimit cap{};
    if (getrlimit(RLIMIT_NPROC, &cap) == 0 && cap.rlim_cur != RLIM_INFINITY && static_cast<rlim_t>(v) > cap.rlim_cur / 2)
      v = static_cast<long>(cap.rlim_cur / 2);
    return static_cast<unsigned>(v < 1 ? 1 : v > 64 ? 64 : v);
  }();
  return n;
}

inline void work(Worker& wk, const LaunchBase& L) {
  Pool& p = pool();
  for (;;) {
    if (__atomic_load_n(&g_sticky_error, __ATOMIC_ACQUIRE) != 0) break;  // the kernel was aborted
    unsigned long long first = __atomic_fetch_add(&p.next, p.share, __ATOMIC_RELAXED);
    if (first >= p.total) break;
    run_blocks(wk, L, first, first + p.share < p.total ? first + p.share : p.total);
  }
}

// Blocks are taken a share at a time: one atomic add and one switch into the plain loop per
// share, where one per block cost more than a small barrier-free block's threads. Sixteen shares
// per worker keep the workers' loads even (the last share is at most 1/16 of one's work).
inline unsigned long long share_of(unsigned long long total, unsigned workers) {
  const unsigned long long share = total / (16ull * workers);
  return share != 0 ? share : 1;
}

inline void* worker_main(void*) {
  Pool& p = pool();
  Worker& wk = this_worker();
  unsigned long seen = 0;
  for (;;) {
    pthread_mutex_lock(&p.mu);
    while (p.generation == seen) pthread_cond_wait(&p.wake, &p.mu);
    seen = p.generation;
    const LaunchBase* job = p.job;
    pthread_mutex_unlock(&p.mu);
    // A worker that cannot get stacks for this block size sits the launch out: the launching
    // thread has its own, so the kernel still runs, on fewer threads.
    if (prepare(wk, *job)) work(wk, *job);
    pthread_mutex_lock(&p.mu);
    if (--p.busy == 0) pthread_cond_signal(&p.done);
    pthread_mutex_unlock(&p.mu);
  }
  return nullptr;
}

// Launches from several host threads (one per device, or OpenMP) take turns: the pool runs one
// kernel at a time, and kernels run to completion at their launch anyway (streams are synchronous).
struct LaunchTurn {
  LaunchTurn() { pthread_mutex_lock(&mutex()); }
  ~LaunchTurn() { pthread_mutex_unlock(&mutex()); }
  static pthread_mutex_t& mutex() {
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    return mu;
  }
};

inline void execute(const LaunchBase& L) {
  LaunchTurn turn;
  Pool& p = pool();
  Worker& me = this_worker();
  if (!prepare(me, L)) no_room_for_stacks(L);
  const unsigned long long total = 1ull * L.grid.x * L.grid.y * L.grid.z;
  const unsigned threads = worker_count();
  if (threads <= 1 || total <= 1) {
    p.next = 0;
    p.total = p.share = total;
    work(me, L);
    return;
  }
  while (p.started + 1 < threads) {
    pthread_t t;
    if (pthread_create(&t, nullptr, &worker_main, nullptr) != 0) break;
    pthread_detach(t);
    ++p.started;
  }
  pthread_mutex_lock(&p.mu);
  p.job = &L;
  p.next = 0;
  p.total = total;
  p.share = share_of(total, p.started + 1);
  p.busy = p.started;
  ++p.generation;
  pthread_cond_broadcast(&p.wake);
  pthread_mutex_unlock(&p.mu);
  work(me, L);
  pthread_mutex_lock(&p.mu);
  while (p.busy != 0) pthread_cond_wait(&p.done, &p.mu);
  pthread_mutex_unlock(&p.mu);
}

// A cooperative launch (cudaLaunchCooperativeKernel): every block resident at once, for grid.sync().
inline void execute_cooperative(const LaunchBase& L);  // coop.hpp
// Stream capture (graph.hpp): work for a stream that is capturing becomes a node of its graph.
inline bool capturing(const void* stream);
inline void capture(const void* stream, std::function<void()> work);

template <class Body, class Params>
struct Launch : LaunchBase {
  using ParamsType = Params;
  Body* body;
  Params* params;
  // Each GPU thread calls the kernel with the launch's parameter values; the kernel's by-value
  // parameters make every thread's own copy, as a GPU's parameter buffer does.
  static void call(const Launch& L) { std::apply(*L.body, *L.params); }
  static void run(const LaunchBase* base) { call(*static_cast<const Launch*>(base)); }
};

constexpr int kInvalidConfiguration = 9;  // cudaErrorInvalidConfiguration

inline bool valid_config(const LaunchBase& L) {
  const unsigned long long threads = 1ull * L.block.x * L.block.y * L.block.z;
  return threads != 0 && threads <= CASS_CPU_MAX_BLOCK_THREADS && L.block.x <= 1024 && L.block.y <= 1024 &&
         L.block.z <= 64 && L.grid.x != 0 && L.grid.y != 0 && L.grid.z != 0 && L.grid.y <= 65535 &&
         L.grid.z <= 65535 && L.shmem <= CASS_CPU_SHARED_PER_BLOCK_OPTIN;
}

// What `kernel<<<grid, block, shmem, stream>>>(args)` becomes:
// launch(...)([&](auto&... a) { kernel(a...); }, args). The arguments are evaluated once, on the
// launching thread, as a GPU launch evaluates them; each GPU thread then calls the kernel with
// them, so parameter conversions are those of an ordinary call. Streams run synchronously.
struct Launcher {
  const char* name;
  dim3 grid, block;
  std::size_t shmem;
  const void* stream = nullptr;
  bool cooperative = false;

  template <class F, class... A>
  void operator()(F&& body, A&&... args) const {
    using Body = std::remove_reference_t<F>;
    using Params = std::tuple<std::decay_t<A>...>;
    Params params(std::forward<A>(args)...);
    if (stream != nullptr && capturing(stream)) {  // a graph node: launched again at each cudaGraphLaunch
      Launcher replay = *this;
      replay.stream = nullptr;
      capture(stream, [replay, body, params] { std::apply([&](const auto&... a) { replay(body, a...); }, params); });
      return;
    }
    Launch<Body, Params> L;
    L.run_thread = &Launch<Body, Params>::run;
    L.run_plain = &plain_loop<Launch<Body, Params>>;
    L.name = name;
    L.grid = grid;
    L.block = block;
    L.shmem = shmem;
    L.reverse = reversed_for(name);
    L.body = &body;
    L.params = &params;
    if (t_fiber != nullptr) cannot_run("kernel launch from device code (dynamic parallelism)");
    if (__atomic_load_n(&g_sticky_error, __ATOMIC_ACQUIRE) != 0) {
      t_last_error = g_sticky_error;  // a GPU whose kernel failed an assert launches nothing more
      return;
    }
    if (!valid_config(L)) {
      t_last_error = kInvalidConfiguration;
      return;
    }
    std::apply([&](const auto&... stored) { ::cass::record::launched(name, stored...); }, params);
    if (cooperative)
      execute_cooperative(L);
    else
      execute(L);
  }
};

#ifdef CASS_CPU_COUNT_BARRIERS
inline void print_stats() {
  Stats s{};
  pthread_mutex_lock(&registry_mutex());
  for (Worker* w = worker_list(); w != nullptr; w = w->next) {
    s.thread_barriers += w->stats.thread_barriers;
    s.block_barriers += w->stats.block_barriers;
    s.warp_collectives += w->stats.warp_collectives;
    s.switches += w->stats.switches;
    s.blocks += w->stats.blocks;
    s.plain_blocks += w->stats.plain_blocks;
  }
  pthread_mutex_unlock(&registry_mutex());
  std::fprintf(stderr,
               "cass-cpu-stats: fibers=%s workers=%u order=%s blocks=%llu plain_blocks=%llu barrier_crossings=%llu "
               "block_barriers=%llu warp_collectives=%llu switches=%llu\n",
               CASS_CPU_FIBER_KIND, worker_count(), run_reversed() ? "reverse" : "forward", s.blocks,
               s.plain_blocks, s.thread_barriers, s.block_barriers, s.warp_collectives, s.switches);
}
inline const int g_stats_registered = std::atexit(&print_stats);
#endif

// CASS_CPU_TIMEOUT=<seconds>: a watchdog for kernels that spin forever (which no barrier check sees).
inline void watchdog_fired(int) {
  static const char msg[] = "cass-cpu: timed out (CASS_CPU_TIMEOUT): a thread may spin waiting for another\n";
  ssize_t ignored = write(2, msg, sizeof msg - 1);
  (void)ignored;
  _exit(CASS_CPU_EXIT_TIMEOUT);
}

inline int install_watchdog() {
  const char* s = std::getenv("CASS_CPU_TIMEOUT");
  long seconds = s != nullptr ? std::strtol(s, nullptr, 10) : 0;
  if (seconds > 0) {
    signal(SIGALRM, &watchdog_fired);
    alarm(static_cast<unsigned>(seconds));
  }
  return 0;
}
inline const int g_watchdog_installed = install_watchdog();

}  // namespace detail

inline detail::Launcher launch(const char* name, dim3 grid, dim3 block, std::size_t shmem = 0,
                               const void* stream = nullptr) {
  return detail::Launcher{name, grid, block, shmem, stream};
}

inline void* dynamic_shared() { return detail::t_dyn_shared; }

// `NULL` as a launch argument (rewrite.py): the arguments are stored once per launch, and a stored
// long (g++'s NULL) would not convert to the kernel's pointer parameter as the literal does.
struct NullArgument {
  template <class T>
  operator T*() const { return nullptr; }
  operator long() const { return 0; }
};

// A file-scope `extern __shared__ T name[];` (rewrite.py) becomes a thread_local reference to this:
// the running block's buffer pointer, as a T* (T may be an array type: `T name[][32]` gives T[32]).
template <class T>
inline T*& dynamic_shared_as() {
  return *static_cast<T**>(static_cast<void*>(&detail::t_dyn_shared));
}

}  // namespace cass
