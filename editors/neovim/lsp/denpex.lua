-- Neovim 0.11+: `vim.lsp.enable("denpex")` finds this file on 'runtimepath'.
-- require("denpex").setup(opts) merges its options over these defaults.
return {
  cmd = { "denpex", "lsp" },
  filetypes = { "python", "log" },
  root_markers = { "pyproject.toml", "setup.py", "setup.cfg", ".git" },
}
