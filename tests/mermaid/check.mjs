// Parses Mermaid diagrams with Mermaid's own parser, as GitHub and GitLab
// would before drawing them. Usage:
//
//   node check.mjs FILE...     (a .md file: each ```mermaid block; else the whole file)
//   node check.mjs -           (one diagram on standard input)
//
// Besides the grammar (which also rejects a `linkStyle` past the last link),
// it checks that every class a node uses is defined by a `classDef`.
// Exits 1 when any diagram fails.
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

// Mermaid's sanitizer (DOMPurify) needs a window, even just to parse.
const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });

function diagramsOf(name, text) {
  if (!name.endsWith('.md')) return [{ where: name, text }];
  const out = [];
  const re = /^```mermaid\n([\s\S]*?)^```/gm;
  let m;
  while ((m = re.exec(text)) !== null) {
    const line = text.slice(0, m.index).split('\n').length;
    out.push({ where: `${name}:${line}`, text: m[1] });
  }
  return out;
}

async function check(text) {
  const parsed = await mermaid.parse(text);
  if (!parsed || !String(parsed.diagramType).startsWith('flowchart')) {
    throw new Error(`not a flowchart: ${parsed && parsed.diagramType}`);
  }
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
  const db = diagram.db;
  const defined = db.getClasses();
  const vertices = db.getVertices();
  for (const [id, v] of vertices) {
    for (const c of v.classes || []) {
      if (c !== 'default' && !defined.has(c)) {
        throw new Error(`node ${id} uses class ${c}, which no classDef defines`);
      }
    }
  }
  return { nodes: vertices.size, edges: db.getEdges().length };
}

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: node check.mjs FILE... | -');
  process.exit(2);
}
let ok = 0;
let failed = 0;
for (const arg of args) {
  const text = arg === '-' ? readFileSync(0, 'utf8') : readFileSync(arg, 'utf8');
  const diagrams = diagramsOf(arg === '-' ? 'stdin' : arg, text);
  if (diagrams.length === 0) {
    console.log(`FAIL ${arg}: no mermaid diagram in it`);
    failed++;
  }
  for (const d of diagrams) {
    try {
      const r = await check(d.text);
      console.log(`ok   ${d.where}: ${r.nodes} nodes, ${r.edges} links`);
      ok++;
    } catch (e) {
      console.log(`FAIL ${d.where}: ${String(e.message || e).split('\n').slice(0, 4).join(' | ')}`);
      failed++;
    }
  }
}
console.log(`mermaid check: ${ok} diagrams parse, ${failed} do not`);
process.exit(failed > 0 ? 1 : 0);
