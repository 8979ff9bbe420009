# `denpex lsp` as a process: it ends when its client does.
add_test(NAME lsp_process.exits_when_client_dies
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/client_death.sh $<TARGET_FILE:denpex>
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
