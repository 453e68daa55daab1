// What every e2e driver shares: headless Chromium on a running code-server workbench, the step log,
// result.json, screenshots and the workbench gestures (palette, Quick Open, Go to Line, editor text).
//
// A driver calls `drive(name, async (wb) => { ... })`: each `wb.step(name)` is logged as
// `STEP <name> <seconds>`; a thrown error prints `FAIL <step>: <why>`, saves 99-failure.png and
// exits 1. result.json (steps, texts seen, browser errors, requests that left the machine) is
// written to the artifacts dir either way.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

/** The text of an editor's view lines, with VS Code's non-breaking spaces as spaces. */
export const editorText = (locator) => locator.evaluate((el) => el.innerText.replace(/\u00a0/g, ' '));

export async function drive(usage, body) {
  const [url, out] = process.argv.slice(2);
  if (!url || !out) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  fs.mkdirSync(out, { recursive: true });
  const timeout = Number(process.env.E2E_TIMEOUT_MS || 120000);
  const t0 = Date.now();
  const seconds = () => ((Date.now() - t0) / 1000).toFixed(1);
  const result = { steps: [], seen: {}, browserErrors: [], externalRequests: [] };
  let current = 'start';

  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'cass-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1600, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(timeout);
  page.on('console', (m) => {
    if (m.type() === 'error') result.browserErrors.push(m.text().slice(0, 300));
  });
  page.on('request', (r) => {
    const u = r.url();
    if (!/^(https?|wss?):\/\/(127\.0\.0\.1|localhost)[:/]/.test(u) && !/^(data|blob|vscode-[a-z-]+):/.test(u)) {
      result.externalRequests.push(u.slice(0, 200));
    }
  });

  const input = page.locator('.quick-input-widget input');
  const exactLabel = (name) => page.locator('.label-name', { hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
  const wb = {
    page,
    result,
    seen: result.seen,
    timeout,
    seconds,
    /** The step now running: a failure names it. */
    begin: (name) => {
      current = name;
    },
    step: (name) => {
      result.steps.push({ name, at: Number(seconds()) });
      console.log(`STEP ${name} ${seconds()}`);
    },
    note: (text) => console.log(`[${seconds()}s] ${text}`),
    shot: (name) => page.screenshot({ path: path.join(out, name) }),
    /** The workbench of `url` with its folder's explorer. */
    open: async () => {
      await page.goto(url);
      await page.waitForSelector('.monaco-workbench');
      await page.waitForSelector('.explorer-folders-view .monaco-list-row');
    },
    /** Runs a command from the palette by its full title. */
    palette: async (title) => {
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible' });
      await input.fill(`>${title}`);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
      await page.keyboard.press('Enter');
    },
    /** Opens a workspace file by its path relative to the folder (Quick Open). */
    quickOpen: async (relative) => {
      await page.keyboard.press('Control+P');
      await input.waitFor({ state: 'visible' });
      await input.fill(relative);
      // the row of exactly that name (recently opened files with longer names may come first),
      // chosen with the keyboard: a click on a quick-input row does not reach it in headless Chromium
      const label = exactLabel(relative.split('/').pop());
      const rows = page.locator('.quick-input-list .monaco-list-row');
      await rows.filter({ has: label }).first().waitFor();
      for (let i = 0; i < 20 && !(await rows.and(page.locator('.focused')).filter({ has: label }).count()); i++) {
        await page.keyboard.press('ArrowDown');
      }
      await page.keyboard.press('Enter');
      await input.waitFor({ state: 'hidden' });
      await page.locator('.tabs-container .tab.active').filter({ has: label }).first().waitFor();
    },
    /** Opens a file by its name from the explorer, where its folder is expanded (a file created
     * a moment ago is there before Quick Open's file index has it). */
    explorerOpen: async (name) => {
      const label = exactLabel(name);
      await page.locator('.explorer-folders-view .monaco-list-row').filter({ has: label }).first().click();
      await page.locator('.tabs-container .tab.active').filter({ has: label }).first().waitFor();
    },
    /** Moves the cursor of the active editor to a 1-based line (Go to Line). */
    goToLine: async (line) => {
      await page.keyboard.press('Control+G');
      await input.waitFor({ state: 'visible' });
      await input.fill(`:${line}`);
      await page.keyboard.press('Enter');
      await input.waitFor({ state: 'hidden' });
    },
  };

  let ok = false;
  try {
    await body(wb);
    ok = true;
  } catch (error) {
    result.failure = { step: current, message: String(error?.message ?? error).split('\n')[0] };
    console.log(`FAIL ${current}: ${result.failure.message}`);
    await page.screenshot({ path: path.join(out, '99-failure.png') }).catch(() => undefined);
  } finally {
    fs.writeFileSync(path.join(out, 'result.json'), JSON.stringify(result, null, 2));
    await context.close().catch(() => undefined);
    fs.rmSync(profile, { recursive: true, force: true });
  }
  console.log(ok ? `E2E PASS ${seconds()}` : `E2E FAIL ${seconds()}`);
  process.exit(ok ? 0 : 1);
}
