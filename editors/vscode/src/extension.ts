// Denpex for VS Code: a thin client over `denpex lsp`. All analysis happens in the server; this file
// starts it, forwards settings, and adds the commands, the diagnosis view, terminal links and a
// status bar item. The logic that does not need VS Code lives in logic.ts and report.ts (unit-tested).
import * as vscode from "vscode";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { execFile } from "child_process";
import {
  CloseAction,
  ErrorAction,
  ExecuteCommandRequest,
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
} from "vscode-languageclient/node";
type DocumentFilter = { scheme: string; language: string } | { scheme: string; pattern: string };

import {
  chooseServer,
  DiagnoseResult,
  EntrySummary,
  FingerprintMatcher,
  headline,
  mapFrameToWorkspace,
  parseDiagnoseResult,
  readSettings,
  serverSettings,
  whichIn,
} from "./logic";
import { escapeHtml, renderMarkdown, renderPage, STYLE } from "./report";

export const INSTALL_DOCS = "https://github.com/denpex/denpex/blob/main/docs/editors/vscode.md#install";

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let status: vscode.StatusBarItem;
let serverPath: string | undefined;
let matcher: FingerprintMatcher | undefined;
let entries: EntrySummary[] = [];
let extensionContext: vscode.ExtensionContext;
let panel: vscode.WebviewPanel | undefined;
let panelSource: Source | undefined;
let panelResult: DiagnoseResult | undefined;
let startFailureShown = false;

/** Where a diagnosis came from, so that its log lines can be opened. */
interface Source {
  label: string;
  uri?: vscode.Uri;
  lineOffset: number;
  text?: string;
}

function isExecutable(p: string): boolean {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) return false;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function settings() {
  return readSettings((k) => vscode.workspace.getConfiguration("denpex").get(k));
}

function firstRoot(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

function bundledBinary(): string | undefined {
  const p = extensionContext.asAbsolutePath(path.join("bin", `${process.platform}-${process.arch}`, "denpex"));
  if (!fs.existsSync(p)) return undefined;
  try {
    fs.accessSync(p, fs.constants.X_OK);
  } catch {
    try {
      fs.chmodSync(p, 0o755); // some unzip paths drop the executable bit
    } catch {
      /* reported below as not executable */
    }
  }
  return p;
}

function setStatus(kind: "starting" | "running" | "failed", detail?: string): void {
  status.text = kind === "failed" ? "$(error) Denpex" : kind === "starting" ? "$(sync~spin) Denpex" : "$(pulse) Denpex";
  status.tooltip =
    kind === "running"
      ? `Denpex is running locally (offline): ${serverPath ?? ""}\nClick for the output.`
      : kind === "starting"
        ? "Denpex is starting..."
        : `Denpex is not running: ${detail ?? ""}\nClick for the output.`;
  status.backgroundColor = kind === "failed" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
  status.show();
}

async function showStartFailure(message: string): Promise<void> {
  output.appendLine(message);
  setStatus("failed", message);
  if (startFailureShown) return;
  startFailureShown = true;
  const choice = await vscode.window.showErrorMessage(message, "Install Docs", "Open Settings");
  if (choice === "Install Docs") void vscode.env.openExternal(vscode.Uri.parse(INSTALL_DOCS));
  else if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", "denpex.path");
}

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 15000, maxBuffer: 32 * 1024 * 1024 }, (err, stdout) => {
      if (err && !stdout) reject(err);
      else resolve(stdout);
    });
  });
}

async function loadEntries(bin: string): Promise<void> {
  const s = settings();
  const extra = serverSettings(s, firstRoot(), os.homedir()).signatureDirs.flatMap((d) => ["--signatures", d]);
  try {
    const list = JSON.parse(await run(bin, ["signatures", "list", "--format", "json", ...extra])) as EntrySummary[];
    entries = Array.isArray(list) ? list : [];
    matcher = new FingerprintMatcher(entries);
    output.appendLine(`Denpex: ${entries.length} entries, ${matcher.size} fingerprints for terminal links (${matcher.skipped.length} not expressible in JavaScript).`);
  } catch (e) {
    output.appendLine(`Denpex: could not list the entries: ${String(e)}`);
  }
}

function documentSelector(globs: string[]): DocumentFilter[] {
  const sel: DocumentFilter[] = [
    { scheme: "file", language: "python" },
    { scheme: "untitled", language: "python" },
    { scheme: "file", language: "log" },
  ];
  for (const g of globs) sel.push({ scheme: "file", pattern: g.includes("/") ? g : `**/${g}` });
  return sel;
}

async function startClient(): Promise<void> {
  const s = settings();
  const choice = chooseServer({
    configured: s.path,
    bundled: bundledBinary(),
    root: firstRoot(),
    home: os.homedir(),
    isExecutable,
    which: (name) => whichIn(name, process.env.PATH, isExecutable),
  });
  if (!choice.ok) {
    serverPath = undefined;
    await showStartFailure(choice.message);
    return;
  }
  // Try the binary first (a missing shared library, a wrong architecture): one clear message
  // instead of the language client's connection errors.
  const probe = await new Promise<string | undefined>((resolve) => {
    execFile(choice.path, ["--version"], { timeout: 10000 }, (err, _stdout, stderr) => {
      resolve(err ? (String(stderr).trim().split("\n")[0] || err.message) : undefined);
    });
  });
  if (probe !== undefined) {
    serverPath = undefined;
    await showStartFailure(`Denpex: the language server cannot start: ${choice.path} (${choice.origin}) fails to run: ${probe}`);
    return;
  }
  serverPath = choice.path;
  output.appendLine(`Denpex: starting ${choice.path} lsp (${choice.origin})`);
  setStatus("starting");
  // stdio without `transport` set: with TransportKind.stdio the client would append `--stdio`, which
  // `denpex lsp` rejects as an unknown option.
  const serverOptions: ServerOptions = { command: choice.path, args: ["lsp"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(s.logGlobs),
    initializationOptions: serverSettings(s, firstRoot(), os.homedir()),
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    initializationFailedHandler: (error) => {
      void showStartFailure(`Denpex: the language server at ${choice.path} failed to initialize: ${String(error)}`);
      return false;
    },
    errorHandler: {
      error: () => ({ action: ErrorAction.Shutdown, handled: true }),
      closed: () => {
        void showStartFailure(`Denpex: the language server (${choice.path}) stopped. See the Denpex output; run "Denpex: Restart Server" to start it again.`);
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    },
    middleware: {
      executeCommand: async (command, args, next) => {
        const result: unknown = await next(command, args);
        if (command === "denpex.copyVerifyCommand" && typeof result === "string") {
          await vscode.env.clipboard.writeText(result);
          void vscode.window.showInformationMessage("Denpex: verify command copied to the clipboard.");
        } else if (command === "denpex.explain" && typeof result === "string") {
          showExplanation(String((args[0] as { id?: string } | undefined)?.id ?? "entry"), result);
        }
        return result;
      },
    },
  };
  const c = new LanguageClient("denpex", "Denpex", serverOptions, clientOptions);
  client = c;
  c.onDidChangeState((e) => {
    if (e.newState === State.Running) setStatus("running");
  });
  try {
    await c.start();
    startFailureShown = false;
    setStatus("running");
    void loadEntries(choice.path);
  } catch (e) {
    client = undefined;
    await showStartFailure(`Denpex: the language server at ${choice.path} could not start: ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.stop(3000);
    } catch (e) {
      output.appendLine(`Denpex: stopping the server: ${String(e)}`);
    }
  }
}

async function restartClient(): Promise<void> {
  await stopClient();
  startFailureShown = false;
  await startClient();
}

function requireClient(): LanguageClient | undefined {
  if (client && client.state === State.Running) return client;
  void showStartFailure("Denpex: the language server is not running (see the Denpex output).");
  return undefined;
}

async function executeServerCommand(command: string, args: unknown[]): Promise<unknown> {
  const c = requireClient();
  if (!c) return undefined;
  return c.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
}

// ---------------------------------------------------------------------------------------------
// The diagnosis view.

function nonce(): string {
  let s = "";
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  for (let i = 0; i < 32; i++) s += chars.charAt(Math.floor(Math.random() * chars.length));
  return s;
}

function ensurePanel(title: string): vscode.WebviewPanel {
  if (panel) {
    panel.title = title;
    panel.reveal(vscode.ViewColumn.Beside, true);
    return panel;
  }
  const p = vscode.window.createWebviewPanel("denpex.diagnosis", title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
    enableScripts: true,
    localResourceRoots: [],
    enableFindWidget: true,
  });
  p.onDidDispose(() => {
    if (panel === p) panel = undefined;
  });
  p.webview.onDidReceiveMessage((m: { type?: string; kind?: string; file?: string; line?: number; entry?: string }) => {
    void handleViewMessage(m);
  });
  panel = p;
  return p;
}

function showDiagnosis(result: DiagnoseResult, source: Source): void {
  const d = result.diagnoses[0];
  const p = ensurePanel(d ? `Denpex: ${d.title}` : "Denpex: diagnosis");
  panelResult = result;
  panelSource = source;
  p.webview.html = renderPage(result, { source: source.label, nonce: nonce(), cspSource: p.webview.cspSource });
  output.appendLine(`Denpex: ${source.label}: ${headline(result)}`);
}

function showExplanation(id: string, markdown: string): void {
  const p = ensurePanel(`Denpex: ${id}`);
  const n = nonce();
  p.webview.html = `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${n}'">
<title>${escapeHtml(id)}</title><style nonce="${n}">${STYLE}</style></head><body>${renderMarkdown(markdown)}</body></html>`;
}

async function openAt(uri: vscode.Uri, line: number): Promise<void> {
  const pos = new vscode.Position(Math.max(0, line - 1), 0);
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(pos, pos), viewColumn: vscode.ViewColumn.One, preview: false });
}

async function handleViewMessage(m: { type?: string; kind?: string; file?: string; line?: number; entry?: string }): Promise<void> {
  if (m.type === "open" && typeof m.file === "string" && typeof m.line === "number") {
    const roots = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const src = panelSource;
    if (m.kind === "log") {
      if (src?.uri && (m.file === "<selection>" || m.file === src.label || path.basename(src.uri.fsPath) === path.basename(m.file))) {
        return openAt(src.uri, m.line + (src.lineOffset ?? 0));
      }
      if (src?.text !== undefined && m.file === "<selection>") {
        const doc = await vscode.workspace.openTextDocument({ content: src.text, language: "log" });
        return openAt(doc.uri, m.line);
      }
    }
    const candidates = [m.file, ...roots.map((r) => path.join(r, m.file as string))];
    const direct = candidates.find((p) => path.isAbsolute(p) && fs.existsSync(p));
    const mapped = direct ?? mapFrameToWorkspace(m.file, roots, (p) => fs.existsSync(p));
    if (mapped) return openAt(vscode.Uri.file(mapped), m.line);
    void vscode.window.showWarningMessage(`Denpex: ${m.file} is not in this workspace.`);
    return;
  }
  const entry = m.entry;
  if (!entry) return;
  if (m.type === "explain") {
    const md = await executeServerCommand("denpex.explain", [{ id: entry }]);
    if (typeof md === "string") showExplanation(entry, md);
    return;
  }
  const cmd = await verifyCommand(entry);
  if (cmd === undefined) return;
  if (m.type === "copy") {
    await vscode.env.clipboard.writeText(cmd);
    void vscode.window.showInformationMessage("Denpex: verify command copied to the clipboard.");
  } else if (m.type === "run") {
    const ok = await vscode.window.showWarningMessage(`Run the verify command of ${entry} in a new terminal?`, { modal: true, detail: cmd }, "Run");
    if (ok !== "Run") return;
    const t = vscode.window.createTerminal({ name: `Denpex: verify ${entry}` });
    t.show();
    t.sendText(cmd, true);
  }
}

async function verifyCommand(entry: string): Promise<string | undefined> {
  const r = await executeServerCommand("denpex.copyVerifyCommand", [{ id: entry }]);
  if (typeof r === "string") return r;
  const d = panelResult?.diagnoses.find((x) => x.entry === entry);
  return d?.verify;
}

// ---------------------------------------------------------------------------------------------
// Commands.

async function diagnose(args: unknown, source: Source): Promise<void> {
  const c = requireClient();
  if (!c) return;
  const reply = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: "Denpex: diagnosing" },
    () => c.sendRequest(ExecuteCommandRequest.type, { command: "denpex.diagnose", arguments: [args] }),
  );
  let result: DiagnoseResult;
  try {
    result = parseDiagnoseResult(reply);
  } catch (e) {
    void vscode.window.showErrorMessage(`Denpex: ${String(e)}`);
    return;
  }
  showDiagnosis(result, source);
}

async function diagnoseSelection(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage("Denpex: open a log or a traceback and select it first.");
    return;
  }
  const sel = editor.selection.isEmpty ? new vscode.Range(0, 0, editor.document.lineCount, 0) : editor.selection;
  const text = editor.document.getText(sel);
  await diagnose({ text }, { label: "the selection", uri: editor.document.uri, lineOffset: sel.start.line, text });
}

async function diagnoseLog(uri?: vscode.Uri): Promise<void> {
  const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
  if (!doc) return;
  const label = path.basename(doc.uri.fsPath);
  const c = client;
  const synced = c !== undefined && vscode.languages.match(c.clientOptions.documentSelector ?? [], doc) > 0;
  await diagnose(synced ? { uri: doc.uri.toString() } : { text: doc.getText() }, { label, uri: doc.uri, lineOffset: 0 });
}

/** Reads the terminal's selection through its copy command, restoring the clipboard afterwards. */
async function readTerminal(all: boolean): Promise<string> {
  const saved = await vscode.env.clipboard.readText();
  const marker = `denpex-clipboard-${nonce()}`;
  await vscode.env.clipboard.writeText(marker);
  try {
    if (all) await vscode.commands.executeCommand("workbench.action.terminal.selectAll");
    await vscode.commands.executeCommand("workbench.action.terminal.copySelection");
    if (all) await vscode.commands.executeCommand("workbench.action.terminal.clearSelection");
    const text = await vscode.env.clipboard.readText();
    return text === marker ? "" : text;
  } finally {
    await vscode.env.clipboard.writeText(saved);
  }
}

async function diagnoseTerminalSelection(): Promise<void> {
  const text = await readTerminal(false);
  if (text.trim() === "") {
    void vscode.window.showInformationMessage("Denpex: select the failing output in the terminal first.");
    return;
  }
  await diagnose({ text }, { label: "the terminal selection", lineOffset: 0, text });
}

async function explainEntry(): Promise<void> {
  const bin = serverPath;
  const items: (vscode.QuickPickItem & { id: string })[] = entries.map((e) => ({ id: e.id, label: e.id, description: e.title, detail: e.category }));
  if (bin) {
    try {
      const rules = JSON.parse(await run(bin, ["check", "--list-rules", "--output-format", "json"])) as { code: string; name?: string; title?: string; summary?: string }[];
      for (const r of rules) items.push({ id: r.code, label: r.code, description: r.title ?? r.summary ?? r.name ?? "", detail: "Static check" });
    } catch (e) {
      output.appendLine(`Denpex: could not list the rules: ${String(e)}`);
    }
  }
  const pick = await vscode.window.showQuickPick(items, { placeHolder: "Explain a Denpex entry or rule", matchOnDescription: true, matchOnDetail: true });
  if (!pick) return;
  const md = await executeServerCommand("denpex.explain", [{ id: pick.id }]);
  if (typeof md === "string") showExplanation(pick.id, md);
}

async function checkWorkspace(): Promise<void> {
  const c = requireClient();
  if (!c) return;
  output.appendLine("Denpex: checking the workspace");
  const r = (await vscode.window.withProgress(
    // The server reports its own progress as a notification (window/workDoneProgress/create); here
    // only the status bar spins, so the user does not see two progress bars.
    { location: vscode.ProgressLocation.Window, title: "Denpex: checking the workspace" },
    () => c.sendRequest(ExecuteCommandRequest.type, { command: "denpex.checkWorkspace", arguments: [] }),
  )) as { files?: number; findings?: number } | undefined;
  output.appendLine(`Denpex: checked ${r?.files ?? 0} Python files, ${r?.findings ?? 0} findings`);
  void vscode.window.showInformationMessage(`Denpex: checked ${r?.files ?? 0} Python files, ${r?.findings ?? 0} findings.`);
  if ((r?.findings ?? 0) > 0) void vscode.commands.executeCommand("workbench.actions.view.problems");
}

// ---------------------------------------------------------------------------------------------

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionContext = context;
  output = vscode.window.createOutputChannel("Denpex");
  status = vscode.window.createStatusBarItem("denpex.status", vscode.StatusBarAlignment.Right, 100);
  status.name = "Denpex";
  status.command = "denpex.showOutput";
  context.subscriptions.push(output, status);

  const reg = (id: string, fn: (...a: never[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  reg("denpex.diagnoseSelection", diagnoseSelection);
  reg("denpex.diagnoseTerminalSelection", diagnoseTerminalSelection);
  reg("denpex.diagnoseLog", (uri?: vscode.Uri) => diagnoseLog(uri));
  reg("denpex.explainEntry", explainEntry);
  reg("denpex.runCheckWorkspace", checkWorkspace);
  reg("denpex.showOutput", () => output.show(true));
  reg("denpex.restartServer", restartClient);

  context.subscriptions.push(
    vscode.window.registerTerminalLinkProvider({
      provideTerminalLinks: (ctx: vscode.TerminalLinkContext) => {
        const hit = matcher?.match(ctx.line);
        if (!hit) return [];
        return [{ startIndex: hit.start, length: hit.length, tooltip: "Denpex: a known failure line. Diagnose the terminal output", entry: hit.entry } as vscode.TerminalLink];
      },
      handleTerminalLink: async () => {
        const text = await readTerminal(true);
        if (text.trim() === "") return;
        await diagnose({ text }, { label: "the terminal output", lineOffset: 0, text });
      },
    }),
  );

  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration("denpex")) return;
      if (e.affectsConfiguration("denpex.path") || e.affectsConfiguration("denpex.logGlobs") || !client) {
        await restartClient();
        return;
      }
      const s = serverSettings(settings(), firstRoot(), os.homedir());
      await client.sendNotification(DidChangeConfigurationNotification.type, { settings: { denpex: s } });
      if (e.affectsConfiguration("denpex.signatures") && serverPath) void loadEntries(serverPath);
    }),
  );

  await startClient();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
