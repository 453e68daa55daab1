-- Headless Neovim: "Translate kernel … to HIP (CASS model)" through the plugin and Neovim's own
-- code-action UI, with the tiny test GGUF. Env: CASS_PLUGIN, CASS_PYTHON, CU_FILE, MODEL, RESULT.
vim.opt.runtimepath:append(os.getenv("CASS_PLUGIN"))
local result = { steps = {}, progress = {} }
local function step(name, ok, info)
  table.insert(result.steps, { name = name, ok = ok and true or false, info = info })
end
local function finish()
  local all = true
  for _, s in ipairs(result.steps) do all = all and s.ok end
  result.ok = all
  local f = io.open(os.getenv("RESULT"), "w")
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd(all and "qa!" or "cquit! 1")
end

-- watch the streamed progress the way a status line plugin would
local progress_handler = vim.lsp.handlers["$/progress"]
vim.lsp.handlers["$/progress"] = function(err, params, ctx, config)
  if params and params.value and params.value.message then
    table.insert(result.progress, params.value.message)
  end
  if progress_handler then return progress_handler(err, params, ctx, config) end
end

local function main()
  local cass = require("cass")
  cass.setup({
    cmd = { os.getenv("CASS_PYTHON"), "-m", "cass_lsp", "--stdio" },
    settings = {
      target = { rocm = "5.2" },
      asm = { targets = { "gfx1100" }, compileOnOpen = false },
      model = { name = os.getenv("MODEL"), nThreads = 1, nCtx = 2048, maxTokens = 400 },
    },
  })
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("CU_FILE")))
  local bufnr = vim.api.nvim_get_current_buf()
  local up = vim.wait(20000, function()
    local c = cass.client_id and vim.lsp.get_client_by_id(cass.client_id)
    return c ~= nil and c.initialized
  end, 50)
  step("server_started", up)
  if not up then return finish() end

  vim.ui.select = function(items, _, on_choice)
    result.titles = {}
    local chosen
    for i, item in ipairs(items) do
      local action = item[2] or item.action or item
      table.insert(result.titles, action.title)
      if action.title:match("%(CASS model%)$") and action.title:match("^Translate kernel") then chosen = i end
    end
    on_choice(chosen and items[chosen] or nil, chosen)
  end
  local before = vim.b[bufnr].changedtick
  -- the cursor inside the kernel (1-based line 4)
  if vim.fn.has("nvim-0.8") == 0 then
    vim.lsp.buf.range_code_action(nil, { 4, 4 }, { 4, 4 })
  else
    vim.lsp.buf.code_action({ range = { start = { 4, 4 }, ["end"] = { 4, 4 } } })
  end
  local applied = vim.wait(60000, function() return vim.b[bufnr].changedtick ~= before end, 50)
  step("model_action_applied", applied, result.titles)
  local streamed = false
  for _, message in ipairs(result.progress) do
    if message:find("tokens:", 1, true) then streamed = true end
  end
  step("progress_streamed", streamed, result.progress)
  -- the compile check of the new text leaves no compiler error behind
  vim.wait(3000, function() return false end, 100)
  local errors = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == "cass-asm" then table.insert(errors, d.message) end
  end
  step("compiles", #errors == 0, errors)
  vim.cmd("write")
  local content = table.concat(vim.fn.readfile(os.getenv("CU_FILE")), "\n")
  step("kernel_from_the_model", content:find("hipBlockIdx_x", 1, true) ~= nil
       and content:find("cudaMalloc(&x", 1, true) ~= nil, content)

  vim.lsp.stop_client(cass.client_id)
  finish()
end

vim.api.nvim_create_autocmd("VimEnter", {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = pcall(main)
      if not ok then step("lua_error", false, tostring(err)); finish() end
    end)
  end,
})
