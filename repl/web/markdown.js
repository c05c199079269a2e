// The lessons' Markdown as HTML: headings, paragraphs, lists, fenced code, `code`,
// **bold** and *emphasis*, which is all lesson.md and hints.md use. Text is escaped
// first, so nothing in a lesson becomes markup it did not ask for.
"use strict";

function escapeHtml(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function inlineMarkdown(text) {
  return escapeHtml(text).split(/(`[^`]*`)/).map((part) => {
    if (part.startsWith("`") && part.endsWith("`") && part.length > 1)
      return "<code>" + part.slice(1, -1) + "</code>";
    return part.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
               .replace(/(^|[^*\w])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>")
               .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1");
  }).join("");
}

function markdownToHtml(md) {
  const out = [];
  const lines = md.replace(/\r\n/g, "\n").split("\n");
  let para = [], list = null;
  const endPara = () => {
    if (para.length) out.push("<p>" + inlineMarkdown(para.join(" ")) + "</p>");
    para = [];
  };
  const endList = () => {
    if (list) out.push("<ul>" + list.map((i) => "<li>" + inlineMarkdown(i) + "</li>").join("") + "</ul>");
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m;
    if (line.startsWith("```")) {
      endPara(); endList();
      const code = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) code.push(lines[i]);
      out.push("<pre><code>" + escapeHtml(code.join("\n")) + "</code></pre>");
    } else if ((m = /^(#{1,4})\s+(.*)$/.exec(line))) {
      endPara(); endList();
      const level = Math.min(m[1].length + 1, 5);
      out.push(`<h${level}>${inlineMarkdown(m[2])}</h${level}>`);
    } else if ((m = /^\s*[-*]\s+(.*)$/.exec(line))) {
      endPara();
      (list = list || []).push(m[1]);
    } else if (list && /^\s+\S/.test(line)) {
      list[list.length - 1] += " " + line.trim();
    } else if (line.trim() === "") {
      endPara(); endList();
    } else {
      endList();
      para.push(line.trim());
    }
  }
  endPara(); endList();
  return out.join("\n");
}
