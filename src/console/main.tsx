// The board console's entry: renders the app into #app, and registers the service worker (/sw.js:
// installable console, web push) once the page has loaded.
import { render } from "preact";
import { App } from "./app";
import "./styles.css";

render(<App />, document.getElementById("app")!);

if ("serviceWorker" in navigator)
  addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  });
