-- The plugin's code paths for newer Neovims, checked on the Neovim 0.7.2 these machines have by
-- providing the newer API the plugin detects (DENPEX_COMPAT=start: a vim.lsp.start built from
-- 0.7's start_client + buf_attach_client, so the whole flow runs against the real server;
-- DENPEX_COMPAT=config: vim.lsp.config/vim.lsp.enable that record their calls). This checks the
-- feature detection and what the plugin hands to each API, not Neovim's own implementation.
local bin = assert(os.getenv("DENPEX_BIN"), "DENPEX_BIN")
local plugin = assert(os.getenv("DENPEX_PLUGIN"), "DENPEX_PLUGIN")
local work = assert(os.getenv("DENPEX_WORK"), "DENPEX_WORK")
local mode = assert(os.getenv("DENPEX_COMPAT"), "DENPEX_COMPAT")
local failures = 0
local function check(cond, what, detail)
  io.stdout:write((cond and "ok   " or "FAIL ") .. what .. ((not cond and detail) and (": " .. tostring(detail)) or "") .. "\n")
  if not cond then
    failures = failures + 1
  end
end
vim.opt.rtp:prepend(plugin)
vim.o.swapfile = false
vim.cmd("cd " .. vim.fn.fnameescape(work))

local ok, err = pcall(function()
  if mode == "start" then
    check(vim.lsp.start == nil and vim.lsp.config == nil, "this Neovim has neither vim.lsp.start nor vim.lsp.config")
    local calls, by_key = {}, {}
    vim.lsp.start = function(config, opts)
      table.insert(calls, { config = config, opts = opts })
      local key = config.name .. "\0" .. config.root_dir
      local id = by_key[key]
      if not id then
        id = vim.lsp.start_client(config)
        by_key[key] = id
      end
      vim.lsp.buf_attach_client(opts and opts.bufnr or 0, id)
      return id
    end
    local denpex = require("denpex")
    denpex.setup({ cmd = { bin, "lsp" }, ignore = { "DPX013" } })
    check(denpex.mode == "start", "setup() picks vim.lsp.start", denpex.mode)
    vim.cmd("edit " .. vim.fn.fnameescape(work .. "/compat.py"))
    local py = vim.api.nvim_get_current_buf()
    check(#calls == 1, "one vim.lsp.start call for the Python buffer", #calls)
    local c = calls[1]
    check(c and c.opts and c.opts.bufnr == py, "called with opts.bufnr = the buffer", c and vim.inspect(c.opts))
    check(c and c.config.name == "denpex", "config.name = denpex")
    check(c and c.config.cmd[1] == bin and c.config.cmd[2] == "lsp", "config.cmd = { bin, 'lsp' }")
    check(c and vim.loop.fs_realpath(c.config.root_dir) == vim.loop.fs_realpath(work), "config.root_dir = the file's directory (no markers)",
      c and c.config.root_dir)
    check(c and c.config.init_options.ignore[1] == "DPX013", "init_options carry ignore", c and vim.inspect(c.config.init_options))
    check(c and c.config.settings.denpex.ignore[1] == "DPX013", "settings.denpex carry ignore")
    local caps = c and c.config.capabilities.textDocument.codeAction
    check(caps and caps.resolveSupport == nil and caps.dataSupport == true, "capabilities: no codeAction.resolveSupport")
    local got = vim.wait(20000, function() return #vim.diagnostic.get(py) >= 2 end, 50)
    check(got, "the server started this way publishes the two findings")
    vim.cmd("edit " .. vim.fn.fnameescape(work .. "/train.log"))
    check(#calls == 2 and calls[2].opts.bufnr == vim.api.nvim_get_current_buf(), "the log buffer gets its own vim.lsp.start call")
    local ids = {}
    for _, cl in ipairs(vim.lsp.get_active_clients()) do
      if cl.name == "denpex" then table.insert(ids, cl.id) end
    end
    check(#ids == 1, "both buffers share one client (same name and root)", #ids)
  elseif mode == "config" then
    local configured, enabled = {}, {}
    vim.lsp.config = setmetatable({}, {
      __call = function(_, name, cfg)
        configured[name] = cfg
      end,
    })
    vim.lsp.enable = function(name)
      table.insert(enabled, name)
    end
    local denpex = require("denpex")
    denpex.setup({ cmd = { bin, "lsp" }, select = { "DPX00" }, log_globs = { "*.log" } })
    check(denpex.mode == "config", "setup() picks vim.lsp.config/enable", denpex.mode)
    local cfg = configured.denpex
    check(cfg ~= nil, "vim.lsp.config('denpex', ...) called")
    check(cfg and cfg.cmd[1] == bin, "with cmd")
    check(cfg and vim.deep_equal(cfg.filetypes, { "python", "log" }), "with filetypes python, log", cfg and vim.inspect(cfg.filetypes))
    check(cfg and cfg.root_markers[1] == "pyproject.toml", "with root_markers")
    check(cfg and cfg.init_options.select[1] == "DPX00", "with init_options.select", cfg and vim.inspect(cfg.init_options))
    check(vim.deep_equal(enabled, { "denpex" }), "vim.lsp.enable('denpex') called", vim.inspect(enabled))
    check(vim.fn.exists(":DenpexDiagnose") == 2, "the commands exist on this path too")
    local files = vim.api.nvim_get_runtime_file("lsp/denpex.lua", true)
    check(#files == 1, "lsp/denpex.lua is on 'runtimepath' for vim.lsp.enable", vim.inspect(files))
    local defaults = files[1] and dofile(files[1])
    check(defaults and vim.deep_equal(defaults.cmd, { "denpex", "lsp" }) and vim.deep_equal(defaults.filetypes, { "python", "log" }),
      "lsp/denpex.lua returns cmd and filetypes", vim.inspect(defaults))
  else
    error("DENPEX_COMPAT must be start or config")
  end
end)
check(ok, "compat test (" .. mode .. ") ran to the end", tostring(err))
io.stdout:write(failures == 0 and ("neovim compat %s: all checks passed\n"):format(mode) or ("neovim compat %s: %d failed\n"):format(mode, failures))
vim.cmd(failures == 0 and "qall!" or "cquit 1")
