// Tokenise every shipped rule file with editors/vscode's TextMate grammar, the way VS Code
// does (vscode-textmate on the Oniguruma regex engine), and check two things: every sign
// that is not blank gets a scope of its own (nothing left as bare `source.rulelang`), and
// a few lines are coloured as they should be. Run: npm install && node check.mjs
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import vsctm from "vscode-textmate";
import oniguruma from "vscode-oniguruma";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const require = createRequire(import.meta.url);
const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
await oniguruma.loadWASM(wasm);

const registry = new vsctm.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
    createOnigString: (s) => new oniguruma.OnigString(s),
  }),
  loadGrammar: async () => {
    const file = path.join(root, "editors/vscode/syntaxes/rulelang.tmLanguage.json");
    return vsctm.parseRawGrammar(fs.readFileSync(file, "utf8"), file);
  },
});
const grammar = await registry.loadGrammar("source.rulelang");

function tokenise(text) {
  let stack = vsctm.INITIAL;
  const out = [];
  for (const line of text.split("\n")) {
    const r = grammar.tokenizeLine(line, stack);
    for (const t of r.tokens) {
      out.push({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes });
    }
    stack = r.ruleStack;
  }
  return out;
}

const files = ["rulesets", "rulesets/examples", "stdlib"].flatMap((d) =>
  fs.readdirSync(path.join(root, d)).filter((f) => f.endsWith(".rules")).map((f) => path.join(d, f)),
);
let problems = 0;
let tokens = 0;
for (const f of files) {
  for (const t of tokenise(fs.readFileSync(path.join(root, f), "utf8"))) {
    tokens += 1;
    if (t.text.trim() && t.scopes.length < 2) {
      console.log(`${f}: no scope for ${JSON.stringify(t.text)}`);
      problems += 1;
    }
  }
}

// a line of each kind, with the innermost scope expected for each of its words
const samples = [
  ['say "{p} has {count(c for c in hand[p])} cards" # told', [
    ["say", "keyword.other.rulelang"], ['"', "punctuation.definition.string.begin.rulelang"],
    ["{", "punctuation.section.interpolation.begin.rulelang"], ["p", "variable.other.rulelang"],
    [" has ", "string.quoted.double.rulelang"], ["count", "support.function.builtin.rulelang"],
    ["for", "keyword.control.rulelang"], ["in", "keyword.operator.word.rulelang"],
    [" cards", "string.quoted.double.rulelang"], ["# told", "comment.line.number-sign.rulelang"],
  ]],
  ["set c.path = -3 + len(players)", [
    ["set", "keyword.other.rulelang"], ["path", "variable.other.property.rulelang"],
    ["3", "constant.numeric.integer.rulelang"], ["players", "variable.other.rulelang"],
  ]],
  ["def fits(c: playcard, n: node(maze)) = true", [
    ["fits", "entity.name.function.rulelang"], ["node", "storage.type.rulelang"],
    ["true", "constant.language.rulelang"],
  ]],
  ['log "{f("a")} and {{braces}}"', [
    ["a", "string.quoted.double.rulelang"], ["{{", "constant.character.escape.rulelang"],
    [" and ", "string.quoted.double.rulelang"],
  ]],
];
for (const [line, expected] of samples) {
  const got = tokenise(line);
  for (const [word, scope] of expected) {
    const t = got.find((t) => t.text === word && t.scopes.at(-1) === scope);
    if (!t) {
      const seen = got.filter((t) => t.text === word).map((t) => t.scopes.at(-1));
      console.log(`${JSON.stringify(line)}: ${JSON.stringify(word)} is ${seen.join(", ") || "absent"}, not ${scope}`);
      problems += 1;
    }
  }
}
console.log(`${files.length} files, ${tokens} tokens, ${samples.length} sample lines: ${problems} problems`);
process.exit(problems ? 1 : 0);
