// Error checking shared by the CUDA and HIP builds.
#pragma once
#include <cstdio>
#include <cstdlib>
#define CHECK(call)                                                                       \
  do {                                                                                    \
    auto status_ = (call);                                                                \
    if (status_ != 0) {                                                                   \
      std::fprintf(stderr, "%s:%d: error %d\n", __FILE__, __LINE__, static_cast<int>(status_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)
#define PREVIEW 16
