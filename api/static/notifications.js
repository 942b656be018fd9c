// Turn notifications that reach a closed tab (docs/notifications.md), on the account page: an email
// address (confirmed by the link of a first mail before any other), its mode (a mail per turn or a daily
// digest), and push notifications on this device (the service worker /sw.js shows them and opens the
// game on a click).
import { api } from "/static/common.js";

// What each state of an address means to its owner (also the play page's, seat-mail.js).
export const STATES = {
  pending: "waiting for you to open the link of the confirmation mail",
  confirmed: "confirmed: you get a mail when it is your turn",
  bounced: "refused by the mail server: give another address",
  unsubscribed: "unsubscribed: save it again to get mails",
};

export async function renderNotifications(account) {
  const reach = await api("/me/notifications");
  const status = document.getElementById("email-status");
  if (reach.email) {
    document.getElementById("email").value = reach.email.address;
    document.getElementById("email-mode").value = reach.email.mode;
    status.textContent = `This address is ${STATES[reach.email.status] || reach.email.status}.`;
    status.dataset.status = reach.email.status;
  } else {
    status.textContent = "No address: no mails.";
    delete status.dataset.status;
  }
  document.getElementById("push-status").textContent = reach.push_devices
    ? `${reach.push_devices} device${reach.push_devices === 1 ? "" : "s"} get push notifications.`
    : "No device gets push notifications.";
  document.getElementById("push-on").hidden = !("serviceWorker" in navigator && "PushManager" in window);
  return reach;
}

export async function saveEmail(account) {
  const address = document.getElementById("email").value.trim();
  const mode = document.getElementById("email-mode").value;
  if (address) await api("/me/email", { method: "PUT", body: { address, mode }, csrf: account.csrf_token });
  else await api("/me/email", { method: "DELETE", csrf: account.csrf_token });
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

// Subscribe this device (the browser's push service) and give the subscription to the account.
export async function pushOn(account) {
  if ((await Notification.requestPermission()) !== "granted") throw new Error("notifications were not allowed");
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  const { public_key } = await api("/push/key");
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true, applicationServerKey: keyBytes(public_key),
  });
  await api("/me/push", { method: "PUT", body: subscription.toJSON(), csrf: account.csrf_token });
}
