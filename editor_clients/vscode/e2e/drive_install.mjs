// "Install cass-lsp" in the real workbench: a fresh profile with no server anywhere opens kernel.cu,
// the notification offers the install, a click installs the server from the wheel the .vsix carries,
// and a hover over the kernel's body line then shows its RDNA3 (gfx1100) listing.
//
// Usage: node e2e/drive_install.mjs <workbench URL> <artifacts dir> (the shared part: e2e/workbench.mjs)
// Env: SCENARIO (below), HOVER_LINE (1-based line of the hover), HOVER_COLUMN, INSTALL_TIMEOUT_MS
// (default 900000), STORAGE (the extension's global storage folder, for the processes left).
//
// Steps of SCENARIO=install (the default):
//   workbench   the workbench and the folder's explorer are there
//   offered     kernel.cu is open and the "server not found" notification has "Install cass-lsp"
//   installed   after the click, the progress notification, then doctor's findings ("cass-lsp is
//               installed ...") as a notification
//   hover       the hover of the body line shows the gfx1100 listing (v_ instructions); the time from
//               the click to that hover is seen.clickToHoverS
// SCENARIO=cancel-retry: between offered and installed, `cancelled`: Cancel on the progress
// notification while pip runs gives "the install was cancelled" and leaves no process of the
// install (seen.leftAfterCancel); its Retry then installs.
// SCENARIO=no-python: after offered, `failed`: the install fails at its first step, naming it
// (seen.failed), and Show Install Log shows the log.
import fs from 'node:fs';
import { drive } from './workbench.mjs';

const HOVER_LINE = Number(process.env.HOVER_LINE || 5);
const HOVER_COLUMN = Number(process.env.HOVER_COLUMN || 20);
const INSTALL_TIMEOUT = Number(process.env.INSTALL_TIMEOUT_MS || 900000);
const SCENARIO = process.env.SCENARIO || 'install';

/** The processes whose command line names the install's venv (pip, setup), as `pid argv`. */
function installProcesses() {
  const storage = process.env.STORAGE;
  const found = [];
  for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    let argv = '';
    try {
      argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      continue; // gone meanwhile
    }
    if (storage && argv.includes(storage)) found.push(`${pid} ${argv.slice(0, 200)}`);
  }
  return found;
}

await drive('node e2e/drive_install.mjs <url> <artifacts dir>', async (wb) => {
  const { page, seen, begin } = wb;
  const toast = (text) => page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();

  begin('workbench');
  await wb.open();
  wb.step('workbench');

  begin('offered');
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'kernel.cu' }).first().click();
  const offer = toast('Install cass-lsp');
  await offer.waitFor();
  seen.offer = (await offer.innerText()).replace(/\s+/g, ' ');
  wb.note(`offer: ${seen.offer}`);
  await wb.shot('21-install-offered.png');
  wb.step('offered');

  const clicked = Date.now();
  await offer.locator('.monaco-button', { hasText: 'Install cass-lsp' }).first().click();

  if (SCENARIO === 'no-python') {
    begin('failed');
    const failed = toast('the install failed at');
    await failed.waitFor();
    seen.failed = (await failed.innerText()).replace(/\s+/g, ' ');
    wb.note(`failed: ${seen.failed}`);
    await wb.shot('25-install-failed.png');
    await failed.locator('.monaco-button', { hasText: 'Show Install Log' }).first().click();
    // the output view: the editor whose lines have the log's end
    const log = page.locator('.part.panel .view-lines', { hasText: '=== failed at' }).first();
    await log.waitFor();
    seen.log = (await log.innerText()).replace(/\u00a0/g, ' ');
    wb.step('failed');
    return;
  }

  if (SCENARIO === 'cancel-retry') {
    begin('cancelled');
    const progress = toast('[3/5] pip install');
    await progress.waitFor();
    await progress.locator('.monaco-button', { hasText: 'Cancel' }).first().click();
    const cancelled = toast('the install was cancelled');
    await cancelled.waitFor();
    seen.cancelled = (await cancelled.innerText()).replace(/\s+/g, ' ');
    for (let i = 0; i < 50 && installProcesses().length; i++) await page.waitForTimeout(100);
    seen.leftAfterCancel = installProcesses();
    wb.note(`cancelled: ${seen.cancelled}; processes left: ${seen.leftAfterCancel.length}`);
    await wb.shot('26-install-cancelled.png');
    await cancelled.locator('.monaco-button', { hasText: 'Retry' }).first().click();
    wb.step('cancelled');
  }

  begin('installed');
  await toast('Installing cass-lsp').waitFor();
  await wb.shot('22-installing.png');
  const done = page.locator('.notifications-toasts .notification-toast', { hasText: /cass-lsp is installed|the install (failed|was cancelled)/ }).first();
  await done.waitFor({ timeout: INSTALL_TIMEOUT });
  seen.installed = (await done.innerText()).replace(/\s+/g, ' ');
  seen.installS = (Date.now() - clicked) / 1000;
  wb.note(`after ${seen.installS.toFixed(1)} s: ${seen.installed}`);
  await wb.shot('23-installed.png');
  if (!seen.installed.includes('cass-lsp is installed')) throw new Error(`the install did not succeed: ${seen.installed}`);
  wb.step('installed');

  begin('hover');
  // Show Hover at the body line until the listing of gfx1100 is in it (the compile starts when the
  // server opens the file; until it ends the hover says it is compiling)
  const hover = page.locator('.monaco-hover:not(.hidden)').first();
  const deadline = Date.now() + wb.timeout;
  for (;;) {
    await page.locator('.editor-group-container .monaco-editor .view-lines').first().click();
    await wb.goToLine(`${HOVER_LINE}:${HOVER_COLUMN}`);
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    seen.hover = await hover.innerText({ timeout: 5000 }).catch(() => '');
    if (/gfx1100/.test(seen.hover) && /\bv_[a-z0-9_]+/.test(seen.hover)) break;
    if (Date.now() > deadline) throw new Error(`no gfx1100 listing in the hover: ${seen.hover.slice(0, 300)}`);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1000);
  }
  seen.clickToHoverS = (Date.now() - clicked) / 1000;
  wb.note(`first RDNA3 hover ${seen.clickToHoverS.toFixed(1)} s after the click`);
  await wb.shot('24-rdna3-hover.png');
  wb.step('hover');
});
