// SVG logo sanitiser: parses the upload as XML (htmlparser2, no DOM needed on Workers),
// keeps only allow-listed SVG elements and attributes, and re-serialises. Anything that
// can run script or fetch something (scripts, event handlers, javascript:/data: URLs other
// than inline raster images, external href/xlink:href, foreignObject, iframe/embed/object,
// animation that could rewrite attributes, CSS @import/url(http…)) is removed. The result
// is parsed again and checked; an SVG that is empty or still unsafe is rejected.
import { DomUtils, ElementType, parseDocument } from "htmlparser2";

type DomNode = ReturnType<typeof parseDocument>["children"][number];
type DomElement = Extract<DomNode, { attribs: Record<string, string> }>;
type DomText = Extract<DomNode, { type: typeof ElementType.Text }>;
type DomCData = Extract<DomNode, { type: typeof ElementType.CDATA }>;

const isElement = (node: DomNode): node is DomElement => ElementType.isTag(node as DomElement);
const isText = (node: DomNode): node is DomText => node.type === ElementType.Text;
const isCData = (node: DomNode): node is DomCData => node.type === ElementType.CDATA;

/** Elements kept (with their allowed attributes); everything else is removed with its subtree. */
const ALLOWED_ELEMENTS = new Set([
  "svg",
  "g",
  "defs",
  "title",
  "desc",
  "symbol",
  "use",
  "switch",
  "view",
  "style",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "text",
  "tspan",
  "textPath",
  "linearGradient",
  "radialGradient",
  "stop",
  "pattern",
  "clipPath",
  "mask",
  "marker",
  "image",
  "filter",
  "feBlend",
  "feColorMatrix",
  "feComponentTransfer",
  "feComposite",
  "feConvolveMatrix",
  "feDiffuseLighting",
  "feDisplacementMap",
  "feDistantLight",
  "feDropShadow",
  "feFlood",
  "feFuncA",
  "feFuncB",
  "feFuncG",
  "feFuncR",
  "feGaussianBlur",
  "feMerge",
  "feMergeNode",
  "feMorphology",
  "feOffset",
  "fePointLight",
  "feSpecularLighting",
  "feSpotLight",
  "feTile",
  "feTurbulence",
]);

/** Elements that draw something: an SVG without any of them is empty. */
const DRAWING_ELEMENTS = new Set(["path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text", "tspan", "textPath", "use", "image"]);

const ALLOWED_ATTRIBUTES = new Set([
  // structure and identity
  "id",
  "class",
  "style",
  "lang",
  "xml:space",
  "xml:lang",
  "tabindex",
  "role",
  "aria-label",
  "aria-hidden",
  "focusable",
  "xmlns",
  "xmlns:xlink",
  "xmlns:svg",
  "version",
  "baseProfile",
  "viewBox",
  "preserveAspectRatio",
  "width",
  "height",
  "x",
  "y",
  "x1",
  "y1",
  "x2",
  "y2",
  "cx",
  "cy",
  "r",
  "rx",
  "ry",
  "fx",
  "fy",
  "fr",
  "d",
  "points",
  "pathLength",
  "transform",
  "href",
  "xlink:href",
  "xlink:title",
  // text
  "dx",
  "dy",
  "rotate",
  "textLength",
  "lengthAdjust",
  "text-anchor",
  "dominant-baseline",
  "alignment-baseline",
  "baseline-shift",
  "font-family",
  "font-size",
  "font-size-adjust",
  "font-stretch",
  "font-style",
  "font-variant",
  "font-weight",
  "letter-spacing",
  "word-spacing",
  "text-decoration",
  "writing-mode",
  "direction",
  "unicode-bidi",
  "startOffset",
  "method",
  "spacing",
  "side",
  // painting
  "fill",
  "fill-opacity",
  "fill-rule",
  "stroke",
  "stroke-width",
  "stroke-opacity",
  "stroke-linecap",
  "stroke-linejoin",
  "stroke-miterlimit",
  "stroke-dasharray",
  "stroke-dashoffset",
  "opacity",
  "color",
  "display",
  "visibility",
  "overflow",
  "clip",
  "clip-path",
  "clip-rule",
  "clipPathUnits",
  "mask",
  "maskUnits",
  "maskContentUnits",
  "marker-start",
  "marker-mid",
  "marker-end",
  "markerWidth",
  "markerHeight",
  "markerUnits",
  "refX",
  "refY",
  "orient",
  "paint-order",
  "vector-effect",
  "shape-rendering",
  "text-rendering",
  "image-rendering",
  "color-interpolation",
  "color-interpolation-filters",
  "color-rendering",
  "mix-blend-mode",
  "isolation",
  // gradients and patterns
  "offset",
  "stop-color",
  "stop-opacity",
  "gradientUnits",
  "gradientTransform",
  "spreadMethod",
  "patternUnits",
  "patternContentUnits",
  "patternTransform",
  // filters
  "filter",
  "filterUnits",
  "primitiveUnits",
  "in",
  "in2",
  "result",
  "mode",
  "type",
  "values",
  "operator",
  "k1",
  "k2",
  "k3",
  "k4",
  "order",
  "kernelMatrix",
  "divisor",
  "bias",
  "targetX",
  "targetY",
  "edgeMode",
  "preserveAlpha",
  "surfaceScale",
  "diffuseConstant",
  "specularConstant",
  "specularExponent",
  "kernelUnitLength",
  "scale",
  "xChannelSelector",
  "yChannelSelector",
  "stdDeviation",
  "flood-color",
  "flood-opacity",
  "lighting-color",
  "radius",
  "tableValues",
  "slope",
  "intercept",
  "amplitude",
  "exponent",
  "azimuth",
  "elevation",
  "z",
  "pointsAtX",
  "pointsAtY",
  "pointsAtZ",
  "limitingConeAngle",
  "baseFrequency",
  "numOctaves",
  "seed",
  "stitchTiles",
  // conditional processing (switch)
  "requiredFeatures",
  "requiredExtensions",
  "systemLanguage",
]);

const HREF_ATTRIBUTES = new Set(["href", "xlink:href"]);
/** Inline raster images are the only data: URLs kept (on <image> only). */
const SAFE_DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]*$/i;

export class SvgRejected extends Error {}

/** Lower-cased with whitespace and control characters removed: how a browser reads a URL scheme. */
const normalised = (value: string) => value.replace(/[\u0000-\u0020\u007f-\u009f]+/g, "").toLowerCase();

/** Whether a url(…) target is an in-document fragment such as url(#grad). */
function isFragmentUrl(raw: string) {
  const target = raw
    .trim()
    .replace(/^['"]|['"]$/g, "")
    .trim();
  return target.startsWith("#");
}

/**
 * CSS (style attributes and <style> text): @import, escapes, expression(), behaviors and
 * url() references other than #fragments are not allowed. Returns the cleaned CSS or null to drop it.
 */
export function sanitizeCss(css: string): string | null {
  // Escapes and comments can hide a scheme or a url( token: refuse the whole block.
  if (/[\\]|\/\*/.test(css)) return null;
  const flat = normalised(css);
  if (
    flat.includes("javascript:") ||
    flat.includes("vbscript:") ||
    flat.includes("expression(") ||
    flat.includes("behavior:") ||
    flat.includes("-moz-binding")
  ) {
    return null;
  }
  let cleaned = css.replace(/@import[^;]*;?/gi, "");
  if (/@import/i.test(cleaned)) return null;
  cleaned = cleaned.replace(/url\s*\(([^)]*)\)/gi, (whole, target: string) => (isFragmentUrl(target) ? whole : "none"));
  if (/url\s*\(/i.test(cleaned.replace(/url\s*\(\s*['"]?#[^)]*\)/gi, ""))) return null;
  return cleaned;
}

/** Namespace declarations may only bind the SVG and XLink namespaces (a different default namespace would turn the file into XHTML). */
const NAMESPACES: Record<string, string> = {
  xmlns: "http://www.w3.org/2000/svg",
  "xmlns:svg": "http://www.w3.org/2000/svg",
  "xmlns:xlink": "http://www.w3.org/1999/xlink",
};

function attributeAllowed(element: string, name: string, value: string): string | null {
  if (name.toLowerCase().startsWith("on")) return null;
  if (!ALLOWED_ATTRIBUTES.has(name)) return null;
  if (name in NAMESPACES) return value.trim() === NAMESPACES[name] ? value : null;
  const flat = normalised(value);
  if (HREF_ATTRIBUTES.has(name)) {
    if (value.trim().startsWith("#")) return value;
    if (element === "image" && SAFE_DATA_IMAGE.test(value.trim())) return value;
    return null;
  }
  if (flat.includes("javascript:") || flat.includes("vbscript:") || flat.includes("data:")) return null;
  if (name === "style") return sanitizeCss(value);
  if (/url\s*\(/i.test(value)) {
    const outside = value.replace(/url\s*\(\s*['"]?#[^)]*\)/gi, "");
    if (/url\s*\(/i.test(outside)) return null;
  }
  return value;
}

function sanitizeElement(el: DomElement) {
  for (const [name, value] of Object.entries(el.attribs)) {
    const kept = attributeAllowed(el.name, name, value);
    if (kept === null) delete el.attribs[name];
    else el.attribs[name] = kept;
  }
  if (el.name === "style") {
    const css = sanitizeCss(DomUtils.textContent(el));
    if (css === null || !css.trim()) {
      DomUtils.removeElement(el);
      return;
    }
    // Replace CDATA/text children with one text node holding the cleaned CSS.
    const [first] = el.children;
    for (const child of [...el.children]) if (child !== first) DomUtils.removeElement(child);
    if (first && isText(first)) first.data = css;
    else if (first && isCData(first)) {
      const inner = first.children[0];
      if (inner && isText(inner)) inner.data = css;
      for (const extra of first.children.slice(1)) DomUtils.removeElement(extra);
    }
    return;
  }
  walkChildren(el.children);
}

function walkChildren(children: DomNode[]) {
  for (const child of [...children]) {
    if (isElement(child)) {
      if (!ALLOWED_ELEMENTS.has(child.name)) DomUtils.removeElement(child);
      else sanitizeElement(child);
    } else if (isText(child) || isCData(child)) {
      // Text content is escaped on output (CDATA only inside <style>, handled above).
      if (isCData(child)) DomUtils.removeElement(child);
    } else {
      // Comments, processing instructions, doctypes.
      DomUtils.removeElement(child);
    }
  }
}

function findUnsafe(children: DomNode[]): string | null {
  for (const child of children) {
    if (!isElement(child)) continue;
    if (!ALLOWED_ELEMENTS.has(child.name)) return `element <${child.name}>`;
    for (const [name, value] of Object.entries(child.attribs)) {
      if (attributeAllowed(child.name, name, value) !== value) return `attribute ${name} on <${child.name}>`;
    }
    const nested = findUnsafe(child.children);
    if (nested) return nested;
  }
  return null;
}

const hasDrawing = (children: DomNode[]): boolean => children.some((c) => isElement(c) && (DRAWING_ELEMENTS.has(c.name) || hasDrawing(c.children)));

/** Returns the sanitised SVG markup, or throws SvgRejected with the reason. */
export function sanitizeSvg(source: string): string {
  const doc = parseDocument(source, { xmlMode: true, decodeEntities: true, recognizeCDATA: true });
  const roots = doc.children.filter(isElement);
  if (roots.length !== 1 || roots[0].name !== "svg") throw new SvgRejected("SVG must have a single <svg> root element");
  const root = roots[0];
  sanitizeElement(root);
  root.attribs.xmlns = NAMESPACES.xmlns;
  if (!hasDrawing(root.children)) throw new SvgRejected("SVG is empty after sanitising (nothing left to draw)");

  const output = DomUtils.getOuterHTML(root, { xmlMode: true, encodeEntities: "utf8" });
  // Verify: what we emit must parse back to a tree with nothing outside the allowlist.
  const check = parseDocument(output, { xmlMode: true, decodeEntities: true });
  const checkRoots = check.children.filter(isElement);
  const problem = checkRoots.length === 1 && checkRoots[0].name === "svg" ? findUnsafe(checkRoots) : "root";
  if (problem) throw new SvgRejected(`SVG is unsafe after sanitising (${problem})`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${output}`;
}
