-- Shared by the Neovim drivers: the plugin on the runtimepath, named steps, and the JSON result
-- (written to $RESULT) that the pytest side reads.
vim.opt.runtimepath:append(os.getenv("CASS_PLUGIN"))
local M = { result = { steps = {} } }

function M.step(name, ok, info)
  table.insert(M.result.steps, { name = name, ok = ok and true or false, info = info })
end

function M.finish()
  local all = true
  for _, s in ipairs(M.result.steps) do all = all and s.ok end
  M.result.ok = all
  local f = io.open(os.getenv("RESULT"), "w")
  f:write(vim.fn.json_encode(M.result))
  f:close()
  vim.cmd(all and "qa!" or "cquit! 1")
end

-- Runs main() once Neovim has started (outside VimEnter, so that :write fires BufWritePost).
function M.run(main)
  vim.api.nvim_create_autocmd("VimEnter", {
    once = true,
    callback = function()
      vim.schedule(function()
        local ok, err = pcall(main)
        if not ok then M.step("lua_error", false, tostring(err)); M.finish() end
      end)
    end,
  })
end

-- Waits until the plugin's client has initialized.
function M.server_started(cass)
  return vim.wait(20000, function()
    local c = cass.client_id and vim.lsp.get_client_by_id(cass.client_id)
    return c ~= nil and c.initialized
  end, 50)
end

-- Replaces vim.ui.select to pick the code action whose title matches `pattern`; records titles.
function M.choose_action(pattern)
  vim.ui.select = function(items, _, on_choice)
    M.result.titles = {}
    local chosen
    for i, item in ipairs(items) do
      local action = item[2] or item.action or item
      table.insert(M.result.titles, action.title)
      if chosen == nil and action.title:match(pattern) then chosen = i end
    end
    on_choice(chosen and items[chosen] or nil, chosen)
  end
end

-- Asks for code actions at a 1-based (line, column), through Neovim's own code-action UI path.
function M.code_action_at(line, col)
  if vim.fn.has("nvim-0.8") == 0 then
    vim.lsp.buf.range_code_action(nil, { line, col }, { line, col })
  else
    vim.lsp.buf.code_action({ range = { start = { line, col }, ["end"] = { line, col } } })
  end
end

return M
