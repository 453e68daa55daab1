-- The :CassAsm view: a source buffer's listings in a vertical split, with cursor-follow.
--
-- The view is built here from the structured `results` of the cass/assembly reply, not from its
-- rendered `text`: building each line ourselves is what tells us which source line it stands for,
-- exactly, and a change in the server's text layout cannot silently break the highlighting.
local M = {}

local ns = vim.api.nvim_create_namespace("cass_asm")

-- One view per source buffer: views[source] = { buf = listing buffer, origin = { [0-based listing
-- line] = 1-based source line }, rows = { [source line] = { 0-based listing lines } } }.
local views = {}

local function basename(path)
  return vim.fn.fnamemodify(path, ":t")
end

local function size(bytes)
  if bytes < 1024 or bytes % 1024 ~= 0 then return bytes .. " B" end
  return math.floor(bytes / 1024) .. " KiB"
end

-- The resource figures worth a glance in a function's header line (registers, shared memory /
-- LDS, stack / scratch, spills, occupancy), the way `cass-lsp asm` prints them.
local function resource_summary(r, amd)
  local parts = {}
  local function add(text) table.insert(parts, text) end
  if r.vgprs then
    add(r.vgprs .. " VGPRs")
    if r.sgprs then add(r.sgprs .. " SGPRs") end
  elseif r.registers then
    add(r.registers .. " regs")
  end
  if (r.sharedBytes or 0) > 0 then add(size(r.sharedBytes) .. (amd and " LDS" or " shared")) end
  if (r.scratchBytes or 0) > 0 then add(size(r.scratchBytes) .. (amd and " scratch" or " stack")) end
  if (r.spillStoreBytes or 0) + (r.spillLoadBytes or 0) > 0 then
    add(string.format("spills %d B stored / %d B loaded", r.spillStoreBytes or 0, r.spillLoadBytes or 0))
  elseif (r.vgprSpills or 0) + (r.sgprSpills or 0) > 0 then
    add(string.format("spills %d VGPR / %d SGPR", r.vgprSpills or 0, r.sgprSpills or 0))
  end
  if r.occupancy then add(r.occupancy .. " " .. (r.occupancyUnit or "")) end
  return table.concat(parts, " · ")
end

-- Why a target has no listing (a missing tool, a compile error, still compiling), as lines.
local function reason_lines(result)
  if result.kind == "unavailable" then
    return { result.message .. (result.hint and (" (install: " .. result.hint .. ")") or "") }
  end
  if result.kind ~= "failure" then return { result.message or result.kind } end
  local origin = result.translated and " (in the rule translation)" or ""
  local out = { result.timedOut and ("compile " .. (result.note or "timed out")) or ("does not compile" .. origin) }
  for i, d in ipairs(result.diagnostics or {}) do
    if i > 20 then break end
    table.insert(out, d.severity .. ": " .. (d.line and ("line " .. d.line .. ": ") or "") .. d.message)
  end
  return out
end

-- The line of `source` an instruction came from: its own location, else the first call site it
-- was inlined through that lies in `source` (a __syncthreads() inlined from a HIP header counts
-- for the line that called it). nil for code that no line of the file stands for.
local function origin_of(ins, source)
  if ins.file == source and ins.line then return ins.line end
  for _, loc in ipairs(ins.inlinedAt or {}) do
    if loc.file == source then return loc.line end
  end
end

local function labels_by_index(labels)
  local at = {}
  for name, index in pairs(labels or {}) do
    at[index] = at[index] or {}
    table.insert(at[index], name)
  end
  for _, names in pairs(at) do table.sort(names) end
  return at
end

-- A function's instructions, under a header line for each run of instructions from the same
-- source line; `add(text, from)` records a view line and the source line it stands for.
local function add_instructions(add, fn, source, source_text)
  local labels = labels_by_index(fn.labels)
  local last_header
  for _, ins in ipairs(fn.instructions) do
    for _, name in ipairs(labels[ins.index] or {}) do add("  " .. name .. ":") end
    local from = origin_of(ins, source)
    local elsewhere = ins.file and ins.line and (basename(ins.file) .. ":" .. ins.line) or nil
    local header = from and string.format("%5d | %s", from, source_text(from))
      or ("      | " .. (elsewhere or "(no source line)"))
    if header ~= last_header then
      add(header, from)
      last_header = header
    end
    local where = ins.address and string.format("%04x", ins.address) or string.format("%4d", ins.index)
    local note = (from and ins.file ~= source and elsewhere) and ("  ; " .. elsewhere) or ""
    add(string.format("        %s  %s%s", where, ins.text, note), from)
  end
end

local function add_listing(add, listing, source_text)
  add(string.format("== %s · %s · %s ==", listing.target, basename(listing.source), listing.toolchain or ""))
  if listing.note then add("   (" .. listing.note .. ")") end
  local amd = listing.dialect ~= "sass"
  for _, fn in ipairs(listing.functions) do
    add(string.format("-- %s  [%s]  %s", fn.demangled, fn.kind, resource_summary(fn.resources or {}, amd)))
    add_instructions(add, fn, listing.source, source_text)
  end
end

-- The view's lines for a cass/assembly reply, and for each line that stands for source code the
-- 1-based source line (keys: 0-based view lines, as the highlight API counts).
local function build(results, source_text)
  local lines, origin = {}, {}
  local function add(text, from)
    table.insert(lines, text)
    origin[#lines - 1] = from
  end
  for i, result in ipairs(results) do
    if i > 1 then add("") end
    if result.kind == "listing" then
      add_listing(add, result, source_text)
    else
      add("== " .. result.target .. " ==")
      for _, line in ipairs(reason_lines(result)) do add("   " .. line) end
    end
  end
  return lines, origin
end

local function rows_by_source_line(origin)
  local rows = {}
  for row, line in pairs(origin) do
    rows[line] = rows[line] or {}
    table.insert(rows[line], row)
  end
  for _, list in pairs(rows) do table.sort(list) end
  return rows
end

-- Highlights the view lines of the source line under the cursor and scrolls the view's windows to
-- the first of them. Called on CursorMoved in the source buffer, so it does no more than look up.
local function follow(src)
  local view = views[src]
  if not view then return end
  vim.api.nvim_buf_clear_namespace(view.buf, ns, 0, -1)
  local rows = view.rows[vim.api.nvim_win_get_cursor(0)[1]] or {}
  for _, row in ipairs(rows) do
    vim.api.nvim_buf_add_highlight(view.buf, ns, "CassAsmLine", row, 0, -1)
  end
  if rows[1] then
    for _, win in ipairs(vim.fn.win_findbuf(view.buf)) do vim.api.nvim_win_set_cursor(win, { rows[1] + 1, 0 }) end
  end
end

-- <CR> in the view: the source line of the view line under the cursor, in a window showing the
-- source (a new split when none does).
local function jump(src)
  local view = views[src]
  local line = view and view.origin[vim.api.nvim_win_get_cursor(0)[1] - 1]
  if not line then return end
  if not vim.api.nvim_buf_is_valid(src) then
    vim.notify("cass-lsp: the source buffer of this listing is gone", vim.log.levels.WARN)
    return
  end
  local win = vim.fn.bufwinid(src)
  if win == -1 then
    vim.cmd("leftabove vertical sbuffer " .. src)
  else
    vim.api.nvim_set_current_win(win)
  end
  vim.api.nvim_win_set_cursor(0, { line, 0 })
end

-- A new view buffer for `src`, with its <CR> and the autocommands that follow the cursor; wiping
-- the view (closing its window: bufhidden=wipe) removes them.
local function new_view(src)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].filetype = "asm"
  vim.api.nvim_buf_set_name(buf, "cass-asm://" .. vim.api.nvim_buf_get_name(src))
  vim.keymap.set("n", "<CR>", function() jump(src) end, { buffer = buf, desc = "cass: go to the source line" })
  local group = vim.api.nvim_create_augroup("cass_asm_follow_" .. src, { clear = true })
  vim.api.nvim_create_autocmd("CursorMoved", { group = group, buffer = src, callback = function() follow(src) end })
  vim.api.nvim_create_autocmd("BufWipeout", {
    group = group,
    buffer = buf,
    callback = function()
      views[src] = nil
      vim.api.nvim_del_augroup_by_id(group)
    end,
  })
  views[src] = { buf = buf, origin = {}, rows = {} }
  return views[src]
end

-- Shows `buf` in a vertical split beside the source's window. The cursor stays where it is: the
-- reply arrives asynchronously, when the user may be typing anywhere.
local function show_beside(src, buf)
  local here = vim.api.nvim_get_current_win()
  local src_win = vim.fn.bufwinid(src)
  if src_win ~= -1 then vim.api.nvim_set_current_win(src_win) end
  vim.cmd("rightbelow vertical sbuffer " .. buf)
  vim.api.nvim_set_current_win(here)
end

-- Opens or updates the view of `src` with a cass/assembly reply; returns the view's buffer.
function M.show(src, reply)
  local view = views[src] or new_view(src)
  local text = vim.api.nvim_buf_get_lines(src, 0, -1, false)
  local lines, origin = build(reply.results, function(n) return ((text[n] or ""):gsub("%s+$", "")) end)
  vim.bo[view.buf].modifiable = true
  vim.api.nvim_buf_set_lines(view.buf, 0, -1, false, lines)
  vim.bo[view.buf].modifiable = false
  view.origin, view.rows = origin, rows_by_source_line(origin)
  if #vim.fn.win_findbuf(view.buf) == 0 then show_beside(src, view.buf) end
  local src_win = vim.fn.bufwinid(src)
  if src_win ~= -1 then vim.api.nvim_win_call(src_win, function() follow(src) end) end
  return view.buf
end

-- The source buffer of a view buffer (nil for any other buffer), so :CassAsm in the view refreshes it.
function M.source_of(buf)
  for src, view in pairs(views) do
    if view.buf == buf then return src end
  end
end

-- The highlight is a link, so a colorscheme that defines CassAsmLine wins; re-linked after
-- :colorscheme, which clears the links plugins made.
function M.define_highlight()
  vim.api.nvim_set_hl(0, "CassAsmLine", { link = "Visual", default = true })
end

return M
