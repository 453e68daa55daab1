-- :CassInstall: cass-lsp in a Python venv of its own under stdpath("data")/cass-lsp (no root), then
-- `cass-lsp setup` (the user cache). The plugin starts that server when `cass-lsp` is not on PATH.
-- Neovim 0.7: the steps run as jobs (vim.fn.jobstart), one after the other, without blocking.
local M = {}

-- The outcome of the last install ({ ok = bool, message = string }), nil while none has finished.
M.last = nil

function M.venv()
  return vim.fn.stdpath("data") .. "/cass-lsp/venv"
end

function M.command()
  return M.venv() .. "/bin/cass-lsp"
end

function M.installed()
  return vim.fn.executable(M.command()) == 1
end

local function tail(lines, count)
  local first = math.max(1, #lines - count + 1)
  return table.concat(lines, "\n", first)
end

-- Runs steps ({ label, argv, required }) in order; on_done(ok, message) after the last or the first
-- required one that fails. A step that is not required (setup) reports its failure and goes on.
local function run_steps(steps, on_done)
  local index, warnings = 0, {}
  local function next_step()
    index = index + 1
    local step = steps[index]
    if not step then return on_done(true, table.concat(warnings, "\n")) end
    vim.notify(("cass-lsp: [%d/%d] %s"):format(index, #steps, step.label))
    local output = {}
    local function keep(_, data)
      for _, line in ipairs(data) do
        if line ~= "" then table.insert(output, line) end
      end
    end
    local job = vim.fn.jobstart(step.argv, {
      on_stdout = keep,
      on_stderr = keep,
      on_exit = function(_, code)
        if code == 0 then return next_step() end
        local message = ("%s: exit %d\n%s"):format(table.concat(step.argv, " "), code, tail(output, 15))
        if step.required then return on_done(false, message) end
        table.insert(warnings, message)
        next_step()
      end,
    })
    if job <= 0 then on_done(false, "cannot run " .. step.argv[1]) end
  end
  next_step()
end

-- Installs `spec` (a pip requirement: "cass-lsp[nvidia]", or a wheel file) with `python`; calls
-- on_done(ok, message) when done, and keeps the outcome in M.last.
function M.install(spec, python, on_done)
  local venv = M.venv()
  vim.fn.mkdir(vim.fn.fnamemodify(venv, ":h"), "p")
  local steps = {}
  if vim.fn.executable(venv .. "/bin/python") == 0 then
    table.insert(steps, { label = "creating " .. venv, argv = { python, "-m", "venv", venv }, required = true })
  end
  table.insert(steps, {
    label = "pip install " .. spec,
    argv = { venv .. "/bin/python", "-m", "pip", "install", "--upgrade", spec },
    required = true,
  })
  table.insert(steps, { label = "cass-lsp setup (the user cache)", argv = { M.command(), "setup" }, required = false })
  M.last = nil
  run_steps(steps, function(ok, message)
    M.last = { ok = ok, message = message }
    on_done(ok, message)
  end)
end

return M
