// Builds compressor.js into a WebAssembly component:
//   node build.mjs OUT.wasm
// (needs `npm install` here first: @bytecodealliance/componentize-js).
import { componentize } from '@bytecodealliance/componentize-js';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? join(here, 'json-compact-js.wasm');
const { component } = await componentize({
  sourcePath: join(here, 'compressor.js'),
  witPath: join(here, '../../../wit/v0.1.0'),
  worldName: 'compressor',
  // No fetch, no HTTP: the component must import nothing ghost refuses.
  disableFeatures: ['http', 'fetch-event'],
});
await writeFile(out, component);
console.log(`wrote ${out} (${component.length} bytes)`);
