"""Build-file porting as data: CMake and Make files from CUDA to HIP (and back), the libraries they
link, and what building a ported project needs (for ``cass-lsp doctor``)."""
