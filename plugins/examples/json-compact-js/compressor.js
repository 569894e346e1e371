// json-compact-js: a ghost compressor written in JavaScript, proof that the
// WIT contract (ghost:plugin@0.1.0, world `compressor`) is language-neutral.
//
// For structured text that is JSON, it keeps the shape and cuts the bulk:
// arrays longer than 3 keep their first 3 items and say how many more there
// were; strings longer than 80 characters are cut. Anything that is not
// JSON is declined (`unsupported`), so ghost hands it to the next compressor.

import { log } from 'ghost:plugin/log@0.1.0';

const KEEP_ITEMS = 3;
const MAX_STRING = 80;

function shrink(value, stats) {
  if (Array.isArray(value)) {
    const kept = value.slice(0, KEEP_ITEMS).map((v) => shrink(v, stats));
    if (value.length > KEEP_ITEMS) {
      stats.items += value.length - KEEP_ITEMS;
      kept.push(`… ${value.length - KEEP_ITEMS} more items`);
    }
    return kept;
  }
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = shrink(v, stats);
    return out;
  }
  if (typeof value === 'string' && value.length > MAX_STRING) {
    stats.strings += 1;
    return `${value.slice(0, MAX_STRING)}…`;
  }
  return value;
}

function unsupported(why) {
  // componentize-js turns a thrown value's `payload` into the `err` case.
  const e = new Error(why);
  e.payload = { tag: 'unsupported', val: why };
  return e;
}

export const compress = {
  compress(request) {
    let value;
    try {
      value = JSON.parse(request.text);
    } catch {
      throw unsupported('not JSON');
    }
    const stats = { items: 0, strings: 0 };
    const text = JSON.stringify(shrink(value, stats), null, 1);
    const note = `${stats.items} array items and ${stats.strings} long strings cut`;
    log('debug', note);
    return { text, notes: [note] };
  },
};
