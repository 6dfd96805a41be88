// Markdown as safe HTML: micromark escapes raw HTML and drops dangerous link protocols by default
// (allowDangerousHtml and allowDangerousProtocol stay off), and the page's CSP allows no inline
// script or foreign image. The renderer is its own chunk, loaded with the first markdown shown;
// until then the text shows as it is.
import { useEffect, useState } from "preact/hooks";
import { onFirstUse } from "../../lazy";

/** The renderer, loaded with the first markdown shown (a failed load is tried again by the next). */
const loadRenderer = onFirstUse(async () => {
  const { micromark } = await import("micromark");
  return (source: string) => micromark(source);
});

export function Markdown({ source }: { source: string }) {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void loadRenderer().then((render) => current && setHtml(render(source)));
    return () => {
      current = false;
    };
  }, [source]);
  if (html === null) return <div class="markdown plain">{source}</div>;
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
