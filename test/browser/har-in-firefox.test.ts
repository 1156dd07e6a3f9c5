import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Firefox, launchFirefox } from '../support/launch-firefox.js'
import { useHarSession } from '../support/use-har-session.js'

// The sandbox's HAR opened in Firefox's own DevTools: dropped on the Network panel of a real
// toolbox, as a user drops a .har file, then the requests the panel now holds and shows. Skipped,
// with one line at the end of the run, where firefox-esr is missing (test/support/tiers.ts).
const recordSession = useHarSession()
let firefox: Firefox

beforeAll(async () => {
  firefox = await launchFirefox()
})

afterAll(async () => {
  await firefox?.close()
})

interface Header {
  name: string
  value: string
}

/**
 * Run in Firefox's chrome context: opens the toolbox of a tab on its Network panel, drops the HAR
 * (arguments[0]) on the panel, and returns what the panel then lists (each row's cells by column)
 * and holds in its store, and what it reported: a HAR the panel cannot load is reported to the
 * console of the page under the "har" category ("Error while processing HAR file: …").
 */
const DROP_ON_NETWORK_PANEL = `
const [har] = arguments;
return (async () => {
  const errors = [];
  const listener = { observe: (message) => { if (message instanceof Ci.nsIScriptError && message.category === "har") errors.push(message.errorMessage) } };
  Services.console.registerListener(listener);
  try {
    const { require } = ChromeUtils.importESModule("resource://devtools/shared/loader/Loader.sys.mjs");
    const { gDevTools } = require("devtools/client/framework/devtools");
    const browser = Services.wm.getMostRecentWindow("navigator:browser");
    const toolbox = await gDevTools.showToolboxForTab(browser.gBrowser.selectedTab, { toolId: "netmonitor" });
    const panel = toolbox.getCurrentPanel().panelWin;
    const document = panel.document;
    const wait = (ms) => new Promise((resolve) => panel.setTimeout(resolve, ms));
    let target;
    for (let tries = 0; !(target = document.querySelector(".request-list-empty-notice")) && tries < 100; tries++) await wait(100);
    const files = new panel.DataTransfer();
    files.items.add(new panel.File([har], "session.har", { type: "application/json" }));
    target.dispatchEvent(new panel.DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: files }));
    const requests = () => [...panel.store.getState().requests.requests];
    for (let tries = 0; requests().length === 0 && errors.length === 0 && tries < 100; tries++) await wait(100);
    await wait(300);
    // The created pet in the panel's Response tab: the second row selected, the tab opened.
    let response = "";
    const created = document.querySelectorAll(".request-list-item")[1];
    if (created !== undefined) {
      created.dispatchEvent(new panel.MouseEvent("mousedown", { bubbles: true }));
      let tab;
      for (let tries = 0; !(tab = document.querySelector("#response-tab")) && tries < 50; tries++) await wait(100);
      tab?.click();
      for (let tries = 0; !(response = document.querySelector("#response-panel")?.textContent ?? "").includes("Imported") && tries < 50; tries++) await wait(100);
    }
    return {
      response,
      errors,
      rows: [...document.querySelectorAll(".request-list-item")].map((row) => Object.fromEntries([...row.children].map((cell) => [cell.className.replace(/.*requests-list-(?!column)/, "").trim(), cell.textContent]))),
      requests: requests().map((request) => ({
        url: request.url,
        method: request.method,
        status: request.status,
        statusText: request.statusText,
        requestHeaders: request.requestHeaders?.headers,
        responseHeaders: request.responseHeaders?.headers,
        requestBody: request.requestPostData?.postData?.text,
        responseBody: request.responseContent?.content?.text,
      })),
    };
  } finally {
    Services.console.unregisterListener(listener);
  }
})();
`

it("opens in Firefox's network panel: every exchange listed, with its method, status, headers and bodies, no key in full", async () => {
  const session = await recordSession()
  const { errors, rows, requests, response } = await firefox.chrome<{
    errors: string[]
    response: string
    rows: Array<Record<string, string>>
    requests: Array<{
      url: string
      method: string
      status: number
      statusText: string
      requestHeaders: Header[]
      responseHeaders: Header[]
      requestBody?: string
      responseBody?: string
    }>
  }>(DROP_ON_NETWORK_PANEL, [await readFile(session.file, 'utf8')])
  expect(errors).toEqual([])

  // The list, as the panel renders it: status, method, file and type columns.
  expect(rows.map(({ status, method, file, type }) => ({ status, method, file, type }))).toEqual(
    session.exchanges.map(({ url, method, status }) => ({
      status: String(status),
      method,
      file: new URL(url).pathname.split('/').pop() + new URL(url).search,
      type: 'json',
    })),
  )
  expect(requests.map(({ url, method, status }) => ({ url, method, status }))).toEqual(
    session.exchanges.map(({ url, method, status }) => ({ url, method, status })),
  )
  for (const [index, seen] of session.exchanges.entries()) {
    const request = requests[index]!
    expect(request.statusText).not.toBe('')
    expect(request.requestBody ?? undefined).toBe(seen.requestBody)
    expect(request.responseBody ?? '').toBe(seen.responseBody)
    // The answer's headers as the client received them (the transport's own, and Content-Length, aside).
    const headers = Object.fromEntries(request.responseHeaders.map(({ name, value }) => [name, value]))
    for (const name of ['content-type', 'x-ratelimit-remaining', 'www-authenticate'])
      expect(headers[name], name).toBe(seen.responseHeaders[name])
    const authorization = request.requestHeaders.find(({ name }) => name === 'authorization')?.value
    if (authorization !== undefined) expect(authorization).toMatch(/^Bearer sand…#[0-9a-f]{4}$/)
  }
  expect(
    requests.filter(({ requestHeaders }) => requestHeaders.some(({ name }) => name === 'authorization')),
  ).toHaveLength(session.exchanges.length - 1)
  const shown = JSON.stringify(requests)
  for (const secret of session.secrets) expect(shown).not.toContain(secret)
  expect(response).toContain('"Imported"')
})
