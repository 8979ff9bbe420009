// The diagnosis view's HTML, built from a `denpex.diagnose` reply. Pure: no `vscode` import.
import { DiagnoseResult, Diagnosis } from "./logic";

export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

function inline(s: string): string {
  // Escape first, then the few inline forms the entries use: `code`, **bold**, *emphasis*.
  const parts = s.split(/(`[^`]*`)/);
  return parts
    .map((p) => {
      if (p.length >= 2 && p.startsWith("`") && p.endsWith("`")) return `<code>${escapeHtml(p.slice(1, -1))}</code>`;
      return escapeHtml(p)
        .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
        .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>");
    })
    .join("");
}

/** A small, safe Markdown subset: paragraphs, fenced code, ordered and bulleted lists, inline code. No raw HTML, no links. */
export function renderMarkdown(md: string): string {
  const out: string[] = [];
  const lines = md.replace(/\r\n?/g, "\n").split("\n");
  let para: string[] = [];
  let list: { tag: "ol" | "ul"; items: string[] } | undefined;
  const flushPara = () => {
    if (para.length > 0) out.push(`<p>${inline(para.join(" "))}</p>`);
    para = [];
  };
  const flushList = () => {
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join("")}</${list.tag}>`);
    list = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (/^\s*```/.test(line)) {
      flushPara();
      flushList();
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i] ?? ""); i++) code.push(lines[i] ?? "");
      out.push(`<pre><code>${escapeHtml(code.join("\n"))}</code></pre>`);
      continue;
    }
    const ol = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    const ul = /^\s*[-*+]\s+(.*)$/.exec(line);
    if (ol || ul) {
      flushPara();
      const tag = ol ? "ol" : "ul";
      if (list && list.tag !== tag) flushList();
      if (!list) list = { tag, items: [] };
      list.items.push((ol ?? ul)![1] ?? "");
      continue;
    }
    if (line.trim() === "") {
      flushPara();
      flushList();
      continue;
    }
    if (list && /^\s+\S/.test(line)) {
      list.items[list.items.length - 1] += " " + line.trim();
      continue;
    }
    flushList();
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      flushPara();
      const level = Math.min(6, (h[1] ?? "#").length + 2);
      out.push(`<h${level}>${inline(h[2] ?? "")}</h${level}>`);
      continue;
    }
    para.push(line.trim());
  }
  flushPara();
  flushList();
  return out.join("\n");
}

function loc(kind: "log" | "frame", file: string, line: number, label?: string): string {
  const text = label ?? `${file}:${line}`;
  return `<a href="#" class="loc" data-kind="${kind}" data-file="${escapeHtml(file)}" data-line="${line}">${escapeHtml(text)}</a>`;
}

function rankText(d: Diagnosis): string {
  const parts: string[] = [];
  if (d.initiating_rank !== undefined && d.initiating_rank !== null) parts.push(`rank ${d.initiating_rank}`);
  if (d.initiating_local_rank !== undefined && d.initiating_local_rank !== null && d.initiating_local_rank !== d.initiating_rank) {
    parts.push(`local rank ${d.initiating_local_rank}`);
  }
  if (d.initiating_node) parts.push(`on ${d.initiating_node}`);
  return parts.length > 0 ? parts.join(", ") : "not named in the log";
}

function renderDiagnosis(d: Diagnosis, index: number): string {
  const s: string[] = [];
  const conf = d.confidence !== undefined ? ` <span class="muted">confidence ${Math.round(d.confidence * 100)}%</span>` : "";
  s.push(`<section class="diagnosis" data-entry="${escapeHtml(d.entry)}">`);
  s.push(`<h1>${index === 0 ? "" : "Also: "}${escapeHtml(d.title)}${conf}</h1>`);
  s.push(`<p class="meta"><span class="badge">${escapeHtml(d.entry)}</span> ${escapeHtml(d.category ?? "")} ${d.severity ? `<span class="sev sev-${escapeHtml(d.severity)}">${escapeHtml(d.severity)}</span>` : ""}</p>`);
  s.push(`<p class="initiator">Initiating fault: <strong id="initiating-rank-${index}">${escapeHtml(rankText(d))}</strong>`);
  if (d.first_error) s.push(` at ${loc("log", d.first_error.file, d.first_error.line)}`);
  s.push(`</p>`);
  if (d.first_error) s.push(`<pre class="errline">${escapeHtml(d.first_error.text)}</pre>`);
  if (d.summary) s.push(renderMarkdown(d.summary));
  if (d.chain && d.chain.length > 0) {
    s.push(`<h2>Causal chain</h2><ol class="chain">${d.chain.map((c) => `<li>${escapeHtml(c)}</li>`).join("")}</ol>`);
  }
  const frames = d.traceback ?? [];
  if (frames.length > 0) {
    s.push(`<h2>Traceback</h2><ul class="frames">`);
    for (const f of frames) {
      const fn = f.function ? ` in <code>${escapeHtml(f.function)}</code>` : "";
      const logRef = f.log_line !== undefined && d.first_error ? ` <span class="muted">(log ${loc("log", d.first_error.file, f.log_line, `line ${f.log_line}`)})</span>` : "";
      s.push(`<li>${loc("frame", f.file, f.line)}${fn}${logRef}</li>`);
    }
    s.push(`</ul>`);
  }
  const coll = d.collateral ?? [];
  if (coll.length > 0) {
    s.push(`<h2>Collateral (${coll.length})</h2><ul class="collateral">`);
    for (const c of coll) {
      s.push(`<li>${c.rank === null ? "launcher" : `rank ${c.rank}`}: <code>${escapeHtml(c.entry)}</code> at ${loc("log", c.file, c.line)}</li>`);
    }
    s.push(`</ul>`);
  }
  const ev = d.evidence;
  if (ev && ((ev.findings?.length ?? 0) > 0 || Object.keys(ev.captures ?? {}).length > 0)) {
    s.push(`<h2>Evidence</h2>`);
    if (ev.findings && ev.findings.length > 0) s.push(`<ul>${ev.findings.map((f) => `<li>${escapeHtml(f)}</li>`).join("")}</ul>`);
    const caps = Object.entries(ev.captures ?? {});
    if (caps.length > 0) {
      s.push(`<table class="captures">${caps.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join("")}</table>`);
    }
  }
  if (d.fix) s.push(`<h2>Fix</h2>${renderMarkdown(d.fix)}`);
  if (d.verify) {
    s.push(`<h2>Verify</h2><div class="verify">${renderMarkdown(d.verify)}</div>`);
    s.push(`<p><button data-action="copy" data-entry="${escapeHtml(d.entry)}">Copy</button> <button data-action="run" data-entry="${escapeHtml(d.entry)}">Run in Terminal</button></p>`);
  }
  if (d.related && d.related.length > 0) {
    s.push(`<p class="muted">Related: ${d.related.map((r) => `<a href="#" data-action="explain" data-entry="${escapeHtml(r)}">${escapeHtml(r)}</a>`).join(", ")}</p>`);
  }
  s.push(`</section>`);
  return s.join("");
}

/** The body of the view for one reply. */
export function renderBody(r: DiagnoseResult, source: string): string {
  const s: string[] = [`<p class="muted">Diagnosed locally by denpex from ${escapeHtml(source)}.</p>`];
  if (r.diagnoses.length === 0) {
    s.push(`<h1>No known failure matched</h1>`);
    if (r.first_error_line) s.push(`<p>First error-looking line: ${loc("log", r.first_error_line.file, r.first_error_line.line)}</p><pre>${escapeHtml(r.first_error_line.text)}</pre>`);
    if (r.final_exception) s.push(`<p>Final exception: <code>${escapeHtml(r.final_exception.type)}</code> at ${loc("log", r.final_exception.file, r.final_exception.line)}</p>`);
    s.push(`<p>Denpex never invents a diagnosis; add an entry with <code>denpex.signatures</code> if this failure is known to you.</p>`);
  }
  r.diagnoses.forEach((d, i) => s.push(renderDiagnosis(d, i)));
  return s.join("\n");
}

export const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 1.2em 2em; line-height: 1.45; }
h1 { font-size: 1.5em; margin: 0.6em 0 0.2em; } h2 { font-size: 1.1em; margin: 1.2em 0 0.3em; border-bottom: 1px solid var(--vscode-panel-border); }
a { color: var(--vscode-textLink-foreground); } a:hover { color: var(--vscode-textLink-activeForeground); }
code, pre { font-family: var(--vscode-editor-font-family); background: var(--vscode-textCodeBlock-background); }
pre { padding: 0.5em; white-space: pre-wrap; word-break: break-all; }
.muted { color: var(--vscode-descriptionForeground); font-weight: normal; font-size: 0.85em; }
.badge { border: 1px solid var(--vscode-badge-background); background: var(--vscode-badge-background); color: var(--vscode-badge-foreground); padding: 0 0.4em; border-radius: 3px; }
.sev-fatal, .sev-error { color: var(--vscode-errorForeground); } .sev-warning { color: var(--vscode-editorWarning-foreground); }
.initiator { font-size: 1.1em; } .errline { border-left: 3px solid var(--vscode-errorForeground); }
table.captures th { text-align: left; padding-right: 1em; color: var(--vscode-descriptionForeground); font-weight: normal; }
button { background: var(--vscode-button-background); color: var(--vscode-button-foreground); border: none; padding: 0.3em 0.9em; cursor: pointer; }
button:hover { background: var(--vscode-button-hoverBackground); }
`;

export const SCRIPT = `
const vscode = acquireVsCodeApi();
document.addEventListener('click', (ev) => {
  const t = ev.target instanceof Element ? ev.target.closest('[data-kind],[data-action]') : null;
  if (!t) return;
  ev.preventDefault();
  if (t.dataset.kind) vscode.postMessage({ type: 'open', kind: t.dataset.kind, file: t.dataset.file, line: Number(t.dataset.line) });
  else vscode.postMessage({ type: t.dataset.action, entry: t.dataset.entry });
});
`;

/** The whole page: strict CSP (nothing remote; one nonce'd script; styles only from the page). */
export function renderPage(r: DiagnoseResult, opts: { source: string; nonce: string; cspSource: string }): string {
  const csp = [
    "default-src 'none'",
    `style-src ${opts.cspSource} 'nonce-${opts.nonce}'`,
    `script-src 'nonce-${opts.nonce}'`,
    `img-src ${opts.cspSource}`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Denpex diagnosis</title>
<style nonce="${opts.nonce}">${STYLE}</style>
</head><body>
${renderBody(r, opts.source)}
<script nonce="${opts.nonce}">${SCRIPT}</script>
</body></html>`;
}
