/**
 * Builds and runs each language's round-trip program over quicktype's types: every case is parsed
 * into its type and serialised again, and the program prints what came out. Python runs the module
 * directly; Go builds with the Debian toolchain; Rust builds with `cargo build --offline` against
 * Debian's packaged crates (a source replacement in the build's own CARGO_HOME).
 * @module
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One value to round-trip: the document, quicktype's input name of its type, the JSON value. */
export interface Case {
  readonly doc: 'public' | 'admin';
  readonly type: string;
  readonly value: unknown;
}

/** What a program made of one case: the re-serialised value, or why it failed. */
export type Outcome = { readonly value: unknown } | { readonly error: string };

/** Debian's packaged crates (librust-serde-dev, librust-serde-json-dev, librust-serde-derive-dev). */
export const DEBIAN_CRATES = '/usr/share/cargo/registry';

const squash = (name: string): string => name.replaceAll('_', '').toLowerCase();

/** Maps each input name to the generated one (quicktype re-cases names: `GetChainIdResult` → `GetChainIDResult`). */
function byInputName(inputs: readonly string[], generated: readonly string[], lang: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of inputs) {
    const found = generated.find((g) => squash(g) === squash(name));
    if (found === undefined) throw new Error(`${lang}: no generated top-level type for ${name}`);
    out.set(name, found);
  }
  return out;
}

const maxBuffer = 256 * 1024 * 1024;

/** Python: `<snake>_from_dict` / `<snake>_to_dict` per top-level type. */
export async function runPython(
  dir: string,
  sources: Record<string, string>,
  types: Record<string, string[]>,
  cases: readonly Case[],
): Promise<Outcome[]> {
  await mkdir(dir, { recursive: true });
  const tables: string[] = [];
  for (const [doc, source] of Object.entries(sources)) {
    await writeFile(join(dir, `sdk_${doc}.py`), source);
    const fns = [...source.matchAll(/^def (\w+)_from_dict\(/gm)].map((m) => m[1]);
    const names = byInputName(types[doc], fns, 'python');
    tables.push(
      `    '${doc}': {${[...names].map(([input, fn]) => `'${input}': (sdk_${doc}.${fn}_from_dict, sdk_${doc}.${fn}_to_dict)`).join(', ')}},`,
    );
  }
  await writeFile(
    join(dir, 'roundtrip.py'),
    `import json, sys
${Object.keys(sources)
  .map((d) => `import sdk_${d}`)
  .join('\n')}
TYPES = {
${tables.join('\n')}
}
out = []
for case in json.load(open(sys.argv[1])):
    parse, dump = TYPES[case['doc']][case['type']]
    try:
        out.append({'value': dump(parse(case['value']))})
    except Exception as e:
        out.append({'error': repr(e)})
json.dump(out, open(sys.argv[2], 'w'))
`,
  );
  return execute(dir, 'python3', ['roundtrip.py'], cases);
}

/** Go: `Unmarshal<Name>` and `(*Name).Marshal` per top-level type, one package per document. */
export async function runGo(
  dir: string,
  sources: Record<string, string>,
  types: Record<string, string[]>,
  cases: readonly Case[],
): Promise<Outcome[]> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'go.mod'), 'module sdkroundtrip\n\ngo 1.19\n');
  const arms: string[] = [];
  for (const [doc, source] of Object.entries(sources)) {
    await mkdir(join(dir, doc), { recursive: true });
    await writeFile(join(dir, doc, 'types.go'), source);
    const fns = [...source.matchAll(/^func Unmarshal(\w+)\(/gm)].map((m) => m[1]);
    for (const [input, name] of byInputName(types[doc], fns, 'go')) {
      arms.push(
        `\tcase "${doc}/${input}":\n\t\tv, err := ${doc}.Unmarshal${name}(raw)\n\t\tif err != nil {\n\t\t\treturn nil, err\n\t\t}\n\t\treturn v.Marshal()`,
      );
    }
  }
  await writeFile(
    join(dir, 'main.go'),
    `package main

import (
\t"encoding/json"
\t"fmt"
\t"os"
${Object.keys(sources)
  .map((d) => `\t"sdkroundtrip/${d}"`)
  .join('\n')}
)

type input struct {
\tDoc   string          \`json:"doc"\`
\tType  string          \`json:"type"\`
\tValue json.RawMessage \`json:"value"\`
}

func roundTrip(key string, raw []byte) ([]byte, error) {
\tswitch key {
${arms.join('\n')}
\t}
\treturn nil, fmt.Errorf("no type %s", key)
}

func main() {
\tdata, err := os.ReadFile(os.Args[1])
\tif err != nil {
\t\tpanic(err)
\t}
\tvar cases []input
\tif err := json.Unmarshal(data, &cases); err != nil {
\t\tpanic(err)
\t}
\tout := make([]map[string]interface{}, 0, len(cases))
\tfor _, c := range cases {
\t\tbytes, err := roundTrip(c.Doc+"/"+c.Type, c.Value)
\t\tif err != nil {
\t\t\tout = append(out, map[string]interface{}{"error": err.Error()})
\t\t} else {
\t\t\tout = append(out, map[string]interface{}{"value": json.RawMessage(bytes)})
\t\t}
\t}
\tresult, err := json.Marshal(out)
\tif err != nil {
\t\tpanic(err)
\t}
\tif err := os.WriteFile(os.Args[2], result, 0o644); err != nil {
\t\tpanic(err)
\t}
}
`,
  );
  const env = {
    ...process.env,
    GOCACHE: join(dir, '.gocache'),
    GOPATH: join(dir, '.gopath'),
    GOFLAGS: '-mod=mod',
    GOPROXY: 'off',
    GOTOOLCHAIN: 'local',
  };
  await run('go', ['build', '-o', 'roundtrip', '.'], { cwd: dir, env, maxBuffer });
  return execute(dir, join(dir, 'roundtrip'), [], cases);
}

/** Rust: serde types, one module per document; `cargo build --offline` against Debian's crates. */
export async function runRust(
  dir: string,
  sources: Record<string, string>,
  types: Record<string, string[]>,
  cases: readonly Case[],
): Promise<Outcome[]> {
  await mkdir(join(dir, 'src'), { recursive: true });
  await mkdir(join(dir, 'cargo-home'), { recursive: true });
  await writeFile(
    join(dir, 'Cargo.toml'),
    `[package]
name = "sdk-roundtrip"
version = "0.1.0"
edition = "2018"

[dependencies]
serde = { version = "1", features = ["derive"] }
serde_json = "1"
`,
  );
  // Crates come from Debian's packages, never from the network.
  await writeFile(
    join(dir, 'cargo-home', 'config.toml'),
    `[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "${DEBIAN_CRATES}"

[net]
offline = true
`,
  );
  const arms: string[] = [];
  for (const [doc, source] of Object.entries(sources)) {
    await writeFile(join(dir, 'src', `${doc}.rs`), `#![allow(dead_code, unused_imports)]\n${source}`);
    const names = [...source.matchAll(/^pub (?:struct|enum|type) (\w+)/gm)].map((m) => m[1]);
    for (const [input, name] of byInputName(types[doc], names, 'rust')) {
      arms.push(
        `        "${doc}/${input}" => serde_json::from_value::<${doc}::${name}>(value).map_err(|e| e.to_string()).and_then(|v| serde_json::to_value(&v).map_err(|e| e.to_string())),`,
      );
    }
  }
  await writeFile(
    join(dir, 'src', 'main.rs'),
    `${Object.keys(sources)
      .map((d) => `mod ${d};`)
      .join('\n')}

fn round_trip(key: &str, value: serde_json::Value) -> Result<serde_json::Value, String> {
    match key {
${arms.join('\n')}
        _ => Err(format!("no type {}", key)),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("cases");
    let cases: Vec<serde_json::Value> = serde_json::from_str(&text).expect("cases are JSON");
    let mut out = Vec::new();
    for case in cases {
        let key = format!("{}/{}", case["doc"].as_str().unwrap(), case["type"].as_str().unwrap());
        out.push(match round_trip(&key, case["value"].clone()) {
            Ok(v) => serde_json::json!({ "value": v }),
            Err(e) => serde_json::json!({ "error": e }),
        });
    }
    std::fs::write(&args[2], serde_json::to_string(&out).unwrap()).expect("write");
}
`,
  );
  const env = { ...process.env, CARGO_HOME: join(dir, 'cargo-home'), CARGO_TARGET_DIR: join(dir, 'target') };
  await run('cargo', ['build', '--offline', '--quiet'], { cwd: dir, env, maxBuffer });
  return execute(dir, join(dir, 'target', 'debug', 'sdk-roundtrip'), [], cases);
}

async function execute(
  dir: string,
  command: string,
  args: readonly string[],
  cases: readonly Case[],
): Promise<Outcome[]> {
  const input = join(dir, 'cases.json');
  const output = join(dir, 'outcomes.json');
  await writeFile(input, JSON.stringify(cases));
  await run(command, [...args, input, output], { cwd: dir, maxBuffer });
  return JSON.parse(await readFile(output, 'utf8')) as Outcome[];
}
