import {
  displayNames,
  expect,
  mainNavigation,
  readStoredTokens,
  seededUser,
  signInToHome,
  test,
} from "../support/fixtures.js";

test("opened at another address of the server than PUBLIC_URL, the app signs in through that address", async ({
  browser,
  state,
}) => {
  // The shared server's PUBLIC_URL is http://127.0.0.1:<port>; the same server answers at localhost as well, as a
  // server does at its LAN address.
  const publicUrl = new URL(state.baseURL);
  const otherAddress = `http://localhost:${publicUrl.port}`;
  expect(publicUrl.hostname).toBe("127.0.0.1");

  const context = await browser.newContext({ baseURL: otherAddress });
  const page = await context.newPage();
  try {
    const blocked: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to connect/i.test(message.text())) blocked.push(message.text());
    });
    const identityCalls: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/cognito") identityCalls.push(request.url());
    });

    await signInToHome(page, seededUser(state, "coordinator"), displayNames.coordinator);
    await expect(mainNavigation(page).getByRole("link", { name: "Clients", exact: true })).toBeVisible();

    expect(identityCalls.length, "the sign-in went to the identity endpoint").toBeGreaterThan(0);
    expect(identityCalls.filter((url) => !url.startsWith(`${otherAddress}/cognito`))).toEqual([]);
    expect(blocked).toEqual([]);
    // The tokens still name PUBLIC_URL as their issuer, whatever address the page was loaded from.
    const { idToken } = await readStoredTokens(page);
    const claims = JSON.parse(Buffer.from(String(idToken).split(".")[1] ?? "", "base64url").toString("utf8"));
    expect(claims.iss).toBe(state.baseURL);
  } finally {
    await context.close();
  }
});
