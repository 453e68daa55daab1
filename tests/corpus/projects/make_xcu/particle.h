#pragma once
#include "vec3.h"

struct particle {
  vec3 position;
  vec3 velocity;
};

// Advances n particles by steps of dt on the device; returns the summed distance from the origin.
float advance(particle* host, int n, int steps, float dt);
