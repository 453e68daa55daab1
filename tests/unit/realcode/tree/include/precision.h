// Precision switch shared by the host code and the kernels.
#ifndef PRECISION_H
#define PRECISION_H
#define T double
#define REAL_MAX 1.0e300
#endif
