// Open pages of the built documentation site in headless Chromium and report what a
// reader would see: for tests/test_docs_site.py.
//
// Usage: node check_site.mjs PLAYWRIGHT_CORE_DIR CHROMIUM BASE_URL SCREENSHOT_DIR PAGE...
// (PAGE: a path below BASE_URL, such as "typed/").  Prints one JSON object:
// {"pages": [{"path", "status", "title", "h1", "navLinks", "activeNav",
//             "images": [{"src", "loaded", "width"}], "charts": n, "consoleErrors": [...],
//             "pageErrors": [...], "failedRequests": [...], "outside": [...]}]}

import path from "node:path";
import { createRequire } from "node:module";

const [playwrightDir, chromium, base, shots, ...pages] = process.argv.slice(2);
const require = createRequire(path.join(playwrightDir, "package.json"));
const { chromium: launcher } = require(playwrightDir);

// The flags that let Debian's Chromium start as root in a closed sandbox: no GPU, no
// QUIC, none of the background connections this machine's network refuses.
const browser = await launcher.launch({
  executablePath: chromium,
  headless: true,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const origin = new URL(base).origin;

async function check(context, pagePath) {
  const page = await context.newPage();
  const report = { path: pagePath, consoleErrors: [], pageErrors: [], failedRequests: [], outside: [] };
  page.on("console", (message) => {
    if (message.type() === "error") report.consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => report.pageErrors.push(String(error)));
  page.on("requestfailed", (request) =>
    report.failedRequests.push(`${request.url()}: ${request.failure()?.errorText}`),
  );
  page.on("response", (response) => {
    if (response.status() >= 400) report.failedRequests.push(`${response.url()}: HTTP ${response.status()}`);
  });
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith("data:")) report.outside.push(url);
  });
  const response = await page.goto(new URL(pagePath, base).href, { waitUntil: "networkidle" });
  report.status = response ? response.status() : null;
  // Charts are <img> elements; wait until each has either loaded or failed.
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
  Object.assign(
    report,
    await page.evaluate(() => {
      const nav = document.querySelector("nav.md-nav--primary");
      const active = document.querySelector("nav.md-nav--primary .md-nav__link--active");
      const content = document.querySelector("article.md-content__inner") || document.body;
      const images = Array.from(content.querySelectorAll("img")).map((img) => ({
        src: img.getAttribute("src"),
        loaded: img.complete && img.naturalWidth > 0,
        width: img.naturalWidth,
      }));
      const links = nav ? Array.from(nav.querySelectorAll("a.md-nav__link")) : [];
      return {
        title: document.title,
        h1: content.querySelector("h1")?.textContent?.trim() ?? null,
        navLinks: links.length,
        navTexts: links.map((a) => a.textContent.trim()),
        activeNav: active ? active.textContent.trim() : null,
        images,
        charts: images.filter((image) => image.src && image.src.endsWith(".svg")).length,
        codeBlocks: content.querySelectorAll("pre > code").length,
        apiObjects: content.querySelectorAll(".doc-object").length,
      };
    }),
  );
  const name = pagePath.replace(/\/$/, "").replace(/\//g, "-") || "home";
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: false });
  await page.close();
  return report;
}

const results = [];
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // A few pages at a time: each waits for the network to be idle for half a second.
  for (let start = 0; start < pages.length; start += 4) {
    results.push(...(await Promise.all(pages.slice(start, start + 4).map((p) => check(context, p)))));
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify({ pages: results }));
