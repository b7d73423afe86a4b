// x-unspecified is read by the docs and the conformance suite, so its shape is fixed: a non-empty
// list of sentences, each saying what the platform's documentation does not show.
function check(node, ctx) {
  if (!node || typeof node !== "object" || !("x-unspecified" in node)) return;
  const value = node["x-unspecified"];
  const ok =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((s) => typeof s === "string" && s.trim().length > 0 && /[.]$/.test(s.trim()));
  if (!ok) {
    ctx.report({
      message: "x-unspecified must be a non-empty list of sentences ending with a full stop.",
      location: ctx.location.child("x-unspecified"),
    });
  }
}

export default function unspecifiedShape() {
  return { any: { enter: check } };
}
