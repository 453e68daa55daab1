# Every benchmark program: its sources, all compiled by the CUDA compiler (host files too, so they
# share the device headers' types).
function(add_cuda_bench name)
  add_executable(${name} ${ARGN})
  set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CUDA)
  set_target_properties(${name} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
endfunction()
