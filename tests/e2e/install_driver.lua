-- :CassInstall in headless Neovim: the server installed into stdpath("data") from the wheel in
-- $CASS_WHEEL, `cass-lsp setup` run, and the plugin's server command switched to it; then a CUDA
-- buffer starts that server. Env: CASS_PLUGIN, CASS_WHEEL, CUDA_FILE, RESULT, E2E_DIR.
local h = dofile(os.getenv("E2E_DIR") .. "/harness.lua")
local step, finish = h.step, h.finish

h.run_async(function()
  local cass = require("cass")
  local install = require("cass.install")
  cass.setup({ install = { spec = os.getenv("CASS_WHEEL"), python = "python3" } })
  step("not_on_path_before", cass.cmd()[1] == "cass-lsp" and not install.installed(), cass.cmd()[1])
  vim.cmd("CassInstall")
  local done = h.wait_until(600000, function() return install.last ~= nil end)
  step("install_finished", done and install.last.ok, install.last and install.last.message)
  h.result.setup_message = install.last and install.last.message
  h.result.venv = install.venv()
  h.result.cmd = cass.cmd()
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("CUDA_FILE")))
  step("server_started", h.server_started(cass), cass.client_id)
  local client = cass.client_id and vim.lsp.get_client_by_id(cass.client_id)
  h.result.server_cmd = client and client.config.cmd
  finish()
end)
