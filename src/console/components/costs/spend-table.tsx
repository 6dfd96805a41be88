// Spend by one dimension (agent, project or provider): spend, tokens in and out, and events a row.
import { count, money } from "../../lib/format";

export interface SpendRow {
  key: string;
  name: string;
  href?: string;
  costCents: number;
  inputTokens: number;
  outputTokens: number;
  eventCount: number;
}

export function SpendTable({ title, rows, empty }: { title: string; rows: SpendRow[]; empty: string }) {
  const id = `spend-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length === 0 ? (
        <p class="empty">{empty}</p>
      ) : (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" class="num">
                  Spend
                </th>
                <th scope="col" class="num">
                  Tokens in / out
                </th>
                <th scope="col" class="num">
                  Events
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row">{r.href ? <a href={r.href}>{r.name}</a> : r.name}</th>
                  <td class="num">{money(r.costCents)}</td>
                  <td class="num">
                    {count(r.inputTokens)} / {count(r.outputTokens)}
                  </td>
                  <td class="num">{count(r.eventCount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
