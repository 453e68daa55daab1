# Every benchmark program: its sources, all compiled by the CUDA compiler (host files too, so they
# share the device headers' types).
function(add_cuda_bench name)
  add_executable(${name} ${ARGN})
  set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CUDA)
  set_target_properties(${name} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
  # device debug builds with -G; fast math everywhere else
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>
                         $<$<CONFIG:Debug>:-G> $<$<NOT:$<CONFIG:Debug>>:--use_fast_math>)
endfunction()
