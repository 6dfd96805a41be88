// Web push on this device: the console's service worker (/sw.js) subscribes with the instance's VAPID
// public key and the subscription (endpoint, p256dh and auth keys) is registered for the signed-in
// member in a company; the API then pushes that member's notifications to it. Which of the member's
// subscriptions is this browser's is remembered here per company (the API shows only each
// subscription's push service), and checked against the browser's own subscription.
import { api, call } from "./api";
import { base64UrlBytes, bytesBase64Url } from "./notifications";

export type DevicePush =
  | { state: "unsupported" }
  | { state: "denied" }
  | { state: "off" }
  /** Subscribed: `id` is the member's push subscription for this browser. */
  | { state: "on"; id: string };

export const PUSH_DENIED =
  "Notifications are blocked for this site in the browser. Allow them in the browser's site settings (the icon beside the address), then enable push again.";
const NOT_ALLOWED = "Notifications were not allowed. Choose “Allow” when the browser asks, to enable push on this device.";

const keyOf = (companyId: string) => `acp.push.${companyId}`;

interface Remembered {
  id: string;
  endpoint: string;
}

function remembered(companyId: string): Remembered | null {
  try {
    const value = JSON.parse(localStorage.getItem(keyOf(companyId)) ?? "null") as Remembered | null;
    return value && typeof value.id === "string" && typeof value.endpoint === "string" ? value : null;
  } catch {
    return null;
  }
}

function remember(companyId: string, value: Remembered | null) {
  try {
    if (value) localStorage.setItem(keyOf(companyId), JSON.stringify(value));
    else localStorage.removeItem(keyOf(companyId));
  } catch {
    /* storage disabled: this device is not recognised after a reload */
  }
}

/** Whether this browser can receive push at all (a secure context with service workers, push and notifications). */
export const pushSupported = () => isSecureContext && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

/** The console's service worker (registered at startup; registered here again if it is not yet). */
async function workerRegistration(): Promise<ServiceWorkerRegistration> {
  if (!(await navigator.serviceWorker.getRegistration("/"))) await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return navigator.serviceWorker.ready;
}

async function browserSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

/** This device's state in the company, given the member's subscriptions (their ids) as the API lists them. */
export async function devicePush(companyId: string, subscriptionIds: string[]): Promise<DevicePush> {
  if (!pushSupported()) return { state: "unsupported" };
  if (Notification.permission === "denied") return { state: "denied" };
  const mine = remembered(companyId);
  if (!mine || !subscriptionIds.includes(mine.id)) return { state: "off" };
  const subscription = await browserSubscription().catch(() => null);
  return subscription?.endpoint === mine.endpoint ? { state: "on", id: mine.id } : { state: "off" };
}

const sameKey = (a: ArrayBuffer | null, b: Uint8Array) => !!a && a.byteLength === b.length && new Uint8Array(a).every((x, i) => x === b[i]);

/** Asks for permission, subscribes this browser and registers the subscription for the member; returns its id. */
export async function enablePush(companyId: string): Promise<string> {
  if (!pushSupported()) throw new Error("This browser cannot receive push notifications here.");
  const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  if (permission === "denied") throw new Error(PUSH_DENIED);
  if (permission !== "granted") throw new Error(NOT_ALLOWED);
  const registration = await workerRegistration();
  const { publicKey } = await call(api.GET("/api/notifications/vapid-public-key"));
  const applicationServerKey = base64UrlBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  // Subscribed with another key (the instance's was replaced): start again.
  if (subscription && !sameKey(subscription.options.applicationServerKey, applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  try {
    subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
  } catch (err) {
    if ((err as DOMException).name === "NotAllowedError") throw new Error(PUSH_DENIED);
    throw new Error(`The browser could not subscribe to push (${(err as Error).message}).`);
  }
  const json = subscription.toJSON();
  const keys = {
    p256dh: json.keys?.p256dh ?? bytesBase64Url(subscription.getKey("p256dh")),
    auth: json.keys?.auth ?? bytesBase64Url(subscription.getKey("auth")),
  };
  const { id } = await call(
    api.POST("/api/companies/{companyId}/push-subscriptions", {
      params: { path: { companyId } },
      body: { endpoint: subscription.endpoint, keys, userAgent: navigator.userAgent.slice(0, 500) },
    }),
  );
  remember(companyId, { id, endpoint: subscription.endpoint });
  return id;
}

/** Removes one of the member's push subscriptions; this browser's own subscription too when it is this device's and no other company uses it. */
export async function removePush(companyId: string, subscriptionId: string) {
  await call(api.DELETE("/api/companies/{companyId}/push-subscriptions/{subscriptionId}", { params: { path: { companyId, subscriptionId } } }));
  const mine = remembered(companyId);
  if (mine?.id !== subscriptionId) return;
  remember(companyId, null);
  let usedElsewhere = false;
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith("acp.push.") && localStorage.getItem(key)?.includes(JSON.stringify(mine.endpoint))) usedElsewhere = true;
    }
  } catch {
    /* storage disabled */
  }
  if (!usedElsewhere) await (await browserSubscription().catch(() => null))?.unsubscribe().catch(() => false);
}
