"""Background verification: a CUDA original and its HIP translation compiled (and, when allowed, run
and compared), each stage a job of the job layer; see DESIGN.md."""
