-- Headless Neovim, no server: the :CassAsm view of a given cass/assembly reply (REPLY, JSON) for a
-- buffer holding SOURCE (JSON list of lines) named FILE; writes the view's lines and, for each
-- source line, the view lines highlighted with the cursor on it. Env: those of headless.py.
local h = dofile(os.getenv("E2E_DIR") .. "/harness.lua")
local result = h.result

local function main()
  local asm = require("cass.asm")
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("FILE")))
  local src = vim.api.nvim_get_current_buf()
  local source = vim.fn.json_decode(os.getenv("SOURCE"))
  vim.api.nvim_buf_set_lines(src, 0, -1, false, source)
  asm.define_highlight()
  local view = asm.show(src, vim.json.decode(os.getenv("REPLY"), { luanil = { object = true } }))
  result.lines = vim.api.nvim_buf_get_lines(view, 0, -1, false)
  result.highlighted = {}
  local ns = vim.api.nvim_get_namespaces().cass_asm
  for line = 1, #source do
    vim.api.nvim_win_set_cursor(0, { line, 0 })
    vim.api.nvim_exec_autocmds("CursorMoved", { buffer = src })
    local rows = {}
    for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(view, ns, 0, -1, {})) do table.insert(rows, mark[2]) end
    result.highlighted[line] = rows
  end
  h.step("view", true)
  h.finish()
end

h.run(main)
