-- setup() options reach the server: `ignore` drops a rule, `log_globs` makes another file a log
-- (filetype and diagnosis), `slurm-*.out` gets the log filetype. Same environment as neovim_test.lua.
local bin = assert(os.getenv("DENPEX_BIN"), "DENPEX_BIN")
local plugin = assert(os.getenv("DENPEX_PLUGIN"), "DENPEX_PLUGIN")
local work = assert(os.getenv("DENPEX_WORK"), "DENPEX_WORK")
local failures = 0
local function check(cond, what, detail)
  io.stdout:write((cond and "ok   " or "FAIL ") .. what .. ((not cond and detail) and (": " .. detail) or "") .. "\n")
  if not cond then
    failures = failures + 1
  end
end
vim.opt.rtp:prepend(plugin)
vim.o.swapfile = false
vim.cmd("cd " .. vim.fn.fnameescape(work))
local denpex = require("denpex")
denpex.setup({ cmd = { bin, "lsp" }, ignore = { "DPX002" }, log_globs = { "*.log", "*.stdout" } })

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(work .. "/options.py"))
  local py = vim.api.nvim_get_current_buf()
  vim.wait(20000, function() return #vim.diagnostic.get(py) >= 1 end, 50)
  vim.wait(300) -- a DPX002 would arrive in the same publication
  local codes = {}
  for _, d in ipairs(vim.diagnostic.get(py)) do
    table.insert(codes, ("%d:%s"):format(d.lnum + 1, tostring(d.code or (d.user_data and d.user_data.lsp.code))))
  end
  check(table.concat(codes, " ") == "6:DPX001", "ignore = {'DPX002'}: only DPX001 on line 6", table.concat(codes, " "))

  vim.cmd("edit " .. vim.fn.fnameescape(work .. "/job.stdout"))
  local txt = vim.api.nvim_get_current_buf()
  check(vim.bo[txt].filetype == "log", "log_globs = {'*.stdout'}: job.stdout gets filetype log", vim.bo[txt].filetype)
  local got = vim.wait(20000, function()
    for _, d in ipairs(vim.diagnostic.get(txt)) do
      if d.severity == vim.diagnostic.severity.ERROR and d.lnum + 1 == 29 and d.message:find("rank 5", 1, true) then
        return true
      end
    end
    return false
  end, 50)
  check(got, "job.stdout is diagnosed as a log: the error on line 29 names rank 5")

  vim.cmd("edit " .. vim.fn.fnameescape(work .. "/slurm-4242.out"))
  check(vim.bo.filetype == "log", "slurm-4242.out gets filetype log", vim.bo.filetype)
  vim.cmd("enew")
  vim.cmd("file notes.md")
  vim.cmd("filetype detect")
  check(vim.bo.filetype ~= "log", "notes.md is not a log", vim.bo.filetype)
end)
check(ok, "options test ran to the end", tostring(err))
io.stdout:write(failures == 0 and "neovim options: all checks passed\n" or ("neovim options: %d failed\n"):format(failures))
vim.cmd(failures == 0 and "qall!" or "cquit 1")
