// "New channel": the kind, a name, and the kind's own fields — Slack, Discord and Teams a webhook URL
// (kept as a company secret, shown afterwards only as its reference); Telegram a bot token and a
// chat; email a provider (Resend or Postmark), its API key, the sender and the recipients. The
// token or key is one of the company's secrets (a reference) or pasted here (stored as a new
// secret). A value the API refuses shows its message next to the field.
import { useState } from "preact/hooks";
import { ApiError, api, call } from "../../lib/api";
import { type Company, companyPath } from "../../lib/companies";
import { onChosen } from "../../lib/enums";
import { type FieldErrors, fieldErrors, placeErrors } from "../../lib/field-errors";
import {
  byUrl,
  CHANNEL_FIELDS,
  CHANNEL_KINDS,
  type Channel,
  type ChannelDraft,
  channelBody,
  EMAIL_PROVIDERS,
  hourLabel,
  NOTABLE_EVENTS,
  timeZones,
} from "../../lib/notifications";
import { Submit, useAction } from "../action";
import { SelectField, TextField } from "../fields";

const EMPTY: ChannelDraft = {
  kind: "slack",
  name: "",
  events: "*",
  url: "",
  secretId: "",
  secretValue: "",
  chatId: "",
  apiBaseUrl: "",
  provider: "resend",
  from: "",
  to: "",
};

const URL_HINT: Record<string, string> = {
  slack: "The incoming webhook's URL (https://hooks.slack.com/services/…).",
  discord: "The channel webhook's URL (https://discord.com/api/webhooks/…).",
  teams: "The workflow's webhook URL (“When a Teams webhook request is received”).",
};

export function NewChannel({
  company,
  secrets,
  onCreated,
}: {
  company: Company;
  secrets: Array<{ id: string; name: string }>;
  onCreated: (c: Channel) => void;
}) {
  const action = useAction();
  const [draft, setDraft] = useState<ChannelDraft>(EMPTY);
  const [digestHour, setDigestHour] = useState("");
  const [timeZone, setTimeZone] = useState("UTC");
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = (change: Partial<ChannelDraft>) => setDraft((d) => ({ ...d, ...change }));
  const input = (key: keyof ChannelDraft) => ({
    value: draft[key],
    error: errors[key === "url" || key === "secretId" || key === "secretValue" ? "target" : key],
    onInput: (e: { currentTarget: { value: string } }) => set({ [key]: e.currentTarget.value }),
  });

  const submit = async (event: Event) => {
    event.preventDefault();
    const { body, errors: missing } = channelBody(draft);
    setErrors(missing);
    if (!body) return action.fail("Some values are missing: see the fields marked.");
    const withDigest = digestHour ? { ...body, digestHour: Number(digestHour), timeZone } : body;
    const created = await action.run(async () => {
      try {
        return await call(api.POST("/api/companies/{companyId}/notification-channels", { params: { path: { companyId: company.id } }, body: withDigest }));
      } catch (err) {
        if (err instanceof ApiError)
          setErrors(
            placeErrors(fieldErrors(err.message, err.details), [...CHANNEL_FIELDS, "digestHour", "timeZone"], {
              aliases: { url: byUrl(draft.kind) ? "target" : "apiBaseUrl" },
            }),
          );
        throw err;
      }
    }, "Channel added.");
    if (created) {
      setDraft({ ...EMPTY, kind: draft.kind });
      setErrors({});
      onCreated(created);
    }
  };

  const secretChoice = (what: string, lower: string) => (
    <>
      <SelectField
        label={what}
        value={draft.secretId}
        error={draft.secretId ? errors.target : undefined}
        hint={
          <>
            One of the company's secrets, kept as a reference (its value is never shown here): <a href={companyPath(company, "settings/secrets")}>secrets</a>.
          </>
        }
        options={[{ value: "", label: `Paste a new ${lower}…` }, ...secrets.map((s) => ({ value: s.id, label: s.name }))]}
        onChange={(e) => set({ secretId: e.currentTarget.value })}
      />
      {!draft.secretId && (
        <TextField
          label={`New ${lower}`}
          type="password"
          autoComplete="off"
          maxLength={2000}
          hint="Stored as a new company secret."
          {...input("secretValue")}
        />
      )}
    </>
  );

  return (
    <form class="card stack narrow-form" onSubmit={submit} aria-labelledby="new-channel" noValidate>
      <h2 id="new-channel">New channel</h2>
      <SelectField
        label="Kind"
        value={draft.kind}
        error={errors.kind}
        options={CHANNEL_KINDS}
        onChange={onChosen(
          CHANNEL_KINDS.map((k) => k.value),
          (kind) => {
            setErrors({});
            set({ kind, secretId: "", secretValue: "" });
          },
        )}
      />
      <TextField label="Name" required maxLength={100} placeholder="Team alerts" {...input("name")} />
      {byUrl(draft.kind) && <TextField label="Webhook URL" type="url" required maxLength={2000} hint={URL_HINT[draft.kind]} {...input("url")} />}
      {draft.kind === "telegram" && (
        <>
          {secretChoice("Bot token", "bot token")}
          <TextField label="Chat ID" required maxLength={100} hint="The chat's or channel's id, e.g. -1001234567890 or @my_channel." {...input("chatId")} />
          <TextField label="Bot API server" type="url" hint="Optional: a self-hosted Bot API server (default: Telegram's)." {...input("apiBaseUrl")} />
        </>
      )}
      {draft.kind === "email" && (
        <>
          <SelectField
            label="Provider"
            value={draft.provider}
            error={errors.provider}
            options={EMAIL_PROVIDERS.map((p) => ({ value: p, label: p === "resend" ? "Resend" : "Postmark" }))}
            onChange={(e) => set({ provider: e.currentTarget.value })}
          />
          {secretChoice("API key", "API key")}
          <TextField label="From" required maxLength={320} placeholder="Acme <alerts@acme.dev>" hint="A sender the provider accepts." {...input("from")} />
          <TextField label="To" required hint="Addresses separated by commas." {...input("to")} />
          <TextField label="Provider API URL" type="url" hint="Optional: another region of the provider's API." {...input("apiBaseUrl")} />
        </>
      )}
      <TextField label="Events" {...input("events")} hint={`Separated by commas: * (every notable event) or any of ${NOTABLE_EVENTS.join(", ")}.`} />
      <SelectField
        label="Daily digest"
        value={digestHour}
        error={errors.digestHour}
        options={[{ value: "", label: "None" }, ...Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `At ${hourLabel(h)}` }))]}
        onChange={(e) => setDigestHour(e.currentTarget.value)}
      />
      {digestHour && (
        <SelectField
          label="Digest time zone"
          value={timeZone}
          error={errors.timeZone}
          options={timeZones(timeZone).map((z) => ({ value: z, label: z }))}
          onChange={(e) => setTimeZone(e.currentTarget.value)}
        />
      )}
      <Submit action={action} label="Add channel" primary />
    </form>
  );
}
