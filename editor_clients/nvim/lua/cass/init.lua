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

local function root_dir(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = vim.fn.fnamemodify(name, ":p:h")
  for _, marker in ipairs(M.config.root_markers) do
    local found = vim.fn.findfile(marker, dir .. ";")
    if found == "" then found = vim.fn.finddir(marker, dir .. ";") end
    if found ~= "" then return vim.fn.fnamemodify(found, ":p:h:h") end
  end
  return dir
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
      root_dir = root_dir(bufnr),
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

-- Open the listings of the current file (at the cursor line) in a split, SASS and AMDGPU side by side.
function M.show_assembly(opts)
  opts = opts or {}
  local c = client()
  if not c then
    vim.notify("cass-lsp is not running for this buffer", vim.log.levels.WARN)
    return nil
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local params = { uri = vim.uri_from_bufnr(bufnr) }
  if opts.line ~= false then params.line = vim.api.nvim_win_get_cursor(0)[1] - 1 end
  local reply = c.request_sync("cass/assembly", params, opts.timeout_ms or 120000, bufnr)
  if not reply or reply.err or not reply.result then
    vim.notify("cass-lsp: no assembly: " .. vim.inspect(reply and reply.err), vim.log.levels.ERROR)
    return nil
  end
  vim.cmd("vnew")
  local out = vim.api.nvim_get_current_buf()
  vim.bo[out].buftype = "nofile"
  vim.bo[out].bufhidden = "wipe"
  vim.api.nvim_buf_set_lines(out, 0, -1, false, vim.split(reply.result.text, "\n", { plain = true }))
  vim.bo[out].filetype = "asm"
  vim.bo[out].modifiable = false
  return out
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
