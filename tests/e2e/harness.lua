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

-- Resumes a driver coroutine; an error in it ends the run as a failed step.
local function resume(co)
  local ok, err = coroutine.resume(co)
  if not ok then
    M.step("lua_error", false, debug.traceback(co, tostring(err)))
    M.finish()
  end
end

-- Like run(), with main() as a coroutine that can pause (M.sleep, M.wait_until) and so hand control
-- back to Neovim's main loop: autocommands such as CursorMoved fire there, never inside vim.wait().
function M.run_async(main)
  M.run(function() resume(coroutine.create(main)) end)
end

-- Pauses a run_async driver for `ms` milliseconds of main loop.
function M.sleep(ms)
  local co = coroutine.running()
  vim.defer_fn(function() resume(co) end, ms)
  coroutine.yield()
end

-- Pauses a run_async driver until done() is true (checked every 50 ms), at most `ms`; returns done().
function M.wait_until(ms, done)
  local deadline = vim.loop.now() + ms
  while not done() and vim.loop.now() < deadline do M.sleep(50) end
  return done() and true or false
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
