-- cass-lsp for Neovim (0.7 and newer): starts the server for CUDA and HIP buffers, hands it the
-- settings (Neovim 0.7 neither pushes them nor advertises workspace/configuration), and adds
-- :CassShowAssembly and :CassTranslate.
local M = {}

M.config = {
  cmd = { "cass-lsp", "--stdio" },
  -- the `cass` settings section; `cass-lsp schema` lists every key
  settings = {},
  filetypes = { "cuda", "hip" },
  root_markers = { "compile_commands.json", ".git" },
}

-- The project root of a file (a file name, or a buffer number: the current buffer by default): the
-- folder that holds a root marker. The markers are tried in the order of config.root_markers, each
-- from the file's folder upward, so compile_commands.json anywhere above wins over a nearer .git; a
-- marker may be a file (compile_commands.json, the .git file of a worktree) or a folder (.git).
-- Without any marker above, the file's own folder.
function M.root_dir(file)
  local name = type(file) == "string" and file or vim.api.nvim_buf_get_name(file or 0)
  local start = vim.fn.fnamemodify(name, ":p:h")
  for _, marker in ipairs(M.config.root_markers) do
    local dir = start
    while true do
      if vim.loop.fs_stat(dir .. "/" .. marker) then return dir end
      local parent = vim.fn.fnamemodify(dir, ":h")
      if parent == dir then break end
      dir = parent
    end
  end
  return start
end

local function client()
  return M.client_id and vim.lsp.get_client_by_id(M.client_id) or nil
end

function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if not client() then
    M.client_id = vim.lsp.start_client({
      name = "cass-lsp",
      cmd = M.config.cmd,
      root_dir = M.root_dir(bufnr),
      init_options = M.config.settings,
      settings = { cass = M.config.settings },
      on_init = function(c)
        c.notify("workspace/didChangeConfiguration", { settings = { cass = M.config.settings } })
      end,
    })
  end
  if M.client_id then vim.lsp.buf_attach_client(bufnr, M.client_id) end
  return M.client_id
end

local function open_listing(text)
  vim.cmd("vnew")
  local out = vim.api.nvim_get_current_buf()
  vim.bo[out].buftype = "nofile"
  vim.bo[out].bufhidden = "wipe"
  vim.api.nvim_buf_set_lines(out, 0, -1, false, vim.split(text, "\n", { plain = true }))
  vim.bo[out].filetype = "asm"
  vim.bo[out].modifiable = false
  return out
end

-- Open the listings of the current file (at the cursor line) in a split, SASS and AMDGPU side by side.
-- Asynchronous: the editor stays usable while the compilers run; the split opens when they are done
-- (opts.on_open(bufnr) is called with the listing's buffer then).
function M.show_assembly(opts)
  opts = opts or {}
  local c = client()
  if not c then
    vim.notify("cass-lsp is not running for this buffer", vim.log.levels.WARN)
    return
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local params = { uri = vim.uri_from_bufnr(bufnr) }
  if opts.line ~= false then params.line = vim.api.nvim_win_get_cursor(0)[1] - 1 end
  vim.notify("cass-lsp: compiling the listings…", vim.log.levels.INFO)
  c.request("cass/assembly", params, function(err, result)
    if err or not result then
      vim.notify("cass-lsp: no assembly: " .. vim.inspect(err), vim.log.levels.ERROR)
      return
    end
    local out = open_listing(result.text)
    if opts.on_open then opts.on_open(out) end
  end, bufnr)
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", M.config, opts or {})
  local group = vim.api.nvim_create_augroup("cass_lsp", { clear = true })
  vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
    group = group,
    pattern = { "*.hip" },
    callback = function() vim.bo.filetype = "hip" end,
  })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args) M.attach(args.buf) end,
  })
  vim.api.nvim_create_user_command("CassShowAssembly", function() M.show_assembly() end, {})
  vim.api.nvim_create_user_command("CassTranslate", function()
    local filter = function(action) return action.title:match("^Translate file") ~= nil end
    if vim.lsp.buf.range_code_action and vim.fn.has("nvim-0.8") == 0 then
      vim.lsp.buf.code_action({ only = { "source" } })
    else
      vim.lsp.buf.code_action({ filter = filter, apply = true })
    end
  end, {})
end

return M
