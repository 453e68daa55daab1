# A header-only HIP library package over the headers cass-lsp setup fetched (Debian 12 packages
# neither rocThrust nor hipCUB, nor the rocPRIM they need): hip-debian.cmake points <name>_DIR here.
function(cass_header_package target)
  if(NOT CASS_HIP_LIBRARY_HEADERS OR NOT EXISTS "${CASS_HIP_LIBRARY_HEADERS}")
    set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE PARENT_SCOPE)
    set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE
        "no HIP library headers in CASS_HIP_LIBRARY_HEADERS: run cass-lsp setup --only hip-libs" PARENT_SCOPE)
    return()
  endif()
  if(NOT TARGET ${target})
    add_library(${target} INTERFACE IMPORTED)
    set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${CASS_HIP_LIBRARY_HEADERS}")
  endif()
endfunction()
