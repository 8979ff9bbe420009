# tree-sitter runtime and Python grammar, from pinned and checksummed npm tarballs that
# scripts/fetch-deps.sh unpacks into .deps/ (git-ignored). The build fetches them when absent.
set(DENPEX_DEPS_DIR "${CMAKE_SOURCE_DIR}/.deps" CACHE PATH "Where the pinned npm tarballs are unpacked")
set(TS_RUNTIME_VERSION 0.25.1)
set(TS_PYTHON_VERSION 0.25.0)
set(TS_RUNTIME_DIR "${DENPEX_DEPS_DIR}/tree-sitter-${TS_RUNTIME_VERSION}/vendor/tree-sitter/lib")
set(TS_PYTHON_DIR "${DENPEX_DEPS_DIR}/tree-sitter-python-${TS_PYTHON_VERSION}/src")

if(NOT EXISTS "${TS_RUNTIME_DIR}/src/lib.c" OR NOT EXISTS "${TS_PYTHON_DIR}/parser.c")
  message(STATUS "Fetching pinned tree-sitter tarballs into ${DENPEX_DEPS_DIR}")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env DENPEX_DEPS_DIR=${DENPEX_DEPS_DIR}
            ${CMAKE_SOURCE_DIR}/scripts/fetch-deps.sh
    RESULT_VARIABLE fetch_result)
  if(NOT fetch_result EQUAL 0)
    message(FATAL_ERROR "Could not fetch the pinned tree-sitter tarballs (see above); run scripts/fetch-deps.sh")
  endif()
endif()

add_library(tree_sitter_runtime STATIC "${TS_RUNTIME_DIR}/src/lib.c")
target_include_directories(tree_sitter_runtime SYSTEM PUBLIC "${TS_RUNTIME_DIR}/include")
target_include_directories(tree_sitter_runtime PRIVATE "${TS_RUNTIME_DIR}/src")
target_compile_definitions(tree_sitter_runtime PRIVATE _POSIX_C_SOURCE=200112L _DEFAULT_SOURCE)
set_target_properties(tree_sitter_runtime PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)

add_library(tree_sitter_python STATIC "${TS_PYTHON_DIR}/parser.c" "${TS_PYTHON_DIR}/scanner.c")
target_include_directories(tree_sitter_python PRIVATE "${TS_PYTHON_DIR}")
set_target_properties(tree_sitter_python PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_link_libraries(tree_sitter_python PUBLIC tree_sitter_runtime)
# The grammar is generated code: optimise it even in Debug so the sanitizer build stays quick.
target_compile_options(tree_sitter_python PRIVATE -O2)
target_compile_definitions(tree_sitter_python PUBLIC
  DENPEX_TS_RUNTIME_VERSION="${TS_RUNTIME_VERSION}" DENPEX_TS_PYTHON_VERSION="${TS_PYTHON_VERSION}")
