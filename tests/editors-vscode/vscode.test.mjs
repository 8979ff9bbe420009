// The Denpex VS Code extension in real VS Code: code-server 4.139.1 (VS Code 1.139.1) driven by
// Debian's Chromium through playwright-core. Run by run.sh (which builds the .vsix and finds the tools).
//   node vscode.test.mjs --vsix FILE --code-server BIN --chromium BIN [--screenshots DIR] [--only 1,2,3,4,5]
// Every wait is bounded; the first failure prints what the page showed, saves a screenshot and exits 1.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, copyFileSync, rmSync, existsSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const arg = (n, d) => (process.argv.indexOf(n) >= 0 ? process.argv[process.argv.indexOf(n) + 1] : d);
const vsix = resolve(arg("--vsix"));
const codeServer = resolve(arg("--code-server"));
const chromiumBin = arg("--chromium", "/usr/bin/chromium");
const shots = arg("--screenshots", "");
const only = new Set((arg("--only", "1,2,3,6,5,4")).split(","));
const keep = process.env.DENPEX_VSCODE_KEEP === "1";

const t0 = Date.now();
const log = (m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, fn, ms = 30000, every = 250) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await sleep(every);
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? ` (last error: ${last.message})` : ""}`);
}

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => res(p));
    });
    s.on("error", rej);
  });
}

// ---- A fresh workspace, user data and extensions dir -------------------------------------------
const tmp = mkdtempSync(join(tmpdir(), "denpex-vscode-"));
const ws = join(tmp, "ws");
const home = join(tmp, "home");
const userData = join(tmp, "user-data");
const extDir = join(tmp, "extensions");
for (const d of [ws, home, join(userData, "User"), extDir]) mkdirSync(d, { recursive: true });
copyFileSync(join(root, "tests/protocol/workspace/train.py"), join(ws, "train.py"));
copyFileSync(join(root, "tests/protocol/workspace/model.py"), join(ws, "model.py"));
copyFileSync(join(root, "examples/oom-cascade/train.log"), join(ws, "train.log"));
const logText = readFileSync(join(ws, "train.log"), "utf8");
// A traceback pasted into a plain text file (not a log by name): only Diagnose Selection reads it.
writeFileSync(join(ws, "failure.txt"), logText);
const settingsFile = join(userData, "User", "settings.json");
const machineSettings = join(userData, "Machine", "settings.json");
const baseSettings = {
  "workbench.startupEditor": "none",
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.disableAIFeatures": true,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "update.mode": "none",
  "editor.hover.delay": 150,
  "editor.minimap.enabled": false,
  "files.autoSave": "off",
  "terminal.integrated.gpuAcceleration": "off",
  "terminal.integrated.shellIntegration.enabled": false,
  "terminal.integrated.defaultProfile.linux": "sh",
  "terminal.integrated.profiles.linux": { sh: { path: "/bin/sh" } },
  "workbench.colorTheme": "Default Dark Modern",
  // The language client logs each request and reply in the Denpex output: dumpLogs() shows them.
  "denpex.trace.server": "messages",
};
writeFileSync(settingsFile, JSON.stringify(baseSettings, null, 2));

const env = {
  HOME: home,
  XDG_CONFIG_HOME: join(home, ".config"),
  XDG_DATA_HOME: join(home, ".local/share"),
  XDG_CACHE_HOME: join(home, ".cache"),
  // No denpex on PATH: the extension must start the binary bundled in the .vsix.
  PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
  LANG: "C.UTF-8",
  SHELL: "/bin/sh",
};
for (const d of env.PATH.split(":")) {
  if (existsSync(join(d, "denpex"))) throw new Error(`scenario 5 needs no denpex on PATH, but ${d}/denpex exists`);
}

let server;
let browser;
let failed = false;
const results = [];

async function cleanup() {
  try {
    await browser?.close();
  } catch {}
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await Promise.race([new Promise((r) => server.once("exit", r)), sleep(5000)]);
    if (server.exitCode === null) server.kill("SIGKILL");
  }
  if (!keep) rmSync(tmp, { recursive: true, force: true });
}
const hardStop = setTimeout(async () => {
  console.error("FAIL: the whole run exceeded 420 s");
  await cleanup();
  process.exit(1);
}, 420000);

let page;
async function shot(name) {
  if (!page) return;
  const dir = shots || tmp;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, name) });
}

async function scenario(id, title, fn) {
  if (!only.has(String(id))) return;
  const s = Date.now();
  log(`scenario ${id}: ${title}`);
  try {
    await fn();
    results.push(`PASS ${id} ${title} (${((Date.now() - s) / 1000).toFixed(1)} s)`);
    log(`scenario ${id}: PASS`);
  } catch (e) {
    failed = true;
    results.push(`FAIL ${id} ${title}: ${e.message}`);
    console.error(`scenario ${id} FAILED: ${e.stack ?? e}`);
    try {
      const dir = shots || tmp;
      await page?.screenshot({ path: join(dir, `failure-${id}.png`) });
      console.error(`screenshot: ${join(dir, `failure-${id}.png`)}`);
      const notes = await page?.locator(".notification-toast").allInnerTexts();
      if (notes?.length) console.error(`notifications: ${JSON.stringify(notes)}`);
    } catch {}
    dumpLogs();
  }
}

// What the extension and the extension host wrote (the "Denpex" output channel holds the language
// client's own errors, e.g. a failed diagnostic pull): a flake on a CI machine can then be explained.
function dumpLogs() {
  const files = [];
  const walk = (d) => {
    let names = [];
    try {
      names = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n.name);
      if (n.isDirectory()) walk(p);
      else if (/Denpex\.log$|remoteexthost\.log$/.test(n.name)) files.push(p);
    }
  };
  walk(join(userData, "logs"));
  for (const f of files) {
    let lines = readFileSync(f, "utf8").split("\n");
    if (f.endsWith("remoteexthost.log")) lines = lines.filter((l) => /\[(error|warning)\]|denpex/i.test(l));
    console.error(`--- ${f.slice(userData.length + 1)} (last ${Math.min(lines.length, 120)} lines)`);
    console.error(lines.slice(-120).join("\n"));
  }
}

// ---- Page helpers -----------------------------------------------------------------------------
async function quickOpen(name) {
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+P");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: 10000 });
  await input.fill(name);
  // The first search of a cold workbench indexes the folder: seconds on a loaded 2-core machine.
  await page.locator(".quick-input-list .monaco-list-row", { hasText: name }).first().waitFor({ timeout: 30000 });
  await page.keyboard.press("Enter");
  await page.locator(`.tab.active[aria-label*="${name}"], .tab.active:has-text("${name}")`).first().waitFor({ timeout: 10000 });
  await page.locator(".monaco-editor .view-lines").first().waitFor({ timeout: 10000 });
}

async function runCommand(title) {
  // No Escape first: in an editor it would clear the selection the command is about.
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: 10000 });
  await input.fill(`>${title}`);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first().waitFor({ timeout: 10000 });
  await page.keyboard.press("Enter");
}

async function goto(line, col) {
  await page.keyboard.press("Control+G");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: 10000 });
  await input.fill(`:${line}:${col}`);
  await page.keyboard.press("Enter");
  await input.waitFor({ state: "hidden", timeout: 10000 });
}

async function problems() {
  const panel = page.locator(".markers-panel");
  if (!(await panel.isVisible())) await page.keyboard.press("Control+Shift+M");
  await panel.waitFor({ state: "visible", timeout: 10000 });
  return panel;
}

async function webviewText(needle, ms = 30000) {
  return until(`a webview showing "${needle}"`, async () => {
    for (const f of page.frames()) {
      try {
        const t = await f.evaluate(() => document.body?.innerText ?? "");
        if (t.includes(needle)) return { frame: f, text: t };
      } catch {}
    }
    return undefined;
  }, ms);
}

// Sets denpex.path the way a user does, in the Settings editor (a change reaches the extension at once).
async function setPathSetting(value) {
  await page.keyboard.press("Escape");
  await runCommand("Preferences: Open User Settings");
  await page.locator(".settings-editor").waitFor({ timeout: 15000 });
  await sleep(500);
  // denpex.path is machine-scoped (a workspace cannot pick the binary to run): in code-server, as in
  // any remote window, it lives in the Remote tab.
  await page.locator(".settings-editor .settings-tabs-widget .action-label", { hasText: "Remote" }).first().click();
  await sleep(300);
  await page.locator(".settings-editor .suggest-input-container").first().click();
  await page.keyboard.press("Control+A");
  await page.keyboard.type("denpex.path");
  const item = page.locator(".settings-editor .setting-item-text", { hasText: "Path" }).first();
  await item.waitFor({ timeout: 15000 });
  const input = item.locator("input, textarea").first();
  await input.click();
  await input.fill(value);
  await input.press("Tab");
  await until(`denpex.path = "${value}" in settings.json`, () => {
    const t = existsSync(machineSettings) ? readFileSync(machineSettings, "utf8") : "";
    return value === "" ? !t.includes("nonexistent") : t.includes(value);
  }, 10000);
}

async function toasts() {
  return page.locator(".notification-toast").allInnerTexts();
}

// ---- Start ------------------------------------------------------------------------------------
try {
  log(`installing ${vsix}`);
  execFileSync(codeServer, ["--install-extension", vsix, "--extensions-dir", extDir, "--user-data-dir", userData], { env, stdio: "pipe", timeout: 60000 });
  const port = await freePort();
  server = spawn(codeServer, [
    "--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--user-data-dir", userData, "--extensions-dir", extDir,
    "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override", ws,
  ], { env, stdio: ["ignore", "pipe", "pipe"] });
  let serverLog = "";
  server.stdout.on("data", (d) => (serverLog += d));
  server.stderr.on("data", (d) => (serverLog += d));
  server.on("exit", (c) => log(`code-server exited (${c})`));
  await until("code-server's /healthz", async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, 60000, 300).catch((e) => {
    throw new Error(`${e.message}\n${serverLog}`);
  });
  log(`code-server on port ${port}`);

  browser = await chromium.launch({
    executablePath: chromiumBin,
    headless: true,
    timeout: 60000,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
  });
  const origin = `http://127.0.0.1:${port}`;
  const context = await browser.newContext({ viewport: { width: 1280, height: 760 }, deviceScaleFactor: 1 });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  page = await context.newPage();
  page.setDefaultTimeout(15000);
  await page.goto(`${origin}/?folder=${encodeURIComponent(ws)}`, { timeout: 60000 });
  await page.locator(".monaco-workbench").waitFor({ timeout: 60000 });
  await page.locator(".explorer-folders-view .monaco-list-row", { hasText: "train.py" }).first().waitFor({ timeout: 60000 });
  log("workbench ready");

  await scenario(1, "train.py: DPX001 squiggle, Problems entry, hover, quick fix applied and saved", async () => {
    await quickOpen("train.py");
    await page.locator(".monaco-editor .squiggly-warning, .monaco-editor .squiggly-error").first().waitFor({ timeout: 45000 });
    const panel = await problems();
    await until("a DPX001 row in Problems", async () => (await panel.innerText()).includes("DPX001"), 20000);
    const rows = await panel.innerText();
    if (!/use_reentrant=True/.test(rows)) throw new Error(`Problems lacks the DPX001 message: ${rows}`);
    // Hover over the finding (line 6, column 50 is inside `use_reentrant=True`).
    await page.locator(".monaco-editor .view-lines").first().click();
    await goto(6, 50);
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+I");
    const hover = page.locator(".monaco-hover:visible").first();
    await hover.waitFor({ timeout: 15000 });
    await until("the rule text in the hover", async () => /DPX001/.test(await hover.innerText()) && /reentrant/i.test(await hover.innerText()), 15000);
    await shot("vscode-python.png");
    await page.keyboard.press("Escape");
    await hover.waitFor({ state: "hidden", timeout: 10000 }).catch(() => page.keyboard.press("Escape"));
    // Ctrl+. offers the fix; apply it and save. Pressed straight after the hover's Escape, Ctrl+. went
    // unanswered for good on a loaded machine (CI failed on it) while the light bulb showed; the
    // bulb and the palette open the same menu, so they are tried next, and the one that worked is logged.
    const fix = page.locator(".action-widget .monaco-list-row", { hasText: /DPX001/ }).filter({ hasText: /Fix/ }).first();
    const bulb = page.locator(".monaco-editor .lightBulbWidget:visible").first();
    const openers = [
      ["Ctrl+.", () => page.keyboard.press("Control+.")],
      ["the light bulb", () => bulb.click()],
      ["Quick Fix... from the palette", () => runCommand("Quick Fix...")],
    ];
    for (let i = 0; ; i++) {
      const [how, open] = openers[i];
      // Back to the finding through Go to Line: it hands focus to the editor as a user's keys do.
      await goto(6, 50);
      await bulb.waitFor({ timeout: 15000 }).catch(() => log("  no light bulb shown at 6:50"));
      await open();
      try {
        await fix.waitFor({ timeout: 10000 });
        if (i > 0) log(`  the fix was offered through ${how}`);
        break;
      } catch {
        const widget = await page.locator(".action-widget").first().innerText({ timeout: 1000 }).catch(() => "(no action widget)");
        if (i === openers.length - 1) throw new Error(`no DPX001 fix offered (tried Ctrl+., the light bulb, the palette); last widget: ${widget}`);
        log(`  ${how}: no DPX001 fix within 10 s (widget: ${JSON.stringify(widget.slice(0, 200))})`);
        await page.keyboard.press("Escape");
      }
    }
    const offered = await page.locator(".action-widget").first().innerText();
    if (!/Suppress DPX001/.test(offered)) throw new Error(`no suppression offered next to the fix: ${offered}`);
    await fix.click();
    await until("the edit in the editor", async () => (await page.locator(".monaco-editor .view-lines").first().innerText()).includes("use_reentrant=False"), 10000);
    await page.keyboard.press("Control+S");
    await until("use_reentrant=False on disk", () => readFileSync(join(ws, "train.py"), "utf8").split("\n")[5].includes("use_reentrant=False"), 10000);
  });

  await scenario(2, "train.log: the initiating line is an error; model.py gets a diagnostic at the frame", async () => {
    await quickOpen("train.log");
    const panel = await problems();
    await until("the initiating fault and the frame in Problems", async () => {
      const t = await panel.innerText();
      return /initiating fault: rank 5/.test(t) && t.includes("model.py") && /rank 5 failed here/.test(t);
    }, 30000).catch(async (e) => {
      throw new Error(`${e.message}; Problems shows: ${await panel.innerText()}`);
    });
    // The initiating line (29, rank 5's OutOfMemoryError) is marked as an error in the editor.
    await page.locator(".monaco-editor .view-lines").first().click();
    await goto(29, 1);
    await page.locator(".monaco-editor .squiggly-error").first().waitFor({ timeout: 15000 });
    await shot("vscode-log.png");
    // The frame's line in model.py is 97 (`/workspace/model.py:97` in the log).
    const row = panel.locator(".monaco-list-row", { hasText: "rank 5 failed here" }).first();
    const label = (await row.getAttribute("aria-label")) ?? (await row.innerText());
    if (!/97/.test(label)) throw new Error(`the model.py diagnostic is not at line 97: ${label}`);
    // The editor title button on a log: Diagnose This Log.
    const button = page.locator('.editor-actions .action-label[aria-label*="Diagnose This Log"]').first();
    await button.waitFor({ timeout: 10000 });
    await button.click();
    const { text } = await webviewText("from train.log", 30000);
    if (!/Initiating fault: rank 5, on gpu-node-03/.test(text)) throw new Error(`Diagnose This Log: the panel does not name rank 5: ${text.slice(0, 300)}`);
  });

  await scenario(3, "Diagnose Selection on a pasted traceback names the initiating rank", async () => {
    await quickOpen("failure.txt");
    await page.locator(".monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+A");
    await runCommand("Denpex: Diagnose Selection");
    const { text } = await webviewText("Initiating fault", 30000);
    if (!/Initiating fault: rank 5, on gpu-node-03/.test(text)) throw new Error(`the panel does not name rank 5: ${text.slice(0, 400)}`);
    for (const want of ["CUDA out of memory", "Causal chain", "Collateral (", "Evidence", "Fix", "Verify", "/workspace/model.py:97"]) {
      if (!text.includes(want)) throw new Error(`the panel lacks "${want}"`);
    }
    await runCommand("View: Hide Panel");
    await sleep(500);
    await shot("vscode-diagnosis.png");
    const { frame } = await webviewText("Initiating fault", 5000);
    // Copy puts the entry's verify command on the clipboard; Run in Terminal asks first.
    await frame.locator('button[data-action="copy"]').first().click();
    const copied = await until("the verify command on the clipboard", async () => {
      const t = await page.evaluate(() => navigator.clipboard.readText());
      return /max_memory_allocated/.test(t) ? t : undefined;
    }, 10000);
    await frame.locator('button[data-action="run"]').first().click();
    const dialog = page.locator(".monaco-dialog-box", { hasText: "Run the verify command of cuda-oom" }).first();
    await dialog.waitFor({ timeout: 10000 });
    if (!(await dialog.innerText()).includes(copied.split("\n")[0].slice(0, 40))) throw new Error("the dialog does not show the command");
    await dialog.locator(".monaco-button", { hasText: "Cancel" }).first().click();
    await dialog.waitFor({ state: "hidden", timeout: 10000 });
    // A traceback frame in the view opens the workspace file it maps to, at its line.
    await frame.locator('a[data-kind="frame"][data-file="/workspace/model.py"]').first().click();
    await page.locator('.tab.active[aria-label*="model.py"]').first().waitFor({ timeout: 10000 });
    await until("the cursor on line 97 of model.py", async () => /Ln 97,/.test(await page.locator(".statusbar").innerText()), 15000).catch(async (e) => {
      throw new Error(`${e.message}; status bar: ${await page.locator(".statusbar").innerText()}`);
    });
  });

  await scenario(6, "Explain Entry... and Check Workspace", async () => {
    await page.keyboard.press("Escape");
    await runCommand("Denpex: Explain Entry...");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: 10000 });
    await page.locator(".quick-input-list .monaco-list-row").first().waitFor({ timeout: 10000 });
    const count = await page.locator(".quick-input-list .monaco-list-row").count();
    await input.fill("DPX001");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "DPX001" }).first().waitFor({ timeout: 10000 });
    await page.keyboard.press("Enter");
    await webviewText("checkpoint-use-reentrant-true", 20000);
    log(`  explain quick pick listed ${count}+ rows`);
    await page.locator(".monaco-editor .view-lines").first().click();
    await runCommand("Denpex: Check Workspace");
    const done = await until("the Check Workspace result", async () => (await toasts()).find((t) => /checked \d+ Python files, \d+ findings/.test(t)), 30000);
    if (!/checked 2 Python files/.test(done)) throw new Error(`Check Workspace: ${done}`);
  });

  await scenario(5, "bundled binary with no denpex on PATH; one clear message when denpex.path points nowhere", async () => {
    // Scenarios 1-3 ran with no denpex on PATH (checked at start), so the bundled binary served them.
    const statusItem = page.locator(".statusbar-item", { hasText: "Denpex" }).first();
    await statusItem.waitFor({ timeout: 10000 });
    const tip = (await statusItem.getAttribute("aria-label")) ?? "";
    if (!/Denpex/.test(tip)) throw new Error(`status bar item label: ${tip}`);
    await page.keyboard.press("Escape");
    for (const n of await page.locator(".notification-toast .codicon-notifications-clear, .notification-toast .clear-notification-action").all()) await n.click().catch(() => {});
    await setPathSetting("/nonexistent/denpex");
    await until("the start failure message", async () => (await toasts()).some((t) => t.includes("/nonexistent/denpex")), 30000);
    await sleep(2500); // anything else the failure would show arrives now
    const denpexToasts = (await toasts()).filter((t) => /denpex/i.test(t));
    if (denpexToasts.length !== 1) throw new Error(`expected exactly one Denpex message, got ${denpexToasts.length}: ${JSON.stringify(denpexToasts)}`);
    if (!/Install Docs/.test(denpexToasts[0])) throw new Error(`the message has no link to the install docs: ${denpexToasts[0]}`);
    await until("the status bar showing the failure", async () => (await page.locator(".statusbar-item", { hasText: "Denpex" }).first().locator(".codicon-error").count()) > 0, 10000);
    // Back to the bundled binary: the server starts again without a reload.
    await setPathSetting("");
    await until("the status bar running again", async () => (await page.locator(".statusbar-item", { hasText: "Denpex" }).first().locator(".codicon-pulse").count()) > 0, 30000);
  });

  await scenario(4, "terminal: cat the log, Diagnose Terminal Selection names the rank; a fingerprint line is a link", async () => {
    await page.keyboard.press("Escape");
    await runCommand("Terminal: Create New Terminal");
    const term = page.locator(".terminal-wrapper.active .xterm, .terminal .xterm").first();
    await term.waitFor({ timeout: 20000 });
    await sleep(1000);
    await term.click();
    await page.keyboard.type(`clear; cat ${join(ws, "train.log")}\n`, { delay: 5 });
    await until("the log in the terminal", async () => (await page.locator(".xterm-rows, .xterm-accessibility").first().innerText().catch(() => "")).length > 0 || true, 5000);
    await sleep(1500);
    await runCommand("Terminal: Select All");
    await sleep(300);
    // Where users look: the terminal's context menu, with text selected.
    await term.click({ button: "right", position: { x: 200, y: 40 } });
    const item = page.locator(".context-view .action-item", { hasText: "Diagnose Terminal Selection" }).first();
    await item.waitFor({ timeout: 10000 });
    // (A playwright click on this menu item does not reach VS Code's menu in headless Chromium; the
    // command is run from the palette, which is the same command.)
    await page.keyboard.press("Escape");
    await runCommand("Terminal: Select All");
    await sleep(300);
    await page.evaluate(() => navigator.clipboard.writeText("the user's clipboard"));
    await runCommand("Denpex: Diagnose Terminal Selection");
    const { text } = await webviewText("the terminal selection", 30000);
    if (!/Initiating fault: rank 5/.test(text)) throw new Error(`the panel does not name rank 5: ${text.slice(0, 400)}`);
    const clip = await page.evaluate(() => navigator.clipboard.readText());
    if (clip !== "the user's clipboard") throw new Error(`the clipboard was not restored: ${JSON.stringify(clip.slice(0, 80))}`);

    // A fingerprint line is a link: print rank 5's error line last, hover it, Ctrl+click it.
    await term.click();
    await page.keyboard.type(`grep -m1 OutOfMemoryError ${join(ws, "train.log")} | cut -c1-90\n`, { delay: 5 });
    const row = page.locator(".xterm-rows > div", { hasText: "OutOfMemoryError: CUDA out of memory" }).last();
    await row.waitFor({ timeout: 10000 });
    const box = await row.boundingBox();
    await page.mouse.move(box.x + 5, box.y + box.height / 2);
    await page.mouse.move(box.x + 120, box.y + box.height / 2, { steps: 5 });
    const tip = page.locator(".monaco-hover, .workbench-hover", { hasText: "Denpex: a known failure line" }).first();
    await tip.waitFor({ timeout: 15000 });
    await page.keyboard.down("Control");
    await page.mouse.click(box.x + 120, box.y + box.height / 2);
    await page.keyboard.up("Control");
    const linked = await webviewText("the terminal output", 30000);
    if (!/Initiating fault: rank 5/.test(linked.text)) throw new Error(`the link's panel does not name rank 5: ${linked.text.slice(0, 400)}`);
  });
} catch (e) {
  failed = true;
  console.error(`FAIL: ${e.stack ?? e}`);
  try {
    await page?.screenshot({ path: join(shots || tmp, "failure-setup.png") });
  } catch {}
}
clearTimeout(hardStop);
await cleanup();
for (const r of results) console.log(r);
log(failed ? "FAILED" : "all scenarios passed");
process.exit(failed ? 1 : 0);
