// The extension's own logic, free of the `vscode` module so that `npm test` runs it under plain Node.

/** Settings of the `denpex` section as VS Code holds them. */
export interface DenpexSettings {
  path: string;
  signatures: string[];
  select: string[];
  ignore: string[];
  logGlobs: string[];
  docsUrl: string;
}

/** What the server reads from initializationOptions and workspace/didChangeConfiguration (docs/lsp.md). */
export interface ServerSettings {
  select: string[];
  ignore: string[];
  signatureDirs: string[];
  logGlobs: string[];
  docsUrl: string;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim()) : [];
}

/** Reads the contributed settings through a getter (WorkspaceConfiguration.get), defaulting anything mistyped. */
export function readSettings(get: (key: string) => unknown): DenpexSettings {
  const path = get("path");
  const docsUrl = get("docsUrl");
  const globs = strings(get("logGlobs"));
  return {
    path: typeof path === "string" ? path.trim() : "",
    signatures: strings(get("signatures")),
    select: strings(get("select")),
    ignore: strings(get("ignore")),
    logGlobs: globs.length > 0 ? globs : ["*.log", "*.out", "*.err"],
    docsUrl: typeof docsUrl === "string" ? docsUrl.trim() : "",
  };
}

/** Expands `~` and resolves a relative path against the first workspace folder. */
export function resolveUserPath(p: string, root: string | undefined, home: string): string {
  let out = p;
  if (out === "~" || out.startsWith("~/")) out = home + out.slice(1);
  if (!out.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(out) && root !== undefined) out = joinPath(root, out);
  return out;
}

function joinPath(a: string, b: string): string {
  return a.endsWith("/") ? a + b : a + "/" + b;
}

/** The settings object sent to the server (no `path`, which only the client uses). */
export function serverSettings(s: DenpexSettings, root: string | undefined, home: string): ServerSettings {
  return {
    select: s.select,
    ignore: s.ignore,
    signatureDirs: s.signatures.map((d) => resolveUserPath(d, root, home)),
    logGlobs: s.logGlobs,
    docsUrl: s.docsUrl,
  };
}

export type ServerChoice =
  | { ok: true; path: string; origin: "setting" | "bundled" | "PATH" }
  | { ok: false; message: string };

/**
 * Which `denpex` binary to start: `denpex.path` when set (and only it: a wrong setting is an error,
 * not a silent fallback), else the binary bundled in the .vsix, else `denpex` on PATH.
 */
export function chooseServer(opts: {
  configured: string;
  bundled: string | undefined;
  root: string | undefined;
  home: string;
  isExecutable: (p: string) => boolean;
  which: (name: string) => string | undefined;
}): ServerChoice {
  if (opts.configured !== "") {
    const p = resolveUserPath(opts.configured, opts.root, opts.home);
    if (opts.isExecutable(p)) return { ok: true, path: p, origin: "setting" };
    return { ok: false, message: `Denpex: the language server cannot start: \`denpex.path\` is "${opts.configured}", which is not an executable file.` };
  }
  if (opts.bundled !== undefined && opts.isExecutable(opts.bundled)) return { ok: true, path: opts.bundled, origin: "bundled" };
  const onPath = opts.which("denpex");
  if (onPath !== undefined) return { ok: true, path: onPath, origin: "PATH" };
  return { ok: false, message: "Denpex: the language server cannot start: no `denpex` binary is bundled for this platform and none is on PATH." };
}

/** Finds `name` in a PATH string. */
export function whichIn(name: string, pathVar: string | undefined, isExecutable: (p: string) => boolean): string | undefined {
  for (const dir of (pathVar ?? "").split(":")) {
    if (dir === "") continue;
    const p = joinPath(dir, name);
    if (isExecutable(p)) return p;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Terminal links: lines that match a known fingerprint.

export interface EntrySummary {
  id: string;
  title: string;
  category?: string;
  role?: string;
  severity?: string;
  fingerprints?: string[];
}

/** Translates an RE2 pattern into a JavaScript RegExp, or undefined when JS cannot express it. */
export function re2ToRegExp(pattern: string): RegExp | undefined {
  let src = pattern;
  let flags = "";
  const lead = /^\(\?([imsU]+)\)/.exec(src);
  if (lead) {
    const f = lead[1] ?? "";
    if (f.includes("U")) return undefined;
    if (f.includes("i")) flags += "i";
    if (f.includes("s")) flags += "s";
    if (f.includes("m")) flags += "m";
    src = src.slice(lead[0].length);
  }
  src = src.replace(/\(\?P</g, "(?<");
  if (/\(\?[imsU-]+[):]|\\[AzCpP]|\[\[:/.test(src)) return undefined;
  try {
    return new RegExp(src, flags);
  } catch {
    return undefined;
  }
}

export interface FingerprintHit {
  entry: string;
  title: string;
  start: number;
  length: number;
}

export class FingerprintMatcher {
  private readonly patterns: { entry: string; title: string; re: RegExp }[] = [];
  readonly skipped: string[] = [];

  constructor(entries: EntrySummary[]) {
    for (const e of entries) {
      for (const f of e.fingerprints ?? []) {
        const re = re2ToRegExp(f);
        if (re) this.patterns.push({ entry: e.id, title: e.title, re });
        else this.skipped.push(f);
      }
    }
  }

  get size(): number {
    return this.patterns.length;
  }

  /**
   * The most specific fingerprint that matches the line (longest match; the first on ties). The
   * link covers the whole non-blank line; the server decides the diagnosis when it is clicked.
   */
  match(line: string): FingerprintHit | undefined {
    if (line.length > 4096 || line.trim() === "") return undefined;
    let best: { entry: string; title: string; len: number } | undefined;
    for (const p of this.patterns) {
      const m = p.re.exec(line);
      if (m && (!best || m[0].length > best.len)) best = { entry: p.entry, title: p.title, len: m[0].length };
    }
    if (!best) return undefined;
    const start = line.length - line.trimStart().length;
    return { entry: best.entry, title: best.title, start, length: line.trimEnd().length - start };
  }
}

// ---------------------------------------------------------------------------------------------
// Places named by a diagnosis: log lines and traceback frames.

/**
 * Maps a traceback frame's path to a workspace file: the absolute path when it lies in a folder,
 * else the longest tail that exists under one (`/workspace/model.py` -> `<root>/model.py`), as the
 * server does. Frames in site-packages/dist-packages and `<frozen ...>` never map.
 */
export function mapFrameToWorkspace(file: string, roots: string[], exists: (p: string) => boolean): string | undefined {
  if (file.startsWith("<") || /[\\/](site|dist)-packages[\\/]/.test(file)) return undefined;
  for (const r of roots) {
    if (file.startsWith(joinPath(r, "")) && exists(file)) return file;
  }
  const parts = file.split(/[\\/]/).filter((s) => s !== "");
  for (let i = 0; i < parts.length; i++) {
    const tail = parts.slice(i).join("/");
    for (const r of roots) {
      const p = joinPath(r, tail);
      if (exists(p)) return p;
    }
  }
  return undefined;
}

/** Everything else the UI needs from a `denpex.diagnose` reply (docs/diagnose.md, schema_version 1). */
export interface Frame { file: string; line: number; function?: string; log_line?: number }
export interface Diagnosis {
  entry: string;
  title: string;
  category?: string;
  severity?: string;
  confidence?: number;
  summary?: string;
  initiating_rank?: number | null;
  initiating_local_rank?: number | null;
  initiating_node?: string | null;
  first_error?: { file: string; line: number; text: string } | null;
  traceback?: Frame[];
  chain?: string[];
  collateral?: { rank: number | null; entry: string; file: string; line: number }[];
  evidence?: { captures?: Record<string, string>; findings?: string[] };
  fix?: string;
  verify?: string;
  related?: string[];
}
export interface DiagnoseResult {
  schema_version?: number;
  diagnoses: Diagnosis[];
  first_error_line?: { file: string; line: number; rank: number | null; text: string } | null;
  final_exception?: { file: string; line: number; type: string; message: string } | null;
  markdown?: string;
}

export function parseDiagnoseResult(value: unknown): DiagnoseResult {
  if (typeof value !== "object" || value === null || !Array.isArray((value as { diagnoses?: unknown }).diagnoses)) {
    throw new Error("denpex.diagnose returned no `diagnoses` array");
  }
  return value as DiagnoseResult;
}

/** One line summary for a notification or the status bar. */
export function headline(r: DiagnoseResult): string {
  const d = r.diagnoses[0];
  if (!d) return r.final_exception ? `No known failure matched; final exception: ${r.final_exception.type}` : "No known failure matched.";
  const where: string[] = [];
  if (d.initiating_rank !== undefined && d.initiating_rank !== null) where.push(`rank ${d.initiating_rank}`);
  if (d.initiating_node) where.push(`on ${d.initiating_node}`);
  return where.length > 0 ? `${d.title} (initiating fault: ${where.join(" ")})` : d.title;
}
