-- :CassModel: the CASS models from `cass-lsp models list --json`, picked with vim.ui.select.
local M = {}

-- The cass-lsp command line, taken from the server's: everything up to the cass-lsp script, or up
-- to `-m cass_lsp` (the Python that runs the server runs the CLI too). A wrapper in front (env,
-- nice, a container runner) is kept; the server's own arguments after it are dropped. nil when
-- `cmd` names neither.
function M.cli_from(cmd)
  for i, arg in ipairs(cmd) do
    if (arg == "cass_lsp" and cmd[i - 1] == "-m") or vim.fn.fnamemodify(arg, ":t") == "cass-lsp" then
      return vim.list_slice(cmd, 1, i)
    end
  end
end

local function lines(data)
  return table.concat(data or {}, "\n")
end

-- Runs `cli models list --json` as a job (the editor stays usable: it reads GGUF headers, quick,
-- but the Python start-up is not) and calls on_list(models) with the decoded list.
function M.list(cli, on_list)
  local out, err = {}, {}
  local argv = vim.list_extend(vim.deepcopy(cli), { "models", "list", "--json" })
  local ok, job = pcall(vim.fn.jobstart, argv, {
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data) out = data end,
    on_stderr = function(_, data) err = data end,
    on_exit = function(_, code)
      local decoded, models = pcall(vim.json.decode, lines(out), { luanil = { object = true } })
      if code ~= 0 or not decoded or type(models) ~= "table" then
        vim.notify("cass-lsp: `models list` failed: " .. lines(err), vim.log.levels.ERROR)
        return
      end
      on_list(models)
    end,
  })
  if not ok or job <= 0 then
    vim.notify("cass-lsp: cannot run " .. table.concat(argv, " "), vim.log.levels.ERROR)
  end
end

local function describe(model)
  return string.format("%-20s %-4s %-24s %s", model.name, model.role, model.direction or "", model.status)
end

-- Offers the models and calls on_choice(model) with a usable pick. A model of the catalog that
-- was never added has no file yet: picking it says how to add one instead.
function M.pick(models, on_choice)
  vim.ui.select(models, { prompt = "CASS model", format_item = describe, kind = "cass_model" }, function(model)
    if not model then return end
    if model.status == "not added" then
      vim.notify(("cass-lsp: %s has no file yet: convert it (gguf/README.md), then `cass-lsp models add FILE`")
        :format(model.name), vim.log.levels.WARN)
      return
    end
    on_choice(model)
  end)
end

-- The setting a model of this role goes to: translation models (src) to model.name, assembly
-- models (asm) to model.assemblyName.
function M.setting_for(model)
  return model.role == "asm" and "assemblyName" or "name"
end

return M
