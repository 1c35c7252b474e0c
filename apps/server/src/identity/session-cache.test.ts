import { describe, expect, it } from "vitest";
import { createSessionCache, type LiveSession } from "./session-cache.js";

/**
 * The cache's rules on their own, with a counted `read` standing for the database and a clock the test moves: what
 * it answers from memory, what it reads again, and which reads it refuses to keep.
 */
const casey: LiveSession = { username: "casey", groups: ["coordinator"] };
const jti = (name: string) => `jti-${name}`;

/** A read answering `value` (null: the database finds no live session) and counting its calls. */
function counted(value: LiveSession | null = casey) {
  const read = async () => {
    read.calls += 1;
    return value ?? undefined;
  };
  read.calls = 0;
  return read;
}

function deferred() {
  let resolve: (value: LiveSession | undefined) => void = () => {};
  const promise = new Promise<LiveSession | undefined>((settle) => {
    resolve = settle;
  });
  return { read: () => promise, resolve };
}

function listeningCache(options: Parameters<typeof createSessionCache>[0] = {}) {
  const cache = createSessionCache(options);
  cache.setListening(true);
  return cache;
}

describe("the session cache", () => {
  it("answers a live sign-in's second call from memory", async () => {
    const cache = listeningCache();
    const read = counted();
    expect(await cache.liveSession(jti("a"), "casey", read)).toEqual(casey);
    expect(await cache.liveSession(jti("a"), "casey", read)).toEqual(casey);
    expect(read.calls).toBe(1);
    expect(cache.stats()).toEqual({ entries: 1, hits: 1, misses: 1 });
  });

  it("never keeps a refusal: a revoked sign-in or disabled user is read every time", async () => {
    const cache = listeningCache();
    const read = counted(null);
    expect(await cache.liveSession(jti("a"), "casey", read)).toBeUndefined();
    expect(await cache.liveSession(jti("a"), "casey", read)).toBeUndefined();
    expect(read.calls).toBe(2);
  });

  it("keeps answers it hands out from being changed by their callers", async () => {
    const cache = listeningCache();
    await cache.liveSession(jti("a"), "casey", counted());
    const kept = await cache.liveSession(jti("a"), "casey", counted());
    expect(Object.isFrozen(kept?.groups)).toBe(true);
  });

  it("reads again after a committed change naming the user, or the sign-in, and keeps the others", async () => {
    const cache = listeningCache();
    const read = counted();
    await cache.liveSession(jti("a"), "casey", read);
    await cache.liveSession(jti("b"), "casey", read);
    await cache.liveSession(jti("c"), "dale", read);
    expect(read.calls).toBe(3);

    cache.changed({ sub: "casey", nonce: "n1" });
    await cache.liveSession(jti("a"), "casey", read);
    await cache.liveSession(jti("b"), "casey", read);
    await cache.liveSession(jti("c"), "dale", read);
    expect(read.calls, "both of casey's sign-ins read again, dale's from memory").toBe(5);

    cache.changed({ originJti: jti("a"), nonce: "n2" });
    await cache.liveSession(jti("a"), "casey", read);
    await cache.liveSession(jti("b"), "casey", read);
    expect(read.calls, "only the sign-in named").toBe(6);
  });

  it("does not keep a read that a change overtook: the next call reads again", async () => {
    const cache = listeningCache();
    const slow = deferred();
    const pending = cache.liveSession(jti("a"), "casey", slow.read);
    // The revocation commits and is heard while the read (which saw the sign-in still live) is under way.
    cache.changed({ originJti: jti("a"), nonce: "n1" });
    slow.resolve(casey);
    expect(await pending, "the caller in flight still gets what it read").toEqual(casey);
    const read = counted(null);
    expect(await cache.liveSession(jti("a"), "casey", read)).toBeUndefined();
    expect(read.calls).toBe(1);
  });

  it("keeps a change this process is making out of memory until its own notification comes back", async () => {
    const cache = listeningCache();
    const read = counted();
    await cache.liveSession(jti("a"), "casey", read);
    cache.hold({ sub: "casey", nonce: "mine" });
    await cache.liveSession(jti("a"), "casey", read);
    await cache.liveSession(jti("a"), "casey", read);
    expect(read.calls, "held: read every time, kept never").toBe(3);
    // Another instance's notification about casey does not end this process's hold.
    cache.changed({ sub: "casey", nonce: "theirs" });
    await cache.liveSession(jti("a"), "casey", read);
    expect(read.calls).toBe(4);
    cache.changed({ sub: "casey", nonce: "mine" });
    await cache.liveSession(jti("a"), "casey", read);
    await cache.liveSession(jti("a"), "casey", read);
    expect(read.calls, "released: kept again").toBe(5);
  });

  it("lets a writer wait until the changes held since its mark have come back: at once when none, never while not listening", async () => {
    const cache = listeningCache();
    cache.hold({ sub: "earlier", nonce: "before-the-mark" });
    const mark = cache.holdMark();
    cache.hold({ sub: "casey", nonce: "mine" });
    cache.hold({ originJti: jti("b"), nonce: "also-mine" });
    let settled = false;
    const waiting = cache.untilHeardSince(mark, 60_000).then(() => {
      settled = true;
    });
    cache.changed({ sub: "casey", nonce: "mine" });
    cache.changed({ sub: "casey", nonce: "theirs" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(settled, "one of the two is still on its way").toBe(false);
    cache.changed({ originJti: jti("b"), nonce: "also-mine" });
    await waiting;
    expect(settled, "a change held before the mark is not waited for").toBe(true);

    await cache.untilHeardSince(cache.holdMark(), 60_000);
    const beforeLost = cache.holdMark();
    cache.hold({ sub: "casey", nonce: "lost" });
    const lost = cache.untilHeardSince(beforeLost, 60_000);
    cache.setListening(false);
    await lost;
  });

  it("stops waiting for a change that never comes back (its transaction rolled back) after the timeout", async () => {
    const cache = listeningCache();
    const mark = cache.holdMark();
    cache.hold({ sub: "casey", nonce: "rolled-back" });
    const started = Date.now();
    await cache.untilHeardSince(mark, 40);
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
  });

  it("lets the hold of a change that was rolled back (no notification ever comes) lapse after the TTL", async () => {
    let clock = 1_000_000;
    const cache = listeningCache({ ttlMs: 30_000, now: () => clock });
    const read = counted();
    cache.hold({ originJti: jti("a"), nonce: "rolled-back" });
    await cache.liveSession(jti("a"), "casey", read);
    await cache.liveSession(jti("a"), "casey", read);
    expect(read.calls).toBe(2);
    clock += 30_000;
    await cache.liveSession(jti("a"), "casey", read);
    await cache.liveSession(jti("a"), "casey", read);
    expect(read.calls).toBe(3);
  });

  it("trusts nothing while the listener is away, and keeps nothing read before it is back", async () => {
    const cache = listeningCache();
    const read = counted();
    await cache.liveSession(jti("a"), "casey", read);
    cache.setListening(false);
    expect(cache.stats().entries, "emptied the moment the connection is lost").toBe(0);
    await cache.liveSession(jti("a"), "casey", read);
    await cache.liveSession(jti("a"), "casey", read);
    expect(read.calls, "every call reads the database").toBe(3);

    // A read started while away that ends after the listener is back may predate a notification it missed.
    const slow = deferred();
    const pending = cache.liveSession(jti("a"), "casey", slow.read);
    cache.setListening(true);
    slow.resolve(casey);
    await pending;
    expect(cache.stats().entries).toBe(0);
    await cache.liveSession(jti("a"), "casey", read);
    await cache.liveSession(jti("a"), "casey", read);
    expect(read.calls, "listening again: kept again").toBe(4);
  });

  it("does not keep a read that began before the listener was lost and ended after it came back", async () => {
    const cache = listeningCache();
    const slow = deferred();
    const pending = cache.liveSession(jti("a"), "casey", slow.read);
    cache.setListening(false);
    cache.setListening(true);
    slow.resolve(casey);
    await pending;
    expect(cache.stats().entries).toBe(0);
  });

  it("reads an entry again once it is older than the TTL, notifications or not", async () => {
    let clock = 1_000_000;
    const cache = listeningCache({ ttlMs: 30_000, now: () => clock });
    const read = counted();
    await cache.liveSession(jti("a"), "casey", read);
    clock += 29_999;
    await cache.liveSession(jti("a"), "casey", read);
    expect(read.calls).toBe(1);
    clock += 1;
    await cache.liveSession(jti("a"), "casey", read);
    expect(read.calls).toBe(2);
  });

  it("holds at most maxEntries sign-ins, dropping the oldest read first", async () => {
    const cache = listeningCache({ maxEntries: 3 });
    const read = counted();
    for (const name of ["a", "b", "c", "d"]) await cache.liveSession(jti(name), "casey", read);
    expect(cache.stats().entries).toBe(3);
    await cache.liveSession(jti("d"), "casey", read);
    await cache.liveSession(jti("b"), "casey", read);
    expect(read.calls, "b and d from memory").toBe(4);
    await cache.liveSession(jti("a"), "casey", read);
    expect(read.calls, "a was dropped").toBe(5);
  });
});
