-- The Neovim plugin (editors/neovim) in a real headless Neovim, against the real `denpex lsp`.
-- Run by tests/editors/run.sh: nvim --headless --clean -c "luafile neovim_test.lua", with
-- DENPEX_BIN (the binary), DENPEX_PLUGIN (editors/neovim) and DENPEX_WORK (a temp dir holding
-- copies of train.py, model.py and train.log). Exit code 0 only when every check passed.
local bin = assert(os.getenv("DENPEX_BIN"), "DENPEX_BIN")
local plugin = assert(os.getenv("DENPEX_PLUGIN"), "DENPEX_PLUGIN")
local work = assert(os.getenv("DENPEX_WORK"), "DENPEX_WORK")

local failures = 0
local function log(msg)
  io.stdout:write(msg .. "\n")
  io.stdout:flush()
end
local function check(cond, what, detail)
  if cond then
    log("ok   " .. what)
  else
    failures = failures + 1
    log("FAIL " .. what .. (detail and (": " .. detail) or ""))
  end
  return cond
end
local function step(name, fn)
  local t0 = vim.loop.hrtime()
  local ok, err = pcall(fn)
  if not ok then
    failures = failures + 1
    log("FAIL " .. name .. ": " .. tostring(err))
  end
  log(("---- %s (%d ms)"):format(name, (vim.loop.hrtime() - t0) / 1e6))
end
local function finish()
  log(failures == 0 and "neovim: all checks passed" or ("neovim: %d check(s) failed"):format(failures))
  if failures == 0 then
    vim.cmd("qall!")
  else
    vim.cmd("cquit 1")
  end
end
local function buf_text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
end
local function read_file(path)
  local f = assert(io.open(path, "r"))
  local s = f:read("*a")
  f:close()
  return s
end
local function code_of(d)
  if d.code then
    return tostring(d.code)
  end
  local lsp = d.user_data and d.user_data.lsp
  return lsp and lsp.code and tostring(lsp.code) or "?"
end
local function diags_summary(ds)
  local parts = {}
  for _, d in ipairs(ds) do
    table.insert(parts, ("%d:%s"):format(d.lnum + 1, code_of(d)))
  end
  table.sort(parts)
  return table.concat(parts, " ")
end

vim.opt.rtp:prepend(plugin)
vim.o.columns = 1000 -- so that :terminal does not wrap the log's long lines
vim.o.lines = 150
vim.o.swapfile = false
vim.cmd("cd " .. vim.fn.fnameescape(work))

local denpex = require("denpex")
local setup_ok, setup_err = pcall(denpex.setup, { cmd = { bin, "lsp" } })
check(setup_ok, "require('denpex').setup{}", tostring(setup_err))
check(vim.fn.exists(":DenpexDiagnose") == 2, ":DenpexDiagnose defined")
check(vim.fn.exists(":DenpexDiagnoseTerminal") == 2, ":DenpexDiagnoseTerminal defined")
check(vim.fn.exists(":DenpexExplain") == 2, ":DenpexExplain defined")
log("client API in use: " .. tostring(denpex.mode) .. " (Neovim " .. tostring(vim.version().major) .. "."
  .. tostring(vim.version().minor) .. "." .. tostring(vim.version().patch) .. ")")

local train = work .. "/train.py"
local py_buf, client

step("python diagnostics", function()
  vim.cmd("edit " .. vim.fn.fnameescape(train))
  py_buf = vim.api.nvim_get_current_buf()
  check(vim.bo[py_buf].filetype == "python", "train.py has filetype python", vim.bo[py_buf].filetype)
  local got = vim.wait(20000, function()
    return #vim.diagnostic.get(py_buf) >= 2
  end, 50)
  check(got, "diagnostics arrive within 20 s")
  client = denpex.client(py_buf)
  check(client ~= nil and client.name == "denpex", "a client named denpex is attached")
  local ds = vim.diagnostic.get(py_buf)
  check(diags_summary(ds) == "6:DPX001 7:DPX002", "diagnostics at lines 6 (DPX001) and 7 (DPX002)", diags_summary(ds))
  for _, d in ipairs(ds) do
    if code_of(d) == "DPX001" then
      check(d.col == 44, "DPX001 starts at column 45", tostring(d.col + 1))
      check(d.source == "denpex", "source is denpex", tostring(d.source))
    end
  end
end)

if #vim.diagnostic.get(py_buf or 0) == 0 then
  log("FAIL the server published nothing for train.py: stopping here (every later step would only time out)")
  failures = failures + 1
  finish()
  return
end

step("hover", function()
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(py_buf) },
    position = { line = 5, character = 48 },
  }
  local res = vim.lsp.buf_request_sync(py_buf, "textDocument/hover", params, 10000)
  local text = ""
  for _, r in pairs(res or {}) do
    if r.result and r.result.contents then
      local c = r.result.contents
      text = text .. (type(c) == "table" and (c.value or vim.inspect(c)) or tostring(c))
    end
  end
  check(text:find("DPX001", 1, true) ~= nil, "hover on line 6 names DPX001", text:sub(1, 200))
  -- The same hover through vim.lsp.buf.hover() (what K runs): a float with the server's text.
  vim.api.nvim_win_set_cursor(0, { 6, 48 })
  vim.lsp.buf.hover()
  local float_text = ""
  vim.wait(10000, function()
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(w).relative ~= "" then
        float_text = buf_text(vim.api.nvim_win_get_buf(w))
        if float_text:find("DPX001", 1, true) then
          return true
        end
      end
    end
    return false
  end, 50)
  check(float_text:find("DPX001", 1, true) ~= nil, "vim.lsp.buf.hover() opens a float naming DPX001")
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= "" then
      vim.api.nvim_win_close(w, true)
    end
  end
end)

step("quick fix written to disk", function()
  local target
  for _, d in ipairs(vim.diagnostic.get(py_buf)) do
    if code_of(d) == "DPX002" then
      target = d
    end
  end
  assert(target, "no DPX002 diagnostic")
  -- Neovim 0.7 keeps only code and data of the LSP diagnostic in user_data: rebuild the rest.
  local extra = (target.user_data and target.user_data.lsp) or {}
  local lsp_diag = {
    range = { start = { line = target.lnum, character = target.col },
              ["end"] = { line = target.end_lnum, character = target.end_col } },
    message = target.message, code = code_of(target), source = target.source,
    severity = target.severity, data = extra.data,
  }
  check(extra.data and extra.data.fix and extra.data.fix.safe == false, "the diagnostic carries its fix in data, marked unsafe (it changes the checkpoint implementation)")
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(py_buf) },
    range = lsp_diag.range,
    context = { diagnostics = { lsp_diag }, only = { "quickfix" } },
  }
  local res = vim.lsp.buf_request_sync(py_buf, "textDocument/codeAction", params, 10000)
  local action, titles = nil, {}
  for _, r in pairs(res or {}) do
    for _, a in ipairs(r.result or {}) do
      table.insert(titles, a.title)
      if a.title:match("^Fix %(unsafe%) DPX002") then
        action = a
      end
    end
  end
  check(action ~= nil, "a 'Fix (unsafe) DPX002' quick fix is offered", table.concat(titles, " | "))
  assert(action, "no action")
  check(action.isPreferred ~= true, "an unsafe fix is not preferred")
  if not action.edit then
    local rr = vim.lsp.buf_request_sync(py_buf, "codeAction/resolve", action, 10000)
    for _, r in pairs(rr or {}) do
      if r.result then
        action = r.result
      end
    end
  end
  assert(action.edit, "the action has no edit")
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  vim.cmd("write")
  local lines = vim.split(read_file(train), "\n", { plain = true })
  check(lines[7] == "    out = checkpoint(model.head, hidden, use_reentrant=False)",
    "line 7 on disk after the fix", lines[7])
  check(lines[6] == "    hidden = checkpoint(model.block, batch, use_reentrant=True)", "line 6 unchanged", lines[6])
  check(#lines == 9, "no other line added or removed", tostring(#lines))
  local gone = vim.wait(20000, function()
    return diags_summary(vim.diagnostic.get(py_buf)) == "6:DPX001"
  end, 50)
  check(gone, "after the fix only DPX001 remains", diags_summary(vim.diagnostic.get(py_buf)))
end)

local log_buf
step("log diagnostics", function()
  vim.cmd("edit " .. vim.fn.fnameescape(work .. "/train.log"))
  log_buf = vim.api.nvim_get_current_buf()
  check(vim.bo[log_buf].filetype == "log", "*.log gets filetype log", vim.bo[log_buf].filetype)
  local got = vim.wait(20000, function()
    for _, d in ipairs(vim.diagnostic.get(log_buf)) do
      if d.severity == vim.diagnostic.severity.ERROR then
        return true
      end
    end
    return false
  end, 50)
  check(got, "an error diagnostic in train.log within 20 s")
  local errs = vim.diagnostic.get(log_buf, { severity = vim.diagnostic.severity.ERROR })
  check(#errs == 1, "exactly one error (the initiating fault)", tostring(#errs))
  if errs[1] then
    check(errs[1].lnum + 1 == 29, "the initiating fault is on line 29", tostring(errs[1].lnum + 1))
    check(errs[1].message:find("rank 5", 1, true) ~= nil, "its message names rank 5", errs[1].message)
  end
  -- Back to source: the traceback frame /workspace/model.py:97 maps to model.py in the workspace.
  local model_buf = vim.fn.bufadd(work .. "/model.py")
  local mapped = vim.wait(10000, function()
    for _, d in ipairs(vim.diagnostic.get(model_buf)) do
      if d.lnum + 1 == 97 and d.message:find("rank 5", 1, true) then
        return true
      end
    end
    return false
  end, 50)
  check(mapped, "model.py line 97 gets 'rank 5 failed here'", diags_summary(vim.diagnostic.get(model_buf)))
end)

step(":DenpexDiagnose on a range", function()
  vim.api.nvim_set_current_buf(log_buf)
  vim.cmd("17,104DenpexDiagnose")
  local r = denpex.last_report
  assert(r and vim.api.nvim_win_is_valid(r.win), "no report window")
  check(vim.api.nvim_win_get_config(r.win).relative ~= "", "the report is a floating window")
  check(vim.api.nvim_get_current_win() == r.win, "the float has the focus")
  local text = buf_text(r.buf)
  check(vim.bo[r.buf].filetype == "markdown", "the report buffer is markdown", vim.bo[r.buf].filetype)
  check(text:find("Initiating | rank 5 on gpu-node-03", 1, true) ~= nil, "the float names the initiating rank 5",
    text:sub(1, 300))
  check(text:find("cuda-oom", 1, true) ~= nil, "the float names cuda-oom")
  check(text:find("Evidence", 1, true) ~= nil, "the float has the evidence")
  check(text:find("3.82 GiB", 1, true) ~= nil, "the evidence has the requested bytes")
  check(type(r.verify) == "string" and #r.verify > 0, "the report has a verify command", tostring(r.verify))
  vim.fn.setreg('"', "")
  vim.api.nvim_feedkeys("y", "x", false)
  check(vim.fn.getreg('"') == r.verify, "y yanks the verify command", vim.fn.getreg('"'))
  vim.api.nvim_feedkeys("q", "x", false)
  check(not vim.api.nvim_win_is_valid(r.win), "q closes the float")
  -- A range without the failure: no rank 5 in the report.
  denpex.last_report = nil
  vim.api.nvim_set_current_buf(log_buf)
  vim.cmd("1,16DenpexDiagnose")
  local r2 = denpex.last_report
  assert(r2, "no report for lines 1-16")
  check(buf_text(r2.buf):find("rank 5 on", 1, true) == nil, "lines 1-16 (no failure yet) name no initiating rank")
  vim.api.nvim_win_close(r2.win, true)
end)

step("Explain code action through vim.lsp.buf.code_action()", function()
  vim.api.nvim_set_current_buf(log_buf)
  vim.api.nvim_win_set_cursor(0, { 29, 10 })
  local titles = {}
  local orig = vim.ui.select
  -- The menu Neovim shows: pick "Explain cuda-oom", as a user would.
  vim.ui.select = function(items, opts, on_choice)
    local chosen = nil
    for _, item in ipairs(items) do
      local title = opts.format_item and opts.format_item(item) or tostring(item)
      table.insert(titles, title)
      if title:match("^Explain cuda%-oom") then
        chosen = item
      end
    end
    on_choice(chosen)
  end
  denpex.last_report = nil
  vim.lsp.buf.code_action()
  local shown = vim.wait(10000, function()
    return denpex.last_report ~= nil
  end, 50)
  vim.ui.select = orig
  check(vim.tbl_contains(titles, "Explain cuda-oom"), "the initiating line offers 'Explain cuda-oom'",
    table.concat(titles, " | "))
  local copy = false
  for _, t in ipairs(titles) do
    copy = copy or t:match("^Copy verify command %(cuda%-oom%)") ~= nil
  end
  check(copy, "and 'Copy verify command (cuda-oom)'", table.concat(titles, " | "))
  check(shown and buf_text(denpex.last_report.buf):find("CUDA out of memory", 1, true) ~= nil,
    "choosing it opens the cuda-oom page in a float")
  if denpex.last_report then
    vim.api.nvim_win_close(denpex.last_report.win, true)
  end
end)

step(":DenpexExplain and completion", function()
  local comp = vim.fn.getcompletion("DenpexExplain cuda-o", "cmdline")
  check(vim.tbl_contains(comp, "cuda-oom"), "completion offers cuda-oom", table.concat(comp, " "))
  local comp2 = vim.fn.getcompletion("DenpexExplain DPX00", "cmdline")
  check(vim.tbl_contains(comp2, "DPX001"), "completion offers DPX001", table.concat(comp2, " "))
  vim.cmd("DenpexExplain cuda-oom")
  local r = denpex.last_report
  assert(r and vim.api.nvim_win_is_valid(r.win), "no explain window")
  check(buf_text(r.buf):find("CUDA out of memory", 1, true) ~= nil, "explain shows the cuda-oom page")
  vim.api.nvim_win_close(r.win, true)
end)

step(":DenpexDiagnoseTerminal", function()
  vim.cmd("tabnew")
  log(("terminal window: %d x %d"):format(vim.api.nvim_win_get_width(0), vim.api.nvim_win_get_height(0)))
  -- Neovim 0.7 drops pty output still unread when the process exits (a bare `cat` lost the last
  -- 70 of 104 lines, cut mid-line at about 4 KiB): keep the process alive while it is drained.
  local job = vim.fn.termopen({ "sh", "-c", 'cat "$1"; sleep 1', "sh", work .. "/train.log" })
  local term = vim.api.nvim_get_current_buf()
  check(vim.fn.jobwait({ job }, 10000)[1] == 0, "the terminal job exits 0 within 10 s")
  local done = vim.wait(10000, function()
    return buf_text(term):find("[Process exited 0]", 1, true) ~= nil
  end, 50)
  local tl = vim.api.nvim_buf_get_lines(term, 0, -1, false)
  check(done and tl[29] and tl[29]:find("torch.OutOfMemoryError", 1, true) ~= nil
    and tl[104] == "============================================================",
    "the terminal shows the whole log, unwrapped", ("%d lines; line 29: %s; line 104: %s"):format(#tl, tostring(tl[29]):sub(1, 80), tostring(tl[104])))
  denpex.last_report = nil
  vim.cmd("DenpexDiagnoseTerminal")
  local r = denpex.last_report
  vim.fn.writefile(vim.api.nvim_buf_get_lines(term, 0, -1, false), work .. "/terminal.txt")
  assert(r, "no report from the terminal")
  local text = buf_text(r.buf)
  check(text:find("Initiating | rank 5 on gpu-node-03", 1, true) ~= nil,
    "the terminal report names the initiating rank 5", text:sub(1, 600))
  vim.api.nvim_win_close(r.win, true)
end)

step(":checkhealth denpex", function()
  vim.cmd("checkhealth denpex")
  local text = buf_text(0)
  check(text:find("OK:? binary found") ~= nil, "health: binary found", text)
  check(text:find("OK:? version: denpex") ~= nil, "health: version")
  check(text:find("OK:? server starts") ~= nil, "health: server starts")
  check(text:find("ERROR") == nil, "health: no ERROR")
end)

finish()
