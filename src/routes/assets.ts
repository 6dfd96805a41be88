// Company logo uploads (an asset, attached later through PATCH logoAssetId) and asset content.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { allowLargerBodies } from "../http/body-limit";
import { requireActor, requireCompanyAccess, requireEntityAccess } from "../http/access";
import { badRequest } from "../domain/errors";
import { runCompanyCommand } from "../company/client";
import { digestSha256Hex, readUpload, UPLOAD_BODY_LIMIT_BYTES } from "../domain/attachments/upload";
import { hasImageSignature, logoContentType, LOGO_CONTENT_TYPES } from "../domain/attachments/image-types";
import { serveStoredObject } from "../domain/attachments/serve";
import { assetObjectKey } from "../domain/attachments/view";
import { loadAsset } from "../domain/attachments/queries";
import { newId } from "../crypto/random";
import { CompanyIdParam, errors, jsonContent } from "../schemas/common";
import { AssetIdParam, AssetSchema, binaryContent, ContentQuery, multipartFileBody } from "../schemas/attachments";
import { createLogoAsset } from "../domain/attachments/commands";

allowLargerBodies(/^\/api\/companies\/[^/]+\/logo\/?$/, UPLOAD_BODY_LIMIT_BYTES);

const tags = ["Companies"];
export const assetsRouter = createRouter();

/**
 * The bytes to store for a logo: raster types must carry their signature; SVG is sanitised (the
 * sanitiser and its XML parser load on the first SVG upload).
 */
async function logoBytes(type: string, bytes: Uint8Array): Promise<Uint8Array> {
  if (type !== "image/svg+xml") {
    if (!hasImageSignature(type, bytes)) throw badRequest(`File content is not a valid ${type} image`, { contentType: type });
    return bytes;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw badRequest("SVG must be UTF-8 text");
  }
  const { sanitizeSvg, SvgRejected } = await import("../domain/svg/sanitize");
  try {
    return new TextEncoder().encode(sanitizeSvg(text));
  } catch (err) {
    if (err instanceof SvgRejected) throw badRequest(`Unsafe or empty SVG rejected: ${err.message}`);
    throw err;
  }
}

assetsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/logo",
    tags,
    summary: "Upload a logo image (multipart part `file`); returns the asset with assetId and contentPath; does not attach it",
    description:
      `Any caller with company access. Types: ${LOGO_CONTENT_TYPES.join(", ")} (others 400); at most 25 MiB (413). Raster images must start with their format's signature. ` +
      "SVGs are sanitised with an element/attribute allowlist: scripts, event handlers, javascript:/data: URLs (except inline raster images), external href/xlink:href, foreignObject, iframe/embed/object, animation and external CSS are removed; an SVG with nothing left to draw is rejected (400). " +
      "Set it as the logo with PATCH /api/companies/{companyId} { logoAssetId }.",
    request: { params: CompanyIdParam, body: multipartFileBody("PNG, JPEG, WebP, GIF or SVG image") },
    responses: { 201: jsonContent(AssetSchema, "The stored asset"), ...errors(400, 401, 403, 404, 413) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const actor = requireActor(c);
    const upload = await readUpload(c);
    const type = logoContentType(upload.contentType);
    if (!type) {
      throw badRequest(`Unsupported logo type ${upload.contentType}; allowed: ${LOGO_CONTENT_TYPES.join(", ")}`, {
        contentType: upload.contentType,
        allowed: LOGO_CONTENT_TYPES,
      });
    }
    const bytes = await logoBytes(type, upload.bytes);
    const sha256 = bytes === upload.bytes ? upload.sha256 : await digestSha256Hex(bytes);
    const id = newId();
    const objectKey = assetObjectKey(companyId, id);
    await c.env.FILES.put(objectKey, bytes, { httpMetadata: { contentType: type }, sha256 });
    try {
      const asset = await runCompanyCommand(c.env, companyId, createLogoAsset, actor, {
        id,
        objectKey,
        contentType: type,
        byteSize: bytes.byteLength,
        sha256,
        originalFilename: upload.filename,
      });
      return c.json(asset, 201);
    } catch (err) {
      await c.env.FILES.delete(objectKey);
      throw err;
    }
  },
);

assetsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/assets/{assetId}/content",
    tags,
    summary: "Asset bytes (company logos); SVG is served with Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'",
    description:
      "Company access is checked (another company's asset is 404). ETag/If-None-Match, HTTP Range and `download=1` work as for attachments; always nosniff.",
    request: { params: AssetIdParam, query: ContentQuery },
    responses: {
      200: binaryContent("The asset"),
      206: binaryContent("The requested range"),
      304: { description: "Not modified" },
      416: jsonContent(z.object({ error: z.string(), details: z.unknown().optional() }), "Range not satisfiable"),
      ...errors(400, 401, 404),
    },
  }),
  async (c) => {
    const { assetId } = c.req.valid("param");
    const { download } = c.req.valid("query");
    requireActor(c);
    const row = await loadAsset(dbOf(c), assetId);
    requireEntityAccess(c, row.companyId, "Asset");
    return serveStoredObject(
      c.env.FILES,
      c.req.raw,
      { ...row, filename: row.originalFilename },
      {
        download: download === "1" || download === "true",
      },
    );
  },
);
