// Environments (where execution workspaces run) and their leases.
// Reads: any caller of the company. Writes and probes: the `environments:manage` permission
// (board owners/admins by default, explicit grants otherwise).
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireCompanyAccess, requireEntityAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { requireCompanyPermission } from "../domain/access/permissions";
import { environmentCapabilities, type EnvironmentKind } from "../domain/environments/kinds";
import { probeEnvironmentConfig } from "../domain/environments/probe";
import { environmentViewOf, environmentViews, listLeases, loadEnvironment, loadLease } from "../domain/environments/queries";
import { leaseView } from "../domain/environments/view";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import {
  CapabilitySchema,
  createEnvironmentSchema,
  EnvironmentIdParam,
  EnvironmentSchema,
  LeaseIdParam,
  LeaseListQuery,
  LeaseSchema,
  ProbeConfigSchema,
  ProbeResultSchema,
  StoredProbeResultSchema,
  UpdateEnvironmentSchema,
} from "../schemas/environments";
import { createEnvironment, deleteEnvironment, probeEnvironment, updateEnvironment } from "../domain/environments/commands";

const tags = ["Environments"];
export const environmentsRouter = createRouter();
const now = () => new Date().toISOString();

/** The environment behind `{id}` if the caller may reach its company (else 404). */
async function environmentFor(c: Context<AppEnv>, id: string) {
  const row = await loadEnvironment(dbOf(c), id);
  const actor = requireEntityAccess(c, row.companyId, "Environment");
  return { environment: row, actor };
}

const requireManage = (c: Context<AppEnv>, companyId: string) => requireCompanyPermission(dbOf(c), c.get("actor"), companyId, "environments:manage");

environmentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/environments",
    tags,
    summary: "The company's environments, oldest first (secret references shown, never values)",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(EnvironmentSchema), "Environments"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await environmentViews(dbOf(c), companyId, now()), 200);
  },
);

environmentsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/environments",
    tags,
    summary: "Create an environment (validated by createEnvironmentSchema: name, kind, config per kind, labels, maxConcurrentLeases)",
    description:
      "Kinds: local { workdir, shell? }, ssh { host, port=22, username, privateKey: secret_ref, knownHostsFingerprint?, workdir?, allowPrivateNetwork=false }, " +
      "container { image, runtime=docker, registryAuth?: secret_ref, cpus?, memoryMb?, network=bridge, workdir? }, " +
      "cloud_sandbox { provider, apiKey: secret_ref, apiBaseUrl?, region?, template?, timeoutSec=3600 }. Unknown config keys are 400; " +
      "secret references must name secrets of this company (422); names are unique per company (409). Needs environments:manage.",
    request: { params: CompanyIdParam, body: jsonBody(createEnvironmentSchema) },
    responses: { 201: jsonContent(EnvironmentSchema, "The new environment"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    await requireManage(c, companyId);
    const body = c.req.valid("json");
    const environment = await runCompanyCommand(c.env, companyId, createEnvironment, c.get("actor"), { ...body, kind: body.kind as EnvironmentKind });
    return c.json(environment, 201);
  },
);

environmentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/environments/capabilities",
    tags,
    summary: "Per environment kind: what it supports and its required, optional and secret config fields",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(CapabilitySchema), "Capabilities per kind"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    await requireCompanyAccess(c, c.req.valid("param").companyId);
    return c.json(environmentCapabilities(), 200);
  },
);

environmentsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/environments/probe-config",
    tags,
    summary: "Probe a config without saving it",
    description:
      "Checks the config's form for the kind, reachability rules (host classification: loopback and private hosts need " +
      "allowPrivateNetwork, link-local and unspecified addresses are refused; no traffic is sent) and that referenced " +
      "secrets exist in the company. Returns { ok, kind, checks: [{ name, ok, message }] }; nothing is stored. Needs environments:manage.",
    request: { params: CompanyIdParam, body: jsonBody(ProbeConfigSchema) },
    responses: { 200: jsonContent(ProbeResultSchema, "Probe result"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    await requireManage(c, companyId);
    const { kind, config } = c.req.valid("json");
    return c.json(await probeEnvironmentConfig(dbOf(c), companyId, kind as EnvironmentKind, config), 200);
  },
);

environmentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/environments/{id}",
    tags,
    summary: "Get an environment",
    request: { params: EnvironmentIdParam },
    responses: { 200: jsonContent(EnvironmentSchema, "The environment"), ...errors(401, 404) },
  }),
  async (c) => {
    const { environment } = await environmentFor(c, c.req.valid("param").id);
    return c.json(await environmentViewOf(dbOf(c), environment, now()), 200);
  },
);

environmentsRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/environments/{id}",
    tags,
    summary: "Update an environment (the kind is fixed; a new config is validated for it and clears the last probe)",
    request: { params: EnvironmentIdParam, body: jsonBody(UpdateEnvironmentSchema) },
    responses: { 200: jsonContent(EnvironmentSchema, "The updated environment"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const { environment, actor } = await environmentFor(c, c.req.valid("param").id);
    await requireManage(c, environment.companyId);
    const updated = await runCompanyCommand(c.env, environment.companyId, updateEnvironment, actor, {
      environmentId: environment.id,
      fields: c.req.valid("json"),
    });
    return c.json(updated, 200);
  },
);

environmentsRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/environments/{id}",
    tags,
    summary: "Delete an environment; returns the deleted row (409 while it has active leases)",
    request: { params: EnvironmentIdParam },
    responses: { 200: jsonContent(EnvironmentSchema, "The deleted environment"), ...errors(401, 403, 404, 409) },
  }),
  async (c) => {
    const { environment, actor } = await environmentFor(c, c.req.valid("param").id);
    await requireManage(c, environment.companyId);
    return c.json(await runCompanyCommand(c.env, environment.companyId, deleteEnvironment, actor, { environmentId: environment.id }), 200);
  },
);

environmentsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/environments/{id}/probe",
    tags,
    summary: "Probe the stored config (same checks as probe-config); records lastProbeAt, lastProbeStatus and the checks",
    request: { params: EnvironmentIdParam },
    responses: { 200: jsonContent(StoredProbeResultSchema, "Probe result"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { environment, actor } = await environmentFor(c, c.req.valid("param").id);
    await requireManage(c, environment.companyId);
    return c.json(await runCompanyCommand(c.env, environment.companyId, probeEnvironment, actor, { environmentId: environment.id }), 200);
  },
);

environmentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/environments/{id}/leases",
    tags,
    summary: "The environment's leases, newest first (optional status filter)",
    request: { params: EnvironmentIdParam, query: LeaseListQuery },
    responses: { 200: jsonContent(z.array(LeaseSchema), "Leases"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const { environment } = await environmentFor(c, c.req.valid("param").id);
    return c.json(await listLeases(dbOf(c), environment.id, c.req.valid("query").status, now()), 200);
  },
);

environmentsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/environment-leases/{leaseId}",
    tags,
    summary: "Get a lease",
    request: { params: LeaseIdParam },
    responses: { 200: jsonContent(LeaseSchema, "The lease"), ...errors(401, 404) },
  }),
  async (c) => {
    const row = await loadLease(dbOf(c), c.req.valid("param").leaseId);
    requireEntityAccess(c, row.companyId, "Lease");
    return c.json(leaseView(row, now()), 200);
  },
);
