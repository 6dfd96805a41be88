// The fields of an adapter type (GET /api/adapters) as the hire form shows them: name, JSON type
// or allowed values, required or its default, whether it is a credential (kept as a company
// secret), and what it does.
import type { Schemas } from "../../lib/api";

export type AdapterInfo = Schemas["AdapterInfo"];

const need = (f: AdapterInfo["fields"][number]) => (f.required ? "required" : f.default !== undefined ? `default ${JSON.stringify(f.default)}` : "optional");

export function AdapterFields({ adapter }: { adapter: AdapterInfo }) {
  return (
    <details class="adapter-fields">
      <summary>
        {adapter.label}: {adapter.fields.length} configuration fields
      </summary>
      <p class="meta">{adapter.description}</p>
      <table>
        <caption class="visually-hidden">Configuration fields of {adapter.type}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Needed</th>
            <th scope="col">What it does</th>
          </tr>
        </thead>
        <tbody>
          {adapter.fields.map((f) => (
            <tr key={f.name}>
              <th scope="row">
                <code>{f.name}</code>
              </th>
              <td>
                {f.enum ? f.enum.join(" | ") : f.type}
                {f.secret ? " (secret)" : ""}
              </td>
              <td>{need(f)}</td>
              <td>{f.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
