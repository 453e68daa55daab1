-- cass-lsp for Neovim (0.7 and newer): starts the server for CUDA and HIP buffers, hands it the
-- settings, and adds :CassAsm (alias :CassShowAssembly), :CassTranslate, :CassVerify, :CassModel
-- and :CassInstall.
local asm = require("cass.asm")
local install = require("cass.install")
local models = require("cass.models")

local M = {}

local NAME = "cass-lsp"

M.config = {
  cmd = { "cass-lsp", "--stdio" },
  -- the cass-lsp command line :CassModel runs `models list --json` with; nil: taken from cmd
  cli = nil,
  -- the `cass` settings section; `cass-lsp schema` lists every key
  settings = {},
  filetypes = { "cuda", "hip", "cmake", "make" }, -- build files: the server ports them to HIP
  root_markers = { "compile_commands.json", ".git" },
  -- true: tell the server the workspace is trusted, so settings that run or load code (compiler
  -- flags, a model file's path, run commands) apply. nil: the server trusts only the folders in
  -- trustedFolders of its settings.toml (see :help cass-trust).
  workspace_trusted = nil,
  -- Connect to a running `cass-lsp serve` instead of starting `cmd` (Neovim 0.8+; a socket 0.10+):
  -- { host = "127.0.0.1", port = 2087 } or { socket = "/run/user/1000/cass-lsp/cass-lsp.sock" },
  -- with token_file when the server's token is not in its default place.
  connect = nil,
  -- :CassInstall: what pip installs into stdpath("data")/cass-lsp/venv (a wheel file works too),
  -- and the Python that creates the venv
  install = { spec = "cass-lsp[nvidia]", python = "python3" },
}

-- The server's command line: config.cmd, except that a `cass-lsp` not on PATH is the one
-- :CassInstall installed, when there is one.
function M.cmd()
  local cmd = M.config.cmd
  if cmd[1] == NAME and vim.fn.executable(NAME) == 0 and install.installed() then
    return vim.list_extend({ install.command() }, cmd, 2)
  end
  return cmd
end

-- The runtime folder `cass-lsp serve` uses by default (platformdirs' user_runtime_dir):
-- $CASS_LSP_RUNTIME_DIR, else $XDG_RUNTIME_DIR/cass-lsp, else /run/user/UID/cass-lsp where that
-- folder exists, else /tmp/runtime-UID/cass-lsp.
local function runtime_dir()
  local override = os.getenv("CASS_LSP_RUNTIME_DIR")
  if override then return override end
  local base = os.getenv("XDG_RUNTIME_DIR")
  if not base then
    local uid = vim.loop.getuid()
    base = vim.fn.isdirectory("/run/user/" .. uid) == 1 and ("/run/user/" .. uid) or ("/tmp/runtime-" .. uid)
  end
  return base .. "/cass-lsp"
end

-- Where `cass-lsp serve --tcp` / `--socket` wrote its token (the server prints it): connect.token_file,
-- else tcp-PORT.token in the runtime folder, or SOCKET.token beside a socket.
function M.token_file(connect)
  if connect.token_file then return connect.token_file end
  if connect.socket then return connect.socket .. ".token" end
  return ("%s/tcp-%d.token"):format(runtime_dir(), connect.port or 2087)
end

local function read_token(connect)
  local file = M.token_file(connect)
  local handle = io.open(file, "r")
  if not handle then error(("cass-lsp: cannot read the server's token from %s (see :help cass-connect)"):format(file)) end
  local token = handle:read("*l")
  handle:close()
  return token
end

-- The command (or connection) and initializationOptions for a client: the settings, the trust the
-- user declared, and the server's token when connecting to a running one.
local function server_start()
  local options = vim.tbl_extend("force", {}, M.config.settings)
  if M.config.workspace_trusted ~= nil then options.workspaceTrusted = M.config.workspace_trusted end
  local connect = M.config.connect
  if not connect then return M.cmd(), options end
  if not (vim.lsp.rpc and vim.lsp.rpc.connect) then error("cass-lsp: `connect` needs Neovim 0.8 or newer") end
  options.token = read_token(connect)
  if connect.socket then return vim.lsp.rpc.connect(connect.socket), options end
  return vim.lsp.rpc.connect(connect.host or "127.0.0.1", connect.port or 2087), options
end

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

-- Every running cass-lsp client (one per project root on Neovim 0.8+, one in all on 0.7).
local function clients()
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  return vim.tbl_filter(function(c) return c.name == NAME end, all)
end

-- Calls a client method: from Neovim 0.11 on they take the client as self (the dot form still
-- works there, but is deprecated).
local methods_take_self = vim.fn.has("nvim-0.11") == 1
local function call(c, method, ...)
  if methods_take_self then return c[method](c, ...) end
  return c[method](...)
end

local function notify_settings(c, settings)
  call(c, "notify", "workspace/didChangeConfiguration", { settings = settings })
end

-- The cass-lsp client attached to a buffer, or nil.
local function buffer_client(bufnr)
  for _, c in ipairs(clients()) do
    if c.attached_buffers[bufnr] then return c end
  end
end

-- The latest verification state of each file, from the server's cass/verificationStatus
-- notifications: { state, summary, stages } by file name (see M.status).
M.verification = {}

local FINAL = { passed = vim.log.levels.INFO, failed = vim.log.levels.WARN, unverified = vim.log.levels.WARN }

local function verification_status(_, params)
  local file = vim.uri_to_fname(params.uri)
  M.verification[file] = params
  -- the server reports each file of a pair: tell the user once, for the file they are looking at
  local level = FINAL[params.state]
  if level and file == vim.api.nvim_buf_get_name(0) then vim.notify("cass-verify: " .. params.summary, level) end
  vim.cmd("redrawstatus")
end

-- The verification state of a buffer for a statusline: "verify: passed", "verify: running", ... or "".
function M.status(bufnr)
  local s = M.verification[vim.api.nvim_buf_get_name(bufnr or 0)]
  return s and ("verify: " .. s.state) or ""
end

local function client_config(bufnr)
  local cmd, init_options = server_start()
  return {
    name = NAME,
    handlers = { ["cass/verificationStatus"] = verification_status },
    cmd = cmd,
    root_dir = M.root_dir(bufnr),
    init_options = init_options,
    settings = { cass = M.config.settings },
    -- Neovim 0.7 sends no settings on its own (newer releases may: the same settings twice change
    -- nothing), and the server reads them from didChangeConfiguration as well
    on_init = function(c)
      notify_settings(c, { cass = M.config.settings })
    end,
  }
end

-- Starts (or reuses) the client for a buffer and attaches it; returns the client id. Neovim 0.8+:
-- vim.lsp.start, one client per project root. 0.7 has no vim.lsp.start: one client, started for
-- the first buffer, is attached to every buffer by hand. M.client_id: the client of the buffer
-- attached last.
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if vim.lsp.start then
    M.client_id = vim.lsp.start(client_config(bufnr), { bufnr = bufnr })
    return M.client_id
  end
  if not (M.client_id and vim.lsp.get_client_by_id(M.client_id)) then
    M.client_id = vim.lsp.start_client(client_config(bufnr))
  end
  if M.client_id then vim.lsp.buf_attach_client(bufnr, M.client_id) end
  return M.client_id
end

-- The listings of the current file in a vertical split beside it, with cursor-follow (see
-- cass.asm); in a listing view, refreshes that view. Asynchronous: the editor stays usable while
-- the compilers run; the view opens or updates when they are done. opts.targets: the targets to
-- list (default: the asm.targets setting); opts.on_open(bufnr): called with the view's buffer.
function M.show_assembly(opts)
  opts = opts or {}
  local current = vim.api.nvim_get_current_buf()
  local src = asm.source_of(current) or current
  local c = buffer_client(src)
  if not c then
    vim.notify("cass-lsp is not running for this buffer", vim.log.levels.WARN)
    return
  end
  vim.notify("cass-lsp: compiling the listings…", vim.log.levels.INFO)
  local params = { uri = vim.uri_from_bufnr(src), targets = opts.targets }
  call(c, "request", "cass/assembly", params, function(err, reply)
    if err or not reply then
      vim.notify("cass-lsp: no assembly: " .. vim.inspect(err), vim.log.levels.ERROR)
      return
    end
    if not vim.api.nvim_buf_is_valid(src) then return end
    local out = asm.show(src, reply)
    if opts.on_open then opts.on_open(out) end
  end, src)
end

-- Sends the whole `cass` section to every running client, and keeps it as what they answer
-- workspace/configuration with (client.config.settings; client.settings from Neovim 0.10 on).
function M.push_settings()
  local settings = { cass = M.config.settings }
  for _, c in ipairs(clients()) do
    c.config.settings = settings
    if c.settings then c.settings = settings end
    notify_settings(c, settings)
  end
end

-- :CassModel: lists the models (asynchronously), and the one picked becomes model.name (or
-- model.assemblyName for an assembly model) in the settings of every running client.
function M.choose_model()
  local cli = M.config.cli or models.cli_from(M.cmd())
  if not cli then
    vim.notify("cass-lsp: cannot tell the cass-lsp command from `cmd`: set `cli` in setup()", vim.log.levels.ERROR)
    return
  end
  models.list(cli, function(list)
    models.pick(list, function(model)
      M.config.settings.model = M.config.settings.model or {}
      local key = models.setting_for(model)
      M.config.settings.model[key] = model.name
      M.push_settings()
      vim.notify(("cass-lsp: model.%s = %s"):format(key, model.name), vim.log.levels.INFO)
    end)
  end)
end

-- :CassVerify: verify the current file's pair now (asynchronously); the verdict is notified and
-- compiler errors arrive as diagnostics (source cass-verify).
function M.verify()
  local bufnr = vim.api.nvim_get_current_buf()
  local c = buffer_client(bufnr)
  if not c then
    vim.notify("cass-lsp is not running for this buffer", vim.log.levels.WARN)
    return
  end
  vim.notify("cass-lsp: verifying…", vim.log.levels.INFO)
  local params = { command = "cass.verify", arguments = { vim.uri_from_bufnr(bufnr) } }
  call(c, "request", "workspace/executeCommand", params, function(err, reply)
    if err then
      vim.notify("cass-lsp: cannot verify: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    elseif reply then
      M.last_verdict = reply
      vim.notify("cass-verify: " .. reply.summary, FINAL[reply.verdict] or vim.log.levels.INFO)
    end
  end, bufnr)
end

function M.translate_file()
  if vim.fn.has("nvim-0.8") == 0 then
    -- 0.7's code_action has neither filter nor apply: the source actions, picked by the user
    vim.lsp.buf.code_action({ only = { "source" } })
  else
    local filter = function(action) return action.title:match("^Translate file") ~= nil end
    vim.lsp.buf.code_action({ filter = filter, apply = true })
  end
end

local function create_commands()
  local show = function(args)
    M.show_assembly({ targets = #args.fargs > 0 and args.fargs or nil })
  end
  local targets = { nargs = "*", desc = "cass-lsp: listings of this file, following the cursor" }
  vim.api.nvim_create_user_command("CassAsm", show, targets)
  vim.api.nvim_create_user_command("CassShowAssembly", show, targets)
  vim.api.nvim_create_user_command("CassTranslate", M.translate_file, { desc = "cass-lsp: translate the file to HIP" })
  vim.api.nvim_create_user_command("CassModel", M.choose_model, { desc = "cass-lsp: choose the CASS model" })
  vim.api.nvim_create_user_command("CassVerify", M.verify, { desc = "cass-lsp: verify this file's translation pair now" })
  vim.api.nvim_create_user_command("CassInstall", M.install, { desc = "cass-lsp: install the server (no root)" })
end

-- :CassInstall: the server into a venv under stdpath("data"), then `cass-lsp setup`.
function M.install()
  install.install(M.config.install.spec, M.config.install.python, function(ok, message)
    if not ok then
      vim.notify("cass-lsp: install failed: " .. message, vim.log.levels.ERROR)
    elseif message ~= "" then
      vim.notify("cass-lsp: installed " .. install.command() .. "; setup said:\n" .. message, vim.log.levels.WARN)
    else
      vim.notify("cass-lsp: installed " .. install.command() .. " (reopen a CUDA file to start it)")
    end
  end)
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
  asm.define_highlight()
  vim.api.nvim_create_autocmd("ColorScheme", { group = group, callback = asm.define_highlight })
  create_commands()
end

return M
