// Page lists: `next` and `previous` keep every parameter of the request but the page: its filters,
// ordering and limit (a link that drops one leads to another list).

import { linkQuery } from "../facts/pages.js";
import { pageLists } from "./lists.js";
import { rule } from "./types.js";

export const pageLinksKeepFilters = rule({
  ...pageLists,
  id: "pagination.page.links-keep-filters",
  severity: "must",
  refuses: false,
  perOperation: false,
  judges: "every page's next and previous: the request's filters, ordering and limit kept",
  on: "pagePage",
  title: () => "next and previous keep the filters, ordering and limit of the request",
  judge: ({ query, next, previous, list }) => {
    const asked = [...query].filter(([name]) => name !== list.pagination.pageParam);
    const links = [
      [list.pagination.nextField, next],
      [list.pagination.previousField, previous],
    ] as const;
    if (asked.length === 0 || links.every(([, link]) => link === null)) return undefined;
    const problems: string[] = [];
    for (const [field, link] of links) {
      if (link === null) continue;
      const kept = new URLSearchParams(linkQuery(link));
      for (const [name, value] of asked)
        if (!kept.getAll(name).includes(value))
          problems.push(`${field} "${link}" does not keep ${name}=${value}`);
    }
    return problems.length > 0 ? problems.join("\n") : null;
  },
});
