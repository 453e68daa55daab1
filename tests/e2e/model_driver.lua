-- Headless Neovim: "Translate kernel … to HIP (CASS model)" through the plugin and Neovim's own
-- code-action UI, with the tiny test GGUF. Env: CU_FILE, MODEL and those of headless.py.
local h = dofile(os.getenv("E2E_DIR") .. "/harness.lua")
local step, finish, result = h.step, h.finish, h.result
result.progress = {}

-- watch the streamed progress the way a status line plugin would
local progress_handler = vim.lsp.handlers["$/progress"]
vim.lsp.handlers["$/progress"] = function(err, params, ctx, config)
  if params and params.value and params.value.message then
    table.insert(result.progress, params.value.message)
  end
  if progress_handler then return progress_handler(err, params, ctx, config) end
end

local function main()
  local cass = require("cass")
  cass.setup({
    cmd = { os.getenv("CASS_PYTHON"), "-m", "cass_lsp", "--stdio" },
    settings = {
      target = { rocm = "5.2" },
      asm = { targets = { "gfx1100" }, compileOnOpen = false },
      model = { name = os.getenv("MODEL"), nThreads = 1, nCtx = 2048, maxTokens = 400 },
    },
    workspace_trusted = true,  -- model.name is a file's path: it applies only in a trusted workspace
  })
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("CU_FILE")))
  local bufnr = vim.api.nvim_get_current_buf()
  local up = h.server_started(cass)
  step("server_started", up)
  if not up then return finish() end

  h.choose_action("^Translate kernel .*%(CASS model%)$")
  local before = vim.b[bufnr].changedtick
  h.code_action_at(4, 4)  -- inside the kernel
  local applied = vim.wait(60000, function() return vim.b[bufnr].changedtick ~= before end, 50)
  step("model_action_applied", applied, result.titles)
  local streamed = false
  for _, message in ipairs(result.progress) do
    if message:find("tokens:", 1, true) then streamed = true end
  end
  step("progress_streamed", streamed, result.progress)
  -- the compile check of the new text leaves no compiler error behind
  vim.wait(3000, function() return false end, 100)
  local errors = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == "cass-asm" then table.insert(errors, d.message) end
  end
  step("compiles", #errors == 0, errors)
  vim.cmd("write")
  local content = table.concat(vim.fn.readfile(os.getenv("CU_FILE")), "\n")
  step("kernel_from_the_model", content:find("hipBlockIdx_x", 1, true) ~= nil
       and content:find("cudaMalloc(&x", 1, true) ~= nil, content)

  vim.lsp.stop_client(cass.client_id)
  finish()
end

h.run(main)
