// The service worker of Web Push (docs/notifications.md): a pushed turn ({title, body, url, tag}) is shown
// as a notification, and a click on it opens the game (a tab already on it is focused instead).
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = data.title || "Galileo Galilei";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || "",
      tag: data.tag || "galileo",
      data: { url: data.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url || "/", self.location.origin);
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of open) {
        if (new URL(client.url).pathname === url.pathname && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(url.href);
    })(),
  );
});
