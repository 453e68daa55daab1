# The project's helpers: options with defaults, libraries and definitions gathered per model.
macro(register_flag_optional name description default)
  if(NOT DEFINED ${name})
    set(${name} "${default}" CACHE STRING "${description}")
  endif()
endmacro()

macro(register_flag_required name description)
  if(NOT DEFINED ${name})
    message(FATAL_ERROR "`${name}` is not set! (${description})")
  endif()
endmacro()

macro(register_link_library)
  list(APPEND LINK_LIBRARIES ${ARGN})
endmacro()

macro(register_definitions)
  list(APPEND MODEL_DEFINITIONS ${ARGN})
endmacro()

# CMake's release flags carry -O2/-O3 of their own; the benchmark sets its optimisation level itself.
macro(wipe_gcc_style_optimisation_flags variable)
  string(REGEX REPLACE "([\\/\\-]O.)" "" ${variable} ${${variable}})
endmacro()

function(add_model_executable name)
  add_executable(${name} ${ARGN})
endfunction()
