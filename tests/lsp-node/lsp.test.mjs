// `denpex lsp` driven the way VS Code drives it: through vscode-jsonrpc, the wire library of
// vscode-languageclient, over the real binary's stdin/stdout.
//
//   node tests/lsp-node/lsp.test.mjs path/to/denpex      (or DENPEX=path/to/denpex node ...)
//
// Four sessions: the threaded server (default --threads) and --threads 0, each once with a client
// that resolves code action edits lazily (resolveSupport.properties ["edit"] + dataSupport) and once
// with one that does not; plus a regression test for stale publishes (see there). Each session:
// initialize, a Python file's diagnostics, hover, quick fix, suppression and fixAll; incremental
// edits and a 200-edit burst (latest version wins, versions never go back or run ahead); UTF-16
// positions; a log's initiating fault, collateral and the source line it maps to, as the log is
// edited and closed; the commands; shutdown and exit 0.
//
// Exit 77 (CTest: skipped) when vscode-jsonrpc is not installed (`npm ci --prefix tests/lsp-node`,
// done by scripts/fetch-deps.sh --test-tools); under CI=true that is a failure instead. Every wait is bounded (DENPEX_LSP_TIMEOUT seconds, default 10, 30
// under a sanitizer), so a hung server fails the test rather than hanging it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const ci = /^(1|true|yes)$/i.test(process.env.CI ?? '');

function unavailable(why) {
  const fix = 'run `npm ci --prefix tests/lsp-node` (scripts/fetch-deps.sh --test-tools does)';
  if (ci) {
    console.error(`FAIL: ${why}; under CI=true this suite must run, not skip: ${fix}`);
    process.exit(1);
  }
  console.log(`SKIP: ${why}; ${fix}`);
  process.exit(77);
}

// The installed package must be the one package-lock.json pins, or the run would test something else.
const lock = JSON.parse(readFileSync(join(here, 'package-lock.json'), 'utf8'));
const pinned = lock.packages['node_modules/vscode-jsonrpc'].version;
const installedManifest = join(here, 'node_modules', 'vscode-jsonrpc', 'package.json');
if (!existsSync(installedManifest)) unavailable('vscode-jsonrpc is not installed in tests/lsp-node/node_modules');
const installed = JSON.parse(readFileSync(installedManifest, 'utf8')).version;
if (installed !== pinned) unavailable(`vscode-jsonrpc ${installed} is installed but package-lock.json pins ${pinned}`);
let rpc;
try {
  rpc = await import('vscode-jsonrpc/node');
} catch (e) {
  unavailable(`vscode-jsonrpc cannot be loaded (${e.message})`);
}
const { createMessageConnection, StreamMessageReader, StreamMessageWriter, ResponseError, CancellationTokenSource } = rpc;

const denpex = process.argv[2] ?? process.env.DENPEX;
if (!denpex || !existsSync(denpex)) {
  console.error(`usage: node lsp.test.mjs DENPEX_BINARY (or set DENPEX); got ${JSON.stringify(denpex ?? null)}`);
  process.exit(2);
}

// Sanitizer builds (scripts/test.sh sets these) run several times slower: give them more time.
const sanitized = Boolean(process.env.ASAN_OPTIONS || process.env.TSAN_OPTIONS || process.env.UBSAN_OPTIONS);
const TIMEOUT_MS = 1000 * Number(process.env.DENPEX_LSP_TIMEOUT ?? (sanitized ? 30 : 10));
const workspace = join(repo, 'tests', 'protocol', 'workspace');
const trainPath = join(workspace, 'train.py');
const modelPath = join(workspace, 'model.py');
const logPath = join(repo, 'examples', 'oom-cascade', 'train.log');
const trainText = readFileSync(trainPath, 'utf8');
const logText = readFileSync(logPath, 'utf8');
const uriOf = (p) => pathToFileURL(p).href;
// The server spells URIs its own way (which characters it escapes); compare them as paths.
const samePath = (uri, path) => uri.startsWith('file:') && fileURLToPath(uri) === path;

// --- plain text helpers (LSP positions in UTF-16 units: JavaScript string indices) ---

function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; ++i) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}
function offsetAt(text, { line, character }) {
  const starts = lineStarts(text);
  if (line >= starts.length) return text.length;
  const end = line + 1 < starts.length ? starts[line + 1] - 1 : text.length;
  return Math.min(starts[line] + character, end);
}
const lineOf = (text, line) => text.split('\n')[line];
function applyEdits(text, edits) {
  const sorted = edits
    .map((e) => ({ a: offsetAt(text, e.range.start), b: offsetAt(text, e.range.end), t: e.newText }))
    .sort((x, y) => y.a - x.a || y.b - x.b);
  for (const e of sorted) text = text.slice(0, e.a) + e.t + text.slice(e.b);
  return text;
}
// The text edits a WorkspaceEdit makes to `uri` (either of its two shapes), checked as VS Code would.
function editsFor(edit, uri, version) {
  assert.ok(edit && typeof edit === 'object', `a workspace edit, got ${JSON.stringify(edit)}`);
  if (edit.documentChanges) {
    const mine = edit.documentChanges.filter((c) => c.textDocument && samePath(c.textDocument.uri, fileURLToPath(uri)));
    assert.equal(mine.length, 1, `one documentChanges entry for ${uri}: ${JSON.stringify(edit)}`);
    assert.equal(mine[0].textDocument.version, version, 'the edit is for the version the action was computed on');
    return mine[0].edits;
  }
  const key = Object.keys(edit.changes ?? {}).find((k) => samePath(k, fileURLToPath(uri)));
  assert.ok(key, `changes for ${uri}: ${JSON.stringify(edit)}`);
  return edit.changes[key];
}

// --- bounded waiting ---

function within(promise, what, session) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${TIMEOUT_MS / 1000} s waiting for ${what}${session ? session.tail() : ''}`)),
      TIMEOUT_MS,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// --- one editor session against one server process ---

class Session {
  constructor(args) {
    this.args = args;
    this.stderr = '';
    this.publishes = []; // every textDocument/publishDiagnostics, in arrival order
    this.waiters = [];
    this.sent = new Map(); // uri -> the newest version sent
    this.violations = []; // protocol rules broken by publishes, reported by the tests
    this.serverRequests = [];
    this.proc = spawn(denpex, ['lsp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (d) => {
      this.stderr += d;
    });
    this.proc.stdin.on('error', () => {}); // a dead server shows as a failed wait, not a crash here
    // 'close': the process has exited and its stdio is drained (so the stderr tail is complete).
    this.exited = new Promise((res) => this.proc.on('close', (code, signal) => res({ code, signal })));
    this.proc.on('error', (e) => {
      this.stderr += `cannot run ${denpex}: ${e.message}\n`;
    });
    this.exited.then(({ code, signal }) => {
      this.exitStatus = { code, signal };
      for (const w of this.waiters.splice(0)) w.reject(new Error(`the server exited (code ${code}, signal ${signal}) while waiting for ${w.what}${this.tail()}`));
    });
    this.conn = createMessageConnection(new StreamMessageReader(this.proc.stdout), new StreamMessageWriter(this.proc.stdin));
    this.conn.onNotification('textDocument/publishDiagnostics', (p) => this.onPublish(p));
    this.conn.onNotification('window/showMessage', (p) => {
      this.stderr += `[window/showMessage ${p.type}] ${p.message}\n`;
    });
    this.conn.onRequest((method, params) => {
      this.serverRequests.push({ method, params });
      return null;
    });
    this.conn.listen();
  }

  tail() {
    const s = this.stderr.trim().split('\n').slice(-20).join('\n');
    return s ? `\n--- server stderr (last lines) ---\n${s}` : '';
  }

  onPublish(p) {
    const sent = [...this.sent.entries()].find(([uri]) => samePath(p.uri, fileURLToPath(uri)));
    const before = this.publishes.filter((q) => q.uri === p.uri && typeof q.version === 'number').at(-1);
    if (typeof p.version === 'number') {
      if (!sent) this.violations.push(`a publish for ${p.uri} with version ${p.version}, a document never opened`);
      else if (p.version > sent[1]) this.violations.push(`a publish for ${p.uri} with version ${p.version}, newer than the newest sent (${sent[1]})`);
      if (before && p.version < before.version)
        this.violations.push(`publishes for ${p.uri} went back from version ${before.version} to ${p.version}`);
    }
    this.publishes.push(p);
    for (const w of [...this.waiters]) {
      if (w.match(p)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(p);
      }
    }
  }

  // The first publish for `path` at or after index `from` that satisfies `match`.
  publish(path, what, match = () => true, from = 0) {
    const m = (p) => samePath(p.uri, path) && match(p);
    const old = this.publishes.slice(from).find(m);
    if (old) return Promise.resolve(old);
    if (this.exitStatus) return Promise.reject(new Error(`the server has exited; no ${what}${this.tail()}`));
    const full = `a publishDiagnostics for ${path}: ${what}`;
    return within(new Promise((resolve, reject) => this.waiters.push({ match: m, resolve, reject, what: full })), full, this);
  }

  // `params` omitted: a message without params (vscode-jsonrpc would send `"params": null` for undefined).
  request(method, ...params) {
    return within(this.conn.sendRequest(method, ...params), `the reply to ${method}`, this);
  }
  notify(method, ...params) {
    const doc = params[0]?.textDocument;
    if (doc && typeof doc.version === 'number') this.sent.set(doc.uri, doc.version);
    return this.conn.sendNotification(method, ...params);
  }

  async close() {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
    await this.exited;
    if (!this.disposed) this.conn.dispose();
    this.disposed = true;
  }
}

function clientCapabilities(resolveEdits) {
  const codeAction = {
    codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'source', 'source.fixAll'] } },
    isPreferredSupport: true,
  };
  if (resolveEdits) Object.assign(codeAction, { resolveSupport: { properties: ['edit'] }, dataSupport: true });
  return {
    general: { positionEncodings: ['utf-16'] },
    workspace: { workspaceEdit: { documentChanges: true }, executeCommand: {} },
    textDocument: {
      synchronization: { didSave: true },
      publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true },
      hover: { contentFormat: ['markdown', 'plaintext'] },
      codeAction,
    },
  };
}

const hasCode = (p, code) => p.diagnostics.some((d) => d.code === code);
const codes = (p) => JSON.stringify(p.diagnostics.map((d) => `${d.code}@${d.range.start.line}`));

// --- the sessions ---

for (const threads of [null, 0]) {
  for (const resolveEdits of [true, false]) {
    const args = threads === null ? [] : ['--threads', String(threads)];
    const name = `denpex lsp ${args.join(' ') || '(default threads)'}, ${resolveEdits ? 'lazy' : 'eager'} code action edits`;
    test(name, { timeout: 20 * TIMEOUT_MS }, async (t) => {
      const s = new Session(args);
      try {
        await session(t, s, resolveEdits, name);
      } catch (e) {
        await s.close();
        if (e instanceof Error && !e.message.includes('--- server stderr')) {
          const st = s.exitStatus;
          e.message += st.signal === 'SIGKILL' ? ' (the server was still running; killed)' : ` (the server exited: code ${st.code}, signal ${st.signal})`;
          e.message += s.tail();
        }
        throw e;
      } finally {
        await s.close();
      }
    });
  }
}

// A regression test: when a log's analysis finishes while an open Python file it points into has a
// newer version queued, the file used to be republished with that newer version but the
// diagnostics of its previous analysis. A big Python document keeps one of the two workers busy
// so the edit of model.py waits in the queue while the log finishes on the other worker.
test('a log\'s contribution republishes an open file only with diagnostics of the version it names',
  { timeout: 20 * TIMEOUT_MS }, async () => {
    const s = new Session([]);
    try {
      await s.request('initialize', { processId: process.pid, rootUri: uriOf(workspace), capabilities: clientCapabilities(false) });
      await s.notify('initialized', {});
      const modelUri = uriOf(modelPath);
      const modelText = readFileSync(modelPath, 'utf8');
      await s.notify('textDocument/didOpen', { textDocument: { uri: modelUri, languageId: 'python', version: 1, text: modelText } });
      await s.publish(modelPath, 'version 1', (p) => p.version === 1);
      let big = 'import torch\n';
      for (let i = 0; i < 20000; ++i) big += `def f${i}(x):\n    return torch.load(x) + ${i}\n`;
      const from = s.publishes.length;
      s.notify('textDocument/didOpen', { textDocument: { uri: uriOf(join(workspace, 'big_generated.py')), languageId: 'python', version: 1, text: big } });
      s.notify('textDocument/didOpen', { textDocument: { uri: uriOf(logPath), languageId: 'log', version: 1, text: logText } });
      // version 2 adds a DPX008 finding (torch.load without weights_only) on line 1
      const added = { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } };
      await s.notify('textDocument/didChange', { textDocument: { uri: modelUri, version: 2 }, contentChanges: [{ range: added, text: 'state = torch.load("x.pt")\n' }] });
      await s.publish(modelPath, 'version 2 with DPX008', (p) => p.version === 2 && hasCode(p, 'DPX008'), from);
      const v2 = s.publishes.slice(from).filter((p) => samePath(p.uri, modelPath) && p.version === 2);
      for (const p of v2) assert.ok(hasCode(p, 'DPX008'), `every publish of model.py version 2 has its DPX008, got ${codes(p)}`);
    } finally {
      await s.close();
    }
  });

async function session(t, s, resolveEdits, name) {
  const trainUri = uriOf(trainPath);
  const logUri = uriOf(logPath);

  // initialize
  const init = await s.request('initialize', {
    processId: process.pid,
    clientInfo: { name: 'vscode-jsonrpc test', version: '1' },
    rootUri: uriOf(workspace),
    // VS Code sends the folders too; the other session is a client that knows only rootUri.
    ...(resolveEdits ? { rootPath: workspace, workspaceFolders: [{ uri: uriOf(workspace), name: 'workspace' }] } : {}),
    capabilities: clientCapabilities(resolveEdits),
  });
  const caps = init.capabilities;
  assert.equal(caps.hoverProvider, true, 'hoverProvider');
  assert.ok(caps.codeActionProvider, 'codeActionProvider');
  assert.equal(caps.codeActionProvider.resolveProvider ?? false, resolveEdits,
    'codeActionProvider.resolveProvider follows the client\'s resolveSupport for "edit"');
  assert.ok(caps.codeActionProvider.codeActionKinds.includes('quickfix'), 'quickfix kind advertised');
  assert.ok(caps.codeActionProvider.codeActionKinds.includes('source.fixAll.denpex'), 'source.fixAll.denpex kind advertised');
  for (const c of ['denpex.diagnose', 'denpex.explain', 'denpex.checkWorkspace'])
    assert.ok(caps.executeCommandProvider?.commands?.includes(c), `executeCommandProvider lists ${c}`);
  assert.equal(caps.positionEncoding ?? 'utf-16', 'utf-16');
  assert.equal(caps.textDocumentSync?.change, 2, 'incremental sync');
  await s.notify('initialized', {});

  // didOpen train.py -> DPX001 on the use_reentrant=True line
  const reentrantLine = trainText.split('\n').findIndex((l) => l.includes('use_reentrant=True'));
  assert.ok(reentrantLine >= 0, 'the workspace train.py has a use_reentrant=True line');
  await s.notify('textDocument/didOpen', { textDocument: { uri: trainUri, languageId: 'python', version: 1, text: trainText } });
  const p1 = await s.publish(trainPath, 'version 1', (p) => p.version === 1);
  const dpx001 = p1.diagnostics.find((d) => d.code === 'DPX001');
  assert.ok(dpx001, `a DPX001 diagnostic in the version 1 publish, got ${codes(p1)}`);
  assert.equal(dpx001.source, 'denpex');
  assert.equal(dpx001.range.start.line, reentrantLine, 'DPX001 is on the use_reentrant=True line');
  const flagged = trainText.slice(offsetAt(trainText, dpx001.range.start), offsetAt(trainText, dpx001.range.end));
  assert.ok(flagged.includes('True'), `the DPX001 range covers the True argument, covers ${JSON.stringify(flagged)}`);

  // hover
  const hover = await s.request('textDocument/hover', { textDocument: { uri: trainUri }, position: dpx001.range.start });
  assert.ok(hover, 'a hover on the DPX001 range');
  assert.equal(hover.contents.kind, 'markdown');
  assert.match(hover.contents.value, /DPX001/);

  // code actions: a quick fix, a suppression, fixAll when asked for
  const actionContext = { diagnostics: [dpx001], triggerKind: 1 };
  const actions = await s.request('textDocument/codeAction', {
    textDocument: { uri: trainUri }, range: dpx001.range, context: actionContext,
  });
  assert.ok(Array.isArray(actions) && actions.length > 0, 'code actions on the DPX001 range');
  const resolved = async (a) => {
    if (resolveEdits) {
      assert.equal(a.edit, undefined, `a lazily resolved action comes without its edit: ${a.title}`);
      assert.ok(a.data !== undefined, `a lazily resolved action carries data: ${a.title}`);
      const r = await s.request('codeAction/resolve', a);
      assert.equal(r.title, a.title, 'resolve keeps the action');
      return r;
    }
    assert.ok(a.edit, `an eagerly resolved action has its edit: ${a.title}`);
    return a;
  };
  // The quick fix: its own edit (DPX001's is unsafe, so not preferred) turns True into False.
  assert.ok(dpx001.data?.fix, 'the DPX001 diagnostic carries its fix in data');
  const fix = actions.find((a) => a.kind === 'quickfix' && /^Fix( \(unsafe\))? DPX001\b/.test(a.title));
  assert.ok(fix, `a DPX001 quick fix among ${JSON.stringify(actions.map((a) => a.title))}`);
  assert.equal(fix.isPreferred ?? false, dpx001.data.fix.safe, 'isPreferred exactly when the fix is safe');
  assert.ok(fix.diagnostics?.some((d) => d.code === 'DPX001'), 'the quick fix names the diagnostic it fixes');
  const trueToFalse = trainText.replace('use_reentrant=True', 'use_reentrant=False');
  const fixed = applyEdits(trainText, editsFor((await resolved(fix)).edit, trainUri, 1));
  assert.equal(fixed, trueToFalse, 'the quick fix turns True into False and changes nothing else');
  assert.equal(applyEdits(trainText, dpx001.data.fix.edits), trueToFalse, 'the fix in the diagnostic\'s data is the same edit');

  const suppress = actions.find((a) => a.kind === 'quickfix' && /ignore\[DPX001\]/.test(a.title));
  assert.ok(suppress, `a suppression action among ${JSON.stringify(actions.map((a) => a.title))}`);
  const suppressed = applyEdits(trainText, editsFor((await resolved(suppress)).edit, trainUri, 1));
  assert.match(lineOf(suppressed, reentrantLine), /use_reentrant=True\).*# denpex: ignore\[DPX001\]$/,
    'the suppression appends # denpex: ignore[DPX001] to the flagged line');
  assert.equal(suppressed.replace(/ *# denpex: ignore\[DPX001\]/, ''), trainText, 'and changes nothing else');

  // fixAll, asked for with context.only: every safe fix the diagnostics offer, and no unsafe one.
  const safeEdits = p1.diagnostics.filter((d) => d.data?.fix?.safe).flatMap((d) => d.data.fix.edits);
  const fixAllActions = await s.request('textDocument/codeAction', {
    textDocument: { uri: trainUri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [], only: ['source.fixAll.denpex'], triggerKind: 2 },
  });
  for (const a of fixAllActions) assert.equal(a.kind, 'source.fixAll.denpex', `only the kind asked for: ${a.title}`);
  if (safeEdits.length === 0) {
    assert.deepEqual(fixAllActions, [], 'no fixAll action without a safe fix');
  } else {
    assert.equal(fixAllActions.length, 1, 'one fixAll action for context.only source.fixAll.denpex');
    const allFixed = applyEdits(trainText, editsFor((await resolved(fixAllActions[0])).edit, trainUri, 1));
    assert.equal(allFixed, applyEdits(trainText, safeEdits), 'fixAll applies the safe fixes');
    assert.match(lineOf(allFixed, reentrantLine), /use_reentrant=True/, 'fixAll leaves the unsafe DPX001 fix alone');
  }

  // didChange: an incremental edit of True -> False
  const at = lineOf(trainText, reentrantLine).indexOf('True');
  let text = trainText;
  let version = 1;
  const change = async (range, newText) => {
    text = applyEdits(text, [{ range, newText }]);
    version += 1;
    await s.notify('textDocument/didChange', { textDocument: { uri: trainUri, version }, contentChanges: [{ range, text: newText }] });
  };
  const trueRange = { start: { line: reentrantLine, character: at }, end: { line: reentrantLine, character: at + 4 } };
  await change(trueRange, 'False');
  const p2 = await s.publish(trainPath, 'version 2', (p) => p.version === 2);
  assert.ok(!hasCode(p2, 'DPX001'), `no DPX001 after the fix, got ${codes(p2)}`);
  assert.equal((await s.request('denpex/documentText', { textDocument: { uri: trainUri } })).text, text,
    'the server holds the text the client holds');
  if (resolveEdits) {
    await assert.rejects(s.request('codeAction/resolve', fix), (e) => e instanceof ResponseError && e.code === -32801,
      'resolving an action offered for version 1 after version 2 arrived is ContentModified');
  }

  // Back to True (version 3), then 200 rapid edits: type an `x` after `use_reentrant` (the keyword
  // no longer names use_reentrant: DPX002, no DPX001), delete it (DPX001 again), 100 times.
  const falseRange = { start: { line: reentrantLine, character: at }, end: { line: reentrantLine, character: at + 5 } };
  await change(falseRange, 'True');
  const p3 = await s.publish(trainPath, 'version 3', (p) => p.version === 3);
  assert.ok(hasCode(p3, 'DPX001'), `DPX001 is back at version 3, got ${codes(p3)}`);
  const burstFrom = s.publishes.length;
  const col = lineOf(text, reentrantLine).indexOf('use_reentrant') + 'use_reentrant'.length;
  const pos = { line: reentrantLine, character: col };
  const sends = [];
  const midBurst = []; // code actions asked for between edits, as an editor does on every cursor move
  const wholeLine = { start: { line: reentrantLine, character: 0 }, end: { line: reentrantLine + 1, character: 0 } };
  for (let k = 1; k <= 200; ++k) {
    const range = k % 2 ? { start: pos, end: pos } : { start: pos, end: { line: reentrantLine, character: col + 1 } };
    text = applyEdits(text, [{ range, newText: k % 2 ? 'x' : '' }]);
    version += 1;
    sends.push(s.notify('textDocument/didChange', {
      textDocument: { uri: trainUri, version }, contentChanges: [{ range, text: k % 2 ? 'x' : '' }],
    }));
    if (k % 50 === 0 || k % 50 === 1) {
      midBurst.push({ typed: k % 2 === 1, version, actions: s.request('textDocument/codeAction', {
        textDocument: { uri: trainUri }, range: wholeLine, context: { diagnostics: [] },
      }) });
    }
  }
  await within(Promise.all(sends), 'the 200 didChange notifications to be written', s);
  for (const m of midBurst) {
    // A request is answered for the text as of the edits sent before it, whatever the pool has done.
    const titles = (await m.actions).map((a) => a.title);
    const says = (code) => titles.some((x) => x.includes(code));
    assert.ok(says('DPX002') === m.typed && says('DPX001') === !m.typed,
      `code actions on line ${reentrantLine} after version ${m.version} (${m.typed ? 'x typed' : 'as opened'}): ${JSON.stringify(titles)}`);
  }
  const finalVersion = version;
  assert.equal(finalVersion, 203);
  assert.equal(text, trainText, 'the burst ends where it started');
  await s.publish(trainPath, `the final version ${finalVersion}`, (p) => p.version === finalVersion, burstFrom);
  // Let anything still in flight arrive: the last publish must still be the final version's.
  await s.request('denpex/documentText', { textDocument: { uri: trainUri } });
  await sleep(300);
  const burst = s.publishes.slice(burstFrom).filter((p) => samePath(p.uri, trainPath));
  const last = burst.at(-1);
  assert.equal(last.version, finalVersion, `the last publish carries the final version (got versions ${burst.map((p) => p.version)})`);
  assert.deepEqual(last.diagnostics, p1.diagnostics, 'the final text is the opened text: the same diagnostics');
  const onLine = (p, code) => p.diagnostics.some((d) => d.code === code && d.range.start.line === reentrantLine);
  for (const p of burst) {
    // Version 3 + k: odd k has the x typed. A publish's diagnostics must be those of its version.
    const typed = (p.version - 3) % 2 === 1;
    assert.ok(onLine(p, 'DPX001') === !typed && onLine(p, 'DPX002') === typed,
      `version ${p.version} ${typed ? 'has an x typed: DPX002, not DPX001' : 'is as opened: DPX001, not DPX002'}, on line ${reentrantLine}; got ${codes(p)}`);
  }
  t.diagnostic(`${name}: 200 edits, ${burst.length} publishes (versions ${burst[0]?.version}..${last.version})`);
  assert.deepEqual(s.violations, [], 'publish versions never newer than sent and never decreasing');
  assert.equal((await s.request('denpex/documentText', { textDocument: { uri: trainUri } })).version, finalVersion);

  // Positions are UTF-16 code units: an astral character before the finding moves it by 2 per
  // character (not 4 bytes, not 1 code point), in diagnostics, hover and the fix's edit alike.
  // `    "😀"; hidden = checkpoint(...)`: a statement before the call, on the same line.
  const indent = lineOf(text, reentrantLine).search(/\S/);
  await change({ start: { line: reentrantLine, character: indent }, end: { line: reentrantLine, character: indent } }, '"\u{1F600}"; ');
  const pe = await s.publish(trainPath, `version ${version}`, (p) => p.version === version);
  const shifted = pe.diagnostics.find((d) => d.code === 'DPX001');
  assert.ok(shifted, `DPX001 after typing an emoji into the call, got ${codes(pe)}`);
  assert.equal(shifted.range.start.character, dpx001.range.start.character + 6, 'an emoji is two UTF-16 units ("😀"; is 6)');
  assert.equal(shifted.range.end.character, dpx001.range.end.character + 6);
  assert.equal(text.slice(offsetAt(text, shifted.range.start), offsetAt(text, shifted.range.end)), flagged, 'the range covers the same text');
  const hoverE = await s.request('textDocument/hover', { textDocument: { uri: trainUri }, position: shifted.range.end });
  assert.match(hoverE?.contents?.value ?? '', /DPX001/);
  const actionsE = await s.request('textDocument/codeAction', {
    textDocument: { uri: trainUri }, range: shifted.range, context: { diagnostics: [shifted] },
  });
  const fixE = actionsE.find((a) => a.kind === 'quickfix' && /^Fix( \(unsafe\))? DPX001\b/.test(a.title));
  assert.ok(fixE, `a DPX001 quick fix after the emoji, among ${JSON.stringify(actionsE.map((a) => a.title))}`);
  assert.equal(applyEdits(text, editsFor((await resolved(fixE)).edit, trainUri, version)),
    text.replace('use_reentrant=True', 'use_reentrant=False'), 'the fix\'s edit lands on True after the emoji');
  assert.equal((await s.request('denpex/documentText', { textDocument: { uri: trainUri } })).text, text);

  // A request the client cancels is still answered (result or RequestCancelled), never left hanging.
  const cts = new CancellationTokenSource();
  const cancelled = s.request('textDocument/hover', { textDocument: { uri: trainUri }, position: shifted.range.start }, cts.token);
  cts.cancel();
  await cancelled.then(
    (h) => assert.match(h?.contents?.value ?? '', /DPX001/),
    (e) => assert.ok(e instanceof ResponseError && e.code === -32800, `a cancelled request fails only as RequestCancelled: ${e}`),
  );

  // The log: one initiating fault, collateral pointing at it, and the source line it maps to.
  const logFrom = s.publishes.length;
  await s.notify('textDocument/didOpen', { textDocument: { uri: logUri, languageId: 'log', version: 1, text: logText } });
  const lp = await s.publish(logPath, 'the log, version 1', (p) => p.version === 1, logFrom);
  const errors = lp.diagnostics.filter((d) => d.severity === 1);
  assert.equal(errors.length, 1, `exactly one Error in the log, got ${codes(lp)}`);
  const err = errors[0];
  assert.equal(err.code, 'cuda-oom');
  assert.equal(err.source, 'denpex');
  assert.match(err.message, /\brank 5\b/, 'the Error names rank 5');
  assert.match(lineOf(logText, err.range.start.line), /^\[rank5\]:.*OutOfMemoryError/, 'the Error is on rank 5\'s OOM line');
  const infos = lp.diagnostics.filter((d) => d.severity === 3);
  assert.ok(infos.length >= 2, `several collateral Information diagnostics, got ${codes(lp)}`);
  for (const d of infos) {
    assert.match(d.message, /collateral/);
    assert.ok(Array.isArray(d.relatedInformation) && d.relatedInformation.length > 0, `relatedInformation on ${d.message}`);
    const rel = d.relatedInformation[0].location;
    assert.ok(samePath(rel.uri, logPath), `relatedInformation points into the log: ${rel.uri}`);
    assert.equal(rel.range.start.line, err.range.start.line, 'relatedInformation points at the Error\'s line');
    assert.doesNotMatch(lineOf(logText, d.range.start.line), /^\[rank5\]/, 'collateral is on other ranks');
  }
  const mp = await s.publish(modelPath, 'the traceback frame /workspace/model.py:97', (p) => p.diagnostics.length > 0, logFrom);
  const frame = mp.diagnostics.find((d) => d.range.start.line === 96);
  assert.ok(frame, `a diagnostic on model.py line 96 (0-based), got ${codes(mp)}`);
  assert.equal(frame.code, 'cuda-oom');
  assert.match(frame.message, /rank 5/);
  assert.ok(frame.relatedInformation?.some((r) => samePath(r.location.uri, logPath)), 'the frame diagnostic links back to the log');

  const logHover = await s.request('textDocument/hover', { textDocument: { uri: logUri }, position: err.range.start });
  assert.match(logHover?.contents?.value ?? '', /Initiating fault/, 'hover on the Error line explains the initiating fault');
  const logActions = await s.request('textDocument/codeAction', {
    textDocument: { uri: logUri }, range: err.range, context: { diagnostics: [err] },
  });
  assert.ok(logActions.some((a) => a.command?.command === 'denpex.explain'), 'an Explain action on the log\'s Error');

  const info = infos[0];
  const symptom = await s.request('textDocument/hover', { textDocument: { uri: logUri }, position: info.range.start });
  assert.match(symptom?.contents?.value ?? '', /symptom, not the cause/, 'hover on a collateral line says it is a symptom');

  // Editing the log: cut it before the failure (before rank 5's traceback begins on line 18: a log
  // that ends inside a traceback still shows which rank was failing), and model.py loses what the
  // log put there; undo (a full-text change) and it comes back.
  const cutFrom = s.publishes.length;
  const lines = logText.split('\n').length - 1;
  await s.notify('textDocument/didChange', { textDocument: { uri: logUri, version: 2 },
    contentChanges: [{ range: { start: { line: 17, character: 0 }, end: { line: lines, character: 0 } }, text: '' }] });
  const cutLog = await s.publish(logPath, 'the cut log, version 2', (p) => p.version === 2, cutFrom);
  assert.ok(!cutLog.diagnostics.some((d) => d.severity === 1), `no failure in the first 17 lines, got ${codes(cutLog)}`);
  assert.deepEqual((await s.publish(modelPath, 'model.py without the log\'s mark', () => true, cutFrom)).diagnostics, []);
  const undoFrom = s.publishes.length;
  await s.notify('textDocument/didChange', { textDocument: { uri: logUri, version: 3 }, contentChanges: [{ text: logText }] });
  const undone = await s.publish(logPath, 'the restored log, version 3', (p) => p.version === 3, undoFrom);
  assert.deepEqual(undone.diagnostics, lp.diagnostics, 'the same text, the same diagnostics');
  const back = await s.publish(modelPath, 'model.py with the log\'s mark again', () => true, undoFrom);
  assert.deepEqual(back.diagnostics, mp.diagnostics);

  // didClose of the log takes back what it put into model.py.
  const closeFrom = s.publishes.length;
  await s.notify('textDocument/didClose', { textDocument: { uri: logUri } });
  const cleared = await s.publish(modelPath, 'model.py cleared after the log closed', () => true, closeFrom);
  assert.deepEqual(cleared.diagnostics, [], 'model.py\'s diagnostics are published empty');
  const logCleared = await s.publish(logPath, 'the closed log cleared', () => true, closeFrom);
  assert.deepEqual(logCleared.diagnostics, []);

  // Commands.
  const dx = await s.request('workspace/executeCommand', { command: 'denpex.diagnose', arguments: [{ text: logText }] });
  assert.equal(dx.schema_version, 1);
  assert.equal(dx.diagnoses[0].entry, 'cuda-oom');
  assert.equal(dx.diagnoses[0].initiating_rank, 5);
  assert.ok(typeof dx.markdown === 'string' && dx.markdown.length > 0, 'denpex.diagnose returns markdown');
  const rule = await s.request('workspace/executeCommand', { command: 'denpex.explain', arguments: [{ id: 'DPX001' }] });
  assert.ok(typeof rule === 'string' && rule.includes('DPX001'), 'denpex.explain DPX001 is Markdown naming the rule');
  const entry = await s.request('workspace/executeCommand', { command: 'denpex.explain', arguments: [{ id: 'cuda-oom' }] });
  assert.ok(typeof entry === 'string' && /CUDA out of memory/i.test(entry), 'denpex.explain cuda-oom is Markdown about the entry');
  await assert.rejects(
    s.request('workspace/executeCommand', { command: 'denpex.explain', arguments: [{ id: 'no-such-entry' }] }),
    (e) => e instanceof ResponseError && e.code === -32602,
    'an unknown id is InvalidParams',
  );
  const check = await s.request('workspace/executeCommand', { command: 'denpex.checkWorkspace', arguments: [] });
  assert.ok(check.files >= 2 && typeof check.findings === 'number', `denpex.checkWorkspace result ${JSON.stringify(check)}`);

  const closeTrainFrom = s.publishes.length;
  await s.notify('textDocument/didClose', { textDocument: { uri: trainUri } });
  assert.deepEqual((await s.publish(trainPath, 'train.py cleared after didClose', () => true, closeTrainFrom)).diagnostics, []);

  assert.deepEqual(s.violations, [], 'publish versions never newer than sent and never decreasing');
  assert.deepEqual(s.serverRequests, [], 'no server requests for capabilities this client did not announce');

  // shutdown + exit -> exit code 0
  assert.equal(await s.request('shutdown'), null);
  await s.notify('exit');
  const status = await within(s.exited, 'the server to exit after shutdown + exit', s);
  assert.deepEqual(status, { code: 0, signal: null }, 'exit code 0 after shutdown + exit');
}
