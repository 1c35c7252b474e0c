import { expect, type Page } from "@playwright/test";
import { untilAnimationsEnd } from "./animations.js";

/**
 * Chooses an entry of the menu that is opening or open, once the menu has finished growing: a click while it still
 * grows was lost on a slow machine (pressed on the entry, released as it moved), and the menu simply stayed open.
 * Choosing an entry closes every menu of the app, which is what is waited for.
 */
export async function chooseMenuItem(page: Page, name: string): Promise<void> {
  const item = page.getByRole("menuitem", { name });
  await item.waitFor();
  await untilAnimationsEnd(page);
  await item.click();
  await expect(item).toBeHidden();
}
