#pragma once
#include <cstddef>

struct Summary {
  double mean;
  double variance;
  float min;
  float max;
};

// Draws n uniform samples on the device with the given seed and summarises them.
Summary summarise_uniform(std::size_t n, unsigned long long seed);
void print_summary(const char* label, const Summary& s);
