#include "stream.h"
#include <cstdio>
#include <cstdlib>
#include <vector>
int main(int argc, char** argv) {
    std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : (1u << 25);
    std::vector<double> a(n), b(n, 1.0), c(n, 2.0);
    triad(a.data(), b.data(), c.data(), 3.0, n);
    double sum = 0;
    for (double x : a) sum += x;
    std::printf("n %zu sum %.1f\n", n, sum);
    return 0;
}
