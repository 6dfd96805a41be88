// Access matrix: representative company routes called as each kind of caller, in authenticated
// mode (where "no credentials" really is unauthenticated). Expected: board member 2xx; board
// user without membership 403 on company paths (404 on entity paths); agent of the company 2xx
// for company reads and 403 for board-only writes; agent of another company 403/404; nobody 401.
import { beforeAll, describe, expect, it } from "vitest";
import { AUTHENTICATED, call, unique } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey } from "../helpers/fixtures";

type Caller = "boardMember" | "boardNonMember" | "companyAgent" | "otherCompanyAgent" | "anonymous";
const callers: Caller[] = ["boardMember", "boardNonMember", "companyAgent", "otherCompanyAgent", "anonymous"];

interface Row {
  name: string;
  method: string;
  path: (ctx: Ctx) => string;
  body?: (ctx: Ctx) => unknown;
  expect: Record<Caller, number>;
}

interface Ctx {
  companyId: string;
  agentId: string;
  tokens: Record<Caller, string | undefined>;
}

const rows: Row[] = [
  {
    name: "GET company",
    method: "GET",
    path: (c) => `/api/companies/${c.companyId}`,
    expect: { boardMember: 200, boardNonMember: 403, companyAgent: 200, otherCompanyAgent: 403, anonymous: 401 },
  },
  {
    name: "PATCH company",
    method: "PATCH",
    path: (c) => `/api/companies/${c.companyId}`,
    body: () => ({ description: unique("desc") }),
    expect: { boardMember: 200, boardNonMember: 403, companyAgent: 403, otherCompanyAgent: 403, anonymous: 401 },
  },
  {
    name: "GET agents",
    method: "GET",
    path: (c) => `/api/companies/${c.companyId}/agents`,
    expect: { boardMember: 200, boardNonMember: 403, companyAgent: 200, otherCompanyAgent: 403, anonymous: 401 },
  },
  {
    name: "POST agents",
    method: "POST",
    path: (c) => `/api/companies/${c.companyId}/agents`,
    body: () => ({ name: unique("Hire"), adapterType: "process", adapterConfig: { command: "/bin/true" } }),
    expect: { boardMember: 201, boardNonMember: 403, companyAgent: 403, otherCompanyAgent: 403, anonymous: 401 },
  },
  {
    name: "GET agent",
    method: "GET",
    path: (c) => `/api/agents/${c.agentId}`,
    expect: { boardMember: 200, boardNonMember: 404, companyAgent: 200, otherCompanyAgent: 404, anonymous: 401 },
  },
  {
    name: "GET activity",
    method: "GET",
    path: (c) => `/api/companies/${c.companyId}/activity`,
    expect: { boardMember: 200, boardNonMember: 403, companyAgent: 200, otherCompanyAgent: 403, anonymous: 401 },
  },
  {
    name: "POST activity",
    method: "POST",
    path: (c) => `/api/companies/${c.companyId}/activity`,
    body: () => ({ actorType: "system", actorId: "matrix", action: "matrix.checked", entityType: "company", entityId: "x" }),
    expect: { boardMember: 201, boardNonMember: 403, companyAgent: 403, otherCompanyAgent: 403, anonymous: 401 },
  },
];

describe("access matrix (authenticated mode)", () => {
  const ctx = {} as Ctx;

  beforeAll(async () => {
    const company = await createCompany();
    const other = await createCompany();
    const member = await boardUser(company.id, "owner");
    const nonMember = await boardUser(other.id, "owner");
    const agent = await insertAgent(company.id);
    const outsider = await insertAgent(other.id);
    ctx.companyId = company.id;
    ctx.agentId = agent.id;
    ctx.tokens = {
      boardMember: member.token,
      boardNonMember: nonMember.token,
      companyAgent: (await insertAgentKey(agent.id, company.id)).token,
      otherCompanyAgent: (await insertAgentKey(outsider.id, other.id)).token,
      anonymous: undefined,
    };
  });

  for (const row of rows) {
    for (const caller of callers) {
      it(`${row.name} as ${caller} → ${row.expect[caller]}`, async () => {
        const res = await call(row.method, row.path(ctx), { body: row.body?.(ctx), token: ctx.tokens[caller], env: AUTHENTICATED });
        expect(res.status, res.text).toBe(row.expect[caller]);
        if (res.status >= 400) expect(typeof res.body.error).toBe("string");
      });
    }
  }

  it("a missing company is 404 for a board caller", async () => {
    const res = await call("GET", `/api/companies/${crypto.randomUUID()}/agents`, { token: ctx.tokens.boardMember, env: AUTHENTICATED });
    expect(res.status).toBe(404);
  });
});
