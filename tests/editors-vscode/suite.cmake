# The VS Code extension (editors/vscode): its unit tests (`npm test`) and the five scenarios in real
# VS Code (code-server 4.139.1 + Debian's Chromium + playwright-core), with the .vsix built around
# this build's denpex. Tools: scripts/fetch-deps.sh --test-tools (tests/editors-vscode/fetch-tools.sh)
# and apt's chromium. Without them the tests skip (77) on a developer machine and fail under CI=true.
# Not under the sanitizers (the .vsix would carry an instrumented binary): label no-sanitizer.
add_test(NAME editors_vscode.unit COMMAND ${CMAKE_CURRENT_LIST_DIR}/run.sh unit $<TARGET_FILE:denpex>)
add_test(NAME editors_vscode.real_vscode COMMAND ${CMAKE_CURRENT_LIST_DIR}/run.sh vscode $<TARGET_FILE:denpex>)
set_tests_properties(editors_vscode.unit PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "editors;no-sanitizer")
set_tests_properties(editors_vscode.real_vscode PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 PROCESSORS 2
                     LABELS "editors;no-sanitizer")
