#include <vector>

#include "Triad.h"

class OMPTriad : public Triad {
 public:
  explicit OMPTriad(std::size_t n) : a_(n), b_(n), c_(n) {}
  void init(double a, double b, double c) override {
#pragma omp parallel for
    for (std::size_t i = 0; i < a_.size(); ++i) {
      a_[i] = a;
      b_[i] = b;
      c_[i] = c;
    }
  }
  void triad() override {
    const double scalar = TRIAD_SCALAR;
#pragma omp parallel for
    for (std::size_t i = 0; i < a_.size(); ++i) a_[i] = b_[i] + scalar * c_[i];
  }
  double checksum() override {
    double sum = 0.0;
    for (double v : a_) sum += v;
    return sum;
  }

 private:
  std::vector<double> a_, b_, c_;
};

Triad* make_triad(std::size_t n) { return new OMPTriad(n); }
