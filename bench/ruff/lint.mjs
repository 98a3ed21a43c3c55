// Ruff compiled to WebAssembly (@astral-sh/ruff-wasm-nodejs), linting a corpus on one thread: the
// comparison row of bench/run.sh. Loads the module (timed on its own), reads every Python file into
// memory (the same walk as bench/bare_parse.c and devlint's default walk: .py and .pyi files,
// hidden entries and venv, node_modules, __pycache__, build, dist, site-packages skipped; a file
// named explicitly is read whatever its extension), then times only the Workspace.check calls.
//
//   node bench/ruff/lint.mjs [--rules default|playground] [--passes N] PATH...
//
//   --rules default     ruff's own default selection, the rules `ruff check` runs with no
//                       configuration: E4, E7, E9, F (the default)
//   --rules playground  the module's Workspace.defaultSettings(): the Ruff playground's much wider
//                       selection (about 400 rules, bugbear, isort, pyupgrade...)
//   --passes N          lint the whole corpus N times (default 5, at least 2) and report the
//                       fastest pass: the warmed figure. The first pass runs while V8 is still
//                       compiling the module's hot functions with its optimizing tier, on
//                       background threads: on the generated 1M-line corpus it took 5.0-6.8 s
//                       where the later ones took 2.0-2.5 s.
//
// Prints one JSON line:
//   {"files":N,"lines":N,"bytes":N,"load_s":S,"read_s":S,"lint_s":S,"first_pass_s":S,
//    "passes":N,"diagnostics":N,"errors":N,"rules":"default","ruff":"0.x.y"}
// lint_s is the fastest pass, first_pass_s the first; diagnostics and errors are one pass's.
// "errors" counts files the module threw on (they are still counted in files). Exit status 0, or 2
// on a usage error or a path that cannot be read.
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createRequire } from "node:module";

const SKIP_DIRS = new Set(["venv", "node_modules", "__pycache__", "build", "dist", "site-packages"]);
const RUFF_DEFAULT_SELECT = ["E4", "E7", "E9", "F"];

function usage(message) {
  process.stderr.write(`lint.mjs: ${message}\nusage: node lint.mjs [--rules default|playground] [--passes N] PATH...\n`);
  process.exit(2);
}

let rules = "default";
let passes = 5;
const roots = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--rules") {
    rules = argv[++i];
    if (rules !== "default" && rules !== "playground") usage(`unknown --rules value: ${rules}`);
  } else if (argv[i] === "--passes") {
    passes = Number(argv[++i]);
    if (!Number.isInteger(passes) || passes < 2) usage(`--passes takes a whole number of at least 2`);
  } else if (argv[i] === "-h" || argv[i] === "--help") {
    usage("help");
  } else {
    roots.push(argv[i]);
  }
}
if (roots.length === 0) usage("no paths");

// Load: resolving and instantiating the WebAssembly module (ruff_wasm.js compiles the .wasm
// synchronously on require), building a Workspace with the chosen settings, and one check of a
// one-line file: the first call initializes ruff's rule tables (about half a second), a one-time
// cost that belongs with loading, not with the corpus.
const loadStart = performance.now();
const require = createRequire(import.meta.url);
const ruff = require("@astral-sh/ruff-wasm-nodejs");
const settings = rules === "default" ? { lint: { select: RUFF_DEFAULT_SELECT } } : ruff.Workspace.defaultSettings();
const workspace = new ruff.Workspace(settings, ruff.PositionEncoding.Utf16);
workspace.check("import os\n");
const loadSeconds = (performance.now() - loadStart) / 1000;

// The walk; symlinks are followed, each directory visited once (by device and inode).
const isPython = (name) => !name.startsWith(".") && (name.endsWith(".py") || name.endsWith(".pyi"));
const seenDirs = new Set();
const files = [];
function walk(dir) {
  const st = fs.statSync(dir);
  const key = `${st.dev}:${st.ino}`;
  if (seenDirs.has(key)) return;
  seenDirs.add(key);
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    process.stderr.write(`lint.mjs: ${dir}: ${e.message}\n`);
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    let isDir = entry.isDirectory(), isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      try {
        const target = fs.statSync(full);
        isDir = target.isDirectory();
        isFile = target.isFile();
      } catch {
        continue; // dangling link
      }
    }
    if (isDir && !entry.name.startsWith(".") && !SKIP_DIRS.has(entry.name)) walk(full);
    else if (isFile && isPython(entry.name)) files.push(full);
  }
}
for (const root of roots) {
  let st;
  try {
    st = fs.statSync(root);
  } catch (e) {
    usage(`${root}: ${e.message}`);
  }
  if (st.isDirectory()) walk(root);
  else files.push(root);
}

// Read everything first, so the timed part is the lint calls alone. The lint time still includes
// V8 compiling the WebAssembly functions each new code path reaches for the first time: on a small
// corpus that dominates.
const readStart = performance.now();
const texts = [];
let bytes = 0, lines = 0;
for (const file of files) {
  const buf = fs.readFileSync(file);
  bytes += buf.length;
  let n = 0;
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) n++;
  if (buf.length > 0 && buf[buf.length - 1] !== 10) n++;
  lines += n;
  texts.push(buf.toString("utf8"));
}
const readSeconds = (performance.now() - readStart) / 1000;

// Each pass lints every file once; the passes after the first measure the warmed module.
let diagnostics = 0, errors = 0, lintSeconds = Infinity, firstPassSeconds = 0;
for (let pass = 0; pass < passes; pass++) {
  diagnostics = 0;
  errors = 0;
  const lintStart = performance.now();
  for (const text of texts) {
    try {
      diagnostics += workspace.check(text).length;
    } catch {
      errors++;
    }
  }
  const seconds = (performance.now() - lintStart) / 1000;
  if (pass === 0) firstPassSeconds = seconds;
  lintSeconds = Math.min(lintSeconds, seconds);
}

process.stdout.write(
  JSON.stringify({
    files: files.length,
    lines,
    bytes,
    load_s: Number(loadSeconds.toFixed(6)),
    read_s: Number(readSeconds.toFixed(6)),
    lint_s: Number(lintSeconds.toFixed(6)),
    first_pass_s: Number(firstPassSeconds.toFixed(6)),
    passes,
    diagnostics,
    errors,
    rules,
    ruff: ruff.Workspace.version(),
  }) + "\n",
);
