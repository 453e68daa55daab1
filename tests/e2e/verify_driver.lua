-- Saving a broken .hip translation in Neovim: the cass-verify diagnostic appears on the broken
-- line, :CassVerify answers the verdict, and fixing the line and saving clears it.
-- Env: CASS_PLUGIN, CASS_PYTHON, HIP_FILE, BROKEN_LINE (1-based), RESULT, E2E_DIR.
local h = dofile(os.getenv("E2E_DIR") .. "/harness.lua")
local step, finish = h.step, h.finish

local function verify_diagnostics(bufnr)
  return vim.tbl_filter(function(d) return d.source == "cass-verify" end, vim.diagnostic.get(bufnr))
end

local function main()
  local cass = require("cass")
  cass.setup({
    cmd = { os.getenv("CASS_PYTHON"), "-m", "cass_lsp", "--stdio" },
    settings = { target = { rocm = "7.1" }, verification = { debounceMs = 100 }, asm = { compileOnOpen = false } },
  })
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("HIP_FILE")))
  local bufnr = vim.api.nvim_get_current_buf()
  step("filetype", vim.bo[bufnr].filetype == "hip", vim.bo[bufnr].filetype)
  local up = h.server_started(cass)
  step("server_started", up)
  if not up then return finish() end

  vim.cmd("write")
  local broken = tonumber(os.getenv("BROKEN_LINE"))
  local got = h.wait_until(120000, function() return #verify_diagnostics(bufnr) > 0 end)
  local found = verify_diagnostics(bufnr)
  step("diagnostic_on_the_broken_line", got and found[1].lnum == broken - 1, found)
  step("status_failed", cass.status(bufnr) == "verify: failed", cass.status(bufnr))

  cass.verify()
  step("verify_command", h.wait_until(120000, function() return cass.last_verdict ~= nil end)
       and cass.last_verdict.verdict == "failed", cass.last_verdict)

  local line = vim.api.nvim_buf_get_lines(bufnr, broken - 1, broken, false)[1]
  vim.api.nvim_buf_set_lines(bufnr, broken - 1, broken, false, { (line:gsub("cudaDeviceSynchronize", "hipDeviceSynchronize")) })
  vim.cmd("write")
  local cleared = h.wait_until(120000, function()
    return #verify_diagnostics(bufnr) == 0 and cass.status(bufnr) == "verify: passed"
  end)
  step("fixed_and_cleared", cleared, { verify_diagnostics(bufnr), cass.status(bufnr) })

  vim.lsp.stop_client(cass.client_id)
  finish()
end

h.run_async(main)
