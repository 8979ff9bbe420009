# The editor clients in the real editors, headless, against the built `denpex lsp`:
# Neovim 0.7+ (editors/neovim) and Emacs 28 + eglot (editors/emacs). tests/editors/run.sh skips
# (77) when an editor is missing on a developer machine and fails under CI=true.
foreach(editor neovim emacs)
  add_test(NAME editors.${editor}
    COMMAND /bin/sh ${CMAKE_CURRENT_LIST_DIR}/run.sh ${editor} $<TARGET_FILE:denpex>)
  set_tests_properties(editors.${editor} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180 LABELS "editors;no-sanitizer")
endforeach()
