-- Headless Neovim driving cass-lsp through the project's own plugin, as a user would.
-- Env: CASS_PLUGIN, CASS_PYTHON, CU_FILE, RESULT, E2E_DIR (see headless.py).
local h = dofile(os.getenv("E2E_DIR") .. "/harness.lua")
local step, finish, result = h.step, h.finish, h.result

local function main()
  local cass = require("cass")
  cass.setup({
    cmd = { os.getenv("CASS_PYTHON"), "-m", "cass_lsp", "--stdio" },
    settings = { diagnostics = { debounceMs = 50 }, asm = { targets = { "sm_90", "gfx1100" }, hoverWaitMs = 120000 } },
  })
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("CU_FILE")))
  local bufnr = vim.api.nvim_get_current_buf()
  step("filetype", vim.bo[bufnr].filetype == "cuda", vim.bo[bufnr].filetype)

  local up = h.server_started(cass)
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
  local out
  cass.show_assembly({ on_open = function(buf) out = buf end })
  step("show_assembly_returns_at_once", out == nil)  -- the editor is not blocked while it compiles
  vim.wait(180000, function() return out ~= nil end, 50)
  local listing = out and table.concat(vim.api.nvim_buf_get_lines(out, 0, -1, false), "\n") or ""
  step("show_assembly", listing:find("s_barrier", 1, true) ~= nil and listing:find("BAR", 1, true) ~= nil,
       string.sub(listing, 1, 400))
  -- the listing opens beside the source; the cursor stays in the source window

  -- "Translate file to HIP" through Neovim's own code-action UI path
  h.choose_action("^Translate file")
  local before = vim.b[bufnr].changedtick
  h.code_action_at(1, 0)
  local applied = vim.wait(30000, function() return vim.b[bufnr].changedtick ~= before end, 50)
  step("translate_file_action", applied, result.titles)
  vim.cmd("write")
  local content = table.concat(vim.fn.readfile(os.getenv("CU_FILE")), "\n")
  step("file_translated", content:find("hipMalloc", 1, true) ~= nil and content:find("cudaMalloc", 1, true) == nil
       and content:find("#include <hip/hip_runtime.h>", 1, true) ~= nil, content)

  vim.lsp.stop_client(cass.client_id)
  finish()
end

h.run(main)
