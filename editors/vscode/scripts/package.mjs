// Builds denpex-<platform>.vsix: the minified bundle plus the release `denpex` binary.
//   node scripts/package.mjs [--binary PATH] [--target linux-x64] [--out FILE]
// The binary defaults to $DENPEX_BIN, else ../../build/denpex (the release build).
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const target = arg("--target", "linux-x64");
const binary = resolve(arg("--binary", process.env.DENPEX_BIN ?? join(here, "../../build/denpex")));
const version = JSON.parse(readFileSync(join(here, "package.json"), "utf8")).version;
const out = resolve(arg("--out", join(here, `denpex-${target}-${version}.vsix`)));

if (!existsSync(binary)) {
  console.error(`package: no denpex binary at ${binary} (build it: cmake --build build --target denpex, or pass --binary)`);
  process.exit(2);
}
process.chdir(here);
execFileSync(process.execPath, ["scripts/build.mjs", "--minify"], { stdio: "inherit" });
rmSync("bin", { recursive: true, force: true });
const dest = join("bin", target, "denpex");
mkdirSync(dirname(dest), { recursive: true });
copyFileSync(binary, dest);
chmodSync(dest, 0o755);
const vsce = join(here, "node_modules", "@vscode", "vsce", "vsce");
execFileSync(process.execPath, [vsce, "package", "--target", target, "--no-dependencies", "--skip-license", "--allow-missing-repository", "-o", out], {
  stdio: ["ignore", "inherit", "inherit"],
});
console.log(`package: ${out} (${(statSync(out).size / 1048576).toFixed(2)} MiB)`);
