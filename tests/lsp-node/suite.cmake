# `denpex lsp` driven through vscode-jsonrpc, the wire library VS Code uses (tests/lsp-node/lsp.test.mjs).
# Needs Node.js and `npm ci --prefix tests/lsp-node` (scripts/fetch-deps.sh --test-tools runs it;
# scripts/test.sh calls that). Without them the test is skipped (exit 77) on a developer machine,
# and fails under CI=true, where a skipped suite would hide that it never ran.
find_program(DENPEX_NODE NAMES node nodejs DOC "Node.js, for the vscode-jsonrpc LSP tests")
if(DENPEX_NODE)
  add_test(NAME lsp_node.vscode_jsonrpc
    COMMAND ${DENPEX_NODE} ${CMAKE_CURRENT_LIST_DIR}/lsp.test.mjs $<TARGET_FILE:denpex>)
else()
  add_test(NAME lsp_node.vscode_jsonrpc
    COMMAND /bin/sh -c [[
case "$CI" in [Tt][Rr][Uu][Ee]|1|[Yy][Ee][Ss])
  echo "FAIL: node (Node.js) was not found when CMake configured; under CI=true this suite must run, not skip: apt-get install nodejs npm, then scripts/fetch-deps.sh --test-tools and re-run cmake" >&2
  exit 1;;
esac
echo "SKIP: node (Node.js) was not found when CMake configured (apt-get install nodejs npm, then scripts/fetch-deps.sh --test-tools and re-run cmake)"
exit 77]])
endif()
set_tests_properties(lsp_node.vscode_jsonrpc PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
