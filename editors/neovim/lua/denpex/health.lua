-- :checkhealth denpex: the binary is found, its version, and `denpex lsp` answers initialize.
local M = {}

-- vim.health.start/ok (0.10+), vim.health.report_* (0.8-0.9), health#report_* (0.7).
local function reporter()
  local h = vim.health
  if h and h.start then
    return h.start, h.ok, h.warn, h.error
  end
  if h and h.report_start then
    return h.report_start, h.report_ok, h.report_warn, h.report_error
  end
  return function(m) vim.fn["health#report_start"](m) end,
    function(m) vim.fn["health#report_ok"](m) end,
    function(m) vim.fn["health#report_warn"](m) end,
    function(m) vim.fn["health#report_error"](m) end
end

local function frame(obj)
  local body = vim.fn.json_encode(obj)
  return ("Content-Length: %d\r\n\r\n%s"):format(#body, body)
end

--- Start `cmd`, send initialize, shutdown and exit; return the initialize result or nil, why.
function M.probe(cmd, timeout_ms)
  local out = {}
  local job = vim.fn.jobstart(cmd, {
    on_stdout = function(_, data)
      table.insert(out, table.concat(data, "\n"))
    end,
    stdout_buffered = false,
  })
  if job <= 0 then
    return nil, "could not start " .. table.concat(cmd, " ")
  end
  vim.fn.chansend(job, frame({ jsonrpc = "2.0", id = 1, method = "initialize",
    params = { processId = vim.NIL, rootUri = vim.NIL, capabilities = vim.empty_dict() } }))
  vim.fn.chansend(job, frame({ jsonrpc = "2.0", method = "initialized", params = vim.empty_dict() }))
  vim.fn.chansend(job, frame({ jsonrpc = "2.0", id = 2, method = "shutdown" }))
  vim.fn.chansend(job, frame({ jsonrpc = "2.0", method = "exit" }))
  vim.fn.chanclose(job, "stdin")
  local rc = vim.fn.jobwait({ job }, timeout_ms or 10000)[1]
  if rc == -1 then
    vim.fn.jobstop(job)
    return nil, "no exit within " .. (timeout_ms or 10000) .. " ms"
  end
  local text = table.concat(out, "")
  local body = text:match('(%{"id":1.-)Content%-Length') or text:match('(%{[^\r\n]*"id":1[^\r\n]*)')
  if not text:find('"capabilities"', 1, true) then
    return nil, ("exit code %d and no initialize result: %s"):format(rc, text:sub(1, 200))
  end
  return { exit = rc, text = body or text }, nil
end

function M.check()
  local start, ok, warn, error = reporter()
  local denpex = require("denpex")
  local cmd = denpex.config.cmd
  start("denpex")
  local bin = cmd[1]
  if vim.fn.executable(bin) ~= 1 then
    error(("`%s` was not found (set `cmd` in require('denpex').setup{})"):format(bin))
    return
  end
  ok(("binary found: %s"):format(vim.fn.exepath(bin)))
  local version = vim.fn.systemlist({ bin, "--version" })
  if vim.v.shell_error == 0 and version[1] then
    ok("version: " .. version[1])
  else
    error("`" .. bin .. " --version` failed: " .. table.concat(version, " "))
  end
  local res, why = M.probe(cmd, 10000)
  if res and res.exit == 0 then
    ok("server starts: `" .. table.concat(cmd, " ") .. "` answered initialize and shut down cleanly")
  elseif res then
    warn(("server answered initialize but exited with %d"):format(res.exit))
  else
    error("server does not start: " .. why)
  end
  local mode = vim.lsp.config and vim.lsp.enable and "vim.lsp.config/enable (0.11+)"
    or vim.lsp.start and "vim.lsp.start (0.8-0.10)" or "vim.lsp.start_client (0.7)"
  ok("client API: " .. mode)
end

return M
