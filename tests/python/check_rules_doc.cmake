# Regenerates docs/rules.md into OUT and fails when it differs from the committed page.
# Regenerate with: denpex check --list-rules --output-format markdown > docs/rules.md
execute_process(COMMAND "${DENPEX}" check --list-rules --output-format markdown
                OUTPUT_FILE "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "denpex check --list-rules failed (${rc})")
endif()
file(READ "${OUT}" generated)
file(READ "${SRC}/docs/rules.md" committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "docs/rules.md is stale; run: denpex check --list-rules --output-format markdown > docs/rules.md")
endif()
