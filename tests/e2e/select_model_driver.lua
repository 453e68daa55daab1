-- Headless Neovim: :CassModel as a user runs it. No model is set at first (no "(CASS model)" code
-- actions); :CassModel returns at once, lists the models through vim.ui.select, and the pick becomes
-- model.name in the running server, whose code actions then include "(CASS model)" ones. A model
-- never added is refused with a hint. Env: CU_FILE, MODEL_NAME and those of headless.py.
local h = dofile(os.getenv("E2E_DIR") .. "/harness.lua")
local step, finish, result = h.step, h.finish, h.result

local function model_titles()
  local found = {}
  for _, title in ipairs(result.titles or {}) do
    if title:match("%(CASS model%)$") then table.insert(found, title) end
  end
  return found
end

-- The code action titles at a line inside the kernel, through Neovim's own code-action UI path.
local function code_actions()
  result.titles = nil
  h.choose_action("^$")  -- picks nothing; records the titles
  h.code_action_at(4, 4)
  h.wait_until(10000, function() return result.titles ~= nil end)
  return model_titles()
end

-- Runs :CassModel and picks the model named `name` from what it offers; returns the offered lines.
local function cass_model(name)
  local offered
  vim.ui.select = function(items, opts, on_choice)
    offered = vim.tbl_map(opts.format_item, items)
    for _, item in ipairs(items) do
      if item.name == name then return on_choice(item) end
    end
    on_choice(nil)
  end
  vim.cmd("CassModel")
  local at_once = offered == nil  -- the list comes from a job: the command does not wait for it
  h.wait_until(20000, function() return offered ~= nil end)
  return offered, at_once
end

local function main()
  local cass = require("cass")
  cass.setup({
    cmd = { os.getenv("CASS_PYTHON"), "-m", "cass_lsp", "--stdio" },
    settings = { asm = { compileOnOpen = false } },
  })
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("CU_FILE")))
  local up = h.server_started(cass)
  step("server_started", up)
  if not up then return finish() end
  result.server_pid = vim.lsp.get_client_by_id(cass.client_id).rpc.pid
  local name = os.getenv("MODEL_NAME")

  step("no_model_actions_before", #code_actions() == 0 and #(result.titles or {}) > 0, result.titles)

  local offered, at_once = cass_model(name)
  step("returns_at_once", at_once)
  local listed = table.concat(offered or {}, "\n")
  step("models_listed", listed:find(vim.pesc(name) .. " +src .* present") ~= nil
       and listed:find("cass%-src%-1%.5b +src .* not added") ~= nil, offered)
  local client = vim.lsp.get_client_by_id(cass.client_id)
  step("setting_set", cass.config.settings.model.name == name
       and client.config.settings.cass.model.name == name, cass.config.settings)

  -- the server applies the pushed settings: "(CASS model)" actions appear (retried: a code action
  -- request may be answered before the notification is handled)
  local titles = {}
  h.wait_until(20000, function()
    titles = code_actions()
    return #titles > 0
  end)
  step("model_actions_offered", #titles > 0, result.titles)

  local warnings = {}
  vim.notify = function(message, level)
    if level == vim.log.levels.WARN then table.insert(warnings, message) end
  end
  cass_model("cass-src-1.5b")
  step("not_added_refused", cass.config.settings.model.name == name
       and table.concat(warnings, "\n"):find("models add", 1, true) ~= nil, warnings)

  vim.lsp.stop_client(cass.client_id)
  finish()
end

h.run_async(main)
