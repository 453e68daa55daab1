-- Loaded by Neovim from the runtimepath; call require("cass").setup({ ... }) to start using it.
if vim.g.loaded_cass then return end
vim.g.loaded_cass = true
