-- Headless Neovim: the plugin's project-root detection, by file name and by buffer, for each file.
-- Env: CASS_PLUGIN (editor_clients/nvim), CASES (JSON list of file names), RESULT (JSON written here).
vim.opt.runtimepath:append(os.getenv("CASS_PLUGIN"))
local result = { by_name = {}, by_buffer = {} }
local ok, err = pcall(function()
  local cass = require("cass")
  for _, fname in ipairs(vim.fn.json_decode(os.getenv("CASES"))) do
    result.by_name[fname] = cass.root_dir(fname)
    vim.cmd("edit " .. vim.fn.fnameescape(fname))
    result.by_buffer[fname] = cass.root_dir(vim.api.nvim_get_current_buf())
  end
end)
result.ok = ok
if not ok then result.error = tostring(err) end
local f = io.open(os.getenv("RESULT"), "w")
f:write(vim.fn.json_encode(result))
f:close()
vim.cmd(ok and "qa!" or "cquit! 1")
