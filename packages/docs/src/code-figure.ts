// A highlighted code block as the landing page and the guides show it: highlighted at build time
// (no script at run time), with a caption the copy button sits in. The block takes focus: it scrolls
// sideways in its own box, which a keyboard can do only to what it can focus (WCAG 2.1.1).
import hljs from "highlight.js/lib/common";
import { escapeHtml } from "./layout.js";

const LANGUAGES: Record<string, string> = { sh: "bash", shell: "bash", ts: "typescript" };
const LABELS: Record<string, string> = { bash: "Shell", typescript: "TypeScript" };

export function codeFigure(text: string, lang: string, label?: string): string {
  const language = LANGUAGES[lang] ?? lang;
  const html = hljs.getLanguage(language) ? hljs.highlight(text, { language }).value : escapeHtml(text);
  const caption = label ?? LABELS[language] ?? lang.toUpperCase();
  return `<figure class="code"><figcaption>${escapeHtml(caption)}</figcaption><pre tabindex="0"><code class="hljs language-${escapeHtml(language)}">${html}</code></pre></figure>\n`;
}
