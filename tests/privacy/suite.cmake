# Privacy: Denpex contains no network code (README "Privacy"); this fails the day some does.
add_test(NAME privacy.no_network_code
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/check_no_network.sh $<TARGET_FILE:denpex> ${CMAKE_SOURCE_DIR})
add_executable(privacy_probe_net ${CMAKE_CURRENT_LIST_DIR}/probe_net.c)
add_test(NAME privacy.check_rejects_network_code
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/check_no_network.sh $<TARGET_FILE:privacy_probe_net> ${CMAKE_SOURCE_DIR})
set_tests_properties(privacy.check_rejects_network_code PROPERTIES WILL_FAIL TRUE)
