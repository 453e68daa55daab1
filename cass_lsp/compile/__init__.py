"""Layer 2: compile commands, include paths, scratch programs, nvcc flag translation and programs (the units that link into one executable)."""
