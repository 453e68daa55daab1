-- Headless Neovim driving cass-lsp through the project's own plugin, as a user would.
-- Env: CASS_PLUGIN (editor_clients/nvim), CASS_PYTHON, CU_FILE, RESULT (JSON written here).
vim.opt.runtimepath:append(os.getenv("CASS_PLUGIN"))
local result = { steps = {} }
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

local function main()
  local cass = require("cass")
  cass.setup({
    cmd = { os.getenv("CASS_PYTHON"), "-m", "cass_lsp", "--stdio" },
    settings = { diagnostics = { debounceMs = 50 }, asm = { targets = { "sm_90", "gfx1100" }, hoverWaitMs = 120000 } },
  })
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("CU_FILE")))
  local bufnr = vim.api.nvim_get_current_buf()
  step("filetype", vim.bo[bufnr].filetype == "cuda", vim.bo[bufnr].filetype)

  local up = vim.wait(20000, function()
    local c = cass.client_id and vim.lsp.get_client_by_id(cass.client_id)
    return c ~= nil and c.initialized
  end, 50)
  step("server_started", up)
  if not up then return finish() end

  local got = vim.wait(30000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.code == "inline-ptx" then return true end
    end
    return false
  end, 50)
  local codes = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do table.insert(codes, d.code) end
  step("inline_ptx_diagnostic", got, codes)

  -- hover on the __syncthreads() line (0-based line 5)
  local hover = vim.lsp.buf_request_sync(bufnr, "textDocument/hover",
    { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 5, character = 4 } }, 180000)
  local text = ""
  for _, r in pairs(hover or {}) do
    if r.result and r.result.contents then text = r.result.contents.value end
  end
  step("assembly_hover", text:find("BAR", 1, true) ~= nil and text:find("s_barrier", 1, true) ~= nil, text)

  -- :CassShowAssembly with the cursor on that line
  vim.api.nvim_win_set_cursor(0, { 6, 4 })
  local out = cass.show_assembly()
  local listing = out and table.concat(vim.api.nvim_buf_get_lines(out, 0, -1, false), "\n") or ""
  step("show_assembly", listing:find("s_barrier", 1, true) ~= nil and listing:find("BAR", 1, true) ~= nil,
       string.sub(listing, 1, 400))
  vim.cmd("wincmd p")

  -- "Translate file to HIP" through Neovim's own code-action UI path
  vim.ui.select = function(items, _, on_choice)
    result.titles = {}
    local chosen
    for i, item in ipairs(items) do
      local action = item[2] or item.action or item
      table.insert(result.titles, action.title)
      if action.title:match("^Translate file") then chosen = i end
    end
    on_choice(chosen and items[chosen] or nil, chosen)
  end
  local before = vim.b[bufnr].changedtick
  if vim.fn.has("nvim-0.8") == 0 then
    vim.lsp.buf.range_code_action(nil, { 1, 0 }, { 1, 0 })
  else
    vim.lsp.buf.code_action({ range = { start = { 1, 0 }, ["end"] = { 1, 0 } } })
  end
  local applied = vim.wait(30000, function() return vim.b[bufnr].changedtick ~= before end, 50)
  step("translate_file_action", applied, result.titles)
  vim.cmd("write")
  local content = table.concat(vim.fn.readfile(os.getenv("CU_FILE")), "\n")
  step("file_translated", content:find("hipMalloc", 1, true) ~= nil and content:find("cudaMalloc", 1, true) == nil
       and content:find("#include <hip/hip_runtime.h>", 1, true) ~= nil, content)

  vim.lsp.stop_client(cass.client_id)
  finish()
end

vim.api.nvim_create_autocmd("VimEnter", {
  once = true,
  callback = function()
    -- outside VimEnter, so that :write fires BufWritePost (didSave)
    vim.schedule(function()
      local ok, err = pcall(main)
      if not ok then step("lua_error", false, tostring(err)); finish() end
    end)
  end,
})
