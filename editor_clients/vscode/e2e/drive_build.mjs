// Build files in the real workbench: a CUDA project's CMakeLists.txt (the workspace's montecarlo/, a
// copy of tests/corpus/projects/findcuda_rand) gets the server's findings and its two actions.
//
// Usage: node e2e/drive_build.mjs <workbench URL> <artifacts dir> (the shared part: e2e/workbench.mjs)
//
// Steps:
//   workbench   the workbench and the folder's explorer are there
//   open        montecarlo/CMakeLists.txt opens via Quick Open (a fresh profile has no CMake
//               extension: the language is whatever VS Code gives it, recorded as seen.language)
//   diagnostic  Problems lists the server's findings of the file (source cass-lsp-build)
//   actions     "Source Action..." offers "Translate file to HIP" and "Create HIP translation
//               CMakeLists.hip.txt"; the latter writes the translation beside the file, saved
//   translate   "cass-lsp: Translate File to HIP" rewrites the file in place, saved
// The test compares both files on disk with the CLI's port and with the reviewed expected file.
import { drive, editorText } from './workbench.mjs';

const FILE = 'montecarlo/CMakeLists.txt';
const CREATED = 'CMakeLists.hip.txt';

await drive('node e2e/drive_build.mjs <url> <artifacts dir>', async (wb) => {
  const { page, seen, begin } = wb;
  const active = page.locator('.editor-group-container').first().locator('.monaco-editor .view-lines').first();
  const activeHas = (text) => page.waitForFunction((wanted) => {
    const lines = document.querySelector('.editor-group-container .editor-instance .view-lines');
    return (lines?.textContent ?? '').replace(/\u00a0/g, ' ').includes(wanted);
  }, text);
  const saved = () => page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'detached' });

  begin('workbench');
  await wb.open();
  wb.step('workbench');

  begin('open');
  await wb.quickOpen(FILE);
  await activeHas('cuda_add_executable');
  seen.language = (await page.locator('#status\\.editor\\.mode').first().innerText()).trim();
  wb.note(`${FILE} opened as ${seen.language}`);
  wb.step('open');

  begin('diagnostic');
  await page.keyboard.press('Control+Shift+M');
  const rows = page.locator('.markers-panel .monaco-list-row');
  await rows.filter({ hasText: 'cass-lsp-build' }).first().waitFor();
  // every finding row (the file's own row first)
  await page.waitForFunction(() => document.querySelectorAll('.markers-panel .monaco-list-row').length > 3);
  seen.problems = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  wb.note(`problems: ${seen.problems.join(' | ')}`);
  await wb.shot('11-build-problems.png');
  await page.keyboard.press('Control+Shift+M');
  wb.step('diagnostic');

  begin('actions');
  await active.click();
  await wb.palette('Source Action...');
  const menu = page.locator('.action-widget').first();
  const create = menu.locator('.monaco-list-row', { hasText: `Create HIP translation ${CREATED}` }).first();
  await create.waitFor();
  seen.sourceActions = (await menu.innerText()).split('\n').filter(Boolean);
  wb.note(`source actions: ${seen.sourceActions.join(' | ')}`);
  await wb.shot('12-build-source-actions.png');
  // the menu has the keyboard (a click on its row times out: the context view overlays it)
  const focused = () => menu.locator('.monaco-list-row.focused').first().innerText().catch(() => '');
  for (let i = 0; i < seen.sourceActions.length && !(await focused()).includes('Create HIP translation'); i++) {
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await wb.explorerOpen(CREATED);
  await activeHas('enable_language(HIP)');
  await wb.palette('File: Save All');
  await saved();
  wb.step('actions');

  begin('translate');
  await wb.explorerOpen('CMakeLists.txt');
  await active.click();
  await wb.palette('cass-lsp: Translate File to HIP');
  await activeHas('enable_language(HIP)');
  await page.keyboard.press('Control+S');
  await saved();
  seen.translatedTop = await editorText(active);
  await wb.shot('13-build-translated.png');
  wb.step('translate');
});
