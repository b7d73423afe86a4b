// A highlighted code block as the landing page and the guides show it: highlighted at build time
// (no script at run time), with a caption the copy button sits in.
import hljs from "highlight.js/lib/common";
import { escapeHtml } from "./layout.js";

const LANGUAGES: Record<string, string> = { sh: "bash", shell: "bash", ts: "typescript" };
const LABELS: Record<string, string> = { bash: "Shell", typescript: "TypeScript" };

export function codeFigure(text: string, lang: string, label?: string): string {
  const language = LANGUAGES[lang] ?? lang;
  const html = hljs.getLanguage(language) ? hljs.highlight(text, { language }).value : escapeHtml(text);
  const caption = label ?? LABELS[language] ?? lang.toUpperCase();
  return `<figure class="code"><figcaption>${escapeHtml(caption)}</figcaption><pre><code class="hljs language-${escapeHtml(language)}">${html}</code></pre></figure>\n`;
}
