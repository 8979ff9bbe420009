import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import {
  chooseServer,
  FingerprintMatcher,
  headline,
  mapFrameToWorkspace,
  parseDiagnoseResult,
  re2ToRegExp,
  readSettings,
  resolveUserPath,
  serverSettings,
  whichIn,
} from "../src/logic";
import { escapeHtml, renderBody, renderMarkdown, renderPage } from "../src/report";

test("settings: defaults for missing or mistyped values, trimmed lists", () => {
  const raw: Record<string, unknown> = { path: 3, select: ["DPX001", " ", 7, " DPX01 "], ignore: "DPX002", logGlobs: [] };
  const s = readSettings((k) => raw[k]);
  assert.deepEqual(s, { path: "", signatures: [], select: ["DPX001", "DPX01"], ignore: [], logGlobs: ["*.log", "*.out", "*.err"], docsUrl: "" });
});

test("settings: what the server gets (docs/lsp.md names), relative signature dirs resolved", () => {
  const s = readSettings((k) => ({ path: "/x/denpex", signatures: ["entries", "~/mine", "/abs"], select: ["DPX"], docsUrl: "https://d/" } as Record<string, unknown>)[k]);
  assert.deepEqual(serverSettings(s, "/ws", "/home/u"), {
    select: ["DPX"],
    ignore: [],
    signatureDirs: ["/ws/entries", "/home/u/mine", "/abs"],
    logGlobs: ["*.log", "*.out", "*.err"],
    docsUrl: "https://d/",
  });
  assert.equal(resolveUserPath("bin/denpex", undefined, "/h"), "bin/denpex");
});

test("server choice: setting wins and is never silently replaced; then bundled; then PATH", () => {
  const exe = new Set(["/ext/bin/linux-x64/denpex", "/usr/bin/denpex", "/ws/tools/denpex"]);
  const base = { root: "/ws", home: "/h", isExecutable: (p: string) => exe.has(p), which: () => "/usr/bin/denpex" };
  assert.deepEqual(chooseServer({ ...base, configured: "tools/denpex", bundled: "/ext/bin/linux-x64/denpex" }), { ok: true, path: "/ws/tools/denpex", origin: "setting" });
  const bad = chooseServer({ ...base, configured: "/nowhere/denpex", bundled: "/ext/bin/linux-x64/denpex" });
  assert.equal(bad.ok, false);
  assert.match(!bad.ok ? bad.message : "", /denpex\.path.*\/nowhere\/denpex.*not an executable/);
  assert.deepEqual(chooseServer({ ...base, configured: "", bundled: "/ext/bin/linux-x64/denpex" }), { ok: true, path: "/ext/bin/linux-x64/denpex", origin: "bundled" });
  assert.deepEqual(chooseServer({ ...base, configured: "", bundled: undefined }), { ok: true, path: "/usr/bin/denpex", origin: "PATH" });
  const none = chooseServer({ ...base, configured: "", bundled: "/missing", which: () => undefined });
  assert.equal(none.ok, false);
  assert.equal(whichIn("denpex", "/a::/usr/bin", (p) => exe.has(p)), "/usr/bin/denpex");
  assert.equal(whichIn("denpex", undefined, () => true), undefined);
});

test("RE2 patterns become JavaScript regexps, or are skipped", () => {
  assert.equal(re2ToRegExp("invalid load key, '(?P<key>[^']*)'\\.")?.exec("invalid load key, 'v'.")?.groups?.key, "v");
  assert.ok(re2ToRegExp("(?i)cuda error")?.test("CUDA Error: x"));
  assert.equal(re2ToRegExp("a\\Cb"), undefined);
  assert.equal(re2ToRegExp("(?U)a+"), undefined);
  assert.equal(re2ToRegExp("(unclosed"), undefined);
});

test("terminal link matcher: whole trimmed line of the first matching fingerprint", () => {
  const m = new FingerprintMatcher([
    { id: "cuda-oom", title: "CUDA out of memory", fingerprints: ["CUDA out of memory\\. Tried to allocate (?P<tried>[\\d.]+ [KMG]iB)", "[[:bad"] },
    { id: "nccl-watchdog-timeout", title: "NCCL watchdog timeout", fingerprints: ["Watchdog caught collective operation timeout"] },
  ]);
  assert.equal(m.size, 2);
  assert.deepEqual(m.skipped, ["[[:bad"]);
  const line = "  [rank5]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.82 GiB.   ";
  assert.deepEqual(m.match(line), { entry: "cuda-oom", title: "CUDA out of memory", start: 2, length: line.trim().length });
  assert.equal(m.match("epoch 3 loss 0.12"), undefined);
  assert.equal(m.match("   "), undefined);
  assert.equal(m.match("Watchdog caught collective operation timeout".repeat(200)), undefined, "very long lines are not scanned");
});

test("frames map to workspace files like the server maps them", () => {
  const files = new Set(["/ws/model.py", "/ws/pkg/train.py", "/other/abs.py", "/ws/abs/in.py"]);
  const exists = (p: string) => files.has(p);
  assert.equal(mapFrameToWorkspace("/workspace/model.py", ["/ws"], exists), "/ws/model.py");
  assert.equal(mapFrameToWorkspace("/srv/job/pkg/train.py", ["/ws"], exists), "/ws/pkg/train.py");
  assert.equal(mapFrameToWorkspace("/ws/abs/in.py", ["/ws"], exists), "/ws/abs/in.py");
  assert.equal(mapFrameToWorkspace("/usr/lib/python3/dist-packages/model.py", ["/ws"], exists), undefined);
  assert.equal(mapFrameToWorkspace("<frozen importlib._bootstrap>", ["/ws"], exists), undefined);
  assert.equal(mapFrameToWorkspace("/x/missing.py", ["/ws"], exists), undefined);
});

test("markdown subset escapes everything it does not render", () => {
  assert.equal(renderMarkdown("Use `x<y>` and **bold**\n\n1. one\n2. two\n   more"), "<p>Use <code>x&lt;y&gt;</code> and <strong>bold</strong></p>\n<ol><li>one</li><li>two more</li></ol>");
  assert.equal(renderMarkdown("<script>alert(1)</script>"), "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
  assert.equal(renderMarkdown("```\na < b\n```"), "<pre><code>a &lt; b</code></pre>");
  assert.equal(escapeHtml(`"'&`), "&quot;&#39;&amp;");
});

const sample = {
  schema_version: 1,
  diagnoses: [
    {
      entry: "cuda-oom",
      title: "CUDA out of memory",
      category: "Memory",
      severity: "fatal",
      confidence: 0.93,
      initiating_rank: 5,
      initiating_local_rank: 5,
      initiating_node: "gpu-node-03",
      first_error: { file: "train.log", line: 29, text: "torch.OutOfMemoryError: <b>" },
      traceback: [{ file: "/workspace/model.py", line: 97, function: "forward", log_line: 27 }],
      chain: ["rank 5: CUDA out of memory"],
      collateral: [{ rank: 0, entry: "nccl-watchdog-timeout", file: "train.log", line: 33 }, { rank: null, entry: "torchrun-child-failed", file: "train.log", line: 80 }],
      evidence: { captures: { tried: "3.82 GiB" }, findings: ["Tried to allocate 3.82 GiB."] },
      fix: "Lower the batch.",
      verify: "Run `nvidia-smi`.",
    },
  ],
};

test("diagnosis view: rank, node, chain, collateral, evidence, fix, verify buttons, clickable places", () => {
  const r = parseDiagnoseResult(sample);
  assert.equal(headline(r), "CUDA out of memory (initiating fault: rank 5 on gpu-node-03)");
  const html = renderBody(r, "train.log");
  assert.match(html, /Initiating fault: <strong id="initiating-rank-0">rank 5, on gpu-node-03<\/strong>/);
  assert.match(html, /data-kind="log" data-file="train.log" data-line="29">train.log:29</);
  assert.match(html, /data-kind="frame" data-file="\/workspace\/model.py" data-line="97"/);
  assert.match(html, /Collateral \(2\)/);
  assert.match(html, /launcher: <code>torchrun-child-failed<\/code>/);
  assert.match(html, /<th>tried<\/th><td>3.82 GiB<\/td>/);
  assert.match(html, /data-action="copy" data-entry="cuda-oom"/);
  assert.match(html, /data-action="run" data-entry="cuda-oom"/);
  assert.ok(!html.includes("<b>"), "log text is escaped");
  assert.throws(() => parseDiagnoseResult({ nope: 1 }), /diagnoses/);
  assert.equal(headline({ diagnoses: [] }), "No known failure matched.");
  assert.match(renderBody({ diagnoses: [], final_exception: { file: "a.log", line: 3, type: "ValueError", message: "" } }, "a.log"), /No known failure matched[\s\S]*ValueError/);
});

test("diagnosis view: strict CSP, no remote resources, one nonce'd script", () => {
  const html = renderPage(parseDiagnoseResult(sample), { source: "x", nonce: "N0nce", cspSource: "vscode-webview://abc" });
  const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? "";
  assert.match(csp, /^default-src 'none';/);
  assert.match(csp, /script-src 'nonce-N0nce'/);
  assert.ok(!/unsafe-inline|unsafe-eval|https?:/.test(csp));
  assert.ok(!/(src|href)="https?:/.test(html));
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.match(html, /<script nonce="N0nce">/);
});

// With the release binary at hand (CI builds it first), every fingerprint it ships must load.
const bin = process.env.DENPEX_BIN ?? `${__dirname}/../../../../build/denpex`;
test("the shipped entries: terminal links cover most fingerprints, and match their own OOM line", { skip: !existsSync(bin) && "no denpex binary built" }, () => {
  const list = JSON.parse(execFileSync(bin, ["signatures", "list", "--format", "json"], { encoding: "utf8", maxBuffer: 1 << 26 }));
  const m = new FingerprintMatcher(list);
  assert.ok(m.size >= 0.9 * (m.size + m.skipped.length), `${m.skipped.length} of ${m.size + m.skipped.length} skipped`);
  const hit = m.match("[rank5]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.82 GiB. GPU 5 has a total capacity of 79.10 GiB of which 1.94 GiB is free.");
  assert.match(hit?.entry ?? "", /oom/, "an OOM line is a link (the server picks the entry when it is clicked)");
  assert.equal(m.match("step 100 loss 2.31 lr 3e-4"), undefined);
});

// The manifest and the code agree: every contributed command is registered by the extension, and
// none shadows a command the server executes (vscode-languageclient registers those itself).
test("package.json commands are registered and never collide with the server's", () => {
  const { readFileSync } = require("node:fs") as typeof import("node:fs");
  const root = `${__dirname}/../..`;
  const manifest = JSON.parse(readFileSync(`${root}/package.json`, "utf8"));
  const source = readFileSync(`${root}/src/extension.ts`, "utf8");
  const server = ["denpex.diagnose", "denpex.explain", "denpex.copyVerifyCommand", "denpex.checkWorkspace", "denpex.diagnoseText"];
  const ids: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command);
  assert.ok(ids.length >= 5);
  for (const id of ids) {
    assert.ok(source.includes(`reg("${id}"`), `${id} is contributed but not registered`);
    assert.ok(!server.includes(id), `${id} is a server command`);
  }
  for (const menu of Object.values(manifest.contributes.menus) as { command: string }[][]) {
    for (const m of menu) assert.ok(ids.includes(m.command), `menu names unknown command ${m.command}`);
  }
});
