// Bundles the extension (dist/extension.js) or, with --tests, the unit tests (out/test/*.test.js).
import { build } from "esbuild";
import { readdirSync } from "node:fs";

const tests = process.argv.includes("--tests");
const common = { bundle: true, platform: "node", format: "cjs", target: "node18", sourcemap: false, logLevel: "warning" };
if (tests) {
  const files = readdirSync("test").filter((f) => f.endsWith(".test.ts")).map((f) => `test/${f}`);
  await build({ ...common, entryPoints: files, outdir: "out/test" });
} else {
  await build({ ...common, entryPoints: ["src/extension.ts"], outfile: "dist/extension.js", external: ["vscode"], minify: process.argv.includes("--minify") });
}
