// Runs a wasm32-wasip1 program (a test executable or the speed comparison)
// under Node's built-in WASI implementation (`node:wasi`, V8's JIT):
//
//   node xtask/wasi-run.mjs [--dir DIR]... PROGRAM.wasm [ARGS...]
//
// Each `--dir DIR` is made visible to the program under its own absolute
// path (the test suites read their known-answer files from
// `$CARGO_MANIFEST_DIR/tests/data/...`, an absolute path compiled in). The
// environment is passed through (libtest reads RUST_TEST_THREADS and the
// like). Exits with the program's exit code. Used by `.ci/targets` and by
// `cargo xtask bench-target --target wasm32-wasip1`.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import process from "node:process";
import { WASI } from "node:wasi";

const argv = process.argv.slice(2);
const preopens = {};
while (argv[0] === "--dir") {
    const dir = resolve(argv[1] ?? ".");
    preopens[dir] = dir;
    argv.splice(0, 2);
}
if (argv.length === 0) {
    console.error("usage: node wasi-run.mjs [--dir DIR]... PROGRAM.wasm [ARGS...]");
    process.exit(2);
}
const wasi = new WASI({ version: "preview1", args: argv, env: process.env, preopens, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(argv[0]));
// Symbols the program leaves undefined (see xtask/wasm-ld) come from the
// "env" module: each is a function that throws if it is ever called.
const imports = wasi.getImportObject();
for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.module === "env" && imp.kind === "function") {
        imports.env ??= {};
        imports.env[imp.name] = () => {
            throw new Error(`${imp.name} was called: it is not available under WASI here`);
        };
    }
}
const instance = await WebAssembly.instantiate(module, imports);
process.exitCode = wasi.start(instance);
