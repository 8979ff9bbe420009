-- Denpex for Neovim: a thin client over `denpex lsp`. Everything smart (diagnostics, hover, quick
-- fixes, the log diagnosis) lives in the server; this file starts it, attaches it to Python and log
-- buffers, and shows the report of `denpex.diagnose` in a float.
--
-- Works on Neovim 0.7 (vim.lsp.start_client + buf_attach_client), 0.8-0.10 (vim.lsp.start) and
-- 0.11+ (vim.lsp.config / vim.lsp.enable, with lsp/denpex.lua), chosen by feature detection.
local M = {}

local defaults = {
  cmd = { "denpex", "lsp" },
  signatures = {}, -- extra encyclopedia directories (the server's `signatureDirs`)
  select = {},
  ignore = {},
  log_globs = { "*.log", "*.out", "*.err" },
  docs_url = "",
  filetypes = { "python", "log" },
  root_markers = { "pyproject.toml", "setup.py", "setup.cfg", ".git" },
}

M.config = vim.deepcopy(defaults)
M.name = "denpex"

local function list(v)
  if v == nil then
    return {}
  end
  if type(v) == "string" then
    return { v }
  end
  return v
end

--- The server's settings (docs/lsp.md, "Configuration"), from the plugin's options. Empty lists
--- are left out: an empty Lua table would go over the wire as a JSON object, not an array.
function M.settings(cfg)
  cfg = cfg or M.config
  local s = {}
  local function put(key, v)
    v = list(v)
    if #v > 0 then
      s[key] = v
    end
  end
  put("select", cfg.select)
  put("ignore", cfg.ignore)
  put("signatureDirs", cfg.signatures)
  put("logGlobs", cfg.log_globs)
  if cfg.docs_url and cfg.docs_url ~= "" then
    s.docsUrl = cfg.docs_url
  end
  return s
end

local function root_dir(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local start = name ~= "" and vim.fn.fnamemodify(name, ":p:h") or vim.fn.getcwd()
  if vim.fs and vim.fs.find then
    local found = vim.fs.find(M.config.root_markers, { path = start, upward = true })[1]
    if found then
      return vim.fn.fnamemodify(found, ":h")
    end
    return start
  end
  -- Neovim 0.7 has no vim.fs: walk up by hand.
  local dir = start
  while dir and dir ~= "" do
    for _, marker in ipairs(M.config.root_markers) do
      if vim.loop.fs_stat(dir .. "/" .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then
      break
    end
    dir = parent
  end
  return start
end

-- Client capabilities without codeAction.resolveSupport: Neovim resolves every code action that
-- has no edit when the server offers codeAction/resolve, and denpex lsp (0.1.0) answers that
-- request for its command actions (Explain, Copy verify command) with InvalidParams
-- ("params.data: missing (not an action of this server)"). Without resolveSupport the server sends
-- the fixes' edits inline and never advertises resolve, so every action works.
function M.capabilities(extra)
  local caps = vim.lsp.protocol.make_client_capabilities()
  if extra then
    caps = vim.tbl_deep_extend("force", caps, extra)
  end
  local ca = caps.textDocument and caps.textDocument.codeAction
  if ca then
    ca.resolveSupport = nil
  end
  return caps
end

--- The client configuration handed to Neovim (any version).
function M.client_config(bufnr)
  local s = M.settings()
  local root = root_dir(bufnr or 0)
  return {
    name = M.name,
    cmd = vim.deepcopy(M.config.cmd),
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = s,
    settings = { denpex = s },
    filetypes = M.config.filetypes,
    on_attach = M.config.on_attach,
    capabilities = M.capabilities(M.config.capabilities),
  }
end

-- Neovim 0.7: one client per root directory, started once and attached to each buffer.
local clients_by_root = {}

local function attach_07(bufnr)
  local cfg = M.client_config(bufnr)
  local id = clients_by_root[cfg.root_dir]
  if not id or not vim.lsp.get_client_by_id(id) or vim.lsp.get_client_by_id(id).is_stopped() then
    id = vim.lsp.start_client(cfg)
    if not id then
      vim.notify("denpex: could not start " .. table.concat(cfg.cmd, " "), vim.log.levels.ERROR)
      return nil
    end
    clients_by_root[cfg.root_dir] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- Attach the server to a buffer (what the FileType autocommand calls on Neovim < 0.11).
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.lsp.start then
    return vim.lsp.start(M.client_config(bufnr), { bufnr = bufnr })
  end
  return attach_07(bufnr)
end

-- 0.11 made client methods colon calls (client:request_sync); before, they were plain fields.
local function colon_methods()
  return vim.fn.has("nvim-0.11") == 1
end

--- The running denpex client for a buffer, or any running denpex client.
function M.client(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  for _, c in ipairs(get({ bufnr = bufnr, name = M.name }) or {}) do
    -- 0.7 ignores the filter and returns every client: check name and buffer again.
    if c.name == M.name and vim.lsp.buf_is_attached(bufnr, c.id) then
      return c, true
    end
  end
  -- 0.7's get_active_clients ignores filters: check by hand.
  for _, c in ipairs(get() or {}) do
    if c.name == M.name then
      return c, vim.lsp.buf_is_attached(bufnr, c.id)
    end
  end
  return nil, false
end

-- A client for buffers the server does not analyse (a terminal, a scratch buffer): start one if
-- none runs, and wait (bounded) for it to be initialised.
local function ensure_client(bufnr)
  local c, attached = M.client(bufnr)
  if c then
    return c, attached
  end
  local cfg = M.client_config(bufnr)
  local id
  if vim.fn.has("nvim-0.11") == 1 then
    id = vim.lsp.start(cfg, { attach = false }) -- start_client is deprecated there
  else
    id = vim.lsp.start_client(cfg)
  end
  if not id then
    return nil, false
  end
  vim.wait(10000, function()
    local cl = vim.lsp.get_client_by_id(id)
    return cl ~= nil and cl.initialized
  end, 20)
  return vim.lsp.get_client_by_id(id), false
end

local function request_sync(client, method, params, bufnr, timeout)
  if colon_methods() then
    local res = client:request_sync(method, params, timeout or 15000, bufnr)
    if not res then
      return nil, "timeout"
    end
    return res.result, res.err
  end
  local res = client.request_sync(method, params, timeout or 15000, bufnr)
  if not res then
    return nil, "timeout"
  end
  return res.result, res.err
end

local function utf16_len(line)
  local ok, _, u16 = pcall(vim.str_utfindex, line)
  if ok and u16 then
    return u16
  end
  return #line
end

-- The float of the last report (tests read it).
M.last_report = nil

--- Show a report (Markdown) in a floating window: `q` closes it, `y` yanks the verify command.
function M.show_report(markdown, verify)
  local lines = vim.split(markdown or "", "\n", { plain = true })
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].filetype = "markdown"
  vim.bo[buf].modifiable = false
  vim.bo[buf].bufhidden = "wipe"
  pcall(vim.api.nvim_buf_set_name, buf, "denpex://report/" .. buf)
  local width = math.max(40, math.min(110, vim.o.columns - 4))
  local height = math.max(5, math.min(#lines, vim.o.lines - 6))
  local win = vim.api.nvim_open_win(buf, true, {
    relative = "editor",
    width = width,
    height = height,
    row = math.floor((vim.o.lines - height) / 2) - 1,
    col = math.floor((vim.o.columns - width) / 2),
    style = "minimal",
    border = "rounded",
  })
  vim.wo[win].wrap = true
  vim.wo[win].conceallevel = 2
  local opts = { buffer = buf, nowait = true, silent = true }
  vim.keymap.set("n", "q", function()
    if vim.api.nvim_win_is_valid(win) then
      vim.api.nvim_win_close(win, true)
    end
  end, opts)
  vim.keymap.set("n", "y", function()
    if verify and verify ~= "" then
      vim.fn.setreg('"', verify)
      if vim.fn.has("clipboard") == 1 then
        pcall(vim.fn.setreg, "+", verify)
      end
      vim.notify("denpex: verify command yanked: " .. verify)
    else
      vim.notify("denpex: this report has no verify command", vim.log.levels.WARN)
    end
  end, opts)
  M.last_report = { buf = buf, win = win, markdown = markdown, verify = verify }
  return buf, win
end

local function run_diagnose(client, args, bufnr)
  local result, err = request_sync(client, "workspace/executeCommand", {
    command = "denpex.diagnose",
    arguments = { args },
  }, bufnr)
  if err then
    vim.notify("denpex.diagnose failed: " .. vim.inspect(err), vim.log.levels.ERROR)
    return nil
  end
  if type(result) ~= "table" then
    vim.notify("denpex.diagnose: no result", vim.log.levels.ERROR)
    return nil
  end
  local verify = nil
  local d = result.diagnoses and result.diagnoses[1]
  if type(d) == "table" and type(d.verify) == "string" then
    verify = d.verify
  end
  return M.show_report(result.markdown or "", verify)
end

--- :DenpexDiagnose: diagnose lines line1..line2 (1-based, inclusive) of a buffer, or all of it.
function M.diagnose(bufnr, line1, line2)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client, attached = ensure_client(bufnr)
  if not client then
    vim.notify("denpex: no language server", vim.log.levels.ERROR)
    return nil
  end
  local n = vim.api.nvim_buf_line_count(bufnr)
  line1 = line1 or 1
  line2 = line2 or n
  local args
  if attached then
    local last = vim.api.nvim_buf_get_lines(bufnr, line2 - 1, line2, false)[1] or ""
    args = {
      uri = vim.uri_from_bufnr(bufnr),
      range = {
        start = { line = line1 - 1, character = 0 },
        ["end"] = { line = line2 - 1, character = utf16_len(last) },
      },
    }
  else
    local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, line1 - 1, line2, false), "\n")
    args = { text = text .. "\n" }
  end
  return run_diagnose(client, args, bufnr)
end

--- :DenpexDiagnoseTerminal: the selection (a range) or the whole scrollback of a :terminal buffer.
function M.diagnose_terminal(bufnr, line1, line2, has_range)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.bo[bufnr].buftype ~= "terminal" then
    -- The current buffer is not a terminal: use the most recent terminal buffer.
    local term = nil
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) and vim.bo[b].buftype == "terminal" then
        term = b
      end
    end
    if not term then
      vim.notify("denpex: no :terminal buffer", vim.log.levels.ERROR)
      return nil
    end
    bufnr, has_range = term, false
  end
  local lines
  if has_range then
    lines = vim.api.nvim_buf_get_lines(bufnr, line1 - 1, line2, false)
  else
    lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  end
  -- Trailing empty rows of the terminal grid are not output.
  while #lines > 0 and lines[#lines]:match("^%s*$") do
    table.remove(lines)
  end
  local client = ensure_client(bufnr)
  if not client then
    vim.notify("denpex: no language server", vim.log.levels.ERROR)
    return nil
  end
  return run_diagnose(client, { text = table.concat(lines, "\n") .. "\n" }, bufnr)
end

--- Ids for :DenpexExplain completion: encyclopedia entries and rule codes, from the binary.
local id_cache = nil
function M.ids()
  if id_cache then
    return id_cache
  end
  local bin = M.config.cmd[1]
  local ids = {}
  local ok, out = pcall(vim.fn.system, { bin, "signatures", "list", "--format", "json" })
  if ok and vim.v.shell_error == 0 then
    local dok, data = pcall(vim.fn.json_decode, out)
    if dok and type(data) == "table" then
      for _, e in ipairs(data) do
        if type(e) == "table" and e.id then
          table.insert(ids, e.id)
        end
      end
    end
  end
  ok, out = pcall(vim.fn.system, { bin, "check", "--list-rules", "--output-format", "json" })
  if ok and vim.v.shell_error == 0 then
    local dok, data = pcall(vim.fn.json_decode, out)
    if dok and type(data) == "table" then
      for _, r in ipairs(data.rules or data) do
        if type(r) == "table" and r.code then
          table.insert(ids, r.code)
        end
      end
    end
  end
  table.sort(ids)
  id_cache = ids
  return ids
end

function M.complete_ids(arglead)
  local out = {}
  for _, id in ipairs(M.ids()) do
    if id:lower():sub(1, #arglead) == arglead:lower() then
      table.insert(out, id)
    end
  end
  return out
end

--- :DenpexExplain {id}: the entry's or rule's page, from the server, in a float.
function M.explain(id)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = ensure_client(bufnr)
  if not client then
    vim.notify("denpex: no language server", vim.log.levels.ERROR)
    return nil
  end
  local result, err = request_sync(client, "workspace/executeCommand", {
    command = "denpex.explain",
    arguments = { { id = id } },
  }, bufnr)
  if err or type(result) ~= "string" then
    vim.notify("denpex.explain " .. id .. ": " .. vim.inspect(err or result), vim.log.levels.ERROR)
    return nil
  end
  local verify = nil
  local vres = request_sync(client, "workspace/executeCommand", {
    command = "denpex.copyVerifyCommand",
    arguments = { { id = id } },
  }, bufnr)
  if type(vres) == "string" then
    verify = vres
  end
  return M.show_report(result, verify)
end

-- The server's own commands, run from a code action (Explain, Copy verify command): Neovim < 0.11
-- asks the server with workspace/executeCommand only when no client-side handler exists, and the
-- reply (a string) would be dropped. Show it instead.
local function register_client_commands()
  local cmds = vim.lsp.commands
  if not cmds then
    return
  end
  cmds["denpex.explain"] = function(command)
    local arg = command.arguments and command.arguments[1] or {}
    M.explain(arg.id)
  end
  cmds["denpex.copyVerifyCommand"] = function(command, ctx)
    local client = vim.lsp.get_client_by_id(ctx.client_id)
    if not client then
      return
    end
    local result = request_sync(client, "workspace/executeCommand", command, ctx.bufnr)
    if type(result) == "string" then
      vim.fn.setreg('"', result)
      if vim.fn.has("clipboard") == 1 then
        pcall(vim.fn.setreg, "+", result)
      end
      vim.notify("denpex: verify command yanked: " .. result)
    end
  end
end

--- The `log` filetype for *.log, *.out, *.err and slurm-*.out when nothing else claimed the file.
local function register_log_filetype()
  local group = vim.api.nvim_create_augroup("denpex_log_filetype", { clear = true })
  local patterns = {}
  for _, g in ipairs(list(M.config.log_globs)) do
    table.insert(patterns, g)
  end
  table.insert(patterns, "slurm-*.out")
  vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
    group = group,
    pattern = patterns,
    callback = function(args)
      if vim.bo[args.buf].filetype == "" then
        vim.bo[args.buf].filetype = "log"
      end
    end,
  })
end

local function register_commands()
  vim.api.nvim_create_user_command("DenpexDiagnose", function(o)
    if o.range > 0 then
      M.diagnose(0, o.line1, o.line2)
    else
      M.diagnose(0)
    end
  end, { range = true, desc = "Diagnose the selection (or the whole buffer) with denpex" })
  vim.api.nvim_create_user_command("DenpexDiagnoseTerminal", function(o)
    M.diagnose_terminal(0, o.line1, o.line2, o.range > 0)
  end, { range = true, desc = "Diagnose the :terminal selection or scrollback with denpex" })
  vim.api.nvim_create_user_command("DenpexExplain", function(o)
    M.explain(o.args)
  end, {
    nargs = 1,
    complete = function(arglead)
      return M.complete_ids(arglead)
    end,
    desc = "Show a denpex encyclopedia entry or rule",
  })
  vim.api.nvim_create_user_command("DenpexCheckWorkspace", function()
    local client = ensure_client(vim.api.nvim_get_current_buf())
    if not client then
      return
    end
    local result = request_sync(client, "workspace/executeCommand", { command = "denpex.checkWorkspace" }, 0, 120000)
    if type(result) == "table" then
      vim.notify(("denpex: %d files, %d findings"):format(result.files or 0, result.findings or 0))
    end
  end, { desc = "Check every Python file of the workspace with denpex" })
end

--- setup(opts): options are cmd, signatures, select, ignore, log_globs, docs_url, filetypes,
--- root_markers, on_attach, capabilities.
function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  -- Lists replace, not merge.
  for _, k in ipairs({ "cmd", "signatures", "select", "ignore", "log_globs", "filetypes", "root_markers" }) do
    if opts and opts[k] ~= nil then
      M.config[k] = list(opts[k])
    end
  end
  id_cache = nil
  register_log_filetype()
  register_commands()
  register_client_commands()

  if vim.lsp.config and vim.lsp.enable then
    -- 0.11+: lsp/denpex.lua holds the defaults; merge the options over them.
    local cfg = M.client_config(0)
    vim.lsp.config(M.name, {
      cmd = cfg.cmd,
      filetypes = M.config.filetypes,
      root_markers = M.config.root_markers,
      init_options = cfg.init_options,
      settings = cfg.settings,
      on_attach = M.config.on_attach,
      capabilities = cfg.capabilities,
    })
    vim.lsp.enable(M.name)
    M.mode = "config"
    return M
  end

  M.mode = vim.lsp.start and "start" or "start_client"
  local group = vim.api.nvim_create_augroup("denpex_attach", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args)
      if vim.bo[args.buf].buftype == "" then
        M.attach(args.buf)
      end
    end,
  })
  -- Buffers already open when setup() runs.
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(M.config.filetypes, vim.bo[b].filetype)
      and vim.bo[b].buftype == "" then
      M.attach(b)
    end
  end
  return M
end

return M
