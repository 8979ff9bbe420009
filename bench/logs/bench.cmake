# Cross-check: every input diagnosed with and without the literal prefilter must give the same
# report (`cmake --build <dir> --target bench_prefilter_check`).
add_executable(bench_prefilter_check EXCLUDE_FROM_ALL ${CMAKE_CURRENT_LIST_DIR}/prefilter_check.cpp)
target_link_libraries(bench_prefilter_check PRIVATE denpex_features denpex_encyclopedia denpex_logs)
denpex_defaults(bench_prefilter_check)
