// Cooperative launches: every block of the grid resident at once, so grid.sync() is a real
// grid-wide barrier.
//
// Each block gets an OS thread of its own (a crew, kept from launch to launch), because a block's
// `__shared__` variables are that thread's thread_locals and its fibers live on that thread's
// worker; a block waiting at grid.sync() keeps them all. The blocks take turns: one runs at a time,
// in block order (last block first with CASS_CPU_ORDER=reverse, as the threads of a block run
// reversed then), and hands on at grid.sync() or at its end. So between two grid barriers block 0
// runs to the barrier before block 1 starts, in every run: a block that reads another's result
// without a grid.sync() between sees it unwritten in one of the two orders, as a missing
// __syncthreads shows within a block, and the run is as repeatable as a plain launch.
//
// The largest cooperative grid is what the device properties say fits (CUDA's rule): the occupancy
// calculator's blocks per multiprocessor times multiProcessorCount.
#pragma once
#include <pthread.h>
#include <vector>

#include "sched.hpp"

namespace cass {
namespace detail {

// cudaOccupancyMaxActiveBlocksPerMultiprocessor: 2048 threads per multiprocessor, at least one block.
inline int blocks_per_sm(int block_size) { return block_size > 0 ? (2048 / block_size > 0 ? 2048 / block_size : 1) : 0; }

inline unsigned long long cooperative_grid_limit(unsigned block_threads) {
  return 1ull * blocks_per_sm(static_cast<int>(block_threads)) * worker_count();
}

struct Crew {
  pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
  unsigned started = 0;
  unsigned long generation = 0;  // one per cooperative launch
  const LaunchBase* job = nullptr;
  unsigned total = 0;           // blocks of the launch, one per crew member 0..total-1
  unsigned turn = 0;            // the position (in run order) of the block that may run
  unsigned at_grid = 0;         // blocks waiting at grid.sync()
  unsigned finished = 0;        // blocks that ended
  std::vector<char> ended;      // by position
};

inline Crew& crew() {
  static Crew c;
  return c;
}

// The position, in run order, of the block this OS thread runs (set while it runs one).
inline thread_local unsigned t_grid_position = ~0u;

inline bool in_cooperative_launch() { return t_grid_position != ~0u; }

[[noreturn]] inline void grid_deadlock(const Crew& c) {
  std::fflush(stdout);
  std::fprintf(stderr,
               "cass-cpu: deadlock in kernel %s: %u blocks wait at grid.sync() while %u of the %u blocks of the "
               "grid exited (on a GPU this grid barrier never completes: every block must reach each grid.sync)\n",
               c.job->name, c.at_grid, c.finished, c.total);
  std::fflush(stderr);
  _exit(CASS_CPU_EXIT_DEADLOCK);
}

// With c.mu held: the turn goes to the next block in run order that has not ended.
inline void pass_turn(Crew& c, unsigned from) {
  for (unsigned step = 1; step <= c.total; ++step) {
    unsigned p = (from + step) % c.total;
    if (!c.ended[p]) {
      c.turn = p;
      break;
    }
  }
  pthread_cond_broadcast(&c.changed);
}

// With c.mu held: wait for this block's turn; a kernel another block aborted (assert, trap) ends here.
inline void wait_turn(Crew& c, unsigned me) {
  while (c.turn != me && __atomic_load_n(&g_sticky_error, __ATOMIC_ACQUIRE) == 0) pthread_cond_wait(&c.changed, &c.mu);
}

// grid.sync(), run by the last thread of this block to reach it, before it opens the block's
// barrier: the whole block waits at the grid barrier.
inline void grid_arrive() {
  Crew& c = crew();
  const unsigned me = t_grid_position;
  pthread_mutex_lock(&c.mu);
  if (++c.at_grid + c.finished == c.total) {
    if (c.finished != 0) grid_deadlock(c);
    c.at_grid = 0;
    c.turn = 0;  // the next phase starts again from the first block in run order
    pthread_cond_broadcast(&c.changed);
  } else {
    pass_turn(c, me);
  }
  wait_turn(c, me);
  pthread_mutex_unlock(&c.mu);
  if (int error = __atomic_load_n(&g_sticky_error, __ATOMIC_ACQUIRE)) abort_kernel(error);
}

inline void grid_sync() {
  if (!in_cooperative_launch())
    cannot_run("grid.sync() in a kernel not launched with cudaLaunchCooperativeKernel/hipLaunchCooperativeKernel "
               "(on a GPU that is undefined behaviour)");
  Block& b = *t_fiber->block;
  settle(b);  // t_fiber is exact from here on
#ifndef CASS_CPU_EXITED_THREADS_ARRIVE
  if (b.done != 0) deadlock(b, t_fiber, "grid.sync() reached after other threads of the block exited");
#endif
  if (b.at_barrier + 1 == b.live) grid_arrive();  // the last to arrive: the barrier below then opens at once
  block_barrier(0);
}

[[noreturn]] inline void no_room_for_grid(const LaunchBase& L, unsigned blocks) {
  const unsigned long long threads = 1ull * blocks * L.block.x * L.block.y * L.block.z;
  char what[512];
  std::snprintf(what, sizeof what,
                "kernel %s: a cooperative launch keeps all %u blocks resident, and the fiber stacks of their %llu "
                "threads need %llu MiB of address space (%zu KiB each, CASS_CPU_STACK_KB), more than the "
                "address-space limit leaves (in verification cass.verification.limits.memoryMb)",
                L.name, blocks, threads, threads * (stack_bytes() + StackPool::kGuard) >> 20, stack_bytes() / 1024);
  cannot_run(what);
}

inline void run_crew_block(Worker& wk, Crew& c, unsigned me) {
  const LaunchBase& L = *c.job;
  if (!prepare(wk, L)) no_room_for_grid(L, c.total);
  pthread_mutex_lock(&c.mu);
  wait_turn(c, me);
  pthread_mutex_unlock(&c.mu);
  if (__atomic_load_n(&g_sticky_error, __ATOMIC_ACQUIRE) == 0) {
    t_grid_position = me;
    const unsigned long long block = L.reverse ? c.total - 1 - me : me;
    run_blocks(wk, L, block, block + 1);
    t_grid_position = ~0u;
  }
  pthread_mutex_lock(&c.mu);
  c.ended[me] = 1;
  ++c.finished;
  if (c.at_grid != 0 && c.at_grid + c.finished == c.total && __atomic_load_n(&g_sticky_error, __ATOMIC_ACQUIRE) == 0)
    grid_deadlock(c);
  pass_turn(c, me);
  pthread_mutex_unlock(&c.mu);
}

struct CrewSeat {
  unsigned position;
};

inline void* crew_main(void* arg) {
  const unsigned me = static_cast<CrewSeat*>(arg)->position;
  delete static_cast<CrewSeat*>(arg);
  Crew& c = crew();
  Worker& wk = this_worker();
  unsigned long seen = 0;
  for (;;) {
    pthread_mutex_lock(&c.mu);
    while (c.generation == seen || me >= c.total) {
      seen = me >= c.total ? c.generation : seen;
      pthread_cond_wait(&c.changed, &c.mu);
    }
    seen = c.generation;
    pthread_mutex_unlock(&c.mu);
    run_crew_block(wk, c, me);
  }
  return nullptr;
}

inline void execute_cooperative(const LaunchBase& L) {
  LaunchTurn turn;
  Crew& c = crew();
  const unsigned long long total = 1ull * L.grid.x * L.grid.y * L.grid.z;
  pthread_mutex_lock(&c.mu);
  while (c.started < total) {
    pthread_t t;
    if (pthread_create(&t, nullptr, &crew_main, new CrewSeat{c.started}) != 0) {
      pthread_mutex_unlock(&c.mu);
      char what[256];
      std::snprintf(what, sizeof what,
                    "kernel %s: a cooperative launch of %llu blocks needs a thread per block, and only %u could "
                    "be started (the process limit on threads)",
                    L.name, total, c.started);
      cannot_run(what);
    }
    pthread_detach(t);
    ++c.started;
  }
  c.job = &L;
  c.total = static_cast<unsigned>(total);
  c.turn = 0;
  c.at_grid = c.finished = 0;
  c.ended.assign(total, 0);
  ++c.generation;
  pthread_cond_broadcast(&c.changed);
  while (c.finished != c.total) pthread_cond_wait(&c.changed, &c.mu);
  c.total = 0;
  pthread_mutex_unlock(&c.mu);
}

}  // namespace detail
}  // namespace cass
