// The console's service worker, served from the root as /sw.js (scope "/"; build.mjs bundles it on
// its own, never into a page): it makes the console installable with the web app manifest, shows a
// member's web push notifications, and opens the console's page a notification links to. It has no
// fetch handler: the console always loads from the network.
// The push payload is the JSON the service sends (src/domain/notifications/formats/push.ts,
// PushPayload): { title, body, url, tag, level, eventType, companyId }.
export {};

interface PushPayload {
  title?: string;
  body?: string;
  url?: string;
  tag?: string;
  level?: "info" | "warning" | "error";
  eventType?: string;
  companyId?: string;
}

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown; text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification & { data?: { url?: string } };
}
interface WindowClient {
  url: string;
  focused: boolean;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface Worker {
  location: Location;
  registration: { showNotification(title: string, options: NotificationOptions & { renotify?: boolean }): Promise<void> };
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "push", listener: (event: PushEvent) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationEvent) => void): void;
}

const worker = self as unknown as Worker;

// A new version takes over at once (it has no caches to migrate).
worker.addEventListener("install", (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener("activate", (event) => event.waitUntil(worker.clients.claim()));

/** The payload as sent; a payload that is not JSON is shown as its text. */
function payloadOf(event: PushEvent): PushPayload {
  if (!event.data) return {};
  try {
    const value = event.data.json();
    return value && typeof value === "object" ? (value as PushPayload) : { body: String(value) };
  } catch {
    return { body: event.data.text() };
  }
}

/** Only the console's own pages are opened: a link to another origin (the service's public URL seen from elsewhere) opens the same page here. */
function consoleUrl(url: string | undefined): string {
  const origin = worker.location.origin;
  try {
    const target = new URL(url ?? "/", origin);
    return target.origin === origin ? target.href : new URL(target.pathname + target.search, origin).href;
  } catch {
    return `${origin}/`;
  }
}

worker.addEventListener("push", (event) => {
  const payload = payloadOf(event);
  const url = consoleUrl(payload.url);
  event.waitUntil(
    worker.registration.showNotification(payload.title || "Agent Control Plane", {
      body: payload.body ?? "",
      tag: payload.tag || url,
      renotify: !!payload.tag,
      icon: "/icon.svg",
      badge: "/icon.svg",
      requireInteraction: payload.level === "error",
      data: { url },
    }),
  );
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = consoleUrl(event.notification.data?.url);
  event.waitUntil(
    (async () => {
      const windows = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = windows.find((w) => w.url === url);
      if (same) return same.focus();
      // A console window already open goes to the page; otherwise a new one opens.
      const open = windows.find((w) => w.focused) ?? windows[0];
      if (open) {
        try {
          const moved = await open.navigate(url);
          if (moved) return moved.focus();
        } catch {
          /* not controlled by this worker: open a window instead */
        }
      }
      return worker.clients.openWindow(url);
    })(),
  );
});
