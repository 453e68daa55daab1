# rocprim over the headers cass-lsp setup fetched (see ../header-package.cmake)
include("${CMAKE_CURRENT_LIST_DIR}/../header-package.cmake")
cass_header_package(roc::rocprim)
