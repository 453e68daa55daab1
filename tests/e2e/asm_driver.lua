-- Headless Neovim: :CassAsm as a user runs it. The command returns at once; the listing opens beside
-- the source; moving the cursor in the source highlights that line's instructions in the listing
-- (CursorMoved, fired by Neovim's main loop: the driver runs as a coroutine and pauses for it); <CR>
-- on a listing line goes back to its source line. Env: CU_FILE and those of headless.py.
local h = dofile(os.getenv("E2E_DIR") .. "/harness.lua")
local step, finish, result = h.step, h.finish, h.result

local function listing_of(src)
  local name = "cass-asm://" .. vim.api.nvim_buf_get_name(src)
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(buf) == name then return buf end
  end
end

-- The listing lines highlighted by the plugin, { row = 0-based, text = … }, read back from Neovim.
local function highlighted(buf)
  local ns = vim.api.nvim_get_namespaces().cass_asm
  local lines = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
    if mark[4].hl_group == "CassAsmLine" then
      table.insert(lines, { row = mark[2], text = vim.api.nvim_buf_get_lines(buf, mark[2], mark[2] + 1, false)[1] })
    end
  end
  return lines
end

-- The row of the first highlighted line that contains `needle`, or nil.
local function any(lines, needle)
  for _, line in ipairs(lines) do
    if line.text:find(needle, 1, true) then return line.row end
  end
end

-- Moves the source cursor and lets the main loop run (CursorMoved); returns the highlighted lines.
local function cursor_to(win, line, listing)
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_win_set_cursor(win, { line, 2 })
  h.sleep(200)
  return highlighted(listing)
end

local function main()
  local cass = require("cass")
  cass.setup({
    cmd = { os.getenv("CASS_PYTHON"), "-m", "cass_lsp", "--stdio" },
    settings = { asm = { targets = { "sm_90", "gfx1100" } } },
  })
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("CU_FILE")))
  local src, src_win = vim.api.nvim_get_current_buf(), vim.api.nvim_get_current_win()
  local up = h.server_started(cass)
  step("server_started", up)
  if not up then return finish() end
  result.server_pid = vim.lsp.get_client_by_id(cass.client_id).rpc.pid

  vim.cmd("CassAsm")
  step("returns_at_once", listing_of(src) == nil)  -- the compilers run while the editor is free
  h.wait_until(120000, function() return listing_of(src) ~= nil end)
  local listing = listing_of(src)
  local windows = listing and vim.fn.win_findbuf(listing) or {}
  step("split_opened", #windows == 1 and vim.fn.winlayout()[1] == "row"
       and vim.api.nvim_get_current_win() == src_win, vim.fn.winlayout())
  if not listing then return finish() end
  local text = table.concat(vim.api.nvim_buf_get_lines(listing, 0, -1, false), "\n")
  step("sass_and_rdna3", text:find("== sm_90", 1, true) ~= nil and text:find("== gfx1100", 1, true) ~= nil
       and text:find("BAR", 1, true) ~= nil and text:find("s_barrier", 1, true) ~= nil, text:sub(1, 600))

  local lines = cursor_to(src_win, 6, listing)  -- __syncthreads();
  local bar = any(lines, "BAR")
  step("follow_syncthreads", bar ~= nil and any(lines, "s_barrier") ~= nil and any(lines, "__syncthreads") ~= nil
       and any(lines, "REDG") == nil and any(lines, "global_atomic") == nil, lines)

  lines = cursor_to(src_win, 12, listing)  -- atomicAdd(out, s + lane);
  step("follow_atomic_add", any(lines, "REDG") ~= nil and any(lines, "global_atomic") ~= nil
       and any(lines, "BAR") == nil and any(lines, "s_barrier") == nil, lines)

  -- <CR> on the BAR line, typed in the listing's window, goes back to line 6 of the source
  vim.api.nvim_set_current_win(windows[1])
  vim.api.nvim_win_set_cursor(windows[1], { bar + 1, 0 })
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes("<CR>", true, false, true), "x", false)
  local at = vim.api.nvim_win_get_cursor(0)[1]
  h.sleep(200)
  step("enter_jumps_to_source", vim.api.nvim_get_current_win() == src_win and at == 6
       and any(highlighted(listing), "BAR") ~= nil, { win = vim.api.nvim_get_current_win(), line = at })

  -- :CassAsm again updates the same view rather than opening another
  local done = false
  cass.show_assembly({ on_open = function(buf) done = buf end })
  h.wait_until(60000, function() return done end)
  step("refresh_reuses_view", done == listing and #vim.fn.win_findbuf(listing) == 1 and #vim.api.nvim_list_wins() == 2)

  vim.cmd("bwipeout " .. listing)
  local follow = vim.api.nvim_get_autocmds({ event = "CursorMoved", buffer = src })
  step("wipe_removes_follow", #follow == 0, follow)

  vim.lsp.stop_client(cass.client_id)
  finish()
end

h.run_async(main)
