/**
 * Where keyboard and screen-reader users land after signing in: the Authenticator's form, which held focus, is gone,
 * and focus would fall back to `<body>`. Signing in asks for focus on arrival; the shell's main region takes it at
 * once, and the page's heading takes it over when it renders (its screen may still be loading). A request is
 * honoured for a few seconds only, so a heading rendered by a later, unrelated navigation never steals focus.
 */
const honouredForMs = 10_000;
let requestedAt: number | undefined;

export function requestArrivalFocus(now = Date.now()): void {
  requestedAt = now;
}

/** Whether focus on arrival was asked for recently; `consume` ends the request (the heading has it). */
export function arrivalFocusPending({ consume = false, now = Date.now() } = {}): boolean {
  const pending = requestedAt !== undefined && now - requestedAt <= honouredForMs;
  if (consume || !pending) requestedAt = undefined;
  return pending;
}
