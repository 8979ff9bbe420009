# The python analyzer against real code, and the freshness of its generated rule reference.

# The Python standard library (668 files, no torch imports): checked without a crash and without a
# single finding. Exit 0 is "no findings"; a crash or a finding fails the test.
execute_process(COMMAND /usr/bin/python3 -c "import sysconfig;print(sysconfig.get_paths()['stdlib'])"
                OUTPUT_VARIABLE DENPEX_PY_STDLIB OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE stdlib_rc)
if(stdlib_rc EQUAL 0 AND IS_DIRECTORY "${DENPEX_PY_STDLIB}")
  add_test(NAME python.stdlib_check COMMAND denpex check --no-config ${DENPEX_PY_STDLIB})
  set_tests_properties(python.stdlib_check PROPERTIES TIMEOUT 60)
endif()

# docs/rules.md is generated from the rules' docs: a stale page fails here.
add_test(NAME docs.rules_fresh
  COMMAND ${CMAKE_COMMAND} -DDENPEX=$<TARGET_FILE:denpex> -DSRC=${CMAKE_SOURCE_DIR}
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/rules-check.md -P ${CMAKE_CURRENT_LIST_DIR}/check_rules_doc.cmake)

# The unit test that analyzes every stdlib file without the CLI's text prefilter.
if(stdlib_rc EQUAL 0 AND IS_DIRECTORY "${DENPEX_PY_STDLIB}")
  target_compile_definitions(denpex_unit_tests PRIVATE DENPEX_PY_STDLIB="${DENPEX_PY_STDLIB}")
else()
  target_compile_definitions(denpex_unit_tests PRIVATE DENPEX_PY_STDLIB="")
endif()
