# Privacy: Denpex contains no network code (README "Privacy"); this fails the day some does.
add_test(NAME privacy.no_network_code
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/check_no_network.sh $<TARGET_FILE:denpex> ${CMAKE_SOURCE_DIR})
add_executable(privacy_probe_net ${CMAKE_CURRENT_LIST_DIR}/probe_net.c)
add_test(NAME privacy.check_rejects_network_code
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/check_no_network.sh $<TARGET_FILE:privacy_probe_net> ${CMAKE_SOURCE_DIR})
set_tests_properties(privacy.check_rejects_network_code PROPERTIES WILL_FAIL TRUE)
# The same promise at run time: every mode (the language server with a scripted session included)
# under `strace -f -e trace=network`; and the check fails on a binary that opens a socket.
add_test(NAME privacy.no_network_calls_at_run_time
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/strace_modes.sh $<TARGET_FILE:denpex> ${CMAKE_SOURCE_DIR})
add_test(NAME privacy.run_time_check_rejects_network_calls
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/strace_modes.sh $<TARGET_FILE:denpex> ${CMAKE_SOURCE_DIR}
          ${CMAKE_CURRENT_LIST_DIR}/net_probe_wrapper.sh)
set_tests_properties(privacy.no_network_calls_at_run_time privacy.run_time_check_rejects_network_calls
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
set_tests_properties(privacy.run_time_check_rejects_network_calls PROPERTIES WILL_FAIL TRUE)
