import type { Page } from "@playwright/test";

/**
 * Resolves once every finite animation and transition on the page has ended; endless ones (progress indicators)
 * are not awaited. Playwright's "stable" check passes in the slow tail of an eased transition, so a click there can
 * press on one element and release on another, and the browser then sends no click at all.
 */
export async function untilAnimationsEnd(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}
