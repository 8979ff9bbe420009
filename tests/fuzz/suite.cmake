# libFuzzer targets (DENPEX_FUZZ=ON with clang: scripts/fuzz.sh). Each also runs as a test over its
# seed corpus and the regression inputs in tests/fuzz/regressions/<target>/, so every crash ever
# found stays fixed.
if(DENPEX_FUZZ)
  foreach(target lsp_session log_diagnose python_fix config_entry)
    add_executable(fuzz_${target} ${CMAKE_CURRENT_LIST_DIR}/fuzz_${target}.cpp)
    target_link_libraries(fuzz_${target} PRIVATE denpex_frontend)
    target_link_options(fuzz_${target} PRIVATE -fsanitize=fuzzer)
    file(MAKE_DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/regressions/${target})
    add_test(NAME fuzz.${target}.regressions
      COMMAND fuzz_${target} -runs=0 ${CMAKE_CURRENT_LIST_DIR}/regressions/${target})
  endforeach()
endif()
