# Every benchmark program: its sources, all compiled by the CUDA compiler (host files too, so they
# share the device headers' types).
function(add_cuda_bench name)
  add_executable(${name} ${ARGN})
  set_source_files_properties(${ARGN} PROPERTIES LANGUAGE HIP)

  # device debug builds with -G; fast math everywhere else
  target_compile_options(${name} PRIVATE "$<$<CONFIG:Debug>:-g;-O0>" $<$<NOT:$<CONFIG:Debug>>:-ffast-math>)
endfunction()
