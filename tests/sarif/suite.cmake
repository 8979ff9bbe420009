# `denpex check --output-format sarif` must pass the reference SARIF validator (skipped when
# scripts/fetch-deps.sh --test-tools has not fetched it; scripts/test.sh does).
add_test(NAME sarif.reference_validator
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/validate_sarif.py $<TARGET_FILE:denpex>
          ${CMAKE_SOURCE_DIR}/tests/fixtures/python ${DENPEX_DEPS_DIR}/microsoft-sarif-multitool-linux-5.7.0)
set_tests_properties(sarif.reference_validator PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 400 LABELS no-sanitizer)
