// Uses no CUDA at all, and includes no project header that does: it is left as it is.
#include "precision.h"
#include <cmath>
T norm(T a, T b) { return std::sqrt(a * a + b * b); }
