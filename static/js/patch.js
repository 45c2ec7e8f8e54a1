// RFC 6902 JSON Patch, the three operations the server's patch frames use (add, remove,
// replace), each written as an object or in the compact form the pages ask for: an array
// [sign, path, value], "+" add, "-" remove, "=" replace (docs/protocol.md, "Patch frames").
// The view passed in is not changed: containers along each path are copied, the rest is
// shared, so a game module may keep the previous view to compare with the next.

const OPS = { "+": "add", "-": "remove", "=": "replace" };

function unescape(part) {
  return part.replace(/~1/g, "/").replace(/~0/g, "~");
}

function applyOne(doc, parts, op) {
  if (parts.length === 0) {
    if (op.op === "remove") throw new Error("cannot remove the whole document");
    return op.value;
  }
  const [key, ...rest] = parts;
  if (Array.isArray(doc)) {
    const items = doc.slice();
    const index = key === "-" ? items.length : Number(key);
    if (!Number.isInteger(index) || index < 0 || index > items.length) throw new Error(`bad index ${key}`);
    if (rest.length) items[index] = applyOne(items[index], rest, op);
    else if (op.op === "remove") items.splice(index, 1);
    else if (op.op === "add") items.splice(index, 0, op.value);
    else items[index] = op.value;
    return items;
  }
  if (doc !== null && typeof doc === "object") {
    const out = { ...doc };
    if (rest.length) {
      if (!(key in doc)) throw new Error(`no member ${key}`);
      out[key] = applyOne(doc[key], rest, op);
    } else if (op.op === "remove") delete out[key];
    else out[key] = op.value;
    return out;
  }
  throw new Error(`no container at ${op.path}`);
}

export function applyPatch(doc, ops) {
  for (let op of ops) {
    if (Array.isArray(op)) {
      if (!(op[0] in OPS) || typeof op[1] !== "string") throw new Error(`bad operation ${JSON.stringify(op)}`);
      op = { op: OPS[op[0]], path: op[1], value: op[2] };
    }
    const parts = op.path === "" ? [] : op.path.split("/").slice(1).map(unescape);
    doc = applyOne(doc, parts, op);
  }
  return doc;
}
