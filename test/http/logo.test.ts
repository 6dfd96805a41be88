// Company logos through HTTP: upload (types, magic bytes, SVG sanitising), asset content,
// and attaching/replacing/clearing through PATCH logoAssetId.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { call, get, patch } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, testD1 } from "../helpers/fixtures";
import { sanitizeSvg, SvgRejected } from "../../src/domain/svg/sanitize";

const BOGUS = { token: "svc_agent_bogus" };
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);
const GIF = new TextEncoder().encode("GIF89a\u0001\u0000\u0001\u0000");
const WEBP = new Uint8Array([...new TextEncoder().encode("RIFF"), 0x24, 0, 0, 0, ...new TextEncoder().encode("WEBPVP8 ")]);

function logoForm(content: BlobPart, type: string, filename = "logo") {
  const f = new FormData();
  f.append("file", new File([content], filename, { type }));
  return f;
}
const uploadLogo = (companyId: string, content: BlobPart, type: string, token?: string) =>
  call("POST", `/api/companies/${companyId}/logo`, { rawBody: logoForm(content, type), token });

const XSS_SVG = `<?xml version="1.0"?>
<?xml-stylesheet href="http://evil.example/x.xsl"?>
<!DOCTYPE svg [<!ENTITY boom "<script>alert('entity')</script>">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert('onload')">
  <script>alert('script')</script>
  <script><![CDATA[alert('cdata')]]></script>
  <SCRIPT>alert('upper')</SCRIPT>
  <svg:script xmlns:svg="http://www.w3.org/2000/svg">alert('ns')</svg:script>
  <style>@import url(http://evil.example/x.css); circle { fill: url(https://evil.example/f.svg#g); stroke: url(#ok) }</style>
  <defs><linearGradient id="ok"><stop offset="0" stop-color="red"/></linearGradient></defs>
  <circle cx="5" cy="5" r="4" fill="url(#ok)" onclick="alert('click')" onmouseover="alert('hover')" style="background:url(javascript:alert('css'))"/>
  <rect width="2" height="2" fill="url(&#106;avascript:alert('entity-url'))"/>
  <a xlink:href="javascript:alert('link')"><rect width="1" height="1"/></a>
  <use href="http://evil.example/sprite.svg#icon"/>
  <use xlink:href="&#x6A;avascript:alert('use')"/>
  <use href="#ok"/>
  <image href="https://evil.example/track.png" width="1" height="1"/>
  <image xlink:href="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+" width="1" height="1"/>
  <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
  <foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert('iframe')"></iframe></foreignObject>
  <iframe src="https://evil.example"/>
  <embed src="https://evil.example/x.swf"/>
  <object data="https://evil.example/x"/>
  <set attributeName="href" to="javascript:alert('set')"/>
  <animate attributeName="href" values="javascript:alert('animate')"/>
  <text x="1" y="9">&boom; Hello &lt;script&gt;</text>
  <![CDATA[<script>alert('loose cdata')</script>]]>
</svg>`;

const FORBIDDEN = [
  /<script/i,
  /<svg:script/i,
  /\bon[a-z]+\s*=/i,
  /javascript:/i,
  /foreignObject/i,
  /<iframe/i,
  /<embed/i,
  /<object/i,
  /evil\.example/i,
  /@import/i,
  /<set\b/i,
  /<animate/i,
  /data:image\/svg/i,
  /xml-stylesheet/i,
  /<!ENTITY/i,
  /<a\b/,
];

describe("sanitizeSvg", () => {
  it("strips every known XSS vector and keeps the drawing", () => {
    const out = sanitizeSvg(XSS_SVG);
    for (const pattern of FORBIDDEN) expect(out, String(pattern)).not.toMatch(pattern);
    expect(out).toContain("<circle");
    expect(out).toContain('fill="url(#ok)"');
    expect(out).toContain('href="#ok"');
    expect(out).toContain("data:image/png;base64,iVBORw0KGgo=");
    expect(out).toContain('viewBox="0 0 10 10"');
    expect(out).toContain("&lt;script&gt;");
  });

  it("keeps ordinary logos intact", () => {
    const logo = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><g transform="translate(1 1)"><path d="M0 0L10 10" stroke="#123456" stroke-width="2"/><text x="2" y="20" font-family="Inter">ACME</text></g></svg>`;
    const out = sanitizeSvg(logo);
    expect(out).toContain('<path d="M0 0L10 10" stroke="#123456" stroke-width="2"/>');
    expect(out).toContain(">ACME</text>");
  });

  it("rejects empty, non-SVG and script-only documents", () => {
    expect(() => sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"></svg>')).toThrow(SvgRejected);
    expect(() => sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')).toThrow(SvgRejected);
    expect(() => sanitizeSvg("<html><body>hi</body></html>")).toThrow(SvgRejected);
    expect(() => sanitizeSvg("not xml at all")).toThrow(SvgRejected);
    expect(() => sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><circle r="1"/></foreignObject></svg>')).toThrow(SvgRejected);
  });

  it("forces the SVG namespace (a different default namespace could make it XHTML)", () => {
    const out = sanitizeSvg('<svg xmlns="http://www.w3.org/1999/xhtml"><rect width="1" height="1"/></svg>');
    expect(out).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(out).not.toContain("xhtml");
  });
});

describe("logo upload", () => {
  it("stores raster logos and returns the asset without attaching it", async () => {
    const company = await createCompany();
    for (const [bytes, type, stored] of [
      [PNG, "image/png", "image/png"],
      [JPEG, "image/jpeg", "image/jpeg"],
      [JPEG, "image/jpg", "image/jpeg"],
      [GIF, "image/gif", "image/gif"],
      [WEBP, "image/webp", "image/webp"],
    ] as const) {
      const res = await uploadLogo(company.id, bytes, type);
      expect(res.status, type).toBe(201);
      expect(res.body).toMatchObject({ companyId: company.id, contentType: stored, byteSize: bytes.byteLength, kind: "logo" });
      expect(res.body.assetId).toBe(res.body.id);
      expect(res.body.contentPath).toBe(`/api/assets/${res.body.assetId}/content`);
      const content = await get(res.body.contentPath);
      expect(content.status).toBe(200);
      expect(content.headers.get("content-type")).toBe(stored);
      expect(content.headers.get("x-content-type-options")).toBe("nosniff");
    }
    expect((await get(`/api/companies/${company.id}`)).body.logoAssetId).toBeNull();
  });

  it("rejects other types, wrong magic bytes and empty files with 400", async () => {
    const company = await createCompany();
    const text = await uploadLogo(company.id, "hello", "text/plain");
    expect(text.status).toBe(400);
    expect(text.body.error).toMatch(/image\/png/);
    expect((await uploadLogo(company.id, PNG, "application/pdf")).status).toBe(400);
    const fake = await uploadLogo(company.id, JPEG, "image/png");
    expect(fake.status).toBe(400);
    expect(fake.body.error).toMatch(/not a valid image\/png/);
    expect((await uploadLogo(company.id, "GIF00a", "image/gif")).status).toBe(400);
    expect((await uploadLogo(company.id, new Uint8Array(0), "image/png")).status).toBe(400);
    expect((await uploadLogo(company.id, new Uint8Array([0xff, 0xfe, 0x00]), "image/svg+xml")).status).toBe(400);
  });

  it("sanitises SVG uploads and serves them with a locked-down CSP", async () => {
    const company = await createCompany();
    const res = await uploadLogo(company.id, XSS_SVG, "image/svg+xml");
    expect(res.status).toBe(201);
    expect(res.body.contentType).toBe("image/svg+xml");
    const content = await get(res.body.contentPath);
    expect(content.status).toBe(200);
    expect(content.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(content.headers.get("x-content-type-options")).toBe("nosniff");
    expect(content.headers.get("content-type")).toBe("image/svg+xml");
    for (const pattern of FORBIDDEN) expect(content.text, String(pattern)).not.toMatch(pattern);
    expect(content.text).toContain("<circle");
    // The stored SHA-256 is that of the sanitised bytes.
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(content.text));
    expect(res.body.sha256).toBe([...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join(""));

    const empty = await uploadLogo(company.id, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "image/svg+xml");
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/SVG/);
  });

  it("guards access: agents of the company may upload; others get 401/403/404", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const { token } = await insertAgentKey(agent.id, company.id);
    const byAgent = await uploadLogo(company.id, PNG, "image/png", token);
    expect(byAgent.status).toBe(201);
    expect(byAgent.body.createdByAgentId).toBe(agent.id);

    expect((await uploadLogo(company.id, PNG, "image/png", BOGUS.token)).status).toBe(401);
    const other = await createCompany();
    const outsider = await boardUser(other.id);
    expect((await uploadLogo(company.id, PNG, "image/png", outsider.token)).status).toBe(403);
    expect((await uploadLogo(crypto.randomUUID(), PNG, "image/png")).status).toBe(404);
    const notMultipart = await call("POST", `/api/companies/${company.id}/logo`, { body: { file: "x" } });
    expect(notMultipart.status).toBe(400);

    expect((await get(byAgent.body.contentPath, BOGUS)).status).toBe(401);
    expect((await get(byAgent.body.contentPath, { token: outsider.token })).status).toBe(404);
    expect((await get(`/api/assets/${crypto.randomUUID()}/content`)).status).toBe(404);
    const etag = (await get(byAgent.body.contentPath)).headers.get("etag")!;
    expect((await get(byAgent.body.contentPath, { headers: { "if-none-match": etag } })).status).toBe(304);
  });

  it("refuses files over 25 MiB with 413", async () => {
    const company = await createCompany();
    const big = new Uint8Array(25 * 1024 * 1024 + 1);
    big.set(PNG);
    expect((await uploadLogo(company.id, big, "image/png")).status).toBe(413);
  });
});

describe("company logoAssetId", () => {
  it("must be an asset of the same company (422)", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const foreign = (await uploadLogo(other.id, PNG, "image/png")).body;
    const res = await patch(`/api/companies/${company.id}`, { logoAssetId: foreign.assetId });
    expect(res.status).toBe(422);
    expect((await patch(`/api/companies/${company.id}`, { logoAssetId: crypto.randomUUID() })).status).toBe(422);
  });

  it("attaches, replaces (deleting the previous asset and bytes) and clears", async () => {
    const company = await createCompany();
    const first = (await uploadLogo(company.id, PNG, "image/png")).body;
    const attached = await patch(`/api/companies/${company.id}`, { logoAssetId: first.assetId });
    expect(attached.status).toBe(200);
    expect(attached.body).toMatchObject({ logoAssetId: first.assetId, logoUrl: `/api/assets/${first.assetId}/content` });

    const second = (await uploadLogo(company.id, GIF, "image/gif")).body;
    const replaced = await patch(`/api/companies/${company.id}`, { logoAssetId: second.assetId });
    expect(replaced.body.logoUrl).toBe(second.contentPath);
    expect((await get(first.contentPath)).status).toBe(404);
    expect(await testD1.prepare("SELECT id FROM assets WHERE id = ?1").bind(first.assetId).first()).toBeNull();
    expect(await env.FILES.head(`companies/${company.id}/assets/${first.assetId}`)).toBeNull();

    const cleared = await patch(`/api/companies/${company.id}`, { logoAssetId: null });
    expect(cleared.body).toMatchObject({ logoAssetId: null, logoUrl: null });
    expect((await get(second.contentPath)).status).toBe(404);
    expect(await env.FILES.head(`companies/${company.id}/assets/${second.assetId}`)).toBeNull();
  });
});
