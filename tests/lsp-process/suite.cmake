# `denpex lsp` as a process: it ends when its client does.
add_test(NAME lsp_process.exits_when_client_dies
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/client_death.sh $<TARGET_FILE:denpex>
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

# A 100 MB log in one didOpen: published within 60 s, peak RSS under 1 GiB, a clean exit. Release
# only (label no-sanitizer, which the ASan and TSan runs leave out): under a sanitizer the same run
# takes several times the time and memory it measures.
add_test(NAME lsp_process.opens_a_100mb_log
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/big_log.py $<TARGET_FILE:denpex> 100)
set_tests_properties(lsp_process.opens_a_100mb_log PROPERTIES LABELS no-sanitizer TIMEOUT 120)
