// My notifications: the signed-in member's own preferences in this company (no other member sees
// them) — which notifications reach them, on which of their own channels (their email address, push
// to the devices where they enabled it), quiet hours in their time zone (messages wait until the
// hours end) and a daily digest hour — saved with PUT; and push on this device: "Enable push on this
// device" asks the browser's permission, subscribes through the console's service worker and
// registers the subscription; "Disable" removes it. The member's other devices are listed to remove.
import { useEffect, useState } from "preact/hooks";
import { Feedback, Submit, useAction } from "../components/action";
import { CheckField, SelectField, TextField } from "../components/fields";
import { SettingsNav } from "../components/settings-nav";
import { Async, Empty } from "../components/states";
import { ApiError, api, call } from "../lib/api";
import type { Company } from "../lib/companies";
import { type FieldErrors, fieldErrors, placeErrors } from "../lib/field-errors";
import { ago, when } from "../lib/format";
import { hourLabel, type Preferences, quietHours, TOPICS, timeZones } from "../lib/notifications";
import { type DevicePush, devicePush, enablePush, PUSH_DENIED, removePush } from "../lib/push";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

export default function MyNotificationsPage({ company }: CompanyPageProps) {
  useTitle("My notifications");
  const preferences = useResource(
    () => call(api.GET("/api/companies/{companyId}/notification-preferences", { params: { path: { companyId: company.id } } })),
    [company.id],
    { types: [] },
  );
  return (
    <>
      <h1 tabIndex={-1}>My notifications</h1>
      <SettingsNav company={company} />
      <p class="meta">What reaches you yourself in {company.name}, and where. Only you see these settings.</p>
      <Async resource={preferences} what="your notification settings">
        {(p) => (
          <>
            <PreferencesForm company={company} preferences={p} onSaved={() => void preferences.reload()} />
            <PushDevices company={company} preferences={p} onChanged={() => void preferences.reload()} />
          </>
        )}
      </Async>
    </>
  );
}

interface Draft {
  topics: Preferences["topics"];
  email: string;
  emailEnabled: boolean;
  pushEnabled: boolean;
  quietStart: string;
  quietEnd: string;
  timeZone: string;
  digestHour: string;
}

const draftOf = (p: Preferences): Draft => ({
  topics: { ...p.topics },
  email: p.email ?? "",
  emailEnabled: p.emailEnabled,
  pushEnabled: p.pushEnabled,
  quietStart: p.quietStart ?? "",
  quietEnd: p.quietEnd ?? "",
  timeZone: p.timeZone,
  digestHour: p.digestHour === null ? "" : String(p.digestHour),
});

const FIELDS = ["topics", "email", "emailEnabled", "pushEnabled", "quietStart", "quietEnd", "timeZone", "digestHour"];

function PreferencesForm({ company, preferences, onSaved }: { company: Company; preferences: Preferences; onSaved: () => void }) {
  const action = useAction();
  const [initial, setInitial] = useState(() => draftOf(preferences));
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const edited = JSON.stringify(draft) !== JSON.stringify(initial);
  // Changed meanwhile (push enabled below, another tab) while nothing is edited here: show the new values.
  const fresh = JSON.stringify(draftOf(preferences));
  useEffect(() => {
    if (edited) return;
    const next = draftOf(preferences);
    setInitial(next);
    setDraft(next);
  }, [fresh]);
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const save = async (event: Event) => {
    event.preventDefault();
    const quiet = quietHours(draft.quietStart, draft.quietEnd);
    if ("error" in quiet) {
      setErrors(quiet.error);
      return action.fail("Quiet hours need a start and an end: see the fields marked.");
    }
    setErrors({});
    const body = {
      topics: draft.topics,
      email: draft.email.trim() || null,
      emailEnabled: draft.emailEnabled,
      pushEnabled: draft.pushEnabled,
      ...quiet,
      timeZone: draft.timeZone,
      digestHour: draft.digestHour === "" ? null : Number(draft.digestHour),
    };
    const saved = await action.run(async () => {
      try {
        return await call(api.PUT("/api/companies/{companyId}/notification-preferences", { params: { path: { companyId: company.id } }, body }));
      } catch (err) {
        if (err instanceof ApiError) setErrors(placeErrors(fieldErrors(err.message, err.details), FIELDS));
        throw err;
      }
    }, "Your notification settings are saved.");
    if (!saved) return;
    const next = draftOf(saved);
    setInitial(next);
    setDraft(next);
    onSaved();
  };

  return (
    <form class="stack narrow-form" onSubmit={save} aria-label="Notification settings" noValidate>
      <fieldset class="stack">
        <legend>What reaches you</legend>
        {TOPICS.map(({ topic, label }) => (
          <CheckField
            key={topic}
            label={label}
            checked={draft.topics[topic]}
            onChange={(e) => set({ topics: { ...draft.topics, [topic]: e.currentTarget.checked } })}
          />
        ))}
        <p class="meta">A question asked of you by name and an issue assigned to you reach only you.</p>
      </fieldset>
      <fieldset class="stack">
        <legend>Where</legend>
        <TextField
          label="Your email address"
          type="email"
          autoComplete="email"
          maxLength={320}
          value={draft.email}
          error={errors.email}
          onInput={(e) => set({ email: e.currentTarget.value })}
        />
        <CheckField
          label="Email me"
          checked={draft.emailEnabled}
          error={errors.emailEnabled}
          hint="Sent through the company's email channel (Settings › Notifications)."
          onChange={(e) => set({ emailEnabled: e.currentTarget.checked })}
        />
        <CheckField
          label="Push to my devices"
          checked={draft.pushEnabled}
          error={errors.pushEnabled}
          hint="The browsers where you enabled push (below)."
          onChange={(e) => set({ pushEnabled: e.currentTarget.checked })}
        />
      </fieldset>
      <fieldset class="stack">
        <legend>When</legend>
        <div class="inline-form">
          <TextField
            label="Quiet from"
            type="time"
            value={draft.quietStart}
            error={errors.quietStart}
            onInput={(e) => set({ quietStart: e.currentTarget.value })}
          />
          <TextField label="Quiet until" type="time" value={draft.quietEnd} error={errors.quietEnd} onInput={(e) => set({ quietEnd: e.currentTarget.value })} />
        </div>
        <p class="meta">During quiet hours nothing is sent to you; it waits until they end. Leave both empty for none.</p>
        <SelectField
          label="Your time zone"
          value={draft.timeZone}
          error={errors.timeZone}
          hint={draft.timeZone !== browserZone ? `This browser's is ${browserZone}.` : undefined}
          options={timeZones(draft.timeZone).map((z) => ({ value: z, label: z }))}
          onChange={(e) => set({ timeZone: e.currentTarget.value })}
        />
        <SelectField
          label="Daily digest"
          value={draft.digestHour}
          error={errors.digestHour}
          hint="What finished, what is blocked, what waits on you and the day's spend, once a day in your time zone."
          options={[{ value: "", label: "None" }, ...Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `At ${hourLabel(h)}` }))]}
          onChange={(e) => set({ digestHour: e.currentTarget.value })}
        />
      </fieldset>
      <Submit action={action} label="Save my notification settings" primary />
    </form>
  );
}

const DEVICE_STATE: Record<DevicePush["state"], string> = {
  unsupported: "This browser cannot receive push notifications here.",
  denied: PUSH_DENIED,
  off: "Push is not enabled on this device.",
  on: "This device is subscribed: your notifications appear here even when the console is closed.",
};

function PushDevices({ company, preferences, onChanged }: { company: Company; preferences: Preferences; onChanged: () => void }) {
  const action = useAction();
  const [device, setDevice] = useState<DevicePush | null>(null);
  const ids = preferences.pushSubscriptions.map((s) => s.id);
  useEffect(() => {
    let stale = false;
    void devicePush(company.id, ids).then((d) => !stale && setDevice(d));
    return () => {
      stale = true;
    };
  }, [company.id, ids.join(",")]);
  const enable = async () => {
    if (await action.run(() => enablePush(company.id), "Push is enabled on this device.")) onChanged();
  };
  const remove = async (id: string, done: string) => {
    if (await action.run(() => removePush(company.id, id).then(() => true), done)) onChanged();
  };
  const others = preferences.pushSubscriptions.filter((s) => device?.state !== "on" || s.id !== device.id);
  return (
    <section aria-labelledby="push-devices">
      <h2 id="push-devices">Push on this device</h2>
      {device && (
        <p class={device.state === "denied" ? "error" : undefined} data-push-state={device.state}>
          {DEVICE_STATE[device.state]}
        </p>
      )}
      <div class="actions">
        {device?.state === "on" ? (
          <button type="button" disabled={action.busy} onClick={() => remove(device.id, "Push is disabled on this device.")}>
            Disable push on this device
          </button>
        ) : (
          <button type="button" class="primary" disabled={action.busy || !device || device.state === "unsupported"} onClick={enable}>
            Enable push on this device
          </button>
        )}
      </div>
      <Feedback action={action} />
      <h3>Your other devices</h3>
      {others.length === 0 ? (
        <Empty>No other device receives your push notifications.</Empty>
      ) : (
        <ul class="rows">
          {others.map((s) => (
            <li key={s.id}>
              {s.userAgent ? browserName(s.userAgent) : "A browser"} <span class="meta">via {s.service}</span>{" "}
              <span class="meta">
                since{" "}
                <time dateTime={s.createdAt} title={when(s.createdAt)}>
                  {ago(s.createdAt)}
                </time>
              </span>{" "}
              <button type="button" disabled={action.busy} onClick={() => remove(s.id, "Device removed.")}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A user agent as a short name: "Chrome on Linux". */
function browserName(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrome\/|Chromium\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : "A browser";
  const os = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Mac OS X/.test(userAgent)
        ? "macOS"
        : /Windows/.test(userAgent)
          ? "Windows"
          : /Linux/.test(userAgent)
            ? "Linux"
            : "";
  return os ? `${browser} on ${os}` : browser;
}
