// After a per-product filter, drop the tags (and x-tagGroups entries) that no remaining operation
// uses, so a product's bundle and docs show only that product's sections.
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

export default function removeUnusedTags() {
  return {
    Root: {
      leave(root) {
        const used = new Set();
        for (const item of Object.values(root.paths ?? {})) {
          for (const method of METHODS) for (const tag of item?.[method]?.tags ?? []) used.add(tag);
        }
        if (Array.isArray(root.tags)) root.tags = root.tags.filter((tag) => used.has(tag.name));
        if (Array.isArray(root["x-tagGroups"])) {
          root["x-tagGroups"] = root["x-tagGroups"]
            .map((group) => ({ ...group, tags: group.tags.filter((tag) => used.has(tag)) }))
            .filter((group) => group.tags.length > 0);
        }
      },
    },
  };
}
